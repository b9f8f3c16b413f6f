"""`modify`: changing, inserting, appending and removing single spaces and cards of a variant."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import did_you_mean
from .origins import Origins, origins_error
from .yamlload import Loaded

def apply_modify(doc: dict[str, Any], modify: Mapping[str, Any], loaded: Loaded,
            origins: Origins) -> None:
    for section, where, field_, what in (("spaces", ("board", "spaces"), "name", "space"),
                                         ("cards", ("deck",), "text", "card")):
        changes = modify.get(section) or {}
        if not changes:
            continue
        items: Any = doc
        for part in where:
            items = items.get(part) if isinstance(items, dict) else None
        items = items if isinstance(items, list) else []
        names = [item.get(field_) if isinstance(item, dict) else None for item in items]
        for name, change in changes.items():
            if name not in names:
                known = [n for n in names if isinstance(n, str)]
                raise origins_error(loaded, ("modify", section, name),
                                    f"unknown {what}: found {name!r}; expected the {field_} of a "
                                    f"{what} of the extended variant{did_you_mean(name, known)}",
                                    key=True)
            index = names.index(name)
            item = items[index]
            for key, value in change.items():
                origins.drop(where + (index, key))
                if value is None:
                    item.pop(key, None)
                else:
                    item[key] = value
                    origins.copy_from(loaded, ("modify", section, name, key), where + (index, key))
            for key in item:  # the other keys are now judged with the changed ones
                if key not in change:
                    origins.keys.pop(where + (index, key), None)
            line, col = loaded.position(("modify", section, name))
            origins.set(where + (index,), (loaded.file, line, col, ("modify", section, name)))

