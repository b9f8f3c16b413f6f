"""Building (R17): the owner of an unmortgaged street adds houses at its price, up to a Subdivision of five.

R17  in a window of their own turn, the owner of an unmortgaged street may add one house at
     a time, each for the street's price B, up to five houses; five houses make a
     Subdivision. Each house comes from the player's supply (R3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import WINDOW_KINDS, Action, ActionRange, Refusal, money, words

if TYPE_CHECKING:
    from easymoney import Game, Player, Request, Space


@dataclass(slots=True)
class Build(Action):
    """`P builds on SPACE` / `P builds N on SPACE`: one or N houses (R17), in a window."""

    LINE = "{player} builds [{count}] on {space}"
    WHAT = {"count": "a number of houses"}
    ASKED_BY = WINDOW_KINDS
    player: Player
    space: Space
    count: int = 1
    verb = "build"
    window = True
    adds_houses = "count"

    def describe(self) -> str:
        return f"build {'a house' if self.count == 1 else f'{self.count} houses'} on {self.space}"

    def refusals(self, game: Game) -> list[Refusal]:
        p, space, count = self.player, self.space, self.count
        i = space.index
        if not game.kinds[space.kind].builds:
            on_board = {s.kind for s in game.spaces}
            built = [(k, kind) for k, kind in game.kinds.items() if kind.builds and k in on_board]
            return [Refusal("R17", PLUGIN_ID, f"{space} is not a {' or a '.join(k for k, _ in built)}: "
                            f"houses are built on {' and '.join(kind.called(k) for k, kind in built)}")]
        if game.owner[i] is not p:
            return [Refusal("R17", PLUGIN_ID, f"{p} does not own {space}")]
        if game.mortgaged[i]:
            return [Refusal("R19", PLUGIN_ID, f"{space} is mortgaged: no house may be added")]
        limit = game.variant.houses_per_street
        if count < 1 or game.houses[i] + count > limit:
            return [Refusal("R17", PLUGIN_ID, f"{space} has {words.count(game.houses[i], 'house')} "
                            f"and a street holds at most {limit}")]
        cost = space.price * count
        if p.cash < cost:
            return [Refusal("R17", PLUGIN_ID, f"{p} has {money(p.cash)} and "
                            f"{words.count(count, 'house')} on {space} cost {money(cost)}")]
        return []

    def apply(self, game: Game) -> None:
        p, space, count = self.player, self.space, self.count
        cost = space.price * count
        game.collect(p, game.bank, cost, f"building on {space} (R17)", "building")
        game.add_houses(space, count)
        game.emit("build", player=p.name, space=space.name, count=count, cost=cost,
                  houses=game.houses[space.index])
        if game.houses[space.index] == game.variant.houses_per_street:
            game.emit("subdivision", space=space.name)

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """In the asked player's window: each count of houses on each street they own."""
        if request.kind not in WINDOW_KINDS:
            return
        p = request.player
        if p.houses_left < 1:
            return  # no house left to build with (R3): every count is refused
        limit = game.variant.houses_per_street
        kinds, mortgaged = game.kinds, game.mortgaged
        for space in p.spaces:
            if mortgaged[space.index] or not kinds[space.kind].builds:
                continue  # always refused (R19, R17)
            # more than the street holds, the player pays for or has left is always refused
            price = space.get("price") or 0
            most = limit - game.houses[space.index]
            if price > 0:
                most = min(most, p.cash // price)
            most = min(most, max(p.houses_left, 0))
            for count in range(1, most + 1):
                yield cls(p, space, count)


PLUGIN_ID = "building"
RULES = ("R17",)
ACTIONS = (Build,)
EVENTS = {
    "build": "{player} builds {count:#house} on {space} for {cost:$}: {houses} now",
    "subdivision": "{space} is a Subdivision",
}
