"""Actions players take, the requests that ask for them, and refusals; each reads like its script line."""

from __future__ import annotations

from dataclasses import dataclass
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

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
        """`R13 four_sides: ...`; a house rule with no rule id of the rule book (`-`, or its
        plugin id again) prints `loans: ...`, and a refusal by no rule its reason alone."""
        by = " ".join(dict.fromkeys(n for n in (self.rule, self.plugin) if n and n != "-"))
        return f"{by}: {self.reason}" if by else self.reason


class Action:
    """Base of everything a player can do. `player` is the actor.

    Actions are values: once made, never changed (they are not frozen dataclasses only
    because a frozen dataclass takes three times as long to make, and bots make millions).
    """

    __slots__ = ()
    player: Player
    verb = "act"
    # taken in the mover's own windows, before the throw or after the landing (R5)
    window: ClassVar[bool] = False
    # may answer a request to raise money (R25)
    raises_money: ClassVar[bool] = False

    def describe(self) -> str:
        """`bid on Beacon Street`: used in 'Ann cannot bid on Beacon Street: ...'."""
        return self.verb


# --- requests: what the game waits for ------------------------------------------------

# request kind -> the words saying what the game waits for (see `request_kind`)
_REQUEST_WORDS: dict[str, Callable[[Request], str]] = {}


def request_kind(name: str, words: Callable[[Request], str]) -> str:
    """Declare a kind of request and its words; returns the kind, a plain string.

    A plugin that asks declares its kinds once, at module level: `BUY = request_kind("buy",
    lambda r: f"{r.player} to buy {r.space} or decline")`. The words are what a script
    error and the prompt say the game waits for. Kinds are plain strings (bots and scripts
    look answers up by kind on every decision, and a plain string is the quickest key).
    """
    _REQUEST_WORDS[name] = words
    return sys.intern(name)


class Request:
    """What the game waits for: who must act, of which kind, and the facts a decider needs.

    kind      a kind declared with `request_kind` by the plugin that asks (turn: window_before,
              window_after; streets: buy; auction: bid; debts: raise)
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
        words = _REQUEST_WORDS.get(self.kind)
        return words(self) if words is not None else f"{self.player} to {self.kind}"

    def __repr__(self) -> str:
        return f"Request({self.kind}, {self.player})"
