"""Loading a variant: built-in or file, `extends` and `modify`, command-line overrides, the schema, the checks."""

from __future__ import annotations

import copy
import dataclasses
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from jsonschema import ValidationError

from ..errors import (EasyMoneyError, PluginError, UsageError, VariantError, did_you_mean,
                      is_control, not_installed)
from ..engine.model import Card, Space, Variant
from ..engine.registry import Registry, build_manager, discover
from .schema import Validator, variant_schema
from .yamlload import (YAML11_BOOLEANS, Loaded, Path, decode, format_path, load_file, load_text,
                       parse_scalar, show_value)

BUILTIN_PACKAGE = "easymoney.variants"
COMMAND_LINE = None  # the "file" of a value given by --with, --without or --option

# Limits on what a variant may ask for: a typo or a hostile file is an error, not a slow game.
MAX_MONEY = 1_000_000_000   # any amount of money (x-money), the Bank's total included
MAX_NUMBER = 1_000_000_000  # any other whole number
MAX_SPACES = 1_000          # board spaces
MAX_CARDS = 1_000           # cards in the deck, copies (`count`) included
MAX_NAME = 100              # characters of a space's name, a card's text, the variant's name

# file, line, col, and the path of the value in that file (it differs after `modify`)
Origin = tuple[str | None, int | None, int | None, Path]


# --- where each value of a merged document comes from -----------------------------------

class _Origins:
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
    def of(cls, loaded: Loaded) -> _Origins:
        origins = cls()
        origins.copy_from(loaded, (), ())
        return origins

    def clone(self) -> _Origins:
        other = _Origins()
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


def _walk(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every (path, value) of a document, in reading order, the document itself first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, path + (i,))


def _order(doc: Any) -> dict[Path, int]:
    """Each path of the document numbered in reading order (to report the first error)."""
    return {path: n for n, (path, _) in enumerate(_walk(doc))}


# --- explaining schema errors -------------------------------------------------------------

_TYPE_WORDS = {"integer": "an integer", "string": "a string", "boolean": "true or false",
               "object": "a mapping", "array": "a list", "null": "null", "number": "a number"}
_PRIORITY = {"additionalProperties": 0, "type": 1, "enum": 2, "const": 2, "required": 3,
             "oneOf": 4}


def _boolean_hint(value: Any) -> str:
    if isinstance(value, str) and value.lower() in YAML11_BOOLEANS:
        word = "true" if YAML11_BOOLEANS[value.lower()] else "false"
        return f"; write {word} (YAML 1.2 booleans are true/false)"
    return ""


def _explain(error: ValidationError, registry: Registry, prefix: Path = ()
             ) -> tuple[str, Path, bool]:
    """(message without the path, the path to locate, whether to locate its key)."""
    path = prefix + tuple(error.absolute_path)
    value, schema, expected = error.instance, error.schema, error.validator_value
    kind = error.validator
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = list(schema.get("properties", {}))
        extra = next((k for k in value if k not in allowed), "?")
        if path == ("rules",):
            hint = not_installed(extra) or did_you_mean(extra, allowed)
            if re.match(r"^R\d+[a-z]?$", extra):
                try:
                    hint = f" (write the plugin id '{registry.resolve(extra)}')"
                except PluginError:
                    pass
            return (f"unknown rule: found {extra!r}; expected the id of an installed rule "
                    f"plugin{hint}", path + (extra,), True)
        return (f"unknown key: found {extra!r}; expected one of {', '.join(allowed)}"
                f"{did_you_mean(extra, allowed)}", path + (extra,), True)
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        if set(types) == {"boolean", "object"}:
            words = "true, false or a mapping of options"
        else:
            words = " or ".join(str(_TYPE_WORDS.get(t, t)) for t in types)
        hint = _boolean_hint(value) if "boolean" in types else ""
        if "integer" in types and isinstance(value, str) and re.match(r"^\$?[0-9][0-9,_]*$", value):
            hint = f"; write {re.sub(r'[^0-9]', '', value)} (plain digits)"
        return f"wrong type: found {show_value(value)}; expected {words}{hint}", path, False
    if kind in ("enum", "const"):
        choices = list(expected) if kind == "enum" else [expected]
        what = "not allowed"
        if path[-1:] == ("kind",):
            what = ("unknown space kind" if path[:2] == ("board", "spaces")
                    else "unknown card kind" if path[:1] == ("deck",) else what)
        shown = ", ".join(c if isinstance(c, str) else show_value(c) for c in choices)
        hint = did_you_mean(value, [str(c) for c in choices]) if isinstance(value, str) else ""
        if any(isinstance(c, bool) for c in choices):
            hint = hint or _boolean_hint(value)
        return f"{what}: found {show_value(value)}; expected one of {shown}{hint}", path, False
    if kind == "required" and isinstance(value, dict):
        missing = next((k for k in expected if k not in value), "?")
        extra = " (or extends)" if path == () else ""
        return f"missing key {missing!r}; expected the keys {', '.join(expected)}{extra}", path, False
    if kind == "oneOf" and isinstance(value, dict) and all(
            set(s) == {"required"} and len(s["required"]) == 1 for s in expected):
        keys = [s["required"][0] for s in expected]
        present = [k for k in keys if k in value]
        names = " or ".join(repr(k) for k in keys)
        if not present:
            return f"missing key: found none of {names}; expected exactly one of them", path, False
        return (f"conflicting keys: found {' and '.join(repr(k) for k in present)}; expected "
                f"exactly one of {names}", path, False)
    if kind in ("minimum", "exclusiveMinimum"):
        bound = "at least" if kind == "minimum" else "more than"
        return f"too small: found {show_value(value)}; expected {bound} {expected}", path, False
    if kind in ("maximum", "exclusiveMaximum"):
        bound = "at most" if kind == "maximum" else "less than"
        return f"too large: found {show_value(value)}; expected {bound} {expected}", path, False
    if kind in ("minItems", "maxItems"):
        bound = "at least" if kind == "minItems" else "at most"
        return (f"wrong number of entries: found {len(value)}; expected {bound} {expected}",
                path, False)
    if kind == "minLength":
        return f"empty: found {show_value(value)}; expected a non-empty string", path, False
    return error.message, path, False


def _first_error(errors: Iterable[tuple[ValidationError, Path]], doc: Any, registry: Registry
                 ) -> tuple[str, Path, bool] | None:
    order = _order(doc)
    best: tuple[Any, ...] | None = None
    for error, prefix in errors:
        message, path, key = _explain(error, registry, prefix)
        probe = path[:-1] if key else path  # a wrong key ranks with its mapping, before "missing"
        while probe and probe not in order:
            probe = probe[:-1]
        rank = (order.get(probe, 0), _PRIORITY.get(error.validator, 9))
        if best is None or rank < best[0]:
            best = (rank, message, path, key)
    return None if best is None else best[1:]


# --- the validator per registry ---------------------------------------------------------------

class _Checker:
    """The variant schema, applied with spaces and cards dispatched on `kind` at once.

    Equivalent to validating against `variant_schema(registry)`, whose if/then chains make
    jsonschema try every kind on every space: this is several times faster.
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.schema = variant_schema(registry)
        lean = copy.deepcopy(self.schema)
        board = lean["properties"]["board"]["properties"]
        self.items: dict[Path, tuple[Any, dict[str, Any]]] = {}
        for where, holder, key in ((("board", "spaces"), board["spaces"], "items"),
                                   (("deck",), lean["properties"]["deck"], "items")):
            item = holder[key]
            plain = {k: v for k, v in item.items() if k != "allOf"}
            by_kind = {b["if"]["properties"]["kind"]["const"]: Validator({"allOf": [plain, b["then"]]})
                       for b in item["allOf"]}
            self.items[where] = (Validator(plain), by_kind)
            holder[key] = {"type": "object"}
        self.top = Validator(lean)

    def errors(self, doc: Any) -> Iterable[tuple[ValidationError, Path]]:
        for error in self.top.iter_errors(doc):
            yield error, ()
        for where, (plain, by_kind) in self.items.items():
            items: Any = doc
            for part in where:
                items = items.get(part) if isinstance(items, dict) else None
            if not isinstance(items, list):
                continue
            for i, item in enumerate(items):
                if isinstance(item, dict):
                    kind = item.get("kind")  # any value: a list or a mapping is no kind
                    validator = by_kind.get(kind, plain) if isinstance(kind, str) else plain
                    for error in validator.iter_errors(item):
                        yield error, where + (i,)


_CHECKERS: dict[int, _Checker] = {}


def _checker(registry: Registry) -> _Checker:
    checker = _CHECKERS.get(id(registry))
    if checker is None or checker.registry is not registry:
        checker = _CHECKERS[id(registry)] = _Checker(registry)
    return checker


def _validate(doc: Any, origins: _Origins, registry: Registry) -> None:
    _check_sizes(doc, origins)  # before the schema, which takes its time over each entry
    found = _first_error(_checker(registry).errors(doc), doc, registry)
    if found is not None:
        message, path, key = found
        raise origins.error(path, message, key=key)


# --- built-in variants and files ----------------------------------------------------------------

def builtin_names() -> list[str]:
    """The names of the variants shipped in `easymoney.variants`, sorted."""
    return sorted(p.name[:-5] for p in resources.files(BUILTIN_PACKAGE).iterdir()
                  if p.name.endswith(".yaml"))


@lru_cache(maxsize=None)
def _builtin_loaded(name: str) -> Loaded:
    resource = resources.files(BUILTIN_PACKAGE) / f"{name}.yaml"
    display = f"easymoney/variants/{name}.yaml"
    return load_text(decode(resource.read_bytes(), display), display)


def builtin_variants() -> list[tuple[str, str]]:
    """Each built-in variant's name and one-line description."""
    result = []
    for name in builtin_names():
        seen: set[str] = set()
        description, probe = "", name
        while probe in builtin_names() and probe not in seen:
            seen.add(probe)
            data = _builtin_loaded(probe).data
            if not isinstance(data, dict):
                break
            if isinstance(data.get("description"), str):
                description = " ".join(data["description"].split())
                break
            extends = data.get("extends")
            probe = extends if isinstance(extends, str) else ""
        result.append((name, description))
    return result


@dataclass(frozen=True)
class _Source:
    builtin: bool
    name: str      # the built-in name, or the path to open
    display: str   # how errors name the file

    @property
    def key(self) -> str:
        return f"builtin:{self.name}" if self.builtin else os.path.realpath(self.name)

    @property
    def stem(self) -> str:
        base = os.path.basename(self.name)
        return base.rsplit(".", 1)[0] if not self.builtin and "." in base else base

    def load(self) -> Loaded:
        if self.builtin:
            return _builtin_loaded(self.name)
        return load_file(self.name, self.display)


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or os.sep in ref or ref.lower().endswith((".yaml", ".yml"))


def _top_source(ref: str, base_dir: str | None) -> _Source:
    if ref in builtin_names() and not _looks_like_path(ref):
        return _Source(True, ref, f"easymoney/variants/{ref}.yaml")
    path = ref if base_dir is None or os.path.isabs(ref) else os.path.join(base_dir, ref)
    if _looks_like_path(ref) or os.path.exists(path):
        return _Source(False, path, os.path.normpath(path) if base_dir else ref)
    names = builtin_names()
    raise UsageError(f"unknown variant {ref!r}: expected a built-in variant ({', '.join(names)}) "
                     f"or a YAML file{did_you_mean(ref, names)}")


def _base_source(value: str, current: _Source) -> _Source | None:
    if value in builtin_names() and not _looks_like_path(value):
        return _Source(True, value, f"easymoney/variants/{value}.yaml")
    if current.builtin:
        return None
    path = value if os.path.isabs(value) else os.path.join(os.path.dirname(current.name), value)
    if not os.path.exists(path):
        return None
    display = value if os.path.isabs(value) else os.path.normpath(
        os.path.join(os.path.dirname(current.display), value))
    return _Source(False, path, display)


# --- extends and modify ------------------------------------------------------------------------

_RESOLVED: dict[tuple[str, int], tuple[Registry, dict[str, Any], _Origins]] = {}


def _resolve(source: _Source, registry: Registry) -> tuple[dict[str, Any], _Origins]:
    """The document of `source` with its `extends` chain merged in and its `modify` applied.

    A loop, not a recursion: a chain of a thousand files, each extending the next, is read
    down to its base, then merged back up.
    """
    levels: list[tuple[_Source, Loaded, dict[str, Any]]] = []  # the chain, top file first
    keys: set[str] = set()
    current: _Source | None = source
    doc: dict[str, Any] = {}
    origins = _Origins()
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
        own = _Origins.of(loaded)
        data = loaded.data
        if not isinstance(data, dict):
            raise own.error((), f"wrong type: found {show_value(data)}; expected a mapping of "
                                f"variant settings (name, players, money, houses, board, deck, "
                                f"rules)")
        if levels or "extends" in data or "modify" in data:
            _validate(data, own, registry)  # a lone file is validated once, after the overrides
        data = copy.deepcopy(data)
        levels.append((current, loaded, data))
        keys.add(current.key)
        current = None
        if "extends" in data:
            base = _base_source(data["extends"], levels[-1][0])
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


def _merge_level(doc: dict[str, Any], origins: _Origins, source: _Source, loaded: Loaded,
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
        _modify(doc, data["modify"], loaded, origins)


def _merge_rules(rules: dict[str, Any], changes: Mapping[str, Any], loaded: Loaded,
                 origins: _Origins) -> None:
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


def _modify(doc: dict[str, Any], modify: Mapping[str, Any], loaded: Loaded,
            origins: _Origins) -> None:
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


def origins_error(loaded: Loaded, path: Path, message: str, key: bool = False,
                  label: Path | None = None) -> EasyMoneyError:
    return _Origins.of(loaded).error(path, message, key=key, label=label)


# --- command-line overrides --------------------------------------------------------------------

def parse_option(item: str | tuple[str, Any], registry: Registry) -> tuple[str, str, Any]:
    """`doubles.after_card=forward` -> ('doubles', 'after_card', 'forward'), checked against the schema."""
    if isinstance(item, str):
        key, sep, text = item.partition("=")
        if not sep:
            raise UsageError(f"option {item!r}: expected KEY=VALUE, like doubles.after_card=forward")
        raw: Any = text
    else:
        key, raw = item
    try:
        value: Any = parse_scalar(raw) if isinstance(raw, str) else raw
    except ValueError as exc:
        raise UsageError(f"option {key.strip()!r}: {exc}") from None
    key = key.strip()
    plugin, dot, name = key.partition(".")
    if not dot or not plugin or not name:
        raise UsageError(f"option {key!r}: expected RULE.OPTION, like doubles.after_card")
    try:
        pid = registry.resolve(plugin)
    except PluginError as exc:
        raise UsageError(f"option {key!r}: {exc.message}") from None
    info = registry.plugins[pid]
    if name not in info.options:
        if not info.options:
            raise UsageError(f"option {key!r}: rule {pid!r} has no options")
        raise UsageError(f"option {key!r}: unknown option: found {name!r}; expected one of "
                         f"{', '.join(info.options)}{did_you_mean(name, info.options)}")
    errors = list(Validator(dict(info.options[name])).iter_errors(value))
    if errors:
        message, _, _ = _explain(errors[0], registry)
        raise UsageError(f"option {key!r}: {message}")
    return pid, name, value


def _apply_overrides(doc: dict[str, Any], origins: _Origins, registry: Registry,
                     enable: Iterable[str], disable: Iterable[str],
                     options: Iterable[str | tuple[str, Any]]) -> tuple[str, ...]:
    """Apply the command line's (or a script header's) rule changes; return them in words."""
    on = list(dict.fromkeys(registry.resolve(r) for r in enable))
    off = list(dict.fromkeys(registry.resolve(r) for r in disable))
    both = [pid for pid in on if pid in off]
    if both:
        raise UsageError(f"rule {both[0]!r} is both switched on (--with) and off (--without)")
    for pid in off:
        if registry.plugins[pid].essential:
            raise PluginError(f"rule {pid!r} is essential and cannot be switched off")
    settings = [parse_option(item, registry) for item in options]
    for pid, name, _ in settings:
        if pid in off:
            raise UsageError(f"option '{pid}.{name}': rule {pid!r} is switched off (--without); "
                             f"setting its option would switch it on")
    if not (on or off or settings):
        return ()
    if not isinstance(doc.get("rules"), dict):
        doc["rules"] = {}
    rules = doc["rules"]
    for pid in on:
        if not isinstance(rules.get(pid), dict):
            rules[pid] = True
            origins.command_line(("rules", pid))
    for pid in off:
        rules[pid] = False
        origins.command_line(("rules", pid))
    for pid, name, value in settings:
        if not isinstance(rules.get(pid), dict):
            rules[pid] = {}
            origins.command_line(("rules", pid))
        rules[pid][name] = value
        origins.command_line(("rules", pid, name))
    return (*(f"with {pid}" for pid in on), *(f"without {pid}" for pid in off),
            *(f"option {pid}.{name}={value if isinstance(value, str) else show_value(value)}"
              for pid, name, value in settings))


# --- semantic checks -------------------------------------------------------------------------------

def _enabled(doc: Mapping[str, Any], origins: _Origins, registry: Registry
             ) -> dict[str, dict[str, Any]]:
    """Enabled plugin id -> options with defaults filled, in registry order."""
    written = doc.get("rules") or {}
    rules: dict[str, dict[str, Any]] = {}
    for pid, info in registry.plugins.items():
        value = written.get(pid)
        if info.essential and value is False:
            raise origins.error(("rules", pid), f"rule {pid!r} is essential and cannot be "
                                                f"switched off: found false; expected true")
        if info.essential or value is True or isinstance(value, dict):
            rules[pid] = {**info.defaults(), **(value if isinstance(value, dict) else {})}
    for pid in rules:
        for need in registry.plugins[pid].requires:
            if need in rules:
                continue
            if need not in registry.plugins:
                raise origins.error(("rules", pid), f"rule {pid!r} requires rule {need!r}, which "
                                                    f"is not installed")
            if written.get(need) is False:
                raise origins.error(("rules", need), f"rule {pid!r} requires rule {need!r}: found "
                                                     f"false; expected true (or switch off {pid!r})")
            raise origins.error(("rules", pid), f"rule {pid!r} requires rule {need!r}, which is "
                                                f"off; expected {need}: true in rules")
    return rules


def _annotations(schema: Any, value: Any, path: Path, out: list[tuple[str, Path, Any]]) -> None:
    """Every (annotation, path, value) of `x-money`, `x-space`, `x-per-house` that applies to `value`."""
    if not isinstance(schema, dict):
        return
    for mark in ("x-money", "x-space", "x-per-house"):
        if schema.get(mark):
            out.append((mark, path, value))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key, sub in value.items():
            if key in props:
                _annotations(props[key], sub, path + (key,), out)
            elif isinstance(schema.get("additionalProperties"), dict):
                _annotations(schema["additionalProperties"], sub, path + (key,), out)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            _annotations(schema["items"], item, path + (i,), out)
    kind = value.get("kind") if isinstance(value, dict) else None
    for sub in schema.get("allOf", ()):
        const = sub.get("if", {}).get("properties", {}).get("kind", {}).get("const")
        if const is None or const == kind:
            _annotations(sub, value, path, out)
    if "if" in schema and "then" in schema:
        cond = schema["if"]
        kind = cond.get("properties", {}).get("kind", {}).get("const") if isinstance(cond, dict) else None
        if kind is not None:
            hit = isinstance(value, dict) and value.get("kind") == kind
        else:
            hit = Validator(cond).is_valid(value)
        if hit:
            _annotations(schema["then"], value, path, out)


def _check_limits(doc: dict[str, Any], origins: _Origins, money: set[Path]) -> None:
    """Every number within MAX_MONEY or MAX_NUMBER, the board and the deck within their sizes."""

    for path, value in _walk(doc):
        if isinstance(value, int) and not isinstance(value, bool):
            bound, what = ((MAX_MONEY, "the limit on amounts of money") if path in money
                           else (MAX_NUMBER, "the limit on numbers"))
            if value > bound:
                raise origins.error(path, f"too large: found {value}; expected at most "
                                          f"{bound:,} ({what})")
            if value < -bound:
                raise origins.error(path, f"too small: found {value}; expected at least "
                                          f"{-bound:,} ({what})")
    _check_sizes(doc, origins, counted=True)
    names: list[tuple[Path, Any]] = [(("name",), doc.get("name"))]
    names += [(("board", "spaces", i, "name"), s["name"]) for i, s in enumerate(doc["board"]["spaces"])]
    names += [(("deck", i, "text"), c["text"]) for i, c in enumerate(doc["deck"])]
    for path, name in names:  # every event names them: a long one makes every line long
        if isinstance(name, str) and len(name) > MAX_NAME:
            raise origins.error(path, f"too long: found '{name[:37]}...' ({len(name)} "
                                      f"characters); expected at most {MAX_NAME} characters "
                                      f"(the limit on names)")
        if isinstance(name, str):
            _check_name(name, path, origins, quoted=path != ("name",))
    texts: list[tuple[Path, Any]] = [(("description",), doc.get("description"))]
    texts += [(("sources", i), s) for i, s in enumerate(doc.get("sources") or ())]
    for path, text in texts:
        if isinstance(text, str):
            _check_controls(text, path, origins, allowed="\n\t")


def _check_controls(text: str, path: Path, origins: _Origins, allowed: str = "") -> None:
    """No character that acts on a terminal or breaks a line: `"\\e[2J"`, `"\\0"`, U+0085."""
    bad = next((ch for ch in text if is_control(ch) and ch not in allowed), None)
    if bad is not None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise origins.error(path, f"control character: found U+{ord(bad):04X} in {shown!r}; "
                                  f"expected printable text (it is shown on the terminal)")


def _check_name(name: str, path: Path, origins: _Origins, quoted: bool) -> None:
    """A name a game script can write: printable, not blank, no spaces around it, and for a
    space or a card (written between double quotes in a script) no double quote."""
    _check_controls(name, path, origins)
    if not name.strip():
        raise origins.error(path, f"blank: found {name!r}; expected a name with a visible "
                                  f"character")
    if name != name.strip():
        raise origins.error(path, f"spaces around the name: found {name!r}; expected "
                                  f"{name.strip()!r} (names are matched exactly)")
    if quoted and '"' in name:
        raise origins.error(path, f"double quote in a name: found {name!r}; expected a name "
                                  f"without '\"' (a game script writes it between double "
                                  f"quotes)")


def _check_sizes(doc: Any, origins: _Origins, counted: bool = False) -> None:
    """The board within MAX_SPACES spaces, the deck within MAX_CARDS cards.

    Before the schema (`counted` false) only the entries are counted; after it, each
    space's `cells` and each card's `count` too.
    """
    board = doc.get("board") if isinstance(doc, dict) else None
    spaces = board.get("spaces") if isinstance(board, dict) else None
    deck = doc.get("deck") if isinstance(doc, dict) else None
    number = 0
    for i, space in enumerate(spaces if isinstance(spaces, list) else ()):
        number += space.get("cells", 1) if counted else 1
        if number > MAX_SPACES:
            raise origins.error(("board", "spaces", i), f"board too large: found more than "
                                                        f"{MAX_SPACES:,} spaces; expected at "
                                                        f"most {MAX_SPACES:,} (the limit on a board)")
    number = 0
    for i, card in enumerate(deck if isinstance(deck, list) else ()):
        number += card.get("count", 1) if counted else 1
        if number > MAX_CARDS:
            path = ("deck", i, "count") if counted and "count" in card else ("deck", i)
            raise origins.error(path, f"deck too large: found more than {MAX_CARDS:,} cards; "
                                      f"expected at most {MAX_CARDS:,} (the limit on a deck, "
                                      f"copies included)")


def _check(doc: dict[str, Any], origins: _Origins, registry: Registry,
           rules: Mapping[str, Mapping[str, Any]]) -> None:
    found: list[tuple[str, Path, Any]] = []
    body = {k: v for k, v in doc.items() if k != "rules"}
    _annotations(variant_schema_cached(registry), body, (), found)
    for pid, values in rules.items():
        for name, value in values.items():
            if name in registry.plugins[pid].options:
                _annotations(dict(registry.plugins[pid].options[name]), value,
                             ("rules", pid, name), found)
    _check_limits(doc, origins, {path for mark, path, _ in found if mark == "x-money"})
    players, money, houses = doc["players"], doc["money"], doc["houses"]
    if players["min"] > players["max"]:
        raise origins.error(("players", "min"), f"more than players.max: found {players['min']}; "
                                                f"expected at most {players['max']}",
                            blame=[("players", "max")])
    need = players["max"] * money["starting_cash"]
    if money["bank_total"] < need:
        raise origins.error(("money", "bank_total"),
                            f"too small to deal the starting cash: found {money['bank_total']}; "
                            f"expected at least {need} (players.max {players['max']} x "
                            f"money.starting_cash {money['starting_cash']})",
                            blame=[("players", "max"), ("money", "starting_cash")])
    spaces = doc["board"]["spaces"]
    first_at: dict[str, int] = {}
    entry_of: dict[str, int] = {}
    number = 0
    for i, space in enumerate(spaces):
        name = space["name"]
        if name in first_at:
            # the entry a `modify` renamed is the mistake, whichever comes first
            first, at, other = entry_of[name], i, first_at[name]
            if _modified(origins, ("board", "spaces", first, "name")) and not _modified(
                    origins, ("board", "spaces", i, "name")):
                at, other = first, number
            raise origins.error(("board", "spaces", at, "name"),
                                f"duplicate space name: found {name!r}; expected a name used "
                                f"once (space {other} has it)", blame=[("board", "spaces")])
        first_at[name] = number
        entry_of[name] = i
        number += space.get("cells", 1)
    size = number
    sides = doc["board"].get("sides", [])
    seen: dict[int, int] = {}
    taken: list[tuple[int, int, int]] = []
    for i, side in enumerate(sides):
        if side["side"] in seen:
            raise origins.error(("board", "sides", i, "side"),
                                f"duplicate side: found {side['side']}; expected each side "
                                f"once (board.sides[{seen[side['side']]}] has it)")
        seen[side["side"]] = i
        if side["last"] >= size:
            raise origins.error(("board", "sides", i, "last"),
                                f"outside the board: found {side['last']}; expected at most "
                                f"{size - 1} (the board has {size} spaces, numbered from 0)",
                                blame=[("board", "spaces")])
        if side["first"] > side["last"]:
            raise origins.error(("board", "sides", i, "first"),
                                f"after last: found {side['first']}; expected at most "
                                f"{side['last']} (board.sides[{i}].last)")
        for other, first, last in taken:
            if side["first"] <= last and first <= side["last"]:
                raise origins.error(("board", "sides", i),
                                    f"overlapping sides: found spaces {side['first']}-"
                                    f"{side['last']}; expected no space of side {other} "
                                    f"({first}-{last})")
        taken.append((side["side"], side["first"], side["last"]))
    texts: dict[str, int] = {}
    for i, card in enumerate(doc["deck"]):
        if card["text"] in texts:
            at, other = i, texts[card["text"]]
            if _modified(origins, ("deck", other, "text")) and not _modified(
                    origins, ("deck", i, "text")):
                at, other = other, i
            raise origins.error(("deck", at, "text"),
                                f"duplicate card text: found {card['text']!r}; expected each text "
                                f"once (deck[{other}] has it; use count for copies)",
                                blame=[("deck",)])
        texts[card["text"]] = i
    bill, per_street = money["smallest_bill"], houses["per_street"]
    for mark, path, value in found:
        default = "" if _exists(doc, path) else " (the default)"
        if mark == "x-money" and isinstance(value, int) and value % bill:
            raise origins.error(path, f"not a multiple of the smallest bill: found {value}{default}; "
                                      f"expected a multiple of {bill} (money.smallest_bill)",
                                blame=[("money", "smallest_bill")])
        if mark == "x-space" and isinstance(value, str) and value not in first_at:
            raise origins.error(path, f"unknown space: found {value!r}; expected the name of a "
                                      f"space of the board{did_you_mean(value, first_at)}",
                                blame=[("board", "spaces")])
        if mark == "x-per-house" and isinstance(value, list) and len(value) != per_street:
            raise origins.error(path, f"wrong number of entries: found {len(value)}; expected "
                                      f"{per_street}, one per number of houses (houses.per_street)",
                                blame=[("houses", "per_street")])


def _modified(origins: _Origins, path: Path) -> bool:
    """Whether the value at `path` was written by a `modify` entry."""
    return origins.find(path)[0][3][:1] == ("modify",)


def _exists(doc: Any, path: Path) -> bool:
    for part in path:
        if isinstance(doc, dict) and part in doc:
            doc = doc[part]
        elif isinstance(doc, list) and isinstance(part, int) and part < len(doc):
            doc = doc[part]
        else:
            return False
    return True


def variant_schema_cached(registry: Registry) -> dict[str, Any]:
    return _checker(registry).schema


_PATH_PREFIX = re.compile(r"^((?:[A-Za-z_]\w*|\[\d+\])(?:\.[A-Za-z_]\w*|\[\d+\])*)\s*:\s*(.*)$")


_MANAGERS: dict[tuple[int, tuple[str, ...]], tuple[Registry, Any]] = {}


def _hook_checks(variant: Variant, doc: Mapping[str, Any], origins: _Origins,
                 registry: Registry) -> None:
    key = (id(registry), tuple(variant.rules))
    cached = _MANAGERS.get(key)
    if cached is None or cached[0] is not registry:
        cached = _MANAGERS[key] = (registry, build_manager(registry, variant.rules))
    pm = cached[1]
    for impl in reversed(pm.hook.em_check_variant.get_hookimpls()):
        args = {"variant": variant}
        try:
            messages: Any = impl.function(**{a: args[a] for a in impl.argnames if a in args})
        except EasyMoneyError:
            raise
        except Exception as exc:  # a plugin's bug must not pass for a valid variant
            raise PluginError(f"rule {impl.plugin_name!r} failed while checking variant "
                              f"{variant.name!r}: {type(exc).__name__}: {exc}") from None
        for message in messages or ():
            raise _locate_message(str(message), impl.plugin_name, variant, doc, origins)


def _locate_message(message: str, pid: str, variant: Variant, doc: Mapping[str, Any],
                    origins: _Origins) -> EasyMoneyError:
    """A plugin's message, located at the key it names, or the space it quotes, or its rules entry."""
    match = _PATH_PREFIX.match(message)
    if match:
        path = tuple(int(p[1:-1]) if p.startswith("[") else p
                     for p in re.findall(r"[A-Za-z_]\w*|\[\d+\]", match.group(1)))
        if path and _exists(doc, path):
            return origins.error(path, f"{match.group(2)} (rule {pid!r})")
    for i, space in enumerate(doc["board"]["spaces"]):
        if f"'{space['name']}'" in message or f'"{space["name"]}"' in message:
            return origins.error(("board", "spaces", i), f"{message} (rule {pid!r})",
                                 blame=[("board", "spaces")])
    path = ("rules", pid) if pid in (doc.get("rules") or {}) else ()
    return origins.error(path, f"{message} (rule {pid!r})", label=path)


# --- building the Variant ------------------------------------------------------------------------

def _build(doc: Mapping[str, Any], rules: dict[str, dict[str, Any]], origin: str) -> Variant:
    sides = {s["side"]: (s["first"], s["last"]) for s in doc["board"].get("sides", [])}

    def side_of(index: int) -> int | None:
        for side, (first, last) in sides.items():
            if first <= index <= last:
                return side
        return None

    spaces: list[Space] = []
    for entry in doc["board"]["spaces"]:
        data = {k: v for k, v in entry.items() if k not in ("name", "kind")}
        for _ in range(entry.get("cells", 1)):
            index = len(spaces)
            spaces.append(Space(index, entry["name"], entry["kind"], side_of(index),
                                copy.deepcopy(data)))
    cards: list[Card] = []
    for entry in doc["deck"]:
        data = {k: v for k, v in entry.items() if k not in ("text", "kind", "count")}
        for _ in range(entry.get("count", 1)):
            cards.append(Card(entry["text"], entry["kind"], copy.deepcopy(data)))
    return Variant(
        name=doc["name"],
        description=" ".join(str(doc.get("description", "")).split()),
        sources=tuple(doc.get("sources", ())),
        min_players=doc["players"]["min"],
        max_players=doc["players"]["max"],
        smallest_bill=doc["money"]["smallest_bill"],
        starting_cash=doc["money"]["starting_cash"],
        bank_total=doc["money"]["bank_total"],
        houses_per_player=doc["houses"]["per_player"],
        houses_per_street=doc["houses"]["per_street"],
        spaces=tuple(spaces),
        sides=sides,
        cards=tuple(cards),
        rules=rules,
        origin=origin,
        document=resolved_document(doc, rules),
    )


def resolved_document(doc: Mapping[str, Any], rules: Mapping[str, Mapping[str, Any]],
                      registry: Registry | None = None) -> dict[str, Any]:
    """The document with `rules` spelt out: every enabled rule (options filled), explicit offs."""
    written = doc.get("rules") or {}
    out = copy.deepcopy({k: v for k, v in doc.items() if k not in ("extends", "modify")})
    spelt: dict[str, Any] = {}
    for pid, options in rules.items():
        if pid != "core":
            spelt[pid] = dict(options) if options else True
    for pid, value in written.items():
        if value is False and pid not in rules:
            spelt[pid] = False
    order: dict[str, int] = {}
    for pid in [*written, *rules]:  # the file's order, then the rules it did not name
        order.setdefault(pid, len(order))
    out["rules"] = {pid: spelt[pid] for pid in sorted(spelt, key=order.__getitem__)}
    return out


# --- the entry point ------------------------------------------------------------------------------

def load_variant(ref: str, *, registry: Registry | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), options: Iterable[str | tuple[str, Any]] = (),
                 base_dir: str | None = None) -> Variant:
    """Load, merge, override and check a variant: a built-in name or a YAML file path.

    `enable`/`disable` take plugin ids or rule ids (`four_sides`, `R13`); `options` takes
    `PLUGIN.OPTION=VALUE` strings (or (key, value) pairs), the value read as a YAML 1.2
    scalar; setting an option of a plugin that is off switches it on. Raises VariantError
    (located), PluginError or UsageError.
    """
    registry = registry or discover()
    source = _top_source(os.fspath(ref), base_dir)
    doc, origins = _resolve(source, registry)
    changes = _apply_overrides(doc, origins, registry, enable, disable, options)
    _validate(doc, origins, registry)
    rules = _enabled(doc, origins, registry)
    _check(doc, origins, registry, rules)
    variant = _build(doc, rules, source.name if source.builtin else source.display)
    variant = dataclasses.replace(variant, changes=changes, files=origins.files)
    _hook_checks(variant, doc, origins, registry)
    return variant


def variant_document(variant: Variant) -> dict[str, Any]:
    """The fully resolved document of a loaded variant (what `easymoney show` prints)."""
    return copy.deepcopy(dict(variant.document))


__all__ = ["load_variant", "builtin_variants", "builtin_names", "parse_option", "variant_document"]
