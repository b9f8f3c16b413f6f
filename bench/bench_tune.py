"""Issue 31's figures: analyze's wall time, and the shipped example search of docs/tuning.md
on 2 local workers, on a local Dask cluster, and killed mid-way then resumed.

    python bench/bench_tune.py                  # everything (about 10-20 minutes, quiet machine)
    python bench/bench_tune.py --part analyze   # analyze standard --games 2000 on 2 workers
    python bench/bench_tune.py --part search    # the example search, 2 workers
    python bench/bench_tune.py --part cluster   # the same search on a scheduler + 2 workers
    python bench/bench_tune.py --part resume    # SIGTERM after a few candidates, then resumed
    python bench/bench_tune.py --trials 8       # a smaller search, for a quick look

Each part prints its figures and the load average before and after (the machine is
shared: a wall time means little without it).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from easymoney.simulate.tune_study import finished_in_file

# the example search of docs/tuning.md ("A shipped example")
EXAMPLE = ["tune", "standard",
           "--vary", "four_sides=on,off",
           "--vary", "end.on=first_bankruptcy,last_player_standing",
           "--vary", "doubles.after_card=backward,forward",
           "--vary", "auction.first_bid=0..1000",
           "--vary", "auction.increment=10..500",
           "--vary", "mortgage.interest_percent=0..50",
           "--vary", "end.max_turns=60..400:20",
           "--target", "turns in 60..150", "--target", "seat_advantage<=3",
           "--games", "200", "--batches", "2..6", "--keep", "3", "--recheck-games", "1000"]
DEFAULT_TRIALS = 30


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


def easymoney(cwd: Path, *argv: str, **kw: object) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "easymoney", *argv], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)  # type: ignore[call-overload]


def finish(proc: subprocess.Popen) -> tuple[str, str]:
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"easymoney failed ({proc.returncode}): {err.strip()[-500:]}")
    return out, err


def part_analyze(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"analyze standard --games {games} --workers 2 ({load()})")
        start = time.monotonic()
        out, _ = finish(easymoney(Path(folder), "analyze", "standard", "--games", str(games),
                                  "--workers", "2", "--json"))
        wall = time.monotonic() - start
        p = json.loads(out)
        t = p["length"]["turns"]
        rungs = ", ".join(f"{r['first']} vs {r['second']} {r['games']}" for r in p["ladder"])
        print(f"  wall time {wall:.1f} s ({load()})")
        print(f"  median player-turns {t['median']:.0f} {t['median_ci95']}, ladder: {rungs}")


def search(folder: Path, trials: int, where: list[str]) -> tuple[dict, float]:
    start = time.monotonic()
    out, _ = finish(easymoney(folder, *EXAMPLE, "--trials", str(trials), *where, "--json"))
    return json.loads(out), time.monotonic() - start


def chosen(folder: Path, report: dict) -> str:
    """The text of the variant file handed back (its path is the run's, relative)."""
    return (folder / report["variants"][0]["file"]).read_text() if report["variants"] else ""


def print_search(report: dict, wall: float, what: str) -> None:
    s = report["search"]
    print(f"  {what}: {s['candidates']} candidates ({s['pruned']} dropped early), "
          f"{s['games']:,} games, wall time {wall:.1f} s ({load()})")
    for v in report["variants"]:
        r = v["recheck"]
        print(f"  handed back {v['file']}: {' '.join(f'{k}={x}' for k, x in v['settings'].items())}")
        for name, fig in r["figures"].items():
            base = r["original"][name]
            print(f"    {name}: {fig[0]:.1f} ({fig[1]:.1f} to {fig[2]:.1f}) on {r['games']} fresh "
                  f"seeds; standard {base[0]:.1f} ({base[1]:.1f} to {base[2]:.1f})")
        print(f"    targets met on the fresh seeds: {r['meets']}")
    if s["importance"]["values"]:
        print("  importance: " + ", ".join(f"{k} {x:.2f}" for k, x in s["importance"]["values"].items()))


def part_search(trials: int) -> tuple[dict, str]:
    with tempfile.TemporaryDirectory() as folder:
        print(f"the example search, {trials} candidates, --workers 2 ({load()})")
        report, wall = search(Path(folder), trials, ["--workers", "2"])
        print_search(report, wall, "local workers")
        return report, chosen(Path(folder), report)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def part_cluster(trials: int, local_variant: str | None) -> None:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                               "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                 "--host", "127.0.0.1", "--no-dashboard"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True))
        time.sleep(5)
        if local_variant is None:
            local_variant = part_search(trials)[1]
        with tempfile.TemporaryDirectory() as folder:
            print(f"the example search on {address} (a scheduler and 2 workers) ({load()})")
            report, wall = search(Path(folder), trials, ["--cluster", address])
            print_search(report, wall, "Dask cluster")
            same = chosen(Path(folder), report) == local_variant
            print(f"  the same variant as on local workers: {same}")
    finally:
        for p in procs:
            with_kill(p)


def with_kill(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def part_resume(trials: int, local: tuple[dict, str] | None) -> None:
    straight_report, straight_variant = local if local is not None else part_search(trials)
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        db = where / "standard.tune.db"
        stop_at = max(1, trials // 3)
        print(f"the example search stopped by SIGTERM after {stop_at} candidates, then resumed")
        proc = easymoney(where, *EXAMPLE, "--trials", str(trials), "--workers", "2", "--json")
        while finished_in_file(db) < stop_at and proc.poll() is None:
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate()
        kept = finished_in_file(db)
        print(f"  stopped with exit status {proc.returncode}, {kept} candidates kept: "
              f"{err.strip().splitlines()[-1]}")
        report, wall = search(where, trials, ["--workers", "2"])
        same_trials = report["search"]["candidates_tried"] == straight_report["search"]["candidates_tried"]
        print(f"  resumed: the same candidates and figures as straight through: {same_trials}; "
              f"the same variant: {chosen(where, report) == straight_variant}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("all", "analyze", "search", "cluster", "resume"),
                        default="all")
    parser.add_argument("--trials", type=int, default=DEFAULT_TRIALS)
    parser.add_argument("--analyze-games", type=int, default=2000)
    args = parser.parse_args()
    local = part_search(args.trials) if args.part in ("all", "search") else None
    if args.part in ("all", "cluster"):
        part_cluster(args.trials, local[1] if local else None)
    if args.part in ("all", "resume"):
        part_resume(args.trials, local)
    if args.part in ("all", "analyze"):
        part_analyze(args.analyze_games)


if __name__ == "__main__":
    main()
