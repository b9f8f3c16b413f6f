"""Per-game plugin state under typed keys (`game.stash[KEY]`), as pytest's stash."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

T = TypeVar("T")
D = TypeVar("D")


class StashKey(Generic[T]):
    """A key for one piece of a plugin's per-game state; its type is the type of the value.

        AUCTION = StashKey[list]("auction")   # at module level, once
        game.stash[AUCTION] = [...]
        # made once at em_setup and never changed: a copy of the game (a clone) shares it
        LIGHTS = StashKey[tuple]("lights", shared=True)
        # copied by its own function: (value, memo) -> the copy's value, where `memo`
        # maps id() of the game's players, accounts and machinery to the copy's
        # (`memo[id(player)]`), as copy.deepcopy's does (without `copy`: deep-copied)
        DEBTS = StashKey[dict]("debts", copy=lambda debts, memo: dict(debts))
    """

    __slots__ = ("name", "shared", "copy")

    def __init__(self, name: str, *, shared: bool = False,
                 copy: Callable[[T, dict[int, Any]], T] | None = None) -> None:
        self.name = name
        self.shared = shared
        self.copy = copy

    def __repr__(self) -> str:
        return f"StashKey({self.name!r})"


class Stash(dict):  # type: ignore[type-arg]
    """Holds each plugin's per-game state under its `StashKey`s.

    A plain dict at run time, so that reading and storing cost what a dict's do (rules keep
    state on hot paths: an auction stores its state twice); the type checker sees only
    typed access: `game.stash[KEY]` has the type of KEY's value.
    """

    __slots__ = ()

    if TYPE_CHECKING:
        def __getitem__(self, key: StashKey[T]) -> T: ...
        def __setitem__(self, key: StashKey[T], value: T) -> None: ...
        def setdefault(self, key: StashKey[T], default: T) -> T: ...  # type: ignore[override]

        @overload  # type: ignore[override]
        def get(self, key: StashKey[T]) -> T | None: ...
        @overload
        def get(self, key: StashKey[T], default: D) -> T | D: ...
        def get(self, key: Any, default: Any = None) -> Any: ...


class Plain(dict):  # type: ignore[type-arg]
    """A dict of plain values (numbers, strings, tuples of them, frozen records of them) and
    of other `Plain` dicts, under keys as plain: a copy of the game (a clone, an undo) copies
    its dicts and shares its values, where `copy.deepcopy` would walk every tuple. For a
    stash value that grows over a game (the deals rejected): copies are frequent in a search.
    """

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Plain:
        twin = Plain(self)
        for key, value in self.items():
            if type(value) is Plain:
                twin[key] = value.__deepcopy__(memo)
        return twin
