"""Rounding (R30): computed amounts go to the nearest smallest bill, halves up; chosen amounts must be multiples.

R30  there are no $1 or $5 bills: amounts the game computes (interest, multiples of the
     dice, per-house charges) are rounded to the nearest $10, halves up; an amount a
     person writes (a bid, a sale price, any action's field annotated `Money`, a plugin's
     too) must be a multiple of $10.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from easymoney import OffGrid, Refusal, hookimpl, money

if TYPE_CHECKING:
    from easymoney import Game

PLUGIN_ID = "rounding"
RULES = ("R30",)


@hookimpl
def em_round(game: Game, amount: int) -> int | None:
    bill = game.variant.smallest_bill
    if type(amount) is int:
        return (amount + bill // 2) // bill * bill
    # a Fraction already (expected values, a plugin's shares): no copy made of it, for
    # some rules round several at each decision
    q = amount if type(amount) is Fraction else Fraction(amount)
    # floor(amount / bill + 1/2) in integers: halves go up
    return (2 * q.numerator + q.denominator * bill) // (2 * q.denominator * bill) * bill


@hookimpl
def em_money_step(game: Game) -> int | None:
    """An amount a person writes is a multiple of the smallest bill."""
    return game.variant.smallest_bill


@hookimpl
def em_refusals(game: Game, action: OffGrid) -> list[Refusal] | None:
    """R30 judges every amount a person writes (a listing offers those on the grid only)."""
    fields = type(action).money_fields
    if not fields:
        return None
    bill = game.variant.smallest_bill
    for name in fields:
        amount = getattr(action, name)
        if amount % bill:
            return [Refusal("R30", PLUGIN_ID, f"{money(amount)} is not a multiple of the "
                            f"smallest bill, {money(bill)}")]
    return None
