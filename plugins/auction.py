"""Auctions (R10, R11): unowned utilities and commercial buildings, and declined streets, go to the highest bid.

R10  a MAN landing on an unowned utility or commercial building: it is auctioned at once;
     it has no fixed price; the winner places a house on it.
R11  open ascending auction by the Bank, starting with the lander and going round in turn
     order: each raises or passes, and one who passed is out. The first bid is at least
     $100, each later bid at least $10 above the high bid. It ends when all but the high
     bidder have passed, or all passed with no bid (the space stays unowned). Nobody may
     bid more than their cash; one who may not own the space (R13, R3) can only pass.
     The winning bid is a debt (R23): a winner whose cash fell meanwhile raises the
     difference (R25); one who goes bankrupt instead gets nothing, and the space stays unowned.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from easymoney import (Action, ActionRange, Answer, AuctionedOnLanding, Refusal, Request, request_kind,
                       SpaceKind, StashKey, hookimpl, hookspec, money)

if TYPE_CHECKING:
    from easymoney import Game, Money, Player, Space


BID = request_kind("bid", lambda r: f"{r.player} to bid on {r.space} or pass")


@dataclass(slots=True)
class Bid(Action):
    """`P bids MONEY`: P's turn in an auction (R11); the space is the one up for auction."""

    LINE = "{player} bids {amount}"
    ASKED_BY = (BID,)
    player: Player
    space: Space
    amount: Money
    verb = "bid"
    acquires = "space"  # the winner takes it

    def describe(self) -> str:
        return f"bid {money(self.amount)} on {self.space}"

    def refusals(self, game: Game) -> list[Refusal]:
        state = game.stash.get(_STATE)
        p = self.player
        if state is None or state[0] is not self.space:
            return [Refusal("R11", PLUGIN_ID, f"{self.space} is not up for auction")]
        request = game.request
        if request is not None and request.kind == BID and request.player is not p:
            return [Refusal("R11", PLUGIN_ID, f"it is {request.player}'s turn to bid or pass")]
        high = state[1]
        opts = game.variant.rules[PLUGIN_ID]
        least = opts["first_bid"] if state[2] is None else high + opts["increment"]
        if self.amount < least:
            what = "the first bid" if state[2] is None else f"a bid over {money(high)}"
            return [Refusal("R11", PLUGIN_ID, f"{what} must be at least {money(least)}")]
        if self.amount > p.cash:
            return [Refusal("R11", PLUGIN_ID, f"{p} has only {money(p.cash)} and may not bid "
                            f"more than their cash")]
        return []

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        if request.kind == BID and request.space is not None:
            yield ActionRange(cls(request.player, request.space, request.least), "amount",
                              request.least, request.player.cash)


@dataclass(slots=True)
class Pass(Answer):
    """`P passes`: P is out of the auction (R11)."""

    LINE = "{player} passes"
    ASKED_BY = (BID,)
    player: Player
    space: Space
    verb = "pass"

    def describe(self) -> str:
        return f"pass on {self.space}"



def printed_rent(game: Game, space: Space, houses: int, dice: tuple[int, int]) -> int:
    """R18: the printed rent, or a multiple of the dice total (rounded, R30)."""
    per_dice = space.data.get("rent_per_dice")
    if per_dice is not None:
        return game.round(per_dice * (dice[0] + dice[1]))
    return space.rent


def printed_value(game: Game, space: Space, houses: int) -> int:
    """R28: its `score` when it has one, else three times its rent (at a throw of 7)."""
    score = space.data.get("score")
    if score is not None:
        return score
    per_dice = space.data.get("rent_per_dice")
    if per_dice is not None:
        return 3 * game.round(per_dice * 7)
    return 3 * space.data.get("rent", 0)


class AuctionHooks:
    """The hook this rule declares: other rules put a space up for auction through it."""

    @staticmethod
    @hookspec(firstresult=True)
    def em_auction(game: Game, space: Space, starter: Player) -> Any:
        """Put an unowned space up for auction (R11), bidding starting with `starter`; first result wins.

        Fired when a street is declined (R9), on landing on an unowned utility or commercial
        building (R10), and by advance cards (R21a). Nobody answering: the space stays unowned.
        """


PLUGIN_ID = "auction"
HOOKSPECS = AuctionHooks
ACTIONS = (Bid, Pass)
RULES = ("R10", "R11")
MONEY = {"type": "integer", "minimum": 0, "x-money": True}
OPTIONS = {
    "first_bid": {**MONEY, "default": 100,
                  "description": "The smallest opening bid (R11)."},
    "increment": {**MONEY, "minimum": 1, "default": 10,
                  "description": "How much each later bid must at least add (R11)."},
}
SPACE_KINDS = {
    "utility": SpaceKind(schema={
        "description": "A blue utility, sold only at auction (R10): rent is `rent`, or "
                       "`rent_per_dice` times the dice total (R18). It cannot be mortgaged (R19).",
        "properties": {
            "rent": MONEY,
            "rent_per_dice": {"type": "integer", "minimum": 0},
        },
        "oneOf": [{"required": ["rent"]}, {"required": ["rent_per_dice"]}],
    }, ownable=True, on_landing="auction", rent=printed_rent, value=printed_value,
        plural="utilities"),
    "commercial": SpaceKind(schema={
        "description": "A blue commercial building, sold only at auction (R10): printed `rent`, "
                       "mortgage value `mortgage`, and optionally its `score` value (R28).",
        "properties": {"rent": MONEY, "mortgage": MONEY, "score": MONEY},
        "required": ["rent", "mortgage"],
    }, ownable=True, on_landing="auction", mortgageable=True, rent=printed_rent,
        value=printed_value, plural="commercial buildings"),
}
EVENTS = {
    "auction": "{space} is up for auction",
    "bid": "{player} bids {amount:$} on {space}",
    "pass": "{player} passes on {space}",
    "auction_won": "{player} wins the auction of {space} for {amount:$}",
    "auction_unsold": "Nobody bids on {space}: it stays unowned",
    "auction_void": "{player} cannot pay the winning bid: {space} stays unowned",
}

ACCEPTS = (Bid, Pass)
# the auction in progress: [space, high bid, high bidder]
_STATE = StashKey["list[Any] | None"]("auction.state")


@hookimpl
def em_land(game: Game, player: Player, space: AuctionedOnLanding,
            dice: tuple[int, int]) -> bool | None:
    """R10: a landing on any kind of space auctioned at once, any plugin's too."""
    if game.kinds[space.kind].on_landing == "auction" and game.owner[space.index] is None:
        game.hook.em_auction(game, space, player)
        return True
    return None


@hookimpl
def em_auction(game: Game, space: Space, starter: Player) -> bool:
    game.emit("auction", space=space.name)
    players = game.players
    # in turn order from the starter, those still in the game
    bidders = [p for p in players[starter.index:] + players[:starter.index] if not p.bankrupt]
    state: list[Any] = [space, 0, None]
    outer = game.stash.get(_STATE)
    game.stash[_STATE] = state
    # one request, brought up to date for each bidder in turn (a decider answers it at once)
    opts = game.variant.rules[PLUGIN_ID]
    first_bid, increment = opts["first_bid"], opts["increment"]
    request = Request(BID, starter, ACCEPTS, space=space, least=first_bid)
    try:
        i = 0
        while bidders and not (len(bidders) == 1 and bidders[0] is state[2]):
            i %= len(bidders)
            bidder = bidders[i]
            if bidder.bankrupt:  # R26: asked nothing more (no built-in rule does this mid-auction)
                del bidders[i]
                continue
            request.player = bidder
            action = game.ask(request)
            if type(action) is Bid:
                state[1] = request.high_bid = action.amount
                state[2] = request.high_bidder = bidder
                request.least = action.amount + increment
                game.emit("bid", player=bidder.name, amount=action.amount, space=space.name)
                i += 1
            else:
                game.emit("pass", player=bidder.name, space=space.name)
                del bidders[i]
    finally:
        game.stash[_STATE] = outer
    _, amount, winner = state
    if winner is None:
        game.emit("auction_unsold", space=space.name)
        return True
    # the bid is a debt (R23): a winner whose cash fell since (a sale of the exemption card
    # happens at any moment) raises the difference (R25) or goes bankrupt and gets nothing
    game.collect(winner, game.bank, amount, f"winning bid for {space} (R11)", "bid")
    if winner.bankrupt:
        game.emit("auction_void", player=winner.name, space=space.name)
        return True
    game.acquire(winner, space)
    game.emit("auction_won", player=winner.name, space=space.name, amount=amount)
    return True
