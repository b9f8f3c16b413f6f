"""The checks that need the whole variant: enabled rules, annotations, names, sides, and the plugins' own checks."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..engine.model import Variant
from ..engine.registry import Registry, manager_for
from ..errors import EasyMoneyError, PluginError, did_you_mean
from .limits import check_limits
from .origins import Origins, raise_all
from .schema import validator_class
from .validate import variant_schema_cached
from .yamlload import Path

def enabled_rules(doc: Mapping[str, Any], origins: Origins, registry: Registry
             ) -> dict[str, dict[str, Any]]:
    """Enabled plugin id -> options with defaults filled, in registry order."""
    written = doc.get("rules") or {}
    rules: dict[str, dict[str, Any]] = {}
    for pid, info in registry.plugins.items():
        value = written.get(pid)
        if info.essential and value is False:
            raise origins.error(("rules", pid), f"rule {pid!r} is essential and cannot be "
                                                f"switched off: found false; expected true")
        if info.essential or value is True or isinstance(value, dict):
            rules[pid] = {**info.defaults(), **(value if isinstance(value, dict) else {})}
    for pid in rules:
        for need in registry.plugins[pid].requires:
            if need in rules:
                continue
            if need not in registry.plugins:
                raise origins.error(("rules", pid), f"rule {pid!r} requires rule {need!r}, which "
                                                    f"is not installed")
            if written.get(need) is False:
                raise origins.error(("rules", need), f"rule {pid!r} requires rule {need!r}: found "
                                                     f"false; expected true (or switch off {pid!r})")
            raise origins.error(("rules", pid), f"rule {pid!r} requires rule {need!r}, which is "
                                                f"off; expected {need}: true in rules")
    return rules


def _annotations(schema: Any, value: Any, path: Path, out: list[tuple[str, Path, Any]]) -> None:
    """Every (annotation, path, value) of `x-money`, `x-space`, `x-per-house` that applies to `value`."""
    if not isinstance(schema, dict):
        return
    for mark in ("x-money", "x-space", "x-per-house"):
        if schema.get(mark):
            out.append((mark, path, value))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key, sub in value.items():
            if key in props:
                _annotations(props[key], sub, path + (key,), out)
            elif isinstance(schema.get("additionalProperties"), dict):
                _annotations(schema["additionalProperties"], sub, path + (key,), out)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            _annotations(schema["items"], item, path + (i,), out)
    kind = value.get("kind") if isinstance(value, dict) else None
    for sub in schema.get("allOf", ()):
        const = sub.get("if", {}).get("properties", {}).get("kind", {}).get("const")
        if const is None or const == kind:
            _annotations(sub, value, path, out)
    if "if" in schema and "then" in schema:
        cond = schema["if"]
        kind = cond.get("properties", {}).get("kind", {}).get("const") if isinstance(cond, dict) else None
        if kind is not None:
            hit = isinstance(value, dict) and value.get("kind") == kind
        else:
            hit = _plain_condition(cond, value)
            if hit is None:
                hit = validator_class()(cond).is_valid(value)
        if hit:
            _annotations(schema["then"], value, path, out)


_PLAIN_TYPES: dict[str, type] = {"object": dict, "array": list, "string": str}


def _plain_condition(cond: Any, value: Any) -> bool | None:
    """Whether `value` meets an `if` of only `type` (a mapping, a list, a string) and
    `required`, as JSON Schema says (None: another condition, for jsonschema to decide).
    The variant schema's own are of this shape: no schema library is imported for them."""
    if not isinstance(cond, dict) or not set(cond) <= {"type", "required"}:
        return None
    wanted = cond.get("type")
    if wanted is not None and (not isinstance(wanted, str) or wanted not in _PLAIN_TYPES):
        return None
    required = cond.get("required", [])
    if not isinstance(required, list):
        return None
    if wanted is not None and not isinstance(value, _PLAIN_TYPES[wanted]):
        return False
    return not isinstance(value, dict) or all(key in value for key in required)

def check_variant(doc: dict[str, Any], origins: Origins, registry: Registry,
           rules: Mapping[str, Mapping[str, Any]]) -> None:
    """The checks a schema cannot make: every mistake found is raised (origins.raise_all)."""
    errors: list[EasyMoneyError] = []
    found: list[tuple[str, Path, Any]] = []
    body = {k: v for k, v in doc.items() if k != "rules"}
    _annotations(variant_schema_cached(registry), body, (), found)
    for pid, values in rules.items():
        for name, value in values.items():
            if name in registry.plugins[pid].options:
                _annotations(dict(registry.plugins[pid].options[name]), value,
                             ("rules", pid, name), found)
    check_limits(doc, origins, {path for mark, path, _ in found if mark == "x-money"}, errors)
    error = errors.append
    players, money, houses = doc["players"], doc["money"], doc["houses"]
    if players["min"] > players["max"]:
        error(origins.error(("players", "min"), f"more than players.max: found {players['min']}; "
                                                f"expected at most {players['max']}",
                            blame=[("players", "max")]))
    need = players["max"] * money["starting_cash"]
    if money["bank_total"] < need:
        error(origins.error(("money", "bank_total"),
                            f"too small to deal the starting cash: found {money['bank_total']}; "
                            f"expected at least {need} (players.max {players['max']} x "
                            f"money.starting_cash {money['starting_cash']})",
                            blame=[("players", "max"), ("money", "starting_cash")]))
    spaces = doc["board"]["spaces"]
    first_at: dict[str, int] = {}
    entry_of: dict[str, int] = {}
    number = 0
    for i, space in enumerate(spaces):
        name = space["name"]
        if name in first_at:
            # the entry a `modify` renamed is the mistake, whichever comes first
            first, at, other = entry_of[name], i, first_at[name]
            if _modified(origins, ("board", "spaces", first, "name")) and not _modified(
                    origins, ("board", "spaces", i, "name")):
                at, other = first, number
            error(origins.error(("board", "spaces", at, "name"),
                                f"duplicate space name: found {name!r}; expected a name used "
                                f"once (space {other} has it)", blame=[("board", "spaces")]))
        else:
            first_at[name] = number
            entry_of[name] = i
        number += space.get("cells", 1)
    size = number
    sides = doc["board"].get("sides", [])
    seen: dict[int, int] = {}
    taken: list[tuple[int, int, int]] = []
    for i, side in enumerate(sides):
        # one mistake a side: the checks after the first would repeat it in other words
        if side["side"] in seen:
            error(origins.error(("board", "sides", i, "side"),
                                f"duplicate side: found {side['side']}; expected each side "
                                f"once (board.sides[{seen[side['side']]}] has it)"))
            continue
        seen[side["side"]] = i
        if side["last"] >= size:
            error(origins.error(("board", "sides", i, "last"),
                                f"outside the board: found {side['last']}; expected at most "
                                f"{size - 1} (the board has {size} spaces, numbered from 0)",
                                blame=[("board", "spaces")]))
            continue
        if side["first"] > side["last"]:
            error(origins.error(("board", "sides", i, "first"),
                                f"after last: found {side['first']}; expected at most "
                                f"{side['last']} (board.sides[{i}].last)"))
            continue
        overlapped = next(((other, first, last) for other, first, last in taken
                           if side["first"] <= last and first <= side["last"]), None)
        if overlapped is not None:
            other, first, last = overlapped
            error(origins.error(("board", "sides", i),
                                f"overlapping sides: found spaces {side['first']}-"
                                f"{side['last']}; expected no space of side {other} "
                                f"({first}-{last})"))
            continue
        taken.append((side["side"], side["first"], side["last"]))
    texts: dict[str, int] = {}
    for i, card in enumerate(doc["deck"]):
        if card["text"] in texts:
            at, other = i, texts[card["text"]]
            if _modified(origins, ("deck", other, "text")) and not _modified(
                    origins, ("deck", i, "text")):
                at, other = other, i
            error(origins.error(("deck", at, "text"),
                                f"duplicate card text: found {card['text']!r}; expected each "
                                f"text once (deck[{other}] has it; use count for copies)",
                                blame=[("deck",)]))
        else:
            texts[card["text"]] = i
    bill, per_street = money["smallest_bill"], houses["per_street"]
    for mark, path, value in found:
        default = "" if _exists(doc, path) else " (the default)"
        if mark == "x-money" and isinstance(value, int) and value % bill:
            error(origins.error(path, f"not a multiple of the smallest bill: found {value}"
                                      f"{default}; expected a multiple of {bill} "
                                      f"(money.smallest_bill)",
                                blame=[("money", "smallest_bill")]))
        if mark == "x-space" and isinstance(value, str) and value not in first_at:
            error(origins.error(path, f"unknown space: found {value!r}; expected the name of a "
                                      f"space of the board{did_you_mean(value, first_at)}",
                                blame=[("board", "spaces")]))
        if mark == "x-per-house" and isinstance(value, list) and len(value) != per_street:
            error(origins.error(path, f"wrong number of entries: found {len(value)}; expected "
                                      f"{per_street}, one per number of houses "
                                      f"(houses.per_street)",
                                blame=[("houses", "per_street")]))
    raise_all(errors)


def _modified(origins: Origins, path: Path) -> bool:
    """Whether the value at `path` was written by a `modify` entry."""
    return origins.find(path)[0][3][:1] == ("modify",)


def _exists(doc: Any, path: Path) -> bool:
    for part in path:
        if isinstance(doc, dict) and part in doc:
            doc = doc[part]
        elif isinstance(doc, list) and isinstance(part, int) and part < len(doc):
            doc = doc[part]
        else:
            return False
    return True

_PATH_PREFIX = re.compile(r"^((?:[A-Za-z_]\w*|\[\d+\])(?:\.[A-Za-z_]\w*|\[\d+\])*)\s*:\s*(.*)$")


def hook_checks(variant: Variant, doc: Mapping[str, Any], origins: Origins,
                 registry: Registry) -> None:
    pm = manager_for(registry, variant.rules)  # the one its games will use
    errors: list[EasyMoneyError] = []  # every rule's messages: `check` reports them all
    for impl in reversed(pm.hook.em_check_variant.get_hookimpls()):
        args = {"variant": variant}
        try:
            messages: Any = impl.function(**{a: args[a] for a in impl.argnames if a in args})
        except EasyMoneyError:
            raise
        except Exception as exc:  # a plugin's bug must not pass for a valid variant
            raise PluginError(f"rule {impl.plugin_name!r} failed while checking variant "
                              f"{variant.name!r}: {type(exc).__name__}: {exc}") from None
        errors += [_locate_message(str(message), impl.plugin_name, variant, doc, origins)
                   for message in messages or ()]
    raise_all(errors)


def _locate_message(message: str, pid: str, variant: Variant, doc: Mapping[str, Any],
                    origins: Origins) -> EasyMoneyError:
    """A plugin's message, located at the key it names, or the space it quotes, or its rules entry."""
    match = _PATH_PREFIX.match(message)
    if match:
        path = tuple(int(p[1:-1]) if p.startswith("[") else p
                     for p in re.findall(r"[A-Za-z_]\w*|\[\d+\]", match.group(1)))
        if path and _exists(doc, path):
            return origins.error(path, f"{match.group(2)} (rule {pid!r})")
    for i, space in enumerate(doc["board"]["spaces"]):
        if f"'{space['name']}'" in message or f'"{space["name"]}"' in message:
            return origins.error(("board", "spaces", i), f"{message} (rule {pid!r})",
                                 blame=[("board", "spaces")])
    path = ("rules", pid) if pid in (doc.get("rules") or {}) else ()
    return origins.error(path, f"{message} (rule {pid!r})", label=path)

