"""Test fixture: what each player owes the Bank, shown to every player (issue 39 item 18).

Each turn a player ends adds `tally.per_turn` dollars to what they owe the Bank, a tally in
the stash that no money follows (nothing is paid). The plugin declares what a player sees
of it (`SHOWN`): what they owe (dollars), the turns they ended (a count) and, once they owe
anything, the words `in debt`; the board, the prompt's status, `play --json`, a seat's
state, the page and an agent's observation show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from easymoney import Shown, StashKey, hookimpl

if TYPE_CHECKING:
    from easymoney import Game, Player

PLUGIN_ID = "tally"
RULES = ()
OPTIONS = {
    "per_turn": {"type": "integer", "minimum": 0, "default": 100, "x-money": True,
                 "description": "What each turn a player ends adds to what they owe the Bank."},
}
TURNS = StashKey["dict[str, int]"]("tally.turns")  # player name -> turns they ended


def turns(game: Game, player: Player) -> int:
    return game.stash.get(TURNS, {}).get(player.name, 0)


def owed(game: Game, player: Player) -> int:
    return turns(game, player) * int(game.option("tally.per_turn"))


def standing(game: Game, player: Player) -> str | None:
    return "in debt" if owed(game, player) else None  # nothing shown while they owe nothing


SHOWN = (Shown("owed", "owes the Bank", owed, money=True),
         Shown("turns", "turns ended", turns, most=1000),
         Shown("standing", "standing:", standing, text=True))


@hookimpl
def em_turn_end(game: Game, player: Player) -> None:
    ended = game.stash.setdefault(TURNS, {})
    ended[player.name] = ended.get(player.name, 0) + 1
