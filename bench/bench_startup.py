"""The CPU a short command costs from start to end: issue 37's start-up figures.

    python bench/bench_startup.py [--runs 10] [--against TREE:PYTHON ...]

Runs each command `--runs` times (10) in this checkout, and in every `--against` checkout
(its tree and the python of the environment it is installed in) in the same run, turn
about, and prints the median CPU (user + system, as `/usr/bin/time -f "%U %S"` reports it)
of each:

    easymoney play examples/01-first-turns.game
    easymoney check variants/standard.yaml

As a user runs them: bytecode cached (in a folder of its own per checkout, so that none is
written into a tree), no test plugin site, no invariants check; one run first to warm it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (("play", "examples/01-first-turns.game"), ("check", "variants/standard.yaml"))
TIME = shutil.which("time", path="/usr/bin")


def _environment(cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH") and not k.startswith("EASYMONEY_")}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def cpu_of(python: str, tree: Path, args: tuple[str, ...], env: dict[str, str]) -> float:
    """Seconds of CPU (user + system) of one `easymoney ARGS` run in `tree`."""
    script = Path(python).with_name("easymoney")  # the command a user types, if installed
    command = [str(script), *args] if script.is_file() else [python, "-m", "easymoney", *args]
    if TIME is not None:
        done = subprocess.run([TIME, "-f", "%U %S", *command], cwd=tree, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        user, system = done.stderr.strip().splitlines()[-1].split()
        return float(user) + float(system)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=tree, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (10)")
    parser.add_argument("--against", action="append", default=[], metavar="TREE:PYTHON",
                        help="another checkout and the python it is installed for, e.g. a "
                             "commit's worktree and its venv's bin/python")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs {args.runs}: expected at least 1")
    checkouts = [("this checkout", ROOT, sys.executable)]
    for spec in args.against:
        tree, sep, python = spec.rpartition(":")
        if not sep or not Path(tree).is_dir() or not Path(python).is_file():
            parser.error(f"--against {spec!r}: expected TREE:PYTHON, a folder and a python")
        checkouts.append((tree, Path(tree), python))
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as caches:
        envs = [_environment(os.path.join(caches, str(k))) for k in range(len(checkouts))]
        times: dict[tuple[int, int], list[float]] = {}
        for c, args_ in enumerate(COMMANDS):
            for k, (_, tree, python) in enumerate(checkouts):
                cpu_of(python, tree, args_, envs[k])  # warm: bytecode written, files cached
            for _ in range(args.runs):
                for k, (_, tree, python) in enumerate(checkouts):
                    times.setdefault((c, k), []).append(cpu_of(python, tree, args_, envs[k]))
    print(f"CPU (user + system), median of {args.runs} runs")
    for c, args_ in enumerate(COMMANDS):
        print(f"  easymoney {' '.join(args_)}")
        for k, (name, _, _) in enumerate(checkouts):
            runs = times[c, k]
            print(f"    {statistics.median(runs) * 1000:6.0f} ms  ({min(runs) * 1000:.0f}-"
                  f"{max(runs) * 1000:.0f})  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
