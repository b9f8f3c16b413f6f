"""The JSON Schema (Draft 2020-12) of a variant file, built from the installed plugins' declarations.

Regenerate the shipped copy for the built-in plugins with:

    python -m easymoney.loading.schema > schemas/variant.schema.json
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..engine.registry import Registry, discover

DIALECT = "https://json-schema.org/draft/2020-12/schema"


@lru_cache(maxsize=1)
def validator_class() -> Any:
    """The Draft 2020-12 validator whose integers are ints only: 600.0 and .nan are not
    integers, whatever JSON Schema allows. Made when first asked: jsonschema is a third of
    the start-up of a command that checks no schema (a built-in variant is checked ahead)."""
    import jsonschema
    from jsonschema import Draft202012Validator
    types = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool))
    return jsonschema.validators.extend(Draft202012Validator, type_checker=types)


def __getattr__(name: str) -> Any:
    if name == "Validator":  # `from easymoney.loading.schema import Validator`, as before
        return validator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# The keys every space and card has, whatever its kind.
SPACE_COMMON = ("name", "kind")
CARD_COMMON = ("text", "kind", "count")
# Required at the top of a file that does not `extends` another.
TOP_REQUIRED = ["name", "players", "money", "houses", "board", "deck"]


def _integer(minimum: int, description: str, money: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "minimum": minimum}
    if money:
        schema["x-money"] = True
    schema["description"] = description
    return schema


def _kinds_schema(kinds: Mapping[str, tuple[str, Mapping[str, Any]]], what: str,
                  common: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A space or card: `kind` picks one if/then branch, which closes the object."""
    branches = []
    for kind, (pid, fragment) in kinds.items():
        then: dict[str, Any] = {"$comment": f"{what} kind {kind!r}, declared by rule {pid!r}"}
        for key, value in fragment.items():
            if key not in ("properties", "required", "additionalProperties", "type"):
                then[key] = value
        then["properties"] = {**{k: {} for k in (*common, "kind")}, **dict(fragment.get("properties", {}))}
        then["required"] = list(required) + [k for k in fragment.get("required", ())
                                             if k not in required]
        then["additionalProperties"] = False
        branches.append({"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                         "then": then})
    return {
        "type": "object",
        "properties": {**common, "kind": {"enum": list(kinds),
                                          "description": f"The {what} kind: one of those "
                                                         f"declared by the installed rules."}},
        "required": list(required),
        "allOf": branches,
    }


def rule_schema(info: Any) -> dict[str, Any]:
    """`true`, `false`, or a mapping of the plugin's options."""
    summary = info.summary or f"The rule plugin {info.id!r}."
    rules = f" ({', '.join(info.rules)})" if info.rules else ""
    return {
        "description": f"{summary}{rules} true: on, false: off, a mapping: on with these options.",
        "type": ["boolean", "object"],
        "if": {"type": "object"},
        "then": info.options_schema(),
    }


def variant_schema(registry: Registry) -> dict[str, Any]:
    """The JSON Schema of a variant file for the plugins of `registry`."""
    space = _kinds_schema(
        registry.space_kinds(), "space",
        {"name": {"type": "string", "minLength": 1,
                  "description": "The space's name, unique on the board."}},
        ["name", "kind"])
    card = _kinds_schema(
        registry.card_kinds(), "card",
        {"text": {"type": "string", "minLength": 1,
                  "description": "The card's text, which is its name; unique in the deck."},
         "count": _integer(1, "How many copies of this card the deck holds (default 1).")},
        ["text", "kind"])
    card["properties"]["count"]["default"] = 1

    anchors = {key: {"type": "string", "minLength": 1,
                     "description": f"Put the new entry {key} the one of the extended variant "
                                    f"with this name (space) or text (card)."}
               for key in ("after", "before")}
    # only the anchor is checked here: the rest is checked once the entry is on the board or
    # in the deck, where its kind closes it (a copy of every kind here would double the schema)
    anchored = {"type": "object", "properties": anchors,
                "oneOf": [{"required": ["after"]}, {"required": ["before"]}],
                "description": "A new space (card): `after` or `before`, and the keys of a space "
                               "(card) of its kind."}
    side = {
        "type": "object",
        "properties": {
            "side": _integer(1, "The side's number."),
            "first": _integer(0, "The board number of its first space."),
            "last": _integer(0, "The board number of its last space."),
        },
        "required": ["side", "first", "last"],
        "additionalProperties": False,
    }
    rules = {
        "type": "object",
        "description": "The rule plugins switched on (true or a mapping of options) or off "
                       "(false). Plugins not named are off, except the essential ones.",
        "properties": {pid: rule_schema(info) for pid, info in registry.plugins.items()},
        "additionalProperties": False,
    }
    changes = {"type": "object", "additionalProperties": {"type": "object"}}
    return {
        "$schema": DIALECT,
        "title": "Easy Money variant",
        "description": "A variant of Easy Money: board, deck, money and the rules switched on. "
                       "See docs/variants.md.",
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1,
                     "description": "The variant's name (default with extends: the file name)."},
            "extends": {"type": "string", "minLength": 1,
                        "description": "Start from this variant: a built-in name, or a path "
                                       "relative to this file."},
            "description": {"type": "string", "description": "One paragraph for people."},
            "sources": {"type": "array", "items": {"type": "string"},
                        "description": "Where the rules and numbers come from."},
            "players": {
                "type": "object",
                "properties": {"min": _integer(1, "The fewest players."),
                               "max": _integer(1, "The most players.")},
                "required": ["min", "max"],
                "additionalProperties": False,
            },
            "money": {
                "type": "object",
                "properties": {
                    "smallest_bill": _integer(1, "Every amount is a multiple of it (R30)."),
                    "starting_cash": _integer(0, "What each player receives (R2).", money=True),
                    "bank_total": _integer(0, "What the Bank holds before dealing (R2).",
                                           money=True),
                },
                "required": ["smallest_bill", "starting_cash", "bank_total"],
                "additionalProperties": False,
            },
            "houses": {
                "type": "object",
                "properties": {
                    "per_player": _integer(1, "Each player's supply of houses (R3)."),
                    "per_street": _integer(1, "The most houses on one street (R17); "
                                              "x-per-house lists have this many entries."),
                },
                "required": ["per_player", "per_street"],
                "additionalProperties": False,
            },
            "board": {
                "type": "object",
                "properties": {
                    "sides": {"type": "array", "items": side,
                              "description": "Ranges of board numbers; spaces outside every "
                                             "side are corners."},
                    "spaces": {"type": "array", "minItems": 2, "items": space,
                               "description": "The spaces in board order from number 0."},
                },
                "required": ["spaces"],
                "additionalProperties": False,
            },
            "deck": {"type": "array", "items": card,
                     "description": "The Give or Take cards."},
            "rules": rules,
            "modify": {
                "type": "object",
                "description": "Changes to the extended variant: `spaces` and `cards` change "
                               "single spaces (by name) and cards (by text), the keys given "
                               "replacing those of the base and null removing a key; `insert` "
                               "adds spaces and cards after or before one of the base, "
                               "`append` adds them at the end, `remove` takes them away.",
                "properties": {
                    "spaces": changes,
                    "cards": changes,
                    "insert": {
                        "type": "object",
                        "description": "New spaces and cards, each with `after` or `before`: "
                                       "the name of a space (the text of a card) of the "
                                       "extended variant.",
                        "properties": {"spaces": {"type": "array", "items": anchored},
                                       "cards": {"type": "array", "items": anchored}},
                        "additionalProperties": False,
                    },
                    "append": {
                        "type": "object",
                        "description": "New spaces and cards after the last of the extended "
                                       "variant.",
                        "properties": {
                            "spaces": {"type": "array",
                                       "items": {"$ref": "#/properties/board/properties/spaces/items"}},
                            "cards": {"type": "array", "items": {"$ref": "#/properties/deck/items"}}},
                        "additionalProperties": False,
                    },
                    "remove": {
                        "type": "object",
                        "description": "The names of spaces and texts of cards of the extended "
                                       "variant to take away.",
                        "properties": {name: {"type": "array",
                                              "items": {"type": "string", "minLength": 1}}
                                       for name in ("spaces", "cards")},
                        "additionalProperties": False,
                    },
                },
                "additionalProperties": False,
            },
        },
        "if": {"required": ["extends"]},
        "then": {},
        "else": {"required": TOP_REQUIRED},
        "additionalProperties": False,
    }


def variant_schema_cached(registry: Registry) -> dict[str, Any]:
    """The variant schema of `registry`'s rules, made once (kept by the registry)."""
    key = ("variant schema",)
    schema = registry.cache.get(key)
    if schema is None:
        schema = registry.cache[key] = variant_schema(registry)
    return schema  # type: ignore[no-any-return]


def dumps(schema: Mapping[str, Any]) -> str:
    """The schema as the shipped file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the schema for the built-in plugins (the shipped `schemas/variant.schema.json`)."""
    sys.stdout.write(dumps(variant_schema(discover(autoload=False))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
