"""Parse game scripts (the language of docs/scripts.md), with the statements rule plugins add.

`parse(text, filename)` and `parse_file(path)` return an `easymoney.script.ast.Script`;
any mistake in the text is a `ScriptSyntaxError` located at `FILE:LINE:COL`, with a message
in words (never a terminal name) and a suggestion when a close keyword exists.  Nothing
from lark leaves this module: the tree is turned at once into the dataclasses of `ast`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Sequence
from typing import Any

# lark's parsing classes, of the runtime every parser parses with (tables.py)
from .lark_runtime import (Token, Transformer, UnexpectedCharacters, UnexpectedInput,
                           UnexpectedToken, VisitError, v_args)

from .. import packaged
from ..errors import EasyMoneyError, PluginError, ScriptSyntaxError
from . import ast as A
from ..engine.actions import Action, EndTurn, clip as _clip
from ..engine.registry import PluginInfo, Registry, add_declaration_check
from ..engine.statements import end_reasons_of, lines_of
from .tables import lark_for
from .syntax import (ActionStatement, Expectation, SetupStatement, grammar_snippet, line_prefix,
                     rule_name, samples)

__all__ = ["parse", "parse_file", "parse_bytes", "Language", "language_for"]

# ---------------------------------------------------------------- the lark parser

# The header's words; those of the lines (the base language's and the rules') join them
# in the `Language` of a set of rules.
LINE_KEYWORDS = ("variant", "with", "without", "option", "players", "seed", "setup",
                 "expect", "autoplay")
# the base lines listed last where the lines are listed: the turn's close ends a turn
_LISTED_LAST = (EndTurn,)
# how the game may end whatever the rules: nobody left to play (the turn's own end)
CORE_END_REASONS = ("bankruptcy",)


class Language:
    """The script language of one set of rules: the base lines, the built-in rules' lines,
    and the lines of the third-party plugins in play. Its words are what messages are made of.

    Made by `language_for`, once per registry and set of lines; nothing is kept in
    module globals, so that a language is never the one some earlier script happened to use.
    `reasons`: the end reasons of the rules in play (what `expect game over by` may name).
    """

    def __init__(self, declared: tuple[tuple[str, tuple[type, ...]], ...],
                 reasons: tuple[str, ...] = ()) -> None:
        self.declared = declared
        self.plugins = tuple(pid for pid, _ in declared)
        self.reasons = tuple(dict.fromkeys(CORE_END_REASONS + tuple(reasons)))
        grammar, statements = _grammar_of(declared)
        try:
            lark = lark_for(grammar)  # the shipped tables when they are this grammar's
        except Exception as exc:  # a plugin's statement that does not fit the language
            culprit = _culprit(_base_grammar(), declared)
            raise PluginError(f"plugin {culprit}: its script statements do not fit the "
                              f"language: {type(exc).__name__}: "
                              f"{' '.join(str(exc).split())[:300]}") from None
        self.lark = lark
        self.name_pattern = re.compile(lark.get_terminal("NAME").pattern.to_regexp())
        self.statements = statements
        self.base = frozenset(A.BASE_LINES)
        self.keywords: dict[str, str] = {}   # terminal name -> keyword ("_ROLLS" -> "rolls")
        self.by_word: dict[str, str] = {}    # "rolls" -> "_ROLLS"
        self.order: dict[str, int] = {}      # terminal name -> rank (stable messages)
        for rank, terminal in enumerate(lark.terminals):
            self.order[terminal.name] = rank
            match = re.fullmatch(r"([a-z]+)\\b", terminal.pattern.value)
            if terminal.pattern.type == "re" and match:
                self.keywords[terminal.name] = match.group(1)
                self.by_word[match.group(1)] = terminal.name
        verbs: list[str] = []
        phrases: list[str] = []
        setup: list[str] = []
        expect: list[str] = []
        forms: list[str] = []
        lines = [cls for cls in statements.values() if cls not in _LISTED_LAST]
        for cls in lines + [cls for cls in statements.values() if cls in _LISTED_LAST]:
            # grammar_snippet has checked that every class is a line (GRAMMAR, FORMS)
            grammar_ = cls.GRAMMAR  # type: ignore[attr-defined]
            first = re.match(r"\s*(NAME\s+)?(_[A-Z]+)", grammar_)
            word = self.keywords.get(first.group(2)) if first else None
            if issubclass(cls, SetupStatement):
                if word is not None and not first.group(1) and word not in setup:  # type: ignore[union-attr]
                    setup.append(word)
            elif issubclass(cls, Expectation):
                if word is not None and not first.group(1) and word not in expect:  # type: ignore[union-attr]
                    expect.append(word)
                forms += [f for f in cls.FORMS if f not in forms]
            elif word is not None and word not in verbs and (
                    first.group(1) or issubclass(cls, (Action, ActionStatement))):  # type: ignore[union-attr]
                verbs.append(word)  # a line by a player: `P rolls`, `P buys`, `P draws`
                phrase = _phrase(cls)
                if phrase not in phrases:
                    phrases.append(phrase)
        self.verbs = tuple(verbs)
        self.phrases = tuple(phrases)  # `goes bankrupt`: how each action reads in a list
        self.setup_words = tuple(setup)
        self.expect_keywords = tuple(expect)
        self.expect_forms = tuple(forms)
        # words that cannot be player names: a keyword wins over a name where both could stand
        self.reserved = frozenset(LINE_KEYWORDS + tuple(expect) + tuple(setup) + ("nobody",))
        self.transformer = _ToAst(self)
        self.samples: list[tuple[str, str]] | None = None  # made by _builtin_samples

    def players_problem(self, names: Sequence[object]) -> str | None:
        """Why `players NAMES` would not be a line of this language, in the words the
        parser would use (None: it would be one, naming these players)."""
        seen: set[str] = set()
        for name in names:
            text = name if isinstance(name, str) else str(name)
            if not isinstance(name, str) or not self.name_pattern.fullmatch(text):
                return f"expected a player name, found '{_clip(text)}'"
            if text in self.reserved:
                return _keyword_name(text)
            if len(text) > MAX_NAME:
                return _too_long(text, "a player name")
            if text in seen:
                return _listed_twice(text)
            seen.add(text)
        return None

    def reason_words(self) -> str:
        """`a reason: bankruptcy, bank or turns`: what may follow `expect game over by`."""
        return f"a reason: {_words(list(self.reasons))}"


def _base_grammar() -> str:
    return packaged.read_text("easymoney.script", "grammar.lark")


def _grammar_of(declared: tuple[tuple[str, tuple[type, ...]], ...]
                ) -> tuple[str, dict[str, type]]:
    """The grammar of the base language with `declared`'s lines, and the class of each rule."""
    base = _base_grammar()
    known = set(re.findall(r"^(_?[A-Z][A-Z_0-9]*)(?:\.\d+)?:", base, flags=re.M))
    snippet, problems = grammar_snippet("base", A.BASE_LINES, known, base=True)
    assert not problems, problems
    grammar = base + "\n" + snippet
    statements: dict[str, type] = {rule_name("base", cls): cls for cls in A.BASE_LINES}
    for pid, classes in declared:
        snippet, problems = grammar_snippet(pid, classes, known)
        if problems:
            raise PluginError(f"plugin {pid}: {problems[0]}")
        grammar += "\n" + snippet
        for cls in classes:
            statements[rule_name(pid, cls)] = cls
    return grammar, statements


def builtin_grammar_text(registry: Any) -> str:
    """The grammar of the language of `registry`'s built-in rules (easymoney.script.tables
    ships its parse tables)."""
    return _grammar_of(_statements_of(registry, ()))[0]


def _speaking(registry: Any, rules: Iterable[str] | None) -> list[tuple[str, Any]]:
    """(id, info) of the plugins whose words the language has, in registry order: the
    built-in rules always (a line of one that is off is refused when played), a third-party
    plugin only among `rules` (every installed one when None)."""
    wanted = None if rules is None else set(rules)
    return [(pid, info) for pid, info in registry.plugins.items()
            if wanted is None or pid in wanted or info.origin == "built-in"]


def _statements_of(registry: Any, rules: Iterable[str] | None) -> tuple[tuple[str, tuple[type, ...]], ...]:
    """The lines of the plugins the language speaks for, in registry order: their action
    classes with a GRAMMAR, then their STATEMENTS. The base language's own (the turn's
    `rolls`, `ends turn`) are not repeated."""
    out = []
    for pid, info in _speaking(registry, rules):
        classes = tuple(cls for cls in lines_of(info.obj) if cls not in A.BASE_LINES)
        if classes:
            out.append((pid, classes))
    return tuple(out)


def _reasons_of(registry: Any, rules: Iterable[str] | None) -> tuple[str, ...]:
    """The end reasons of the same plugins (a reason of a rule that is off is never met)."""
    return tuple(dict.fromkeys(reason for _, info in _speaking(registry, rules)
                               for reason in end_reasons_of(info.obj)))


def language_for(registry: Any = None, rules: Iterable[str] | None = None) -> Language:
    """The language of a game whose rules in play are `rules` (None: every installed plugin).

    The built-in rules' lines are always in it (a line of a rule that is off is refused when
    played, as docs/rules.md says); a third-party plugin's lines and words only where it is
    on. Made once per registry and set of lines, and kept by the registry.
    """
    if registry is None:
        from ..engine.registry import discover
        registry = discover()
    # by the rules asked for first: finding the lines of the plugins costs more than a
    # stepping game's whole setup (a new game asks for its language, and so does each line)
    asked = ("language of", None if rules is None else tuple(rules), len(registry.plugins))
    lang = registry.cache.get(asked)
    if lang is not None:
        return lang
    declared = _statements_of(registry, rules)
    reasons = _reasons_of(registry, rules)
    key = ("language", declared, reasons)
    lang = registry.cache.get(key)
    if lang is None:
        lang = registry.cache[key] = Language(declared, reasons)
    registry.cache[asked] = lang
    return lang


def statement_problems(registry: Any, pid: str, classes: tuple[type, ...],
                       label: str | None = None) -> list[str]:
    """Why a third-party plugin's statements may not join the language (empty: they may).

    Each GRAMMAR must be its own one-line statement (`fragment_problems`), the lines must fit
    the built-in language, and none may shadow a built-in line: every sample line of the
    base language and of the built-in rules must still parse as what it was.
    """
    label = label or f"plugin {pid}"
    classes = tuple(cls for cls in classes if cls not in A.BASE_LINES)  # the turn's, listed again
    if not classes:
        return []
    known = set(re.findall(r"^(_?[A-Z][A-Z_0-9]*)(?:\.\d+)?:", _base_grammar(), flags=re.M))
    _, problems = grammar_snippet(pid, classes, known)
    if problems:
        return [f"{label}: {problems[0]}"]
    builtin = _statements_of(registry, ())
    try:
        ours = language_for(registry, ())
        theirs = Language((*builtin, (pid, classes)))
    except PluginError as exc:
        return [f"{label}: {exc.message.partition(': ')[2]}"]
    for rule, line in _builtin_samples(ours):
        try:
            found = _rule_of(theirs.lark.parse(line + "\n"))
        except UnexpectedInput:
            found = ""
        if found == rule:
            continue
        cls = theirs.statements.get(found)
        if cls is None:
            return [f"{label}: its statements make the built-in line `{line}` unparseable"]
        return [f"{label}: its statement {cls.__name__} ({cls.GRAMMAR!r}) shadows the built-in "  # type: ignore[attr-defined]
                f"line `{line}`; a plugin's line may not take the place of one of the language"]
    return []


def _line_problems(registry: Registry, info: PluginInfo) -> list[str]:
    """The check of a third-party plugin's lines that the registry asks at load: they join
    the language only where it is on, but a line that is more than its own statement, or
    takes a built-in line's place, is refused now (docs/plugins.md)."""
    return statement_problems(registry, info.id, lines_of(info.obj),
                              f"plugin {info.id} ({info.origin})")



def _rule_of(tree: Any) -> str:
    """The lark rule of a one-line script's statement."""
    return str(tree.children[0].data) if tree.children else ""


def _builtin_samples(lang: Language) -> list[tuple[str, str]]:
    """(lark rule, line) for lines of every base statement and built-in rule's statement,
    each checked to parse as that rule in the built-in language `lang` (made once)."""
    if lang.samples is not None:
        return lang.samples
    base = _base_grammar()
    rules = dict(re.findall(r"^([a-z][a-z_]*): (.+)$", base, flags=re.M))
    statement = re.search(r"^_statement: ((?:.|\n)*?)\n\n", base, flags=re.M)
    names = [n for n in re.findall(r"[a-z_]+", statement.group(1) if statement else "")]
    wanted = [(name, rules[name]) for name in names if name in rules]
    for name, cls in lang.statements.items():
        wanted.append((name, line_prefix(cls) + cls.GRAMMAR))  # type: ignore[attr-defined]
    out: list[tuple[str, str]] = []
    for name, body in wanted:
        for line in samples(body, rules):
            try:
                if _rule_of(lang.lark.parse(line + "\n")) == name:
                    out.append((name, line))
            except UnexpectedInput:
                continue
    lang.samples = out
    return out


def _phrase(cls: Any) -> str:
    """How a statement's verb reads in a list of actions: its whole form when the form has
    no value to fill in (`goes bankrupt`), else its verb (`sells` for `P sells SPACE ...`)."""
    words = cls.FORMS[0].strip("`").split()[1:] if cls.FORMS else []
    if not words:
        return cls.__name__.lower()
    return " ".join(words) if all(w.islower() for w in words) else words[0]


def _culprit(base: str, declared: tuple[tuple[str, tuple[type, ...]], ...]) -> str:
    """The first plugin whose statements break the grammar built with those before it."""
    known = set(re.findall(r"^(_?[A-Z][A-Z_0-9]*)(?:\.\d+)?:", base, flags=re.M))
    grammar = base + "\n" + grammar_snippet("base", A.BASE_LINES, known, base=True)[0]
    from lark import Lark  # building grammars is lark's, and this runs once a plugin failed

    for pid, classes in declared:
        snippet, _ = grammar_snippet(pid, classes, known)
        try:
            Lark(grammar + "\n" + snippet, parser="lalr", lexer="contextual")
        except Exception:
            return pid
        grammar += "\n" + snippet
    return declared[-1][0] if declared else "?"


_PLAYER_FORMS = ("cash", "at", "worth", "houses", "bankrupt")
_SPACE_FORMS = ("owner", "houses", "mortgaged", "unmortgaged")

MONEY_WORDS = "a money amount such as 600 or $1,100"
LINE_START_WORDS = "a player name, `expect`, or a header statement such as `players`"
UNTERMINATED = 'unterminated string: a quoted name must end with " on the same line'

_TERMINAL_WORDS = {
    "NAME": "a player name",
    "STRATEGY": "a strategy such as :greedy",
    "STRING": "a quoted name",
    "INT": "a number",
    "MONEY": MONEY_WORDS,
    "VARIANT_NAME": "a variant name such as standard",
    "RULE_ID": "a rule such as R13 or four_sides",
    "OPTION_KEY": "an option name such as end.max_turns",
    "OPTION_WORD": "an option value (a word, a number or a quoted text)",
    "_NL": "the end of the line",
}

_WORD = re.compile(r"[^\W\d_]\w*")
_PIECE = re.compile(r'"[^"\n]*"?|[^\s"#]+')
_MAX_DIGITS = 30
MAX_SCRIPT_BYTES = 1 << 20   # 1 MiB: a recorded 1,000-turn game takes about 50 kB
MAX_MONEY = 1_000_000_000    # any amount of money written in a script
MAX_NAME = 100               # a player, strategy, rule, option or variant name (it is
                             # repeated in every event of a transcript)
MAX_QUOTED = 4096            # a quoted space name, card text or file path


class _Fail(Exception):
    """A syntax error found while building the dataclasses, before it is located in a file."""

    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


def _at(tok: Token, message: str) -> _Fail:
    return _Fail(message, tok.line or 1, tok.column or 1)


def _close(word: str, choices) -> str | None:
    import difflib  # here, not at import: only a mistake needs it
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def _words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


# ---------------------------------------------------------------- values

def number_problem(text: str, what: str = "a whole number") -> str | None:
    """Why `text` is not a whole number a script may write (None: it is one)."""
    if not text.isdigit() or not text.isascii():
        return f"expected {what}, found '{_clip(text)}'"
    if len(text) > _MAX_DIGITS:
        return (f"number too large: found '{text[:12]}...' ({len(text)} digits); "
                f"expected at most {_MAX_DIGITS} digits")
    return None


def _int(tok: Token, what: str = "a whole number") -> int:
    text = str(tok)
    problem = number_problem(text, what)
    if problem is not None:
        raise _at(tok, problem)
    return int(text)


def _money(tok: Token) -> int:
    text = str(tok)
    digits = text[1:] if text.startswith("$") else text
    if "." in digits:
        raise _at(tok, f"money is whole dollars, found '{_clip(text)}'")
    if "," in digits:
        if not re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})+", digits):
            raise _at(tok, f"malformed amount '{_clip(text)}': after a comma come exactly three "
                           "digits, e.g. $1,100")
        digits = digits.replace(",", "")
    if not digits.isdigit() or not digits.isascii():
        raise _at(tok, f"expected {MONEY_WORDS}, found '{_clip(text)}'")
    if len(digits) > _MAX_DIGITS or int(digits) > MAX_MONEY:
        raise _at(tok, f"amount too large: found '{_clip(text)}'; expected at most "
                       f"$1,000,000,000 (the limit on money)")
    return int(digits)


def _name(tok: Token, what: str = "a name") -> str:
    text = str(tok)
    if len(text) > MAX_NAME:
        raise _at(tok, _too_long(text, what))
    return text


def _too_long(text: str, what: str) -> str:
    return (f"name too long: found '{_clip(text)}' ({len(text)} characters); expected {what} "
            f"of at most {MAX_NAME} characters (the limit on names)")


def _keyword_name(name: str) -> str:
    return f"'{name}' is a keyword and cannot be a player name"


def _listed_twice(name: str) -> str:
    return f"player '{_clip(name)}' is listed twice"


def _text(tok: Token, what: str | None) -> str:
    """The content of a quoted string; `what` names it when it may not be empty."""
    if len(tok) - 2 > MAX_QUOTED:
        raise _at(tok, f"quoted text too long: found '{_clip(str(tok))}' ({len(tok) - 2} "
                       f"characters); expected at most {MAX_QUOTED} characters (the limit on "
                       f"quoted text)")
    content = str(tok)[1:-1]
    if what is not None and not content.strip():
        raise _at(tok, f"{what} cannot be empty")
    return content


def _player(tok: Token) -> str:
    return _name(tok, "a player name")


def _value(child: Any, reserved: frozenset[str], what: str | None = None) -> Any:
    """A terminal of a plugin's statement as its field's value (`what` names it in messages)."""
    if not isinstance(child, Token):
        return child  # a SpaceRef, or None for an absent optional part
    kind = child.type
    if kind == "NAME":
        if str(child) in reserved:
            raise _at(child, _keyword_name(str(child)))
        return _player(child)
    if kind == "MONEY":
        return _money(child)
    if kind == "INT":
        return _int(child, what or "a whole number")
    if kind == "STRING":
        return _text(child, what or "a quoted text")
    return str(child)


# ---------------------------------------------------------------- tree -> dataclasses

def _pos(meta) -> dict[str, int]:
    return {"line": meta.line, "column": meta.column}


@v_args(meta=True)
class _ToAst(Transformer):
    """Turns each statement's subtree into its dataclass (bottom-up, in one pass)."""

    def __init__(self, language: Language) -> None:
        super().__init__()
        self.language = language

    def start(self, meta, children):
        return children

    def __default__(self, data, children, meta):
        """A line of a class (the base language's or a rule's): its terminals' values, in
        order, are the class's line fields; an action's class gives an `ActionLine`."""
        cls: Any = self.language.statements.get(str(data))
        if cls is None:
            return super().__default__(data, children, meta)
        texts = [str(child) for child in children if child is not None]
        problem = cls.check_line(texts)
        if problem is not None:
            index, message = problem
            bad = [child for child in children if child is not None][index]
            raise _Fail(message, bad.line or 1, bad.column or 1)
        wanted = cls.line_fields()
        what = cls.WHAT
        # the base lines were read before the rules could add keywords: a keyword there is
        # an unknown player when the line is played, as it always was
        reserved = frozenset() if cls in self.language.base else self.language.reserved
        fills = list(wanted) + list(wanted[-1:]) * len(children)
        values = [self._value(child, reserved, what.get(name))
                  for child, name in zip(children, fills)]
        if issubclass(cls, Action):
            return A.ActionLine(cls, cls.line_values(values), **_pos(meta))
        return cls(*cls.line_values(values), **_pos(meta))

    def _value(self, child: Any, reserved: frozenset[str], what: str | None) -> Any:
        if isinstance(child, Token) and child.type == "REASON":
            reason = str(child)
            reasons = self.language.reasons
            if reason not in reasons:
                hint = _close(reason, reasons)
                raise _at(child, f"expected {self.language.reason_words()}, found "
                                 f"'{_clip(reason)}'" + (f" (did you mean '{hint}'?)" if hint
                                                         else ""))
            return reason
        return _value(child, reserved, what)

    def dice(self, meta, children):
        """Two dice of a plugin's throw (a `Dice` field): each a number from 1 to 6."""
        values = tuple(_int(tok, "a die") for tok in children)
        for tok, value in zip(children, values):
            if not 1 <= value <= 6:
                raise _at(tok, f"a die is a number from 1 to 6, found '{tok}'")
        return values

    def space(self, meta, children):
        (tok,) = children
        if tok.type == "STRING":
            return A.SpaceRef(_text(tok, "a space name"), None, line=tok.line, column=tok.column)
        return A.SpaceRef(None, _int(tok, "a space number"), line=tok.line, column=tok.column)

    # header
    def variant(self, meta, children):
        (tok,) = children
        if tok.type == "STRING":
            return A.VariantStmt(None, _text(tok, "a variant file path"), **_pos(meta))
        return A.VariantStmt(_name(tok, "a variant name"), None, **_pos(meta))

    def rule_on(self, meta, children):
        return A.RuleSwitch(True, _name(children[0], "a rule"), **_pos(meta))

    def rule_off(self, meta, children):
        return A.RuleSwitch(False, _name(children[0], "a rule"), **_pos(meta))

    def option(self, meta, children):
        key, value = children
        raw = _text(value, None) if value.type == "STRING" else str(value)
        if value.type != "STRING" and raw.startswith("=") and len(raw) > 1:
            # `--option KEY=VALUE` on the command line is `option KEY VALUE` in a script
            raise _at(value, f"option {key}: found {raw!r}; an option is written with a "
                             f"space, not '=' (write it `option {key} {raw[1:]}`)")
        return A.OptionStmt(_name(key, "an option name"), raw, **_pos(meta))

    def player_decl(self, meta, children):
        name, strategy = children
        if str(name) in self.language.reserved:
            raise _at(name, _keyword_name(str(name)))
        if strategy is not None:
            if strategy.column != name.end_column or strategy.line != name.line:
                raise _at(strategy, f"write a player's strategy without spaces, e.g. "
                                    f"`{_clip(str(name))}{strategy}`")
            # a program's command, or a policy's file, may be longer than a name
            strategy = (str(strategy)[1:] if str(strategy).startswith((":exec:", ":policy:"))
                        else _name(strategy, "a strategy")[1:])
        return A.PlayerDecl(_player(name), strategy, line=name.line, column=name.column)

    def players(self, meta, children):
        seen: set[str] = set()
        for decl in children:
            if decl.name in seen:
                raise _Fail(_listed_twice(decl.name), decl.line, decl.column)
            seen.add(decl.name)
        return A.PlayersStmt(tuple(children), **_pos(meta))

    def seed(self, meta, children):
        return A.SeedStmt(_int(children[0], "a whole number as the seed"), **_pos(meta))

# ---------------------------------------------------------------- lark errors -> words

def _code(text: str) -> str:
    """The line without its comment and trailing spaces (a `#` inside quotes stays)."""
    end = pos = 0
    while pos < len(text) and text[pos] != "#":
        match = _PIECE.match(text, pos)
        if match:
            end = pos = match.end()
        else:
            pos += 1
    return text[:end]


def canonical_spacing(line: str) -> str:
    """`line` with one space between its words, numbers and quoted names: how a line is
    written canonically (a record writes nothing else)."""
    return " ".join(piece for _, piece in _pieces(_code(line)))


def _pieces(code: str) -> list[tuple[int, str]]:
    """(column, text) of each word, number or quoted string of a comment-free line."""
    return [(m.start() + 1, m.group()) for m in _PIECE.finditer(code)]


def _show(piece: str | None) -> str:
    if piece is None:
        return "the end of the line"
    if not piece.isprintable():
        return repr(_clip(piece))
    return f"'{_clip(piece)}'"


def _describe(lang: Language, expected: set[str], pieces: list[tuple[int, str]]) -> str:
    names = sorted(expected, key=lambda name: (lang.order.get(name, 999), name))
    items: list[str] = []
    if "STRING" in expected and "INT" in expected:
        items.append("a space (its quoted name or its board number)")
        names = [n for n in names if n not in ("STRING", "INT")]
    if "NAME" in expected:
        names = [n for n in names if n != "STRATEGY"]
    words = [text for _, text in pieces]
    for name in names:
        if name in lang.keywords:
            items.append(f"`{lang.keywords[name]}`")
        elif name == "STRING" and "VARIANT_NAME" in expected:
            continue
        elif name == "VARIANT_NAME":
            items.append("a variant name such as standard or a quoted file path")
        elif name == "STRING" and "OPTION_WORD" in expected:
            continue
        elif name == "STRING" and len(words) > 1 and words[1] == "draws":
            items.append("a card's quoted text such as \"Take $500\"")
        elif name == "INT" and len(words) > 1 and words[1] == "rolls":
            if len(words) < 4:  # `Ann rolls 3 4 x`: a third die is not what is missing
                items.append("a die (a number from 1 to 6)")
        else:
            items.append(lang.reason_words() if name == "REASON"
                         else _TERMINAL_WORDS.get(name, name.lower().strip("_")))
    # Keep the end of the line last: "expected `on` or the end of the line".
    if "the end of the line" in items:
        items.remove("the end of the line")
        items.append("the end of the line")
    return _words(items) if items else "nothing more"


def _accepted(err: UnexpectedInput) -> set[str]:
    """The terminals that could really come next.

    LALR merges the look-aheads of states it shares between contexts (after a space, the
    table also lists `to` and `owner`), so ask the parser which terminals it would shift.
    """
    interactive = getattr(err, "interactive_parser", None)
    if interactive is not None:
        accepted = set(interactive.accepts())
    else:
        accepted = set(getattr(err, "allowed", None) or getattr(err, "expected", None) or ())
    accepted.discard("$END")
    return accepted


def _diagnose(lang: Language, err: UnexpectedInput, lines: tuple[str, ...]) -> _Fail:
    line = max(1, min(getattr(err, "line", 1) or 1, max(len(lines), 1)))
    text = lines[line - 1] if lines else ""
    code = _code(text)
    col = getattr(err, "column", 1) or 1
    expected = _accepted(err)
    if isinstance(err, UnexpectedCharacters):
        if col - 1 < len(text) and text[col - 1] == '"':
            return _Fail(UNTERMINATED, line, col)
    elif isinstance(err, UnexpectedToken):
        if err.token.type in ("_NL", "$END"):
            col = len(code) + 1
    else:  # UnexpectedEOF cannot happen (the text always ends with a newline), but be safe.
        line, text = max(len(lines), 1), (lines[-1] if lines else "")
        code = _code(text)
        col = len(code) + 1
    match = _PIECE.match(code, col - 1) if col - 1 < len(code) else None
    found = match.group() if match else (code[col - 1] if col - 1 < len(code) else None)
    is_word = found is not None and _WORD.fullmatch(found) is not None
    pieces = _pieces(code[:col - 1])
    prev_col, prev = pieces[-1] if pieces else (col, "")

    def fail(message: str, at: int = col) -> _Fail:
        return _Fail(message, line, at)

    # `Ann buy`, `Ann roll 3 4`, `seeed 7`: right after the word that starts the line.
    if "_ROLLS" in expected:
        if is_word and (verb := _close(found or "", lang.verbs)):
            return fail(f"unknown action '{found}': did you mean '{verb}'?")
        if keyword := _close(prev, LINE_KEYWORDS):
            hint = "keywords are lower case; " if prev.lower() == keyword else ""
            return fail(f"unknown keyword '{prev}': {hint}did you mean '{keyword}'?", prev_col)
        if is_word:
            verbs = _words(list(lang.phrases))
            return fail(f"unknown action '{_clip(found or '')}': expected {verbs}")
        if prev[:1].islower():
            return fail(f"unknown keyword '{_clip(prev)}': expected {LINE_START_WORDS}", prev_col)
        return fail(f"expected an action after '{_clip(prev)}', such as `rolls`, `buys` or `bids`, "
                    f"found {_show(found)}")
    if "_WINNER" in expected:
        return fail(f"unknown `expect` form, found {_show(found)}; the forms are "
                    + ", ".join(lang.expect_forms))
    first = pieces[0][1] if pieces else ""
    for forms, subject, intro in ((_PLAYER_FORMS, "a player", "`expect P "),
                                  (_SPACE_FORMS, "a space", "`expect SPACE ")):
        if first == "expect" and {lang.by_word[form] for form in forms} <= expected:
            if is_word and (keyword := _close(found or "", forms)):
                return fail(f"unknown `expect` form '{found}': did you mean '{keyword}'?")
            if subject == "a player" and (keyword := _close(prev, lang.expect_keywords)):
                hint = "keywords are lower case; " if prev.lower() == keyword else ""
                return fail(f"unknown `expect` form '{prev}': {hint}did you mean '{keyword}'?",
                            prev_col)
            shown = [form for form in lang.expect_forms if form.startswith(intro)]
            return fail(f"unknown `expect` form, found {_show(found)}; after {subject} the "
                        f"forms are " + ", ".join(shown))
    if "_PLAYERS" in expected:
        return fail(f"expected {LINE_START_WORDS}, found {_show(found)}")
    if expected == {"NAME"} and found is None and prev == "players":
        return fail("`players` needs at least one player name, e.g. `players Ann Bob`")
    if "STRATEGY" in expected and found is not None and found.startswith(":"):
        return fail("expected a strategy name after ':', e.g. `Bob:greedy`")
    if first == "setup" and "_CASH" in expected and len(pieces) == 2 \
            and (keyword := _close(prev, lang.setup_words)):
        return fail(f"unknown `setup` form '{prev}': did you mean '{keyword}'?", prev_col)
    message = f"expected {_describe(lang, expected, pieces)}, found {_show(found)}"
    keywords = [lang.keywords[name] for name in expected if name in lang.keywords]
    if is_word and (keyword := _close(found or "", sorted(keywords))):
        message += f" (did you mean '{keyword}'?)"
    return fail(message)


# ---------------------------------------------------------------- whole scripts

def _keyword_of(stmt) -> str:
    if isinstance(stmt, A.RuleSwitch):
        return "with" if stmt.enable else "without"
    return {A.VariantStmt: "variant", A.OptionStmt: "option", A.PlayersStmt: "players",
            A.SeedStmt: "seed"}.get(type(stmt), "setup")


def _split(statements: list) -> tuple[tuple, tuple]:
    header: list = []
    body: list = []
    first_of: dict[type, Any] = {}
    autoplay = None
    first_action = None  # the header ends there; `expect` lines may come before it (the spec)
    for stmt in statements:
        if isinstance(stmt, A.HEADER_TYPES) or isinstance(stmt, SetupStatement):
            keyword = _keyword_of(stmt)
            if first_action is not None:
                raise _Fail(f"header statement `{keyword}` must come before the first action "
                            f"(line {first_action.line})", stmt.line, stmt.column)
            if isinstance(stmt, (A.PlayersStmt, A.VariantStmt, A.SeedStmt)):
                if type(stmt) in first_of:
                    raise _Fail(f"`{keyword}` given twice (first at line "
                                f"{first_of[type(stmt)].line})", stmt.line, stmt.column)
                first_of[type(stmt)] = stmt
            header.append(stmt)
            continue
        if autoplay is not None and not isinstance(stmt, A.EXPECTATION_TYPES + (Expectation,)):
            raise _Fail(f"only `expect` lines may follow `autoplay` (line {autoplay.line})",
                        stmt.line, stmt.column)
        if isinstance(stmt, A.Autoplay):
            autoplay = stmt
        if first_action is None and not isinstance(stmt, A.EXPECTATION_TYPES):
            first_action = stmt
        body.append(stmt)
    return tuple(header), tuple(body)


def _too_large(size: int | None, filename: str) -> ScriptSyntaxError:
    found = f"more than {MAX_SCRIPT_BYTES}" if size is None else str(size)
    return ScriptSyntaxError(f"script too large: found {found} bytes; expected at most "
                             f"{MAX_SCRIPT_BYTES} bytes (1 MiB, the limit on a script)",
                             file=filename)


# the header lines that say which rules are in play: read before the rest of the script
_RULE_LINE = re.compile(r"[ \t\f\v]*(variant|with|without|option)\b")


def parse(text: str, filename: str = "<script>", registry: Any = None,
          rules: Iterable[str] | None = None, *, enable: Sequence[str] = (),
          disable: Sequence[str] = (), options: Sequence[str] = ()) -> A.Script:
    """Parse a script's text; raise ScriptSyntaxError on any mistake in it.

    The language is that of the rules in play (`language_for`): `rules`, or else those the
    script's header names (its `variant`, `with`, `without` and `option` lines are read
    first, with the built-in language, and the variant loaded), with the command line's
    `enable`, `disable` and `options` applied on top, as the runner does. A script whose variant
    cannot be loaded is parsed with every installed plugin's lines; when the rest does not
    parse, the variant's error is the one raised (the runner raises it otherwise).
    `registry` defaults to what `easymoney.engine.registry.discover` finds."""
    if registry is None:
        from ..engine.registry import discover
        registry = discover()
    if len(text) * 4 > MAX_SCRIPT_BYTES:  # only then can its UTF-8 form be too large
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_SCRIPT_BYTES:
            raise _too_large(size, filename)
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = tuple(text.split("\n"))
    if lines[-1] == "":
        lines = lines[:-1]
    problem: EasyMoneyError | None = None
    switches = (tuple(enable), tuple(disable), tuple(options))
    loaded = None
    if rules is None:
        rules, problem, loaded = _rules_of_header(lines, filename, registry, switches)
    lang = language_for(registry, rules)
    try:
        header, body = _statements(lang, text, lines)
    except _Fail as fail:
        if problem is not None:  # a variant that cannot be loaded is the first mistake
            raise ScriptSyntaxError(problem.message, file=problem.file or filename,
                                    line=problem.line, col=problem.col,
                                    source_line=problem.source_line) from None
        source = lines[fail.line - 1] if 0 < fail.line <= len(lines) else ""
        message = (_off_rule_line(registry, lang, source) if rules is not None else None) \
            or fail.message
        raise ScriptSyntaxError(message, file=filename, line=fail.line, col=fail.col,
                                source_line=source) from None
    return A.Script(filename, lines, header, body, language=lang.plugins,
                    header_variant=None if loaded is None else (switches, registry, loaded))


def _statements(lang: Language, text: str, lines: tuple[str, ...]) -> tuple[tuple, tuple]:
    try:
        tree = lang.lark.parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as err:
        raise _diagnose(lang, err, lines) from None
    try:
        statements = lang.transformer.transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, _Fail):
            raise err.orig_exc from None
        raise
    return _split(statements)


def _rules_of_header(lines: tuple[str, ...], filename: str, registry: Any,
                     switches: tuple[tuple[str, ...], ...],
                     ) -> tuple[tuple[str, ...] | None, EasyMoneyError | None, Any]:
    """The rules in play by the script's header (None, and why, when they cannot be known),
    and the variant loaded to know them (None when it was not: the runner loads it)."""
    picked = [line if _RULE_LINE.match(line) else "" for line in lines]
    # a built-in variant's name (no path): the same header always gives the same rules
    builtin = all(re.match(r"\s*variant\s+[A-Za-z_][A-Za-z0-9_-]*\s*(#.*)?$", line)
                  for line in picked if re.match(r"\s*variant\b", line))
    key: tuple[Any, ...] = ("header rules", switches,
                            *[line for line in picked if line]) if builtin else ()
    found = registry.cache.get(key) if key else None
    if found is not None:
        return found, None, None
    try:
        header, _ = _statements(language_for(registry, ()), "\n".join(picked) + "\n", lines)
    except _Fail:
        return None, None, None  # the whole script's parse says what is wrong, and where
    from .header import variant_of_header
    try:
        variant = variant_of_header(A.Script(filename, lines, header, ()), registry, *switches)
    except EasyMoneyError as exc:
        return None, exc, None
    rules = tuple(variant.rules)
    if key:
        registry.cache[key] = rules
    return rules, None, variant


def _off_rule_line(registry: Any, lang: Language, line: str) -> str | None:
    """When `line` is a line of an installed plugin that is not in play, say so."""
    try:
        everything = language_for(registry)
        if everything.plugins == lang.plugins:
            return None
        header, body = _statements(everything, line + "\n", (line,))
    except (_Fail, PluginError):
        return None
    for stmt in header + body:
        for pid, classes in everything.declared:
            if _class_of(stmt) in classes and pid not in lang.plugins:
                return (f"'{_clip(_code(line).strip())}' is a line of the rule '{pid}', which is "
                        f"off in this game (switch it on with `with {pid}`)")
    return None


def _class_of(stmt: Any) -> type:
    """The class that declares a statement's line (an action's, for an ActionLine)."""
    return stmt.kind if isinstance(stmt, A.ActionLine) else type(stmt)


def parse_bytes(data: bytes, filename: str = "<script>", *, enable: Sequence[str] = (),
                disable: Sequence[str] = (), options: Sequence[str] = ()) -> A.Script:
    """Parse a script given as bytes, which must be UTF-8 (a byte-order mark is allowed)."""
    if len(data) > MAX_SCRIPT_BYTES:
        # a reader that stops one byte past the limit (standard input) knows no more than that
        raise _too_large(None if len(data) == MAX_SCRIPT_BYTES + 1 else len(data), filename)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        start = data.rfind(b"\n", 0, err.start) + 1
        end = data.find(b"\n", err.start)
        raw_line = data[start:] if end < 0 else data[start:end]
        col = len(data[start:err.start].decode("utf-8", errors="replace")) + 1
        raise ScriptSyntaxError(
            f"the script is not UTF-8 text (byte 0x{data[err.start]:02x}); save it as UTF-8",
            file=filename, line=data.count(b"\n", 0, err.start) + 1, col=col,
            source_line=raw_line.decode("utf-8", errors="replace").rstrip("\r")) from None
    return parse(text, filename, enable=enable, disable=disable, options=options)


def parse_file(path: str | os.PathLike[str], *, enable: Sequence[str] = (),
               disable: Sequence[str] = (), options: Sequence[str] = ()) -> A.Script:
    """Read and parse a `.game` file; an unreadable file is a ScriptSyntaxError too.

    `enable`, `disable`, `options`: the command line's switches, as `parse` takes them."""
    filename = os.fspath(path)
    try:
        # a FIFO would block forever and a device might never end: only a file is a script
        if not stat.S_ISREG(os.stat(filename).st_mode) and not os.path.isdir(filename):
            raise ScriptSyntaxError("cannot read the script: not a regular file; expected a "
                                    ".game file (or - to read standard input)", file=filename)
        with open(filename, "rb") as handle:
            data = handle.read(MAX_SCRIPT_BYTES + 1)  # /dev/zero must not fill the memory
            if len(data) > MAX_SCRIPT_BYTES:
                size = os.fstat(handle.fileno()).st_size
                raise _too_large(size if size > MAX_SCRIPT_BYTES else None, filename)
    except OSError as err:
        raise ScriptSyntaxError(f"cannot read the script: {err.strerror or err}",
                                file=filename) from None
    return parse_bytes(data, filename, enable=enable, disable=disable, options=options)


# last: it checks the plugins found before this import at once, with this whole module
add_declaration_check(_line_problems)
