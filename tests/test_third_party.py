"""Plugins that are not ours plug in end to end: new space kinds, card kinds, filters.

The railroads example (examples/plugins/railroads, installed as a user installs it) adds
a space kind and a card kind that the built-in rules handle; the fast relay and pluggy
must call every plugin at the same moments, with and without skip filters.
"""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from easymoney import PluginError, SpaceKind, hookimpl
from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine import earlier
from easymoney.engine.game import Game, RuleSet
from easymoney.engine.registry import Registry, discover, plugin_info
from easymoney.loading.loader import load_variant

ROOT = Path(__file__).resolve().parent.parent
RAILROADS = ROOT / "examples" / "variants" / "railroads.yaml"
NAMES = ["Ann", "Bob", "Cat"]


def registry_with(*modules: types.ModuleType) -> Registry:
    """The installed plugins plus these, as if each were installed from its own package."""
    base = discover()
    registry = Registry(dict(base.plugins))
    for module in modules:
        registry.add(plugin_info(module, f"entry point {module.__name__}"))
    for info in registry.plugins.values():
        problems = earlier.problems(registry, info)
        if problems:
            raise PluginError(problems[0])
    return registry


def play(variant, registry, dispatch, seed, strategy="greedy", turns=300):
    rules = RuleSet(registry, variant.rules, dispatch)
    game = Game(variant, NAMES, BotDecider({n: make_strategy(strategy) for n in NAMES}),
                seed=seed, ruleset=rules)
    game.setup()
    game.play(max_turns=turns)
    return [(e.kind, e.data) for e in game.log], game.snapshot()


@pytest.mark.parametrize("strategy", ["greedy", "random", "cautious"])
def test_railroads_play_the_same_games_fast_and_through_pluggy(strategy):
    registry = discover()
    assert "railroads" in registry.plugins, "the example plugin is installed for the tests"
    variant = load_variant(str(RAILROADS), registry=registry)
    for seed in (1, 2, 3):
        assert play(variant, registry, "fast", seed, strategy) == \
            play(variant, registry, "pluggy", seed, strategy)


def test_a_railroad_is_auctioned_and_charges_rent_with_no_rule_edited():
    registry = discover()
    variant = load_variant(str(RAILROADS), registry=registry)
    log, _ = play(variant, registry, "fast", 5, turns=400)
    won = [d for k, d in log if k == "auction_won" and "Railroad" in d["space"]]
    rents = [d for k, d in log if k == "pay" and "rent for" in d["reason"]
             and ("Railroad" in d["reason"] or "Short Line" in d["reason"])]
    assert won and rents


def _module(name: str, **attrs) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    return module


def _toll_rent(game, space, houses, dice):
    return space.toll


def _toll_value(game, space, houses):
    return 3 * space.toll


@hookimpl
def _count_moves(game, player, start, steps):
    game.stash.setdefault(COUNT, []).append(steps)


from easymoney import StashKey  # noqa: E402

COUNT = StashKey[list]("test.moves")


def _toll_plugin(**extra) -> types.ModuleType:
    return _module(
        "tollroads", PLUGIN_ID="tollroads",
        SPACE_KINDS={"tollroad": SpaceKind(
            schema={"properties": {"toll": {"type": "integer", "minimum": 0, "x-money": True}},
                    "required": ["toll"]},
            ownable=True, on_landing="auction", rent=_toll_rent, value=_toll_value)},
        em_moved=_count_moves, **extra)


@pytest.mark.parametrize("passes", [None, ("bonus",), lambda kind: kind.ownable])
def test_a_plugin_with_or_without_a_filter_is_called_alike_both_ways(tmp_path, passes):
    extra = {} if passes is None else {"PASSES": passes}
    registry = registry_with(_toll_plugin(**extra))
    path = tmp_path / "toll.yaml"
    path.write_text("name: toll\nextends: standard\nrules: {tollroads: true}\nmodify:\n"
                    "  spaces:\n    Airdale Bus Line: {kind: tollroad, toll: 700, rent: null}\n")
    variant = load_variant(str(path), registry=registry)
    fast = play(variant, registry, "fast", 7)
    slow = play(variant, registry, "pluggy", 7)
    assert fast[0] == slow[0]
    # the rent rule reads the new kind: a toll was paid to an owner
    assert any(k == "pay" and "Airdale" in d["reason"] and d["amount"] == 700 for k, d in fast[0])


def test_issue37_a_plugin_is_told_of_every_move_and_passes_is_translated_at_load():
    """em_moved has no filter, built-in or not: a plugin's hook may act on every move, as the
    toll's counts. An earlier plugin's PASSES is translated at load (easymoney.engine.earlier):
    its em_moved returns at once for a move touching none of the kinds it names."""
    registry = registry_with(_toll_plugin())
    assert registry.plugins["tollroads"].earlier is None
    assert registry.plugins["bonus_corner"].earlier is None
    translated = registry_with(_toll_plugin(PASSES=("bonus",))).plugins["tollroads"]
    assert translated.earlier is not None and not hasattr(translated.obj, "PASSES")
    assert translated.obj.em_moved is not translated.earlier.em_moved


def test_a_misspelt_filter_is_an_error_at_load_time():
    with pytest.raises(PluginError, match=r"PASSES names the space kind 'bonsu', which no "
                                          r"installed plugin declares \(did you mean 'bonus'\?\)"):
        registry_with(_toll_plugin(PASSES=("bonsu",)))


def test_refuses_naming_an_undeclared_action_type_is_an_error_at_load_time():
    class Loan:
        pass
    with pytest.raises(PluginError, match="REFUSES names the action type Loan"):
        registry_with(_toll_plugin(REFUSES=(Loan,)))


def test_an_inconsistent_kind_is_refused_with_its_plugin_and_kind():
    bad = _module("bad", PLUGIN_ID="bad",
                  SPACE_KINDS={"shed": SpaceKind(mortgageable=True)})
    with pytest.raises(PluginError, match=r"plugin bad .*space kind 'shed': mortgageable need "
                                          r"ownable=True"):
        plugin_info(bad, "entry point bad")


def test_a_hook_that_raises_is_one_line_naming_the_plugin_and_the_hook(tmp_path):
    @hookimpl
    def em_turn_start(game, player):
        raise ZeroDivisionError("division by zero")
    registry = registry_with(_module("crashy", PLUGIN_ID="crashy", em_turn_start=em_turn_start))
    variant = load_variant("standard", registry=registry, enable=["crashy"])
    for dispatch in ("fast", "pluggy"):
        with pytest.raises(PluginError, match=r"plugin 'crashy' failed in em_turn_start: "
                                              r"ZeroDivisionError: division by zero \(game seed 3"):
            play(variant, registry, dispatch, 3)


def test_a_third_party_plugin_cannot_make_itself_essential():
    info = plugin_info(_module("pushy", PLUGIN_ID="pushy", ESSENTIAL=True), "entry point pushy")
    assert not info.essential


def test_a_plugin_that_refuses_every_roll_stops_bots_with_one_line_naming_it():
    from easymoney import Refusal
    from easymoney.plugins.turn import Roll

    @hookimpl
    def em_refusals(game, action):
        if type(action) is Roll:
            return [Refusal("-", "norolls", "nobody rolls today")]
        return None
    registry = registry_with(_module("norolls", PLUGIN_ID="norolls", em_refusals=em_refusals))
    variant = load_variant("standard", registry=registry, enable=["norolls"])
    with pytest.raises(PluginError, match=r"plugin 'norolls' refused Ann's answer to Ann to roll .*"
                                          r"nobody rolls today.*the bots cannot play this game "
                                          r"\(game seed 4, turn 1\)"):
        play(variant, registry, "fast", 4)


def test_a_plugin_raising_a_base_exception_at_import_is_one_load_error(tmp_path, monkeypatch):
    import sys
    from importlib.metadata import EntryPoint

    from easymoney.engine import registry as registry_module
    (tmp_path / "em_stopper.py").write_text("raise KeyboardInterrupt('at import')\n")
    (tmp_path / "em_exiter.py").write_text("raise SystemExit(3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [EntryPoint("stopper", "em_stopper", "easymoney.plugins"),
              EntryPoint("exiter", "em_exiter", "easymoney.plugins")]
    monkeypatch.setattr(registry_module, "entry_points", lambda group: points)
    found = Registry()
    registry_module._load_entry_points(found)
    assert found.plugins == {}
    assert [e.split(":")[0] for e in found.load_errors] == [
        "plugin exiter (entry point exiter) failed to load", "plugin stopper (entry point "
        "stopper) failed to load"]
    assert "KeyboardInterrupt: at import" in found.load_errors[1]
    sys.modules.pop("em_stopper", None)
