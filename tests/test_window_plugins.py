"""Issue 37's two fixture rules, written from docs/plugins.md alone (tests/plugins/loan_plugin,
tests/plugins/holiday_plugin): a bank loan in a window, an amount in $50 steps up to $1,000,
and a rent holiday bought from another player (a deal, R22a). Played by scripts, and by the
bots in bulk (the bots never borrow)."""

from __future__ import annotations

from easymoney import ActionRange, new_game
from easymoney.bots import BotDecider
from easymoney.engine.game import Game, ruleset_for
from easymoney.loading.loader import load_variant
from easymoney.strategies import make_strategy
from easymoney.engine.legal import is_listed
from rules.conftest import play, refused

LOAN, HOLIDAY = "with loan\n", "with holiday\n"


def test_a_bank_loan_is_paid_and_collected_with_interest_three_turns_later() -> None:
    # both walk from United Trust Company over Ann's spaces in threes
    play(LOAN + """
        setup Ann at 16
        setup Bob at 16
        setup Ann owns "Jefferson Road"
        setup Ann owns "Milk Route"
        setup Ann owns "Lincoln Street"
        setup Ann owns "L.M. Telephone Company"
        expect Ann cash 20000
        Ann borrows 500
        expect Ann cash 20500
        expect Ann owes the bank 550
        Ann rolls 1 2
        Ann ends turn
        Bob rolls 1 2
        Bob ends turn
        Ann rolls 1 2
        Ann ends turn
        Bob rolls 1 2
        Bob ends turn
        Ann rolls 1 2
        Ann ends turn
        Bob rolls 1 2
        expect Ann owes the bank 550
        Bob ends turn
        expect Ann owes the bank 0
        expect Ann cash 20460  # 20,000 + 500 borrowed + Bob's rents 120, 300, 90 - 550
    """)


def test_a_bank_loan_is_in_50_steps_up_to_1000() -> None:
    refused(LOAN + "Ann borrows 1050\n", "", "loan", "$50 to $1,000 in $50 steps")
    refused(LOAN + "Ann borrows 520\n", "", "loan", "$50 to $1,000 in $50 steps")


def test_r5_one_bank_loan_at_a_time_and_only_in_ones_own_window() -> None:
    refused(LOAN + "Ann borrows 500\nAnn borrows 50\n", "", "loan", "has not repaid")
    refused(LOAN + "Bob borrows 500\n", "R5", "turn")


def test_the_loan_is_listed_as_one_range_of_its_steps() -> None:
    from easymoney_test_loan import Borrow
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["loan"])
    ann, legal = state.game.players[0], state.legal_actions()
    (loans,) = [a for a in legal if isinstance(a, ActionRange) and a.kind is Borrow]
    assert (loans.least, loans.most, loans.step) == (50, 1000, 50)
    assert is_listed(legal, Borrow(ann, 1000)) and is_listed(legal, Borrow(ann, 50))
    assert not is_listed(legal, Borrow(ann, 1050)) and not is_listed(legal, Borrow(ann, 70))


def test_r18_a_rent_holiday_waives_the_rent_for_its_turns() -> None:
    play(HOLIDAY + """
        setup Bob owns "Dover Street"
        Ann pays Bob 200 for a rent holiday
        expect Ann cash 19800
        expect Ann holiday from Bob 3
        Ann rolls 3 4
        expect Ann cash 19800
        Ann ends turn
        expect Ann holiday from Bob 2
    """)


def test_r22a_a_rent_holiday_is_a_deal_and_needs_something_that_takes_rent() -> None:
    refused(HOLIDAY + "Ann pays Bob 200 for a rent holiday\n", "", "holiday",
            "Bob owns nothing that takes rent")
    refused(HOLIDAY + 'setup Bob owns "Dover Street"\nAnn pays Ann 200 for a rent holiday\n',
            "", "holiday", "another player")


def test_the_bots_play_whole_games_with_either_rule_on() -> None:
    names = ["cautious", "greedy", "random"]
    for rule in ("loan", "holiday"):
        variant = load_variant("standard", enable=[rule])
        ruleset = ruleset_for(variant)
        for seed in range(3):
            decider = BotDecider({n: make_strategy(n) for n in names})
            game = Game(variant, [(n, n) for n in names], decider, seed=seed, ruleset=ruleset)
            game.setup()
            game.play(max_turns=300)
            assert game.turns_played > 0
            borrowers = {e.data["player"] for e in game.log if e.kind == "bank_loan"}
            assert borrowers <= {"random"}  # only the random bot borrows: it takes anything


def test_a_bot_weighs_a_derived_amount_at_its_least_on_the_grid(monkeypatch) -> None:
    """The built-in bots judge a range at its two ends (docs/plugins.md) as the listing
    offers it: on R30's grid, so the least a rent holiday may cost is $10, not $1 (which the
    rules refuse, and which left the bots weighing the most amount only)."""
    from easymoney_test_holiday import BuyHoliday
    monkeypatch.setattr(BuyHoliday, "value", lambda self, game, player: 1_000_000 - self.amount
                        if player is self.player else None)
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["holiday"])
    game = state.game
    ann, bob = game.players
    game.acquire(bob, game.spaces[7])
    answer = make_strategy("greedy").decide(game, state.request)
    assert str(answer) == "Ann pays Bob 10 for a rent holiday"
