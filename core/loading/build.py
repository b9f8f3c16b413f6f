"""Building the `Variant` of a checked document, and the resolved document `easymoney show` prints."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..engine.model import Card, Space, Variant
from ..engine.registry import Registry

def build_variant(doc: Mapping[str, Any], rules: dict[str, dict[str, Any]], origin: str) -> Variant:
    sides: dict[int, tuple[int, int]] = {s["side"]: (s["first"], s["last"])
                                         for s in doc["board"].get("sides", [])}

    def side_of(index: int) -> int | None:
        for side, (first, last) in sides.items():
            if first <= index <= last:
                return side
        return None

    spaces: list[Space] = []
    for entry in doc["board"]["spaces"]:
        data = {k: v for k, v in entry.items() if k not in ("name", "kind")}
        for _ in range(entry.get("cells", 1)):
            index = len(spaces)
            spaces.append(Space(index, entry["name"], entry["kind"], side_of(index),
                                copy.deepcopy(data)))
    cards: list[Card] = []
    for entry in doc["deck"]:
        data = {k: v for k, v in entry.items() if k not in ("text", "kind", "count")}
        for _ in range(entry.get("count", 1)):
            cards.append(Card(entry["text"], entry["kind"], copy.deepcopy(data)))
    return Variant(
        name=doc["name"],
        description=" ".join(str(doc.get("description", "")).split()),
        sources=tuple(doc.get("sources", ())),
        min_players=doc["players"]["min"],
        max_players=doc["players"]["max"],
        smallest_bill=doc["money"]["smallest_bill"],
        starting_cash=doc["money"]["starting_cash"],
        bank_total=doc["money"]["bank_total"],
        houses_per_player=doc["houses"]["per_player"],
        houses_per_street=doc["houses"]["per_street"],
        spaces=tuple(spaces),
        sides=sides,
        cards=tuple(cards),
        rules=rules,
        origin=origin,
        document=resolved_document(doc, rules),
    )


def resolved_document(doc: Mapping[str, Any], rules: Mapping[str, Mapping[str, Any]],
                      registry: Registry | None = None) -> dict[str, Any]:
    """The document with `rules` spelt out: every enabled rule (options filled), explicit offs."""
    written = doc.get("rules") or {}
    out = copy.deepcopy({k: v for k, v in doc.items() if k not in ("extends", "modify")})
    spelt: dict[str, Any] = {}
    for pid, options in rules.items():
        if pid != "core":
            spelt[pid] = dict(options) if options else True
    for pid, value in written.items():
        if value is False and pid not in rules:
            spelt[pid] = False
    order: dict[str, int] = {}
    for pid in [*written, *rules]:  # the file's order, then the rules it did not name
        order.setdefault(pid, len(order))
    out["rules"] = {pid: spelt[pid] for pid in sorted(spelt, key=order.__getitem__)}
    return out

