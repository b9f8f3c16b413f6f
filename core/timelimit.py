"""A time limit on one game: a hook that never returns is stopped, and the plugin named.

In the main thread (play, simulate's worker processes) an interval timer's SIGALRM raises
`GameTimeout` in the frame that runs; in another thread (a Dask worker's task) a watchdog
thread raises it there between two bytecodes. `GameTimeout` is a BaseException, so that no
`except Exception` of a rule or of the engine takes it for the rule's own failure; the
traceback then says whose code was running (`RuleSet.blame`).
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING

from .errors import UsageError

if TYPE_CHECKING:
    from .engine.game import RuleSet

DEFAULT_GAME_TIMEOUT = 60.0  # seconds; a standard game takes milliseconds


class GameTimeout(BaseException):
    """A game ran past its time limit."""

    def __init__(self, seconds: float | None = None) -> None:  # raised bare by the watchdog
        super().__init__(seconds)
        self.seconds = seconds


def check_game_timeout(seconds: float | None, flag: str = "--game-timeout") -> float | None:
    """The limit in seconds (None: no limit, for 0), or a UsageError naming `flag`."""
    if seconds is None or seconds == 0:
        return None
    if not math.isfinite(seconds) or seconds < 0:
        raise UsageError(f"{flag} {seconds}: expected a number of seconds above 0 (0 for no "
                         f"limit)")
    return seconds


def seconds_arg(text: str) -> float:
    """argparse type of --game-timeout: a number (its range is checked by check_game_timeout)."""
    import argparse
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, found {text[:40]!r}") \
            from None


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise GameTimeout in this thread if the block runs longer than `seconds` (None: never)."""
    if not seconds:
        yield
        return
    if threading.current_thread() is not threading.main_thread():
        with _watchdog(seconds):
            yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise GameTimeout(seconds)

    before = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


class _Watchdog:
    """One thread that raises GameTimeout in each other thread whose block runs past its
    limit: a thread of its own for each limit would be started and ended at every decision
    of a page's bot (a hundred tables, a hundred a second)."""

    def __init__(self) -> None:
        self.changed = threading.Condition(threading.Lock())
        self.due: dict[object, tuple[float, int]] = {}  # a block -> (its deadline, its thread)
        self.until = math.inf  # when the thread looks next
        self.thread: threading.Thread | None = None

    def watch(self, seconds: float, target: int) -> object:
        import ctypes  # noqa: F401 -- here, not at import: only a watched thread needs it
        block = object()
        with self.changed:
            deadline = time.monotonic() + seconds
            self.due[block] = (deadline, target)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="easymoney-time-limits",
                                               daemon=True)
                self.thread.start()
            elif deadline < self.until:
                self.changed.notify()
        return block

    def done(self, block: object) -> None:
        """The block ended: its thread is told nothing after this returns."""
        with self.changed:
            self.due.pop(block, None)

    def _run(self) -> None:
        import ctypes
        with self.changed:
            while True:
                now = time.monotonic()
                for block, (deadline, target) in list(self.due.items()):
                    if deadline <= now:
                        del self.due[block]
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(
                            ctypes.c_ulong(target), ctypes.py_object(GameTimeout))
                # while nothing is watched it looks again a while later, so that a block
                # watched meanwhile (a deadline that far off) need not wake it
                self.until = min((d for d, _ in self.due.values()), default=now + IDLE_LOOK)
                self.changed.wait(max(0.0, self.until - now))


IDLE_LOOK = 1.0  # seconds; no limit is shorter in practice (a bot's step: 10 s)
_WATCHDOG = _Watchdog()


def _forked() -> None:
    """A child process has its own watchdog: the parent's thread is not in it, and its lock
    may have been held when the process was forked."""
    global _WATCHDOG
    _WATCHDOG = _Watchdog()


os.register_at_fork(after_in_child=_forked)


@contextlib.contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    block = _WATCHDOG.watch(seconds, threading.get_ident())
    try:
        yield
    finally:
        _WATCHDOG.done(block)


def stalled(exc: GameTimeout, ruleset: RuleSet, seconds: float | None) -> str:
    """'was stopped after 60 s (--game-timeout): plugin 'x' in em_y did not return'."""
    plugin, hook = ruleset.blame(exc)
    who = f"plugin {plugin!r}" if plugin else "the engine"
    where = f" in {hook}" if hook and plugin else ""
    limit = exc.seconds or seconds or 0
    return f"was stopped after {limit:g} s (--game-timeout): {who}{where} did not return"
