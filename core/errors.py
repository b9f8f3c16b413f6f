"""The exceptions a user can meet: one root, one class per kind of mistake."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class EasyMoneyError(Exception):
    """Root of every error that is the user's to fix; the CLI prints it without a traceback."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 col: int | None = None, source_line: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.source_line = source_line

    def located(self) -> str:
        """`FILE:LINE:COL: error: MESSAGE`, with the line and a caret when known."""
        where = ""
        if self.file is not None:
            where = f"{self.file}:"
            if self.line is not None:
                where += f"{self.line}:"
                if self.col is not None:
                    where += f"{self.col}:"
            where += " "
        text = f"{where}error: {self.message}"
        if self.source_line is not None and self.col is not None:
            text += "\n" + self.source_line.rstrip("\n") + "\n" + " " * max(self.col - 1, 0) + "^"
        return text

    def __str__(self) -> str:
        return self.located()


class UsageError(EasyMoneyError):
    """A command line that cannot be carried out (unknown variant, bad --option, missing file)."""


class VariantError(EasyMoneyError):
    """A variant file that is malformed, breaks the schema, or fails a semantic check."""


class PluginError(EasyMoneyError):
    """An unknown rule id, an essential rule switched off, or a plugin that fails to load."""


class ScriptSyntaxError(EasyMoneyError):
    """A game script that does not parse."""


class ScriptError(EasyMoneyError):
    """A game script that parses but cannot be run: unknown names, or a line the game does not wait for."""


class RefusedAction(EasyMoneyError):
    """An action the rules forbid; the game state is unchanged."""

    def __init__(self, message: str, refusals: tuple = (), **kw) -> None:
        super().__init__(message, **kw)
        self.refusals = refusals


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a close choice exists, else ''."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
