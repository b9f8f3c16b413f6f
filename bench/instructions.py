"""Machine instructions per player-turn, counted by valgrind (steady whatever the machine's load).

    python bench/instructions.py [--games N]

Runs the games of bench_turns.py (`standard`, 4 `cautious` players, game i with seed i)
under `valgrind --tool=callgrind` twice, with no game and with N games (default 20), and
prints the difference divided by the player-turns played: the engine's cost per turn in
instructions, which a shared machine does not blur the way it blurs a timing. Needs
valgrind on the PATH (it is not a Python dependency). Takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def count(games: int) -> tuple[int, int]:
    """(instructions, player-turns) of a run of `games` games."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             str(Path(__file__).resolve()), "--play", str(games)],
            capture_output=True, text=True, check=False,
            env={k: v for k, v in os.environ.items() if k != "EASYMONEY_CHECK_INVARIANTS"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games counted (default 20)")
    p.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the run valgrind watches
    args = p.parse_args(argv)
    if args.play is not None:
        sys.path.insert(0, str(HERE))
        from bench_turns import _play, _setup
        _setup("standard", 4, "cautious", "fast", 1000)
        print(_play(range(args.play)))
        return 0
    if shutil.which("valgrind") is None:
        print("bench/instructions.py needs valgrind (apt install valgrind)", file=sys.stderr)
        return 2
    base, _ = count(0)
    total, turns = count(args.games)
    print(f"standard, 4 x cautious, {args.games} games: {turns:,} player-turns, "
          f"{(total - base) / turns:,.0f} instructions a player-turn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
