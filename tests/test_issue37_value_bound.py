"""Issue 37's bulk figures: a window action's `value_bound` (docs/plugins.md, "How the
built-in bots use your actions"). A type whose bound is not worth taking is neither listed
nor valued in a bot's window; a bound that is a number not above 0 leaves the type out at
once; the games are those played without the bound (it only says what the values say);
and under the invariants check a bound the values exceed is one PluginError."""

from __future__ import annotations

from typing import Any

import pytest

from easymoney import new_game
from easymoney import bots
from easymoney.bots import BotDecider, Cautious
from easymoney.engine.game import Game, ruleset_for
from easymoney.engine.settings import Settings
from easymoney.errors import PluginError
from easymoney.loading.loader import load_variant
from easymoney.strategies import make_strategy

from easymoney_test_holiday import BuyHoliday, expected_rent  # the fixtures, installed
from easymoney_test_loan import Borrow
from test_issue37_bulk import counting


def listings_of(monkeypatch: pytest.MonkeyPatch, kind: type) -> list[Any]:
    """The bots' listings in their windows that include `kind`'s actions (a spy on its
    candidates may never be called: a listing's plan keeps them, made once a rule set)."""
    calls: list[Any] = []
    real = bots.legal_actions

    def spy(game: Any, request: Any, *args: Any, kinds: Any = None, **kw: Any) -> Any:
        if kinds is not None and kind in kinds:
            calls.append(request)
        return real(game, request, *args, kinds=kinds, **kw)
    monkeypatch.setattr(bots, "legal_actions", spy)
    return calls


def play(rule: str, seed: int, strategy: str = "cautious", turns: int = 200,
         settings: Settings | None = None) -> Game:
    variant = load_variant("standard", enable=[rule])
    names = ["P1", "P2", "P3", "P4"]
    decider = BotDecider({n: make_strategy(strategy) for n in names})
    game = Game(variant, [(n, strategy) for n in names], decider, seed=seed,
                ruleset=ruleset_for(variant, settings=settings))
    game.setup()
    game.play(max_turns=turns)
    return game


def outcome(game: Game) -> tuple[Any, ...]:
    return (game.turns_played, tuple(p.cash for p in game.players),
            tuple(len(p.spaces) for p in game.players), [e.kind for e in game.log][-40:])


@pytest.mark.parametrize("strategy", ["cautious", "greedy"])
def test_issue37_a_loan_bounded_below_zero_is_never_listed_nor_valued(monkeypatch, strategy):
    listed = listings_of(monkeypatch, Borrow)
    valued = counting(monkeypatch, Borrow, "value")
    game = play("loan", seed=3, strategy=strategy)
    assert game.turns_played > 50
    assert listed == [] and valued == []


def holiday_bound(cls: type, game: Game, player: Any) -> int:
    """A true bound of the holiday's value to a payer: the rent it saves less the least the
    owner takes (over half of it). Seldom 0 or less, so it costs the holiday fixture more
    than it saves, which is why the fixture has none; a test of the classmethod form."""
    turns, best = game.option("holiday.turns"), 0
    for owner in game.players:
        if owner is not player and owner.spaces and not owner.bankrupt:
            saved = expected_rent(game, player, owner, turns)
            best = max(best, saved - saved // 2 - 1)
    return best


@pytest.mark.parametrize("rule,kind,bound", [("loan", Borrow, None),
                                              ("holiday", BuyHoliday, classmethod(holiday_bound))])
def test_issue37_a_bound_changes_no_game(monkeypatch, rule, kind, bound):
    if bound is not None:
        monkeypatch.setattr(kind, "value_bound", bound)
    bounded = [outcome(play(rule, seed)) for seed in range(3)]
    monkeypatch.setattr(kind, "value_bound", None)  # no bound: every window lists and values
    assert [outcome(play(rule, seed)) for seed in range(3)] == bounded


def test_issue37_a_bound_that_depends_on_the_game_is_asked_each_window(monkeypatch):
    asked: list[Any] = []
    monkeypatch.setattr(BuyHoliday, "value_bound",
                        classmethod(lambda cls, game, player: asked.append(player) or 0))
    listed = listings_of(monkeypatch, BuyHoliday)
    game = play("holiday", seed=1, turns=30)
    assert len(asked) >= game.turns_played  # a window or two a turn
    assert listed == []  # 0 is not worth taking: never listed
    assert "rent_holiday" not in [e.kind for e in game.log]


def test_issue37_a_bound_worth_taking_lists_the_type(monkeypatch):
    monkeypatch.setattr(BuyHoliday, "value_bound", classmethod(lambda cls, game, player: 10**6))
    listed = listings_of(monkeypatch, BuyHoliday)
    play("holiday", seed=1, turns=10)
    assert listed


def test_issue37_a_bot_of_its_own_judges_a_bound_by_its_own_worth_taking(monkeypatch):
    class Picky(Cautious):
        name = "picky"

        def worth_taking(self, game: Any, player: Any, value: int) -> bool:
            return value > 100

    monkeypatch.setattr(Borrow, "value", lambda self, game, player: self.amount // 10
                        if player is self.player else None)  # up to 100: not for Picky
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed=1, enable=["loan"])
    listed = listings_of(monkeypatch, Borrow)
    monkeypatch.setattr(Borrow, "value_bound", 100)
    assert str(Picky().decide(state.game, state.request)) == "Ann rolls"
    assert listed == []
    monkeypatch.setattr(Borrow, "value_bound", 101)  # might be worth it: listed, then valued
    assert str(Picky().decide(state.game, state.request)) == "Ann rolls"
    assert len(listed) == 1
    assert str(Cautious().decide(state.game, state.request)) == "Ann borrows 1000"


def test_issue37_a_bound_the_values_exceed_is_one_plugin_error_under_the_invariants_check(
        monkeypatch):
    monkeypatch.setattr(Borrow, "value", lambda self, game, player: self.amount // 10
                        if player is self.player else None)  # worth it, yet bounded at -5
    with pytest.raises(PluginError) as caught:
        play("loan", seed=2, turns=5, settings=Settings(invariants=True))
    message = str(caught.value)
    assert "'loan'" in message and "Borrow" in message and "value_bound" in message
    assert "seed 2" in message and "\n" not in message.strip()


def test_issue37_without_the_invariants_check_the_bound_is_trusted(monkeypatch):
    monkeypatch.setattr(Borrow, "value", lambda self, game, player: self.amount // 10
                        if player is self.player else None)
    game = play("loan", seed=2, turns=20)
    assert "bank_loan" not in [e.kind for e in game.log]  # the bound said none is worth it


def test_issue37_a_rule_that_values_other_rules_actions_sets_the_bound_aside(monkeypatch):
    # the jail fixture answers em_action_value: its value, not the action's, is the bot's
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed=1, enable=["loan", "jail"])
    listed = listings_of(monkeypatch, Borrow)
    make_strategy("cautious").decide(state.game, state.request)
    assert listed  # listed and valued by the hook, whatever the bound says
