"""The Bonus Corner (R7): moving forward onto or across it collects the bonus from the Bank.

R7  a MAN that moves forward onto or across the Bonus Corner collects $2,500 from the
    Bank; a MAN moving backward across it neither collects nor pays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import StashKey, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "bonus_corner"
RULES = ("R7",)
SPACE_KINDS = {
    "bonus": {
        "description": "Collect `amount` from the Bank on moving forward onto or across it (R7).",
        "properties": {"amount": {"type": "integer", "minimum": 0, "x-money": True}},
        "required": ["amount"],
    },
}

# the board's, made once: the bonus spaces, and from each start the fewest steps forward
# that reach one (a move of fewer is over at once: em_moved is told of every move)
_KEY = StashKey[tuple]("bonus_corner.spaces", shared=True)


@hookimpl
def em_setup(game: Game) -> None:
    spaces = tuple(s for s in game.spaces if s.kind == "bonus")
    n = len(game.spaces)
    reach = tuple(min(((s.index - start - 1) % n + 1 for s in spaces), default=n + 1)
                  for start in range(n))
    game.stash[_KEY] = (spaces, reach)


@hookimpl
def em_moved(game: Game, player: Player, start: int, steps: int) -> None:
    spaces, reach = game.stash[_KEY]
    if steps < reach[start] or player.bankrupt:  # R26: bankrupted earlier on this move
        return
    n = len(game.spaces)
    for space in spaces:
        if (space.index - start - 1) % n < steps:
            verb = "landing on" if player.position == space.index else "passing"
            game.collect(game.bank, player, space.amount, f"{verb} the {space.name} (R7)",
                         "bonus")
