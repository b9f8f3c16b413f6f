"""Resolving `extends`: a file merged onto the chain of variants it extends, each `modify` applied."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..engine.registry import Registry
from ..errors import UsageError, VariantError, did_you_mean
from .modify import apply_modify
from .origins import Origins, origins_error
from .sources import Confinement, Source, base_source, builtin_names
from .validate import validate
from .yamlload import Loaded, show_value

_RESOLVED: dict[tuple[str, int], tuple[Registry, dict[str, Any], Origins]] = {}


def resolve(source: Source, registry: Registry, confine: Confinement | None = None
            ) -> tuple[dict[str, Any], Origins]:
    """The document of `source` with its `extends` chain merged in and its `modify` applied.

    A loop, not a recursion: a chain of a thousand files, each extending the next, is read
    down to its base, then merged back up. With `confine`, every file of the chain is
    checked as the first one was (see Confinement).
    """
    levels: list[tuple[Source, Loaded, dict[str, Any]]] = []  # the chain, top file first
    keys: set[str] = set()
    current: Source | None = source
    doc: dict[str, Any] = {}
    origins = Origins()
    while current is not None:
        cache_key = (current.key, id(registry))
        cached = _RESOLVED.get(cache_key) if current.builtin else None
        if cached is not None and cached[0] is registry:
            doc, origins = copy.deepcopy(cached[1]), cached[2].clone()
            break
        try:
            loaded = current.load()
        except VariantError as exc:
            if not levels or exc.file != current.display or exc.line is not None:
                raise
            # the base cannot be read at all (a directory, a device): say so where it is named
            below = levels[-1][2]
            raise origins_error(levels[-1][1], ("extends",),
                                f"cannot read {below['extends']!r}: "
                                f"{exc.message.removeprefix('cannot read: ')}") from None
        own = Origins.of(loaded)
        data = loaded.data
        if not isinstance(data, dict):
            raise own.error((), f"wrong type: found {show_value(data)}; expected a mapping of "
                                f"variant settings (name, players, money, houses, board, deck, "
                                f"rules)")
        if levels or "extends" in data or "modify" in data:
            validate(data, own, registry)  # a lone file is validated once, after the overrides
        data = copy.deepcopy(data)
        levels.append((current, loaded, data))
        keys.add(current.key)
        current = None
        if "extends" in data:
            try:
                base = base_source(data["extends"], levels[-1][0], confine)
            except UsageError as exc:
                raise own.error(("extends",), exc.message) from None
            if base is None:
                names = builtin_names()
                hint = did_you_mean(data["extends"], names)
                raise own.error(("extends",), f"unknown variant: found {data['extends']!r}; "
                                              f"expected a built-in variant ({', '.join(names)}) "
                                              f"or a YAML file relative to this one{hint}")
            if base.key in keys:
                raise own.error(("extends",), f"cycle: found {data['extends']!r}, which extends "
                                              f"this file again; expected a variant that does "
                                              f"not extend this one")
            current = base
    for level, loaded, data in reversed(levels):
        _merge_level(doc, origins, level, loaded, data)
        if level.builtin:
            origins.builtins[loaded.file] = level.name
            _RESOLVED[(level.key, id(registry))] = (registry, copy.deepcopy(doc), origins.clone())
    origins.files = tuple(level.name for level, _, _ in levels if not level.builtin)
    if levels and not levels[0][0].builtin and "extends" in levels[0][2]:
        top = levels[0][1]
        origins.user = (top.file, *top.position(("extends",)), ("extends",))
    return doc, origins


def _merge_level(doc: dict[str, Any], origins: Origins, source: Source, loaded: Loaded,
                 data: dict[str, Any]) -> None:
    """One file of an `extends` chain merged onto what it extends (`doc`, changed in place)."""
    # the document itself: where an error about the whole of it (a missing key) points
    origins.set((), (loaded.file, *loaded.position(()), ()))
    for key, value in data.items():
        if key in ("extends", "modify"):
            continue
        if key == "rules" and isinstance(doc.get("rules"), dict):
            _merge_rules(doc["rules"], value, loaded, origins)
            continue
        origins.drop((key,))
        origins.copy_from(loaded, (key,), (key,))
        doc[key] = value
    if "extends" in data and "name" not in data:
        doc["name"] = source.stem
        origins.set(("name",), (loaded.file, 1, 1, ()))
    if "modify" in data:
        apply_modify(doc, data["modify"], loaded, origins)


def _merge_rules(rules: dict[str, Any], changes: Mapping[str, Any], loaded: Loaded,
                 origins: Origins) -> None:
    """A mapping merges into the base's options; true switches on keeping them; false switches off."""
    for pid, value in changes.items():
        base = rules.get(pid)
        if isinstance(value, dict) and isinstance(base, dict):
            rules[pid] = {**base, **value}
            for option in value:
                origins.drop(("rules", pid, option))
        elif value is True and isinstance(base, dict):
            pass
        else:
            rules[pid] = value
            origins.drop(("rules", pid))
        origins.copy_from(loaded, ("rules", pid), ("rules", pid))

