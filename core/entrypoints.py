"""The entry points of one group, as `importlib.metadata.entry_points(group=...)` gives them,
without importing importlib.metadata when no installed distribution declares the group.

Importing importlib.metadata (email, zipfile, csv, ...) is a seventh of a short command
(issue 37 item 5), while the common case, no third-party plugin installed, needs none of
it. `entry_points(group)` first reads the `entry_points.txt` of every distribution on
`sys.path` as importlib.metadata finds them (each `*.dist-info` and `*.egg-info` folder,
in the order of the path): when none of them has a section of the group, the answer is
the empty list; otherwise, or whenever anything is out of the ordinary (a finder of
distributions other than Python's own, a zip or an egg on the path, a line importlib.metadata
would fail to read), importlib.metadata itself answers, so that what is found, its order,
its `dist`, how it loads and how it fails are always importlib.metadata's own. Nothing is
cached between calls: a plugin installed or removed is seen at the next call.
"""

from __future__ import annotations

import os
import re
import sys
from importlib.machinery import PathFinder
from typing import Any

__all__ = ["entry_points", "declared"]

_INFO_SUFFIXES = (".dist-info", ".egg-info")
_UNREADABLE = (FileNotFoundError, IsADirectoryError, KeyError, NotADirectoryError,
               PermissionError)  # what importlib.metadata takes for "no such file"


class _Unusual(Exception):
    """Something the quick reading does not follow: importlib.metadata answers instead."""


def entry_points(group: str) -> list[Any]:
    """The entry points of `group`, sorted as importlib.metadata sorts them."""
    try:
        if not declared(group):
            return []
    except _Unusual:
        pass
    from importlib.metadata import entry_points as everything
    return list(everything(group=group))


def declared(group: str) -> bool:
    """Whether a distribution on `sys.path` declares an entry point of `group` (raises
    _Unusual when only importlib.metadata can tell)."""
    if any(finder is not PathFinder and getattr(finder, "find_distributions", None) is not None
           for finder in sys.meta_path):
        raise _Unusual("a finder of distributions of its own")
    seen: set[str] = set()
    for root in list(sys.path):
        for folder in _info_folders(root):
            key = _distribution_key(folder)
            if key in seen:  # importlib.metadata takes the first of a name only
                continue
            seen.add(key)
            if _declares(os.path.join(root, folder, "entry_points.txt"), group):
                return True
    return False


def _info_folders(root: Any) -> list[str]:
    """The metadata folders of `root` in the order importlib.metadata meets them (grouped by
    name, each name where it is first met)."""
    if not isinstance(root, str) or os.path.basename(root).lower().endswith(".egg"):
        raise _Unusual(f"{root!r} on sys.path")
    try:
        children = os.listdir(root or ".")
    except Exception:  # noqa: BLE001 -- importlib.metadata's own test: a zip, or nothing
        if os.path.exists(root or "."):
            raise _Unusual(f"{root!r} is no folder") from None
        return []
    by_name: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith(_INFO_SUFFIXES):
            by_name.setdefault(_normalize(low.rpartition(".")[0].partition("-")[0]),
                               []).append(child)
    return [child for found in by_name.values() for child in found]


def _distribution_key(folder: str) -> str:
    """The name importlib.metadata tells distributions apart by, from the folder's name."""
    stem, ext = os.path.splitext(folder)
    if ext not in _INFO_SUFFIXES:  # `Foo.DIST-INFO`: named by its metadata, not its folder
        raise _Unusual(f"{folder!r}")
    return _normalize(stem.partition("-")[0])


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _declares(path: str, group: str) -> bool:
    """Whether the entry_points.txt at `path` has an entry of `group`, read line by line as
    importlib.metadata reads it."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except _UNREADABLE:
        return False
    except (OSError, ValueError) as exc:  # not UTF-8, a device: importlib.metadata's to say
        raise _Unusual(str(exc)) from None
    section = None
    found = False
    for line in text.splitlines():
        value = line.strip()
        if not value or value.startswith("#"):
            continue
        if value.startswith("[") and value.endswith("]"):
            section = value.strip("[]")
        elif section is not None:
            if "=" not in value:
                raise _Unusual(f"{path}: {value!r}")  # importlib.metadata fails on it
            found = found or section == group
    return found
