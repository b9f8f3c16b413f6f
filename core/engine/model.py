"""The variant as the engine sees it: immutable board spaces, cards and settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any


class _Entry:
    """A space or a card of the variant: its kind, and its kind-specific data (price, rent,
    amount, to, ...) both as attributes and by `get`."""

    # the attributes every space or card has are slots: read by every rule on every landing,
    # and a slot is read at the same speed whatever the kind-specific keys in __dict__. No
    # __getattr__ (for a kinder message on a missing key): Python 3.11 does not specialize
    # attribute reads on a class that has one, and that cost 8% of a turn.
    __slots__ = ("kind", "data", "__dict__")

    def __init__(self, kind: str, data: Mapping[str, Any]) -> None:
        self.__dict__.update(data)
        self.kind = kind
        self.data = dict(data)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Entry:
        return self  # never changed: a copy of a game (a plugin's stash value) shares it

    if TYPE_CHECKING:  # kind-specific keys are attributes too (for the type checker only)
        def __getattr__(self, name: str) -> Any: ...


class Space(_Entry):
    """One board space. Kind-specific data (price, rent, ...) are attributes too."""

    __slots__ = ("index", "name", "side")

    def __init__(self, index: int, name: str, kind: str, side: int | None,
                 data: Mapping[str, Any]) -> None:
        super().__init__(kind, data)
        self.index = index
        self.name = name
        self.side = side

    def __repr__(self) -> str:
        return f"Space({self.index}, {self.name!r}, {self.kind!r})"

    def __str__(self) -> str:
        return self.name


class Card(_Entry):
    """One Give or Take card. Kind-specific data (amount, to, ...) are attributes too."""

    __slots__ = ("text",)

    def __init__(self, text: str, kind: str, data: Mapping[str, Any]) -> None:
        super().__init__(kind, data)
        self.text = text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.text


_ABSENT = object()  # an option not set


@dataclass(frozen=True)
class Variant:
    """A fully resolved, validated variant: what a game is set up from."""

    name: str
    description: str
    sources: tuple[str, ...]
    min_players: int
    max_players: int
    smallest_bill: int
    starting_cash: int
    bank_total: int
    houses_per_player: int
    houses_per_street: int
    spaces: tuple[Space, ...]
    sides: Mapping[int, tuple[int, int]]
    cards: tuple[Card, ...]
    # enabled plugin id -> its options with defaults filled in; dict order is the load order
    rules: Mapping[str, Mapping[str, Any]]
    origin: str = "<memory>"
    document: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # the rule changes made on top of the named variant, in words: `without four_sides`
    changes: tuple[str, ...] = field(default=(), compare=False)
    # the files read to build it (the variant's own, then each it `extends`): no output may
    # overwrite them
    files: tuple[str, ...] = field(default=(), compare=False)
    # dotted key -> its value, as read: a rule may read an option each time it values an
    # action, and a bot values several a window
    _options: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def option(self, key: str, default: Any = None) -> Any:
        """`option("doubles.after_card")`: the value of a dotted PLUGIN.OPTION key."""
        found = self._options.get(key, _ABSENT)
        if found is _ABSENT:
            plugin, _, name = key.partition(".")
            found = self.rules.get(plugin, {}).get(name, _ABSENT)
            if found is _ABSENT:
                return default
            self._options[key] = found
        return found

    def space_named(self, name: str) -> Space | None:
        for space in self.spaces:
            if space.name == name:
                return space
        return None
