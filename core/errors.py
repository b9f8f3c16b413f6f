"""The exceptions a user can meet: one root, one class per kind of mistake."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

# Characters that act on a terminal or break a line rather than show: controls (ESC, NUL,
# U+0085), format characters (bidirectional overrides), line and paragraph separators.
CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def is_control(char: str) -> bool:
    return unicodedata.category(char) in CONTROL_CATEGORIES


def unquotable(text: str) -> str | None:
    """Why a script line cannot hold `text` between double quotes, or None when it can."""
    if '"' in text:
        return "it holds a double quote"
    if any(is_control(ch) for ch in text):
        return "it holds a control character (a line break?)"
    return None


def visible(text: str) -> str:
    """`text` with each control character written as its escape (`\\x1b`), as repr writes it."""
    if text.isprintable():
        return text
    return "".join(repr(ch)[1:-1] if is_control(ch) else ch for ch in text)


def shown_line(line: str) -> str:
    """A source line to echo under an error: each control character but a tab shown as one
    symbol (ESC as U+241B), so that the caret stays under its column."""
    if line.isprintable():
        return line
    return "".join(_picture(ch) if is_control(ch) and ch != "\t" else ch for ch in line)


def _picture(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: U+241B SYMBOL FOR ESCAPE
    return "\u2421" if code == 0x7F else "\ufffd"


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
        # the other mistakes found with this one, each located: `easymoney check` reports
        # every error of a file, other commands the first
        self.also: tuple[EasyMoneyError, ...] = ()

    def located(self) -> str:
        """`FILE:LINE:COL: error: MESSAGE`, with the line and a caret when known."""
        # a file name, a message quoting a script or a script line may hold an ESC: it must
        # not reach the terminal raw
        where = ""
        if self.file is not None:
            where = f"{visible(self.file)}:"
            if self.line is not None:
                where += f"{self.line}:"
                if self.col is not None:
                    where += f"{self.col}:"
            where += " "
        text = f"{where}error: {visible(self.message)}"
        if self.source_line is not None and self.col is not None:
            text += ("\n" + shown_line(self.source_line.rstrip("\n")) + "\n"
                     + " " * max(self.col - 1, 0) + "^")
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


class GameOverError(EasyMoneyError):
    """An action applied to a game that is over."""


class NothingToUndo(EasyMoneyError):
    """`undo` at the start of a game."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a close choice exists, else ''.

    A rule id is never suggested for a rule id that differs from it only in its number
    (`R9` for `R99`): that is another rule, not a typo.
    """
    candidates = list(choices)
    if _RULE_ID.match(word):
        skeleton = _DIGITS.sub("#", word)
        candidates = [c for c in candidates
                      if not (_RULE_ID.match(c) and _DIGITS.sub("#", c) == skeleton)]
    import difflib  # here, not at import: only a mistake needs it
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


_RULE_ID = re.compile(r"^R\d+[a-z]?$")
_DIGITS = re.compile(r"\d+")

# Third-party rule plugins the project knows of: plugin id -> where it comes from. Naming one
# that is not installed says this instead of suggesting a built-in rule with a similar id.
KNOWN_PLUGINS: dict[str, str] = {
    "double_bonus": "the distribution easymoney-double-bonus provides it, from "
                    "examples/plugins/double_bonus of the easymoney repository",
    "railroads": "the distribution easymoney-railroads provides it, from "
                 "examples/plugins/railroads of the easymoney repository",
}


def not_installed(word: str) -> str:
    """' (not installed: what provides it)' for a known third-party plugin id, else ''."""
    provider = KNOWN_PLUGINS.get(word)
    return f" (not installed: {provider})" if provider else ""


def unknown_rule_hint(word: str, choices: Iterable[str]) -> str:
    """What follows `unknown rule 'WORD'`: what provides it, else a close id, else where ids are listed."""
    return (not_installed(word) or did_you_mean(word, choices)
            or " (not an installed plugin; `easymoney rules` lists those installed)")
