"""Issue 19 case 11: --check-invariants catches too many houses on one street and a mortgaged
space that nobody owns, at the event that made them."""

from __future__ import annotations

import pytest

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game
from easymoney.engine.settings import Settings
from easymoney.loading.loader import load_variant
from easymoney.plugins.invariants import InvariantViolation, violations

EVENT = "the Bank pays Ann $10: a test"


@pytest.fixture
def game() -> Game:
    bots = BotDecider({"Ann": make_strategy("cautious"), "Bob": make_strategy("greedy")})
    game = Game(load_variant("standard"), ["Ann", "Bob"], bots, seed=1,
                settings=Settings(invariants=True))
    game.setup()
    assert "invariants" in game.ruleset.enabled
    assert violations(game) == []
    return game


def breach(game: Game) -> str:
    with pytest.raises(InvariantViolation) as info:
        game.emit("pay", payer="the Bank", payee="Ann", amount=10, reason="a test")
    prefix = f"invariant broken by event '{EVENT}': "
    assert info.value.message.startswith(prefix), info.value.message
    return info.value.message[len(prefix):]


def test_issue19_case11_more_houses_on_a_street_than_it_holds(game: Game) -> None:
    ann, space = game.players[0], game.space("Dover Street")
    game.acquire(ann, space)
    game.houses[space.index] += 8  # nine, from Ann's supply: the supply still adds up
    ann.houses_left -= 8
    limit = game.variant.houses_per_street
    assert breach(game) == (f"Dover Street carries 9 houses, more than a street holds "
                            f"({limit}, houses.per_street)")


def test_issue19_case11_a_mortgaged_space_nobody_owns(game: Game) -> None:
    game.mortgaged[game.space("Dover Street").index] = True
    assert breach(game) == "unowned Dover Street is mortgaged"
