"""What a script line is, for the rules that add lines to the script language (see docs/plugins.md).

A line that answers a request is its action's class (`Action.GRAMMAR`, easymoney.engine.actions);
the lines here are the others: `setup` lines and `expect` lines, the base language's and
the rules'. `ActionStatement` is the earlier way to write an action's line, as a class of its
own; it still works. The script layer (easymoney.script) parses all of them and joins their
grammar to the language; the rules only declare them, so this lives with the engine, below both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .actions import LineSyntax

if TYPE_CHECKING:
    from .actions import Action, Request
    from .game import Game, Player
    from .model import Space


class ScriptContext(Protocol):
    """What a statement may ask of the script that runs it (the runner implements it)."""

    game: Game

    def player(self, name: str, stmt: Any) -> Player: ...
    def space(self, ref: Any, stmt: Any) -> Space: ...


@dataclass(frozen=True)
class Statement(LineSyntax):
    """Base of a plugin's statement: its line (LineSyntax), where it stands."""

    line: int = field(default=0, compare=False, kw_only=True)
    column: int = field(default=0, compare=False, kw_only=True)
    _GRAMMAR_DEFAULTS = False


@dataclass(frozen=True)
class ActionStatement(Statement):
    """A line that answers what the game waits for, as a class of its own beside its action:
    the earlier way, which still works. Today an action class declares its own line
    (`Action.GRAMMAR`) and prints it: one class, nothing written twice (docs/plugins.md).

    `player` (the first field) is the actor. `ANY_MOMENT`: it may be taken at any
    decision, by anyone, and belongs to no turn (R16's sale).
    """

    ANY_MOMENT: ClassVar[bool] = False

    def answer(self, script: ScriptContext, request: Request) -> Action | None:
        """The action this line gives in answer to `request`, or None if it does not answer."""
        raise NotImplementedError


@dataclass(frozen=True)
class LeadStatement(Statement):
    """A line that starts with a word of its kind before its own words: `setup`, `expect`."""

    LEAD: ClassVar[str] = ""

    @classmethod
    def line_prefix_words(cls) -> str:
        return f"{cls.LEAD} "


@dataclass(frozen=True)
class SetupStatement(LeadStatement):
    """A header line that sets up a position: `setup exemption Ann`."""

    LEAD = "setup"

    def apply(self, script: ScriptContext, game: Game) -> None:
        """Set the position up; raise `ScriptError(message)` when it cannot be done."""
        raise NotImplementedError


@dataclass(frozen=True)
class Expectation(LeadStatement):
    """An `expect` line: `expect exemption Ann`."""

    LEAD = "expect"

    def check(self, script: ScriptContext, game: Game) -> str | None:
        """None when it holds, else what is actually the case (`Bob holds it`)."""
        raise NotImplementedError


def lines_of(plugin: Any) -> tuple[type, ...]:
    """The script lines a plugin adds to the language: its action types that declare a
    GRAMMAR (in ACTIONS), then its STATEMENTS."""
    actions = tuple(t for t in getattr(plugin, "ACTIONS", ()) or ()
                    if isinstance(t, type) and bool(getattr(t, "GRAMMAR", "")
                                                    or getattr(t, "LINE", "")))
    return actions + tuple(getattr(plugin, "STATEMENTS", ()) or ())


def end_reasons_of(plugin: Any) -> tuple[str, ...]:
    """How a plugin may end the game (`END_REASONS`): what `expect game over by` names."""
    return tuple(getattr(plugin, "END_REASONS", ()) or ())
