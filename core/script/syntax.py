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
           "keyword_terminal", "fragment_problems", "samples"]

_WORD = re.compile(r"[a-z]+")
# what a statement's GRAMMAR is made of: the value terminals, `space`, its own keywords, and
# lark's operators; nothing that could reach beyond its own line (no newline, no `%`
# directive, no second rule, no reference to a rule of the language)
VALUES = ("NAME", "MONEY", "INT", "STRING", "space")
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


def fragment_problems(cls: type) -> list[str]:
    """What is wrong with a statement's GRAMMAR as a fragment of one line of the language."""
    grammar, words = getattr(cls, "GRAMMAR", ""), getattr(cls, "WORDS", ())
    if not isinstance(grammar, str):
        return [f"statement {cls.__name__}: GRAMMAR must be a string, found {grammar!r}"]
    if "\n" in grammar or "\r" in grammar:
        return [f"statement {cls.__name__}: GRAMMAR must be one line (its own statement), "
                f"found a line break in {grammar!r}"]
    allowed = set(VALUES) | {keyword_terminal(w) for w in words if isinstance(w, str)}
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
        if not isinstance(cls.GRAMMAR, str) or not cls.GRAMMAR.strip():
            problems.append(f"statement {cls.__name__} has no GRAMMAR")
            continue
        found = fragment_problems(cls)
        if found:
            problems += found
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
