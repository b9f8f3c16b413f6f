"""The base language's `setup` lines: a position in the middle of a game, money conserved.

Each is a `SetupStatement` like a rule's (`setup exemption Ann`): its grammar, its words,
its `apply`. The parser joins them to the language as it joins a rule's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.actions import money
from ..engine.lines import Money, PlayerName
from ..engine.statements import SetupStatement
from ..errors import ScriptError
from ..words import count

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.statements import ScriptContext
    from .ast import SpaceRef

__all__ = ["SetupCash", "SetupAt", "SetupOwns", "apply_setup"]


@dataclass(frozen=True)
class SetupCash(SetupStatement):
    """`setup P cash MONEY`: P's cash, from or to the Bank."""

    LINE = "{player} cash {amount}"
    player: PlayerName
    amount: Money

    def apply(self, script: ScriptContext, game: Game) -> None:
        player = script.player(self.player, self)
        diff = self.amount - player.cash
        if diff >= 0:
            _from_bank(game, player, diff, f"setup: {player}'s cash")
        else:
            game.transfer(player, game.bank, -diff, f"setup: {player}'s cash", "setup")


@dataclass(frozen=True)
class SetupAt(SetupStatement):
    """`setup P at SPACE`: where P's MAN stands."""

    LINE = "{player} at {space}"
    player: PlayerName
    space: SpaceRef

    def apply(self, script: ScriptContext, game: Game) -> None:
        player = script.player(self.player, self)
        player.position = script.space(self.space, self).index


@dataclass(frozen=True)
class SetupOwns(SetupStatement):
    """`setup P owns SPACE [N houses] [mortgaged]`; `houses` is 1 when not given."""

    LINE = "{player} owns {space} [{houses} (houses | house)] [{mortgaged}]"
    WHAT = {"houses": "a number of houses"}
    player: PlayerName
    space: SpaceRef
    houses: int = 1
    mortgaged: bool = False

    def apply(self, script: ScriptContext, game: Game) -> None:
        player = script.player(self.player, self)
        space = script.space(self.space, self)
        i = space.index
        # what a kind of space allows is declared by the plugin that defines the kind
        kind = game.kinds[space.kind]
        if not kind.ownable:
            owned = sorted(k for k, other in game.kinds.items() if other.ownable)
            raise ScriptError(f"{space} is a {space.kind} space: only {', '.join(owned)} spaces "
                              f"can be owned")
        if game.owner[i] is not None:
            raise ScriptError(f"{space} is already owned by {game.owner[i]}")
        limit = game.variant.houses_per_street if kind.builds else 1
        if not 1 <= self.houses <= limit:
            raise ScriptError(f"{space} can carry 1 to {count(limit, 'house')}, not {self.houses}")
        if self.houses > player.houses_left:
            raise ScriptError(f"{player} has only {count(player.houses_left, 'house')} left in their supply")
        if self.mortgaged and not kind.mortgageable:
            raise ScriptError(f"{space} is a {space.kind}: it cannot be mortgaged (R19)")
        game.acquire(player, space, self.houses)
        game.set_mortgaged(space, self.mortgaged)


def apply_setup(game: Game, stmt: SetupStatement, runner: ScriptContext) -> None:
    """Apply one setup statement; raises ScriptError (message only) when it cannot be done."""
    stmt.apply(runner, game)


def _from_bank(game: Game, to: Any, amount: int, reason: str) -> None:
    if amount > game.bank.cash:
        raise ScriptError(f"the Bank has only {money(game.bank.cash)} and cannot pay "
                          f"{money(amount)} for this setup")
    game.transfer(game.bank, to, amount, reason, "setup")
