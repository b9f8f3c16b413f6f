"""Sales between players (R22): a space changes hands for an agreed price, houses and mortgage included.

R22  in a window of their own turn (or to raise money, R25), a player may sell a street,
     utility or commercial building they own to another player for an agreed price, houses
     and mortgage included. R13 and R3 apply to the buyer: the seller's houses go back to the
     seller's supply and the buyer puts as many of their own in their place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import (WINDOW_KINDS, Action, ActionRange, Refusal, hookimpl,
                       money)
from easymoney.engine.statements import moved_lines
from easymoney.plugins.debts import RAISE

if TYPE_CHECKING:
    from easymoney import Game, Money, Player, Request, Space


@dataclass(slots=True)
class Sell(Action):
    """`P sells SPACE to Q for MONEY` (R22): in a window, or to raise money (R25)."""

    LINE = "{player} sells {space} to {buyer} for {price}"
    ASKED_BY = (*WINDOW_KINDS, RAISE)
    player: Player
    space: Space
    buyer: Player
    price: Money
    verb = "sell"
    window = True
    raises_money = True
    counterparty = "buyer"  # the buyer agrees to the price (R22)
    acquires, acquirer = "space", "buyer"

    def describe(self) -> str:
        return f"sell {self.space} to {self.buyer} for {money(self.price)}"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """In the asked player's window, or to raise money: each space they own to each
        other player, for any price the buyer can pay."""
        if request.kind in WINDOW_KINDS or request.kind == RAISE:
            p = request.player
            for space in p.spaces:
                for buyer in game.players:
                    if buyer is not p and not buyer.bankrupt:
                        yield ActionRange(cls(p, space, buyer, 0), "price", 0, buyer.cash)


def sale_value(game: Game, space: Space) -> int:
    """What a space is worth with its houses by R28, as the bots judge a price."""
    value = game.kinds[space.kind].value
    return 0 if value is None else value(game, space, max(1, game.houses[space.index]))


@hookimpl
def em_action_value(game: Game, player: Player, action: Action) -> int | None:
    """A sale is worth the space's value less the price to the buyer, and the reverse to
    the seller."""
    if type(action) is not Sell:
        return None
    worth = sale_value(game, action.space)
    if player is action.buyer:
        return worth - action.price
    if player is action.player:
        return action.price - worth
    return None


PLUGIN_ID = "sales"
REFUSES = (Sell,)
REFUSES_UNLISTED = (Sell,)  # Sell lists only the seller's spaces, to players in, at prices they can pay
RULES = ("R22",)
ACTIONS = (Sell,)
EVENTS = {"sale": "{player} sells {space} to {buyer} for {price:$} ({houses:#house} now in {buyer}'s colour)"}


@hookimpl
def em_refusals(game: Game, action: Action) -> list[Refusal] | None:
    if type(action) is not Sell:
        return None
    seller, buyer, space = action.player, action.buyer, action.space
    if game.owner[space.index] is not seller:
        return [Refusal("R22", PLUGIN_ID, f"{seller} does not own {space}")]
    if buyer is seller or buyer.bankrupt:
        return [Refusal("R22", PLUGIN_ID, f"{space} may be sold only to another player in the game")]
    if action.price < 0 or action.price > buyer.cash:
        return [Refusal("R22", PLUGIN_ID, f"{buyer} has {money(buyer.cash)} and cannot pay "
                        f"{money(action.price)}")]
    return None


@hookimpl
def em_apply(game: Game, action: Action) -> bool | None:
    if type(action) is not Sell:
        return None
    seller, buyer, space = action.player, action.buyer, action.space
    houses = game.houses[space.index]
    game.transfer(buyer, seller, action.price, f"buying {space} from {seller} (R22)", "sale")
    game.change_owner(space, buyer)
    game.emit("sale", player=seller.name, buyer=buyer.name, space=space.name,
              price=action.price, houses=houses)
    return True


# the line classes of before issue 18: importing one says which action declares the line now
__getattr__ = moved_lines(__name__, Sells="Sell")
