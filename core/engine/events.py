"""The event log: one small record per thing that happened, and how to put it in words."""

from __future__ import annotations

import string
from collections.abc import Callable, Container, Iterable, Mapping
from typing import Any

from ..words import addressed, count
from .actions import money


class Event:
    """`kind` names what happened; `data` holds JSON-ready values (names, numbers, lists)."""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind = kind
        self.data = data

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, **self.data}

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r})"


class _Formatter(string.Formatter):
    """The format specs a template may use besides Python's own.

    `{amount:$}` writes money as `$1,100`; `{dice:dice}` writes `3 + 4`; `{count:#house}`
    writes `1 house` or `2 houses`; `{steps:moves}` writes `moves` or, for a negative
    count, `moves back`; `{players:names}` writes `Ann, Bob` (from a list or from words);
    `{changes:changes}` writes ` without four_sides, option ...` (nothing for no change).
    """

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "$":
            return money(int(value))
        if format_spec == "dice":
            return " + ".join(str(d) for d in value)
        if format_spec.startswith("#"):
            return count(int(value), format_spec[1:])
        if format_spec == "moves":
            return "moves back" if int(value) < 0 else "moves"
        if format_spec == "names":
            return ", ".join(value.split() if isinstance(value, str) else map(str, value))
        if format_spec == "changes":
            return " " + ", ".join(value) if value else ""
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()

# The core's own events; plugins add theirs through their EVENTS declaration.
CORE_TEMPLATES: dict[str, str] = {
    "game_start": "Game of {variant}{changes:changes} with {players:names}",
    "pay": "{payer} pays {payee} {amount:$}: {reason}",
    "game_over": "Game over by {reason}: {detail}",
    "stopped": "The script ends here; the game stops where it is",
    "deal_rejected": "{player} rejects {offerer}'s offer to {deal}",
    # a program at a seat (core/seats.py) failed; the seat plays its fallback from here
    "seat_failed": "{player}'s program {program} failed ({problem}: {detail}); {player} "
                   "plays {fallback} from here",
}


def describe(event: Event, templates: Mapping[str, str | None],
             viewer: str | None = None) -> str | None:
    """The event in words, or None for an event that carries data only (template None).

    `viewer`: the player who reads it, named "you" (`You pay Bob $50`, `Bob rejects your
    offer`): a field holding exactly that name is the reader, and the verb after it agrees."""
    if event.kind in templates and templates[event.kind] is None:
        return None
    template = templates.get(event.kind)
    if template is None:
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}: {details}" if details else event.kind
    try:
        if viewer is not None and viewer in event.data.values():
            return _addressed(template, event.data, viewer)
        return _FORMATTER.format(template, **event.data)
    except (KeyError, IndexError, ValueError):
        return f"{event.kind}: {event.data}"


def _addressed(template: str, data: dict[str, Any], viewer: str) -> str:
    """The template written for `viewer`: its fields naming them are the reader's pieces."""
    pieces: list[tuple[str, bool]] = []
    for literal, name, spec, conversion in _FORMATTER.parse(template):
        pieces.append((literal, False))
        if name is None:
            continue
        value, _ = _FORMATTER.get_field(name, (), data)
        if not spec and conversion is None and value == viewer:
            pieces.append((viewer, True))
            continue
        value = _FORMATTER.convert_field(value, conversion)
        pieces.append((_FORMATTER.format_field(value, spec or ""), False))
    return addressed(pieces)


class _EveryKind:
    """The `seen` of a game that keeps its log or has a listener for every event."""

    def __contains__(self, kind: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "EVERY_KIND"


EVERY_KIND = _EveryKind()


class EventLog:
    """A game's events: the log it keeps, who listens, and which kinds someone sees.

    `seen` holds the kinds someone sees: hot paths test `kind in game.seen` before building
    an event nobody would see. The game hands out `emit` as its own, and mirrors `seen`
    (`on_seen` is told each change).
    """

    __slots__ = ("keep", "log", "listeners", "by_kind", "seen", "_on_seen")

    def __init__(self, keep: bool, on_seen: Callable[[Container[str]], None]) -> None:
        self.keep = keep
        self.log: list[Event] = []
        self.listeners: tuple[Callable[[Event], None], ...] = ()
        self.by_kind: dict[str, list[Callable[[Event], None]]] = {}
        self.seen: Container[str] = EVERY_KIND if keep else frozenset()
        self._on_seen = on_seen
        on_seen(self.seen)

    def emit(self, kind: str, **data: Any) -> None:
        if kind not in self.seen:
            return  # nobody wants this event: do not even build it
        event = Event(kind, data)
        if self.keep:
            self.log.append(event)
        for listener in self.listeners:
            listener(event)
        targeted = self.by_kind.get(kind)
        if targeted is not None:
            for listener in targeted:
                listener(event)

    def listen(self, listener: Callable[[Event], None],
               kinds: Iterable[str] | None = None) -> None:
        """Call `listener` with every event, or only with events of these kinds (cheaper)."""
        if kinds is None:
            self.listeners += (listener,)
            self.seen = EVERY_KIND
        else:
            for kind in kinds:
                self.by_kind.setdefault(kind, []).append(listener)
            if self.seen is not EVERY_KIND:
                self.seen = frozenset(self.by_kind)
        self._on_seen(self.seen)
