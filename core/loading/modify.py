"""`modify`: changing, inserting, appending and removing single spaces and cards of a variant.

Every name `modify` writes (a change's key, an anchor, a removed entry) is one of the
extended variant, as it is before this `modify`. The board's sides are renumbered: a new
space joins the side of its anchor (`append` is an insert after the last space), and a
side keeps the spaces it had.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import did_you_mean
from .origins import Origins, origins_error
from .yamlload import Loaded, Path


@dataclass(frozen=True)
class _Section:
    key: str      # under modify, insert, append and remove: `spaces` or `cards`
    where: Path   # where the list is in the document
    field: str    # what names an entry
    what: str     # an entry, in words


SECTIONS = (_Section("spaces", ("board", "spaces"), "name", "space"),
            _Section("cards", ("deck",), "text", "card"))

# an entry of the new list: ("base", index in the base list) or (verb, index in modify.VERB.KEY)
_Entry = tuple[str, int]


def apply_modify(doc: dict[str, Any], modify: Mapping[str, Any], loaded: Loaded,
                 origins: Origins) -> None:
    """Apply a file's `modify` to the document it extends (`doc`, changed in place)."""
    for section in SECTIONS:
        items: Any = doc
        for part in section.where:
            items = items.get(part) if isinstance(items, dict) else None
        if not isinstance(items, list):
            continue
        names = [item.get(section.field) if isinstance(item, dict) else None for item in items]
        changes = modify.get(section.key) or {}
        _change(items, names, changes, section, loaded, origins)
        removed = _removed(names, modify, changes, section, loaded)
        inserts = [(verb, j, entry) for verb in ("insert", "append")
                   for j, entry in enumerate((modify.get(verb) or {}).get(section.key) or ())]
        if removed or inserts:
            # an error about the whole list (too short, a name it lacks) points at what changed it
            by = next(("modify", verb, section.key) for verb in ("remove", "insert", "append")
                      if (modify.get(verb) or {}).get(section.key))
            _restructure(doc, items, names, removed, inserts, section, loaded, origins)
            origins.set(section.where, (loaded.file, *loaded.position(by), by))


def _unknown(name: str, names: list[Any], section: _Section, loaded: Loaded, path: Path,
             key: bool = False) -> Exception:
    known = [n for n in names if isinstance(n, str)]
    return origins_error(loaded, path, f"unknown {section.what}: found {name!r}; expected the "
                                       f"{section.field} of a {section.what} of the extended "
                                       f"variant{did_you_mean(name, known)}", key=key)


def _change(items: list[Any], names: list[Any], changes: Mapping[str, Any], section: _Section,
            loaded: Loaded, origins: Origins) -> None:
    """`modify.spaces` / `modify.cards`: the keys given replace the base's, null removes one."""
    where = section.where
    for name, change in changes.items():
        if name not in names:
            raise _unknown(name, names, section, loaded, ("modify", section.key, name), key=True)
        index = names.index(name)
        item = items[index]
        for key, value in change.items():
            origins.drop(where + (index, key))
            if value is None:
                item.pop(key, None)
            else:
                item[key] = value
                origins.copy_from(loaded, ("modify", section.key, name, key), where + (index, key))
        for key in item:  # the other keys are now judged with the changed ones
            if key not in change:
                origins.keys.pop(where + (index, key), None)
        line, col = loaded.position(("modify", section.key, name))
        origins.set(where + (index,), (loaded.file, line, col, ("modify", section.key, name)))


def _removed(names: list[Any], modify: Mapping[str, Any], changes: Mapping[str, Any],
             section: _Section, loaded: Loaded) -> dict[int, int]:
    """`modify.remove`: base index -> its place in the remove list."""
    removed: dict[int, int] = {}
    for j, name in enumerate((modify.get("remove") or {}).get(section.key) or ()):
        path = ("modify", "remove", section.key, j)
        if name not in names:
            raise _unknown(name, names, section, loaded, path)
        index = names.index(name)
        if index in removed:
            raise origins_error(loaded, path, f"removed twice: found {name!r}; expected each "
                                              f"{section.what} once")
        if name in changes:
            raise origins_error(loaded, path, f"removed and changed: found {name!r}, which "
                                              f"modify.{section.key} also changes; expected "
                                              f"one or the other")
        removed[index] = j
    return removed


def _restructure(doc: dict[str, Any], items: list[Any], names: list[Any],
                 removed: Mapping[int, int], inserts: list[tuple[str, int, Any]],
                 section: _Section, loaded: Loaded, origins: Origins) -> None:
    """The list with its entries removed, inserted and appended, its origins renumbered."""
    before: dict[int, list[_Entry]] = {}
    after: dict[int, list[_Entry]] = {}
    appended: list[_Entry] = []
    anchor_of: dict[_Entry, int] = {}
    new = {(verb, j): entry for verb, j, entry in inserts}
    for verb, j, entry in inserts:
        if verb == "append":
            appended.append((verb, j))
            continue
        side = "after" if "after" in entry else "before"
        name = entry[side]
        if name not in names:
            raise _unknown(name, names, section, loaded, ("modify", verb, section.key, j, side))
        anchor_of[(verb, j)] = names.index(name)
        (after if side == "after" else before).setdefault(anchor_of[(verb, j)], []).append((verb, j))
    order: list[_Entry] = []
    for i in range(len(items)):
        order += before.get(i, [])
        if i not in removed:
            order.append(("base", i))
        order += after.get(i, [])
    order += appended
    new_items = []
    for verb, j in order:
        if verb == "base":
            new_items.append(items[j])
        else:
            entry = copy.deepcopy(new[(verb, j)])
            entry.pop("after", None)
            entry.pop("before", None)
            new_items.append(entry)
    if section.key == "spaces":
        _renumber_sides(doc, items, order, new_items, anchor_of, removed, loaded, origins)
    _renumber_origins(order, section, loaded, origins)
    items[:] = new_items


def _renumber_origins(order: list[_Entry], section: _Section, loaded: Loaded,
                      origins: Origins) -> None:
    where, n = section.where, len(section.where)
    moved = {old: new for new, (verb, old) in enumerate(order) if verb == "base"}
    for table in (origins.values, origins.keys):
        renamed = {}
        for path, origin in table.items():
            if path[:n] == where and len(path) > n and isinstance(path[n], int):
                if path[n] in moved:
                    renamed[where + (moved[path[n]],) + path[n + 1:]] = origin
            else:
                renamed[path] = origin
        table.clear()
        table.update(renamed)
    for new, (verb, j) in enumerate(order):
        if verb != "base":
            origins.copy_from(loaded, ("modify", verb, section.key, j), where + (new,))
            for anchor in ("after", "before"):
                origins.drop(where + (new, anchor))


def _renumber_sides(doc: dict[str, Any], items: list[Any], order: list[_Entry],
                    new_items: list[Any], anchor_of: Mapping[_Entry, int],
                    removed: Mapping[int, int], loaded: Loaded, origins: Origins) -> None:
    """Each side spans the same spaces as before, with the new ones that joined it."""
    board = doc.get("board")
    sides = board.get("sides") if isinstance(board, dict) else None
    if not isinstance(sides, list) or not sides:
        return

    def cells(item: Any) -> int:
        count = item.get("cells", 1) if isinstance(item, dict) else 1
        return count if isinstance(count, int) and count > 0 else 1

    def side_at(number: int) -> int | None:
        for k, side in enumerate(sides):
            if isinstance(side, dict) and side.get("first", 1) <= number <= side.get("last", -1):
                return k
        return None

    base_side: list[int | None] = []
    number = 0
    for item in items:
        base_side.append(side_at(number))
        number += cells(item)
    spans: dict[int, list[int]] = {}
    number = 0
    previous: int | None = None
    for entry, item in zip(order, new_items):
        verb, j = entry
        if verb == "base":
            side = base_side[j]
        elif verb == "insert":
            side = base_side[anchor_of[entry]]
        else:
            side = previous  # append: after the last space
        if side is not None:
            span = spans.setdefault(side, [number, number])
            span[0], span[1] = min(span[0], number), max(span[1], number + cells(item) - 1)
        previous = side
        number += cells(item)
    line, col = loaded.position(("modify",))
    for k, side in enumerate(sides):
        if not isinstance(side, dict) or not all(isinstance(side.get(key), int)
                                                 for key in ("first", "last")):
            continue
        if k not in spans:
            last = max(j for i, j in removed.items() if base_side[i] == k)
            raise origins_error(loaded, ("modify", "remove", "spaces", last),
                                f"removes every space of side {side.get('side')} "
                                f"(board.sides[{k}]); expected a side to keep at least one space")
        for key, value in zip(("first", "last"), spans[k]):
            if side[key] != value:
                side[key] = value
                origins.set(("board", "sides", k, key), (loaded.file, line, col, ("modify",)))

