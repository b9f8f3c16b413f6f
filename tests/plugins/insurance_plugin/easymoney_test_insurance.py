"""Insurance: at the start of each turn a player may insure against traffic fines (R8).

`Ann insures` pays the premium (option, $100) to the Bank: that turn, a traffic fine is
waived (R16's exemption hook). `Ann declines insurance` pays nothing. A request kind of its
own, asked at the start of the turn; written from docs/plugins.md alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from easymoney import (Action, Game, Player, Refusal, Request, StashKey, hookimpl, money,
                       request_kind)

PLUGIN_ID = "insurance"
REQUIRES = ("exemption", "traffic_light")  # the exemption hook waives; the light fines
OPTIONS = {"premium": {"type": "integer", "minimum": 0, "default": 100, "x-money": True,
                       "description": "What a turn's policy costs."}}
EVENTS = {"insured": "{player} insures against traffic fines for {premium:$}"}
INSURE = request_kind("insure", lambda r: f"{r.player} to insure or decline insurance")
INSURED = StashKey["str"]("insurance.insured")  # who is insured this turn


def premium(game: Game) -> int:
    amount: int = game.option("insurance.premium")
    return amount


@dataclass(slots=True)
class Insure(Action):
    """`Ann insures`: the premium to the Bank; her traffic fines waived this turn."""
    LINE = "{player} insures"
    ASKED_BY = (INSURE,)
    player: Player
    verb = "insure"

    def refusals(self, game: Game) -> list[Refusal]:
        if self.player.cash < premium(game):
            return [Refusal("-", PLUGIN_ID, f"{self.player} cannot pay the "
                                            f"{money(premium(game))} premium")]
        return []

    def apply(self, game: Game) -> None:
        game.transfer(self.player, game.bank, premium(game), "an insurance premium")
        game.stash[INSURED] = self.player.name
        game.emit("insured", player=self.player.name, premium=premium(game))

    def value(self, game: Game, player: Player) -> int | None:
        # worth it when a fine is likelier than not to cost more than the premium: a bot
        # crossing the light this turn cannot know, so it pays for a cheap policy only
        return 50 - premium(game) if player is self.player else None


@dataclass(slots=True)
class DeclineInsurance(Action):
    """`Ann declines insurance`."""
    LINE = "{player} declines insurance"
    ASKED_BY = (INSURE,)
    player: Player
    verb = "decline insurance"

    def apply(self, game: Game) -> None:
        game.stash.pop(INSURED, None)

    def value(self, game: Game, player: Player) -> int | None:
        return 0 if player is self.player else None


ACTIONS = (Insure, DeclineInsurance)


@hookimpl
def em_turn_start(game: Game, player: Player) -> None:
    game.stash.pop(INSURED, None)
    game.apply(game.ask(Request(INSURE, player, ACTIONS)))  # ask returns it; the asker applies


@hookimpl
def em_exempt(game: Game, player: Player, charge: str) -> str | None:
    if charge == "traffic_fine" and game.stash.get(INSURED) == player.name:
        return "is insured (insurance)"
    return None
