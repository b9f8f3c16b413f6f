"""The variant schema applied to a document, and its errors explained in words."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..engine.registry import Registry
from ..errors import PluginError, did_you_mean, not_installed
from .limits import check_sizes
from .origins import Origins, raise_all, reading_order
from .prechecked import accepted, passes_ahead
from .schema import validator_class, variant_schema_cached
from .yamlload import YAML11_BOOLEANS, Path, show_value

if TYPE_CHECKING:  # jsonschema is imported only when a document is checked against the schema
    from jsonschema import ValidationError

_TYPE_WORDS = {"integer": "an integer", "string": "a string", "boolean": "true or false",
               "object": "a mapping", "array": "a list", "null": "null", "number": "a number"}
_PRIORITY = {"additionalProperties": 0, "type": 1, "enum": 2, "const": 2, "required": 3,
             "oneOf": 4}


def _boolean_hint(value: Any) -> str:
    if isinstance(value, str) and value.lower() in YAML11_BOOLEANS:
        word = "true" if YAML11_BOOLEANS[value.lower()] else "false"
        return f"; write {word} (YAML 1.2 booleans are true/false)"
    return ""


def explain(error: ValidationError, registry: Registry, prefix: Path = (),
            extra: str | None = None) -> tuple[str, Path, bool]:
    """(message without the path, the path to locate, whether to locate its key). An
    unknown key is the first of its mapping's, or `extra`."""
    path = prefix + tuple(error.absolute_path)
    value, schema, expected = error.instance, error.schema, error.validator_value
    kind = error.validator
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = list(schema.get("properties", {}))
        extra = extra or next((k for k in value if k not in allowed), "?")
        if path == ("rules",):
            hint = not_installed(extra) or did_you_mean(extra, allowed)
            if re.match(r"^R\d+[a-z]?$", extra):
                try:
                    hint = f" (write the plugin id '{registry.resolve(extra)}')"
                except PluginError:
                    pass
            return (f"unknown rule: found {extra!r}; expected the id of an installed rule "
                    f"plugin{hint}", path + (extra,), True)
        return (f"unknown key: found {extra!r}; expected one of {', '.join(allowed)}"
                f"{did_you_mean(extra, allowed)}", path + (extra,), True)
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        if set(types) == {"boolean", "object"}:
            words = "true, false or a mapping of options"
        else:
            words = " or ".join(str(_TYPE_WORDS.get(t, t)) for t in types)
        hint = _boolean_hint(value) if "boolean" in types else ""
        if "integer" in types and isinstance(value, str) and re.match(r"^\$?[0-9][0-9,_]*$", value):
            hint = f"; write {re.sub(r'[^0-9]', '', value)} (plain digits)"
        return f"wrong type: found {show_value(value)}; expected {words}{hint}", path, False
    if kind in ("enum", "const"):
        choices = list(expected) if kind == "enum" else [expected]
        what = "not allowed"
        if path[-1:] == ("kind",):
            what = ("unknown space kind" if path[:2] == ("board", "spaces")
                    else "unknown card kind" if path[:1] == ("deck",) else what)
        shown = ", ".join(c if isinstance(c, str) else show_value(c) for c in choices)
        hint = did_you_mean(value, [str(c) for c in choices]) if isinstance(value, str) else ""
        if any(isinstance(c, bool) for c in choices):
            hint = hint or _boolean_hint(value)
        return f"{what}: found {show_value(value)}; expected one of {shown}{hint}", path, False
    if kind == "required" and isinstance(value, dict):
        missing = next((k for k in expected if k not in value), "?")
        extra = " (or extends)" if path == () else ""
        return f"missing key {missing!r}; expected the keys {', '.join(expected)}{extra}", path, False
    if kind == "oneOf" and isinstance(value, dict) and all(
            set(s) == {"required"} and len(s["required"]) == 1 for s in expected):
        keys = [s["required"][0] for s in expected]
        present = [k for k in keys if k in value]
        names = " or ".join(repr(k) for k in keys)
        if not present:
            return f"missing key: found none of {names}; expected exactly one of them", path, False
        return (f"conflicting keys: found {' and '.join(repr(k) for k in present)}; expected "
                f"exactly one of {names}", path, False)
    if kind in ("minimum", "exclusiveMinimum"):
        bound = "at least" if kind == "minimum" else "more than"
        return f"too small: found {show_value(value)}; expected {bound} {expected}", path, False
    if kind in ("maximum", "exclusiveMaximum"):
        bound = "at most" if kind == "maximum" else "less than"
        return f"too large: found {show_value(value)}; expected {bound} {expected}", path, False
    if kind in ("minItems", "maxItems"):
        bound = "at least" if kind == "minItems" else "at most"
        return (f"wrong number of entries: found {len(value)}; expected {bound} {expected}",
                path, False)
    if kind == "minLength":
        return f"empty: found {show_value(value)}; expected a non-empty string", path, False
    return error.message, path, False


def ranked_errors(errors: Iterable[tuple[ValidationError, Path]], doc: Any, registry: Registry
                  ) -> list[tuple[str, Path, bool]]:
    """Every error explained, in the order the document reads, each place once (its most
    telling error: a wrong type before a value out of range), each unknown key apart."""
    order = reading_order(doc)
    best: dict[tuple[Path, bool], tuple[Any, ...]] = {}
    for error, prefix in errors:
        value = error.instance
        extras: list[str | None] = [None]
        if error.validator == "additionalProperties" and isinstance(value, dict):
            allowed = error.schema.get("properties", {})
            extras = [k for k in value if k not in allowed] or [None]
        for extra in extras:
            message, path, key = explain(error, registry, prefix, extra)
            probe = path[:-1] if key else path  # a wrong key ranks with its mapping, before "missing"
            while probe and probe not in order:
                probe = probe[:-1]
            rank = (order.get(probe, 0), _PRIORITY.get(error.validator, 9))
            if (path, key) not in best or rank < best[path, key][0]:
                best[path, key] = (rank, message, path, key)
    return [found[1:] for found in sorted(best.values(), key=lambda found: found[0])]


class Checker:
    """The variant schema, applied with spaces and cards dispatched on `kind` at once.

    Equivalent to validating against `variant_schema(registry)`, whose if/then chains make
    jsonschema try every kind on every space: this is several times faster.
    """

    def __init__(self, registry: Registry) -> None:
        Validator = validator_class()
        self.registry = registry
        self.schema = variant_schema_cached(registry)
        lean = copy.deepcopy(self.schema)
        board = lean["properties"]["board"]["properties"]
        self.items: dict[Path, tuple[Any, dict[str, Any]]] = {}
        for where, holder, key in ((("board", "spaces"), board["spaces"], "items"),
                                   (("deck",), lean["properties"]["deck"], "items")):
            item = holder[key]
            plain = {k: v for k, v in item.items() if k != "allOf"}
            by_kind = {b["if"]["properties"]["kind"]["const"]: Validator({"allOf": [plain, b["then"]]})
                       for b in item["allOf"]}
            self.items[where] = (Validator(plain), by_kind)
            holder[key] = {"type": "object"}
        self.top = Validator(lean)

    def errors(self, doc: Any) -> Iterable[tuple[ValidationError, Path]]:
        for error in self.top.iter_errors(doc):
            yield error, ()
        for where, (plain, by_kind) in self.items.items():
            items: Any = doc
            for part in where:
                items = items.get(part) if isinstance(items, dict) else None
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if isinstance(item, dict):
                    kind = item.get("kind")  # any value: a list or a mapping is no kind
                    validator = by_kind.get(kind, plain) if isinstance(kind, str) else plain
                    for error in validator.iter_errors(item):
                        yield error, where + (i,)


_CHECKERS: dict[int, Checker] = {}


def checker_for(registry: Registry) -> Checker:
    checker = _CHECKERS.get(id(registry))
    if checker is None or checker.registry is not registry:
        checker = _CHECKERS[id(registry)] = Checker(registry)
    return checker


def validate(doc: Any, origins: Origins, registry: Registry) -> None:
    check_sizes(doc, origins)  # before the schema, which takes its time over each entry
    if passes_ahead(doc, registry):
        return  # a built-in variant's document, checked when the package was made
    raise_all([origins.error(path, message, key=key) for message, path, key
               in ranked_errors(checker_for(registry).errors(doc), doc, registry)])
    accepted(doc)


