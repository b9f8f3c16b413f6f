"""Benchmark: player-turns and games per second of bot games, in one process and in several.

    python bench/bench_turns.py [--games N] [--dispatch fast|pluggy] [--workers W]

Plays `standard` with 4 `cautious` players (no event log, no statistics listener: the
engine alone), game i with seed i, in this process and split among W worker processes
(default 2) in turn, keeps the fastest of --repeat runs of each (default 5), and prints the
rates and the speed-up. See bench/README.md.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import time
from typing import Any

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game, ruleset_for
from easymoney.loading.loader import load_variant

_STATE: dict[str, Any] = {}  # per process: the variant and rule set, built once


def _setup(variant_ref: str, players: int, strategy: str, dispatch: str, max_turns: int) -> None:
    variant = load_variant(variant_ref)
    _STATE.update(variant=variant, ruleset=ruleset_for(variant, dispatch=dispatch),
                  players=players, strategy=strategy, max_turns=max_turns)


def _play(seeds: range) -> int:
    """Play the games of `seeds`; the player-turns played."""
    variant, ruleset = _STATE["variant"], _STATE["ruleset"]
    names = [f"P{i + 1}" for i in range(_STATE["players"])]
    strategy = _STATE["strategy"]
    turns = 0
    for seed in seeds:
        decider = BotDecider({n: make_strategy(strategy) for n in names})
        game = Game(variant, [(n, strategy) for n in names], decider, seed=seed,
                    keep_log=False, ruleset=ruleset)
        game.setup()
        game.play(max_turns=_STATE["max_turns"])
        turns += game.turns_played
    return turns


def _report(label: str, games: int, turns: int, seconds: float) -> float:
    rate = turns / seconds
    print(f"{label:<12} {games:>6} games  {turns:>9,} player-turns  {seconds:7.2f} s  "
          f"{rate:>10,.0f} player-turns/s  {games / seconds:8.1f} games/s")
    return rate


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300, help="games per run (default 300)")
    p.add_argument("--dispatch", choices=("fast", "pluggy"), default="fast",
                   help="how hooks are called: the fast relay or pluggy itself (default fast)")
    p.add_argument("--workers", type=int, default=2, help="processes of the parallel run (default 2)")
    p.add_argument("--variant", default="standard")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--strategy", default="cautious")
    p.add_argument("--max-turns", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=5,
                   help="time each run this many times and keep the fastest (default 5)")
    args = p.parse_args(argv)

    _setup(args.variant, args.players, args.strategy, args.dispatch, args.max_turns)
    _play(range(10_000, 10_002))  # warm-up: imports, rule set, caches
    print(f"{args.variant}, {args.players} x {args.strategy}, dispatch {args.dispatch}, "
          f"at most {args.max_turns} turns a game, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPU(s)")

    def timed(play: Any) -> tuple[int, float]:
        start = time.perf_counter()
        turns = play()
        return turns, time.perf_counter() - start

    one_best = many_best = math.inf
    turns = 0
    if args.workers <= 1:
        for _ in range(max(1, args.repeat)):
            turns, seconds = timed(lambda: _play(range(args.games)))
            one_best = min(one_best, seconds)
        _report("1 process", args.games, turns, one_best)
        return 0
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(1, args.games // (args.workers * 30))  # small chunks: no long tail at the end
    chunks = [range(i, min(i + size, args.games)) for i in range(0, args.games, size)]
    with ctx.Pool(args.workers, initializer=_setup,
                  initargs=(args.variant, args.players, args.strategy, args.dispatch,
                            args.max_turns)) as pool:
        pool.map(_play, [range(10_000, 10_001)] * args.workers, chunksize=1)  # warm-up
        # the two runs alternate: a burst of load from elsewhere then slows both alike
        for _ in range(max(1, args.repeat)):
            turns, seconds = timed(lambda: _play(range(args.games)))
            one_best = min(one_best, seconds)
            _, seconds = timed(lambda: sum(pool.imap_unordered(_play, chunks)))
            many_best = min(many_best, seconds)
    one = _report("1 process", args.games, turns, one_best)
    many = _report(f"{args.workers} workers", args.games, turns, many_best)
    print(f"speed-up     {many / one:.2f}x with {args.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
