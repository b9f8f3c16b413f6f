"""Running a batch: chunks of game indices, played here, in worker processes or on a Dask cluster.

Game i's seed depends on the master seed and i alone, every chunk comes back as exact sums,
and the sums are merged in chunk order: the result is the same, byte for byte, in one
process, in W processes or on a cluster. The chunk indices are generated as they are needed
and at most a few chunks per worker are in flight, so memory stays flat however many games.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine.settings import Settings
from ..engine.model import Variant
from .arms import Arm, Batch, check_batch
from .games import (ArmStats, Chunk, Contrast, GameRow, PairStats, Plan, Simulator, against_first,
                    empty_stats, metric_names)

MAX_CHUNK = 50       # games a chunk at most; a chunk is one task
CHUNKS_PER_WORKER = 8
IN_FLIGHT_PER_WORKER = 4


@dataclass
class Result:
    """The merged sums of a batch: one ArmStats per arm, one PairStats per contrast."""

    arms: tuple[Arm, ...]
    batch: Batch
    variants: list[Variant]
    stats: list[ArmStats]
    pairs: list[PairStats]
    contrasts: tuple[Contrast, ...] = ()


def chunk_size(games: int, workers: int, least: int = 1) -> int:
    """Games per chunk (any size gives the same result).

    About CHUNKS_PER_WORKER chunks a worker to share the work evenly, at most MAX_CHUNK, and
    at least `least` (what a task costs on a cluster) unless the workers would then idle.
    """
    size = max(games // (workers * CHUNKS_PER_WORKER), least)
    return max(1, min(size, MAX_CHUNK, games // workers))


def chunk_bounds(games: int, size: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of each chunk, generated one at a time: 10**15 games cost nothing up front."""
    start = 0
    while start < games:
        yield start, min(start + size, games)
        start += size


class Executor(Protocol):
    """Where chunks are played: `chunks` yields them in the order of `bounds`."""

    workers: int
    least_chunk: int

    def chunks(self, plan: Plan, bounds: Iterator[tuple[int, int]]) -> Iterator[Chunk]: ...


class InProcess:
    """Every chunk in this process, one after the other."""

    workers = 1
    least_chunk = 1

    def chunks(self, plan: Plan, bounds: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        sim = Simulator(plan)
        for start, stop in bounds:
            yield sim.chunk(start, stop)


_WORKER: Simulator | None = None


def _init_worker(plan: Plan) -> None:
    # the parent handles Ctrl-C and ends the pool; a worker dies quietly when told to
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    global _WORKER
    if _WORKER is None or _WORKER.plan.key != plan.key:  # a forked worker inherits the parent's
        _WORKER = Simulator(plan)


def _run_chunk(bounds: tuple[int, int]) -> Chunk:
    assert _WORKER is not None
    return _WORKER.chunk(*bounds)


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


class Processes:
    """Chunks shared among worker processes of this machine."""

    least_chunk = 1

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def chunks(self, plan: Plan, bounds: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        global _WORKER
        _WORKER = Simulator(plan)  # forked workers start with it built
        # the workers are born ignoring Ctrl-C (no "Process ForkPoolWorker-2:" tracebacks):
        # only this process sees it, and ends them
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            pool = _context().Pool(self.workers, initializer=_init_worker, initargs=(plan,))
        finally:
            signal.signal(signal.SIGINT, before)
        try:
            window: deque[Any] = deque()
            limit = self.workers * IN_FLIGHT_PER_WORKER
            for b in bounds:
                window.append(pool.apply_async(_run_chunk, (b,)))
                if len(window) >= limit:
                    yield window.popleft().get()
            while window:
                yield window.popleft().get()
            pool.close()
        finally:
            pool.terminate()
            pool.join()
            _WORKER = None


def local_executor(workers: int | None, games: int) -> Executor:
    count = max(1, min(workers or os.cpu_count() or 1, games))
    return InProcess() if count == 1 else Processes(count)


def run(arms: Sequence[Arm], batch: Batch, *, workers: int | None = None,
        executor: Executor | None = None, contrasts: Sequence[Contrast] | None = None,
        variants: Sequence[Variant] | None = None,
        on_rows: Callable[[list[GameRow]], None] | None = None, record_dir: str | None = None,
        progress: Callable[[int, int, int], None] | None = None,
        chunk: int | None = None, settings: Settings | None = None) -> Result:
    """Play the batch on every arm (the same seeds on each) and merge the sums in game order.

    `contrasts` default to every arm against the first (compare). `on_rows` receives the
    per-game rows of every arm chunk by chunk, in game order; `progress` (games done, chunks
    done, chunks in all) after each chunk; `record_dir` gets one replayable script per game (in a subfolder
    arm-K per arm when there are several). `executor` defaults to `workers` local processes;
    `chunk` (games a task) to chunk_size(). Neither changes the result. `settings` (the
    invariants check, the dispatch) go with the plan to every worker.
    """
    arms = tuple(arms)
    loaded = list(variants) if variants is not None else [arm.load() for arm in arms]
    check_batch(batch, list(zip(arms, loaded)))
    contrasts = tuple(contrasts) if contrasts is not None else against_first(len(arms))
    plan = Plan(arms, batch, tuple(loaded), contrasts, rows=on_rows is not None,
                record_dir=record_dir, settings=settings or Settings())
    if executor is None:
        executor = local_executor(workers, batch.games)
    stats = [empty_stats(batch, v) for v in loaded]
    pairs = [PairStats(len(metric_names(batch))) for _ in contrasts]
    size = chunk or chunk_size(batch.games, executor.workers, executor.least_chunk)
    bounds = chunk_bounds(batch.games, size)
    chunks = -(-batch.games // size)
    for done, part in enumerate(executor.chunks(plan, bounds), 1):
        for mine, theirs in zip(stats, part.stats):
            mine.merge(theirs)
        for mine_p, theirs_p in zip(pairs, part.pairs):
            mine_p.merge(theirs_p)
        if on_rows is not None and part.rows is not None:
            on_rows(part.rows)
        if progress is not None:
            progress(part.stop, done, chunks)
    return Result(arms, batch, loaded, stats, pairs, contrasts)
