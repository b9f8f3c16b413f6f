"""Statements that rule plugins add to the script language, and how they join the grammar.

A plugin declares `STATEMENTS = (MyStatement, ...)`. Each is a frozen dataclass deriving
from one of the three classes below, with its grammar written as the right-hand side of a
lark rule over the language's terminals:

    NAME    a player name                 -> str
    MONEY   an amount (600, $1,100)        -> int
    INT     a whole number                 -> int
    STRING  a quoted text                  -> str (without the quotes)
    space   a quoted space name or number  -> SpaceRef
    _WORD   a keyword: list its word in WORDS (`_SELLS` for "sells")

The values of the rule's terminals, in order, are the dataclass's fields, in order (an
optional part `[INT]` that is absent gives None). `str(statement)` must give back the
line it was parsed from, in canonical form: it is what `--record` writes.

    @dataclass(frozen=True)
    class SellsExemption(ActionStatement):
        GRAMMAR = "NAME _SELLS _EXEMPTION _TO NAME _FOR MONEY"
        WORDS = ("sells", "exemption", "to", "for")
        FORMS = ("`P sells exemption to Q for MONEY`",)
        player: str
        buyer: str
        price: int

        def __str__(self): return f"{self.player} sells exemption to {self.buyer} for {self.price}"

        def answer(self, script, request):
            return SellExemption(script.player(self.player, self), ...)
"""

from __future__ import annotations

import re

from ..engine.statements import ActionStatement, Expectation, SetupStatement

__all__ = ["ActionStatement", "Expectation", "SetupStatement", "grammar_snippet", "rule_name",
           "keyword_terminal"]

_WORD = re.compile(r"[a-z]+")


def rule_name(plugin: str, cls: type) -> str:
    """The lark rule of a plugin's statement: `stmt_exemption_sellsexemption`."""
    return f"stmt_{plugin}_{cls.__name__.lower()}"


def keyword_terminal(word: str) -> str:
    return f"_{word.upper()}"


def grammar_snippet(plugin: str, statements: tuple[type, ...],
                    known_terminals: set[str]) -> tuple[str, list[str]]:
    """The lark text adding these statements, and the problems of their declarations."""
    lines: list[str] = []
    problems: list[str] = []
    names = []
    for cls in statements:
        if not (isinstance(cls, type) and issubclass(cls, (ActionStatement, SetupStatement,
                                                             Expectation))):
            problems.append(f"STATEMENTS lists {cls!r}: a statement derives from "
                            f"ActionStatement, SetupStatement or Expectation")
            continue
        if not cls.GRAMMAR.strip():
            problems.append(f"statement {cls.__name__} has no GRAMMAR")
            continue
        for word in cls.WORDS:
            if not _WORD.fullmatch(word):
                problems.append(f"statement {cls.__name__}: WORDS must be lower-case words, "
                                f"found {word!r}")
                continue
            terminal = keyword_terminal(word)
            if terminal not in known_terminals:
                known_terminals.add(terminal)
                lines.append(f"{terminal}.2: /{word}\\b/")
        name = rule_name(plugin, cls)
        names.append(name)
        prefix = "_EXPECT " if issubclass(cls, Expectation) else (
            "_SETUP " if issubclass(cls, SetupStatement) else "")
        lines.append(f"{name}: {prefix}{cls.GRAMMAR}")
    if names:
        lines.append(f"%extend _statement: {' | '.join(names)}")
    return "\n".join(lines) + "\n", problems
