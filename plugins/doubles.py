"""Doubles (R12): a throw of doubles draws a Give or Take card before the move, then moves backward.

R12  a player who throws doubles draws the top card before moving. If the card sends the
     MAN to a space ("advance"), the MAN moves forward to it (R7, R8 on the way) and the
     landing is resolved. Otherwise the player follows the card, then moves the MAN
     backward the total thrown and the landing there is resolved.
     Option `doubles.after_card`: `backward` (standard) as above | `forward`: the MAN moves
     forward as usual, the landing is resolved, then the card is drawn and followed (the
     description's reference card: "draw a card in addition to landing").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "doubles"
RULES = ("R12",)
OPTIONS = {
    "after_card": {
        "enum": ["backward", "forward"], "default": "backward",
        "description": "backward: draw before moving, then move backward unless the card "
                       "advanced the MAN (standard); forward: move forward and land as usual, "
                       "then draw (the reference card's reading).",
    },
}
EVENTS = {"doubles": "{player} threw doubles: a Give or Take card (R12)"}


@hookimpl(tryfirst=True)
def em_move(game: Game, player: Player, dice: tuple[int, int]) -> bool | None:
    if dice[0] != dice[1]:
        return None
    total = dice[0] + dice[1]
    game.emit("doubles", player=player.name)
    if game.variant.rules[PLUGIN_ID]["after_card"] == "forward":
        game.move(player, total, dice)
        if not player.bankrupt:
            game.draw_and_follow(player, dice)
        return True
    result = game.draw_and_follow(player, dice)
    if result is None:  # no deck in play: an ordinary move
        game.move(player, total, dice)
    elif result != "moved" and not player.bankrupt:
        game.move(player, -total, dice)
    return True
