"""Seeded random play-throughs of every shipped variant, checking the invariants after every event."""

from __future__ import annotations

import pytest

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game
from easymoney.engine.settings import Settings
from easymoney.loading.loader import load_variant

VARIANTS = ("standard", "no-four-sides", "reference-card", "classic-1936")
SEEDS = (1, 2, 3)
STRATEGIES = ("cautious", "greedy", "random")
MAX_TURNS = 300   # end.max_turns: every game ends, by bankruptcy, the Bank or turns


class Invariants:
    """A listener added by `game.listen`: money conserved, no negative cash, 16 houses a player."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.events = 0

    def __call__(self, event: object) -> None:
        game = self.game
        self.events += 1
        total = game.total_money()
        assert total == game.variant.bank_total, (event, total)
        assert game.bank.cash >= 0, event
        for pot in game.pots.values():
            assert pot.cash >= 0, event
        per_player = game.variant.houses_per_player
        for p in game.players:
            assert p.cash >= 0, (event, p)
            on_board = sum(game.houses[s.index] for s in p.spaces)
            assert on_board + p.houses_left == per_player, (event, p)


def players_for(seed: int, count: int) -> list[tuple[str, str]]:
    names = ("Ann", "Bob", "Cat", "Dan")[:count]
    return [(name, STRATEGIES[(seed + i) % len(STRATEGIES)]) for i, name in enumerate(names)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", VARIANTS)
def test_seeded_playthrough_keeps_the_invariants_and_ends(name, seed):
    variant = load_variant(name, options=[f"end.max_turns={MAX_TURNS}"])
    players = players_for(seed, 2 + seed % 3)
    decider = BotDecider({n: make_strategy(s) for n, s in players})
    game = Game(variant, [n for n, _ in players], decider, seed=seed, keep_log=False,
                settings=Settings(invariants=True))
    check = Invariants(game)
    game.setup()
    check(None)  # the dealt position; then after every event of the game
    game.listen(check)
    outcome = game.play(max_turns=MAX_TURNS + 1)

    assert outcome is not None and outcome.reason in ("bankruptcy", "bank", "turns")
    assert check.events > 0
    assert game.turns_played <= MAX_TURNS
    for p in game.players:
        if p.bankrupt:
            assert p.spaces == [] and p.cash == 0 and p.held == []
    for i, owner in enumerate(game.owner):
        assert (owner is None) == (game.houses[i] == 0)
        if owner is None:
            assert not game.mortgaged[i]
    assert set(outcome.winners) == {p.name for p in game.winners()}
    if outcome.reason == "bankruptcy" and variant.option("end.on") == "first_bankruptcy":
        assert sum(p.bankrupt for p in game.players) == 1
    if outcome.reason == "bankruptcy" and variant.option("end.on") == "last_player_standing":
        assert len(game.active_players()) == 1

