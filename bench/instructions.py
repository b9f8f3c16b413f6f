"""Machine instructions per player-turn, or per environment step, counted by valgrind (steady whatever the machine's load).

    python bench/instructions.py [--games N]
    python bench/instructions.py --env [--steps N] [--classic]

Runs the games of bench_turns.py (`standard`, 4 `cautious` players, game i with seed i)
under `valgrind --tool=callgrind` twice, with no game and with N games (default 20), and
prints the difference divided by the player-turns played: the engine's cost per turn in
instructions, which a shared machine does not blur the way it blurs a timing.

`--env` counts bench_agents.py's steps instead (`standard`, 2 seats, a random masked agent,
the same stream of steps): a run with its warm-up steps only (--warmup, default 500) and a
run with N more (default 20,000); the difference divided by N is what one step costs.

Python runs with a fixed hash seed and one BLAS thread (idle BLAS threads spin, and
valgrind counts them), so two runs agree within 0.1%; compare commits in one virtual
environment, as other installed packages move the count by a few per cent.

Needs valgrind on the PATH (it is not a Python dependency). Takes about a minute each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent


def count(games: int, play: str = "--play", extra: tuple[str, ...] = ()) -> tuple[int, int]:
    """(instructions, player-turns or steps) of a run of `games` games (`--play`) or of
    `games` environment steps (`--play-env`)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             str(Path(__file__).resolve()), play, str(games), *extra],
            capture_output=True, text=True, check=False,
            env={**{k: v for k, v in os.environ.items() if k != "EASYMONEY_CHECK_INVARIANTS"},
                 # string hashes vary by process, and so do dict probes; idle BLAS threads spin
                 "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def both(n: int, play: str = "--play",
         extra: tuple[str, ...] = ()) -> tuple[tuple[int, int], tuple[int, int]]:
    """The counts of the run with none and of the run with `n`, made side by side: the
    count is the same however the machine shares its cores, and the wait halves."""
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(count, k, play, extra) for k in (0, n)]
        return runs[0].result(), runs[1].result()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games counted (default 20)")
    p.add_argument("--env", action="store_true", help="count environment steps (bench_agents.py)")
    p.add_argument("--steps", type=int, default=20000, help="with --env: steps counted (default 20,000)")
    p.add_argument("--warmup", type=int, default=500,
                   help="with --env: steps played first, in both counts (default 500, as bench_agents.py)")
    p.add_argument("--classic", action="store_true",
                   help="with --env: the options env() had before issue 40 made the learning "
                        "settings its defaults (the whole catalogue, no shaping), to compare "
                        "with a commit before it")
    p.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the runs valgrind watches
    p.add_argument("--play-env", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.play_env is not None:
        sys.path.insert(0, str(HERE))
        import random

        import easymoney.agents
        from bench_agents import run
        # before issue 40 these were env()'s defaults (a commit then takes no such options)
        classic = {"actions": "standard", "raise_in_windows": True, "shaping": None,
                   "gamma": 1.0} if args.classic else {}
        env = easymoney.agents.env("standard", 2, seed=0, state_info=False, **classic)
        run(env, args.warmup, random.Random(0))  # the warm-up: in both counts
        print(run(env, args.play_env, random.Random(0))[0] if args.play_env else 0)
        return 0
    if args.play is not None:
        sys.path.insert(0, str(HERE))
        from bench_turns import _play, _setup
        _setup("standard", 4, "cautious", "fast", 1000)
        print(_play(range(args.play)))
        return 0
    if shutil.which("valgrind") is None:
        print("bench/instructions.py needs valgrind (apt install valgrind)", file=sys.stderr)
        return 2
    if args.env:
        extra = ("--warmup", str(args.warmup), *(("--classic",) if args.classic else ()))
        (base, _), (total, steps) = both(args.steps, "--play-env", extra)
        settings = "the options before issue 40" if args.classic else "env()'s defaults"
        print(f"standard, 2 seats, random masked agent ({settings}), {steps:,} steps: "
              f"{(total - base) / steps:,.0f} instructions a step")
        return 0
    (base, _), (total, turns) = both(args.games)
    print(f"standard, 4 x cautious, {args.games} games: {turns:,} player-turns, "
          f"{(total - base) / turns:,.0f} instructions a player-turn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
