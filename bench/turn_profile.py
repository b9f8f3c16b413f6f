"""Where a player-turn goes: Python bytecodes executed per turn, by function (deterministic).

    python bench/turn_profile.py [--games N] [--top K] [--lines] [--variant V] [--strategy S]

Plays the games bench_turns.py plays (`standard`, 4 `cautious` players, game i with seed
i) under `sys.settrace` with opcode events and prints the bytecodes executed per
player-turn, in all and by function (and by line with --lines). Unlike a timing, the count
is the same on every run and on every machine, so it shows what a change to the engine
bought even on a noisy machine; it counts the interpreter's work, not C calls such as dict
lookups or allocations (see bench/README.md for a count of machine instructions).
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from typing import Any

from bench_turns import _play, _setup


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5, help="games to trace (default 5)")
    p.add_argument("--top", type=int, default=30, help="functions (or lines) shown (default 30)")
    p.add_argument("--lines", action="store_true", help="count by line instead of by function")
    p.add_argument("--variant", default="standard")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--strategy", default="cautious")
    args = p.parse_args(argv)

    _setup(args.variant, args.players, args.strategy, "fast", 1000)
    _play(range(10_000, 10_002))  # warm-up: the caches a long run has filled
    counts: collections.Counter[str] = collections.Counter()

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        code = frame.f_code
        where = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}"

        def each(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[f"{where}:{frame.f_lineno}" if args.lines else where] += 1
            return each
        return each

    sys.settrace(tracer)
    try:
        turns = _play(range(args.games))
    finally:
        sys.settrace(None)
    total = sum(counts.values())
    lines = [f"{args.variant}, {args.players} x {args.strategy}, {args.games} games: {turns:,} "
             f"player-turns, {total / turns:,.0f} bytecodes a player-turn"]
    lines += [f"{n / turns:9.1f} {100 * n / total:5.1f}%  {where}"
              for where, n in counts.most_common(args.top)]
    try:
        print("\n".join(lines), flush=True)
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
