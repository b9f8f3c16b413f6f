"""Issue 18, rules that compose: a plugin declares its own hooks (`HOOKSPECS`, as pytest's
`pytest_addhooks`); `em_auction` and `em_exempt` live with their rules, not in the core."""

from __future__ import annotations

import types
from typing import Any

import pytest

from easymoney import PluginError, hookimpl, hookspec
from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine import hookspecs
from easymoney.engine.game import Game, RuleSet
from easymoney.engine.registry import Registry, admit, discover, plugin_info
from easymoney.loading.loader import load_variant
from easymoney.plugins import auction, exemption

NAMES = ["Ann", "Bob"]


def test_issue18_one_rules_hooks_live_with_the_rule() -> None:
    assert not hasattr(hookspecs, "em_auction") and not hasattr(hookspecs, "em_exempt")
    assert hasattr(auction.HOOKSPECS, "em_auction")
    assert hasattr(exemption.HOOKSPECS, "em_exempt")


def _game(registry: Registry, rules: tuple[str, ...], variant: str = "standard") -> Game:
    v = load_variant(variant, registry=registry)
    enabled = tuple(r for r in v.rules if r not in ("auction",) or "auction" in rules) + tuple(
        r for r in rules if r not in v.rules)
    bots = BotDecider({n: make_strategy("cautious") for n in NAMES})
    return Game(v, NAMES, bots, ruleset=RuleSet(registry, enabled))


def _with(*modules: types.ModuleType) -> Registry:
    registry = Registry(dict(discover().plugins))
    for module in modules:
        admit(registry, plugin_info(module, f"entry point {module.__name__}",
                                    module.PLUGIN_ID))
    return registry


def _caller() -> types.ModuleType:
    """A third-party plugin that puts a space up for auction through the auction rule's hook."""
    module = types.ModuleType("em_auctioneer")
    module.PLUGIN_ID = "auctioneer"
    return module


def test_issue18_a_third_party_call_of_em_auction_works_where_the_rule_is_on() -> None:
    registry = _with(_caller())
    game = _game(registry, ("auction", "auctioneer"))
    game.setup()
    space = game.space("Dover Street")
    assert game.hook.has("em_auction")
    game.hook.em_auction(game, space, game.players[0])
    assert [e.data["space"] for e in game.log if e.kind == "auction"] == ["Dover Street"]


def test_issue18_a_call_of_em_auction_where_the_rule_is_off_is_one_clear_error() -> None:
    registry = _with(_caller())
    game = _game(registry, ("auctioneer",))
    assert "auction" not in game.ruleset.enabled
    assert not game.hook.has("em_auction")
    with pytest.raises(PluginError, match=r"the hook em_auction is declared by the rule "
                                          r"'auction', which is off in this game"):
        game.hook.em_auction(game, game.space("Dover Street"), game.players[0])


def test_issue18_a_rules_hook_is_implemented_by_others_where_the_rule_is_off() -> None:
    """The docs' tax holiday answers `em_exempt` whether or not R16's rule is on."""
    module = types.ModuleType("em_tax_holiday")
    module.PLUGIN_ID = "tax_holiday"  # not the rent-holiday test plugin's id
    module.em_exempt = hookimpl(lambda charge: "a tax holiday" if charge == "tax" else None)
    registry = _with(module)
    v = load_variant("standard", registry=registry, disable=["exemption"])
    game = Game(v, NAMES, BotDecider({}), ruleset=RuleSet(registry, (*v.rules, "tax_holiday")))
    assert game.hook.em_exempt(game, game.players[0], "tax") == "a tax holiday"


def test_issue18_a_plugin_declares_its_own_hook() -> None:
    class Specs:
        @staticmethod
        @hookspec(firstresult=True)
        def em_toll(game: Any, player: Any) -> int | None:
            """What a player pays at the toll gate; first result wins."""

    module = types.ModuleType("em_tolls")
    module.PLUGIN_ID = "tolls"
    module.HOOKSPECS = Specs
    module.em_toll = hookimpl(lambda player: 7)
    registry = _with(module)
    game = _game(registry, ("tolls",))
    assert game.hook.em_toll(game, game.players[0]) == 7


def test_issue18_a_hook_declared_twice_is_refused_at_load() -> None:
    class Again:
        @staticmethod
        @hookspec(firstresult=True)
        def em_auction(game: Any, space: Any, starter: Any) -> Any:
            """An auction of my own."""

    module = types.ModuleType("em_again")
    module.PLUGIN_ID = "again"
    module.HOOKSPECS = Again
    with pytest.raises(PluginError, match="plugin again .*: HOOKSPECS declares em_auction, "
                                          "which the rule 'auction' declares"):
        _with(module)
