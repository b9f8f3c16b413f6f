"""The base language's `expect` lines: each checks the game, None when it holds, else the actual value in words.

Each is an `Expectation` like a rule's (`expect hospital 500`): its grammar, its words, its
`check`. The parser joins them to the language as it joins a rule's, and the forms that
messages list come from their FORMS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.actions import money
from ..engine.lines import Money, PlayerName
from ..engine.statements import Expectation
from ..words import count

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.statements import ScriptContext
    from .ast import SpaceRef

__all__ = ["ExpectCash", "ExpectAt", "ExpectWorth", "ExpectHousesLeft", "ExpectBankrupt",
           "ExpectOwner", "ExpectHouses", "ExpectMortgaged", "ExpectBank", "ExpectTurn",
           "ExpectGameOver", "ExpectWinner", "ExpectRefused", "check_expectation"]


@dataclass(frozen=True)
class ExpectCash(Expectation):
    LINE = "{player} cash {amount}"
    player: PlayerName
    amount: Money

    def check(self, script: ScriptContext, game: Game) -> str | None:
        p = script.player(self.player, self)
        return None if p.cash == self.amount else f"{p} has {money(p.cash)}"


@dataclass(frozen=True)
class ExpectAt(Expectation):
    LINE = "{player} at {space}"
    player: PlayerName
    space: SpaceRef

    def check(self, script: ScriptContext, game: Game) -> str | None:
        p = script.player(self.player, self)
        space = script.space(self.space, self)
        here = game.spaces[p.position]
        return None if here.name == space.name else f"{p} is at {p.position} ({here.name})"


@dataclass(frozen=True)
class ExpectWorth(Expectation):
    LINE = "{player} worth {amount}"
    player: PlayerName
    amount: Money

    def check(self, script: ScriptContext, game: Game) -> str | None:
        p = script.player(self.player, self)
        w = game.worth(p)
        return None if w == self.amount else f"{p} is worth {money(w)}"


@dataclass(frozen=True)
class ExpectHousesLeft(Expectation):
    LINE = "{player} houses left {count}"
    WHAT = {"count": "a number of houses"}
    player: PlayerName
    count: int

    def check(self, script: ScriptContext, game: Game) -> str | None:
        p = script.player(self.player, self)
        return None if p.houses_left == self.count else f"{p} has {count(p.houses_left, 'house')} left"


@dataclass(frozen=True)
class ExpectBankrupt(Expectation):
    LINE = "{player} bankrupt"
    player: PlayerName

    def check(self, script: ScriptContext, game: Game) -> str | None:
        p = script.player(self.player, self)
        return None if p.bankrupt else f"{p} is not bankrupt"


@dataclass(frozen=True)
class ExpectOwner(Expectation):
    """`expect SPACE owner P`; player None is `owner nobody`."""

    GRAMMAR = "space _OWNER (NAME | _NOBODY)"
    WORDS = ("owner", "nobody")
    FORMS = ("`expect SPACE owner P`", "`expect SPACE owner nobody`")
    space: SpaceRef
    player: str | None

    def __str__(self) -> str:
        return f"expect {self.space} owner {self.player if self.player is not None else 'nobody'}"

    def check(self, script: ScriptContext, game: Game) -> str | None:
        space = script.space(self.space, self)
        owner = game.owner[space.index]
        want = None if self.player is None else script.player(self.player, self)
        if owner is want:
            return None
        return f"{space} is owned by {owner}" if owner else f"{space} is unowned"


@dataclass(frozen=True)
class ExpectHouses(Expectation):
    LINE = "{space} houses {count}"
    WHAT = {"count": "a number of houses"}
    space: SpaceRef
    count: int

    def check(self, script: ScriptContext, game: Game) -> str | None:
        space = script.space(self.space, self)
        n = game.houses[space.index]
        return None if n == self.count else f"{space} has {count(n, 'house')}"


@dataclass(frozen=True)
class ExpectMortgaged(Expectation):
    """`expect SPACE mortgaged` (True) / `expect SPACE unmortgaged` (False)."""

    GRAMMAR = "space (MORTGAGED | UNMORTGAGED)"
    FORMS = ("`expect SPACE mortgaged`", "`expect SPACE unmortgaged`")
    space: SpaceRef
    mortgaged: bool

    @classmethod
    def line_values(cls, values: list[Any]) -> tuple[Any, ...]:
        return values[0], values[1] == "mortgaged"

    def __str__(self) -> str:
        return f"expect {self.space} {'mortgaged' if self.mortgaged else 'unmortgaged'}"

    def check(self, script: ScriptContext, game: Game) -> str | None:
        space = script.space(self.space, self)
        m = game.mortgaged[space.index]
        return None if m == self.mortgaged else f"{space} is {'mortgaged' if m else 'not mortgaged'}"


@dataclass(frozen=True)
class ExpectBank(Expectation):
    LINE = "bank {amount}"
    amount: Money

    def check(self, script: ScriptContext, game: Game) -> str | None:
        return None if game.bank.cash == self.amount else f"the Bank has {money(game.bank.cash)}"


@dataclass(frozen=True)
class ExpectTurn(Expectation):
    LINE = "turn {player}"
    player: PlayerName

    def check(self, script: ScriptContext, game: Game) -> str | None:
        p = script.player(self.player, self)
        return None if game.current is p else f"it is {game.current}'s turn"


@dataclass(frozen=True)
class ExpectGameOver(Expectation):
    """`expect game over` (reason None) / `expect game over by REASON`, a reason the rules in
    play end a game by (their END_REASONS: bankruptcy, bank, turns, ...)."""

    GRAMMAR = "_GAME _OVER [_BY REASON]"
    WORDS = ("game", "over", "by")
    FORMS = ("`expect game over`", "`expect game over by REASON`")
    reason: str | None

    def __str__(self) -> str:
        return "expect game over" if self.reason is None else f"expect game over by {self.reason}"

    def check(self, script: ScriptContext, game: Game) -> str | None:
        o = game.outcome
        if o is None:
            return "the game is not over"
        if self.reason is not None and o.reason != self.reason:
            return f"the game ended by {o.reason} ({o.detail})"
        return None


@dataclass(frozen=True)
class ExpectWinner(Expectation):
    GRAMMAR = "_WINNER NAME+"
    WORDS = ("winner",)
    FORMS = ("`expect winner P ...`",)
    players: tuple[str, ...]

    @classmethod
    def line_values(cls, values: list[Any]) -> tuple[Any, ...]:
        return (tuple(values),)

    def __str__(self) -> str:
        return "expect winner " + " ".join(self.players)

    def check(self, script: ScriptContext, game: Game) -> str | None:
        for name in self.players:
            script.player(name, self)
        winners = game.outcome.winners if game.outcome else tuple(p.name for p in game.winners())
        if sorted(winners) == sorted(self.players):
            return None
        return f"the winner{'s are' if len(winners) != 1 else ' is'} {' '.join(winners) or 'nobody'}"


@dataclass(frozen=True)
class ExpectRefused(Expectation):
    """`expect refused` (rule None: any rule) / `expect refused RULE`: the line before it is
    refused. A refusal is not a state of the game: the runner checks it as the line before
    is played (ScriptRunner.refused); met anywhere else it is an error there."""

    GRAMMAR = "_REFUSED [RULE_ID]"
    WORDS = ("refused",)
    FORMS = ("`expect refused`", "`expect refused RULE`")
    rule: str | None

    def __str__(self) -> str:
        return "expect refused" if self.rule is None else f"expect refused {self.rule}"

    def check(self, script: ScriptContext, game: Game) -> str | None:
        raise AssertionError("`expect refused` is checked with the line before it")


def check_expectation(runner: ScriptContext, stmt: Expectation) -> str | None:
    """None when `stmt` holds in the runner's game, else what is actually the case."""
    return stmt.check(runner, runner.game)
