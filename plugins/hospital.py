"""City Hospital (R15a): crash payments and doctors' bills feed a pot; landing on the Hospital takes it.

R15a  the pot starts empty; a MAN landing on City Hospital takes the whole pot (nothing
      when it is empty); cards that pay "to City Hospital" feed the pot. Without this rule
      those payments go to the Bank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import (Account, Expectation, OwnKind, ScriptContext, ScriptError,
                       SetupStatement, hookimpl, money)

if TYPE_CHECKING:
    from easymoney import Game, Money, Player, Variant

PLUGIN_ID = "hospital"
RULES = ("R15a",)
SPACE_KINDS = {"hospital": {"description": "Landing takes the whole Hospital pot (R15a)."}}
EVENTS = {"hospital_empty": "{player} visits {space}: the pot is empty"}
POT = "hospital"


@hookimpl
def em_check_variant(variant: Variant) -> list[str] | None:
    fed = [s.name for s in variant.spaces if s.get("to") == POT] + \
        [c.text for c in variant.cards if c.get("to") == POT]
    if fed and not any(s.kind == "hospital" for s in variant.spaces):
        return [f"board.spaces: {fed[0]!r} pays into the Hospital pot but no space of kind "
                f"'hospital' takes it (R15a)"]
    return None


@hookimpl
def em_setup(game: Game) -> None:
    game.pots[POT] = Account("the Hospital pot")


@hookimpl
def em_land(game: Game, player: Player, space: OwnKind, dice: tuple[int, int]) -> bool | None:
    if space.kind != "hospital":
        return None
    pot = game.pots[POT]
    if pot.cash:
        game.transfer(pot, player, pot.cash, f"the Hospital pot at {space.name} (R15a)", "pot")
    else:
        game.emit("hospital_empty", player=player.name, space=space.name)
    return True


# --- script lines -----------------------------------------------------------------------------

@dataclass(frozen=True)
class SetupHospital(SetupStatement):
    """`setup hospital MONEY`: the pot starts with that amount, from the Bank."""

    LINE = "hospital {amount}"
    amount: Money

    def apply(self, script: ScriptContext, game: Game) -> None:
        pot = game.pots.get(POT)
        if pot is None:
            raise ScriptError("there is no Hospital pot: the rule 'hospital' is off")
        if self.amount > game.bank.cash:
            raise ScriptError(f"the Bank has only {money(game.bank.cash)} and cannot pay "
                              f"{money(self.amount)} for this setup")
        game.transfer(game.bank, pot, self.amount, "setup: the Hospital pot", "setup")


@dataclass(frozen=True)
class ExpectHospital(Expectation):
    """`expect hospital MONEY`: what the Hospital pot holds."""

    LINE = "hospital {amount}"
    amount: Money

    def check(self, script: ScriptContext, game: Game) -> str | None:
        pot = game.pots.get(POT)
        cash = pot.cash if pot is not None else 0
        return None if cash == self.amount else f"the Hospital pot holds {money(cash)}"


STATEMENTS = (SetupHospital, ExpectHospital)
