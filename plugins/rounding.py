"""Rounding (R30): computed amounts go to the nearest smallest bill, halves up; chosen amounts must be multiples.

R30  there are no $1 or $5 bills: amounts the game computes (interest, multiples of the
     dice, per-house charges) are rounded to the nearest $10, halves up; an amount a
     person writes (a bid, a sale price) must be a multiple of $10.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from easymoney import Refusal, hookimpl, money
from easymoney.plugins.auction import Bid
from easymoney.plugins.exemption import SellExemption
from easymoney.plugins.sales import Sell

if TYPE_CHECKING:
    from easymoney import Action, Game

PLUGIN_ID = "rounding"
REFUSES = (Bid, Sell, SellExemption)
# a listing offers these amounts on the grid em_amount_step gives: the smallest bill
REFUSES_UNLISTED = (Bid, Sell, SellExemption)
RULES = ("R30",)


@hookimpl
def em_round(game: Game, amount: int) -> int | None:
    bill = game.variant.smallest_bill
    if type(amount) is int:
        return (amount + bill // 2) // bill * bill
    q = Fraction(amount)
    # floor(amount / bill + 1/2) in integers: halves go up
    return (2 * q.numerator + q.denominator * bill) // (2 * q.denominator * bill) * bill


@hookimpl
def em_amount_step(game: Game, action: Action) -> int | None:
    """A bid or a price a person writes is a multiple of the smallest bill."""
    if type(action) is Bid or type(action) is Sell or type(action) is SellExemption:
        return game.variant.smallest_bill
    return None


@hookimpl
def em_refusals(game: Game, action: Action) -> list[Refusal] | None:
    if type(action) is Bid:
        amount = action.amount
    elif type(action) is Sell or type(action) is SellExemption:
        amount = action.price
    else:
        return None
    bill = game.variant.smallest_bill
    if amount % bill:
        return [Refusal("R30", PLUGIN_ID, f"{money(amount)} is not a multiple of the smallest "
                        f"bill, {money(bill)}")]
    return None
