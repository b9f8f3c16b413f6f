"""The end of the game (R27): at the first bankruptcy, or the last player standing, or after a number of turns.

R27  the game ends when one player goes bankrupt (the others are ranked), or when the Bank
     cannot pay what it owes (the `bank` rule ends it then).
     Option `end.on`: `first_bankruptcy` (standard) | `last_player_standing`: play on until
     one solvent player is left (the reference card).
     Option `end.max_turns`: the game also ends after that many turns (each player's turn
     counts one); null for no limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import hookimpl
from easymoney.words import count

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "end"
# how the game may end by this rule: `expect game over by REASON` names one
END_REASONS = ("bankruptcy", "turns")
RULES = ("R27",)
OPTIONS = {
    "on": {
        "enum": ["first_bankruptcy", "last_player_standing"], "default": "first_bankruptcy",
        "description": "first_bankruptcy: the game ends when one player goes bankrupt "
                       "(standard); last_player_standing: it goes on until one solvent player "
                       "is left (the reference card).",
    },
    "max_turns": {
        "type": ["integer", "null"], "minimum": 1, "maximum": 1000000, "default": None,
        "description": "End the game after this many player-turns (null: no limit).",
    },
}


@hookimpl(trylast=True)  # game.end unwinds: the others settle the estate first (R26)
def em_bankrupt(game: Game, player: Player) -> None:
    opts = game.variant.rules[PLUGIN_ID]
    if opts["on"] == "first_bankruptcy":
        game.end("bankruptcy", f"{player} went bankrupt (R27)")
    left = game.active_players()
    if len(left) <= 1:
        who = f"{left[0]} is the last player standing" if left else "no player is left"
        game.end("bankruptcy", f"{player} went bankrupt and {who} (R27)")


@hookimpl
def em_turn_end(game: Game, player: Player) -> None:
    limit = game.variant.rules[PLUGIN_ID]["max_turns"]
    if limit is not None and game.turns_played >= limit:
        n = game.turns_played
        game.end("turns", f"{count(n, 'turn')} {'was' if n == 1 else 'were'} played (end.max_turns)")
