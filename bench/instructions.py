"""Machine instructions per player-turn, or per environment step, counted by valgrind (steady whatever the machine's load).

    python bench/instructions.py [--games N] [--variant NAME] [--strategy NAME] [--warm-games K]
    python bench/instructions.py --bare          # the bare loop's (bench/bare_loop.py)
    python bench/instructions.py --ratio         # the engine's, the bare loop's, the ratio
    python bench/instructions.py --sweep         # the ratio of every shipped variant x bot
    python bench/instructions.py --env [--steps N] [--classic] [--lone skip|ask]

Runs the games of bench_turns.py (`standard`, 4 `cautious` players, game i with seed i)
under `valgrind --tool=callgrind` twice, with no game and with N games (default 20), and
prints the difference divided by the player-turns played: the engine's cost per turn in
instructions, which a shared machine does not blur the way it blurs a timing. `--variant`
and `--strategy` play another variant or bot (4 players, at most 1,000 turns a game).
`--warm-games K` plays K games first in both runs (seeds 10,000 on, as bench_turns.py's
warm-up), so that what the first game alone pays (caches filled, code first run) is left out.

`--bare` counts bench/bare_loop.py's games the same way (seeds 0 to N-1, the same settings):
the `standard` game in plain Python with no framework, the same games as the engine's with
4 cautious bots. `--ratio` counts both and prints issue 37's figure, the engine's count
divided by the bare loop's, warm (2 warm-up games unless --warm-games says otherwise);
`--sweep` prints it for every variants/*.yaml x {cautious, greedy} on the engine side (the
bare loop stays `standard` with cautious bots) and names the worst.

`--env` counts bench_agents.py's steps instead (`standard`, 2 seats, a random masked agent,
the same stream of steps): a run with its warm-up steps only (--warmup, default 500) and a
run with N more (default 20,000); the difference divided by N is what one step costs,
and divided by the game's steps those N took (the agents' and the lone windows the
environment took itself, issue 37) what a step of the game costs. `--lone ask` asks the
lone windows as before issue 37 (then the two are one).

Python runs with a fixed hash seed and one BLAS thread (idle BLAS threads spin, and
valgrind counts them), so two runs agree within 0.1%; compare commits in one virtual
environment, as other installed packages move the count by a few per cent.

Needs valgrind on the PATH (it is not a Python dependency). Takes about a minute each.
The two runs of a count go side by side; `--jobs 1` runs them one after the other.
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
VARIANTS = HERE.parent / "variants"
SWEEP_STRATEGIES = ("cautious", "greedy")


def count(games: int, play: str = "--play", extra: tuple[str, ...] = ()) -> tuple[int, ...]:
    """(instructions, player-turns or steps[, the game's steps]) of a run of `games` games
    (`--play`) or of `games` environment steps (`--play-env`)."""
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
    return (int(found.group(1).replace(",", "")),
            *(int(n) for n in done.stdout.splitlines()[-1].split()))


def both(n: int, play: str = "--play", extra: tuple[str, ...] = (),
         jobs: int = 2) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The counts of the run with none and of the run with `n`, made side by side (`jobs`
    2): the count is the same however the machine shares its cores, and the wait halves."""
    with ThreadPoolExecutor(max(1, min(2, jobs))) as pool:
        runs = [pool.submit(count, k, play, extra) for k in (0, n)]
        return runs[0].result(), runs[1].result()


def per_turn(n: int, play: str, extra: tuple[str, ...], jobs: int) -> tuple[float, int]:
    """(instructions a player-turn, player-turns) of `n` games of `play`."""
    (base, *_), (total, turns, *_) = both(n, play, extra, jobs)
    return (total - base) / turns, turns


def engine_line(variant: str, strategy: str, games: int, turns: int, cost: float,
                warm: int) -> str:
    return (f"{variant}, 4 x {strategy}, {games} games{warmed(warm)}: {turns:,} player-turns, "
            f"{cost:,.0f} instructions a player-turn")


def warmed(warm: int) -> str:
    return f" after {warm} warm-up games" if warm else ""


def warm_up(warm: int) -> range:
    """The seeds of the warm-up games, played in both runs (bench_turns.py's seeds)."""
    return range(10_000, 10_000 + warm)


def shipped_variants() -> list[str]:
    """The names of the variants the repository ships (variants/*.yaml)."""
    return sorted(path.stem for path in VARIANTS.glob("*.yaml"))


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
    p.add_argument("--lone", choices=("skip", "ask"),
                   help="with --env: the environment's lone_windows (default: its own, skip)")
    p.add_argument("--variant", default="standard",
                   help="the engine's variant (default standard)")
    p.add_argument("--strategy", default="cautious",
                   help="the engine's bots, 4 of them (default cautious)")
    p.add_argument("--bare", action="store_true",
                   help="count the bare loop (bench/bare_loop.py: standard, 4 cautious bots)")
    p.add_argument("--ratio", action="store_true",
                   help="count the engine and the bare loop, and print the engine's count "
                        "divided by the bare loop's (issue 37)")
    p.add_argument("--sweep", action="store_true",
                   help="--ratio for every variants/*.yaml x {cautious, greedy} on the "
                        "engine side; the bare loop stays standard")
    p.add_argument("--warm-games", type=int, default=None,
                   help="games played first in both runs, left out of the count (default 0; "
                        "2 with --bare, --ratio and --sweep: issue 37's figure is warm)")
    p.add_argument("--jobs", type=int, default=2,
                   help="valgrind runs at once: 2 (side by side, default) or 1")
    p.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the runs valgrind watches
    p.add_argument("--play-bare", type=int, help=argparse.SUPPRESS)
    p.add_argument("--play-env", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.play_bare is not None:
        sys.path.insert(0, str(HERE))
        from bare_loop import play_games
        play_games(warm_up(args.warm_games or 0))
        print(play_games(range(args.play_bare))[0])
        return 0
    if args.play_env is not None:
        sys.path.insert(0, str(HERE))
        import random

        import easymoney.agents
        from bench_agents import run
        # before issue 40 these were env()'s defaults (a commit then takes no such options)
        classic = {"actions": "standard", "raise_in_windows": True, "shaping": None,
                   "gamma": 1.0} if args.classic else {}
        lone = {} if args.lone is None else {"lone_windows": args.lone}
        env = easymoney.agents.env("standard", 2, seed=0, state_info=False, **classic, **lone)
        run(env, args.warmup, random.Random(0))  # the warm-up: in both counts
        played = run(env, args.play_env, random.Random(0)) if args.play_env else (0, 0, 0, 0)
        print(played[0], played[3])  # the agents' steps, the game's
        return 0
    if args.play is not None:
        sys.path.insert(0, str(HERE))
        from bench_turns import _play, _setup
        _setup(args.variant, 4, args.strategy, "fast", 1000)
        _play(warm_up(args.warm_games or 0))
        print(_play(range(args.play)))
        return 0
    if shutil.which("valgrind") is None:
        print("bench/instructions.py needs valgrind (apt install valgrind)", file=sys.stderr)
        return 2
    if args.env:
        extra = ("--warmup", str(args.warmup), *(("--classic",) if args.classic else ()),
                 *(("--lone", args.lone) if args.lone else ()))
        (base, *_), (total, steps, moved) = both(args.steps, "--play-env", extra)
        settings = "the options before issue 40" if args.classic else "env()'s defaults"
        lone = f", lone_windows={args.lone}" if args.lone else ""
        print(f"standard, 2 seats, random masked agent ({settings}{lone}), {steps:,} steps: "
              f"{(total - base) / steps:,.0f} instructions a step; {moved:,} steps of the "
              f"game: {(total - base) / moved:,.0f} instructions a game step")
        return 0
    games, jobs = args.games, args.jobs
    engine_only = not (args.bare or args.ratio or args.sweep)
    warm = args.warm_games if args.warm_games is not None else 0 if engine_only else 2
    if engine_only:
        cost, turns = per_turn(games, "--play", ("--variant", args.variant, "--strategy",
                                                 args.strategy, "--warm-games", str(warm)), jobs)
        print(engine_line(args.variant, args.strategy, games, turns, cost, warm))
        return 0
    bare, bare_turns = per_turn(games, "--play-bare", ("--warm-games", str(warm)), jobs)
    print(f"bare loop (bench/bare_loop.py: standard, 4 x cautious), {games} games{warmed(warm)}: "
          f"{bare_turns:,} player-turns, {bare:,.0f} instructions a player-turn", flush=True)
    if args.bare:
        return 0
    pairs = ([(v, s) for v in shipped_variants() for s in SWEEP_STRATEGIES] if args.sweep
             else [(args.variant, args.strategy)])
    ratios = []
    for variant, strategy in pairs:
        cost, turns = per_turn(games, "--play", ("--variant", variant, "--strategy", strategy,
                                                 "--warm-games", str(warm)), jobs)
        print(engine_line(variant, strategy, games, turns, cost, warm), flush=True)
        print(f"ratio {variant} x {strategy}: {cost / bare:.2f}x the bare loop", flush=True)
        ratios.append((cost / bare, variant, strategy))
    if args.sweep:
        worst = max(ratios)
        print(f"worst: {worst[1]} x {worst[2]}, {worst[0]:.2f}x the bare loop (standard)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
