"""The statements of a game script, as frozen dataclasses.

Every statement carries the `line` and `column` (1-based) where it starts; both default to
0 and take no part in equality, so that `Roll("Ann", (3, 4))` equals the statement parsed
from any line that says `Ann rolls 3 4`.  `str(statement)` gives the canonical script line
for it (money as plain digits, a space by its quoted name or its number, as it was given),
which is what a recorded game is written with.  The language is described in
docs/scripts.md; `easymoney.script.parser` builds these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .syntax import ActionStatement, SetupStatement
from .syntax import Expectation as PluginExpectation

__all__ = [
    "SpaceRef", "PlayerDecl",
    "VariantStmt", "RuleSwitch", "OptionStmt", "PlayersStmt", "SeedStmt",
    "SetupCash", "SetupAt", "SetupOwns",
    "Roll", "Draw", "EndTurn", "Autoplay",
    "ExpectCash", "ExpectAt", "ExpectOwner", "ExpectHouses", "ExpectMortgaged", "ExpectWorth",
    "ExpectHousesLeft", "ExpectBank", "ExpectTurn",
    "ExpectBankrupt", "ExpectGameOver", "ExpectWinner", "ExpectRefused",
    "HEADER_TYPES", "ACTION_TYPES", "EXPECTATION_TYPES",
    "HeaderStatement", "Action", "Expectation", "Statement", "Script",
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


@dataclass(frozen=True, slots=True)
class SetupCash:
    player: str
    amount: int
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"setup {self.player} cash {self.amount}"


@dataclass(frozen=True, slots=True)
class SetupAt:
    player: str
    space: SpaceRef
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"setup {self.player} at {self.space}"


@dataclass(frozen=True, slots=True)
class SetupOwns:
    """`setup P owns SPACE [N houses] [mortgaged]`; `houses` is 1 when not given."""

    player: str
    space: SpaceRef
    houses: int
    mortgaged: bool
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        text = f"setup {self.player} owns {self.space}"
        if self.houses != 1:
            text += f" {self.houses} houses"
        if self.mortgaged:
            text += " mortgaged"
        return text


# ---------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Roll:
    """`P rolls D1 D2` (dice given) or `P rolls` (dice=None: random from the seed)."""

    player: str
    dice: tuple[int, int] | None
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        if self.dice is None:
            return f"{self.player} rolls"
        return f"{self.player} rolls {self.dice[0]} {self.dice[1]}"


@dataclass(frozen=True, slots=True)
class Draw:
    player: str
    card: str
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"{self.player} draws {_quoted(self.card)}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """`Ann ends turn`: closes Ann's window after the landing (an addition to the spec, so that
    a record can end a game exactly at the end of a turn)."""

    player: str
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"{self.player} ends turn"


@dataclass(frozen=True, slots=True)
class Autoplay:
    """`autoplay` (turns=None: to the end of the game) / `autoplay N turns`."""

    turns: int | None
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        if self.turns is None:
            return "autoplay"
        return f"autoplay {self.turns} {'turn' if self.turns == 1 else 'turns'}"


# ---------------------------------------------------------------- expectations

@dataclass(frozen=True, slots=True)
class ExpectCash:
    player: str
    amount: int
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.player} cash {self.amount}"


@dataclass(frozen=True, slots=True)
class ExpectAt:
    player: str
    space: SpaceRef
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.player} at {self.space}"


@dataclass(frozen=True, slots=True)
class ExpectOwner:
    """`expect SPACE owner P`; player None is `owner nobody`."""

    space: SpaceRef
    player: str | None
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.space} owner {self.player if self.player is not None else 'nobody'}"


@dataclass(frozen=True, slots=True)
class ExpectHouses:
    space: SpaceRef
    count: int
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.space} houses {self.count}"


@dataclass(frozen=True, slots=True)
class ExpectMortgaged:
    """`expect SPACE mortgaged` (True) / `expect SPACE unmortgaged` (False)."""

    space: SpaceRef
    mortgaged: bool
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.space} {'mortgaged' if self.mortgaged else 'unmortgaged'}"


@dataclass(frozen=True, slots=True)
class ExpectWorth:
    player: str
    amount: int
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.player} worth {self.amount}"


@dataclass(frozen=True, slots=True)
class ExpectHousesLeft:
    player: str
    count: int
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.player} houses left {self.count}"


@dataclass(frozen=True, slots=True)
class ExpectBank:
    amount: int
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect bank {self.amount}"


@dataclass(frozen=True, slots=True)
class ExpectTurn:
    player: str
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect turn {self.player}"


@dataclass(frozen=True, slots=True)
class ExpectBankrupt:
    player: str
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return f"expect {self.player} bankrupt"


@dataclass(frozen=True, slots=True)
class ExpectGameOver:
    """`expect game over` (reason None) / `expect game over by bankruptcy|bank|turns`."""

    reason: str | None
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return "expect game over" if self.reason is None else f"expect game over by {self.reason}"


@dataclass(frozen=True, slots=True)
class ExpectWinner:
    players: tuple[str, ...]
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return "expect winner " + " ".join(self.players)


@dataclass(frozen=True, slots=True)
class ExpectRefused:
    """`expect refused` (rule None: any rule) / `expect refused RULE`."""

    rule: str | None
    line: int = _pos()
    column: int = _pos()

    def __str__(self) -> str:
        return "expect refused" if self.rule is None else f"expect refused {self.rule}"


# ---------------------------------------------------------------- groups and the script

# The language's own statements, and the bases of those rule plugins add (syntax.py).
HEADER_TYPES = (VariantStmt, RuleSwitch, OptionStmt, PlayersStmt, SeedStmt,
                SetupCash, SetupAt, SetupOwns, SetupStatement)
ACTION_TYPES = (Roll, Draw, EndTurn, Autoplay, ActionStatement)
EXPECTATION_TYPES = (ExpectCash, ExpectAt, ExpectOwner, ExpectHouses, ExpectMortgaged,
                     ExpectWorth, ExpectHousesLeft, ExpectBank, ExpectTurn, ExpectBankrupt,
                     ExpectGameOver, ExpectWinner, ExpectRefused, PluginExpectation)

HeaderStatement = (VariantStmt | RuleSwitch | OptionStmt | PlayersStmt | SeedStmt
                   | SetupCash | SetupAt | SetupOwns | SetupStatement)
Action = Roll | Draw | EndTurn | Autoplay | ActionStatement
Expectation = (ExpectCash | ExpectAt | ExpectOwner | ExpectHouses | ExpectMortgaged
               | ExpectWorth | ExpectHousesLeft | ExpectBank | ExpectTurn | ExpectBankrupt
               | ExpectGameOver | ExpectWinner | ExpectRefused | PluginExpectation)
Statement = HeaderStatement | Action | Expectation


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

    @property
    def statements(self) -> tuple[Statement, ...]:
        return self.header + self.body

    def __str__(self) -> str:
        return "".join(f"{stmt}\n" for stmt in self.statements)
