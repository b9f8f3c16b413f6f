"""How far a batch is: a progress bar with the time left on a terminal (one line, fitted and
redrawn), a plain line every 30 seconds on a pipe or a file."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import TextIO

CLEAR = "\033[K"  # the rest of the line: what a longer update left there
NARROWEST_BAR = 10
PIPE_EVERY = 30.0  # seconds between the lines on a pipe or a file: a log, not a flood


class Progress:
    """A progress bar with the time left on a terminal; on a pipe or a file (a CI log), a
    line `easymoney: 120/1,000 games, ...` every PIPE_EVERY seconds, none in a shorter run.

    Each update of the bar is drawn over the last one (`\\r`): it is kept shorter than the
    terminal's width, asked at each update (a line that wraps would scroll a new line every
    time). `clock` gives the seconds (the tests' own).
    """

    def __init__(self, total: int, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.clock = clock
        self.start = self.last_line = clock()
        self.shown = False

    def __call__(self, done: int, chunks_done: int = 0, chunks: int = 0) -> None:
        now = self.clock()
        elapsed = now - self.start
        left = elapsed / done * (self.total - done) if done else 0.0
        if not self.enabled:
            if now - self.last_line >= PIPE_EVERY:
                self.last_line = now
                self.stream.write(f"easymoney: {done:,}/{self.total:,} games, "
                                  f"{_clock(elapsed)} elapsed, about {_clock(left)} left\n")
                self.stream.flush()
            return
        width = shutil.get_terminal_size((80, 24)).columns - 1  # the last column wraps
        games = f"{done:,}/{self.total:,} games"
        # the words, longest first; the first that leaves room for a bar of 10 is used
        texts = [f"{chunks_done:,}/{chunks:,} chunks, {games}  {_clock(elapsed)} elapsed, "
                 f"about {_clock(left)} left" if chunks else None,
                 f"{games}  {_clock(elapsed)} elapsed, about {_clock(left)} left",
                 f"{games}, {_clock(left)} left", f"{100 * done // max(1, self.total)}%"]
        text = next((t for t in texts if t is not None and
                     len(t) + NARROWEST_BAR + 3 <= width), texts[-1] or "")
        bar = max(0, width - len(text) - 3)
        filled = bar * done // max(1, self.total)
        line = f"[{'#' * filled}{'.' * (bar - filled)}] {text}" if bar else text
        self.stream.write(f"\r{line[:width]}{CLEAR}")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.enabled and self.shown:
            self.stream.write(f"\r{CLEAR}")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
