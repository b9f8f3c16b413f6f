"""What a script line is, for the rules that add lines to the script language (see docs/plugins.md).

The script layer (easymoney.script) parses these and joins their grammar to the language;
the rules only declare them, so this lives with the engine, below both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

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
class Statement:
    """Base of a plugin's statement: its grammar, its keywords, where it stands."""

    GRAMMAR: ClassVar[str] = ""
    WORDS: ClassVar[tuple[str, ...]] = ()
    # how the statement is written, for messages that list the forms (`expect exemption P`)
    FORMS: ClassVar[tuple[str, ...]] = ()
    # field -> how messages name its value ("a number of houses")
    WHAT: ClassVar[dict[str, str]] = {}
    line: int = field(default=0, compare=False, kw_only=True)
    column: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class ActionStatement(Statement):
    """A line that answers what the game waits for: `P sells exemption to Q for 500`.

    `player` (the first field) is the actor. `ANY_MOMENT`: it may be taken at any
    decision, by anyone, and belongs to no turn (R16's sale).
    """

    ANY_MOMENT: ClassVar[bool] = False

    def answer(self, script: ScriptContext, request: Request) -> Action | None:
        """The action this line gives in answer to `request`, or None if it does not answer."""
        raise NotImplementedError


@dataclass(frozen=True)
class SetupStatement(Statement):
    """A header line that sets up a position: `setup exemption Ann`."""

    def apply(self, script: ScriptContext, game: Game) -> None:
        """Set the position up; raise `ScriptError(message)` when it cannot be done."""
        raise NotImplementedError


@dataclass(frozen=True)
class Expectation(Statement):
    """An `expect` line: `expect exemption Ann`."""

    def check(self, script: ScriptContext, game: Game) -> str | None:
        """None when it holds, else what is actually the case (`Bob holds it`)."""
        raise NotImplementedError
