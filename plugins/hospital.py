"""City Hospital (R15a): crash payments and doctors' bills feed a pot; landing on the Hospital takes it.

R15a  the pot starts empty; a MAN landing on City Hospital takes the whole pot (nothing
      when it is empty); cards that pay "to City Hospital" feed the pot. Without this rule
      those payments go to the Bank.
"""

from __future__ import annotations

from easymoney.engine.game import Account
from easymoney import hookimpl

PLUGIN_ID = "hospital"
LANDS_ON = ("hospital",)
RULES = ("R15a",)
SPACE_KINDS = {"hospital": {"description": "Landing takes the whole Hospital pot (R15a)."}}
EVENTS = {"hospital_empty": "{player} visits {space}: the pot is empty"}
POT = "hospital"


@hookimpl
def em_check_variant(variant):
    fed = [s.name for s in variant.spaces if s.get("to") == POT] + \
        [c.text for c in variant.cards if c.get("to") == POT]
    if fed and not any(s.kind == "hospital" for s in variant.spaces):
        return [f"board.spaces: {fed[0]!r} pays into the Hospital pot but no space of kind "
                f"'hospital' takes it (R15a)"]
    return None


@hookimpl
def em_setup(game):
    game.pots[POT] = Account("the Hospital pot")


@hookimpl
def em_land(game, player, space, dice):
    if space.kind != "hospital":
        return None
    pot = game.pots[POT]
    if pot.cash:
        game.transfer(pot, player, pot.cash, f"the Hospital pot at {space.name} (R15a)")
    else:
        game.emit("hospital_empty", player=player.name, space=space.name)
    return True
