"""The searching bot `mc` (issue 20, part 3): legal answers to every request kind, its
options, determinism, no look at the deck's order, and simulate with searching seats.
Small budgets keep these fast; its strength is measured by bench/bench_search.py."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from easymoney import new_game
from easymoney.strategies import make_strategy
from easymoney.engine.legal import is_listed
from easymoney.errors import UsageError
from easymoney.search import MonteCarlo
from easymoney.simulate.arms import parse_strategies

ROOT = Path(__file__).resolve().parent.parent
JAIL = str(ROOT / "tests/data/variants/jail.yaml")
SMALL = "mc:rollouts=4,horizon=2"


def _play(variant: str, seed: int, turns: int, seats: tuple[str, str] = (SMALL, "cautious")
          ) -> tuple[list[str], set[str], int]:
    """A game stepped with `seats`, every answer checked as listed: (history, kinds asked of
    the searching seat, searched decisions)."""
    state = new_game(variant, ["Ann", "Bob"], seed=seed)
    bots = {"Ann": make_strategy(seats[0]), "Bob": make_strategy(seats[1])}
    kinds: set[str] = set()
    while not state.is_over and state.game.turns_played < turns:
        request = state.request
        answer = bots[request.player.name].decide(state.game, request)
        assert is_listed(state.legal_actions(), answer), (request.describe(), answer)
        if request.player.name == "Ann":
            kinds.add(request.kind)
        state.apply(answer)
    searched = bots["Ann"].decisions  # type: ignore[attr-defined]
    return state.history, kinds, searched


def test_issue20_mc_answers_every_request_kind_legally_with_the_jail_plugin() -> None:
    """Windows, buying, bidding, raising money and the jail plugin's own kind `jail`."""
    _, kinds, searched = _play(JAIL, seed=2, turns=160)
    assert {"window_before", "window_after", "buy", "jail"} <= kinds
    assert searched > 0


def test_issue20_mc_answers_an_offered_deal_legally() -> None:
    """R22: a sale offered to the searching seat asks it `agree`; it answers Accept or
    Reject, as listed, by playing both out."""
    state = new_game("standard", ["Ann", "Bob"], seed=3, choose_dice=True)
    state.apply("Ann rolls 1 2")
    while state.request.kind != "window_after":
        kinds = [type(a).__name__ for a in state.legal_actions()]
        state.apply(state.legal_actions()[kinds.index("Buy")] if "Buy" in kinds
                    else state.legal_actions()[0])
    space = state.game.players[0].spaces[0]
    state.apply(f'Ann sells "{space.name}" to Bob for 100')
    assert state.request.kind == "agree"
    bot = make_strategy(SMALL)
    answer = bot.decide(state.game, state.request)
    assert type(answer).__name__ in ("Accept", "Reject")
    assert is_listed(state.legal_actions(), answer)
    assert bot.decisions == 1  # type: ignore[attr-defined]
    state.apply(answer)


def test_issue20_mc_is_deterministic_for_a_seed() -> None:
    first, _, searched = _play("standard", seed=5, turns=60)
    again, _, _ = _play("standard", seed=5, turns=60)
    assert searched > 0 and first == again


def _at_a_searched_decision(seed: int) -> tuple[object, MonteCarlo]:
    state = new_game("standard", ["Ann", "Bob"], seed=seed)
    bot = make_strategy("cautious")
    probe = make_strategy(SMALL)
    assert isinstance(probe, MonteCarlo)
    while len(probe.candidates(state.game, state.request)) < 2:
        state.apply(bot.decide(state.game, state.request))
    return state, probe


def test_issue20_mc_never_reads_the_order_of_the_deck() -> None:
    """Two games that differ only in the order of the draw pile get the same decision: each
    playout shuffles its copy's deck with its own generator (information-set sampling)."""
    state, probe = _at_a_searched_decision(seed=7)
    twin = state.clone()  # type: ignore[attr-defined]
    choice = probe.decide(state.game, state.request)  # type: ignore[attr-defined]
    # the copies a search starts from are made from the kept copy of the game: reorder both
    for game in (twin.game, twin._snapshots[-1].game):
        cards = list(game.deck)
        random.Random(99).shuffle(cards)
        assert cards != game.deck
        game.deck[:] = cards
    assert twin.game.deck != state.game.deck  # type: ignore[attr-defined]
    again = make_strategy(SMALL).decide(twin.game, twin.request)
    assert str(again) == str(choice)


def test_issue20_mc_shuffles_each_playouts_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    state, probe = _at_a_searched_decision(seed=7)
    shuffled: list[int] = []
    original = random.Random.shuffle

    def spy(self: random.Random, items: list[object]) -> None:
        shuffled.append(len(items))
        original(self, items)

    monkeypatch.setattr(random.Random, "shuffle", spy)
    probe.decide(state.game, state.request)  # type: ignore[attr-defined]
    deck = len(state.game.deck)  # type: ignore[attr-defined]
    assert probe.playouts > 0 and shuffled.count(deck) == probe.playouts


def test_issue20_mc_single_answers_cost_nothing() -> None:
    """A decision with one sensible answer (a throw with nothing else worth trying) is not
    searched."""
    state = new_game("standard", ["Ann", "Bob"], seed=1)
    bot = make_strategy(SMALL)
    answer = bot.decide(state.game, state.request)
    assert str(answer) == "Ann rolls" and bot.decisions == 0  # type: ignore[attr-defined]


def test_issue20_mc_options_and_bad_options() -> None:
    bot = make_strategy("mc:rollouts=5,horizon=3,amounts=4,policy=greedy")
    assert isinstance(bot, MonteCarlo)
    assert (bot.rollouts, bot.horizon, bot.amounts, bot.policy.name) == (5, 3, 4, "greedy")
    assert make_strategy("mc").name == "mc"
    assert parse_strategies("cautious,mc:rollouts=5,horizon=3,greedy") == (
        "cautious", "mc:rollouts=5,horizon=3", "greedy")
    for bad in ("mc:rollouts", "mc:speed=3", "mc:rollouts=x", "mc:rollouts=0", "mc:policy=mc"):
        with pytest.raises(UsageError, match="mc"):
            make_strategy(bad)


def test_issue20_simulate_with_mc_is_the_same_under_workers() -> None:
    """A searching seat in a batch: constructed in each worker, the same output whatever
    --workers."""
    def run(workers: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "easymoney", "simulate", "--games", "2", "--players", "2",
             "--strategies", "mc:rollouts=2,horizon=2,cautious", "--max-turns", "40",
             "--workers", workers, "--json"],
            capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    one = run("1")
    assert one == run("2")
    assert "mc:rollouts=2,horizon=2" in one


def test_issue20_bench_search_prints_the_win_rate_and_the_cost() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench/bench_search.py"), "--games", "1", "--mc",
         "mc:rollouts=2,horizon=1", "--workers", "1", "--max-turns", "40"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "1 seeds x 2 seat orders = 2 games" in done.stdout
    assert "95% CI" in done.stdout and "playouts/s" in done.stdout


def test_issue30_bench_search_sets_the_playout_policy_and_says_whose_model_it_is() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench/bench_search.py"), "--games", "1", "--mc",
         "mc:rollouts=2,horizon=1", "--playout", "greedy", "--workers", "1", "--max-turns", "30"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "mc:rollouts=2,horizon=1,policy=greedy vs cautious" in done.stdout
    assert "playouts by greedy, opponent cautious (not its own model)" in done.stdout
    bad = subprocess.run(
        [sys.executable, str(ROOT / "bench/bench_search.py"), "--games", "1", "--playout", "nope"],
        capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "unknown strategy 'nope'" in bad.stderr
    assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_issue20_a_cluster_worker_needs_the_strategy_not_its_options() -> None:
    """`mc:rollouts=2` on --cluster asks each worker for strategy mc (its options are the
    client's to give); a worker without mc is named, with the strategy it lacks."""
    from types import SimpleNamespace

    from easymoney.errors import UsageError
    from easymoney.simulate.cluster import check_workers
    plan = SimpleNamespace(variants=[], batch=SimpleNamespace(
        strategy_order=["mc:rollouts=2,horizon=2", "cautious"]))
    mine = {"easymoney": "1", "plugins": {}}
    good = {"easymoney": "1", "plugins": {}, "strategies": ["cautious", "greedy", "mc"]}
    check_workers(plan, mine, {"tcp://a": good})  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"worker tcp://b lacks strategy mc;"):
        check_workers(plan, mine, {"tcp://a": good,  # type: ignore[arg-type]
                                   "tcp://b": dict(good, strategies=["cautious"])})
