"""Give or Take spaces (R14): landing on the Stock Exchange or Give or Take draws a card.

R14  landing on the Stock Exchange or the Give or Take space: draw the top card and follow
     it. No backward move. A card that sends the MAN to such a space draws again; in one
     move at most MAX_CHAIN cards are drawn that way, one after another: the next landing
     on a Give or Take space draws no card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import OwnKind, StashKey, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "give_or_take"
RULES = ("R14",)
SPACE_KINDS = {"draw": {"description": "Landing draws a Give or Take card (R14)."}}
EVENTS = {"chain_stops": "{player} lands on {space} after {cards} cards in a row: no more "
                         "cards this move (R14)"}

# A deck of advance cards to a Give or Take space is a chain as long as the deck (up to
# 1,000 cards): each link nests a move in a move, so the chain is cut, by a rule of its own.
MAX_CHAIN = 10
_CHAIN = StashKey[int]("give_or_take.chain")  # cards drawn one after another this move


@hookimpl
def em_land(game: Game, player: Player, space: OwnKind, dice: tuple[int, int]) -> bool | None:
    if space.kind != "draw":
        return None
    chain = game.stash.get(_CHAIN, 0)
    if chain >= MAX_CHAIN:
        game.emit("chain_stops", player=player.name, space=space.name, cards=chain)
        return True
    game.stash[_CHAIN] = chain + 1
    try:
        game.draw_and_follow(player, dice)
    finally:
        game.stash[_CHAIN] = chain
    return True
