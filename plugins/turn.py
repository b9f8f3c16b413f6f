"""The turn: window, throw, forward move, landing, window (R4, R6), in turn order (R1), and the windows (R5).

R1  players play in the order they are listed, the first listed first.
R4  a turn is a window, the throw of two dice, the move, the landing, another window;
    doubles give no extra throw.
R5  building, mortgaging, redeeming and selling happen only in the mover's own windows
    (the debt procedure of R25 and the sale of the Special Exemption card (R16) ask on
    their own terms).
R6  the MAN moves forward the total of the dice; after the last space comes space 0.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

# the turn's actions and requests are the core's (easymoney.engine.actions): every rule, the
# script, the bots and the prompt speak of them; this rule plays the turn with them. They
# stay importable from here for the plugins written against easymoney.plugins.turn.
from easymoney import (WINDOW_AFTER, WINDOW_BEFORE, WINDOW_KINDS, Action, ByAnother, EndTurn,
                       Refusal, Request, Roll, StashKey, WindowAction, hookimpl)

if TYPE_CHECKING:
    from easymoney import Game


__all__ = ["Roll", "EndTurn", "WINDOW_BEFORE", "WINDOW_AFTER", "WINDOW_KINDS", "window_actions"]

PLUGIN_ID = "turn"
ACTIONS = (Roll, EndTurn)
RULES = ("R1", "R4", "R5", "R6")
ESSENTIAL = True
# the turn ends the game when nobody is left (a player going bankrupt with nobody to follow)
END_REASONS = ("bankruptcy",)
EVENTS = {
    "turn": "Turn {number}: {player}",
    "roll": "{player} rolls {dice:dice} = {total}",
    "move": "{player} {steps:moves} to {space} ({end})",
}



def window_actions(game: Game) -> tuple[type[Action], ...]:
    """The action types of every installed rule that are taken in a window (R5)."""
    return tuple(t for t in game.ruleset.action_owner if t.window)


class _Turns:
    """What a turn needs, made once a game: the window requests and the hooks a turn fires."""

    __slots__ = ("before", "after", "accepts_before", "accepts_after", "turn_start", "move",
                 "turn_end")

    def __init__(self, game: Game) -> None:
        hook = game.hook
        windows = window_actions(game)
        self.accepts_before: tuple[type[Action], ...] = (Roll, *windows)
        self.accepts_after: tuple[type[Action], ...] = (EndTurn, *windows)
        # by player index; the window after names the next player: remade when that changes
        self.before = [Request(WINDOW_BEFORE, p, self.accepts_before) for p in game.players]
        self.after = [Request(WINDOW_AFTER, p, self.accepts_after) for p in game.players]
        self.turn_start = hook.em_turn_start if hook.has("em_turn_start") else None
        self.move = hook.em_move
        self.turn_end = hook.em_turn_end


def _copy_turns(turns: _Turns, memo: dict[int, Any]) -> _Turns:
    """The copy of a game's (StashKey's `copy`): the same hooks and action types, its
    requests the copy's (deep-copied: they name the copy's players). What a clone pays
    for the turn, not `copy.deepcopy`'s walk of every attribute."""
    twin = _Turns.__new__(_Turns)
    twin.accepts_before, twin.accepts_after = turns.accepts_before, turns.accepts_after
    twin.turn_start, twin.move, twin.turn_end = turns.turn_start, turns.move, turns.turn_end
    twin.before = [copy.deepcopy(r, memo) for r in turns.before]
    twin.after = [copy.deepcopy(r, memo) for r in turns.after]
    return twin


_TURNS = StashKey[_Turns]("turn.turns", copy=_copy_turns)


@hookimpl
def em_setup(game: Game) -> None:
    game.current = game.players[0]
    game.stash[_TURNS] = _Turns(game)


@hookimpl
def em_play_turn(game: Game) -> bool:
    player = game.current
    if player.bankrupt:
        following = game.next_player(player)
        if following is None:
            game.end("bankruptcy", "no player is left in the game")
        player = game.current = following
    turns = game.stash[_TURNS]
    game.start_turn(player)
    if turns.turn_start is not None:
        turns.turn_start(game, player)

    ask = game.ask
    action = ask(turns.before[player.index])
    while type(action) is not Roll:
        game.apply(action)
        action = ask(turns.before[player.index])
    dice = game.throw(player, action.dice)
    # the hooks are attributes read into locals: see Game.collect
    em_move = turns.move
    if em_move(game, player, dice) is None:  # no rule moves it otherwise: forward (R6)
        game.move(player, dice[0] + dice[1], dice)

    players = game.players
    after = players[(player.index + 1) % len(players)]
    nxt = game.next_player(player) if after.bankrupt else after
    if not player.bankrupt:
        request = turns.after[player.index]
        if request.next_player is not nxt:
            request = turns.after[player.index] = Request(
                WINDOW_AFTER, player, turns.accepts_after, next_player=nxt)
        action = ask(request)
        while type(action) is not EndTurn:
            game.apply(action)
            action = ask(request)
    game.turns_played += 1
    em_turn_end = turns.turn_end
    em_turn_end(game, player)
    if nxt is None:
        game.end("bankruptcy", "no player is left in the game")
    game.current = nxt
    return True


@hookimpl
def em_refusals(game: Game, action: ByAnother[WindowAction]) -> list[Refusal] | None:
    """R5: in a window only its player acts (a window action by another is refused)."""
    request = game.request
    if request is not None and request.kind in WINDOW_KINDS and action.player is not request.player \
            and type(action).window:
        return [Refusal("R5", PLUGIN_ID, f"it is {request.player}'s turn: {action.player} may "
                        f"{action.verb} only in their own turn")]
    return None
