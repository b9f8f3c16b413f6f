"""The ledger: the one way money moves in a game, debts, and rounding (R23, R30 ask it)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Account, Game

# What a payment is, as the built-in rules say it (`kind` of `collect`, `transfer` and
# `em_collect`); a plugin may use its own words for its own payments ("loan").
PAYMENT_KINDS = (
    "setup",       # starting cash (R2), a script's `setup` lines, a pot's first cash
    "purchase",    # buying an unowned space from the Bank (R9)
    "bid",         # a winning bid (R11)
    "rent",        # rent to an owner (R18)
    "tax",         # a tax: a legend space or a card marked `tax` (R15, R21)
    "fine",        # a traffic fine: the Red Traffic Light, a space or card marked so (R8)
    "charge",      # any other printed charge of a legend space (R15)
    "bonus",       # money from the Bank for a space: the Bonus Corner (R7), a legend (R15)
    "card",        # what a Give or Take card gives or takes, not a tax or fine (R21)
    "pot",         # a pot paid out (R15a)
    "building",    # houses built (R17)
    "mortgage",    # the Bank's loan on a mortgaged space (R19)
    "redemption",  # redeeming a mortgage, its interest included (R20)
    "sale",        # a sale between players: a space (R22), the Special Exemption card (R16)
    "bankruptcy",  # a bankrupt player's cash to their creditor (R26)
    "other",       # a payment that does not say (the default)
)


class Ledger:
    """Moves a game's money: whole dollars, never an overdraft, every payment an event.

    The game hands out its bound methods (`game.transfer`, `game.collect`, `game.round`):
    rules call them as the game's own.
    """

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def transfer(self, payer: Account, payee: Account, amount: int, reason: str,
                 kind: str = "other") -> None:
        """The one way money moves: whole dollars, never more than the payer holds.

        `kind` says what the payment is (PAYMENT_KINDS); `em_collect` implementations pass
        on the kind of the debt they pay. The event keeps its reason, as before, and says the
        kind as `payment` (`kind` names the event: what `analyze` sums money flows by)."""
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
            game.emit("pay", payer=payer.name, payee=payee.name, amount=amount, reason=reason,
                      payment=kind)

    def collect(self, debtor: Account, creditor: Account, amount: int, reason: str,
                kind: str = "other") -> int:
        """`debtor` owes `amount` to `creditor`: the rules say how it is paid. Returns what was paid.

        `kind` says what the payment is (a tax, rent, a purchase: PAYMENT_KINDS), for the
        `em_collect` implementations to read (a house rule may send taxes to a pot).

        Nothing is due to or from a bankrupt player (R26): whatever rule comes next on the
        move that bankrupted them (the Bonus Corner, a card) pays or charges nothing. A debt
        the debtor can pay is a plain transfer where only the built-in payer rules answer
        `em_collect` (RuleSet.plain_payments); a house rule's `em_collect` is asked always.
        """
        if creditor.bankrupt or debtor.bankrupt:
            return 0
        game = self.game
        if amount <= debtor.cash and game.ruleset.plain_payments:
            # what every built-in payer rule does with a debt the debtor can pay (debts
            # R23, bank R27): a plain transfer; the rules are entered only for a shortfall
            self.transfer(debtor, creditor, amount, reason, kind)
            return amount
        # a hook is an attribute holding a function, not a method: read it, then call it
        # (`relay.em_x(...)` is a method call to Python 3.11, which it cannot speed up)
        em_collect = game.hook.em_collect
        paid = em_collect(game, debtor, creditor, amount, reason, kind)
        if paid is None:  # no plugin answers: pay what can be paid
            paid = min(amount, debtor.cash)
            self.transfer(debtor, creditor, paid, reason, kind)
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
