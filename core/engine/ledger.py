"""The ledger: the one way money moves in a game, debts, and rounding (R23, R30 ask it)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Account, Game


class Ledger:
    """Moves a game's money: whole dollars, never an overdraft, every payment an event.

    The game hands out its bound methods (`game.transfer`, `game.collect`, `game.round`):
    rules call them as the game's own.
    """

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def transfer(self, payer: Account, payee: Account, amount: int, reason: str) -> None:
        """The one way money moves: whole dollars, never more than the payer holds."""
        if type(amount) is not int or not 0 < amount <= payer.cash:
            if type(amount) is not int or amount < 0:
                raise ValueError(f"transfer of {amount!r}: amounts are whole non-negative dollars")
            if amount > payer.cash:
                raise ValueError(f"{payer} cannot pay {amount}: holds only {payer.cash}")
            return  # nothing to pay
        payer.cash -= amount
        payee.cash += amount
        game = self.game
        if "pay" in game.seen:
            game.emit("pay", payer=payer.name, payee=payee.name, amount=amount, reason=reason)

    def collect(self, debtor: Account, creditor: Account, amount: int, reason: str) -> int:
        """`debtor` owes `amount` to `creditor`: the rules say how it is paid. Returns what was paid.

        Nothing is due to or from a bankrupt player (R26): whatever rule comes next on the
        move that bankrupted them (the Bonus Corner, a card) pays or charges nothing.
        """
        if creditor.bankrupt or debtor.bankrupt:
            return 0
        game = self.game
        # a hook is an attribute holding a function, not a method: read it, then call it
        # (`relay.em_x(...)` is a method call to Python 3.11, which it cannot speed up)
        em_collect = game.hook.em_collect
        paid = em_collect(game, debtor, creditor, amount, reason)
        if paid is None:  # no plugin answers: pay what can be paid
            paid = min(amount, debtor.cash)
            self.transfer(debtor, creditor, paid, reason)
        return paid

    def round(self, amount: int | Fraction) -> int:
        """An amount the game computed, as the rules round it (R30); whole dollars at least."""
        game = self.game
        r = game.hook.em_round(game, amount)
        if r is None:
            return amount if type(amount) is int else math.floor(amount + Fraction(1, 2))
        return r

    def total(self) -> int:
        """All the money in the game: the Bank's, the players', the pots'."""
        game = self.game
        return game.bank.cash + sum(p.cash for p in game.players) + sum(
            pot.cash for pot in game.pots.values())
