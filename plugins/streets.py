"""Buying streets (R9): the lander of an unowned street may buy it at its price, or it goes to auction.

R9  a MAN landing on an unowned street: its player is asked whether to buy it for its
    price B, placing one house on it; they may buy only if R13 and R3 allow it and their
    cash covers B. If they do not buy, the street is auctioned (R11) at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import (Action, ActionRange, Answer, BoughtOnLanding, Refusal, Request, request_kind,
                       SpaceKind, hookimpl, money)

if TYPE_CHECKING:
    from easymoney import Game, Player, Space


BUY = request_kind("buy", lambda r: f"{r.player} to buy {r.space} or decline")


@dataclass(slots=True)
class Buy(Answer):
    """`P buys`: P's answer to buying the unowned street they landed on (R9)."""

    LINE = "{player} buys"
    ASKED_BY = (BUY,)
    player: Player
    space: Space
    verb = "buy"
    acquires = "space"

    def describe(self) -> str:
        return f"buy {self.space}"

    def refusals(self, game: Game) -> list[Refusal]:
        request = game.request
        if request is None or request.kind != BUY or request.player is not self.player \
                or request.space is not self.space:
            return [Refusal("R9", PLUGIN_ID, f"{self.player} may buy {self.space} only on "
                            f"landing on it unowned")]
        if game.kinds[self.space.kind].on_landing != "buy" \
                or game.owner[self.space.index] is not None:
            return [Refusal("R9", PLUGIN_ID, f"{self.space} is not an unowned street: only those "
                            f"are bought at their price")]
        if self.player.cash < self.space.price:
            p = self.player
            return [Refusal("R9", PLUGIN_ID, f"{p} has {money(p.cash)} and {self.space} costs "
                            f"{money(self.space.price)}")]
        return []

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        # only what its checks allow: a listing does not ask them again (R9: the price paid)
        if request.kind == BUY and request.space is not None \
                and request.player.cash >= request.space.price:
            yield cls(request.player, request.space)


@dataclass(slots=True)
class Decline(Answer):
    """`P declines`: the street goes to auction (R9)."""

    LINE = "{player} declines"
    ASKED_BY = (BUY,)
    player: Player
    space: Space
    verb = "decline"

    def describe(self) -> str:
        return f"decline {self.space}"



def street_rent(game: Game, space: Space, houses: int, dice: tuple[int, int]) -> int:
    """R18: the entry of the street's schedule for its number of houses (1 to 5)."""
    return space.rent[houses - 1]


def street_value(game: Game, space: Space, houses: int) -> int:
    """R28: its price B times the houses on it."""
    return space.price * houses


PLUGIN_ID = "streets"
ACTIONS = (Buy, Decline)
RULES = ("R9",)
MONEY = {"type": "integer", "minimum": 0, "x-money": True}
SPACE_KINDS = {
    "street": SpaceKind(schema={
        "description": "A yellow street: bought at `price` (B) with one house; each further "
                       "house costs B (R17); `rent` lists the rent for 1..5 houses (R18); "
                       "`mortgage` is M (R19).",
        "properties": {
            "price": MONEY,
            "mortgage": MONEY,
            "rent": {"type": "array", "items": MONEY, "x-per-house": True},
        },
        "required": ["price", "mortgage", "rent"],
    }, ownable=True, on_landing="buy", mortgageable=True, builds=True,
        rent=street_rent, value=street_value, plural="streets"),
}
EVENTS = {
    "buy": "{player} buys {space} for {price:$}",
    "decline": "{player} declines to buy {space}",
}

ACCEPTS = (Buy, Decline)


@hookimpl
def em_land(game: Game, player: Player, space: BoughtOnLanding,
            dice: tuple[int, int]) -> bool | None:
    """R9: a landing on any kind of space bought at its price, any plugin's too."""
    if game.kinds[space.kind].on_landing != "buy" or game.owner[space.index] is not None:
        return None
    action = game.ask(Request(BUY, player, ACCEPTS, space=space))
    if type(action) is Buy:
        game.collect(player, game.bank, space.price, f"buying {space} (R9)", "purchase")
        game.acquire(player, space)
        game.emit("buy", player=player.name, space=space.name, price=space.price)
    else:
        game.emit("decline", player=player.name, space=space.name)
        if game.hook.has("em_auction"):  # the auction rule's hook (R11), when it is on
            game.hook.em_auction(game, space, player)
    return True
