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
    "Shown": "easymoney.engine.shown",
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
    "ActionRange": "easymoney.engine.values",
    "legal_actions": "easymoney.engine.legal",
    "GameState": "easymoney.engine.stepping",
    "decision_view": "easymoney.view",
    "read_choice": "easymoney.view",
    "new_game": "easymoney.script.table",
    "request_kind": "easymoney.engine.actions",
    "Roll": "easymoney.engine.actions",
    "EndTurn": "easymoney.engine.actions",
    "Answer": "easymoney.engine.actions",
    "WINDOW_BEFORE": "easymoney.engine.actions",
    "WINDOW_AFTER": "easymoney.engine.actions",
    "WINDOW_KINDS": "easymoney.engine.actions",
    "RAISE": "easymoney.engine.actions",
    "quoted": "easymoney.engine.values",
    "Refusal": "easymoney.engine.actions",
    "Accept": "easymoney.engine.deals",
    "Reject": "easymoney.engine.deals",
    "money": "easymoney.engine.actions",
    "Money": "easymoney.engine.lines",
    "Dice": "easymoney.engine.lines",
    "PlayerName": "easymoney.engine.lines",
    # script lines a rule adds to the language
    "ActionStatement": "easymoney.engine.statements",
    "SetupStatement": "easymoney.engine.statements",
    "Expectation": "easymoney.engine.statements",
    "ScriptContext": "easymoney.engine.statements",
    "SpaceRef": "easymoney.script.ast",
    # what a rule's hook handles, by its annotation
    "WindowAction": "easymoney.engine.traits",
    "RaisesMoney": "easymoney.engine.traits",
    "Deal": "easymoney.engine.traits",
    "HandsOver": "easymoney.engine.traits",
    "Builds": "easymoney.engine.traits",
    "Priced": "easymoney.engine.traits",
    "OffGrid": "easymoney.engine.traits",
    "ByAnother": "easymoney.engine.traits",
    "Rented": "easymoney.engine.traits",
    "BoughtOnLanding": "easymoney.engine.traits",
    "AuctionedOnLanding": "easymoney.engine.traits",
    "OwnKind": "easymoney.engine.traits",
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
    "make_strategy": "easymoney.strategies",
}

# spelt out, not derived from _EXPORTS: a type checker reads it without running the module
# (tests/test_reference_docs.py checks the two agree)
__all__ = [
    "__version__",
    "hookimpl", "hookspec", "StashKey", "Stash", "SpaceKind", "CardKind", "Shown",
    "Game", "Player", "Account", "Outcome", "GameEnded", "RuleSet", "ruleset_for",
    "Space", "Card", "Variant", "Event",
    "Action", "Request", "ActionRange", "legal_actions", "GameState", "new_game",
    "decision_view", "read_choice",
    "request_kind", "quoted", "Refusal", "Accept", "Reject", "money", "Money", "PlayerName",
    "Dice", "Roll", "EndTurn", "Answer", "WINDOW_BEFORE", "WINDOW_AFTER", "WINDOW_KINDS", "RAISE",
    "ActionStatement", "SetupStatement", "Expectation", "ScriptContext", "SpaceRef",
    "EasyMoneyError", "PluginError", "RefusedAction", "ScriptError", "GameOverError",
    "NothingToUndo",
    "WindowAction", "RaisesMoney", "Deal", "HandsOver", "Builds", "Priced", "OffGrid",
    "ByAnother", "Rented", "BoughtOnLanding", "AuctionedOnLanding", "OwnKind",
    "load_variant", "BotDecider", "Strategy", "make_strategy",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'easymoney' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # `import X as X`: an explicit re-export, for mypy --strict
    from .bots import BotDecider as BotDecider, Strategy as Strategy
    from .engine.actions import (RAISE as RAISE, WINDOW_AFTER as WINDOW_AFTER,
                                 WINDOW_BEFORE as WINDOW_BEFORE,
                                 WINDOW_KINDS as WINDOW_KINDS, Action as Action, Answer as Answer,
                                 EndTurn as EndTurn, Refusal as Refusal, Request as Request,
                                 Roll as Roll, money as money, request_kind as request_kind)
    from .engine.deals import Accept as Accept, Reject as Reject
    from .engine.legal import legal_actions as legal_actions
    from .engine.lines import Dice as Dice, Money as Money, PlayerName as PlayerName
    from .engine.stepping import GameState as GameState
    from .engine.values import ActionRange as ActionRange, quoted as quoted
    from .view import decision_view as decision_view, read_choice as read_choice
    from .script.table import new_game as new_game
    from .engine.events import Event as Event
    from .engine.game import (Account as Account, Game as Game, GameEnded as GameEnded,
                              Outcome as Outcome, Player as Player, RuleSet as RuleSet,
                              ruleset_for as ruleset_for)
    from .engine.hookspecs import hookimpl as hookimpl, hookspec as hookspec
    from .engine.kinds import CardKind as CardKind, SpaceKind as SpaceKind
    from .engine.shown import Shown as Shown
    from .engine.traits import (AuctionedOnLanding as AuctionedOnLanding,
                                BoughtOnLanding as BoughtOnLanding, Builds as Builds,
                                ByAnother as ByAnother, Deal as Deal, HandsOver as HandsOver,
                                OffGrid as OffGrid, OwnKind as OwnKind, Priced as Priced,
                                RaisesMoney as RaisesMoney,
                                Rented as Rented, WindowAction as WindowAction)
    from .engine.model import Card as Card, Space as Space, Variant as Variant
    from .engine.stash import Stash as Stash, StashKey as StashKey
    from .engine.statements import (ActionStatement as ActionStatement,
                                    Expectation as Expectation, ScriptContext as ScriptContext,
                                    SetupStatement as SetupStatement)
    from .errors import (EasyMoneyError as EasyMoneyError, GameOverError as GameOverError,
                         NothingToUndo as NothingToUndo, PluginError as PluginError,
                         RefusedAction as RefusedAction, ScriptError as ScriptError)
    from .loading.loader import load_variant as load_variant
    from .script.ast import SpaceRef as SpaceRef
    from .strategies import make_strategy as make_strategy
