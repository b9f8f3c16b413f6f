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

from easymoney import WINDOW_KINDS, Action, ActionRange, Refusal, money
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

    def refusals(self, game: Game) -> list[Refusal]:
        seller, buyer, space = self.player, self.buyer, self.space
        if game.owner[space.index] is not seller:
            return [Refusal("R22", PLUGIN_ID, f"{seller} does not own {space}")]
        if buyer is seller or buyer.bankrupt:
            return [Refusal("R22", PLUGIN_ID, f"{space} may be sold only to another player in "
                                              f"the game")]
        if self.price < 0 or self.price > buyer.cash:
            return [Refusal("R22", PLUGIN_ID, f"{buyer} has {money(buyer.cash)} and cannot pay "
                            f"{money(self.price)}")]
        return []

    def apply(self, game: Game) -> None:
        seller, buyer, space = self.player, self.buyer, self.space
        houses = game.houses[space.index]
        game.transfer(buyer, seller, self.price, f"buying {space} from {seller} (R22)", "sale")
        game.change_owner(space, buyer)
        game.emit("sale", player=seller.name, buyer=buyer.name, space=space.name,
                  price=self.price, houses=houses)

    def value(self, game: Game, player: Player) -> int | None:
        """The space's value less the price to the buyer, and the reverse to the seller."""
        worth = sale_value(game, self.space)
        if player is self.buyer:
            return worth - self.price
        if player is self.player:
            return self.price - worth
        return None

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """In the asked player's window, or to raise money: each space they own to each
        other player, for any price the buyer can pay; not to a buyer the rules that cross
        actions refuse whatever the rest (`game.narrowed`)."""
        if request.kind in WINDOW_KINDS or request.kind == RAISE:
            p = request.player
            refused = game.narrowed(cls, "buyer")  # buyers the rules that cross actions refuse
            buyers = []  # a loop, not a comprehension (a call): asked at every window
            for buyer in game.players:
                if buyer is not p and not buyer.bankrupt and buyer not in refused:
                    buyers.append(buyer)
            if not buyers:  # often, late in a game: every buyer is narrowed away
                return
            for space in p.spaces:
                for buyer in buyers:
                    yield ActionRange(cls(p, space, buyer, 0), "price", 0, buyer.cash)


def sale_value(game: Game, space: Space) -> int:
    """What a space is worth with its houses by R28, as the bots judge a price."""
    value = game.kinds[space.kind].value
    return 0 if value is None else value(game, space, max(1, game.houses[space.index]))


PLUGIN_ID = "sales"
RULES = ("R22",)
ACTIONS = (Sell,)
EVENTS = {"sale": "{player} sells {space} to {buyer} for {price:$} ({houses:#house} now in {buyer}'s colour)"}
