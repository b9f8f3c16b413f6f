"""Test fixture: a jail. A MAN landing on a `jail` space is asked a `jail` request, a kind
no built-in rule knows: pay the bail, or serve time (back to the start, collecting nothing).
It tells bots what each answer is worth, so a bot pays the bail when it can.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from easymoney import (Action, ActionRange, ActionStatement, Refusal, Request, ScriptContext,
                       SpaceKind, hookimpl, money, request_kind)

if TYPE_CHECKING:
    from easymoney import Game, Player, Space

PLUGIN_ID = "jail"
RULES = ()
JAIL = request_kind("jail", lambda r: f"{r.player} to pay bail or serve time")
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
    """Listed first: the do-nothing answer."""

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
class PaysBail(ActionStatement):
    """`P pays bail`."""

    GRAMMAR = "NAME _PAYS _BAIL"
    WORDS = ("pays", "bail")
    FORMS = ("`P pays bail`",)
    player: str

    def __str__(self) -> str:
        return f"{self.player} pays bail"

    def answer(self, script: ScriptContext, request: Request) -> Action | None:
        actor = script.player(self.player, self)
        return PayBail(actor) if request.kind == JAIL and actor is request.player else None


@dataclass(frozen=True)
class ServesTime(ActionStatement):
    """`P serves time`."""

    GRAMMAR = "NAME _SERVES _TIME"
    WORDS = ("serves", "time")
    FORMS = ("`P serves time`",)
    player: str

    def __str__(self) -> str:
        return f"{self.player} serves time"

    def answer(self, script: ScriptContext, request: Request) -> Action | None:
        actor = script.player(self.player, self)
        return ServeTime(actor) if request.kind == JAIL and actor is request.player else None


STATEMENTS = (PaysBail, ServesTime)
