"""Offers (R22a): a deal the other player rejected is not offered again in the same window.

R22a  an offer to another player (a sale, R22; the Special Exemption card, R16; any rule's
      deal) that they rejected is not made again by the same player in the same window, at
      any price: the window of the turn it was made in (R5), the raising of money (R25), or
      the question under way when it was made at any moment. Another deal may be offered
      (another space, another player), and the same one in another window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import Deal, Refusal, hookimpl
from easymoney.engine.deals import counterparty, rejected_offer

if TYPE_CHECKING:
    from easymoney import Game


PLUGIN_ID = "offers"
RULES = ("R22a",)


@hookimpl
def em_refusals(game: Game, action: Deal) -> list[Refusal] | None:
    """R22a judges every deal, any rule's: whom it binds, at any price."""
    if type(action).counterparty is None:
        return None
    rejected = rejected_offer(game, action)
    if rejected is None:
        return None
    return [Refusal("R22a", PLUGIN_ID, f"{counterparty(action)} rejected {action.player}'s "
                    f"offer to {rejected} in this window: offer another deal, or this one in "
                    f"another window")]
