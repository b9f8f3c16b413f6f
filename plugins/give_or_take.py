"""Give or Take spaces (R14): landing on the Stock Exchange or Give or Take draws a card.

R14  landing on the Stock Exchange or the Give or Take space: draw the top card and follow
     it. No backward move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player, Space

PLUGIN_ID = "give_or_take"
LANDS_ON = ("draw",)
RULES = ("R14",)
SPACE_KINDS = {"draw": {"description": "Landing draws a Give or Take card (R14)."}}


@hookimpl
def em_land(game: Game, player: Player, space: Space, dice: tuple[int, int]) -> bool | None:
    if space.kind != "draw":
        return None
    game.draw_and_follow(player, dice)
    return True
