"""Advance cards (R21a): the MAN moves forward to the named space and the landing is resolved.

R21a  an "advance to" card moves the MAN forward to the named space (R7 and R8 apply on the
      way; a MAN already there stays and the landing is resolved again). An owned space
      charges rent (R18); an unowned utility or commercial building is auctioned at once
      with no rent (R10, R11); an unowned street is offered for sale (R9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import hookimpl

if TYPE_CHECKING:
    from easymoney import Card, Game, Player

PLUGIN_ID = "advance"
RULES = ("R21a",)
CARD_KINDS = {
    "advance": {"description": "Move forward to the space named by `to` (R21a).",
                "properties": {"to": {"type": "string", "x-space": True}},
                "required": ["to"]},
}
EVENTS = {"advance": "{player} advances to {space}"}


@hookimpl
def em_card(game: Game, player: Player, card: Card, dice: tuple[int, int]) -> str | None:
    if card.kind != "advance":
        return None
    target = game.space(card.to).index
    steps = (target - player.position) % len(game.spaces)
    game.emit("advance", player=player.name, space=card.to)
    game.move(player, steps, dice)
    return "moved"
