"""A progress bar with the time left, on a terminal only: one line, fitted and redrawn."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

CLEAR = "\033[K"  # the rest of the line: what a longer update left there
NARROWEST_BAR = 10


class Progress:
    """A progress bar with the time left, on a terminal only (nothing on a pipe or a file).

    Each update is drawn over the last one (`\\r`): it is kept shorter than the terminal's
    width, asked at each update (a line that wraps would scroll a new line every time).
    """

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, done: int, chunks_done: int = 0, chunks: int = 0) -> None:
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        left = elapsed / done * (self.total - done) if done else 0.0
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
