"""House rule: in their window a player may swap a space for another player's, adding cash.

`Ann swaps "Dover Street" for "Grove Street" with Bob and 200`: Ann gives Dover Street and
$200 (or 0), Bob gives Grove Street, once Bob agrees (a deal: R22a). Only unmortgaged
spaces with no house built on them are swapped. Both spaces change hands (`hands_over`), so four sides
(R13) and the house supply (R3) judge each for its receiver with no code of this plugin's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import WINDOW_KINDS, Action, Money, Player, Refusal, Space, money

if TYPE_CHECKING:
    from easymoney import Game

PLUGIN_ID = "swap"
RULES = ()
EVENTS = {"swap": "{player} swaps {gives} for {other}'s {gets}, adding {cash:$}"}


def worth(game: Game, space: Space) -> int:
    """What the space is worth to its owner (R28), as a bot judges a swap."""
    value = game.kinds[space.kind].value
    return 0 if value is None else value(game, space, 1)


@dataclass(slots=True)
class Swap(Action):
    LINE = "{player} swaps {gives} for {gets} with {other} and {cash}"
    ASKED_BY = WINDOW_KINDS
    window = True                                       # in the mover's windows (R5)
    counterparty = "other"                              # who agrees to the deal
    hands_over = (("gives", "other"), ("gets", "player"))   # R13 and R3 judge both
    player: Player
    gives: Space
    gets: Space
    other: Player
    cash: Money
    verb = "swap"

    def describe(self) -> str:
        return f"swap {self.gives} for {self.gets} with {self.other}"

    def refusals(self, game: Game) -> list[Refusal]:
        p, other = self.player, self.other
        if other is p or other.bankrupt:
            return [Refusal("-", PLUGIN_ID, "a swap is with another player in the game")]
        for space, owner in ((self.gives, p), (self.gets, other)):
            if game.owner[space.index] is not owner:
                return [Refusal("-", PLUGIN_ID, f"{owner} does not own {space}")]
            if game.mortgaged[space.index] or game.houses[space.index] > 1:
                return [Refusal("-", PLUGIN_ID, f"{space} is mortgaged or built on")]
        if not 0 <= self.cash <= p.cash:
            return [Refusal("-", PLUGIN_ID, f"{p} has {money(p.cash)}")]
        return []

    def amount_bounds(self, game: Game, field: str) -> tuple[int, int]:
        return 0, self.player.cash                      # a swap may add no cash

    def apply(self, game: Game) -> None:
        p, other = self.player, self.other
        game.transfer(p, other, self.cash, f"swapping {self.gives} for {self.gets}", "sale")
        game.change_owner(self.gives, other)
        game.change_owner(self.gets, p)
        game.emit("swap", player=p.name, gives=self.gives.name, other=other.name,
                  gets=self.gets.name, cash=self.cash)

    def value(self, game: Game, player: Player) -> int | None:
        gain = worth(game, self.gets) - worth(game, self.gives) - self.cash
        return gain if player is self.player else -gain if player is self.other else None


ACTIONS = (Swap,)
