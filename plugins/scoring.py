"""Scoring (R28) and the winner (R29): cash plus the value of what each player owns; the largest total wins.

R28  a street is worth its price B times its houses; a utility or commercial building three
     times its rent (for a multiple of the dice, three times the rent at a throw of 7); a
     space with a `score` (the Milk Route) is worth that; a mortgaged space and the Special
     Exemption card are worth nothing; the Hospital pot belongs to no one.
R29  the player with the largest total wins; equal largest totals share the win.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player, Space

PLUGIN_ID = "scoring"
RULES = ("R28", "R29")
ESSENTIAL = True


@hookimpl
def em_space_value(game: Game, space: Space) -> int | None:
    i = space.index
    if game.mortgaged[i]:
        return 0
    value = game.kinds[space.kind].value  # the kind's own R28 value
    return 0 if value is None else value(game, space, game.houses[i])


@hookimpl
def em_worth(game: Game, player: Player) -> int | None:
    value = game.hook.em_space_value
    estate = 0
    for space in player.spaces:  # a loop, not sum() of a generator: asked every turn
        estate += value(game, space)
    return player.cash + estate
