"""Playing at the prompt in-process with piped answers that may look at what was said."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from typing import Any

GLOSS = re.compile(r"  \(.*\)$")  # what a line leaves for the game to fill in
RANGE = re.compile(r" \(N from ([\d,]+) to ([\d,]+)(?: in steps of [\d,]+)?\)$")


class Feeder:
    """Standard input whose next line is chosen by `pick(everything said so far)`; "" ends it."""

    def __init__(self, out: io.StringIO, pick: Callable[[str], str]) -> None:
        self.out, self.pick = out, pick

    def readline(self) -> str:
        line = self.pick(self.out.getvalue())
        return line + "\n" if line else ""

    def isatty(self) -> bool:
        return False


def play_fed(monkeypatch: Any, pick: Callable[[str], str], *argv: str) -> tuple[int, str]:
    """`easymoney play --interactive ARGV` answered by `pick`; (status, what it said)."""
    from easymoney.cli import main
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", Feeder(out, pick))
    monkeypatch.setattr(sys, "stdout", out)
    status = main(["play", "--interactive", *argv])
    return status, out.getvalue()


def play_lines(monkeypatch: Any, lines: list[str], *argv: str) -> tuple[int, str]:
    """The same with a fixed list of answers (then the end of input)."""
    answers = iter(lines)
    return play_fed(monkeypatch, lambda said: next(answers, ""), *argv)


def listing(said: str) -> list[str]:
    """The lines of the last `?` listing, each made concrete (a range at its least amount)."""
    tail = said.rsplit("may answer:\n", 1)[1]
    out = []
    for line in tail.splitlines():
        if not line.startswith("  "):
            break
        line = GLOSS.sub("", line.strip())  # `buys  (buy Elmwood Avenue for $1,400)`
        found = RANGE.search(line)
        if found:
            least = found.group(1).replace(",", "")
            words = line[:found.start()].split(" ")
            line = " ".join(least if w == "N" else w for w in words)
        out.append(line)
    return out
