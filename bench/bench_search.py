"""The searching bot `mc` head to head, and its cost per decision.

    python bench/bench_search.py                  # 1,000 seeds x 2 seat orders, default budget
    python bench/bench_search.py --games 100 --mc mc:rollouts=8,horizon=4 --workers 2
    python bench/bench_search.py --games 200 --playout greedy --against cautious

Two players on `standard` (or --variant); each game seed is played twice, seats swapped:
the searching strategy (--mc) against the other (--against, default the best built-in,
cautious). `--playout NAME` gives the searching strategy that playout policy (its
`policy` option): a figure against an opponent whose policy its playouts do not play is
not measured against its own model, and the header says which it is. Prints the
searching seat's share of the wins with a 95% Wilson interval (a
shared win counts 1/2), then its cost: searched decisions a second and playouts a second
(time spent inside its decisions, in one process), and the share of its decisions that
cost nothing (a single sensible answer).
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from typing import Any

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game
from easymoney.errors import EasyMoneyError
from easymoney.loading.loader import load_variant
from easymoney.search import MonteCarlo, play_stepping
from easymoney.simulate.arms import game_seed
from easymoney.simulate.stats import wilson

NAMES = ("P1", "P2")


class Timed:
    """A strategy whose decisions are counted and timed."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.spent, self.asked = inner, inner.name, 0.0, 0
        self.searches = True

    def decide(self, game: Any, request: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.inner.decide(game, request)
        finally:
            self.spent += time.perf_counter() - start
            self.asked += 1


def play(job: tuple[str, str, str, int, int, int]) -> tuple[float, float, int, int, int]:
    """One game: (the searching seat's win share, seconds in its decisions, decisions asked,
    decisions searched, playouts)."""
    variant_name, mc_name, other, seed, mc_seat, max_turns = job
    variant = load_variant(variant_name)
    mc = make_strategy(mc_name)
    assert isinstance(mc, MonteCarlo)
    timed = Timed(mc)
    seats: list[Any] = [make_strategy(other), make_strategy(other)]
    seats[mc_seat] = timed
    strategies = dict(zip(NAMES, seats))
    game = Game(variant, [(n, s.name) for n, s in strategies.items()], BotDecider(strategies),
                seed=seed, keep_log=False)
    play_stepping(game, strategies, max_turns)
    winners = [p for p, _, rank in game.standings() if rank == 1]
    share = (1 / len(winners)) if any(p.index == mc_seat for p in winners) else 0.0
    return share, timed.spent, timed.asked, mc.decisions, mc.playouts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeds, each played seats swapped")
    parser.add_argument("--mc", default="mc", help="the searching strategy (default mc)")
    parser.add_argument("--against", default="cautious")
    parser.add_argument("--playout", default=None,
                        help="the playout policy of --mc (its policy option), e.g. greedy")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this long and report the seed pairs played")
    args = parser.parse_args(argv)
    if args.playout is not None:
        args.mc += ("," if ":" in args.mc else ":") + f"policy={args.playout}"
    try:
        searching = make_strategy(args.mc)  # a bad name or option: one line, before any game
    except EasyMoneyError as exc:
        print(exc, file=sys.stderr)
        return 2
    if not isinstance(searching, MonteCarlo):
        print(f"error: --mc {args.mc}: not the searching strategy mc", file=sys.stderr)
        return 2
    playout = searching.policy_name
    jobs = [(args.variant, args.mc, args.against, game_seed(args.seed, i), seat, args.max_turns)
            for i in range(args.games) for seat in (0, 1)]
    start = time.perf_counter()
    results: list[tuple[float, float, int, int, int]] = []
    deadline = None if args.minutes is None else start + 60 * args.minutes
    with Pool(args.workers) as pool:
        # seed pairs first to last; a running tally on standard error every 50 games
        for result in pool.imap(play, jobs, chunksize=1):
            results.append(result)
            if len(results) % 50 == 0:
                won = sum(r[0] for r in results)
                print(f"  ... {len(results):,} games, {args.mc} won {won / len(results):.1%}",
                      file=sys.stderr, flush=True)
            if deadline is not None and time.perf_counter() > deadline and len(results) % 2 == 0:
                pool.terminate()  # --minutes: report the seed pairs played so far
                break
    wall = time.perf_counter() - start
    n = len(results)
    wins = sum(r[0] for r in results)
    lo, hi = wilson(wins, n)
    spent = sum(r[1] for r in results)
    asked, searched, playouts = (sum(r[k] for r in results) for k in (2, 3, 4))
    print(f"{args.mc} vs {args.against} on {args.variant}, 2 players: {n // 2:,} seeds x 2 "
          f"seat orders = {n:,} games in {wall:,.0f} s with {args.workers} workers")
    model = "its own model: its playouts play as the opponent does" if playout == args.against \
        else "not its own model"
    print(f"  playouts by {playout}, opponent {args.against} ({model})")
    print(f"  {args.mc} won {wins:,.1f} of {n:,} = {wins / n:.1%} (95% CI {lo:.1%}-{hi:.1%})")
    print(f"  its decisions: {asked:,}, searched {searched:,} ({searched / max(asked, 1):.1%}; "
          f"the others cost nothing)")
    if spent > 0 and searched:
        print(f"  cost: {asked / spent:,.0f} decisions/s, {searched / spent:,.1f} searched "
              f"decisions/s, {playouts / spent:,.0f} playouts/s (one process), "
              f"{playouts / searched:,.1f} playouts a searched decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
