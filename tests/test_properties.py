"""Properties of every game, on random seeds, variants, rule switches, options, tables and strategies.

With the invariants on (tests/conftest.py) every bot game keeps its bookkeeping sound and
ends; a recorded game replays to the same transcript; a refused action, and the check that
refuses it, leave the whole state as it was.
"""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from bench_modules import load

from types import SimpleNamespace

from easymoney.plugins import auction, building, debts, exemption, mortgage, sales, streets, turn

A = SimpleNamespace(**{t.__name__: t for m in (auction, building, debts, exemption, mortgage,
                                                 sales, streets, turn) for t in m.ACTIONS})
from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.settings import Settings
from easymoney.cli import main
from easymoney.errors import RefusedAction
from easymoney.engine.game import Game
from easymoney.loading.loader import builtin_names, load_variant
from easymoney.plugins.invariants import violations
from easymoney.engine.registry import discover

VARIANTS = builtin_names()
STRATEGIES = ("cautious", "greedy", "random")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
# The rules a game may be played without: the built-in ones that are not essential.
OPTIONAL_RULES = sorted(pid for pid, info in discover(autoload=False).plugins.items()
                        if not info.essential and pid != "invariants")
OPTIONS = {  # rule -> option -> the values tried
    "doubles": {"after_card": ["backward", "forward"]},
    "mortgage": {"rent": ["one_house", "none"]},
    "end": {"on": ["first_bankruptcy", "last_player_standing"], "max_turns": [None, 1, 7, 40]},
}
TURN_CAP = 150       # play(max_turns=...) for games the rules do not end sooner
SECONDS_PER_GAME = 20  # a game that takes longer hangs
time_limit = load("fuzz").time_limit  # raises Hang, a BaseException nothing swallows


@st.composite
def setups(draw: Any, *, keep_end: bool = False) -> dict[str, Any]:
    """A variant, rules switched off, options, and a table of players with strategies."""
    variant = draw(st.sampled_from(VARIANTS))
    optional = [r for r in OPTIONAL_RULES if not (keep_end and r == "end")]
    off = draw(st.lists(st.sampled_from(optional), unique=True, max_size=6))
    options = []
    for rule, names in OPTIONS.items():
        if rule in off:
            continue
        for name, values in names.items():
            if draw(st.booleans()):
                options.append((f"{rule}.{name}", draw(st.sampled_from(values))))
    v = load_variant(variant, disable=off, options=options)
    count = draw(st.integers(v.min_players, min(v.max_players, len(NAMES))))
    seats = draw(st.lists(st.sampled_from(STRATEGIES), min_size=count, max_size=count))
    return {"variant": variant, "off": off, "options": options, "loaded": v,
            "players": list(zip(NAMES, seats)), "seed": draw(st.integers(0, 2**32 - 1))}


def new_game(setup: dict[str, Any], decider: Any = None) -> Game:
    players = setup["players"]
    decider = decider or BotDecider({n: make_strategy(s) for n, s in players})
    return Game(setup["loaded"], players, decider, seed=setup["seed"],
                settings=Settings(invariants=True))


def snapshot(game: Game) -> dict[str, Any]:
    """The whole state of a game, as plain values: what a refusal must leave as it was."""
    return {**game.snapshot(), "log": len(game.log), "any_moment": game.any_moment}


# --- every game keeps the invariants and ends -------------------------------------------------

@settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_every_game_keeps_the_invariants_and_ends(setup: dict[str, Any]) -> None:
    game = new_game(setup)
    assert "invariants" in game.ruleset.enabled  # switched on by tests/conftest.py
    with time_limit(SECONDS_PER_GAME):
        game.setup()
        game.play(max_turns=TURN_CAP)
    assert game.outcome is not None or game.turns_played == TURN_CAP
    limit = game.variant.option("end.max_turns")
    if limit is not None:
        assert game.turns_played <= limit
        assert game.outcome is not None
    if game.outcome is not None:
        assert game.outcome.reason in ("bankruptcy", "bank", "turns")
        assert set(game.outcome.winners) <= {p.name for p in game.players if not p.bankrupt}
        assert game.log[-1].kind == "game_over"
    assert violations(game) == []
    assert game.total_money() == game.variant.bank_total


# --- a recorded game replays identically ---------------------------------------------------------

def _play(path: Path, *extra: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["play", str(path), *extra])
    return status, out.getvalue(), err.getvalue()


_ENDINGS = ("Game over by turns: ", "The script ends here; the game stops where it is")


def _events(transcript: str) -> list[str]:
    """The event lines, without how the game stopped (a record stops in the last window)."""
    body = transcript.split("\n\n", 1)[0].splitlines()
    return [line for line in body if not line.startswith(_ENDINGS)]


def _table(transcript: str) -> list[str]:
    return [line for line in transcript.splitlines() if " cash " in line or "bankrupt" in line]


@settings(deadline=None, max_examples=20, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(setup=setups(keep_end=True))
def test_a_recorded_game_replays_identically(setup: dict[str, Any], tmp_path: Path) -> None:
    options = [(k, v) for k, v in setup["options"] if k != "end.max_turns"]
    lines = [f"variant {setup['variant']}"]
    lines += [f"without {rule}" for rule in setup["off"]]
    lines += [f"option {k} {'null' if v is None else v}" for k, v in options]
    lines += ["option end.max_turns 60",
              "players " + " ".join(f"{n}:{s}" for n, s in setup["players"]),
              f"seed {setup['seed']}", "autoplay"]
    script = tmp_path / f"game-{setup['seed']}.game"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    record = tmp_path / f"game-{setup['seed']}.record.game"
    with time_limit(SECONDS_PER_GAME):
        status, played, err = _play(script, "--record", str(record))
        assert (status, err) == (0, "")
        status, replayed, err = _play(record)
    assert (status, err) == (0, ""), "the record's final expectations must hold"
    assert _events(replayed) == _events(played)
    assert _table(replayed) == _table(played)
    assert "Expectations: " in replayed and " of " in replayed


# --- a refused action leaves the state as it was ------------------------------------------------

def random_action(r: random.Random, game: Game) -> A.Action:
    p, q = r.choice(game.players), r.choice(game.players)
    space = r.choice(game.spaces)
    # Buy is only ever asked about a street: the streets rule reads its price (a Buy of
    # another space makes its refusal check fail with AttributeError, not refuse).
    street = r.choice([s for s in game.spaces if s.kind == "street"] or [space])
    amount = r.choice([0, 1, 5, game.variant.smallest_bill, 100, 1000, p.cash, p.cash + 10,
                       q.cash, 10**9, 10**12])
    make = r.choice([
        lambda: A.Roll(p, r.choice([None, (1, 1), (3, 4), (6, 6)])),
        lambda: A.EndTurn(p),
        lambda: A.Buy(p, street),
        lambda: A.Decline(p, space),
        lambda: A.Bid(p, space, amount),
        lambda: A.Pass(p, space),
        lambda: A.Build(p, space, r.choice([0, 1, 2, 5, 6, 100])),
        lambda: A.Mortgage(p, space),
        lambda: A.Redeem(p, space),
        lambda: A.Sell(p, space, q, amount),
        lambda: A.SellExemption(p, q, amount),
        lambda: A.GoBankrupt(p),
    ])
    return make()


class Prober(BotDecider):
    """Bots, but now and then, before answering, put random actions to the rules."""

    def __init__(self, strategies: dict[str, Any], r: random.Random) -> None:
        super().__init__(strategies)
        self.r = r
        self.refused_seen = 0
        self.asked = 0

    def decide(self, game: Game, request: A.Request) -> A.Action:
        self.asked += 1
        if self.asked == 1:
            # at least one refusal a game, however short: a third of the kinds of action
            # are never refused, so four probes alone can all be allowed
            for _ in range(40):
                self.probe(game, random_action(self.r, game))
                if self.refused_seen:
                    break
        elif self.r.random() < 0.1:
            for _ in range(4):
                self.probe(game, random_action(self.r, game))
        return super().decide(game, request)

    def probe(self, game: Game, action: A.Action) -> None:
        before = snapshot(game)
        refusals = game.refusals(action)
        assert snapshot(game) == before, f"checking {action} changed the game"
        if not refusals:
            return  # allowed: carried out only when the game asks for it
        with pytest.raises(RefusedAction) as info:
            game.perform(action)
        assert snapshot(game) == before, f"refusing {action} changed the game"
        assert info.value.refusals and f"{action.player} cannot " in info.value.message
        self.refused_seen += 1


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**32 - 1))
def test_a_refused_action_leaves_the_state_as_it_was(setup: dict[str, Any], probes: int) -> None:
    strategies = {n: make_strategy(s) for n, s in setup["players"]}
    prober = Prober(strategies, random.Random(probes))
    game = new_game(setup, prober)
    with time_limit(SECONDS_PER_GAME):
        game.setup()
        game.play(max_turns=40)
    assert violations(game) == []
    assert prober.refused_seen > 0


def test_the_snapshot_sees_every_part_of_the_state() -> None:
    setup = {"loaded": load_variant("standard"), "players": [("Ann", "greedy"), ("Bob", "random")],
             "seed": 3}
    game = new_game(setup)
    game.setup()
    game.play(max_turns=12)
    base = snapshot(game)
    ann, bob = game.players
    changes = [
        lambda: setattr(ann, "cash", ann.cash + 1), lambda: setattr(ann, "position", 5),
        lambda: setattr(ann, "houses_left", 0), lambda: setattr(ann, "bankrupt", True),
        lambda: ann.held.append(game.deck[0]), lambda: ann.spaces.append(game.spaces[1]),
        lambda: setattr(game.bank, "cash", 0), lambda: game.houses.__setitem__(1, 3),
        lambda: game.owner.__setitem__(1, bob), lambda: game.mortgaged.__setitem__(1, True),
        lambda: game.deck.reverse(), lambda: game.discard.append(game.deck[0]),
        lambda: setattr(game, "current", bob if game.current is ann else ann),
        lambda: setattr(game, "turns_played", 99), lambda: game.rng.random(),
        lambda: game.emit("probe"),
    ]
    for change in changes:
        game2 = new_game(setup)
        game2.setup()
        game2.play(max_turns=12)
        assert snapshot(game2) == base
        ann, bob = game2.players
        game = game2
        try:
            change()
        except Exception:  # the invariants stop the game at the emitted event: still a change
            pass
        assert snapshot(game2) != base, change
