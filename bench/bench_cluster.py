"""Benchmark: simulate on a Dask cluster against local processes, and the cost of a task.

    python bench/bench_cluster.py [--games N] [--repeat R] [--chunks 1,10,50]

Plays `standard` with 4 `cautious` players (the statistics included, as `simulate` does)
and, keeping the fastest of --repeat runs of each:

- one process, `--workers 2`, and a `local:2` Dask cluster (started once, not timed):
  the speed-ups over one process;
- a `local:1` cluster (one worker process, so nothing runs in parallel) against one
  process, with chunks of each size in --chunks: the difference is what Dask costs,
  per task and as a share of the run. The chunk size simulate uses is MAX_CHUNK.

Every run's result is checked to be the one-process result. See bench/README.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from easymoney import simulate as S
from easymoney.simulate.cluster import Cluster


def best(repeat: int, run: Callable[[], S.Result]) -> tuple[float, S.Result]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    assert result is not None
    return min(times), result


def same(a: S.Result, b: S.Result) -> bool:
    return [vars(s) for s in a.stats] == [vars(s) for s in b.stats]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--chunks", default=f"1,10,{S.MAX_CHUNK}",
                   help="chunk sizes (games a task) to measure the overhead at")
    args = p.parse_args(argv)
    arms = [S.Arm("standard")]
    batch = S.Batch(games=args.games, players=4, strategies=("cautious",))
    arms_loaded = [a.load() for a in arms]

    def local(workers: int, chunk: int | None = None) -> Callable[[], S.Result]:
        return lambda: S.run(arms, batch, workers=workers, variants=arms_loaded, chunk=chunk)

    t1, base = best(args.repeat, local(1))
    turns = base.stats[0].player_turns
    print(f"{args.games} games of standard, 4 cautious players, {turns:,} player-turns; "
          f"best of {args.repeat}")
    print(f"  one process        {t1:7.2f} s  {turns / t1:>9,.0f} player-turns/s")
    t2, r2 = best(args.repeat, local(2))
    assert same(base, r2)
    print(f"  --workers 2        {t2:7.2f} s  speed-up {t1 / t2:.2f}x")
    with Cluster("local:2") as cluster:
        tc, rc = best(args.repeat, lambda: S.run(arms, batch, executor=cluster, variants=arms_loaded))
    assert same(base, rc)
    print(f"  --cluster local:2  {tc:7.2f} s  speed-up {t1 / tc:.2f}x "
          f"({t2 / tc:.0%} of what --workers 2 gets)")
    print("overhead of a task: a local:1 cluster (one worker) against one process")
    with Cluster("local:1") as cluster:
        for size in (int(c) for c in args.chunks.split(",")):
            t0, _ = best(args.repeat, local(1, size))
            tk, rk = best(args.repeat, lambda: S.run(arms, batch, executor=cluster,
                                                     variants=arms_loaded, chunk=size))
            assert same(base, rk)
            tasks = -(-args.games // size)
            print(f"  {size:>3} games a task  {tasks:>4} tasks  one process {t0:6.2f} s  "
                  f"cluster {tk:6.2f} s  {1000 * (tk - t0) / tasks:+7.1f} ms a task  "
                  f"{(tk - t0) / t0:+6.1%} of the run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
