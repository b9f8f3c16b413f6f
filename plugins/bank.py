"""The Bank (R2): it deals the starting cash, and being finite it pays only what it has (R27).

R2   each player receives the starting cash from the Bank, which holds the variant's total.
R27  when the Bank cannot pay what it owes, it pays what it has and the game ends by
     "Breaking the Bank".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from easymoney import money
from easymoney import hookimpl

if TYPE_CHECKING:
    from easymoney import Game

PLUGIN_ID = "bank"
# how the game may end by this rule: `expect game over by REASON` names one
END_REASONS = ("bank",)
RULES = ("R2",)
ESSENTIAL = True
EVENTS = {"bank_broken": "The Bank is broken: it owes {owed:$} to {payee} and has only {paid:$}"}


@hookimpl
def em_setup(game: Game) -> None:
    cash = game.variant.starting_cash
    for player in game.players:
        game.transfer(game.bank, player, cash, "starting cash (R2)", "setup")


@hookimpl
def em_collect(game: Game, debtor: Any, creditor: Any, amount: int, reason: str,
               kind: str) -> int | None:
    if debtor is not game.bank:
        return None
    if amount <= debtor.cash:
        game.transfer(debtor, creditor, amount, reason, kind)
        return amount
    paid = debtor.cash
    game.transfer(debtor, creditor, paid, reason, kind)
    game.emit("bank_broken", payee=creditor.name, owed=amount, paid=paid)
    game.end("bank", f"the Bank could not pay {money(amount)} to {creditor} ({reason}); "
                     f"it paid {money(paid)} (R27)")
    return paid  # not reached: game.end unwinds the turn
