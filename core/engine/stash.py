"""Per-game plugin state under typed keys (`game.stash[KEY]`), as pytest's stash."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

T = TypeVar("T")
D = TypeVar("D")


class StashKey(Generic[T]):
    """A key for one piece of a plugin's per-game state; its type is the type of the value.

        AUCTION = StashKey[list]("auction")   # at module level, once
        game.stash[AUCTION] = [...]
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"StashKey({self.name!r})"


class Stash(dict):  # type: ignore[type-arg]
    """Holds each plugin's per-game state under its `StashKey`s; only such keys are accepted.

    A dict underneath, so that reading a key costs what a dict read costs (rules read their
    state on hot paths); storing checks the key.
    """

    __slots__ = ()

    if TYPE_CHECKING:
        def __getitem__(self, key: StashKey[T]) -> T: ...

        # narrower than dict.get on purpose: a stash is read by StashKey only
        @overload  # type: ignore[override]
        def get(self, key: StashKey[T]) -> T | None: ...
        @overload
        def get(self, key: StashKey[T], default: D) -> T | D: ...
        def get(self, key: Any, default: Any = None) -> Any: ...

    def __setitem__(self, key: StashKey[T], value: T) -> None:
        if not isinstance(key, StashKey):
            raise TypeError(f"stash keys are StashKey objects, not {type(key).__name__}: "
                            f"declare KEY = StashKey[...](\"name\") in the plugin")
        dict.__setitem__(self, key, value)

    def setdefault(self, key: StashKey[T], default: T) -> T:  # type: ignore[override]
        if key not in self:
            self[key] = default
        return cast(T, dict.__getitem__(self, key))

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value
