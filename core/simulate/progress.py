"""A progress bar with the time left, on a terminal only."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """A progress bar with the time left, on a terminal only (nothing on a pipe or a file)."""

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
        width = 30
        filled = width * done // self.total
        bar = "#" * filled + "." * (width - filled)
        parts = f"{chunks_done:,}/{chunks:,} chunks, " if chunks else ""
        self.stream.write(f"\r[{bar}] {parts}{done:,}/{self.total:,} games  "
                          f"{_clock(elapsed)} elapsed, about {_clock(left)} left ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.enabled and self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
