"""The script header's `setup` lines: a position in the middle of a game, money conserved."""

from __future__ import annotations

from typing import Any

from ..engine.actions import money
from ..errors import ScriptError
from ..engine.game import Game
from ..words import count
from . import ast as S
from .syntax import SetupStatement



def apply_setup(game: Game, stmt: Any, runner: Any) -> None:
    """Apply one setup statement; raises ScriptError (message only) when it cannot be done."""
    t = type(stmt)
    if isinstance(stmt, SetupStatement):  # a rule plugin's setup line
        stmt.apply(runner, game)
        return
    player = runner.player(stmt.player, stmt)
    if t is S.SetupCash:
        diff = stmt.amount - player.cash
        if diff >= 0:
            _from_bank(game, player, diff, f"setup: {player}'s cash")
        else:
            game.transfer(player, game.bank, -diff, f"setup: {player}'s cash", "setup")
    elif t is S.SetupAt:
        player.position = runner.space(stmt.space, stmt).index
    elif t is S.SetupOwns:
        space = runner.space(stmt.space, stmt)
        i = space.index
        # what a kind of space allows is declared by the plugin that defines the kind
        kind = game.kinds[space.kind]
        if not kind.ownable:
            owned = sorted(k for k, other in game.kinds.items() if other.ownable)
            raise ScriptError(f"{space} is a {space.kind} space: only {', '.join(owned)} spaces "
                              f"can be owned")
        if game.owner[i] is not None:
            raise ScriptError(f"{space} is already owned by {game.owner[i]}")
        limit = game.variant.houses_per_street if kind.builds else 1
        if not 1 <= stmt.houses <= limit:
            raise ScriptError(f"{space} can carry 1 to {count(limit, 'house')}, not {stmt.houses}")
        if stmt.houses > player.houses_left:
            raise ScriptError(f"{player} has only {count(player.houses_left, 'house')} left in their supply")
        if stmt.mortgaged and not kind.mortgageable:
            raise ScriptError(f"{space} is a {space.kind}: it cannot be mortgaged (R19)")
        game.acquire(player, space, stmt.houses)
        game.set_mortgaged(space, stmt.mortgaged)
    else:  # pragma: no cover - the parser makes no other setup statement
        raise ScriptError(f"unknown setup statement {stmt}")


def _from_bank(game: Game, to: Any, amount: int, reason: str) -> None:
    if amount > game.bank.cash:
        raise ScriptError(f"the Bank has only {money(game.bank.cash)} and cannot pay "
                          f"{money(amount)} for this setup")
    game.transfer(game.bank, to, amount, reason, "setup")
