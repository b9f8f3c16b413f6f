"""Calling hooks: pluggy itself, or per-game lists of implementations built once from pluggy's registrations.

The fast relay keeps pluggy's semantics: implementations run in pluggy's order
(tryfirst/trylast, then last registered first), a `firstresult` hook stops at the first
non-None result, other hooks collect the non-None results in a list, and a hook with a
wrapper is left to pluggy. It only drops pluggy's per-call bookkeeping, which is most of
the cost of a call (tests/test_dispatch.py plays the same games both ways).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import pluggy

from . import hookspecs

HOOK_NAMES: tuple[str, ...] = tuple(
    name for name in vars(hookspecs) if name.startswith("em_") and callable(getattr(hookspecs, name)))

# Notifications: hooks whose spec returns None (em_setup, em_moved, em_turn_end, ...). Their
# callers look at no result, so the relay only calls the implementations, sparing the list
# of results: it returns None, and a lone implementation is called directly.
NOTIFICATIONS: frozenset[str] = frozenset(
    name for name in HOOK_NAMES if getattr(hookspecs, name).__annotations__.get("return") == "None")


def _adapt(impl: pluggy.HookImpl, spec_args: tuple[str, ...]) -> Callable[..., Any]:
    """The implementation as a positional function of the spec's arguments."""
    if tuple(impl.argnames) == spec_args:
        return impl.function
    # a function with the spec's parameters that passes on the ones the impl takes: as
    # cheap as a call can be, which matters on hooks fired several times a turn
    source = (f"def adapted({', '.join(spec_args)}):\n"
              f"    return fn({', '.join(impl.argnames)})\n")
    namespace: dict[str, Any] = {"fn": impl.function}
    exec(source, namespace)
    return namespace["adapted"]


def _compose(how: str, funcs: tuple[Callable[..., Any], ...],
             spec_args: tuple[str, ...]) -> Callable[..., Any]:
    """One function calling `funcs` in order with the spec's arguments, as pluggy would:

    first    the first non-None result (firstresult hooks), None if there is none
    collect  the list of the non-None results
    notify   nothing (a notification: see NOTIFICATIONS)

    The calls are written out with the spec's parameters, not `*args`: a plain call is
    several times quicker than unpacking, on hooks fired several times a turn.
    """
    if len(funcs) == 1 and how != "collect":
        return funcs[0]
    # the generated names start with "_": no spec argument does
    assert not any(a.startswith("_") for a in spec_args), spec_args
    args = ", ".join(spec_args)
    body: list[str] = []
    if how == "first":
        for i in range(len(funcs) - 1):
            body += [f"_r = _f{i}({args})", "if _r is not None:", "    return _r"]
        body.append(f"return _f{len(funcs) - 1}({args})" if funcs else "return None")
    elif how == "collect":
        body.append("_out = []")
        for i in range(len(funcs)):
            body += [f"_r = _f{i}({args})", "if _r is not None:", "    _out.append(_r)"]
        body.append("return _out")
    else:
        body += [f"_f{i}({args})" for i in range(len(funcs))] or ["return None"]
    namespace: dict[str, Any] = {f"_f{i}": f for i, f in enumerate(funcs)}
    exec(f"def {how}({args}):\n" + "".join(f"    {line}\n" for line in body), namespace)
    return namespace[how]


def _via_pluggy(caller: pluggy.HookCaller, spec_args: tuple[str, ...],
                notification: bool = False) -> Callable[..., Any]:
    if notification:
        def notify(*args: Any) -> None:
            caller(**dict(zip(spec_args, args)))
        return notify

    def call(*args: Any) -> Any:
        return caller(**dict(zip(spec_args, args)))
    return call


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _traced(name: str, caller: pluggy.HookCaller, spec_args: tuple[str, ...],
            out: TextIO) -> Callable[..., Any]:
    """Call each implementation by hand, printing which plugin answered what."""
    impls = list(reversed(caller.get_hookimpls()))
    firstresult = bool(caller.spec and caller.spec.opts.get("firstresult"))
    if any(i.hookwrapper or i.wrapper for i in impls):
        plain = _via_pluggy(caller, spec_args)

        def via(*args: Any) -> Any:
            result = plain(*args)
            print(f"trace: {name} -> {_short(result)} (with wrappers)", file=out)
            return result
        return via
    pairs = [(i.plugin_name, _adapt(i, spec_args)) for i in impls]

    def traced(*args: Any) -> Any:
        shown = ", ".join(f"{a}={_short(v)}" for a, v in zip(spec_args[1:], args[1:]))
        print(f"trace: {name}({shown})", file=out)
        results = []
        for plugin, fn in pairs:
            r = fn(*args)
            if r is not None:
                print(f"trace:   {plugin} -> {_short(r)}", file=out)
                if firstresult:
                    return r
                results.append(r)
        return None if firstresult or name in NOTIFICATIONS else results
    return traced


class HookRelay:
    """`relay.em_land(game, player, space, dice)`: the hooks of one plugin set, called positionally."""

    def __init__(self, pm: pluggy.PluginManager, mode: str = "fast",
                 trace: TextIO | None = None) -> None:
        if mode not in ("fast", "pluggy"):
            raise ValueError(f"dispatch mode must be 'fast' or 'pluggy', not {mode!r}")
        self.mode = mode
        self.implemented: dict[str, tuple[str, ...]] = {}
        for name in HOOK_NAMES:
            caller: pluggy.HookCaller = getattr(pm.hook, name)
            spec_args = tuple(caller.spec.argnames) if caller.spec else ()
            impls = caller.get_hookimpls()
            self.implemented[name] = tuple(i.plugin_name for i in reversed(impls))
            if trace is not None:
                fn = _traced(name, caller, spec_args, trace)
            elif mode == "pluggy" or any(i.hookwrapper or i.wrapper for i in impls):
                fn = _via_pluggy(caller, spec_args, name in NOTIFICATIONS)
            else:
                funcs = tuple(_adapt(i, spec_args) for i in reversed(impls))
                firstresult = bool(caller.spec and caller.spec.opts.get("firstresult"))
                how = ("first" if firstresult else "notify" if name in NOTIFICATIONS
                       else "collect")
                fn = _compose(how, funcs, spec_args)
            setattr(self, name, fn)

        # Three hooks are fired often with a discriminating argument: em_refusals (by action
        # type), em_land (by space kind) and em_moved (by the kinds of space the move
        # touched). A plugin that declares REFUSES = (Bid, ...), LANDS_ON = ("street", ...)
        # or PASSES = ("bonus", ...) is called only for those (it would do nothing for the
        # others); plugins that declare nothing are called for all.
        self._filters = {
            name: (args, [(getattr(i.plugin, declared, None), _adapt(i, args))
                          for i in reversed(getattr(pm.hook, name).get_hookimpls())])
            for name, declared, args in (
                ("em_refusals", "REFUSES", ("game", "action")),
                ("em_land", "LANDS_ON", ("game", "player", "space", "dice")),
                ("em_moved", "PASSES", ("game", "player", "start", "steps")))}
        self._by_key: dict[tuple[str, Any], Callable[..., Any] | None] = {}
        self._traced = trace is not None

    def _for(self, name: str, key: Any) -> Callable[..., Any] | None:
        """The caller of hook `name` for one key: an action type, a space kind, or a set of
        space kinds (em_moved); None when no implementation is concerned."""
        cache_key = (name, key)
        if cache_key in self._by_key:
            return self._by_key[cache_key]
        args, impls = self._filters[name]
        fn: Callable[..., Any] | None
        if self.mode != "fast" or self._traced or len(impls) != len(self.implemented[name]):
            fn = getattr(self, name)  # pluggy (or the tracer) calls them all; wrappers too
        else:
            if isinstance(key, frozenset):
                funcs = tuple(f for keys, f in impls if keys is None or not key.isdisjoint(keys))
            else:
                funcs = tuple(f for keys, f in impls if keys is None or key in keys)
            if name == "em_moved":
                fn = _compose("notify", funcs, args) if funcs else None
            else:
                fn = _compose("first" if name == "em_land" else "collect", funcs, args)
        self._by_key[cache_key] = fn
        return fn

    def refusals_for(self, kind: type) -> Callable[..., Any]:
        """The `em_refusals` caller for one action type."""
        fn = self._for("em_refusals", kind)
        assert fn is not None
        return fn

    def has_refusers(self, kind: type) -> bool:
        """Whether any `em_refusals` implementation may be asked about this action type."""
        _, impls = self._filters["em_refusals"]
        if self._traced or len(impls) != len(self.implemented["em_refusals"]):
            return True
        return any(keys is None or kind in keys for keys, _ in impls)

    def land_for(self, kind: str) -> Callable[..., Any]:
        """The `em_land` caller for one space kind."""
        fn = self._for("em_land", kind)
        assert fn is not None
        return fn

    def moved_for(self, kinds: frozenset[str]) -> Callable[..., Any] | None:
        """The `em_moved` caller for a move that touched spaces of these kinds, or None."""
        return self._for("em_moved", kinds)

    if TYPE_CHECKING:  # the hooks are set in __init__; no __getattr__ at run time, for
        # Python 3.11 does not specialize attribute reads on a class that has one
        def __getattr__(self, name: str) -> Callable[..., Any]: ...

    def has(self, name: str) -> bool:
        """Whether any plugin implements the hook (callers may skip a hook nobody answers)."""
        return bool(self.implemented[name])


def trace_stream() -> TextIO:
    return sys.stderr
