"""Actions players take, the requests that ask for them, and refusals; each reads like its script line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Player
    from .model import Space


def money(amount: int) -> str:
    """`$1,100`: how amounts are written for people."""
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


def quoted(space: Space) -> str:
    return f'"{space.name}"'


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules forbid an action: the rule id, the plugin that enforces it, and words."""

    rule: str
    plugin: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule} {self.plugin}: {self.reason}"


class Action:
    """Base of everything a player can do. `player` is the actor.

    Actions are values: once made, never changed (they are not frozen dataclasses only
    because a frozen dataclass takes three times as long to make, and bots make millions).
    """

    __slots__ = ()
    player: Player
    verb = "act"

    def describe(self) -> str:
        """`bid on Beacon Street`: used in 'Ann cannot bid on Beacon Street: ...'."""
        return self.verb


@dataclass(slots=True)
class Roll(Action):
    player: Player
    dice: tuple[int, int] | None = None
    verb = "roll"

    def __str__(self) -> str:
        return f"{self.player} rolls" + (f" {self.dice[0]} {self.dice[1]}" if self.dice else "")


@dataclass(slots=True)
class EndTurn(Action):
    """Close the window after the landing: the turn is over."""

    player: Player
    verb = "end the turn"

    def __str__(self) -> str:
        return f"{self.player} ends the turn"


@dataclass(slots=True)
class Buy(Action):
    player: Player
    space: Space
    verb = "buy"

    def describe(self) -> str:
        return f"buy {self.space}"

    def __str__(self) -> str:
        return f"{self.player} buys"


@dataclass(slots=True)
class Decline(Action):
    player: Player
    space: Space
    verb = "decline"

    def describe(self) -> str:
        return f"decline {self.space}"

    def __str__(self) -> str:
        return f"{self.player} declines"


@dataclass(slots=True)
class Bid(Action):
    player: Player
    space: Space
    amount: int
    verb = "bid"

    def describe(self) -> str:
        return f"bid {money(self.amount)} on {self.space}"

    def __str__(self) -> str:
        return f"{self.player} bids {self.amount}"


@dataclass(slots=True)
class Pass(Action):
    player: Player
    space: Space
    verb = "pass"

    def describe(self) -> str:
        return f"pass on {self.space}"

    def __str__(self) -> str:
        return f"{self.player} passes"


@dataclass(slots=True)
class Build(Action):
    player: Player
    space: Space
    count: int = 1
    verb = "build"

    def describe(self) -> str:
        return f"build {'a house' if self.count == 1 else f'{self.count} houses'} on {self.space}"

    def __str__(self) -> str:
        n = "" if self.count == 1 else f"{self.count} "
        return f"{self.player} builds {n}on {quoted(self.space)}"


@dataclass(slots=True)
class Mortgage(Action):
    player: Player
    space: Space
    verb = "mortgage"

    def describe(self) -> str:
        return f"mortgage {self.space}"

    def __str__(self) -> str:
        return f"{self.player} mortgages {quoted(self.space)}"


@dataclass(slots=True)
class Redeem(Action):
    player: Player
    space: Space
    verb = "redeem"

    def describe(self) -> str:
        return f"redeem {self.space}"

    def __str__(self) -> str:
        return f"{self.player} redeems {quoted(self.space)}"


@dataclass(slots=True)
class Sell(Action):
    player: Player
    space: Space
    buyer: Player
    price: int
    verb = "sell"

    def describe(self) -> str:
        return f"sell {self.space} to {self.buyer} for {money(self.price)}"

    def __str__(self) -> str:
        return f"{self.player} sells {quoted(self.space)} to {self.buyer} for {self.price}"


@dataclass(slots=True)
class SellExemption(Action):
    player: Player
    buyer: Player
    price: int
    verb = "sell the Special Exemption card"

    def describe(self) -> str:
        return f"sell the Special Exemption card to {self.buyer} for {money(self.price)}"

    def __str__(self) -> str:
        return f"{self.player} sells exemption to {self.buyer} for {self.price}"


@dataclass(slots=True)
class GoBankrupt(Action):
    player: Player
    verb = "go bankrupt"

    def __str__(self) -> str:
        return f"{self.player} goes bankrupt"


# --- requests: what the game waits for ------------------------------------------------

WINDOW_BEFORE = "window_before"
WINDOW_AFTER = "window_after"
BUY = "buy"
BID = "bid"
RAISE = "raise"

WINDOW_ACTIONS = (Build, Mortgage, Redeem, Sell)


class Request:
    """What the game waits for: who must act, of which kind, and the facts a decider needs.

    kind      WINDOW_BEFORE (accepts window actions or Roll), WINDOW_AFTER (window actions
              or EndTurn), BUY (Buy/Decline), BID (Bid/Pass), RAISE (Mortgage/Sell/GoBankrupt)
    player    who is asked
    accepts   the action types that answer it (any-moment actions come on top)
    space     BUY, BID: the space at stake
    high_bid, high_bidder   BID: the auction so far
    least                   BID: the smallest bid the rules accept now (set by whoever
                            makes the request: bots bid from it)
    amount, creditor        RAISE: the debt
    next_player             WINDOW_AFTER: whose turn follows
    """

    __slots__ = ("kind", "player", "accepts", "space", "high_bid", "high_bidder", "least",
                 "amount", "creditor", "next_player")

    def __init__(self, kind: str, player: Player, accepts: tuple[type, ...], *,
                 space: Space | None = None, high_bid: int = 0, high_bidder: Player | None = None,
                 least: int = 0, amount: int = 0, creditor: Any = None,
                 next_player: Player | None = None) -> None:
        self.kind = kind
        self.player = player
        self.accepts = accepts
        self.space: Any = space  # set for BUY and BID
        self.high_bid = high_bid
        self.high_bidder = high_bidder
        self.least = least
        self.amount = amount
        self.creditor = creditor
        self.next_player = next_player

    def describe(self) -> str:
        """`Bob to bid on Waldorf Hotel or pass`: the game waits for ..."""
        p = self.player
        if self.kind == WINDOW_BEFORE:
            return f"{p} to roll (or to build, mortgage, redeem or sell first)"
        if self.kind == WINDOW_AFTER:
            nxt = f", or {self.next_player} to begin the next turn" if self.next_player else ""
            return f"{p} to build, mortgage, redeem or sell{nxt}"
        if self.kind == BUY:
            return f"{p} to buy {self.space} or decline"
        if self.kind == BID:
            return f"{p} to bid on {self.space} or pass"
        if self.kind == RAISE:
            return (f"{p} to raise {money(self.amount - p.cash)} by mortgaging or selling "
                    f"(owes {money(self.amount)} to {self.creditor}), or to go bankrupt")
        return f"{p} to {self.kind}"

    def __repr__(self) -> str:
        return f"Request({self.kind}, {self.player})"
