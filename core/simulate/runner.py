"""Running a batch: chunks of game indices, played here, in worker processes or on a Dask cluster.

Game i's seed depends on the master seed and i alone, every chunk comes back as exact sums,
and the sums are merged in chunk order: the result is the same, byte for byte, in one
process, in W processes or on a cluster. The chunk indices are generated as they are needed
and at most a few chunks per worker are in flight, so memory stays flat however many games.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from types import FrameType
from typing import Any, Protocol

from ..engine.settings import Settings
from ..engine.model import Variant
from ..outputs import raise_if_signalled
from ..seats import end_programs
from .arms import Arm, Batch, check_batch
from .games import (ArmStats, Chunk, Contrast, GameRow, PairStats, Plan, SimulationError,
                    Simulator, against_first, empty_stats, metric_names)

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


_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
PARENT_POLL = 0.5  # seconds between a worker's looks at whether its parent is still there
STOP_WAIT = 5.0    # seconds a worker told to stop has to end its seat programs, then killed


def _stop(signum: int, frame: FrameType | None) -> None:
    # unwinds the game under way, whose seat programs are closed on the way; no word
    raise SystemExit(128 + signum)


def _init_worker(plan: Plan) -> None:
    # the parent handles Ctrl-C and ends the workers; a worker stops quietly when told to
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, _stop)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)  # blocked by the parent for the fork
    global _WORKER
    if _WORKER is None or _WORKER.plan.key != plan.key:  # a forked worker inherits the parent's
        _WORKER = Simulator(plan)


def _run_chunk(bounds: tuple[int, int]) -> Chunk:
    assert _WORKER is not None
    return _WORKER.chunk(*bounds)


def _watch_parent(parent: int) -> None:
    """A worker's thread: once the parent is gone (killed, say), SIGTERM to the worker, whose
    games are played for nobody; it stops, its seat programs ended."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os.kill(os.getpid(), signal.SIGTERM)


def end_with_parent(parent: int) -> None:
    """Make this process (a worker of `parent`) end once `parent` is gone: a thread watches."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _serve(conn: Connection, plan: Plan, siblings: list[Connection], parent: int) -> None:
    """A worker process of `parent`: play each chunk asked for on `conn` and send back it or
    its error, until told to stop or the parent is gone.

    `siblings` are the parent's ends of this worker's pipe and of those forked before it,
    inherited by the fork: closed, so that a worker sees the end of the file when the parent dies, and stops.
    """
    for other in siblings:
        other.close()
    _init_worker(plan)
    end_with_parent(parent)
    try:
        _answer(conn)
    finally:  # stopped in the middle of a game: its seat programs too
        end_programs()


def _answer(conn: Connection) -> None:
    """Play each chunk asked for on `conn` and send back it or its error, until told to stop."""
    while True:
        try:
            bounds = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if bounds is None:
            return
        try:
            answer: tuple[str, Any] = ("chunk", _run_chunk(bounds))
        except Exception as exc:
            answer = ("error", exc)
        try:
            conn.send(answer)
        except OSError:  # the parent is gone
            return
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send(("error", SimulationError(f"a worker could not send back its result: "
                                                f"{type(exc).__name__}: {exc}")))


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


class Processes:
    """Chunks shared among worker processes of this machine.

    Each worker has a pipe of its own, and nothing is shared between workers: a worker that
    dies (SIGTERM to the process group, the OOM killer) takes no lock with it that the
    parent would wait for (multiprocessing.Pool's terminate can then hang), and a chunk it
    had is an error at once, not a result awaited for ever.
    """

    least_chunk = 1

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def chunks(self, plan: Plan, bounds: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        global _WORKER
        _WORKER = Simulator(plan)  # forked workers start with it built
        workers: list[tuple[Any, Connection]] = []
        finished = False
        try:
            # Ctrl-C and SIGTERM wait while a worker is forked: a worker that got one before
            # it set its own handlers would run this process's (print, unwind the parent's
            # stack in the child). Workers ignore Ctrl-C: this process ends them.
            before = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
            try:
                context = _context()
                for _ in range(self.workers):
                    mine, theirs = context.Pipe()
                    proc = context.Process(target=_serve, daemon=True,
                                           args=(theirs, plan, [mine, *(c for _, c in workers)],
                                                 os.getpid()))
                    proc.start()
                    theirs.close()
                    workers.append((proc, mine))
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
            yield from self._share(workers, bounds)
            for _, conn in workers:
                with contextlib.suppress(OSError):
                    conn.send(None)
            finished = True
        finally:
            _end(workers, finished)
            _WORKER = None

    def _share(self, workers: list[tuple[Any, Connection]],
               bounds: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        """Hand out the chunks, a few ahead per worker, and yield them back in order."""
        limit = self.workers * IN_FLIGHT_PER_WORKER
        sent = taken = 0
        owed: dict[Connection, deque[int]] = {conn: deque() for _, conn in workers}
        process = {conn: proc for proc, conn in workers}
        process_of = {id(conn): conn for _, conn in workers}
        done: dict[int, tuple[str, Any]] = {}
        pending = iter(bounds)
        exhausted = False
        while True:
            while not exhausted and sent - taken < limit:
                conn = min(owed, key=lambda c: len(owed[c]))  # the least busy worker
                b = next(pending, None)
                if b is None:
                    exhausted = True
                    break
                try:
                    conn.send(b)
                except OSError:  # the worker is gone
                    raise SimulationError(_died(process[conn])) from None
                owed[conn].append(sent)
                sent += 1
            while taken in done:
                kind, value = done.pop(taken)
                if kind == "error":  # in chunk order: the first game that failed is named
                    raise value
                yield value
                taken += 1
            if exhausted and taken == sent:
                return
            if taken in done or (not exhausted and sent - taken < limit):
                continue
            for ready in wait([c for c in owed if owed[c]]):
                conn = process_of[id(ready)]
                try:
                    kind, value = conn.recv()
                except (EOFError, OSError):
                    raise SimulationError(_died(process[conn])) from None
                done[owed[conn].popleft()] = (kind, value)


def _died(proc: Any) -> str:
    proc.join(1)
    code = proc.exitcode
    how = (f"killed by signal {-code}" if code is not None and code < 0
           else f"exit status {code}" if code is not None else "its pipe closed")
    return (f"a worker process ended without its games ({how}); nothing was written: run "
            f"again, with fewer --workers if memory ran out")


def _end(workers: list[tuple[Any, Connection]], finished: bool) -> None:
    """Stop every worker: after a whole run they were told to stop, else they are sent
    SIGTERM (as Pool.terminate does), so that each ends its seat programs, and killed after
    STOP_WAIT; never waits long."""
    for proc, conn in workers:
        if finished:
            proc.join(5)
        if proc.exitcode is None:
            proc.terminate()
    deadline = time.monotonic() + STOP_WAIT
    for proc, conn in workers:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.exitcode is None:
            proc.kill()
        conn.close()
    for proc, _ in workers:
        proc.join(5)


def local_executor(workers: int | None, games: int) -> Executor:
    count = max(1, min(workers or os.cpu_count() or 1, games))
    return InProcess() if count == 1 else Processes(count)


def run(arms: Sequence[Arm], batch: Batch, *, workers: int | None = None,
        executor: Executor | None = None, contrasts: Sequence[Contrast] | None = None,
        variants: Sequence[Variant] | None = None,
        on_rows: Callable[[list[GameRow]], None] | None = None, record_dir: str | None = None,
        progress: Callable[[int, int, int], None] | None = None,
        chunk: int | None = None, settings: Settings | None = None,
        game_timeout: float | None = None, profile: Sequence[str] = ()) -> Result:
    """Play the batch on every arm (the same seeds on each) and merge the sums in game order.

    `contrasts` default to every arm against the first (compare). `on_rows` receives the
    per-game rows of every arm chunk by chunk, in game order; `progress` (games done, chunks
    done, chunks in all) after each chunk; `record_dir` gets one replayable script per game (in a subfolder
    arm-K per arm when there are several). `executor` defaults to `workers` local processes;
    `chunk` (games a task) to chunk_size(). Neither changes the result. `settings` (the
    invariants check, the dispatch) go with the plan to every worker. A game that runs
    longer than `game_timeout` seconds is stopped with a SimulationError naming the plugin.
    `profile` (analyze): the per-game figures of a profile, summed and paired too.
    """
    arms = tuple(arms)
    loaded = list(variants) if variants is not None else [arm.load() for arm in arms]
    check_batch(batch, list(zip(arms, loaded)))
    contrasts = tuple(contrasts) if contrasts is not None else against_first(len(arms))
    plan = Plan(arms, batch, tuple(loaded), contrasts, rows=on_rows is not None,
                record_dir=record_dir, settings=settings or Settings(),
                game_timeout=game_timeout, profile=tuple(profile))
    if executor is None:
        executor = local_executor(workers, batch.games)
    stats = [empty_stats(batch, v, plan.profile) for v in loaded]
    pairs = [PairStats(len(metric_names(batch, plan.profile))) for _ in contrasts]
    size = chunk or chunk_size(batch.games, executor.workers, executor.least_chunk)
    bounds = chunk_bounds(batch.games, size)
    chunks = -(-batch.games // size)
    for done, part in enumerate(executor.chunks(plan, bounds), 1):
        raise_if_signalled()
        for mine, theirs in zip(stats, part.stats):
            mine.merge(theirs)
        for mine_p, theirs_p in zip(pairs, part.pairs):
            mine_p.merge(theirs_p)
        if on_rows is not None and part.rows is not None:
            on_rows(part.rows)
        if progress is not None:
            progress(part.stop, done, chunks)
    return Result(arms, batch, loaded, stats, pairs, contrasts)
