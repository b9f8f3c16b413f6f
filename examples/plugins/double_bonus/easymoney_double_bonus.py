"""House rule: a MAN that lands exactly on the Bonus Corner collects the bonus `multiplier` times.

A third-party rule plugin for easymoney, installed as its own package. It shows everything a
plugin author needs: the declarations (id, options schema, requirements, event texts), one
hook implementation, and tests (tests/test_double_bonus.py). Switch it on from a variant
(`rules: {double_bonus: {multiplier: 3}}`), a script (`with double_bonus`) or the command
line (`--with double_bonus --option double_bonus.multiplier=3`).

The Bonus Corner rule (R7) already pays the bonus once on landing; this rule pays the
extra `multiplier - 1` times, from the Bank like the bonus itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "double_bonus"
RULES: tuple[str, ...] = ()  # a house rule: it has no id in the rule book
REQUIRES = ("bonus_corner",)
OPTIONS = {
    "multiplier": {
        "type": "integer", "minimum": 1, "maximum": 10, "default": 2,
        "description": "How many times an exact landing pays the bonus (1 = as R7).",
    },
}
EVENTS = {"double_bonus": "{player} lands exactly on {space}: the bonus is paid {times} times"}


@hookimpl
def em_moved(game: Game, player: Player, start: int, steps: int) -> None:
    if steps <= 0:
        return
    space = game.spaces[player.position]
    if space.kind != "bonus":
        return
    times = game.variant.rules[PLUGIN_ID]["multiplier"]
    if times <= 1:
        return
    game.emit("double_bonus", player=player.name, space=space.name, times=times)
    game.collect(game.bank, player, space.amount * (times - 1),
                 f"exact landing on the {space.name} (double_bonus)")
