"""Test fixture: shares of the Bank. Each player starts with `shares` of them (option, 10).
A bot knows these actions only from what the plugin declares (docs/plugins.md, "How the
built-in bots use your actions"):

- `P cashes N shares` raises money (`raises_money`): while P must raise money (R25), the
  Bank buys N shares back at $450 each, $50 below their price: worth -$50 a share to P.
- `P pockets dividend`, at any moment, once a turn: the Bank pays `dividend` a share
  (option, $50), and that is what it is worth; a negative dividend is a levy P pays.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import Action, ActionRange, Refusal, Request, StashKey, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "shares"
RULES = ()
PRICE = 500     # what a share is worth
BUYBACK = 450   # what the Bank pays for one cashed to raise money
OPTIONS = {
    "shares": {"type": "integer", "minimum": 0, "default": 10,
               "description": "The shares each player starts with."},
    "dividend": {"type": "integer", "default": 50, "x-money": True,
                 "description": "What a share pays its holder once a turn (negative: a levy)."},
}
# player name -> shares held
HELD = StashKey["dict[str, int]"]("shares.held")
# player name -> the turn (turns played before it) they last pocketed a dividend in
POCKETED = StashKey["dict[str, int]"]("shares.pocketed")
EVENTS = {
    "shares_cashed": "{player} cashes {count:#share} for {amount:$}",
    "dividend": "{player} pockets a dividend of {amount:$}",
}
RAISE = "raise"  # the debts rule's request to raise money (R25)


def held(game: Game, player: Player) -> int:
    return game.stash.get(HELD, {}).get(player.name, 0)


def _pocketed(game: Game, player: Player) -> bool:
    return game.stash.get(POCKETED, {}).get(player.name) == game.turns_played


def dividend(game: Game, player: Player) -> int:
    """What P's shares pay (or, negative, cost) once a turn."""
    per_share: int = game.variant.rules[PLUGIN_ID]["dividend"]
    return per_share * held(game, player)


@dataclass(slots=True)
class CashShares(Action):
    """`P cashes N shares`: to raise money (R25), N shares back to the Bank at $450."""

    LINE = "{player} cashes {count} shares"
    ASKED_BY = (RAISE,)
    player: Player
    count: int
    verb = "cash shares"
    raises_money = True

    def describe(self) -> str:
        return f"cash {self.count} shares"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        shares = held(game, request.player)
        if request.kind == RAISE and shares:
            yield ActionRange(cls(request.player, 1), "count", 1, shares)

    def refusals(self, game: Game) -> list[Refusal]:
        shares = held(game, self.player)
        if not 1 <= self.count <= shares:
            return [Refusal("-", PLUGIN_ID, f"{self.player} holds {shares} shares")]
        return []

    def apply(self, game: Game) -> None:
        p, count = self.player, self.count
        game.stash[HELD][p.name] -= count
        game.collect(game.bank, p, BUYBACK * count, f"cashing shares ({count})", "other")
        game.emit("shares_cashed", player=p.name, count=count, amount=BUYBACK * count)

    def value(self, game: Game, player: Player) -> int | None:
        return (BUYBACK - PRICE) * self.count if player is self.player else None


@dataclass(slots=True)
class PocketDividend(Action):
    """`P pockets dividend`: at any moment, once a turn, the dividend of P's shares."""

    LINE = "{player} pockets dividend"
    ANY_MOMENT = True
    player: Player
    verb = "pocket a dividend"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        p = request.player
        if held(game, p) and not _pocketed(game, p):
            yield cls(p)

    def refusals(self, game: Game) -> list[Refusal]:
        if not held(game, self.player):
            return [Refusal("-", PLUGIN_ID, f"{self.player} holds no share")]
        if _pocketed(game, self.player):
            return [Refusal("-", PLUGIN_ID, f"{self.player} pocketed a dividend this turn")]
        return []

    def apply(self, game: Game) -> None:
        p = self.player
        game.stash.setdefault(POCKETED, {})[p.name] = game.turns_played
        amount = dividend(game, p)
        if amount >= 0:
            game.collect(game.bank, p, amount, "a dividend", "other")
        else:
            game.collect(p, game.bank, -amount, "a levy on shares", "other")
        game.emit("dividend", player=p.name, amount=amount)

    def value(self, game: Game, player: Player) -> int | None:
        return dividend(game, player) if player is self.player else None


ACTIONS = (CashShares, PocketDividend)


@hookimpl
def em_setup(game: Game) -> None:
    game.stash[HELD] = {p.name: game.variant.rules[PLUGIN_ID]["shares"] for p in game.players}


@hookimpl
def em_any_moment_actions() -> list[type[Action]]:
    return [PocketDividend]
