"""Issue 37's bulk figures: what a bot's window costs while a third-party rule's window action
is listed and valued (tests/plugins/loan_plugin, tests/plugins/holiday_plugin; bench/
bench_plugins.py). Each window lists the plugin's actions once and values each end of a
range once; what no rule needs is not asked (em_action_value nobody implements, the
rejected offers while none was rejected, the bots' record of what a window offered while it
offered nothing); and the bots still take such an action when its value says so."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from easymoney import WINDOW_KINDS, Action, Money, Player, new_game
from easymoney import bots
from easymoney.bots import BotDecider
from easymoney.engine import derived
from easymoney.engine.deals import note_rejected
from easymoney.engine.game import Game, ruleset_for
from easymoney.loading.loader import load_variant
from easymoney.plugins.rounding import em_round
from easymoney.strategies import make_strategy

from easymoney_test_holiday import BuyHoliday  # the fixtures, installed for the tests
from easymoney_test_loan import Borrow


def window(rule: str, seed: int = 1) -> Any:
    """A game with `rule` on at its first window (Ann's, before her throw)."""
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed=seed, enable=[rule])
    assert state.request.kind in WINDOW_KINDS
    return state


def holiday_window() -> tuple[Any, Game, list[Any]]:
    """The first window of a game with the holiday on, Bob and Cy owning a street each."""
    state = window("holiday")
    game = state.game
    game.acquire(game.players[1], game.spaces[7])
    game.acquire(game.players[2], game.spaces[9])
    return state, game, game.players


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """Every call of `owner.name` (a function or a method), kept in order."""
    calls: list[Any] = []
    real = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, spy)
    return calls


def test_issue37_a_window_lists_a_plugins_actions_once_and_values_each_end_once(monkeypatch):
    monkeypatch.setattr(Borrow, "value_bound", None)  # unbounded: listed and valued
    state = window("loan")
    listed = counting(monkeypatch, bots, "legal_actions")  # (a listing's plan keeps candidates)
    valued = counting(monkeypatch, Borrow, "value")
    answer = make_strategy("cautious").decide(state.game, state.request)
    assert str(answer) == "Ann rolls"  # a loan costs its interest: never worth taking
    assert len(listed) == 1
    assert sorted(args[0].amount for args in valued) == [50, 1000]  # the range's two ends


def test_issue37_em_action_value_is_not_asked_when_no_rule_implements_it(monkeypatch):
    monkeypatch.setattr(Borrow, "value_bound", None)
    state = window("loan")
    hook = state.game.hook
    assert not hook.has("em_action_value")
    asked = counting(monkeypatch, hook, "em_action_value")
    valued = counting(monkeypatch, Borrow, "value")
    make_strategy("cautious").decide(state.game, state.request)
    assert asked == [] and len(valued) == 2


def test_issue37_em_action_value_is_asked_when_a_rule_implements_it(monkeypatch):
    # a rule answering em_action_value (the jail fixture's) as well
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed=1, enable=["loan", "jail"])
    hook = state.game.hook
    assert hook.has("em_action_value")
    asked = counting(monkeypatch, hook, "em_action_value")
    make_strategy("cautious").decide(state.game, state.request)
    assert [type(args[2]) for args in asked] == [Borrow, Borrow]


def test_issue37_a_window_that_offers_nothing_keeps_no_record_of_its_offers():
    state = window("loan")
    make_strategy("cautious").decide(state.game, state.request)
    assert bots._TRIED not in state.game.stash  # made only once something is offered


def test_issue37_offers_are_not_looked_up_among_the_rejected_until_one_is(monkeypatch):
    state, game, (ann, bob, cy) = holiday_window()
    looked = counting(monkeypatch, bots, "offered_in_vain")
    make_strategy("cautious").decide(game, state.request)
    assert looked == []
    # Bob turned one down (R22a then refuses his in this window: Cy's are looked up)
    note_rejected(game, state.request, BuyHoliday(ann, bob, 100))
    make_strategy("cautious").decide(game, state.request)
    assert [args[1].owner.name for args in looked] == ["Cy", "Cy"]


def test_issue37_a_derived_range_copies_its_action_for_its_most_amount_only(monkeypatch):
    state, game, (ann, bob, cy) = holiday_window()
    copies = counting(monkeypatch, derived, "with_field")
    found = list(derived.derived_candidates(BuyHoliday)(game, state.request))
    bill = game.variant.smallest_bill  # the amounts are offered on R30's grid
    top = ann.cash // bill * bill
    assert [(r.template.owner.name, r.least, r.most) for r in found] == [
        ("Bob", bill, top), ("Cy", bill, top)]
    assert [args[2] for args in copies] == [top, top]  # Ann's own is refused at the least
    # the listing judges the copy at the most, and a bot values it, without another copy
    assert [r.at_most() for r in found] == [BuyHoliday(ann, bob, top), BuyHoliday(ann, cy, top)]
    assert len(copies) == 2


@dataclass(frozen=True)
class Tip(Action):
    """A frozen action with an amount: its derived candidates are copies, never changed."""
    LINE = "{player} tips {to} {amount}"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player
    to: Player
    amount: Money
    verb = "tip"


@dataclass
class Fee(Action):
    """An action whose __post_init__ reads its amount: a copy runs it again."""
    LINE = "{player} pays a fee of {amount} to {to}"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player
    to: Player
    amount: Money

    def __post_init__(self) -> None:
        self.doubled = 2 * self.amount


@pytest.mark.parametrize("kind", [Tip, Fee])
def test_issue37_a_frozen_or_post_init_actions_derived_range_is_made_of_copies(kind):
    state = window("holiday")
    game = state.game
    found = list(derived.derived_candidates(kind)(game, state.request))
    ann = game.players[0]
    bill = game.variant.smallest_bill  # the amounts are offered on R30's grid
    top = ann.cash // bill * bill
    assert [(r.template.to.name, r.template.amount, r.least, r.most, r.step) for r in found] == [
        (p.name, bill, bill, top, bill) for p in game.players]
    assert [r.at_most().amount for r in found] == [top] * len(found)
    if kind is Fee:
        assert [r.template.doubled for r in found] == [2 * bill] * len(found)  # made at the least
        assert [r.at_most().doubled for r in found] == [2 * top] * len(found)


@pytest.mark.parametrize("amount", [Fraction(4, 1), Fraction(5), Fraction(14, 1), Fraction(15),
                                    Fraction(2099, 48) * 3, Fraction(-5), Fraction(-15, 2), 4.5])
def test_issue37_r30_rounds_a_fraction_as_before(amount):
    state = window("loan")
    bill = state.game.variant.smallest_bill
    q = Fraction(amount)
    assert em_round(state.game, amount) == (q / bill + Fraction(1, 2)).__floor__() * bill


def cautious_games(rule: str, seeds: range) -> list[tuple[int, int]]:
    """(loans, rent holidays) of each seeded game of 4 cautious bots with `rule` on."""
    variant = load_variant("standard", enable=[rule])
    ruleset = ruleset_for(variant)
    names = ["P1", "P2", "P3", "P4"]
    out = []
    for seed in seeds:
        decider = BotDecider({n: make_strategy("cautious") for n in names})
        game = Game(variant, [(n, "cautious") for n in names], decider, seed=seed,
                    ruleset=ruleset)
        game.setup()
        game.play(max_turns=300)
        kinds = [e.kind for e in game.log]
        out.append((kinds.count("bank_loan"), kinds.count("rent_holiday")))
    return out


def test_issue37_the_bots_still_buy_the_holidays_their_value_says_are_worth_it():
    # the holidays the cautious bots bought in these games before issue 37's bulk work
    assert [h for _, h in cautious_games("holiday", range(6))] == [7, 3, 0, 1, 0, 4]


def test_issue37_the_bots_borrow_once_a_loan_is_worth_it(monkeypatch):
    state = window("loan")
    monkeypatch.setattr(Borrow, "value", lambda self, game, player: self.amount // 10
                        if player is self.player else None)
    monkeypatch.setattr(Borrow, "value_bound", None)  # its bound said no loan is worth it
    answer = make_strategy("cautious").decide(state.game, state.request)
    assert str(answer) == "Ann borrows 1000"  # the end worth the most
    assert all(loans > 0 for loans, _ in cautious_games("loan", range(2)))


@dataclass(slots=True)
class Donate(Action):
    """An action whose own rule takes whole bills only: amounts off R30's grid refused."""
    LINE = "{player} donates {amount} to {to}"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player
    to: Player
    amount: Money
    verb = "donate"

    def refusals(self, game: Game) -> list[Any]:
        from easymoney import Refusal
        bill = game.variant.smallest_bill
        if self.to is self.player or self.amount % bill:
            return [Refusal("-", "donate", "whole bills, to another player")]
        return []


def test_issue37_a_derived_range_is_judged_at_the_ends_it_offers_on_r30s_grid():
    """Derived candidates offer their amounts on the rules' grid and are judged by their own
    refusals there: a class refusing amounts off the grid lists the amounts on it (judged at
    1, as before, it listed nothing that the rules allow)."""
    state = window("holiday")
    game = state.game
    ann, bob, cy = game.players
    bill = game.variant.smallest_bill
    assert bill > 1 and ann.cash % bill == 0
    found = list(derived.derived_candidates(Donate)(game, state.request))
    assert [(r.template.to.name, r.least, r.most, r.step) for r in found] == [
        ("Bob", bill, ann.cash, bill), ("Cy", bill, ann.cash, bill)]
    for r in found:  # every amount listed is one its rule allows, and the others it refuses
        assert not r.at(r.least).refusals(game) and not r.at_most().refusals(game)
        assert r.at(r.least + 1).refusals(game)
