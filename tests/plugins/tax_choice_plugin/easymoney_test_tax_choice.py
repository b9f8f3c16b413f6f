"""House rule: in their window a player may pay a voluntary tax to the Bank, flat ($10) or
by percent (1% of their cash, at least $1), and may pay it early, doubled.

`Ann pays percent tax` and `Ann pays flat tax early`: a `Literal` field and a `bool` field
whose candidates are derived (docs/plugins.md), so each value is a distinct legal action,
and each needs its own slot in the agents' catalogue (issue 40).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from easymoney import WINDOW_KINDS, Action, Player, Refusal, money

if TYPE_CHECKING:
    from easymoney import Game

PLUGIN_ID = "tax_choice"
RULES = ()
EVENTS = {"tax_choice": "{player} pays {amount:$} of {how} tax"}
FLAT = 10


@dataclass(slots=True)
class PayTax(Action):
    LINE = "{player} pays {how} tax [{early}]"
    ASKED_BY = WINDOW_KINDS
    window = True                                       # in the mover's windows (R5)
    player: Player
    how: Literal["flat", "percent"]
    early: bool = False
    verb = "pay tax"

    def amount(self) -> int:
        base = FLAT if self.how == "flat" else max(1, self.player.cash // 100)
        return 2 * base if self.early else base

    def refusals(self, game: Game) -> list[Refusal]:
        if self.player.cash < self.amount():
            return [Refusal("-", PLUGIN_ID, f"{self.player} has {money(self.player.cash)}")]
        return []

    def apply(self, game: Game) -> None:
        amount = self.amount()
        game.transfer(self.player, game.bank, amount, f"{self.how} tax")
        game.emit("tax_choice", player=self.player.name, amount=amount, how=self.how)


ACTIONS = (PayTax,)
