"""Checking `expect` lines against the game: None when one holds, else the actual value in words."""

from __future__ import annotations

from typing import Any

from ..engine.actions import money
from ..words import count
from . import ast as S
from .syntax import Expectation


def check_expectation(runner: Any, stmt: Any) -> str | None:
    game = runner.game
    if isinstance(stmt, Expectation):  # a rule plugin's expectation
        return stmt.check(runner, game)
    t = type(stmt)
    if t is S.ExpectCash:
        p = runner.player(stmt.player, stmt)
        return None if p.cash == stmt.amount else f"{p} has {money(p.cash)}"
    if t is S.ExpectAt:
        p = runner.player(stmt.player, stmt)
        space = runner.space(stmt.space, stmt)
        here = game.spaces[p.position]
        return None if here.name == space.name else f"{p} is at {p.position} ({here.name})"
    if t is S.ExpectOwner:
        space = runner.space(stmt.space, stmt)
        owner = game.owner[space.index]
        want = None if stmt.player is None else runner.player(stmt.player, stmt)
        if owner is want:
            return None
        return f"{space} is owned by {owner}" if owner else f"{space} is unowned"
    if t is S.ExpectHouses:
        space = runner.space(stmt.space, stmt)
        n = game.houses[space.index]
        return None if n == stmt.count else f"{space} has {count(n, 'house')}"
    if t is S.ExpectMortgaged:
        space = runner.space(stmt.space, stmt)
        m = game.mortgaged[space.index]
        return None if m == stmt.mortgaged else f"{space} is {'mortgaged' if m else 'not mortgaged'}"
    if t is S.ExpectWorth:
        p = runner.player(stmt.player, stmt)
        w = game.worth(p)
        return None if w == stmt.amount else f"{p} is worth {money(w)}"
    if t is S.ExpectHousesLeft:
        p = runner.player(stmt.player, stmt)
        return None if p.houses_left == stmt.count else f"{p} has {count(p.houses_left, 'house')} left"
    if t is S.ExpectBank:
        return None if game.bank.cash == stmt.amount else f"the Bank has {money(game.bank.cash)}"
    if t is S.ExpectTurn:
        p = runner.player(stmt.player, stmt)
        return None if game.current is p else f"it is {game.current}'s turn"
    if t is S.ExpectBankrupt:
        p = runner.player(stmt.player, stmt)
        return None if p.bankrupt else f"{p} is not bankrupt"
    if t is S.ExpectGameOver:
        o = game.outcome
        if o is None:
            return "the game is not over"
        if stmt.reason is not None and o.reason != stmt.reason:
            return f"the game ended by {o.reason} ({o.detail})"
        return None
    if t is S.ExpectWinner:
        for name in stmt.players:
            runner.player(name, stmt)
        winners = game.outcome.winners if game.outcome else tuple(p.name for p in game.winners())
        if sorted(winners) == sorted(stmt.players):
            return None
        return f"the winner{'s are' if len(winners) != 1 else ' is'} {' '.join(winners) or 'nobody'}"
    raise AssertionError(f"not an expectation: {stmt!r}")
