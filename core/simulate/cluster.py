"""Playing chunks as tasks on a Dask distributed cluster (`--cluster tcp://HOST:8786` or `local:N`).

The plan (arms, loaded variants, batch) goes to every worker once; a task is one chunk of game
indices and returns its exact sums. Tasks are submitted a few per worker thread ahead and
taken back in chunk order, so the client's memory stays flat and the result is the one
`--workers 1` gives. A worker that dies loses nothing: the scheduler runs its tasks again
elsewhere. Before the first task, every worker must load the same rules and strategies as
the client (checked, not assumed).
"""

from __future__ import annotations

import logging
import re
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import EasyMoneyError, UsageError
from .games import Chunk, Plan, Simulator

INSTALL_HINT = "pip install 'easymoney-game[cluster]'"
CONNECT_TIMEOUT = 10      # seconds to reach a scheduler
LOST_TIMEOUT = 10         # seconds without a scheduler before the run is given up
HEARTBEAT = 2             # seconds between looks at the scheduler while a task runs
IN_FLIGHT_PER_THREAD = 4
# games a task at least: a task costs about 5 ms on Dask (bench/bench_cluster.py), a game of
# standard about 4 ms, so 40 games keep the cost near 3% of the run
LEAST_CHUNK = 40

# a host name, an IPv4 address or a bracketed IPv6 one, and a port (ASCII digits: `²` is a
# digit to str.isdigit, not to int())
_ADDRESS = re.compile(r"^(?:(?:tcp|tls|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.\-]+)"
                      r":(?P<port>[0-9]{1,5})$")


def parse_cluster(text: str) -> tuple[str, int | str]:
    """`local:4` -> ('local', 4); `tcp://10.0.0.5:8786` or `10.0.0.5:8786` -> ('address', ...)."""
    if text.startswith("local:"):
        count = text[len("local:"):]
        if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= 1024:
            raise UsageError(f"--cluster {text}: expected local:N with N worker processes "
                             f"(1 to 1024), e.g. local:4")
        return "local", int(count)
    found = _ADDRESS.match(text)
    if not found or not 1 <= int(found["port"]) <= 65535:
        raise UsageError(f"--cluster {text[:80]!r}: expected a scheduler address like "
                         f"tcp://HOST:8786, or local:N for N local worker processes")
    return "address", text if "://" in text else f"tcp://{text}"


def require_dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise UsageError(f"--cluster needs Dask, which is not installed: {INSTALL_HINT}") from None
    return distributed


# --- on the worker -------------------------------------------------------------------------------

_SIMULATOR: Simulator | None = None


def worker_environment() -> dict[str, Any]:
    """What this process loads: easymoney's version, every plugin with its origin, the strategies."""
    from .. import __version__
    from ..strategies import available_strategies
    from ..engine.registry import discover
    registry = discover()
    return {"easymoney": __version__,
            "plugins": {pid: info.origin for pid, info in registry.plugins.items()},
            "strategies": sorted(available_strategies()),
            "python": ".".join(map(str, sys.version_info[:2]))}


def play_chunk(plan: Plan, start: int, stop: int) -> Chunk:
    """The task: games [start, stop) of the plan; the worker builds its rule sets once a plan."""
    global _SIMULATOR
    if _SIMULATOR is None or _SIMULATOR.plan.key != plan.key:
        _SIMULATOR = Simulator(plan)
    return _SIMULATOR.chunk(start, stop)


# --- on the client -------------------------------------------------------------------------------

def needs(plan: Plan) -> tuple[set[str], set[str]]:
    """The plugin ids and strategies a worker must have to play this plan."""
    plugins = {pid for v in plan.variants for pid in v.rules}
    return plugins, set(plan.batch.strategy_order)


def check_workers(plan: Plan, mine: dict[str, Any], theirs: dict[str, dict[str, Any]]) -> None:
    """UsageError naming the first worker that lacks a plugin, a version or a strategy."""
    plugins, strategies = needs(plan)
    if not theirs:
        raise UsageError("--cluster: the scheduler has no workers; start some with "
                         "`dask worker tcp://HOST:8786`")
    for worker in sorted(theirs):
        env = theirs[worker]
        lacks = []
        if env.get("easymoney") != mine["easymoney"]:
            lacks.append(f"easymoney {mine['easymoney']} (it has {env.get('easymoney')})")
        for pid in sorted(plugins):
            have = env.get("plugins", {}).get(pid)
            if have is None:
                lacks.append(f"plugin {pid} ({mine['plugins'].get(pid)})")
            elif have != mine["plugins"].get(pid):
                lacks.append(f"plugin {pid} as {mine['plugins'].get(pid)} (it has {have})")
        known = set(env.get("strategies", ()))
        # `mc:rollouts=8` is strategy mc with its options: the worker needs mc
        for name in sorted(s for s in strategies if s.partition(":")[0] not in known):
            lacks.append(f"strategy {name.partition(':')[0]}")
        if lacks:
            raise UsageError(f"--cluster: worker {worker} lacks {', '.join(lacks)}; install the "
                             f"same easymoney and plugins on every worker")


class Cluster:
    """An executor for runner.run: a Dask client on a scheduler, or on a LocalCluster it starts."""

    def __init__(self, spec: str, *, connect_timeout: float | None = None) -> None:
        self.spec = spec
        self.kind, self.where = parse_cluster(spec)
        self.connect_timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
        self.client: Any = None
        self.local: Any = None
        self.workers = 1
        self.least_chunk = LEAST_CHUNK

    @property
    def remote(self) -> bool:
        return self.kind == "address"

    def __enter__(self) -> Cluster:
        distributed = require_dask()
        _quiet()
        try:
            if self.kind == "local":
                self.local = distributed.LocalCluster(
                    n_workers=int(self.where), threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=logging.CRITICAL)
                self.client = distributed.Client(self.local, timeout=self.connect_timeout)
            else:
                self.client = self._connect(distributed)
        except Exception as exc:  # OSError, TimeoutError, a TLS address without certificates,
            # a server that is not a scheduler (an HTTP reply read as a frame size: MemoryError)
            self.close()
            raise UsageError(f"--cluster {self.spec}: cannot reach the scheduler "
                             f"({_reason(exc)}); is `dask scheduler` running there?") from None
        _quiet()  # again: the client sets up loggers of its own
        self.workers = sum(self.client.nthreads().values()) or 1  # sizes the chunks
        return self

    def _connect(self, distributed: Any) -> Any:
        """A client of the scheduler, or TimeoutError: Dask's own timeout does not cover a
        server that accepts and never answers (or a scheduler stopped with SIGSTOP)."""
        made: list[Any] = []
        failed: list[BaseException] = []

        def connect() -> None:
            try:
                made.append(distributed.Client(str(self.where), timeout=self.connect_timeout))
            except BaseException as exc:  # handed to the caller's thread
                failed.append(exc)
        thread = threading.Thread(target=connect, daemon=True, name="easymoney-connect")
        thread.start()
        thread.join(self.connect_timeout + HEARTBEAT)
        if failed:
            raise failed[0]
        if not made:  # the thread is left behind, a daemon: it ends with this process
            raise TimeoutError(f"no answer in {self.connect_timeout:g} s")
        return made[0]

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        for thing in (self.client, self.local):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # closing after a lost scheduler may fail again: nothing to save
                    pass
        self.client = self.local = None

    def chunks(self, plan: Plan, bounds: Iterator[tuple[int, int]]) -> Iterator[Chunk]:
        client = self.client
        try:
            # Dask's calls before the first task have no timeout of their own: a scheduler
            # that froze before them would hold the run for ever
            theirs = self._guarded(lambda: client.run(worker_environment))
            check_workers(plan, worker_environment(), theirs)
            threads = sum(self._guarded(client.nthreads).values()) or 1
            shared = self._guarded(lambda: client.scatter(plan, broadcast=True, hash=False))
            window: deque[Any] = deque()
            limit = threads * IN_FLIGHT_PER_THREAD
            for start, stop in bounds:
                window.append(client.submit(play_chunk, shared, start, stop, pure=False))
                if len(window) >= limit:
                    yield self._result(window.popleft())
            while window:
                yield self._result(window.popleft())
        except EasyMoneyError:
            raise
        except (OSError, TimeoutError):
            # a closed stream once the run is under way (its words are Dask's internals):
            # the same one line however the loss shows
            raise UsageError(f"--cluster {self.spec}: lost the scheduler during the "
                             f"run") from None
        except Exception as exc:  # KilledWorker, CancelledError, ...: the cluster's, not a game's
            if "scheduler-connection-lost" in str(exc) or not self._reachable():
                raise UsageError(f"--cluster {self.spec}: lost the scheduler during the "
                                 f"run") from None
            raise UsageError(f"--cluster {self.spec}: the cluster failed the run: "
                             f"{type(exc).__name__}: {_reason(exc)}") from None

    def _guarded(self, call: Callable[[], Any]) -> Any:
        """`call()`'s value, made in a thread while this one waits for it (`_wait`)."""
        done = threading.Event()
        answer: list[Any] = []
        failed: list[BaseException] = []

        def work() -> None:
            try:
                answer.append(call())
            except BaseException as exc:  # handed to the caller's thread
                failed.append(exc)
            finally:
                done.set()
        threading.Thread(target=work, daemon=True, name="easymoney-cluster-call").start()
        self._wait(done)
        if failed:
            raise failed[0]
        return answer[0]

    def _result(self, future: Any) -> Chunk:
        # future.result(timeout=) can block past its timeout once the scheduler is gone, and
        # the client may still say "running": wait for the done callback, and knock on the
        # scheduler's port meanwhile
        done = threading.Event()
        future.add_done_callback(lambda _: done.set())
        self._wait(done)
        try:
            return future.result()
        except Exception:
            if future.status == "error":  # the task's own error: a game that failed
                raise
            if future.status == "cancelled" or not self._reachable():
                raise UsageError(f"--cluster {self.spec}: lost the scheduler during the "
                                 f"run") from None
            raise

    def _wait(self, done: threading.Event) -> None:
        """Until `done`, knocking on the scheduler every HEARTBEAT seconds: one line once it
        has not answered for LOST_TIMEOUT seconds."""
        lost_since: float | None = None
        while not done.wait(HEARTBEAT):
            if self._reachable():
                lost_since = None
                continue
            lost_since = lost_since or time.monotonic()
            if time.monotonic() - lost_since > LOST_TIMEOUT:
                raise UsageError(f"--cluster {self.spec}: lost the scheduler (no answer for "
                                 f"{LOST_TIMEOUT} s)")

    def _reachable(self) -> bool:
        """Whether the scheduler answers: its port accepting a connection is not enough (a
        scheduler stopped with SIGSTOP still has the kernel accept for it)."""
        address = str(self.client.scheduler.address)
        host, _, port = address.split("://")[-1].rpartition(":")
        try:
            with socket.create_connection((host.strip("[]"), int(port)), timeout=HEARTBEAT):
                pass
        except (OSError, ValueError):
            return False
        try:
            self.client.sync(self.client.scheduler.identity, callback_timeout=HEARTBEAT)
        except Exception:  # a timeout, a closed comm: no answer
            return False
        return True


def _quiet() -> None:
    """Dask's own complaints (a lost worker, a reconnect) are not the user's output: one line is."""
    names = [n for n in logging.root.manager.loggerDict
             if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    for name in ("distributed", "tornado", "asyncio", *names):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]
