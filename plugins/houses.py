"""The house supply (R3): each player's houses; with none left a player acquires and builds nothing.

R3  each player has the variant's number of houses (16) of their colour; a house marks
    ownership of every space they own and further houses raise a street's rent. A player
    with no house left in their supply can neither acquire anything nor build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import Refusal, hookimpl
from easymoney.plugins.auction import Bid
from easymoney.plugins.building import Build
from easymoney.plugins.sales import Sell
from easymoney.plugins.streets import Buy

if TYPE_CHECKING:
    from easymoney import Action, Game, Player

PLUGIN_ID = "houses"
REFUSES = (Buy, Bid, Build, Sell)
RULES = ("R3",)
ESSENTIAL = True


@hookimpl
def em_setup(game: Game) -> None:
    for player in game.players:
        player.houses_left = game.variant.houses_per_player


def _short(player: Player, needed: int, what: str) -> list[Refusal]:
    left = player.houses_left
    have = "no house" if left == 0 else f"only {left} house{'s' if left != 1 else ''}"
    return [Refusal("R3", PLUGIN_ID, f"{player} has {have} left in their supply and {what} "
                    f"needs {needed}")]


@hookimpl
def em_refusals(game: Game, action: Action) -> list[Refusal] | None:
    if type(action) is Buy or type(action) is Bid:
        if action.player.houses_left < 1:
            return _short(action.player, 1, f"{action.space}")
    elif type(action) is Build:
        if action.player.houses_left < action.count:
            return _short(action.player, action.count, "building")
    elif type(action) is Sell:
        needed = game.houses[action.space.index]
        if action.buyer.houses_left < needed:
            return _short(action.buyer, needed, f"taking over {action.space}")
    return None
