"""Where each value of a merged variant document was written (file, line, column), and located errors."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import EasyMoneyError, VariantError
from .yamlload import Loaded, Path, format_path

COMMAND_LINE = None  # the "file" of a value given by --with, --without or --option

# file, line, col, and the path of the value in that file (it differs after `modify`)
Origin = tuple[str | None, int | None, int | None, Path]


class Origins:
    """For every path of a (merged) document: the file, line and column it was written at."""

    def __init__(self) -> None:
        self.values: dict[Path, Origin] = {}
        self.keys: dict[Path, Origin] = {}
        # the installed built-in files merged in, by display name -> variant name: a user
        # cannot open them, so an error is pointed into the user's file instead (`blame`)
        self.builtins: dict[str, str] = {}
        self.user: Origin | None = None  # the `extends` of the user's file at the top
        self.files: tuple[str, ...] = ()  # the user's files read, the top one first

    @classmethod
    def of(cls, loaded: Loaded) -> Origins:
        origins = cls()
        origins.copy_from(loaded, (), ())
        return origins

    def clone(self) -> Origins:
        other = Origins()
        other.values = dict(self.values)
        other.keys = dict(self.keys)
        other.builtins = dict(self.builtins)
        other.user = self.user
        other.files = self.files
        return other

    def copy_from(self, loaded: Loaded, src: Path, dst: Path) -> None:
        """Record the positions of `loaded` under `src` as those of `dst` in the merged document."""
        n = len(src)
        for path, (line, col) in loaded.positions.items():
            if path[:n] == src:
                self.values[dst + path[n:]] = (loaded.file, line, col, path)
        for path, (line, col) in loaded.key_positions.items():
            if path[:n] == src and path:
                self.keys[dst + path[n:]] = (loaded.file, line, col, path)

    def drop(self, prefix: Path) -> None:
        n = len(prefix)
        for table in (self.values, self.keys):
            for path in [p for p in table if p[:n] == prefix]:
                del table[path]

    def set(self, path: Path, origin: Origin) -> None:
        self.values[path] = origin

    def command_line(self, path: Path) -> None:
        self.drop(path)
        self.values[path] = (COMMAND_LINE, None, None, path)

    def find(self, path: Path, key: bool = False) -> tuple[Origin, Path]:
        """The origin of `path` (of its key when `key`), and the path as its file spells it."""
        path = tuple(path)
        if key and path in self.keys:
            return self.keys[path], self.keys[path][3]
        if key and path:  # a key without a recorded place: where its mapping comes from
            origin, spelt = self.find(path[:-1])
            return origin, spelt + path[-1:]
        probe = path
        while probe and probe not in self.values:
            probe = probe[:-1]
        origin = self.values.get(probe, (None, None, None, ()))
        return origin, tuple(origin[3]) + path[len(probe):]

    def error(self, path: Path, message: str, key: bool = False, label: Path | None = None,
              cls: type[EasyMoneyError] = VariantError, blame: Iterable[Path] = ()
              ) -> EasyMoneyError:
        """`FILE:LINE:COL: error: <key path>: <message>` for the value (or key) at `path`.

        A value written in a built-in variant is only wrong because of what the user's file
        changed: the error then points at the first of `blame` the user wrote (the board
        that replaced the built-in one), else at the user's `extends`.
        """
        origin, spelt = self.find(path, key)
        if key:  # an unknown or wrong key is named by the message, under its mapping's path
            spelt = spelt[:-1]
        shown = format_path(spelt if label is None else label)
        builtin = self.builtins.get(origin[0] or "")
        if builtin is not None and self.user is not None:
            origin = next((found for found in (self.find(p)[0] for p in blame)
                           if found[0] is not None and found[0] not in self.builtins),
                          self.user)
            message += f"; {shown} comes from the built-in variant '{builtin}'"
        return cls(f"{shown}: {message}", file=origin[0], line=origin[1], col=origin[2])


def raise_all(errors: list[EasyMoneyError]) -> None:
    """Raise the first of `errors` (when there is one) with the others as its `also`."""
    if errors:
        first = errors[0]
        first.also = tuple(errors[1:])
        raise first


def walk(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every (path, value) of a document, in reading order, the document itself first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, path + (i,))


def reading_order(doc: Any) -> dict[Path, int]:
    """Each path of the document numbered in reading order (to report the first error)."""
    return {path: n for n, (path, _) in enumerate(walk(doc))}



def origins_error(loaded: Loaded, path: Path, message: str, key: bool = False,
                  label: Path | None = None) -> EasyMoneyError:
    return Origins.of(loaded).error(path, message, key=key, label=label)

