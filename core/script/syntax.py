"""The lines of the script language past its header, and how they join the grammar.

A line is a class with its grammar: an action class (`Action.GRAMMAR`, in a plugin's
ACTIONS: the line says the action, and the action prints the line), or a statement class
in a plugin's STATEMENTS (`SetupStatement` after `setup`, `Expectation` after `expect`, or
an `ActionStatement`, the earlier way to write an action's line, which still works). The
base language's own lines are classes the same way (easymoney.script.ast.BASE_LINES). Its
grammar is the right-hand side of a lark rule over the language's terminals:

    NAME    a player name                 -> str
    MONEY   an amount (600, $1,100)        -> int
    INT     a whole number                 -> int
    STRING  a quoted text                  -> str (without the quotes)
    space   a quoted space name or number  -> SpaceRef
    _WORD   a keyword: list its word in WORDS (`_SELLS` for "sells")

The values of the rule's terminals, in order, are the class's `line_fields()`, in order
(an optional part `[INT]` that is absent gives None). `str()` of what is parsed must give
back the line, in canonical form: it is what `--record` writes.

    @dataclass(slots=True)
    class SellExemption(Action):
        GRAMMAR = "NAME _SELLS _EXEMPTION _TO NAME _FOR MONEY"
        WORDS = ("sells", "exemption", "to", "for")
        FORMS = ("`P sells exemption to Q for MONEY`",)
        player: Player
        buyer: Player
        price: int

        def __str__(self): return f"{self.player} sells exemption to {self.buyer} for {self.price}"
"""

from __future__ import annotations

import re
from typing import Any

from ..engine.actions import Action
from ..engine.statements import (ActionStatement, Expectation, LeadStatement, SetupStatement,
                                 Statement)

__all__ = ["ActionStatement", "Expectation", "SetupStatement", "grammar_snippet", "rule_name",
           "keyword_terminal", "fragment_problems", "samples", "is_line", "line_prefix"]

_WORD = re.compile(r"[a-z]+")
# what a statement's GRAMMAR is made of: the value terminals, `space`, its own keywords, and
# lark's operators; nothing that could reach beyond its own line (no newline, no `%`
# directive, no second rule, no reference to a rule of the language)
VALUES = ("NAME", "MONEY", "INT", "STRING", "space", "dice")
_PIECE = re.compile(r"[ \t]*(?:([A-Za-z_][A-Za-z_0-9]*)|([\[\]()|*+?]))")
# the text a sample line puts for each terminal (every alternative of `space`)
_SAMPLE = {"NAME": ("Ann",), "MONEY": ("500",), "INT": ("3",), "STRING": ('"Dover Street"',),
           "space": ('"Dover Street"', "3"), "STRATEGY": (":greedy",), "REASON": ("bank",),
           "VARIANT_NAME": ("standard",), "RULE_ID": ("R13",), "OPTION_KEY": ("end.max_turns",),
           "OPTION_WORD": ("200",), "MORTGAGED": ("mortgaged",), "UNMORTGAGED": ("unmortgaged",)}


def rule_name(plugin: str, cls: type) -> str:
    """The lark rule of a plugin's statement: `stmt_exemption_sellsexemption`."""
    return f"stmt_{plugin}_{cls.__name__.lower()}"


def keyword_terminal(word: str) -> str:
    return f"_{word.upper()}"


def kept_terminal(word: str) -> str:
    """The terminal of a word that is a value (a LINE's Literal or flag): kept in the tree."""
    return word.upper()


def fragment_problems(cls: type) -> list[str]:
    """What is wrong with a statement's GRAMMAR as a fragment of one line of the language."""
    grammar, words = getattr(cls, "GRAMMAR", ""), getattr(cls, "WORDS", ())
    kept = getattr(cls, "_KEPT", ())
    if not isinstance(grammar, str):
        return [f"statement {cls.__name__}: GRAMMAR must be a string, found {grammar!r}"]
    if "\n" in grammar or "\r" in grammar:
        return [f"statement {cls.__name__}: GRAMMAR must be one line (its own statement), "
                f"found a line break in {grammar!r}"]
    allowed = set(VALUES) | {keyword_terminal(w) for w in words if isinstance(w, str)} \
        | {kept_terminal(w) for w in kept}
    pos = 0
    stripped = grammar.rstrip()
    while pos < len(stripped):
        match = _PIECE.match(stripped, pos)
        if match is None or match.end() == pos:
            bad = stripped[pos:].split()[0] if stripped[pos:].split() else stripped[pos:]
            return [f"statement {cls.__name__}: GRAMMAR may hold only {', '.join(VALUES)}, its "
                    f"WORDS' keywords (_WORD) and [ ] ( ) | * + ?; found {bad!r}"]
        name = match.group(1)
        if name is not None and name not in allowed:
            hint = (f"; list {name[1:].lower()!r} in WORDS" if name.startswith("_")
                    and name[1:].isupper() else "")
            return [f"statement {cls.__name__}: GRAMMAR may hold only {', '.join(VALUES)}, its "
                    f"WORDS' keywords (_WORD) and [ ] ( ) | * + ?; found {name!r}{hint}"]
        pos = match.end()
    return []


def samples(body: str, rules: dict[str, str] | None = None, limit: int = 64) -> list[str]:
    """Lines a rule's right-hand side matches: each alternative, each optional part with and
    without, repetitions zero to two times (at most `limit` lines). `rules` expands the
    names of other rules (`space`, `player_decl`) by their own right-hand sides."""
    rules = rules or {}
    tokens = re.findall(r"[A-Za-z_][A-Za-z_0-9]*|[\[\]()|*+?]", body)
    pos = 0

    def alternatives() -> list[list[str]]:
        nonlocal pos
        out = sequence()
        while pos < len(tokens) and tokens[pos] == "|":
            pos += 1
            out += sequence()
        return out[:limit]

    def sequence() -> list[list[str]]:
        nonlocal pos
        out: list[list[str]] = [[]]
        while pos < len(tokens) and tokens[pos] not in ("|", ")", "]"):
            token = tokens[pos]
            pos += 1
            if token in ("(", "["):
                inner = alternatives()
                pos += 1  # the closing bracket
                part = inner + ([[]] if token == "[" else [])
            elif token in rules:
                part = [s.split() for s in samples(rules[token], rules, limit)]
            elif token.startswith("_") and token[1:].isupper():
                part = [[token[1:].lower()]]
            else:
                part = [[text] for text in _SAMPLE.get(token, (token.lower(),))]
            if pos < len(tokens) and tokens[pos] in "*+?":
                op = tokens[pos]
                pos += 1
                twice = [a + b for a in part for b in part][:limit]
                part = ([[]] if op in "*?" else []) + part + (twice if op != "?" else [])
            out = [a + b for a in out for b in part][:limit]
        return out

    return [" ".join(words) for words in alternatives()]


def is_line(cls: Any) -> bool:
    """Whether `cls` may be a line of the language: an action or a statement class."""
    return isinstance(cls, type) and issubclass(cls, (Action, ActionStatement, SetupStatement,
                                                      Expectation))


def grammar_snippet(plugin: str, statements: tuple[type, ...], known_terminals: set[str],
                    base: bool = False) -> tuple[str, list[str]]:
    """The lark text adding these lines, and the problems of their declarations. `base`:
    the base language's own lines, whose grammar may use every terminal of the language."""
    lines: list[str] = []
    problems: list[str] = []
    names = []
    for cls in statements:
        if not (is_line(cls) or base and isinstance(cls, type) and issubclass(cls, Statement)):
            problems.append(f"STATEMENTS lists {cls!r}: a statement derives from "
                            f"SetupStatement or Expectation (or ActionStatement; an action's "
                            f"line is declared on its Action class, in ACTIONS)")
            continue
        if getattr(cls, "_LINE_PROBLEM", None):
            problems.append(cls._LINE_PROBLEM)  # type: ignore[attr-defined]
            continue
        if not isinstance(cls.GRAMMAR, str) or not cls.GRAMMAR.strip():  # type: ignore[attr-defined]
            problems.append(f"statement {cls.__name__} has no LINE (or GRAMMAR)")
            continue
        found = [] if base else fragment_problems(cls)
        if found:
            problems += found
            continue
        for word in cls.WORDS:  # type: ignore[attr-defined]
            if not _WORD.fullmatch(word):
                problems.append(f"statement {cls.__name__}: WORDS must be lower-case words, "
                                f"found {word!r}")
                continue
            terminal = keyword_terminal(word)
            if terminal not in known_terminals:
                known_terminals.add(terminal)
                lines.append(f"{terminal}.2: /{word}\\b/")
        for word in getattr(cls, "_KEPT", ()):
            terminal = kept_terminal(word)
            if terminal not in known_terminals:
                known_terminals.add(terminal)
                lines.append(f"{terminal}.2: /{word}\\b/")
        name = rule_name(plugin, cls)
        names.append(name)
        prefix = line_prefix(cls)
        lines.append(f"{name}: {prefix}{cls.GRAMMAR}")  # type: ignore[attr-defined]
    if names:
        lines.append(f"%extend _statement: {' | '.join(names)}")
    return "\n".join(lines) + "\n", problems


def line_prefix(cls: type) -> str:
    """The keyword a line of this class starts with, before its GRAMMAR."""
    return f"_{cls.LEAD.upper()} " if issubclass(cls, LeadStatement) else ""
