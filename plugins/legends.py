"""Legend spaces (R15): pay to or receive from the Bank the printed amount; taxes and fines as marked.

R15  landing on a legend space: pay to or receive from the Bank the amount printed on it.
     Spaces marked tax are taxes and those marked traffic fine are fines (both waived by
     R16). Auto Accident and Airplane Crash pay into the Hospital pot (`to: hospital`),
     which without the `hospital` rule is the Bank.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from easymoney import OwnKind, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "legends"
RULES = ("R15",)
MONEY = {"type": "integer", "minimum": 0, "x-money": True}
SPACE_KINDS = {
    "legend": {
        "description": "Receive `receive` from the Bank, or pay `pay` to the Bank or into a pot "
                       "(`to: hospital`) (R15); `tax` and `traffic_fine` mark charges that the "
                       "Special Exemption card waives (R16).",
        "properties": {
            "receive": MONEY,
            "pay": MONEY,
            "to": {"enum": ["bank", "hospital"], "default": "bank"},
            "tax": {"type": "boolean", "default": False},
            "traffic_fine": {"type": "boolean", "default": False},
        },
        "oneOf": [{"required": ["receive"]}, {"required": ["pay"]}],
    },
}


def charge(game: Game, player: Player, amount: int, to: str, categories: Iterable[str],
           reason: str) -> None:
    """Make `player` pay a printed charge, unless exempt (R16); `to` names a pot or the Bank."""
    categories = tuple(categories)
    # the exemption rule's hook (R16): asked when something here answers it
    for category in categories if game.hook.has("em_exempt") else ():
        why = game.hook.em_exempt(game, player, category)
        if why:
            game.emit("exempt", player=player.name, what=reason, why=why)
            return
    payee = game.pots.get(to, game.bank) if to != "bank" else game.bank
    kind = "tax" if "tax" in categories else "fine" if "traffic_fine" in categories else "charge"
    game.collect(player, payee, amount, reason, kind)


@hookimpl
def em_land(game: Game, player: Player, space: OwnKind, dice: tuple[int, int]) -> bool | None:
    if space.kind != "legend":
        return None
    if "receive" in space.data:
        game.collect(game.bank, player, space.receive, f"{space.name} (R15)", "bonus")
    else:
        categories = [c for c in ("tax", "traffic_fine") if space.get(c)]
        charge(game, player, space.pay, space.get("to", "bank"), categories,
               f"{space.name} (R15)")
    return True
