"""The statements of a game script, as frozen dataclasses.

Every statement carries the `line` and `column` (1-based) where it starts; both default to
0 and take no part in equality, so that `ActionLine.of(Roll, "Ann", (3, 4))` equals the
statement parsed from any line that says `Ann rolls 3 4`. A line saying an action is an
`ActionLine` of the action's class, which declares and prints the line; the base
language's `setup` and `expect` lines are statements like a rule's (setup.py,
expectations.py), each with its own `apply` or `check`.  `str(statement)` gives the canonical script line
for it (money as plain digits, a space by its quoted name or its number, as it was given),
which is what a recorded game is written with.  The language is described in
docs/scripts.md; `easymoney.script.parser` builds these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action as GameAction, EndTurn, Roll
from ..engine.lines import PlayerName
from ..engine.statements import ActionStatement, SetupStatement
from ..engine.statements import Statement as LineStatement
from ..engine.statements import Expectation as PluginExpectation
from .expectations import (ExpectAt, ExpectBank, ExpectBankrupt, ExpectCash, ExpectGameOver,
                           ExpectHouses, ExpectHousesLeft, ExpectMortgaged, ExpectOwner,
                           ExpectRefused, ExpectTurn, ExpectWinner, ExpectWorth)
from .setup import SetupAt, SetupCash, SetupOwns

if TYPE_CHECKING:
    from ..engine.actions import Request
    from ..engine.statements import ScriptContext

__all__ = [
    "SpaceRef", "PlayerDecl",
    "VariantStmt", "RuleSwitch", "OptionStmt", "PlayersStmt", "SeedStmt",
    "SetupCash", "SetupAt", "SetupOwns", "PluginExpectation",
    "ActionLine", "Draw", "Autoplay",
    "ExpectCash", "ExpectAt", "ExpectOwner", "ExpectHouses", "ExpectMortgaged", "ExpectWorth",
    "ExpectHousesLeft", "ExpectBank", "ExpectTurn",
    "ExpectBankrupt", "ExpectGameOver", "ExpectWinner", "ExpectRefused",
    "HEADER_TYPES", "ACTION_TYPES", "EXPECTATION_TYPES",
    "HeaderStatement", "Action", "Expectation", "Statement", "Script", "BASE_LINES",
]


def _pos() -> int:
    return field(default=0, compare=False)  # type: ignore[return-value]


def _quoted(text: str) -> str:
    return f'"{text}"'


_BARE_OPTION_VALUE = re.compile(r'[^\s#"]+')


# ---------------------------------------------------------------- values

@dataclass(frozen=True, slots=True)
class SpaceRef:
    """A space, by its exact quoted name or by its board number (exactly one is set)."""

    name: str | None
    number: int | None
    line: int = _pos()
    column: int = _pos()

    def __post_init__(self) -> None:
        if (self.name is None) == (self.number is None):
            raise ValueError("SpaceRef needs exactly one of name and number")

    def __str__(self) -> str:
        return _quoted(self.name) if self.name is not None else str(self.number)


@dataclass(frozen=True, slots=True)
class PlayerDecl:
    """One player of `players`, with the bot strategy that decides when the script is silent."""

    name: str
    strategy: str | None
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return self.name if self.strategy is None else f"{self.name}:{self.strategy}"


# ---------------------------------------------------------------- header

@dataclass(frozen=True, slots=True)
class VariantStmt:
    """`variant standard` (built-in, `name`) or `variant "my.yaml"` (a file, `path`)."""

    name: str | None
    path: str | None
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        if self.name is not None:
            return f"variant {self.name}"
        return f"variant {_quoted(self.path or '')}"


@dataclass(frozen=True, slots=True)
class RuleSwitch:
    """`with RULE` (enable=True) / `without RULE`; RULE is a plugin id or a rule id."""

    enable: bool
    rule: str
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"{'with' if self.enable else 'without'} {self.rule}"


@dataclass(frozen=True, slots=True)
class OptionStmt:
    """`option KEY VALUE`; VALUE is the raw text (a quoted string without its quotes)."""

    key: str
    value: str
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        value = self.value if _BARE_OPTION_VALUE.fullmatch(self.value) else _quoted(self.value)
        return f"option {self.key} {value}"


@dataclass(frozen=True, slots=True)
class PlayersStmt:
    players: tuple[PlayerDecl, ...]
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return "players " + " ".join(str(p) for p in self.players)


@dataclass(frozen=True, slots=True)
class SeedStmt:
    seed: int
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"seed {self.seed}"


# ---------------------------------------------------------------- lines of the body

@dataclass(frozen=True)
class Draw(LineStatement):
    """`P draws "CARD"`: the card the game draws for P next (chosen, not shuffled)."""

    LINE = "{player} draws {card}"
    WHAT = {"card": "a card's text"}
    player: PlayerName
    card: str



@dataclass(frozen=True)
class Autoplay(LineStatement):
    """`autoplay` (turns=None: to the end of the game) / `autoplay N turns`."""

    GRAMMAR = "_AUTOPLAY [INT (_TURNS | _TURN)]"
    WORDS = ("autoplay", "turns", "turn")
    FORMS = ("`autoplay`", "`autoplay N turns`")
    WHAT = {"turns": "a number of turns"}
    turns: int | None

    def __str__(self) -> str:
        if self.turns is None:
            return "autoplay"
        return f"autoplay {self.turns} {'turn' if self.turns == 1 else 'turns'}"


@dataclass(frozen=True)
class ActionLine:
    """A line that says an action, as parsed: its action class (`kind`) and the values of
    the class's `line_fields()` as written (player names, `SpaceRef`s, numbers), not yet
    resolved against a game. `str()` is the action class's own `__str__` over these
    values, so a line and the action it gives print alike; `answer` resolves it.
    `line.player`, `line.amount`, ...: the values by field name."""

    kind: type[GameAction]
    values: tuple[Any, ...]
    line: int = _pos()
    column: int = _pos()

    @classmethod
    def of(cls, kind: type[GameAction], *values: Any, line: int = 0,
           column: int = 0) -> ActionLine:
        """The line saying `kind` with these values, in `kind.line_fields()` order."""
        return cls(kind, tuple(values), line, column)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("kind", "values"):  # unset while unpickled
            raise AttributeError(name)
        names = self.kind.line_fields()
        if name in names:
            return self.values[names.index(name)]
        raise AttributeError(f"a line of {self.kind.__name__} has no field {name!r}")

    @property
    def ANY_MOMENT(self) -> bool:
        return self.kind.ANY_MOMENT

    def fields(self) -> dict[str, Any]:
        return dict(zip(self.kind.line_fields(), self.values))

    def __str__(self) -> str:
        view = _LineView(self.kind, self.fields())
        return self.kind.__str__(view)  # type: ignore[arg-type]

    def answer(self, script: ScriptContext, request: Request) -> GameAction | None:
        """The action this line gives in answer to `request`, or None if it does not answer."""
        return self.kind.from_line(script, request, self)


class _LineView:
    """What an action's `__str__` reads on a line not yet resolved: every field of the
    action, those the line does not give left None (a bid's space)."""

    def __init__(self, kind: type, given: dict[str, Any]) -> None:
        for f in dataclass_fields(kind):  # type: ignore[arg-type]
            setattr(self, f.name, given.get(f.name))
        self.__dict__.update(given)


# ---------------------------------------------------------------- groups and the script

# The language's own statements, and the bases of those rule plugins add (syntax.py).
HEADER_TYPES = (VariantStmt, RuleSwitch, OptionStmt, PlayersStmt, SeedStmt, SetupStatement)
ACTION_TYPES = (ActionLine, Draw, Autoplay, ActionStatement)
EXPECTATION_TYPES = (PluginExpectation,)

HeaderStatement = (VariantStmt | RuleSwitch | OptionStmt | PlayersStmt | SeedStmt
                   | SetupStatement)
Action = ActionLine | Draw | Autoplay | ActionStatement
Expectation = PluginExpectation
Statement = HeaderStatement | Action | Expectation

# The base language's lines past the header ones, in the order messages list them: each
# is a statement like a rule's (its GRAMMAR, WORDS, FORMS), joined to the grammar the same
# way. The header lines (variant, with, without, option, players, seed) stay in
# grammar.lark: their values have terminals of their own (a variant name, a rule id, an
# option key or value, a player's strategy) that no other line may use.
BASE_LINES: tuple[type, ...] = (
    SetupCash, SetupAt, SetupOwns,
    Roll, Draw, EndTurn, Autoplay,
    ExpectCash, ExpectAt, ExpectWorth, ExpectHousesLeft, ExpectBankrupt, ExpectOwner,
    ExpectHouses, ExpectMortgaged, ExpectBank, ExpectTurn, ExpectGameOver, ExpectWinner,
    ExpectRefused)


@dataclass(frozen=True, slots=True)
class Script:
    """A parsed script: its header statements, then its actions and expectations, in order.

    `source_lines` are the file's lines (without line ends), for error messages:
    `source_lines[stmt.line - 1]` is the text of a statement's line.
    `str(script)` is the canonical text of the whole script (one statement a line).
    `language`: the plugins whose lines the language it was parsed with held (None: every
    installed plugin's), so that a runner whose rules differ parses it again with theirs.
    """

    filename: str
    source_lines: tuple[str, ...]
    header: tuple[HeaderStatement, ...]
    body: tuple[Action | Expectation, ...]
    language: tuple[str, ...] | None = field(default=None, compare=False)
    # (switches, registry, variant): the variant the parser loaded to learn the rules in
    # play, with the command line's (enable, disable, options) and the registry it was loaded
    # with; a runner of the same takes it rather than load it a second time
    header_variant: tuple[tuple[tuple[str, ...], ...], Any, Any] | None = field(
        default=None, compare=False, repr=False)

    @property
    def statements(self) -> tuple[Statement, ...]:
        return self.header + self.body

    def __str__(self) -> str:
        return "".join(f"{stmt}\n" for stmt in self.statements)
