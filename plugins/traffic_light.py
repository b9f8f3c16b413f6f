"""The Red Traffic Light (R8): crossing its double space without stopping is a traffic fine.

R8  a MAN that moves forward across the Red Traffic Light (both cells) without stopping on
    either cell pays the fine to the Bank, once per move; stopping on a cell costs nothing,
    a MAN that starts its move on a cell is not fined, moving backward is never fined. It
    is a traffic fine: the Special Exemption card waives it (R16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import StashKey, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "traffic_light"
RULES = ("R8",)
SPACE_KINDS = {
    "traffic_light": {
        "description": "Fines a MAN that crosses it without stopping (R8). `cells: 2` makes "
                       "it a double space occupying two consecutive numbers.",
        "properties": {
            "fine": {"type": "integer", "minimum": 0, "x-money": True},
            "cells": {"type": "integer", "minimum": 1, "maximum": 2, "default": 1},
        },
        "required": ["fine"],
    },
}
EVENTS = {"exempt": "{player} is exempt from {what}: {why}"}

# the board's, made once: each light's first cell and cells, and from each start the fewest
# steps forward that cross a cell of one (a move of fewer is over at once: em_moved is told
# of every move)
_KEY = StashKey[tuple]("traffic_light.groups", shared=True)


@hookimpl
def em_setup(game: Game) -> None:
    groups: dict[str, list] = {}
    for space in game.spaces:
        if space.kind == "traffic_light":
            groups.setdefault(space.name, []).append(space)
    lights = tuple((cells[0], tuple(s.index for s in cells)) for cells in groups.values())
    n = len(game.spaces)
    reach = tuple(min(((c - start - 1) % n + 1 for _, cells in lights for c in cells),
                      default=n + 1) for start in range(n))
    game.stash[_KEY] = (lights, reach)


@hookimpl
def em_moved(game: Game, player: Player, start: int, steps: int) -> None:
    lights, reach = game.stash[_KEY]
    if steps < reach[start] or player.bankrupt:  # R26: bankrupted earlier on this move
        return
    n = len(game.spaces)
    end = player.position
    for first, cells in lights:
        if start in cells or end in cells:
            continue
        for c in cells:
            if (c - start - 1) % n < steps:
                break
        else:
            continue  # it did not cross this light
        why = game.hook.em_exempt(game, player, "traffic_fine") \
            if game.hook.has("em_exempt") else None  # R16's hook, when something answers it
        if why:
            game.emit("exempt", player=player.name, what=f"the {first.name} fine", why=why)
        else:
            game.collect(player, game.bank, first.fine,
                         f"traffic fine for crossing the {first.name} (R8)", "fine")
