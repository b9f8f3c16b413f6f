"""Calling hooks: pluggy itself, or per-game lists of implementations built once from pluggy's registrations.

The fast relay keeps pluggy's semantics: implementations run in pluggy's order
(tryfirst/trylast, then last registered first), a `firstresult` hook stops at the first
non-None result, other hooks collect the non-None results in a list, and a hook with a
wrapper is left to pluggy. It only drops pluggy's per-call bookkeeping, which is most of
the cost of a call (tests/test_dispatch.py plays the same games both ways).
"""

from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

import pluggy

from . import hookspecs
from .actions import amount_fields
from .kinds import SpaceKind
from .traits import EVERYTHING, Selection, selection

# The core's hooks; a plugin may declare more (its HOOKSPECS), which a relay finds in its manager.
HOOK_NAMES: tuple[str, ...] = tuple(
    name for name in vars(hookspecs) if name.startswith("em_") and callable(getattr(hookspecs, name)))


def is_notification(caller: pluggy.HookCaller) -> bool:
    """A hook whose spec returns None (em_setup, em_moved, em_turn_end, ...): its callers
    look at no result, so the relay only calls the implementations, sparing the list of
    results: it returns None, and a lone implementation is called directly."""
    spec = caller.spec
    return spec is not None and getattr(spec.function, "__annotations__", {}).get("return") == "None"


def hook_names(pm: pluggy.PluginManager) -> tuple[str, ...]:
    """The core's hooks, then those the plugins of `pm` declare."""
    declared = [name for name in vars(pm.hook) if name.startswith("em_")
                and name not in HOOK_NAMES and getattr(pm.hook, name).spec is not None]
    return HOOK_NAMES + tuple(declared)


def _positional(spec_args: tuple[str, ...], args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """A hook call's arguments in the spec's order, given by position, by keyword (pluggy's
    own convention: `game.hook.em_worth(game=game, player=player)`) or both, as Python
    matches a call to a function of the spec's parameters."""
    if not kwargs:
        return args
    missing = [a for a in spec_args[len(args):] if a not in kwargs]
    extra = [k for k in kwargs if k not in spec_args[len(args):]]
    if missing or extra or len(args) > len(spec_args):
        wrong = (f"without {', '.join(repr(a) for a in missing)}" if missing
                 else f"with {', '.join(repr(k) for k in extra)} too" if extra
                 else f"with {len(args)} positional arguments")
        raise TypeError(f"a hook of the arguments ({', '.join(spec_args)}) was called {wrong}")
    return args + tuple(kwargs[a] for a in spec_args[len(args):])


def _by_keyword(fn: Callable[..., Any], spec_args: tuple[str, ...]) -> Callable[..., Any]:
    """`fn`, a positional caller of a hook, callable by keyword too, the same in both
    dispatch modes. A function of exactly the spec's arity gets the spec's parameter names
    (a positional call then costs nothing more); one that maps keywords itself is kept; any
    other is wrapped."""
    code = getattr(fn, "__code__", None)
    if code is not None and code.co_flags & inspect.CO_VARKEYWORDS:
        return fn
    n = len(spec_args)
    if (isinstance(fn, types.FunctionType) and code is not None
            and not code.co_flags & inspect.CO_VARARGS and code.co_argcount == n
            and not code.co_kwonlyargcount and not code.co_posonlyargcount):
        if code.co_varnames[:n] == spec_args:
            return fn
        # the other names of the function, and any parameter a closure captures, stay
        others = set(code.co_varnames[n:]) | set(code.co_cellvars) | set(code.co_freevars)
        if not others & (set(spec_args) | set(code.co_varnames[:n])):
            named = types.FunctionType(code.replace(co_varnames=spec_args + code.co_varnames[n:]),
                                       fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
            named.__qualname__ = fn.__qualname__
            return named

    def by_keyword(*args: Any, **kwargs: Any) -> Any:
        return fn(*_positional(spec_args, args, kwargs))
    return by_keyword


def _off(name: str, owner: str) -> Callable[..., Any]:
    """The caller of a hook whose declaring rule is off and that nothing here implements."""
    def off(*args: Any, **kwargs: Any) -> Any:
        from ..errors import PluginError
        raise PluginError(f"the hook {name} is declared by the rule '{owner}', which is off in "
                          f"this game: nothing answers it (ask `game.hook.has({name!r})` first)")
    return off


def _adapt(impl: pluggy.HookImpl, spec_args: tuple[str, ...]) -> Callable[..., Any]:
    """The implementation as a positional function of the spec's arguments."""
    if tuple(impl.argnames) == spec_args:
        return impl.function
    fn = impl.function
    where = tuple(spec_args.index(a) for a in impl.argnames)

    def adapted(*args: Any) -> Any:  # an implementation taking some of the arguments
        return fn(*[args[i] for i in where])
    adapted.__wrapped__ = fn  # type: ignore[attr-defined]
    return adapted


# The composed callers: one closure per way of combining results and number of arguments,
# written out with positional parameters (a plain call is several times quicker than
# `*args` on hooks fired several times a turn), in this file so that a traceback through
# them shows a real line.

def _first1(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def first(a: Any) -> Any:
        for f in fs:
            r = f(a)
            if r is not None:
                return r
        return None
    return first


def _first2(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def first(a: Any, b: Any) -> Any:
        for f in fs:
            r = f(a, b)
            if r is not None:
                return r
        return None
    return first


def _first3(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any) -> Any:
        for f in fs:
            r = f(a, b, c)
            if r is not None:
                return r
        return None
    return first


def _first4(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any, d: Any) -> Any:
        for f in fs:
            r = f(a, b, c, d)
            if r is not None:
                return r
        return None
    return first


def _first5(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any, d: Any, e: Any) -> Any:
        for f in fs:
            r = f(a, b, c, d, e)
            if r is not None:
                return r
        return None
    return first


def _first6(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any, d: Any, e: Any, g: Any) -> Any:
        for f in fs:
            r = f(a, b, c, d, e, g)
            if r is not None:
                return r
        return None
    return first


def _first_any(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def first(*args: Any) -> Any:
        for f in fs:
            r = f(*args)
            if r is not None:
                return r
        return None
    return first


def _first2_2(f0: Callable[..., Any], f1: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any) -> Any:
        r = f0(a, b)
        if r is not None:
            return r
        return f1(a, b)
    return first


def _first2_3(f0: Callable[..., Any], f1: Callable[..., Any],
              f2: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any) -> Any:
        r = f0(a, b)
        if r is not None:
            return r
        r = f1(a, b)
        if r is not None:
            return r
        return f2(a, b)
    return first


def _first3_2(f0: Callable[..., Any], f1: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any) -> Any:
        r = f0(a, b, c)
        if r is not None:
            return r
        return f1(a, b, c)
    return first


def _first3_3(f0: Callable[..., Any], f1: Callable[..., Any],
              f2: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any) -> Any:
        r = f0(a, b, c)
        if r is not None:
            return r
        r = f1(a, b, c)
        if r is not None:
            return r
        return f2(a, b, c)
    return first


def _first4_2(f0: Callable[..., Any], f1: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any, d: Any) -> Any:
        r = f0(a, b, c, d)
        if r is not None:
            return r
        return f1(a, b, c, d)
    return first


def _first4_3(f0: Callable[..., Any], f1: Callable[..., Any],
              f2: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any, d: Any) -> Any:
        r = f0(a, b, c, d)
        if r is not None:
            return r
        r = f1(a, b, c, d)
        if r is not None:
            return r
        return f2(a, b, c, d)
    return first


def _first5_2(f0: Callable[..., Any], f1: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any, d: Any, e: Any) -> Any:
        r = f0(a, b, c, d, e)
        if r is not None:
            return r
        return f1(a, b, c, d, e)
    return first


def _first5_3(f0: Callable[..., Any], f1: Callable[..., Any],
              f2: Callable[..., Any]) -> Callable[..., Any]:
    def first(a: Any, b: Any, c: Any, d: Any, e: Any) -> Any:
        r = f0(a, b, c, d, e)
        if r is not None:
            return r
        r = f1(a, b, c, d, e)
        if r is not None:
            return r
        return f2(a, b, c, d, e)
    return first


def _collect_any(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def collect(*args: Any) -> list[Any]:
        out = []
        for f in fs:
            r = f(*args)
            if r is not None:
                out.append(r)
        return out
    return collect


def _collect2(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    # em_refusals (game, action): asked for nearly every decision
    def collect(a: Any, b: Any) -> list[Any]:
        out = []
        for f in fs:
            r = f(a, b)
            if r is not None:
                out.append(r)
        return out
    return collect


def _collect2_1(f0: Callable[..., Any]) -> Callable[..., Any]:
    def collect(a: Any, b: Any) -> list[Any]:
        r = f0(a, b)
        return [] if r is None else [r]
    return collect


def _collect2_2(f0: Callable[..., Any], f1: Callable[..., Any]) -> Callable[..., Any]:
    def collect(a: Any, b: Any) -> list[Any]:
        out = []
        r = f0(a, b)
        if r is not None:
            out.append(r)
        r = f1(a, b)
        if r is not None:
            out.append(r)
        return out
    return collect


def _collect2_3(f0: Callable[..., Any], f1: Callable[..., Any],
                f2: Callable[..., Any]) -> Callable[..., Any]:
    def collect(a: Any, b: Any) -> list[Any]:
        out = []
        r = f0(a, b)
        if r is not None:
            out.append(r)
        r = f1(a, b)
        if r is not None:
            out.append(r)
        r = f2(a, b)
        if r is not None:
            out.append(r)
        return out
    return collect


def _notify_any(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def notify(*args: Any) -> None:
        for f in fs:
            f(*args)
    return notify


def _notify2(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    def notify(a: Any, b: Any) -> None:
        for f in fs:
            f(a, b)
    return notify


def _notify4(fs: tuple[Callable[..., Any], ...]) -> Callable[..., Any]:
    # em_moved (game, player, start, steps): fired on every move
    def notify(a: Any, b: Any, c: Any, d: Any) -> None:
        for f in fs:
            f(a, b, c, d)
    return notify


def _nothing_first(*args: Any, **kwargs: Any) -> None:
    return None


_FIRST = {1: _first1, 2: _first2, 3: _first3, 4: _first4, 5: _first5, 6: _first6}
# the usual two or three implementations, their calls written out (no loop)
_FIRST_FEW: dict[tuple[int, int], Callable[..., Callable[..., Any]]] = {(2, 2): _first2_2, (3, 2): _first3_2, (4, 2): _first4_2, (5, 2): _first5_2,
              (2, 3): _first2_3, (3, 3): _first3_3, (4, 3): _first4_3, (5, 3): _first5_3}
_COLLECT = {2: _collect2}
_NOTIFY = {2: _notify2, 4: _notify4}


def _compose(how: str, funcs: tuple[Callable[..., Any], ...],
             spec_args: tuple[str, ...]) -> Callable[..., Any]:
    """One function calling `funcs` in order with the spec's arguments, as pluggy would:

    first    the first non-None result (firstresult hooks), None if there is none
    collect  the list of the non-None results
    notify   nothing (a notification: see is_notification)
    """
    n = len(spec_args)
    if how == "first":
        if not funcs:
            return _nothing_first
        if len(funcs) == 1:
            return funcs[0]
        few = _FIRST_FEW.get((n, len(funcs)))
        return few(*funcs) if few is not None else _FIRST.get(n, _first_any)(funcs)
    if how == "collect":
        if n == 2 and 1 <= len(funcs) <= 3:  # em_refusals, asked at most decisions
            return (_collect2_1, _collect2_2, _collect2_3)[len(funcs) - 1](*funcs)
        return _COLLECT.get(n, _collect_any)(funcs)
    if len(funcs) == 1:
        return funcs[0]
    return _NOTIFY.get(n, _notify_any)(funcs)


def _via_pluggy(caller: pluggy.HookCaller, spec_args: tuple[str, ...],
                notification: bool = False) -> Callable[..., Any]:
    if notification:
        def notify(*args: Any, **kwargs: Any) -> None:
            caller(**dict(zip(spec_args, _positional(spec_args, args, kwargs))))
        return notify

    def call(*args: Any, **kwargs: Any) -> Any:
        return caller(**dict(zip(spec_args, _positional(spec_args, args, kwargs))))
    return call


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _traced(name: str, caller: pluggy.HookCaller, spec_args: tuple[str, ...],
            out: TextIO) -> Callable[..., Any]:
    """Call each implementation by hand, printing which plugin answered what."""
    impls = list(reversed(caller.get_hookimpls()))
    firstresult = bool(caller.spec and caller.spec.opts.get("firstresult"))
    notification = is_notification(caller)
    if any(i.hookwrapper or i.wrapper for i in impls):
        plain = _via_pluggy(caller, spec_args)

        def via(*args: Any, **kwargs: Any) -> Any:
            result = plain(*args, **kwargs)
            print(f"trace: {name} -> {_short(result)} (with wrappers)", file=out)
            return result
        return via
    pairs = [(i.plugin_name, _adapt(i, spec_args)) for i in impls]

    def traced(*args: Any, **kwargs: Any) -> Any:
        args = _positional(spec_args, args, kwargs)
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
        return None if firstresult or notification else results
    return traced


class HookRelay:
    """`relay.em_land(game, player, space, dice)`: the hooks of one plugin set, called positionally."""

    def __init__(self, pm: pluggy.PluginManager, mode: str = "fast",
                 trace: TextIO | None = None,
                 kinds: Mapping[str, SpaceKind] | None = None,
                 action_types: Iterable[type] | None = None,
                 off: Mapping[str, str] | None = None,
                 filters: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        """`off`: the hooks declared by a rule that is not in play -> that rule; calling
        one that nothing here implements is an error naming the rule. `filters`: plugin
        name -> its filters (Registry.call_filters); without it, those its object declares."""
        if mode not in ("fast", "pluggy"):
            raise ValueError(f"dispatch mode must be 'fast' or 'pluggy', not {mode!r}")
        self.mode = mode
        self.implemented: dict[str, tuple[str, ...]] = {}
        for name in hook_names(pm):
            caller: pluggy.HookCaller = getattr(pm.hook, name)
            spec_args = tuple(caller.spec.argnames) if caller.spec else ()
            impls = caller.get_hookimpls()
            self.implemented[name] = tuple(i.plugin_name for i in reversed(impls))
            notification = is_notification(caller)
            if off and name in off and not impls:
                fn = _off(name, off[name])
            elif trace is not None:
                fn = _traced(name, caller, spec_args, trace)
            elif mode == "pluggy" or any(i.hookwrapper or i.wrapper for i in impls):
                fn = _via_pluggy(caller, spec_args, notification)
            else:
                funcs = tuple(_adapt(i, spec_args) for i in reversed(impls))
                firstresult = bool(caller.spec and caller.spec.opts.get("firstresult"))
                how = ("first" if firstresult else "notify" if notification
                       else "collect")
                fn = _compose(how, funcs, spec_args)
            setattr(self, name, _by_keyword(fn, spec_args))

        # Three hooks are fired often with a discriminating argument: em_refusals (by action
        # type), em_land (by space kind) and em_moved (by the kinds of space the move
        # touched). An implementation is called only for the keys it handles, as its
        # structure says: the annotation of its `action` or `space` parameter (traits or
        # action classes: easymoney.engine.traits), which binds in every dispatch mode, or
        # the kinds of space a built-in rule declares (registry.own_kind_filters). Earlier
        # plugins' declarations (REFUSES, LANDS_ON, PASSES: deprecated) still narrow the
        # relay's calls; the registry refuses, at load time, one naming nothing declared.
        space_kinds: Mapping[Any, Any] = dict(kinds or {})
        types: Mapping[Any, Any] = {t: t for t in action_types or ()}
        self._pm = pm
        self._trace = trace

        def declared_by(impl: pluggy.HookImpl, name: str) -> Any:
            if filters is not None and impl.plugin_name in filters:
                return filters[impl.plugin_name].get(name)
            return getattr(impl.plugin, name, None)
        # hook -> (plugin, the keys its annotation selects) of each implementation that has one
        self._selected: dict[str, list[tuple[str, frozenset[Any]]]] = {}
        self._filters: dict[str, tuple[tuple[str, ...],
                                       list[tuple[frozenset[Any] | None, Callable[..., Any]]]]] = {}
        for name, declared, param, args, universe in (
                ("em_refusals", "REFUSES", "action", ("game", "action"), types),
                ("em_land", "LANDS_ON", "space", ("game", "player", "space", "dice"), space_kinds),
                ("em_moved", "PASSES", None, ("game", "player", "start", "steps"), space_kinds)):
            callers: list[tuple[frozenset[Any] | None, Callable[..., Any]]] = []
            for i in reversed(getattr(pm.hook, name).get_hookimpls()):
                keys = _expand(declared_by(i, declared), universe)
                chosen = selection(i.function, param) if param else EVERYTHING
                if chosen.test is not None:
                    keys = frozenset(k for k, v in universe.items() if chosen.test(v))
                    self._selected.setdefault(name, []).append((i.plugin_name, keys))
                callers.append((keys, _adapt(i, args)))
            self._filters[name] = (args, callers)
        self._by_key: dict[tuple[str, Any], Callable[..., Any] | None] = {}
        self._traced = trace is not None
        # em_refusals -> the action types it may refuse for their amounts (REFUSES_AMOUNTS),
        # those it may refuse when the asked player takes them (REFUSES_ASKED), and those
        # whose listed candidates it never refuses (REFUSES_UNLISTED): what its annotation
        # says (the fields its traits concern; ByAnother; OffGrid), or an earlier plugin's
        # declarations (the others may refuse any type any way)
        pairs = list(zip(self._filters["em_refusals"][1],
                         reversed(pm.hook.em_refusals.get_hookimpls())))
        self._narrowed: dict[str, dict[Callable[..., Any], frozenset[Any]]] = {
            n: {} for n in ("REFUSES_AMOUNTS", "REFUSES_ASKED", "REFUSES_UNLISTED")}
        # (em_refusals, declaration) -> how a message names what narrowed it
        self._said: dict[tuple[Callable[..., Any], str], str] = {}
        for (_, f), i in pairs:
            chosen = selection(i.function, "action")
            for declared in self._narrowed:
                found = declared_by(i, declared)
                if found is not None:
                    self._narrowed[declared][f] = _expand(found, types)  # type: ignore[assignment]
                    self._said[f, declared] = declared
                elif chosen is not EVERYTHING:
                    narrowed = _narrowing(chosen, declared, types)
                    if narrowed is not None:
                        self._narrowed[declared][f] = narrowed
                        self._said[f, declared] = f"annotation `{chosen.text}`"
        self._refuser_plugin = {f: i.plugin_name for (_, f), i in pairs}

    def _for(self, name: str, key: Any) -> Callable[..., Any] | None:
        """The caller of hook `name` for one key: an action type, a space kind, or a set of
        space kinds (em_moved); None when no implementation is concerned."""
        cache_key = (name, key)
        if cache_key in self._by_key:
            return self._by_key[cache_key]
        args, impls = self._filters[name]
        fn: Callable[..., Any] | None
        if not self._one_by_one(name):
            # pluggy (or the tracer) calls them all, wrappers too, but those whose
            # annotation leaves this key out
            left_out = [p for p, keys in self._selected.get(name, ()) if not _meets(key, keys)]
            fn = getattr(self, name) if not left_out else self._subset(name, left_out)
        else:
            funcs = tuple(f for keys, f in impls if _meets(key, keys))
            if name == "em_moved":
                fn = _compose("notify", funcs, args) if funcs else None
            else:
                fn = _compose("first" if name == "em_land" else "collect", funcs, args)
        self._by_key[cache_key] = fn
        return fn

    def _subset(self, name: str, left_out: list[str]) -> Callable[..., Any]:
        """pluggy's caller of hook `name` without the implementations of these plugins."""
        caller = self._pm.subset_hook_caller(
            name, remove_plugins=[self._pm.get_plugin(p) for p in left_out])
        args = self._filters[name][0]
        if self._trace is not None:
            return _traced(name, caller, args, self._trace)
        return _via_pluggy(caller, args, is_notification(caller))

    def _one_by_one(self, name: str) -> bool:
        """Whether hook `name`'s implementations are called one by one, as the filters
        choose (fast dispatch, no tracer, none a wrapper): else pluggy calls them all."""
        return (self.mode == "fast" and not self._traced
                and len(self._filters[name][1]) == len(self.implemented[name]))

    def refusals_for(self, kind: type) -> Callable[..., Any]:
        """The `em_refusals` caller for one action type."""
        fn = self._for("em_refusals", kind)
        assert fn is not None
        return fn

    def refused_for(self, kind: type, amounts: bool = False, asked: bool = False,
                    listed: bool = False) -> Callable[[Any, Any], bool] | None:
        """Whether any `em_refusals` implementation refuses an action of this type: the
        same implementations as `refusals_for`, stopping at the first refusal (what a
        listing of the legal actions needs, with no list made). None when none is left.

        `amounts`: only those of rules that may refuse this type for its amounts (whose
        `REFUSES_AMOUNTS` names it, or who declare none): what a range needs at its other
        end. `asked`: only those that may refuse it when the asked player takes it (whose
        `REFUSES_ASKED` names it, or who declare none): what the asked player's own
        candidates need. `listed`: not those whose `REFUSES_UNLISTED` names it (they never
        refuse a candidate the type lists): what judges a listing's candidates."""
        collect = self.refusals_for(kind)
        if not self._one_by_one("em_refusals"):
            return lambda game, action: bool(collect(game, action))
        funcs = tuple(f for f, promised in self._refusers(kind, amounts, asked, listed)
                      if not promised)
        if not funcs:
            return None
        if len(funcs) == 1:
            only = funcs[0]
            return lambda game, action: bool(only(game, action))

        def refused(game: Any, action: Any) -> bool:
            nonlocal funcs
            order = funcs
            for f in order:
                if f(game, action):
                    if f is not order[0]:
                        # the rule that refused is asked one place sooner next time: the
                        # answer is the same in any order, and those that refuse most come
                        # first. A new tuple, stored at once: a thread never sees half of it
                        at = order.index(f)
                        funcs = (*order[:at - 1], f, order[at - 1], *order[at + 1:])
                    return True
            return False
        return refused

    def skipped_refusers(self, kind: type, amounts: bool = False, asked: bool = False,
                         listed: bool = False) -> list[tuple[str, Callable[[Any, Any], Any], tuple[str, ...]]]:
        """(plugin name, em_refusals, the declarations that leave it out) of each
        implementation that `refused_for` leaves out judging so: what the invariants check
        asks all the same."""
        if not self._one_by_one("em_refusals"):
            return []  # every implementation is asked
        return [(self._refuser_plugin[f], f, promised)
                for f, promised in self._refusers(kind, amounts, asked, listed) if promised]

    def _refusers(self, kind: type, amounts: bool, asked: bool,
                  listed: bool) -> list[tuple[Callable[[Any, Any], Any], tuple[str, ...]]]:
        """(em_refusals, the declarations by which its plugin promised never to refuse an
        action of `kind` judged so) of each implementation that may be asked about `kind`,
        in calling order. The promises: at a range's other end (`amounts`, REFUSES_AMOUNTS),
        taken by the asked player (`asked`, REFUSES_ASKED), or listed by the type's
        candidates (`listed`, REFUSES_UNLISTED); none: it is asked."""
        # (declaration, each declaring implementation's types, whether naming `kind` in
        # it is the promise): REFUSES_UNLISTED names what is never refused, the others
        # what may be
        checks = [(name, self._narrowed[name], among) for name, on, among in (
            ("REFUSES_AMOUNTS", amounts, False), ("REFUSES_ASKED", asked, False),
            ("REFUSES_UNLISTED", listed, True)) if on]
        return [(f, tuple(self._said.get((f, name), name) for name, declared, among in checks
                          if (named := declared.get(f)) is not None and (kind in named) is among))
                for keys, f in self._filters["em_refusals"][1] if keys is None or kind in keys]

    def has_refusers(self, kind: type) -> bool:
        """Whether any `em_refusals` implementation may be asked about this action type
        (always, where pluggy calls them all)."""
        return not self._one_by_one("em_refusals") or any(
            keys is None or kind in keys for keys, _ in self._filters["em_refusals"][1])

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


def _meets(key: Any, keys: frozenset[Any] | None) -> bool:
    """Whether an implementation handling `keys` (None: every one) is concerned by `key`,
    or by one of a move's kinds (a frozenset)."""
    if keys is None:
        return True
    return not key.isdisjoint(keys) if isinstance(key, frozenset) else key in keys


def _narrowing(chosen: Selection, declared: str,
               types: Mapping[Any, Any]) -> frozenset[Any] | None:
    """What an annotated judge says in the place of an earlier declaration: the types it may
    refuse for an amount (a field its traits concern may vary over a range), none when the
    asked player takes them (ByAnother: it judges who acts), and those whose listed
    candidates it never meets (OffGrid). None: no narrowing."""
    if declared == "REFUSES_ASKED":
        return frozenset() if chosen.by_another else None
    selected = [t for t in types if chosen.test is None or chosen.test(t)]
    if declared == "REFUSES_UNLISTED":
        never = frozenset(t for t in selected if chosen.listed_never(t))
        return never or None
    may = []
    for t in selected:
        fields, amounts = chosen.concerns(t), amount_fields(t)
        if fields is None or amounts is None or not fields.isdisjoint(amounts):
            may.append(t)
    return frozenset(may)


def _expand(declared: Any, universe: Mapping[Any, Any]) -> frozenset[Any] | None:
    """A filter as a set of keys: a predicate becomes the keys of `universe` whose value it
    selects (space kinds by their SpaceKind, action types by themselves)."""
    if declared is None or not callable(declared) or isinstance(declared, type):
        return None if declared is None else frozenset(declared)
    return frozenset(key for key, value in universe.items() if declared(value))


def trace_stream() -> TextIO:
    return sys.stderr
