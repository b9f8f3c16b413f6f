"""A line said once: `LINE = "{player} lends {borrower} {amount}"` on an action or statement
class gives its grammar, its keywords, the forms messages list, its fields in order and
`str()`, so that a line reads back as itself by construction.

A template is words and fields, with optional parts in brackets:

    {field}      a field of the class, read and written by its annotated type:
                 Player or PlayerName  a player's name          NAME
                 Space or SpaceRef     a quoted name or number  space
                 Money                 an amount (600, $1,100)  MONEY
                 int                   a count                  INT
                 str                   a quoted text            STRING
                 Literal["a", "b"]     one of these words       a | b
                 bool                  the field's name as a word, present or not (in brackets)
    word         a keyword (lower-case letters)
    (a | b)      one of these keywords; `str()` writes the first
    [ ... ]      an optional part: absent, its fields take their defaults; `str()` leaves it
                 out when they have them

`GRAMMAR` and `__str__` stay for the rare line a template cannot say (`Roll`'s optional
dice): a class declares one or the other.
"""

from __future__ import annotations

import ast
import re
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass
from typing import Annotated, Any

from ..precompiled import code_of
from .values import quoted

# the annotations a template reads (Annotated keeps them plain ints and strs to a type checker)
Money = Annotated[int, "money"]  # an action's amount a person writes, on R30's grid (an int)
PlayerName = Annotated[str, "player"]  # a statement's player, by the name its line gives (a str)
# two dice, `3 4` in a line: the field a plugin's own throw fills by chance (`game.chance`)
Dice = Annotated[tuple[int, int], "dice"]

_TOKEN = re.compile(r"\s*(?:\{([A-Za-z_][A-Za-z_0-9]*)\}|([a-z]+)|([\[\]()|]))")
# a field's type -> (the terminal that reads it, the placeholder messages write for it)
_TERMINALS = {"Player": ("NAME", "P"), "PlayerName": ("NAME", "P"), "Space": ("space", "SPACE"),
              "SpaceRef": ("space", "SPACE"), "Money": ("MONEY", "MONEY"), "int": ("INT", "N"),
              "str": ("STRING", None), "Dice": ("dice", "D1 D2")}
_PLAYERS = "PQRSTUVW"


class LineError(Exception):
    """A template that cannot be a line: its message names the class."""


@dataclass(frozen=True)
class Template:
    """What a LINE declares, derived once per class."""

    grammar: str                     # the right-hand side of the lark rule
    words: tuple[str, ...]           # its keywords (terminals `_WORD`, dropped from the tree)
    kept: tuple[str, ...]            # words that are values (a Literal's, a flag's): `WORD`
    forms: tuple[str, ...]           # `P lends Q MONEY`, with and without each optional part
    fields: tuple[str, ...]          # the fields the line's values give, in order
    flags: tuple[str, ...]           # the bool fields: true when their word is written
    printer: Callable[[Any], str]    # str() of an instance


@dataclass
class _Field:
    name: str
    kind: str                        # a key of _TERMINALS, "literal" or "bool"
    words: tuple[str, ...] = ()      # a Literal's words


def compile_line(cls: type, line: str, prefix: str = "") -> Template:
    """The Template of `cls` declaring `LINE = line`; `prefix` is the keyword a statement's
    line starts with (`expect `), written by str() and in forms but not in the grammar.
    Raises LineError naming the class."""
    name = cls.__name__
    annotations = _annotations(cls)
    tokens = _tokens(line, name)
    defaults = _defaults(cls)
    grammar: list[str] = []
    words: list[str] = []
    kept: list[str] = []
    fields: list[str] = []
    flags: list[str] = []
    code: list[str] = []            # the printer's pieces, as Python expressions
    form_parts: list[Any] = []      # text, or ("opt", [text...]) for an optional part
    stack: list[tuple[list[str], list[Any], list[str]]] = []
    players = iter(_PLAYERS)
    pos = 0
    while pos < len(tokens):
        kind, text = tokens[pos]
        pos += 1
        if kind == "field":
            if text not in annotations:
                raise LineError(f"{name}.LINE names {{{text}}}, which is not a field of "
                                f"{name} (its fields: {', '.join(annotations) or 'none'})")
            if text in fields:
                raise LineError(f"{name}.LINE names {{{text}}} twice")
            fld = _field(name, text, annotations[text])
            fields.append(text)
            if fld.kind == "literal":
                kept += [w for w in fld.words if w not in kept]
                grammar.append("(" + " | ".join(w.upper() for w in fld.words) + ")")
                code.append(f"str(self.{text})")
                form_parts.append(("alt", list(fld.words)))
            elif fld.kind == "bool":
                if not stack:
                    raise LineError(f"{name}.LINE: the flag {{{text}}} stands in brackets "
                                    f"([{{{text}}}]): it is its word, present or not")
                if text not in kept:
                    kept.append(text)
                flags.append(text)
                grammar.append(text.upper())
                code.append(f"({text!r} if self.{text} else '')")
                form_parts.append(text)
            else:
                terminal, placeholder = _TERMINALS[fld.kind]
                grammar.append(terminal)
                if fld.kind in ("Space", "SpaceRef"):
                    code.append(f"quoted(self.{text})")
                elif fld.kind == "Dice":
                    code.append(f"' '.join(map(str, self.{text}))")
                elif fld.kind == "str":
                    code.append(f"'\"' + self.{text} + '\"'")
                else:
                    code.append(f"str(self.{text})")
                if placeholder == "P":
                    placeholder = next(players, "P")
                form_parts.append(placeholder or f'"{text.upper()}"')
        elif kind == "word":
            if text not in words:
                words.append(text)
            grammar.append("_" + text.upper())
            code.append(repr(text))
            form_parts.append(text)
        elif text == "(":
            alternatives, end = _alternatives(tokens, pos, name)
            pos = end
            for w in alternatives:
                if w not in words:
                    words.append(w)
            grammar.append("(" + " | ".join("_" + w.upper() for w in alternatives) + ")")
            code.append(repr(alternatives[0]))
            form_parts.append(alternatives[0])
        elif text == "[":
            stack.append((code, form_parts, fields[:]))
            grammar.append("[")
            code, form_parts = [], []
        elif text == "]":
            if not stack:
                raise LineError(f"{name}.LINE: a ']' closes no '['")
            inner_code, inner_forms = code, form_parts
            code, form_parts, before = stack.pop()
            grammar.append("]")
            inside = fields[len(before):]
            if not inside:
                raise LineError(f"{name}.LINE: an optional part [...] holds no field")
            for f in inside:
                if f not in defaults:
                    raise LineError(f"{name}.LINE: {{{f}}} is in an optional part, so it needs "
                                    f"a default (`{f}: ... = None`)")
            present = " and ".join(f"self.{f} != {defaults[f]!r}" for f in inside)
            code.append(f"((' '.join(x for x in ({', '.join(inner_code)},) if x)) if {present} "
                        f"else '')")
            form_parts.append(("opt", inner_forms))
        else:
            raise LineError(f"{name}.LINE: unexpected {text!r}")
    if stack:
        raise LineError(f"{name}.LINE: a '[' is not closed")
    if not fields and not words:
        raise LineError(f"{name}.LINE is empty")
    return Template(" ".join(grammar).replace("[ ", "[").replace(" ]", "]"), tuple(words),
                    tuple(kept), tuple(f"`{prefix}{f}`" for f in _forms(form_parts)),
                    tuple(fields), tuple(flags), _printer(name, prefix, code))


def _tokens(line: str, name: str) -> list[tuple[str, str]]:
    if not isinstance(line, str):
        raise LineError(f"{name}.LINE must be a string, found {line!r}")
    out: list[tuple[str, str]] = []
    pos, text = 0, line.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            bad = text[pos:].split()[0] if text[pos:].split() else text[pos:]
            raise LineError(f"{name}.LINE may hold {{field}}s, lower-case words and [ ] ( | ); "
                            f"found {bad!r}")
        field_, word, mark = match.groups()
        out.append(("field", field_) if field_ else ("word", word) if word else ("mark", mark))
        pos = match.end()
    return out


def _alternatives(tokens: list[tuple[str, str]], pos: int, name: str) -> tuple[list[str], int]:
    """`(a | b)`: its words, and the position after the `)`."""
    words: list[str] = []
    while pos < len(tokens):
        kind, text = tokens[pos]
        pos += 1
        if kind == "word":
            words.append(text)
        elif text == ")":
            if len(words) < 2:
                break
            return words, pos
        elif text != "|":
            break
    raise LineError(f"{name}.LINE: ( ) holds words separated by |, as (houses | house)")


def _forms(parts: list[Any]) -> list[str]:
    """The ways to write the line: each alternative word, and with one optional part, the
    line without it and with it; with more, each in brackets (`[N houses] [mortgaged]`)."""
    several = sum(isinstance(p, tuple) and p[0] == "opt" for p in parts) > 1
    out = [""]
    for part in parts:
        if isinstance(part, tuple) and part[0] == "alt":
            out = [f"{a} {w}".strip() for a in out for w in part[1]]
        elif isinstance(part, tuple) and several:
            out = [f"{a} [{b}]".strip() for a in out for b in _forms(part[1])]
        elif isinstance(part, tuple):
            inner = _forms(part[1])
            out = out + [f"{a} {b}".strip() for a in out for b in inner]
        else:
            out = [f"{a} {part}".strip() for a in out]
    return list(dict.fromkeys(out))


def _printer(name: str, prefix: str, code: list[str]) -> Callable[[Any], str]:
    """str() of the class, one expression: what `--record` calls for every line."""
    body = f"' '.join(x for x in ({', '.join(code)},) if x)"
    if prefix:
        body = f"{prefix!r} + {body}"
    namespace: dict[str, Any] = {"quoted": quoted}
    exec(code_of(f"def __str__(self):\n    return {body}\n"), namespace)  # noqa: S102 - our own text
    printer = namespace["__str__"]
    printer.__qualname__ = f"{name}.__str__"
    return typing.cast(Callable[[Any], str], printer)


def money_fields(cls: type) -> tuple[str, ...]:
    """The fields of `cls` annotated `Money`: the amounts a person writes, which R30's grid
    judges and a listing offers on that grid, whatever rule declares the action."""
    out = []
    for name, annotation in _annotations(cls).items():
        try:
            if _field(cls.__name__, name, annotation).kind == "Money":
                out.append(name)
        except LineError:
            continue
    return tuple(out)


def _annotations(cls: type) -> dict[str, Any]:
    """The fields a line may name: every annotated attribute but class variables and a
    base dataclass's keyword-only ones (a statement's line and column)."""
    found: dict[str, Any] = {}
    hidden: set[str] = set()
    for klass in reversed(cls.__mro__):
        found.update(klass.__dict__.get("__annotations__", {}))
        if klass is not cls:
            hidden |= {f.name for f in klass.__dict__.get("__dataclass_fields__", {}).values()
                       if f.kw_only}
    return {k: v for k, v in found.items() if not _is_classvar(v) and k not in hidden}


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return "ClassVar" in text


def _defaults(cls: type) -> dict[str, Any]:
    """The fields' defaults: a dataclass's, or (before @dataclass has run) the class's own."""
    if "__dataclass_fields__" in cls.__dict__:
        return {f.name: f.default for f in cls.__dict__["__dataclass_fields__"].values()
                if f.default is not MISSING}
    out: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        for key, value in klass.__dict__.items():
            if key in klass.__dict__.get("__annotations__", {}) and not callable(value) \
                    and value is not MISSING and not isinstance(value, (property, type)):
                out[key] = getattr(value, "default", value) if type(value).__name__ == "Field" \
                    else value
    return {k: v for k, v in out.items() if v is not MISSING}


def _field(cls_name: str, name: str, annotation: Any) -> _Field:
    """How the field `name` is read, from its annotation (a string under
    `from __future__ import annotations`, else the type itself)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kept = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(kept) == 1:  # `Dice | None`, `Money | None`: the type, which may be left out
            annotation = kept[0]
    if isinstance(annotation, str):
        text = annotation.strip()
    elif typing.get_origin(annotation) is Annotated:
        meta = typing.get_args(annotation)[1:]
        text = "Money" if "money" in meta else "PlayerName" if "player" in meta else \
            "Dice" if "dice" in meta else \
            getattr(typing.get_args(annotation)[0], "__name__", repr(annotation))
    elif typing.get_origin(annotation) is typing.Literal:
        text = f"Literal{list(typing.get_args(annotation))!r}"
    else:
        text = getattr(annotation, "__name__", repr(annotation))
    text = re.sub(r"\s*\|\s*None$|^Optional\[(.*)\]$", r"\1", text).strip()
    base = text.rpartition(".")[2]
    if base.startswith("Literal["):
        try:
            words = ast.literal_eval("(" + base[len("Literal["):-1] + ",)")
        except (ValueError, SyntaxError):
            words = ()
        if words and all(isinstance(w, str) and re.fullmatch(r"[a-z]+", w) for w in words):
            return _Field(name, "literal", tuple(words))
        raise LineError(f"{cls_name}.{name}: a Literal field of a LINE holds lower-case "
                        f"words, found {base}")
    if base == "bool":
        return _Field(name, "bool")
    if base in _TERMINALS:
        return _Field(name, base)
    raise LineError(f"{cls_name}.LINE names {{{name}}}, of type {text}, which a line cannot "
                    f"read: use Player, Space, Money, int, str, Literal[...] or bool, or write "
                    f"GRAMMAR and __str__")
