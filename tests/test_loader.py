"""Loading variants: strict YAML, extends and modify, overrides, the checks, and one message per mistake."""

from __future__ import annotations

import math
import os
import types
from pathlib import Path

import pytest

from easymoney.engine import core_plugin
from easymoney.errors import EasyMoneyError, PluginError, UsageError, VariantError
from easymoney.engine.hookspecs import hookimpl
from easymoney.loading.loader import builtin_names, builtin_variants, load_variant, parse_option
from easymoney.engine.registry import Registry, discover, plugin_info
from easymoney.loading.yamlload import (MAX_BYTES, dump, format_path, load_text,
                                parse_scalar)

DATA = Path(__file__).parent / "data" / "variants"
BUILTINS = ["classic-1936", "no-four-sides", "reference-card", "standard"]


def builtin_registry() -> Registry:
    return discover(autoload=False)


def load(ref: str | Path, **kw):
    kw.setdefault("registry", builtin_registry())
    return load_variant(str(ref), **kw)


def error_of(ref: str | Path, **kw) -> EasyMoneyError:
    with pytest.raises(EasyMoneyError) as info:
        load(ref, **kw)
    return info.value


# --- one file per kind of mistake: the exact message and where -----------------------------

BAD = [
    ("malformed.yaml", "malformed.yaml", 3, 6,
     "malformed YAML: did not find expected ',' or '}' (while parsing a flow mapping at line "
     "2, col 10)"),
    ("tab_indent.yaml", "tab_indent.yaml", 4, 1,
     "tab character in indentation: found a tab; expected spaces (YAML indents with spaces only)"),
    ("duplicate_key.yaml", "duplicate_key.yaml", 7, 3,
     "money.starting_cash: duplicate key: found 'starting_cash' a second time; expected each "
     "key once (first at line 6, col 3)"),
    ("unknown_top_key.yaml", "unknown_top_key.yaml", 3, 1,
     "(top level): unknown key: found 'descripton'; expected one of name, extends, description, "
     "sources, players, money, houses, board, deck, rules, modify (did you mean 'description'?)"),
    ("unknown_space_key.yaml", "unknown_space_key.yaml", 5, 20,
     "modify.spaces[\"Dover Street\"]: unknown key: found 'prise'; expected one of name, kind, "
     "price, mortgage, rent (did you mean 'price'?)"),
    ("wrong_type.yaml", "wrong_type.yaml", 4, 15,
     "houses.per_player: wrong type: found 'sixteen'; expected an integer"),
    ("missing_key.yaml", "missing_key.yaml", 4, 3,
     "money: missing key 'starting_cash'; expected the keys smallest_bill, starting_cash, "
     "bank_total"),
    ("on_boolean.yaml", "on_boolean.yaml", 4, 15,
     "rules.four_sides: wrong type: found 'off'; expected true, false or a mapping of options; "
     "write false (YAML 1.2 booleans are true/false)"),
    ("negative_money.yaml", "negative_money.yaml", 5, 31,
     "modify.spaces[\"Christmas Club\"].receive: too small: found -250; expected at least 0"),
    ("money_not_multiple.yaml", "money_not_multiple.yaml", 5, 28,
     "modify.spaces[\"Beacon Street\"].price: not a multiple of the smallest bill: found 805; "
     "expected a multiple of 10 (money.smallest_bill)"),
    ("rent_four_entries.yaml", "rent_four_entries.yaml", 6, 13,
     "modify.spaces[\"Arlington Avenue\"].rent: wrong number of entries: found 4; expected 5, "
     "one per number of houses (houses.per_street)"),
    ("duplicate_space.yaml", "duplicate_space.yaml", 5, 24,
     "modify.spaces[\"Union Road\"].name: duplicate space name: found 'Dover Street'; expected "
     "a name used once (space 7 has it)"),
    ("card_unknown_space.yaml", "card_unknown_space.yaml", 5, 39,
     "modify.cards[\"Advance to Elm Country Club\"].to: unknown space: found 'Elm Country "
     "Clubb'; expected the name of a space of the board (did you mean 'Elm Country Club'?)"),
    ("unknown_rule.yaml", "unknown_rule.yaml", 4, 3,
     "rules: unknown rule: found 'four_side'; expected the id of an installed rule plugin "
     "(did you mean 'four_sides'?)"),
    ("essential_off.yaml", "essential_off.yaml", 5, 9,
     "rules.turn: rule 'turn' is essential and cannot be switched off: found false; expected "
     "true"),
    ("extends_missing.yaml", "extends_missing.yaml", 2, 10,
     "extends: unknown variant: found 'no-such-base.yaml'; expected a built-in variant "
     "(classic-1936, no-four-sides, reference-card, standard) or a YAML file relative to this "
     "one"),
    ("cycle_a.yaml", "cycle_b.yaml", 2, 10,
     "extends: cycle: found 'cycle_a.yaml', which extends this file again; expected a variant "
     "that does not extend this one"),
    ("modify_unknown_space.yaml", "modify_unknown_space.yaml", 6, 5,
     "modify.spaces: unknown space: found 'Park Avenu'; expected the name of a space of the "
     "extended variant (did you mean 'Park Avenue'?)"),
    ("alias_bomb.yaml", "alias_bomb.yaml", 6, 4,
     "too many values after expanding aliases: more than 100000 (the limit; is this an alias "
     "bomb?)"),
    ("empty.yaml", "empty.yaml", 1, 1,
     "empty file: found no YAML document; expected a mapping"),
    ("non_utf8.yaml", "non_utf8.yaml", 1, 10,
     "not UTF-8 text: found byte 0xe9; expected a UTF-8 encoded file"),
]


@pytest.mark.parametrize("name, where, line, col, message", BAD, ids=[b[0] for b in BAD])
def test_each_mistake_has_its_message(name, where, line, col, message):
    error = error_of(DATA / name)
    assert isinstance(error, VariantError)
    assert (Path(error.file).name, error.line, error.col, error.message) == \
        (where, line, col, message)
    located = error.located()
    assert "\n" not in located
    assert located == f"{error.file}:{line}:{col}: error: {message}"


# good variants kept here for the test plugins of tests/plugins (tests/test_legal.py)
# variants of plugins, played elsewhere: the jail test plugin's (test_spiel, test_agents) and
# every plugin's at once (test_legal's audit of the listing)
PLUGIN_VARIANTS = {"jail.yaml", "every-plugin.yaml"}


def test_every_bad_file_is_tested():
    tested = {b[0] for b in BAD} | {"cycle_b.yaml"} | PLUGIN_VARIANTS
    assert {p.name for p in DATA.glob("*.yaml")} == tested


# --- the shipped variants --------------------------------------------------------------------------

def test_builtin_variants_are_listed_with_descriptions():
    assert builtin_names() == BUILTINS
    found = dict(builtin_variants())
    assert list(found) == BUILTINS
    assert found["standard"].startswith("Easy Money as this project plays it")
    assert "\n" not in found["classic-1936"]


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_variant_loads(name):
    variant = load(name)
    assert variant.name == name and variant.origin == name
    assert len(variant.spaces) == 48 and len(variant.cards) == 24
    assert [s.index for s in variant.spaces] == list(range(48))
    assert variant.sides == {1: (1, 11), 2: (13, 23), 3: (25, 35), 4: (37, 47)}
    assert list(variant.rules)[:2] == ["core", "turn"]


def test_standard_board_and_deck():
    v = load("standard")
    assert (v.min_players, v.max_players, v.smallest_bill, v.starting_cash, v.bank_total) == \
        (2, 4, 10, 20000, 300000)
    assert (v.houses_per_player, v.houses_per_street) == (16, 5)
    light = v.spaces[41], v.spaces[42]
    assert [s.name for s in light] == ["Red Traffic Light"] * 2
    assert light[0].kind == "traffic_light" and light[0].fine == 100 and light[1].side == 4
    assert v.spaces[43].name == "Tremont Street"
    assert [v.spaces[i].side for i in (0, 12, 24, 36)] == [None] * 4
    dover = v.space_named("Dover Street")
    assert (dover.index, dover.side, dover.kind, dover.price, dover.get("rent")) == \
        (7, 1, "street", 700, [70, 280, 770, 1540, 2450])
    assert "name" not in dover.data and "kind" not in dover.data
    assert sum(c.text == "Advance to Black Kat Night Club" for c in v.cards) == 2
    take = next(c for c in v.cards if c.text == "Take $1,000")
    assert (take.kind, take.data) == ("take", {"amount": 1000})
    assert v.rules["doubles"] == {"after_card": "backward"}
    assert v.rules["end"] == {"on": "first_bankruptcy", "max_turns": None}
    assert v.rules["auction"] == {"first_bid": 100, "increment": 10}   # defaults filled
    assert v.option("mortgage.rent") == "one_house"


def test_extends_merges_rules_and_replaces_settings():
    standard, classic = load("standard"), load("classic-1936")
    assert classic.max_players == 6 and standard.max_players == 4
    assert classic.rules["doubles"] == {"after_card": "forward"}
    assert classic.rules["mortgage"] == {"rent": "none", "interest_percent": 10}
    assert classic.description.startswith("The 1936 readings")
    assert classic.sources == standard.sources
    assert "four_sides" not in load("no-four-sides").rules
    ref = load("reference-card")
    assert ref.rules["end"]["on"] == "last_player_standing"
    assert ref.document["rules"]["four_sides"] is True


def test_extends_a_relative_file_and_defaults(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "base.yaml").write_text(
        "name: base\nextends: standard\nrules:\n  end: {on: last_player_standing}\n")
    (tmp_path / "sub" / "mine.yaml").write_text(
        "extends: ../base.yaml\nrules:\n  end: {max_turns: 300}\n  four_sides: false\n"
        "  doubles: true\nmodify:\n  spaces:\n    Dover Street: {name: Dover Lane, price: 800}\n"
        "    Milk Route: {score: null}\n  cards:\n    Take $500: {count: 3}\n")
    v = load(tmp_path / "sub" / "mine.yaml")
    assert v.name == "mine"                                           # the file's stem
    assert v.rules["end"] == {"on": "last_player_standing", "max_turns": 300}
    assert "four_sides" not in v.rules and v.document["rules"]["four_sides"] is False
    assert v.rules["doubles"] == {"after_card": "backward"}
    lane = v.spaces[7]
    assert (lane.name, lane.price, lane.mortgage) == ("Dover Lane", 800, 350)
    assert "score" not in v.space_named("Milk Route").data
    assert sum(c.text == "Take $500" for c in v.cards) == 3
    assert "extends" not in v.document and "modify" not in v.document


def test_base_file_errors_point_into_the_base(tmp_path):
    (tmp_path / "base.yaml").write_text("name: base\nextends: standard\nplayers: {min: 2, mex: 4}\n")
    (tmp_path / "top.yaml").write_text("extends: base.yaml\n")
    error = error_of(tmp_path / "top.yaml")
    assert (Path(error.file).name, error.line, error.col) == ("base.yaml", 3, 19)
    assert error.message == ("players: unknown key: found 'mex'; expected one of min, max "
                             "(did you mean 'max'?)")


def test_modify_that_changes_a_kind_is_blamed(tmp_path):
    (tmp_path / "k.yaml").write_text(
        "extends: standard\nmodify: {spaces: {Dover Street: {kind: legend}}}\n")
    error = error_of(tmp_path / "k.yaml")
    assert (error.line, error.col) == (2, 33)
    assert error.message == ('modify.spaces["Dover Street"]: unknown key: found \'price\'; '
                             "expected one of name, kind, receive, pay, to, tax, traffic_fine")


def test_semantic_checks(tmp_path):
    std = (DATA.parent.parent.parent / "variants" / "standard.yaml").read_text()

    def bad(old: str, new: str) -> EasyMoneyError:
        assert old in std
        path = tmp_path / "v.yaml"
        path.write_text(std.replace(old, new, 1))
        return error_of(path)

    e = bad("{min: 2, max: 4}", "{min: 5, max: 4}")
    assert e.message == "players.min: more than players.max: found 5; expected at most 4"
    e = bad("bank_total: 300000", "bank_total: 30000")
    assert e.message == ("money.bank_total: too small to deal the starting cash: found 30000; "
                         "expected at least 80000 (players.max 4 x money.starting_cash 20000)")
    e = bad("{side: 2, first: 13, last: 23}", "{side: 2, first: 11, last: 23}")
    assert e.message == ("board.sides[1]: overlapping sides: found spaces 11-23; expected no "
                         "space of side 1 (1-11)")
    e = bad("{side: 4, first: 37, last: 47}", "{side: 4, first: 37, last: 48}")
    assert e.message == ("board.sides[3].last: outside the board: found 48; expected at most 47 "
                         "(the board has 48 spaces, numbered from 0)")
    e = bad("{side: 2, first: 13, last: 23}", "{side: 1, first: 23, last: 13}")
    assert e.message.startswith("board.sides[1].side: duplicate side: found 1")
    e = bad("kind: utility, rent: 250}", "kind: utilty, rent: 250}")
    assert e.message == ("board.spaces[4].kind: unknown space kind: found 'utilty'; expected "
                         "one of plain, bonus, traffic_light, street, utility, commercial, draw, "
                         "legend, hospital (did you mean 'utility'?)")
    e = bad("kind: utility, rent: 250}", "kind: utility}")
    assert e.message == ("board.spaces[4]: missing key: found none of 'rent' or "
                         "'rent_per_dice'; expected exactly one of them")
    e = bad("receive: 250}", "receive: 250, pay: 10}")
    assert e.message == ("board.spaces[2]: conflicting keys: found 'receive' and 'pay'; "
                         "expected exactly one of 'receive' or 'pay'")
    e = bad("price: 600,", "price: 600.0,")
    assert e.message == "board.spaces[1].price: wrong type: found 600.0; expected an integer"
    e = bad("price: 600,", "price: .nan,")
    assert e.message == "board.spaces[1].price: wrong type: found .nan; expected an integer"
    e = bad("price: 600,", "price: $600,")
    assert e.message.endswith("expected an integer; write 600 (plain digits)")
    e = bad("tax: true}", "tax: yes}")
    assert e.message.endswith("; write true (YAML 1.2 booleans are true/false)")
    e = bad("  four_sides: true", "  R13: true")
    assert e.message == ("rules: unknown rule: found 'R13'; expected the id of an installed "
                         "rule plugin (write the plugin id 'four_sides')")
    e = bad("{text: Pay $100,", "{text: Pay $200,")
    assert e.message == ("deck[16].text: duplicate card text: found 'Pay $200'; expected each "
                         "text once (deck[15] has it; use count for copies)")
    e = bad("price: 600,", "prise: 600,")
    assert e.message.startswith("board.spaces[1]: unknown key: found 'prise'")
    assert (e.line, e.col) == (28, 46)


def test_no_name_without_extends(tmp_path):
    (tmp_path / "v.yaml").write_text("players: {min: 2, max: 4}\n")
    assert error_of(tmp_path / "v.yaml").message == (
        "(top level): missing key 'name'; expected the keys name, players, money, houses, "
        "board, deck (or extends)")
    (tmp_path / "w.yaml").write_text("- a\n")
    assert error_of(tmp_path / "w.yaml").message.startswith(
        "(top level): wrong type: found ['a']; expected a mapping")


def test_missing_and_unknown_references(tmp_path):
    with pytest.raises(UsageError, match=r"unknown variant 'standrd'.*did you mean 'standard'"):
        load("standrd")
    e = error_of(tmp_path / "nope.yaml")
    assert e.message == "cannot read: no such file"
    e = error_of(tmp_path)
    assert isinstance(e, UsageError) or e.message == "cannot read: is a directory; expected a YAML file"
    (tmp_path / "d.yaml").mkdir()
    assert error_of(tmp_path / "d.yaml").message == "cannot read: is a directory; expected a YAML file"
    (tmp_path / "big.yaml").write_text("# " + "x" * MAX_BYTES)
    assert error_of(tmp_path / "big.yaml").message.startswith("file too large: found 1048578 "
                                                              "bytes; expected at most 1048576")


def test_base_dir_for_relative_paths(tmp_path):
    (tmp_path / "v.yaml").write_text("extends: standard\nname: here\n")
    assert load("v.yaml", base_dir=str(tmp_path)).name == "here"


# --- command-line overrides -----------------------------------------------------------------

def test_with_without_and_options():
    v = load("standard", disable=["R13", "doubles"], enable=[],
             options=["end.max_turns=200", "mortgage.rent=none"])
    assert "four_sides" not in v.rules and "doubles" not in v.rules
    assert v.rules["end"]["max_turns"] == 200 and v.option("mortgage.rent") == "none"
    v = load("no-four-sides", enable=["R13"])
    assert v.rules["four_sides"] == {}
    v = load("no-four-sides", options=[("doubles.after_card", "forward")])
    assert v.rules["doubles"] == {"after_card": "forward"}
    on = load("standard", disable=["doubles"], registry=builtin_registry())
    assert "doubles" not in on.rules


def test_option_of_an_off_plugin_switches_it_on(tmp_path):
    (tmp_path / "v.yaml").write_text("extends: standard\nrules: {end: false}\n")
    assert "end" not in load(tmp_path / "v.yaml").rules
    v = load(tmp_path / "v.yaml", options=["end.max_turns=5"])
    assert v.rules["end"] == {"on": "first_bankruptcy", "max_turns": 5}


@pytest.mark.parametrize("kw, cls, message", [
    ({"enable": ["nope"]}, PluginError,
     "unknown rule 'nope' (not an installed plugin; `easymoney rules` lists those installed)"),
    ({"enable": ["four_side"]}, PluginError, "unknown rule 'four_side' (did you mean 'four_sides'?)"),
    ({"disable": ["turn"]}, PluginError, "rule 'turn' is essential and cannot be switched off"),
    ({"disable": ["R4"]}, PluginError, "rule 'turn' is essential and cannot be switched off"),
    ({"enable": ["doubles"], "disable": ["R12"]}, UsageError,
     "rule 'doubles' is both switched on (--with) and off (--without)"),
    ({"options": ["doubles.after_card=sideways"]}, UsageError,
     "option 'doubles.after_card': not allowed: found 'sideways'; expected one of backward, "
     "forward"),
    ({"options": ["doubles.aftercard=forward"]}, UsageError,
     "option 'doubles.aftercard': unknown option: found 'aftercard'; expected one of after_card "
     "(did you mean 'after_card'?)"),
    ({"options": ["dubles.after_card=forward"]}, UsageError,
     "option 'dubles.after_card': unknown rule 'dubles' (did you mean 'doubles'?)"),
    ({"options": ["end.max_turns=abc"]}, UsageError,
     "option 'end.max_turns': wrong type: found 'abc'; expected an integer or null"),
    ({"options": ["end.max_turns=0"]}, UsageError,
     "option 'end.max_turns': too small: found 0; expected at least 1"),
    ({"options": ["four_sides.x=1"]}, UsageError, "option 'four_sides.x': rule 'four_sides' has no options"),
    ({"options": ["doubles"]}, UsageError,
     "option 'doubles': expected KEY=VALUE, like doubles.after_card=forward"),
    ({"options": ["doubles=forward"]}, UsageError,
     "option 'doubles': expected RULE.OPTION, like doubles.after_card"),
    ({"options": ["end.max_turns=5"], "disable": ["end"]}, UsageError,
     "option 'end.max_turns': rule 'end' is switched off (--without); setting its option would "
     "switch it on"),
    ({"options": ["auction.first_bid=105"]}, VariantError,
     "rules.auction.first_bid: not a multiple of the smallest bill: found 105; expected a "
     "multiple of 10 (money.smallest_bill)"),
])
def test_override_errors(kw, cls, message):
    error = error_of("standard", **kw)
    assert type(error) is cls and error.message == message and error.file is None


def test_parse_option_reads_yaml_12_scalars():
    reg = builtin_registry()
    assert parse_option("end.max_turns=200", reg) == ("end", "max_turns", 200)
    assert parse_option("end.max_turns=null", reg) == ("end", "max_turns", None)
    assert parse_option("R12.after_card=forward", reg) == ("doubles", "after_card", "forward")
    assert parse_scalar("on") == "on" and parse_scalar("TRUE") is True
    assert parse_scalar("'200'") == "200" and parse_scalar("1.5") == 1.5


# --- strict YAML --------------------------------------------------------------------------------

def test_yaml_12_scalars():
    data = load_text("a: on\nb: True\nc: 0x10\nd: 1.0\ne: .nan\nf: 007\ng: 2001-01-01\n"
                     "h: 1_000\ni: ~\nj: fAlSe\nk: no\nl: -.inf\nm: '12'\n").data
    assert data["a"] == "on" and data["b"] is True and data["c"] == "0x10"
    assert data["d"] == 1.0 and math.isnan(data["e"]) and data["f"] == 7
    assert data["g"] == "2001-01-01" and data["h"] == "1_000" and data["i"] is None
    assert data["j"] is False and data["k"] == "no" and data["l"] == -math.inf
    assert data["m"] == "12"


def test_positions_by_key_path():
    loaded = load_text("x:\n  y: [1, {z: 2}]\n  w: |\n    text\n", "f.yaml")
    assert loaded.positions[("x", "y", 1, "z")] == (2, 14)
    assert loaded.key_positions[("x", "y", 1, "z")] == (2, 11)
    assert loaded.position(("x", "y", 7)) == (2, 6)
    assert loaded.key_position(("x", "w")) == (3, 3)
    assert format_path(("board", "spaces", 3, "rent")) == "board.spaces[3].rent"
    assert format_path(("modify", "spaces", "Dover Street")) == 'modify.spaces["Dover Street"]'


@pytest.mark.parametrize("text, line, col, message", [
    ("a: !!python/object:os.system x\n", 1, 4,
     "unsupported tag: found tag:yaml.org,2002:python/object:os.system; expected plain YAML "
     "values (no language-specific tags)"),
    ("a: !!int x\n", 1, 4, "cannot read 'x' as int"),
    ("<<: {a: 1}\n", 1, 1, "merge keys ('<<') are not supported: found '<<'; expected the keys "
                           "written out, or an alias (*name) for the whole value"),
    ("1: a\n", 1, 1, 'mapping key: found 1; expected a string (quote it: "1")'),
    ("- {text: Take $1,000, kind: take}\n", 1, 18,
     "[0]: entry without a value: found '000'; expected KEY: VALUE (a ',' inside {...} "
     "separates entries: quote text that contains a comma)"),
    ("a: 1\n---\nb: 2\n", 2, 1,
     "malformed YAML: expected a single document in the stream, but found another document"),
    ("a: &a [*a]\n", 1, 4, "nesting too deep: expected at most 64 levels"),
    ("a: " + "[" * 70 + "]" * 70 + "\n", 1, 68, "nesting too deep: expected at most 64 levels"),
])
def test_strict_yaml_errors(text, line, col, message):
    with pytest.raises(VariantError) as info:
        load_text(text, "f.yaml")
    assert (info.value.line, info.value.col, info.value.message) == (line, col, message)


def test_dump_reads_back_equal():
    data = {"x": ["on", "1e3", "0x1", "", None, 1.5, "a: b", "Take $1,000", True, 7],
            "nested": {"list": [{"a": 1, "b": [1, 2]}]}}
    assert load_text(dump(data)).data == data
    assert dump({"p": [{"a": 1}]}) == "p:\n- {a: 1}\n"


# --- a registry built by hand: the loader is generic ----------------------------------------------

def plugin(pid: str, doc: str = "", **attrs) -> types.ModuleType:
    module = types.ModuleType(f"fake_{pid}", doc or f"The {pid} rule.")
    module.PLUGIN_ID = pid
    for key, value in attrs.items():
        setattr(module, key, value)
    return module


MONEY = {"type": "integer", "minimum": 0, "x-money": True}


@hookimpl
def _check_tiny(variant):
    if variant.rules["moves"]["speed"] > 3:
        return ["rules.moves.speed: too fast for this board"]
    if variant.space_named("Oak").price > 500:
        return ["'Oak' is too dear"]
    return None


def fake_registry() -> Registry:
    registry = Registry()
    registry.add(plugin_info(core_plugin, "built-in"))
    for module in (
        plugin("lots", RULES=("R901",), SPACE_KINDS={"lot": {
            "properties": {"price": MONEY, "rent": {"type": "array", "items": MONEY,
                                                    "x-per-house": True}},
            "required": ["price", "rent"]}}),
        plugin("lights", SPACE_KINDS={"light": {"properties": {"cells": {"type": "integer",
                                                                          "minimum": 1}}}},
               REQUIRES=("lots",)),
        plugin("cards", CARD_KINDS={"goto": {"properties": {"to": {"type": "string",
                                                                    "x-space": True}},
                                             "required": ["to"]}}),
        plugin("moves", RULES=("R902", "R903"), ESSENTIAL=True, em_check_variant=_check_tiny,
               OPTIONS={"speed": {"type": "integer", "minimum": 1, "default": 1},
                        "toll": {**MONEY, "default": 15}}),
    ):
        registry.add(plugin_info(module, "test"))
    return registry


TINY = """\
name: tiny
players: {min: 2, max: 3}
money: {smallest_bill: 5, starting_cash: 1000, bank_total: 10000}
houses: {per_player: 4, per_street: 3}
board:
  sides: [{side: 1, first: 1, last: 2}, {side: 2, first: 4, last: 5}]
  spaces:
    - {name: Go, kind: plain}
    - {name: Elm, kind: lot, price: 100, rent: [10, 20, 30]}
    - {name: Oak, kind: lot, price: 200, rent: [20, 40, 60]}
    - {name: Jail, kind: plain}
    - {name: Light, kind: light, cells: 2}
deck:
  - {text: Go to Elm, kind: goto, to: Elm, count: 2}
rules:
  lots: true
  lights: true
  moves: {speed: 2}
"""


def tiny(tmp_path: Path, old: str = "", new: str = "", **kw):
    assert old in TINY
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY.replace(old, new, 1))
    return load_variant(str(path), registry=fake_registry(), **kw)


def tiny_error(tmp_path: Path, old: str = "", new: str = "", **kw) -> EasyMoneyError:
    with pytest.raises(EasyMoneyError) as info:
        tiny(tmp_path, old, new, **kw)
    return info.value


def test_fake_registry_variant(tmp_path):
    v = tiny(tmp_path)
    assert [(s.index, s.name, s.side) for s in v.spaces] == [
        (0, "Go", None), (1, "Elm", 1), (2, "Oak", 1), (3, "Jail", None), (4, "Light", 2),
        (5, "Light", 2)]
    assert v.spaces[4].cells == 2
    assert [c.text for c in v.cards] == ["Go to Elm"] * 2 and v.cards[0].to == "Elm"
    assert v.rules == {"core": {}, "lots": {}, "lights": {}, "moves": {"speed": 2, "toll": 15}}


def test_fake_registry_annotations_and_hooks(tmp_path):
    e = tiny_error(tmp_path, "smallest_bill: 5", "smallest_bill: 10")
    assert e.message == ("rules.moves.toll: not a multiple of the smallest bill: found 15 (the "
                         "default); expected a multiple of 10 (money.smallest_bill)")
    assert (e.line, e.col) == (18, 10)
    e = tiny_error(tmp_path, "rent: [10, 20, 30]", "rent: [10, 20]")
    assert e.message == ("board.spaces[1].rent: wrong number of entries: found 2; expected 3, "
                         "one per number of houses (houses.per_street)")
    e = tiny_error(tmp_path, "to: Elm", "to: Elk")
    assert e.message == ("deck[0].to: unknown space: found 'Elk'; expected the name of a space "
                         "of the board (did you mean 'Elm'?)")
    e = tiny_error(tmp_path, "speed: 2", "speed: 4")
    assert e.message == "rules.moves.speed: too fast for this board (rule 'moves')"
    assert (e.line, e.col) == (18, 18)
    e = tiny_error(tmp_path, "price: 200", "price: 600")
    assert e.message == "board.spaces[2]: 'Oak' is too dear (rule 'moves')"
    assert (e.line, e.col) == (10, 7)


def test_fake_registry_rules(tmp_path):
    e = tiny_error(tmp_path, "  lots: true", "  lots: false")
    assert e.message == ("rules.lots: rule 'lights' requires rule 'lots': found false; expected "
                         "true (or switch off 'lights')")
    e = tiny_error(tmp_path, "  lots: true\n", "")
    assert e.message == ("rules.lights: rule 'lights' requires rule 'lots', which is off; "
                         "expected lots: true in rules")
    e = tiny_error(tmp_path, "moves: {speed: 2}", "moves: false")
    assert e.message == ("rules.moves: rule 'moves' is essential and cannot be switched off: "
                         "found false; expected true")
    v = tiny(tmp_path, "  moves: {speed: 2}\n", "")      # essential: on without being named
    assert v.rules["moves"] == {"speed": 1, "toll": 15}
    v = tiny(tmp_path, disable=["lights"], options=["R902.speed=3"])
    assert "lights" not in v.rules and v.rules["moves"]["speed"] == 3
    with pytest.raises(PluginError, match="rule 'moves' is essential"):
        tiny(tmp_path, disable=["R903"])


def test_a_crashing_check_is_a_plugin_error(tmp_path):
    registry = fake_registry()

    @hookimpl
    def em_check_variant(variant):
        raise KeyError("oops")

    registry.add(plugin_info(plugin("buggy", em_check_variant=em_check_variant, ESSENTIAL=True),
                             "test"))
    (tmp_path / "t.yaml").write_text(TINY)
    with pytest.raises(PluginError, match=r"rule 'buggy' failed while checking variant 'tiny': "
                                          r"KeyError: 'oops'"):
        load_variant(str(tmp_path / "t.yaml"), registry=registry)


def test_variants_from_the_installed_registry_load():
    # the default registry (with any third-party plugins) loads the shipped variants too
    assert load_variant("standard").name == "standard"
    assert os.path.isdir(DATA)


# --- modify inserts, appends and removes spaces and cards (issue 18) ---------------------------

JAIL = """\
extends: standard
modify:
  spaces:
    Dover Street: {price: 800}
  insert:
    spaces:
      - {after: Bingo Game, name: Jail, kind: plain}
      - {before: Quincy Street, name: Lost Property, kind: plain}
    cards:
      - {before: Take $500, text: Take $5, kind: take, amount: 10}
  append:
    spaces:
      - {name: Last Stop, kind: plain}
    cards:
      - {text: Pay $10, kind: pay, amount: 10}
  remove:
    spaces: [Union Road]
    cards: [Advance to the Bonus Corner]
"""


def _modified(tmp_path: Path, text: str, name: str = "m.yaml"):
    (tmp_path / name).write_text(text)
    return tmp_path / name


def test_issue_18_modify_inserts_appends_and_removes_spaces(tmp_path):
    std = load("standard")
    v = load(_modified(tmp_path, JAIL))
    names = [s.name for s in v.spaces]
    assert "Union Road" not in names
    assert names.index("Lost Property") == 35 and names[36] == "Quincy Street"
    assert names[37:39] == ["Bingo Game", "Jail"] and names[-1] == "Last Stop"
    assert len(v.spaces) == len(std.spaces) + 2
    assert [s.index for s in v.spaces] == list(range(len(v.spaces)))   # renumbered
    assert v.space_named("Dover Street").price == 800                   # changes still apply
    # an inserted space joins its anchor's side (Bingo Game is a corner); append is an
    # insert after the last space
    assert v.sides == {1: (1, 11), 2: (13, 23), 3: (25, 36), 4: (39, 49)}
    assert v.space_named("Jail").side is None and v.space_named("Lost Property").side == 3
    assert v.space_named("Last Stop").side == 4
    assert v.document["board"]["sides"][3] == {"side": 4, "first": 39, "last": 49}


def test_issue_18_modify_inserts_appends_and_removes_cards(tmp_path):
    std = load("standard")
    v = load(_modified(tmp_path, JAIL))
    texts = [c.text for c in v.cards]
    assert "Advance to the Bonus Corner" not in texts
    assert texts[texts.index("Take $5") + 1] == "Take $500" and texts[-1] == "Pay $10"
    assert len(v.cards) == len(std.cards) + 1
    assert "modify" not in v.document


def test_issue_18_remove_then_insert_at_its_place(tmp_path):
    v = load(_modified(tmp_path, "extends: standard\nmodify:\n  remove: {spaces: [Bingo Game]}\n"
                                 "  insert: {spaces: [{after: Bingo Game, name: Jail, kind: plain}]}\n"))
    assert v.spaces[36].name == "Jail" and len(v.spaces) == len(load("standard").spaces)


@pytest.mark.parametrize("text, line, col, message", [
    ("  insert: {spaces: [{after: Bingo Gme, name: Jail, kind: plain}]}\n", 3, 29,
     "modify.insert.spaces[0].after: unknown space: found 'Bingo Gme'; expected the name of a "
     "space of the extended variant (did you mean 'Bingo Game'?)"),
    ("  remove: {spaces: [Unon Road]}\n", 3, 21,
     "modify.remove.spaces[0]: unknown space: found 'Unon Road'; expected the name of a space "
     "of the extended variant (did you mean 'Union Road'?)"),
    ("  remove: {cards: [Tke $500]}\n", 3, 20,
     "modify.remove.cards[0]: unknown card: found 'Tke $500'; expected the text of a card of "
     "the extended variant (did you mean 'Take $500'?)"),
    ("  remove: {spaces: [Union Road, Union Road]}\n", 3, 33,
     "modify.remove.spaces[1]: removed twice: found 'Union Road'; expected each space once"),
    ("  spaces: {Union Road: {price: 700}}\n  remove: {spaces: [Union Road]}\n", 4, 21,
     "modify.remove.spaces[0]: removed and changed: found 'Union Road', which modify.spaces "
     "also changes; expected one or the other"),
    ("  insert: {spaces: [{name: Jail, kind: plain}]}\n", 3, 21,
     "modify.insert.spaces[0]: missing key: found none of 'after' or 'before'; expected "
     "exactly one of them"),
    ("  insert: {spaces: [{after: Bingo Game, before: Fire Loss, name: Jail, kind: plain}]}\n",
     3, 21, "modify.insert.spaces[0]: conflicting keys: found 'after' and 'before'; expected "
            "exactly one of 'after' or 'before'"),
    ("  insert: {spaces: [{after: Bingo Game, name: Jail, kind: plain, price: 10}]}\n", 3, 66,
     "modify.insert.spaces[0]: unknown key: found 'price'; expected one of name, kind"),
    ("  append: {spaces: [{name: Fire Loss, kind: plain}]}\n", 3, 28,
     "modify.append.spaces[0].name: duplicate space name: found 'Fire Loss'; expected a name "
     "used once (space 38 has it)"),
    ("  append: {cards: [{text: Take $500, kind: take, amount: 10}]}\n", 3, 27,
     "modify.append.cards[0].text: duplicate card text: found 'Take $500'; expected each text "
     "once (deck[12] has it; use count for copies)"),
    ("  remove: {spaces: [Black Kat Night Club]}\n", 3, 20,
     "deck[0].to: unknown space: found 'Black Kat Night Club'; expected the name of a space "
     "of the board; deck[0].to comes from the built-in variant 'standard'"),
    ("  remove: {spaces: [Bonus Corner]}\n  append: {spaces: [{name: B, kind: bogus}]}\n", 4, 37,
     "modify.append.spaces[0].kind: unknown space kind: found 'bogus'; expected one of"),
])
def test_issue_18_insert_and_remove_errors_are_located(tmp_path, text, line, col, message):
    error = error_of(_modified(tmp_path, "extends: standard\nmodify:\n" + text))
    assert (Path(error.file).name, error.line, error.col) == ("m.yaml", line, col)
    assert error.message.startswith(message), error.message


def test_issue_18_removing_a_whole_side_is_an_error(tmp_path):
    names = [s.name for s in load("standard").spaces if s.side == 1]
    error = error_of(_modified(tmp_path, "extends: standard\nmodify:\n  remove:\n    spaces:\n"
                               + "".join(f"      - {n}\n" for n in names)))
    assert (error.line, error.col) == (15, 9)
    assert error.message == ("modify.remove.spaces[10]: removes every space of side 1 "
                             "(board.sides[0]); expected a side to keep at least one space")


def test_issue_18_the_docs_example_of_insert_and_remove_loads(tmp_path):
    text = (DATA.parent.parent.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```yaml\n")[1:]]
    jail = next(b for b in blocks if "insert:" in b)
    v = load(_modified(tmp_path, jail))
    assert "Jail" in [s.name for s in v.spaces]


def test_issue_18_the_split_loader_keeps_its_public_names():
    """loading/loader.py was split into a module per step; what it offered is still there."""
    from easymoney.loading import loader
    for name in ("load_variant", "builtin_names", "builtin_variants", "parse_option",
                 "variant_document", "resolved_document", "MAX_SPACES", "MAX_CARDS",
                 "MAX_MONEY", "MAX_NUMBER", "MAX_NAME"):
        assert name in loader.__all__ and hasattr(loader, name), name
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in Path(loader.__file__).parent.glob("*.py")}
    assert max(sizes.values()) < 550, sizes  # no room as big as the 1,002 lines of before
