"""Test fixtures installed as a real distribution: a good rule, a broken one, a bad hook, a strategy."""

from __future__ import annotations

import os
import types
from typing import TYPE_CHECKING

import pluggy

from easymoney.bots import Strategy

if TYPE_CHECKING:
    from easymoney import Game, Player

hookimpl = pluggy.HookimplMarker("easymoney")


class _Good:
    """Sample rule: announces every turn (tests entry-point discovery)."""

    PLUGIN_ID = "sample_rule"
    RULES = ()
    OPTIONS = {"greeting": {"type": "string", "default": "hello", "description": "What it says."}}
    EVENTS = {"sample": "{greeting}, {player}"}

    @hookimpl
    def em_turn_start(self, game: Game, player: Player) -> None:
        game.emit("sample", player=player.name,
                  greeting=game.variant.rules[self.PLUGIN_ID]["greeting"])


good = _Good()

# A plugin whose hook implementation misnames an argument: pluggy rejects it at registration.
badhook = types.SimpleNamespace(PLUGIN_ID="sample_badhook", RULES=(), __doc__="Bad hook.")


@hookimpl
def _bad_em_land(game: Game, player: Player, nonsense: object) -> None:
    return None


badhook.em_land = _bad_em_land


class PassiveStrategy(Strategy):
    """Never buys or bids: a third-party strategy found through an entry point."""

    name = "sample_passive"


if os.environ.get("EASYMONEY_SAMPLE_FAIL_IMPORT") == "1":  # pragma: no cover - exercised by a subprocess test
    raise ImportError("sample failure")
