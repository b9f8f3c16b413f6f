"""The engine core: money moves only by transfer and is conserved; ownership bookkeeping; the game loop."""

from __future__ import annotations

import pytest

from easymoney import Refusal
from easymoney.plugins.building import Build
from easymoney.plugins.turn import Roll
from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.errors import RefusedAction
from easymoney.engine.game import Game, GameEnded, ruleset_for
from easymoney.loading.loader import load_variant

NAMES = ["Ann", "Bob", "Cat"]


@pytest.fixture(scope="module")
def standard():
    return load_variant("standard")


def bot_game(variant, seed=0, strategy="cautious", names=NAMES):
    decider = BotDecider({n: make_strategy(strategy) for n in names})
    game = Game(variant, names, decider, seed=seed)
    game.setup()
    return game


def test_setup_deals_cash_and_houses_and_keeps_the_total(standard):
    game = bot_game(standard)
    assert [p.cash for p in game.players] == [20000] * 3
    assert game.bank.cash == 300000 - 60000
    assert game.total_money() == standard.bank_total
    assert all(p.houses_left == 16 for p in game.players)
    assert len(game.deck) == 24


def test_transfer_conserves_money_and_refuses_overdrafts(standard):
    game = bot_game(standard)
    ann, bob = game.players[:2]
    game.transfer(ann, bob, 1500, "test")
    assert (ann.cash, bob.cash) == (18500, 21500)
    assert game.total_money() == standard.bank_total
    with pytest.raises(ValueError):
        game.transfer(ann, bob, 18510, "too much")
    with pytest.raises(ValueError):
        game.transfer(ann, bob, -10, "negative")
    with pytest.raises(ValueError):
        game.transfer(ann, bob, 10.0, "float")  # money is whole dollars, never floats
    assert (ann.cash, bob.cash) == (18500, 21500)
    pay = [e for e in game.log if e.kind == "pay"][-1]
    assert pay.data == {"payer": "Ann", "payee": "Bob", "amount": 1500, "reason": "test",
                        "payment": "other"}  # the payment kind: transfer's default


def test_acquire_change_owner_release_keep_house_counts(standard):
    game = bot_game(standard)
    ann, bob = game.players[:2]
    dover = game.space("Dover Street")
    game.acquire(ann, dover, 3)
    assert game.owner[dover.index] is ann and ann.houses_left == 13 and ann.spaces == [dover]
    game.change_owner(dover, bob)
    assert game.owner[dover.index] is bob and ann.houses_left == 16 and bob.houses_left == 13
    assert ann.spaces == [] and bob.spaces == [dover]
    game.mortgaged[dover.index] = True
    game.release(dover)
    assert game.owner[dover.index] is None and game.houses[dover.index] == 0
    assert not game.mortgaged[dover.index] and bob.houses_left == 16


def test_a_refused_action_changes_nothing(standard):
    game = bot_game(standard)
    ann = game.players[0]
    before = game.snapshot()
    with pytest.raises(RefusedAction) as exc:
        game.perform(Build(ann, game.space("Dover Street")))
    assert "R17 building" in str(exc.value) and "Ann does not own Dover Street" in str(exc.value)
    assert all(isinstance(r, Refusal) for r in exc.value.refusals)
    assert game.snapshot() == before


def test_snapshot_sees_every_change(standard):
    game = bot_game(standard)
    before = game.snapshot()
    game.transfer(game.players[0], game.bank, 10, "test")
    assert game.snapshot() != before
    after = game.snapshot()
    game.roll_dice()
    assert game.snapshot()["rng"] != after["rng"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_same_seed_plays_the_same_game(standard, seed):
    a = bot_game(standard, seed)
    a.play(max_turns=300)
    b = bot_game(standard, seed)
    b.play(max_turns=300)
    assert [(e.kind, e.data) for e in a.log] == [(e.kind, e.data) for e in b.log]


def test_end_unwinds_and_ranks(standard):
    game = bot_game(standard)
    with pytest.raises(GameEnded):
        game.end("turns", "test")
    assert game.outcome.reason == "turns" and set(game.outcome.winners) == set(NAMES)
    assert [e.kind for e in game.log][-1] == "game_over"


def test_rounding_of_computed_amounts(standard):
    from fractions import Fraction
    game = bot_game(standard)
    assert [game.round(x) for x in (385, 384, 415, Fraction(4175, 10), Fraction(473))] == \
        [390, 380, 420, 420, 470]


def test_switched_off_rule_refuses_its_actions(standard):
    variant = load_variant("standard", disable=["building", "four_sides"])
    game = bot_game(variant)
    ann = game.players[0]
    game.acquire(ann, game.space("Dover Street"))
    refusals = game.refusals(Build(ann, game.space("Dover Street")))
    assert [(r.rule, r.plugin) for r in refusals] == [("R17", "building")]
    assert "switched off" in refusals[0].reason


def test_roll_is_never_refused(standard):
    game = bot_game(standard)
    assert game.refusals(Roll(game.players[0])) == []


def test_rulesets_are_shared_by_games_of_one_variant(standard):
    assert ruleset_for(standard) is ruleset_for(standard)
    assert ruleset_for(standard, dispatch="pluggy") is not ruleset_for(standard)


def test_spaces_and_cards_survive_pickle_and_copy():
    import copy
    import pickle

    variant = load_variant("standard")
    street = next(s for s in variant.spaces if s.kind == "street")
    again = pickle.loads(pickle.dumps(street))
    assert (again.index, again.name, again.kind, again.side, again.price, again.data) == \
        (street.index, street.name, street.kind, street.side, street.price, street.data)
    card = copy.deepcopy(variant.cards[0])
    assert (card.text, card.kind, card.data) == (variant.cards[0].text, variant.cards[0].kind,
                                                variant.cards[0].data)
    legend = next(s for s in variant.spaces if s.kind == "legend")
    with pytest.raises(AttributeError, match="price"):
        legend.price
