"""A time limit on one game: a hook that never returns is stopped, and the plugin named.

In the main thread (play, simulate's worker processes) an interval timer's SIGALRM raises
`GameTimeout` in the frame that runs; in another thread (a Dask worker's task) a watchdog
thread raises it there between two bytecodes. `GameTimeout` is a BaseException, so that no
`except Exception` of a rule or of the engine takes it for the rule's own failure; the
traceback then says whose code was running (`RuleSet.blame`).
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import signal
import threading
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


@contextlib.contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    target = threading.get_ident()
    lock = threading.Lock()
    over = [False]

    def expire() -> None:
        with lock:
            if not over[0]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                           ctypes.py_object(GameTimeout))
    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            over[0] = True
        timer.cancel()


def stalled(exc: GameTimeout, ruleset: RuleSet, seconds: float | None) -> str:
    """'was stopped after 60 s (--game-timeout): plugin 'x' in em_y did not return'."""
    plugin, hook = ruleset.blame(exc)
    who = f"plugin {plugin!r}" if plugin else "the engine"
    where = f" in {hook}" if hook and plugin else ""
    limit = exc.seconds or seconds or 0
    return f"was stopped after {limit:g} s (--game-timeout): {who}{where} did not return"
