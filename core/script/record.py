"""Writing the game just played as a complete script that replays it without the seed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from .. import __version__
from ..engine.actions import Action, Refusal, Request, chance_taken, line_of
from ..engine.deals import AGREE, ANSWERS, Accept
from ..errors import EasyMoneyError, PluginError, UsageError, unquotable
from ..engine.events import Event
from ..engine.game import Game, Player
from .parser import MAX_QUOTED, MAX_SCRIPT_BYTES


class Recorder:
    """Wraps a game's decider: every answer, throw and card drawn becomes a script line.

    A deal offered and accepted is one line (a script's line states the agreed deal); one
    rejected leaves none.
    """

    def __init__(self, game: Game) -> None:
        self.inner = game.decider
        self.game = game
        self.lines: list[Any] = []  # actions, and str lines for draws
        self._roll_at: int | None = None
        self._last_end: tuple[int, Action] | None = None
        game.decider = self
        game.listen(self._on_event)

    @property
    def states_deals(self) -> bool:
        return bool(getattr(self.inner, "states_deals", False))

    def decide(self, game: Game, request: Request) -> Action:
        action = self.inner.decide(game, request)
        kind = type(action)
        if request.kind == AGREE and kind in ANSWERS:
            if kind is not Accept:  # the offer was rejected: it never happened
                for i in range(len(self.lines) - 1, -1, -1):
                    if self.lines[i] is request.offer:
                        del self.lines[i]
                        break
            return action
        if kind.ends_turn:
            # written only if nothing follows: a game that ends with a turn (end.max_turns)
            self._last_end = (len(self.lines), action)
        else:
            if kind.chance is not None and getattr(action, kind.chance) is None:
                self._roll_at = len(self.lines)
            self.lines.append(action)
        return action

    def refused(self, game: Game, request: Request, action: Action,
                refusals: list[Refusal]) -> None:
        if self.lines and self.lines[-1] is action:
            self.lines.pop()
        self.inner.refused(game, request, action, refusals)

    def choose_card(self, game: Game, player: Player) -> str | None:
        return self.inner.choose_card(game, player)

    def _on_event(self, event: Event) -> None:
        taken = chance_taken(self.lines[self._roll_at], event) if self._roll_at is not None \
            else None
        if taken is not None:
            self.lines[self._roll_at] = taken  # type: ignore[index]
            self._roll_at = None
        elif event.kind == "draw":
            text = event.data["card"]
            self.lines.append(f'{event.data["player"]} draws "{text}"')

    def body(self) -> list[str]:
        actions = list(self.lines)
        if self._last_end is not None and self._last_end[0] == len(self.lines):
            actions.append(self._last_end[1])
        owners = self.game.ruleset.action_owner
        try:
            lines = [line if isinstance(line, str) else line_of(line, owners.get(type(line)))
                     for line in actions]
        except PluginError as exc:
            raise UsageError(f"cannot record the game: {exc.message}") from exc
        for action, line in zip(actions, lines):
            if not isinstance(action, str) and type(action) not in _READ_BACK:
                self._check_reads_back(action, line)
        return lines

    def _check_reads_back(self, action: Action, line: str) -> None:
        """A UsageError naming the plugin when `line`, the action's text, does not parse back
        as one statement written the same: its record would not replay."""
        from .parser import parse
        try:
            rules = self.game.ruleset
            statements = parse(line + "\n", "<record>", registry=rules.registry,
                               rules=rules.enabled).body
            why = None if len(statements) == 1 and _reads_as(statements[0], action, line) else \
                "reads back as something else"
        except EasyMoneyError as exc:
            why = f"does not parse: {exc.message}"
        if why is not None:
            owner = self.game.ruleset.action_owner.get(type(action), "an unknown plugin")
            raise UsageError(f"cannot record the game: plugin {owner!r} writes its action "
                             f"{type(action).__name__} as {line!r}, which {why}; an action's "
                             f"text must be the script line that makes it")
        _READ_BACK.add(type(action))  # one check a type and process: a record stays quick


def _reads_as(stmt: Any, action: Action, line: str) -> bool:
    """Whether `stmt`, parsed from `line` (the action's text), is that action written in
    canonical form: a line of its class with its values (a name for a player or a space),
    one space between its words. A plugin's line of the earlier kind (an ActionStatement of
    its own) prints back the same."""
    from .ast import ActionLine, SpaceRef
    from .parser import canonical_spacing
    if not isinstance(stmt, ActionLine):
        return str(stmt) == line or _printed_bare(stmt) == line
    if stmt.kind is not type(action) or canonical_spacing(line) != line:
        return False
    for name, value in stmt.fields().items():
        mine = getattr(action, name)
        if isinstance(value, SpaceRef):
            same = (value.name == mine.name if value.name is not None
                    else value.number == mine.index)
        elif isinstance(mine, Player):
            same = value == mine.name
        else:
            same = value == mine
        if not same:
            return False
    return True


def _printed_bare(stmt: Any) -> str | None:
    """How a statement of the earlier kind prints with each space it read as the bare name
    or number the line gave: such a plugin quotes the space itself (`f'"{self.space}"'`, as
    when a parsed space printed so), and a SpaceRef prints its own quotes. None: it has no
    space, or cannot be printed so."""
    from .ast import SpaceRef
    if not dataclasses.is_dataclass(stmt) or isinstance(stmt, type):
        return None
    spaces = {f.name: getattr(stmt, f.name) for f in dataclasses.fields(stmt)
              if isinstance(getattr(stmt, f.name), SpaceRef)}
    if not spaces:
        return None
    try:
        bare = dataclasses.replace(stmt, **{name: ref.name if ref.name is not None else ref.number
                                            for name, ref in spaces.items()})
        return str(bare)
    except Exception:  # a statement that checks its values: it is judged as it prints
        return None


# the action types whose text was seen to read back as itself
_READ_BACK: set[type] = set()


def header_lines(variant_ref: str, *, is_path: bool, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), options: Iterable[str] = (),
                 players: Sequence[str], seed: int, setup: Iterable[str] = ()) -> list[str]:
    if is_path:
        check_quotable(variant_ref)
    lines = [f"# Recorded by easymoney {__version__}: every throw, card and decision is spelled",
             "# out, so this replays the same game whatever the seed.",
             f'variant "{variant_ref}"' if is_path else f"variant {variant_ref}"]
    lines += [f"with {r}" for r in enable]
    lines += [f"without {r}" for r in disable]
    for opt in options:
        key, _, value = opt.partition("=")
        lines.append(f"option {key} {value}" if value and " " not in value and "#" not in value
                     else f'option {key} "{value}"')
    lines.append("players " + " ".join(players))
    lines.append(f"seed {seed}")
    lines += list(setup)
    return lines


def check_quotable(path: str) -> None:
    """A variant path that a script can write as `variant "PATH"`, else a UsageError.

    Called before the game is played: a record that would not replay is never made.
    """
    why = unquotable(path)
    if why is None and len(path) > MAX_QUOTED:
        why = f"it is longer than {MAX_QUOTED} characters"
    if why is not None:
        raise UsageError(f"cannot record the game: the variant path {path!r} cannot be written "
                         f"in a game script: {why}; rename the file or copy it to a plain path")


def final_expectations(game: Game) -> list[str]:
    lines = [f"expect {p.name} cash {p.cash}" for p in game.players]
    lines += [f"expect {p.name} bankrupt" for p in game.players if p.bankrupt]
    if game.outcome is not None:
        lines.append(f"expect game over by {game.outcome.reason}")
        winners = game.outcome.winners
    else:
        winners = tuple(p.name for p in game.winners())
    if winners:
        lines.append("expect winner " + " ".join(winners))
    return lines


def record_text(header: list[str], body: list[str], game: Game, path: str | None = None) -> str:
    """The record of `game` as a script: `header`, the lines that play it (`body`: a
    Recorder's, or a stepping game's history) and the final expectations; a UsageError when
    it is larger than `easymoney play` reads (MAX_SCRIPT_BYTES): a record that could not be
    replayed is not written. `path` names the file in that message."""
    lines = header + [""] + body + [""] + final_expectations(game)
    text = "\n".join(lines) + "\n"
    size = len(text.encode("utf-8"))
    if size > MAX_SCRIPT_BYTES:
        target = f"write {path}" if path is not None else "record the game"
        raise UsageError(f"cannot {target}: the record is {size:,} bytes; expected at most "
                         f"{MAX_SCRIPT_BYTES:,} bytes (1 MiB, the limit on a script that "
                         f"`easymoney play` reads); record fewer turns (autoplay N turns) or "
                         f"shorter player names")
    return text
