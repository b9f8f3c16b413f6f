"""Test fixture: a jail. A MAN landing on a `jail` space is asked a `jail` request, a kind
no built-in rule knows: pay the bail, or serve time (back to the start, collecting nothing).
It tells bots what each answer is worth, so a bot pays the bail when it can.

With the option `serves_to_end` N, the game ends when a player has served time N times:
an end reason of its own (`expect game over by jail`), and an expectation of its own
(`expect Ann served 2`), as issue 18 lets a plugin add.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import (Action, ActionRange, Expectation, Refusal, Request, ScriptContext,
                       SpaceKind, StashKey, hookimpl, money, request_kind)

if TYPE_CHECKING:
    from easymoney import Game, Player, PlayerName, Space

PLUGIN_ID = "jail"
RULES = ()
JAIL = request_kind("jail", lambda r: f"{r.player} to pay bail or serve time")
END_REASONS = ("jail",)
OPTIONS = {
    "serves_to_end": {"type": ["integer", "null"], "minimum": 1, "default": None,
                      "description": "The game ends when a player has served time this often."},
}
# player name -> how often they served time
SERVED = StashKey["dict[str, int]"]("jail.served")
EVENTS = {
    "bail": "{player} pays {amount:$} bail",
    "serve": "{player} serves time: back to {space}",
}
SPACE_KINDS = {
    "jail": SpaceKind(schema={
        "description": "The jail: its lander pays `bail` or goes back to space 0.",
        "properties": {"bail": {"type": "integer", "minimum": 0, "x-money": True}},
        "required": ["bail"],
    }),
}


@dataclass(slots=True)
class ServeTime(Action):
    """`P serves time`. Listed first: the do-nothing answer."""

    GRAMMAR = "NAME _SERVES _TIME"
    WORDS = ("serves", "time")
    FORMS = ("`P serves time`",)
    ASKED_BY = (JAIL,)

    player: Player
    verb = "serve time"

    def __str__(self) -> str:
        return f"{self.player} serves time"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        if request.kind == JAIL:
            yield cls(request.player)


@dataclass(slots=True)
class PayBail(Action):
    """`P pays bail`."""

    GRAMMAR = "NAME _PAYS _BAIL"
    WORDS = ("pays", "bail")
    FORMS = ("`P pays bail`",)
    ASKED_BY = (JAIL,)
    player: Player
    verb = "pay bail"

    def __str__(self) -> str:
        return f"{self.player} pays bail"

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        if request.kind == JAIL:
            yield cls(request.player)


ACTIONS = (ServeTime, PayBail)
REFUSES = (PayBail,)


def _bail(game: Game, player: Player) -> int:
    return int(game.spaces[player.position].get("bail", 0))


@hookimpl
def em_land(game: Game, player: Player, space: Space, dice: tuple[int, int]) -> bool | None:
    if space.kind != "jail":
        return None
    action = game.ask(Request(JAIL, player, ACTIONS, space=space))
    if type(action) is PayBail:
        game.emit("bail", player=player.name, amount=space.bail)
        game.collect(player, game.bank, space.bail, "bail (jail)")
    else:
        player.position = 0
        game.emit("serve", player=player.name, space=game.spaces[0].name)
        served = game.stash.setdefault(SERVED, {})
        served[player.name] = times = served.get(player.name, 0) + 1
        most = game.variant.rules[PLUGIN_ID]["serves_to_end"]
        if most is not None and times >= most:
            game.end("jail", f"{player} served time {times} times")
    return True


@hookimpl
def em_refusals(game: Game, action: Action) -> list[Refusal] | None:
    if type(action) is PayBail and action.player.cash < _bail(game, action.player):
        return [Refusal("-", PLUGIN_ID, f"{action.player} has {money(action.player.cash)} "
                        f"and the bail is {money(_bail(game, action.player))}")]
    return None


@hookimpl
def em_action_value(game: Game, player: Player, action: Action) -> int | None:
    if type(action) is PayBail:
        return -_bail(game, player)
    if type(action) is ServeTime:
        return -2 * _bail(game, player)  # the way back is worth more than the bail
    return None


@dataclass(frozen=True)
class ExpectServed(Expectation):
    """`expect P served N`: how often P served time."""

    LINE = "{player} served {times}"
    player: PlayerName
    times: int

    def check(self, script: ScriptContext, game: Game) -> str | None:
        player = script.player(self.player, self)
        times = game.stash.get(SERVED, {}).get(player.name, 0)
        return None if times == self.times else f"{player} served time {times} times"


STATEMENTS = (ExpectServed,)
