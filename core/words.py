"""Counts in plain English for what the program prints: `1 house`, `2 houses`, `1,000 games`."""

from __future__ import annotations

import re

_SIBILANT = re.compile(r"(s|x|z|ch|sh)$")
_CONSONANT_Y = re.compile(r"[^aeiou]y$")


def plural(noun: str) -> str:
    """The regular English plural of `noun`: house -> houses, loss -> losses, strategy -> strategies."""
    if _CONSONANT_Y.search(noun):
        return noun[:-1] + "ies"
    if _SIBILANT.search(noun):
        return noun + "es"
    return noun + "s"


def count(n: int, word: str) -> str:
    """`n` and the noun in the number it takes: count(1, "game") -> "1 game"."""
    return f"{n:,} {word if n == 1 else plural(word)}"


def noun(n: int, word: str) -> str:
    """The noun alone in the number `n` takes: noun(1, "game") -> "game", noun(0, "game") -> "games"."""
    return word if n == 1 else plural(word)
