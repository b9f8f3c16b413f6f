"""`easymoney diff`: what differs between two variants: settings, rules, spaces and cards."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._variant_args import add_variant_args, variant_from_args

if TYPE_CHECKING:
    from ..engine.model import Card, Variant

SETTINGS = ("name", "description", "sources", "min_players", "max_players", "smallest_bill",
            "starting_cash", "bank_total", "houses_per_player", "houses_per_street")


HELP = "show what differs between two variants"
DESCRIPTION = """Compare two variants (built-in names or YAML files), both fully resolved:
their settings, sides, which rules are on and their options, the spaces by
number and name, and the cards by text. Prints 'no differences' when there
are none. --with, --without and --option change B only, so that
`easymoney diff standard standard --without four_sides` shows what the
change does. Exit status 0 either way."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="the first variant")
    parser.add_argument("b", metavar="B", help="the second variant (the overrides apply to it)")
    add_variant_args(parser)


WIDTH = 79  # a longer line is wrapped, at spaces, under its first word


def _value(value: Any) -> str:
    """The value whole, quotes closed: a difference cut short would hide what changed."""
    if isinstance(value, tuple):
        value = list(value)
    from ..loading.yamlload import show_value
    return show_value(value, limit=sys.maxsize)


def _change(label: str, a: Any, b: Any) -> str:
    """`label: A -> B`; when that is too long for a line, B begins a line of its own."""
    line = f"{label}: {_value(a)} -> {_value(b)}"
    return line if len(line) + 2 <= WIDTH else f"{label}: {_value(a)}\n-> {_value(b)}"


def _wrapped(line: str) -> str:
    """A line of `differences` as printed: indented, wrapped at spaces within WIDTH."""
    import textwrap
    return "\n".join(wrapped for k, part in enumerate(line.split("\n"))
                     for wrapped in textwrap.wrap(part, WIDTH, initial_indent="    " if k else "  ",
                                                  subsequent_indent="    ",
                                                  break_long_words=False,
                                                  break_on_hyphens=False))


def _data_changes(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    changes = []
    for key in [*a, *(k for k in b if k not in a)]:
        if key not in b:
            changes.append(f"{key} {_value(a[key])} -> (none)")
        elif key not in a:
            changes.append(f"{key} (none) -> {_value(b[key])}")
        elif a[key] != b[key]:
            changes.append(f"{key} {_value(a[key])} -> {_value(b[key])}")
    return changes


def _cards(cards: Iterable[Card]) -> dict[str, tuple[int, str, dict[str, Any]]]:
    found: dict[str, tuple[int, str, dict[str, Any]]] = {}
    for card in cards:
        count = found[card.text][0] + 1 if card.text in found else 1
        found[card.text] = (count, card.kind, dict(card.data))
    return found


def differences(a: Variant, b: Variant) -> dict[str, list[str]]:
    """Section title -> lines saying what changes from A to B."""
    out: dict[str, list[str]] = {"settings": [], "sides": [], "rules": [], "spaces": [],
                                 "cards": []}
    for key in SETTINGS:
        if getattr(a, key) != getattr(b, key):
            out["settings"].append(_change(key, getattr(a, key), getattr(b, key)))
    for side in [*a.sides, *(s for s in b.sides if s not in a.sides)]:
        ra, rb = a.sides.get(side), b.sides.get(side)
        if ra != rb:
            shown = [f"{r[0]}-{r[1]}" if r else "(none)" for r in (ra, rb)]
            out["sides"].append(f"side {side}: {shown[0]} -> {shown[1]}")
    for pid in [*a.rules, *(p for p in b.rules if p not in a.rules)]:
        if (pid in a.rules) != (pid in b.rules):
            out["rules"].append(f"{pid}: {'on' if pid in a.rules else 'off'} -> "
                                f"{'on' if pid in b.rules else 'off'}")
            continue
        oa, ob = a.rules[pid], b.rules[pid]
        for name in [*oa, *(n for n in ob if n not in oa)]:
            if oa.get(name) != ob.get(name):
                out["rules"].append(_change(f"{pid}.{name}", oa.get(name), ob.get(name)))
    for index in range(max(len(a.spaces), len(b.spaces))):
        sa = a.spaces[index] if index < len(a.spaces) else None
        sb = b.spaces[index] if index < len(b.spaces) else None
        if sa is None or sb is None:
            space = sa or sb
            assert space is not None
            out["spaces"].append(f"#{index} {space.name} ({space.kind}): only in "
                                 f"{'A' if sb is None else 'B'}")
            continue
        title = f"#{index} {sa.name}"
        changes = []
        if sa.name != sb.name:
            changes.append(f"name {_value(sa.name)} -> {_value(sb.name)}")
        if sa.kind != sb.kind:
            changes.append(f"kind {sa.kind} -> {sb.kind}")
        if sa.side != sb.side:
            changes.append(f"side {_value(sa.side)} -> {_value(sb.side)}")
        changes += _data_changes(sa.data, sb.data)
        if changes:
            out["spaces"].append(f"{title}: {'; '.join(changes)}")
    ca, cb = _cards(a.cards), _cards(b.cards)
    for text in [*ca, *(t for t in cb if t not in ca)]:
        if text not in cb or text not in ca:
            count, kind, data = ca.get(text) or cb[text]
            only = "A" if text not in cb else "B"
            out["cards"].append(f"{text!r} ({kind}, {count} in the deck): only in {only}")
            continue
        (na, ka, da), (nb, kb, db) = ca[text], cb[text]
        changes = [f"count {na} -> {nb}"] if na != nb else []
        changes += [f"kind {ka} -> {kb}"] if ka != kb else []
        changes += _data_changes(da, db)
        if changes:
            out["cards"].append(f"{text!r}: {'; '.join(changes)}")
    return {title: lines for title, lines in out.items() if lines}


def run(args: argparse.Namespace) -> int:
    a = variant_from_args(args.a, argparse.Namespace())
    b = variant_from_args(args.b, args)
    found = differences(a, b)
    if not found:
        print("no differences")
        return 0
    print(f"--- A: {args.a}\n+++ B: {args.b}")
    for title, lines in found.items():
        print(f"{title}:")
        for line in lines:
            print(_wrapped(line))
    return 0
