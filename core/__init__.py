"""easymoney: play, script and simulate Easy Money (Milton Bradley, 1935) and its variants.

The public API a rule plugin or a program needs is importable from here:

    from easymoney import hookimpl, Game, Player, Space, Refusal, Request

Names are loaded on first use, so that `easymoney --version` imports nothing else.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # writing a rule
    "hookimpl": "easymoney.engine.hookspecs",
    "hookspec": "easymoney.engine.hookspecs",
    "StashKey": "easymoney.engine.stash",
    "Stash": "easymoney.engine.stash",
    "SpaceKind": "easymoney.engine.kinds",
    "CardKind": "easymoney.engine.kinds",
    # the state
    "Game": "easymoney.engine.game",
    "Player": "easymoney.engine.game",
    "Account": "easymoney.engine.game",
    "Outcome": "easymoney.engine.game",
    "GameEnded": "easymoney.engine.game",
    "RuleSet": "easymoney.engine.game",
    "ruleset_for": "easymoney.engine.game",
    "Space": "easymoney.engine.model",
    "Card": "easymoney.engine.model",
    "Variant": "easymoney.engine.model",
    "Event": "easymoney.engine.events",
    # actions, requests, refusals
    "Action": "easymoney.engine.actions",
    "Request": "easymoney.engine.actions",
    "ActionRange": "easymoney.engine.actions",
    "legal_actions": "easymoney.engine.legal",
    "GameState": "easymoney.engine.stepping",
    "new_game": "easymoney.script.table",
    "request_kind": "easymoney.engine.actions",
    "quoted": "easymoney.engine.actions",
    "Refusal": "easymoney.engine.actions",
    "money": "easymoney.engine.actions",
    # script lines a rule adds to the language
    "ActionStatement": "easymoney.engine.statements",
    "SetupStatement": "easymoney.engine.statements",
    "Expectation": "easymoney.engine.statements",
    "ScriptContext": "easymoney.engine.statements",
    "SpaceRef": "easymoney.script.ast",
    # errors
    "EasyMoneyError": "easymoney.errors",
    "PluginError": "easymoney.errors",
    "RefusedAction": "easymoney.errors",
    "ScriptError": "easymoney.errors",
    "GameOverError": "easymoney.errors",
    "NothingToUndo": "easymoney.errors",
    # running games
    "load_variant": "easymoney.loading.loader",
    "BotDecider": "easymoney.bots",
    "Strategy": "easymoney.bots",
    "make_strategy": "easymoney.bots",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'easymoney' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from .engine.actions import Action, ActionRange, Refusal, Request, request_kind, money, quoted
    from .engine.legal import legal_actions
    from .engine.stepping import GameState
    from .script.table import new_game
    from .bots import BotDecider, Strategy, make_strategy
    from .engine.events import Event
    from .engine.game import Account, Game, GameEnded, Outcome, Player, RuleSet, ruleset_for
    from .engine.hookspecs import hookimpl, hookspec
    from .engine.kinds import CardKind, SpaceKind
    from .engine.model import Card, Space, Variant
    from .engine.stash import Stash, StashKey
    from .errors import (EasyMoneyError, GameOverError, NothingToUndo, PluginError,
                         RefusedAction, ScriptError)
    from .script.ast import SpaceRef
    from .engine.statements import ActionStatement, Expectation, ScriptContext, SetupStatement
    from .loading.loader import load_variant
