"""Finding rule plugins (built in or through the `easymoney.plugins` entry point) and building the manager."""

from __future__ import annotations

import importlib
import os
import re
import signal
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from types import FrameType
from typing import TYPE_CHECKING, Any

import pluggy

from . import earlier, hookspecs
from ..entrypoints import entry_points
from .kinds import CardKind, SpaceKind, as_card_kind, as_space_kind
from .shown import check_shown
from ..errors import PluginError, did_you_mean, unknown_rule_hint

if TYPE_CHECKING:
    from .actions import Action

PROJECT = "easymoney"
ENTRY_POINT_GROUP = "easymoney.plugins"
AUTOLOAD_ENV = "EASYMONEY_DISABLE_PLUGIN_AUTOLOAD"

# The built-in rules, in the order they are registered (and listed).
BUILTIN_PLUGINS: tuple[str, ...] = (
    "turn", "bank", "houses", "rounding", "debts",
    "bonus_corner", "traffic_light", "streets", "auction", "doubles", "four_sides",
    "give_or_take", "legends", "hospital", "exemption", "building", "rent", "mortgage",
    "deck", "advance", "sales", "offers", "end", "scoring", "invariants",
)

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_RULE_ID = re.compile(r"^R\d+[a-z]?$")


@dataclass(frozen=True)
class PluginInfo:
    """What the registry knows of one plugin, read from its module attributes."""

    id: str
    obj: Any
    rules: tuple[str, ...]
    summary: str
    options: Mapping[str, Mapping[str, Any]]  # option name -> JSON Schema with a default
    space_kinds: Mapping[str, SpaceKind]
    card_kinds: Mapping[str, CardKind]
    essential: bool
    requires: tuple[str, ...]
    events: Mapping[str, str]
    actions: tuple[type[Action], ...]
    origin: str
    # a module or class of `@hookspec` functions: the hooks this plugin declares (as
    # pytest_addhooks), added to every manager while it is installed
    hookspecs: Any = None
    # what of its stash every player sees (SHOWN: easymoney.engine.shown)
    shown: tuple[Any, ...] = ()
    # the plugin as written, when it takes an earlier way: `obj` is its translation
    earlier: Any = None

    def options_schema(self) -> dict[str, Any]:
        """The JSON Schema fragment that this plugin's options are validated against."""
        return {"type": "object", "properties": {k: dict(v) for k, v in self.options.items()},
                "additionalProperties": False}

    def defaults(self) -> dict[str, Any]:
        return {k: v["default"] for k, v in self.options.items() if "default" in v}


def plugin_info(obj: Any, origin: str, expected_id: str | None = None) -> PluginInfo:
    """Read a plugin object's declarations (PLUGIN_ID, RULES, OPTIONS, ...), checking their shape."""
    # an installed plugin's id is its entry point's name: PLUGIN_ID may say it again
    pid = getattr(obj, "PLUGIN_ID", expected_id)
    label = expected_id or getattr(obj, "__name__", repr(obj))
    if not isinstance(pid, str) or not _ID.match(pid):
        raise PluginError(f"plugin {label} ({origin}): PLUGIN_ID must be a lower-case identifier, "
                          f"found {pid!r}")
    if expected_id is not None and pid != expected_id:
        raise PluginError(f"plugin {expected_id} ({origin}): its PLUGIN_ID is {pid!r}; the entry "
                          f"point name and PLUGIN_ID must be the same")
    rules = tuple(getattr(obj, "RULES", ()))
    options = dict(getattr(obj, "OPTIONS", {}))
    for name, schema in options.items():
        if not isinstance(schema, Mapping):
            raise PluginError(f"plugin {pid} ({origin}): option {name!r} must be a JSON Schema mapping")
    # an earlier way (before issue 29) is said in the new form from here on
    translated = earlier.translate(obj, f"plugin {pid} ({origin})")
    space_kinds = {k: as_space_kind(v) for k, v in dict(getattr(obj, "SPACE_KINDS", {})).items()}
    for kind, declared_kind in space_kinds.items():
        for problem in declared_kind.problems():
            raise PluginError(f"plugin {pid} ({origin}): space kind {kind!r}: {problem}")
    doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
    return PluginInfo(
        id=pid, obj=translated, rules=rules, summary=doc[0] if doc else "",
        options=options,
        space_kinds=space_kinds,
        card_kinds={k: as_card_kind(v) for k, v in dict(getattr(obj, "CARD_KINDS", {})).items()},
        # only a built-in rule may be essential: a third-party plugin is off until named
        essential=bool(getattr(obj, "ESSENTIAL", False)) and not origin.startswith("entry point"),
        requires=tuple(getattr(obj, "REQUIRES", ())),
        events=dict(getattr(obj, "EVENTS", {})),
        actions=tuple(getattr(obj, "ACTIONS", ())),
        origin=origin,
        hookspecs=getattr(obj, "HOOKSPECS", None),
        shown=check_shown(pid, origin, getattr(obj, "SHOWN", None)),
        earlier=None if translated is obj else obj,
    )


@dataclass
class Registry:
    """Every installed plugin by id, and the problems met while loading third-party ones."""

    plugins: dict[str, PluginInfo] = field(default_factory=dict)
    load_errors: list[str] = field(default_factory=list)
    # what is made once from these plugins (rule sets, script languages), by what it is made of
    cache: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False, compare=False)

    def add(self, info: PluginInfo) -> None:
        if info.id in self.plugins:
            raise PluginError(f"plugin id {info.id!r} is declared twice: by "
                              f"{self.plugins[info.id].origin} and by {info.origin}")
        self.plugins[info.id] = info

    def get(self, pid: str) -> PluginInfo:
        try:
            return self.plugins[pid]
        except KeyError:
            raise PluginError(f"unknown rule {pid!r}{unknown_rule_hint(pid, self.plugins)}") from None

    def resolve(self, rule: str) -> str:
        """The plugin id for a plugin id or a rule id (`four_sides` or `R13`)."""
        if rule in self.plugins:
            return rule
        if _RULE_ID.match(rule):
            owners = [p.id for p in self.plugins.values() if rule in p.rules]
            if owners:
                return owners[0]
        names = list(self.plugins) + sorted({r for p in self.plugins.values() for r in p.rules})
        raise PluginError(f"unknown rule {rule!r}{unknown_rule_hint(rule, names)}")

    def space_kinds(self) -> dict[str, tuple[str, Mapping[str, Any]]]:
        """kind -> (the plugin declaring it, the JSON Schema of its keys)."""
        return {k: (pid, kind.schema) for k, (pid, kind) in self._kinds("space_kinds").items()}

    def card_kinds(self) -> dict[str, tuple[str, Mapping[str, Any]]]:
        return {k: (pid, kind.schema) for k, (pid, kind) in self._kinds("card_kinds").items()}

    def card_kind_table(self) -> dict[str, tuple[str, CardKind]]:
        """card kind -> (the plugin declaring it, what it is)."""
        return self._kinds("card_kinds")

    def space_kind_table(self) -> dict[str, SpaceKind]:
        """kind -> what it is (ownable, its rent rule, ...): what every rule asks."""
        return {k: kind for k, (_, kind) in self._kinds("space_kinds").items()}

    def action_types(self) -> dict[type[Action], str]:
        """Every action type an installed plugin declares -> that plugin."""
        out: dict[type[Action], str] = {}
        for info in self.plugins.values():
            for kind in info.actions:
                out.setdefault(kind, info.id)
        return out

    def _kinds(self, attr: str) -> dict[str, tuple[str, Any]]:
        kinds: dict[str, tuple[str, Any]] = {}
        for info in self.plugins.values():
            for kind, declared in getattr(info, attr).items():
                if kind in kinds:
                    raise PluginError(f"{attr.replace('_', ' ')[:-1]} {kind!r} is declared by both "
                                      f"{kinds[kind][0]} and {info.id}")
                kinds[kind] = (info.id, declared)
        return kinds

    def own_kinds(self) -> dict[str, frozenset[str]]:
        """plugin id -> the kinds of space it declares: what `space: OwnKind` selects."""
        return {pid: frozenset(info.space_kinds) for pid, info in self.plugins.items()
                if info.space_kinds}

    def hook_owners(self) -> dict[str, str]:
        """Every hook a plugin declares (`HOOKSPECS`) -> that plugin."""
        return {name: info.id for info in self.plugins.values()
                for name in spec_names(info.hookspecs)}


def _load_builtins(registry: Registry) -> None:
    from . import core_plugin
    registry.add(plugin_info(core_plugin, "built-in"))
    for pid in BUILTIN_PLUGINS:
        module = importlib.import_module(f"{PROJECT}.plugins.{pid}")
        registry.add(plugin_info(module, "built-in", pid))


# the signals a person sends to stop a run: Ctrl-C, SIGTERM, the terminal closed
_STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def _signals_heard() -> Iterator[list[int]]:
    """While inside, each stopping signal that Python handles (a handler, not ignored) is
    recorded before its handler runs: a signal that comes while a plugin is imported stops
    the run, where a plugin that raises KeyboardInterrupt or SystemExit itself is a plugin
    that fails to load. Off the main thread, nothing is recorded (nor handled there)."""
    heard: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield heard
        return
    before: dict[int, Any] = {signum: signal.getsignal(signum) for signum in _STOPPING}

    def recording(signum: int, frame: FrameType | None) -> None:
        heard.append(signum)
        handler = before[signum]
        if callable(handler):
            handler(signum, frame)

    for signum, handler in before.items():
        if callable(handler):
            signal.signal(signum, recording)
    try:
        yield heard
    finally:
        for signum, handler in before.items():
            if callable(handler):
                signal.signal(signum, handler)


def _load_entry_points(registry: Registry) -> None:
    with _signals_heard() as heard:
        _load_each(registry, heard)


def _load_each(registry: Registry, heard: list[int]) -> None:
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        origin = f"entry point {ep.name}"
        if dist is not None:
            origin += f" ({dist.name} {dist.version})"
        try:
            obj = ep.load()
            admit(registry, plugin_info(obj, origin, ep.name))
        except PluginError as exc:
            registry.load_errors.append(exc.message)
        except BaseException as exc:  # noqa: B036 -- a broken third-party plugin must not stop the others, whatever it raises
            if heard:
                raise  # a signal's (Ctrl-C, SIGTERM), not the plugin's own: the run stops
            registry.load_errors.append(f"plugin {ep.name} ({origin}) failed to load: "
                                        f"{type(exc).__name__}: {exc}")


def admit(registry: Registry, info: PluginInfo) -> None:
    """Add a third-party plugin after the checks of its hooks and declarations (PluginError)."""
    _check_hooks(info, registry)
    _check_declarations(info, registry)
    registry.add(info)


def spec_names(specs: Any) -> list[str]:
    """The hooks a HOOKSPECS module or class declares, in the order it declares them."""
    if specs is None:
        return []
    return [name for name in dict(vars(specs)) if name.startswith("em_")
            and hasattr(getattr(specs, name), f"{PROJECT}_spec")]


def _check_hooks(info: PluginInfo, registry: Registry | None = None) -> None:
    label = f"plugin {info.id} ({info.origin})"
    if info.hookspecs is not None:
        names = spec_names(info.hookspecs)
        if not names:
            raise PluginError(f"{label}: HOOKSPECS declares no hook: a hook is an `em_...` "
                              f"function marked `@hookspec`")
        owners = registry.hook_owners() if registry is not None else {}
        for name in names:
            if hasattr(hookspecs, name) or name in owners:
                by = f"the rule {owners[name]!r}" if name in owners else "the core"
                raise PluginError(f"{label}: HOOKSPECS declares {name}, which {by} declares "
                                  f"already")
    pm = _new_manager(registry, info)
    try:
        pm.register(info.obj, name=info.id)
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        detail = " ".join(str(exc).split())
        raise PluginError(f"plugin {info.id} ({info.origin}) declares a hook badly: {detail}") from None


def _check_declarations(info: PluginInfo, registry: Registry) -> None:
    """A third-party plugin may not take a kind already declared, declare a broken schema,
    or fail a check of a layer above (DECLARATION_CHECKS): add script lines that are more than
    their own statement or shadow a built-in line.

    Each would break every game, not only those that use it.
    """
    label = f"plugin {info.id} ({info.origin})"
    for attr, what, taken in (("space_kinds", "space kind", registry.space_kinds()),
                              ("card_kinds", "card kind", registry.card_kinds())):
        for kind, fragment in getattr(info, attr).items():
            if kind in taken:
                raise PluginError(f"{label} declares the {what} {kind!r}, which rule "
                                  f"{taken[kind][0]!r} already declares")
            _check_schema(fragment.schema, f"{label}: {what} {kind!r}")
    for name, schema in info.options.items():
        _check_schema(schema, f"{label}: option {name!r}")
    from .actions import own_candidates
    from .derived import derived_candidates
    for kind in info.actions:  # an action nobody could be offered is a mistake, said now
        if own_candidates(kind) or not (getattr(kind, "LINE", "") or getattr(kind, "GRAMMAR", "")):
            continue  # no line of its own: said the earlier way, by a statement (warned below)
        why = derived_candidates(kind)
        if isinstance(why, str):
            raise PluginError(f"{label}: {why}")
    for check in DECLARATION_CHECKS:
        problems = check(registry, info)
        if problems:
            raise PluginError(problems[0])
    earlier.warn(info, label)  # it loads: said once, as discovery is made once


DeclarationCheck = Callable[[Registry, PluginInfo], list[str]]

# The checks of a third-party plugin's declarations that a layer above the engine makes: the
# script language's, of the lines a plugin adds (easymoney.script.parser). That layer adds
# its own when imported (`add_declaration_check`); the engine asks each without knowing what
# it is, so it calls no layer above it (issue 29: the engine no longer calls the parser).
DECLARATION_CHECKS: list[DeclarationCheck] = []
_discovered: list[weakref.ref[Registry]] = []  # what discover found so far, while it is used


def add_declaration_check(check: DeclarationCheck) -> None:
    """Ask `check` of each third-party plugin loaded from now on, and of those already loaded:
    one it refuses leaves the registries found so far, its first problem a load error, as if
    refused at load. (Found before the layer was imported, their plugins were not asked.)"""
    DECLARATION_CHECKS.append(check)
    for ref in _discovered:
        registry = ref()
        if registry is None:
            continue
        for info in list(registry.plugins.values()):
            problems = [] if info.origin == "built-in" else check(registry, info)
            if problems:
                registry.load_errors.append(problems[0])
                del registry.plugins[info.id]


def _check_schema(schema: Any, where: str) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    if not isinstance(schema, Mapping):
        raise PluginError(f"{where} must be a JSON Schema mapping, found {type(schema).__name__}")
    try:
        Draft202012Validator.check_schema(dict(schema))
    except SchemaError as exc:
        raise PluginError(f"{where} is not a valid JSON Schema: {exc.message}") from None


def autoload_enabled() -> bool:
    return os.environ.get(AUTOLOAD_ENV, "") in ("", "0")


@lru_cache(maxsize=2)
def _discover(autoload: bool) -> Registry:
    registry = Registry()
    _load_builtins(registry)
    if autoload:
        _load_entry_points(registry)
    for info in list(registry.plugins.values()):
        problems = earlier.problems(registry, info)
        if problems and info.origin == "built-in":
            raise PluginError(problems[0])  # a bug of ours: no game may run with it
        if problems:
            registry.load_errors.extend(problems)
            del registry.plugins[info.id]
    _discovered.append(weakref.ref(registry))
    return registry


def discover(autoload: bool | None = None) -> Registry:
    """Every installed plugin: the built-in rules, then those of the `easymoney.plugins` entry point."""
    return _discover(autoload_enabled() if autoload is None else autoload)


def _new_manager(registry: Registry | None = None,
                 also: PluginInfo | None = None) -> pluggy.PluginManager:
    """A manager knowing the core's hooks and those every installed plugin declares (so
    that a plugin may implement a hook of a rule that is off), and `also`'s."""
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    infos = list(registry.plugins.values()) if registry is not None else []
    for info in [*infos, *([also] if also is not None else [])]:
        if info.hookspecs is not None:
            pm.add_hookspecs(info.hookspecs)
    return pm


def build_manager(registry: Registry, enabled: Iterable[str]) -> pluggy.PluginManager:
    """A plugin manager with the core plugin and the enabled rules registered, in registry
    order. An action's own `refusals` are no hook: the engine asks them itself, first."""
    wanted = set(enabled)
    pm = _new_manager(registry)
    for pid, info in registry.plugins.items():
        if pid in wanted or info.id == "core":
            pm.register(info.obj, name=pid)
    pm.check_pending()
    return pm


def manager_for(registry: Registry, enabled: Iterable[str]) -> pluggy.PluginManager:
    """The plugin manager of `enabled`'s rules, made once a process (kept by the registry):
    the variant's checks and the games of those rules share it. Nothing registers into a
    manager once it is made, so sharing it is safe."""
    key = ("plugin manager", frozenset(enabled))
    pm = registry.cache.get(key)
    if pm is None:
        pm = registry.cache[key] = build_manager(registry, key[1])
    return pm
