"""Which implementations of a hook are concerned by one key: the callers by key of the relay.

Three hooks are fired often with a discriminating argument: em_refusals and em_narrow (by
action type) and em_land (by space kind). An implementation is called only for the keys it
handles, as its structure says: the annotation of its `action`, `kind` or `space` parameter
(traits or action classes: easymoney.engine.traits; `space: OwnKind`, the kinds its plugin
declares), which binds in every dispatch mode. (An earlier plugin's declarations are annotations by now:
easymoney.engine.earlier.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pluggy

from .actions import amount_fields
from .callers import Impl, compose, impl_of, traced, via_pluggy
from .traits import EVERYTHING, Selection, own_kind, selection

# hook -> its keyed parameter, its arguments, how it combines
KEYED = {"em_refusals": ("action", ("game", "action"), "collect"),
         "em_narrow": ("kind", ("game", "kind"), "collect"),
         "em_land": ("space", ("game", "player", "space", "dice"), "first")}
# what an annotation may promise of a type it selects: never refused for its amounts at a
# range's other end, when the asked player takes it, or when its candidates list it
PROMISES = ("amounts", "asked", "listed")


class ByKey:
    """The keyed callers of a HookRelay (its mode, tracer and hooks are the relay's)."""

    mode: str
    implemented: dict[str, tuple[str, ...]]

    def _keyed(self, pm: pluggy.PluginManager, trace: Any, space_kinds: Mapping[Any, Any],
               types: Mapping[Any, Any], own_kinds: Mapping[str, frozenset[str]]) -> None:
        """`own_kinds`: plugin name -> the kinds of space it declares (`space: OwnKind`)."""
        self._pm, self._trace = pm, trace
        # hook -> (plugin, the keys its annotation selects) of each implementation that has one
        self._selected: dict[str, list[tuple[str, frozenset[Any]]]] = {}
        # hook -> (the keys or None for all, the implementation, its positional caller)
        self._impls: dict[str, list[tuple[frozenset[Any] | None, Impl, Callable[..., Any]]]] = {}
        self._plugins: dict[str, list[str]] = {}  # hook -> the plugin of each of _impls'
        for name, (param, args, _) in KEYED.items():
            universe = space_kinds if param == "space" else types
            found = self._impls[name] = []
            plugins = self._plugins[name] = []
            for i in reversed(getattr(pm.hook, name).get_hookimpls()):
                keys: frozenset[Any] | None = None
                if param == "space" and own_kind(i.function):
                    keys = own_kinds.get(i.plugin_name, frozenset())
                else:
                    chosen = selection(i.function, param)
                    if chosen.test is not None:
                        keys = frozenset(k for k, v in universe.items() if chosen.test(v))
                if keys is not None:
                    self._selected.setdefault(name, []).append((i.plugin_name, keys))
                found.append((keys, impl_of(i), compose("first", name, args, [impl_of(i)])))
                plugins.append(i.plugin_name)
        self._by_key: dict[tuple[str, Any], Callable[..., Any]] = {}
        # em_refusals caller -> the types it promises never to refuse judged so, by what its
        # annotation says (the fields its traits concern; ByAnother; OffGrid); the others may
        # refuse any type any way
        impls = reversed(pm.hook.em_refusals.get_hookimpls())
        self._narrowed: dict[str, dict[Callable[..., Any], frozenset[Any]]] = {n: {} for n in PROMISES}
        self._said: dict[tuple[Callable[..., Any], str], str] = {}  # how a message names it
        self._refuser_plugin: dict[Callable[..., Any], str] = {}
        for (_, _, f), i in zip(self._impls["em_refusals"], impls):
            self._refuser_plugin[f] = i.plugin_name
            chosen = selection(i.function, "action")
            if chosen is EVERYTHING:
                continue
            for declared in PROMISES:
                narrowed = _narrowing(chosen, declared, types)
                if narrowed is not None:
                    self._narrowed[declared][f] = narrowed
                    self._said[f, declared] = f"annotation `{chosen.text}`"

    def _for(self, name: str, key: Any) -> Callable[..., Any]:
        """The caller of hook `name` for one key: an action type or a space kind."""
        cache_key = (name, key)
        if cache_key in self._by_key:
            return self._by_key[cache_key]
        fn: Callable[..., Any]
        if not self._one_by_one(name):
            # pluggy (or the tracer) calls them all, wrappers too, but those whose
            # annotation leaves this key out
            left_out = [p for p, keys in self._selected.get(name, ()) if key not in keys]
            fn = getattr(self, name) if not left_out else self._subset(name, left_out)
        else:
            _, args, how = KEYED[name]
            impls = [impl for keys, impl, _ in self._impls[name] if keys is None or key in keys]
            fn = compose(how, name, args, impls)
        self._by_key[cache_key] = fn
        return fn

    def _subset(self, name: str, left_out: list[str]) -> Callable[..., Any]:
        """pluggy's caller of hook `name` without the implementations of these plugins."""
        caller = self._pm.subset_hook_caller(
            name, remove_plugins=[self._pm.get_plugin(p) for p in left_out])
        args = KEYED[name][1]
        if self._trace is not None:
            return traced(name, caller, args, self._trace)
        return via_pluggy(name, caller, args)

    def _one_by_one(self, name: str) -> bool:
        """Whether hook `name`'s implementations are called one by one, as the filters
        choose (fast dispatch, no tracer, none a wrapper): else pluggy calls them all."""
        return (self.mode == "fast" and self._trace is None
                and len(self._impls[name]) == len(self.implemented[name]))

    def refusals_for(self, kind: type) -> Callable[..., Any]:
        """The `em_refusals` caller for one action type."""
        return self._for("em_refusals", kind)

    def refused_for(self, kind: type, amounts: bool = False, asked: bool = False,
                    listed: bool = False) -> Callable[[Any, Any], Any] | None:
        """Whether any `em_refusals` implementation refuses an action of this type (a true
        value: refused): the same implementations as `refusals_for`, stopping at the first
        refusal (what a listing of the legal actions needs, with no list made). None when
        none is left.

        `amounts`: only those of rules that may refuse this type for its amounts (the
        fields their annotation's traits concern): what a range needs at its other end.
        `asked`: only those that may refuse it when the asked player takes it (not
        `ByAnother`): what the asked player's own candidates need. `listed`: not those
        that never meet a listed candidate (`OffGrid`): what judges a listing's candidates."""
        collect = self.refusals_for(kind)
        if not self._one_by_one("em_refusals"):
            return lambda game, action: bool(collect(game, action))
        funcs = tuple(f for f, promised in self._refusers(kind, amounts, asked, listed)
                      if not promised)
        if not funcs:
            return None
        if len(funcs) == 1:
            # its refusals themselves: a true value (a list of refusals) where it refuses,
            # which is all a test is asked, with no call in between
            return funcs[0]  # type: ignore[no-any-return]

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
        """(plugin name, em_refusals, the promises that leave it out) of each
        implementation that `refused_for` leaves out judging so: what the invariants check
        asks all the same."""
        if not self._one_by_one("em_refusals"):
            return []  # every implementation is asked
        return [(self._refuser_plugin[f], f, promised)
                for f, promised in self._refusers(kind, amounts, asked, listed) if promised]

    def _refusers(self, kind: type, amounts: bool, asked: bool,
                  listed: bool) -> list[tuple[Callable[[Any, Any], Any], tuple[str, ...]]]:
        """(em_refusals, how its annotation promised never to refuse an action of `kind`
        judged so) of each implementation that may be asked about `kind`, in calling order.
        The promises: at a range's other end (`amounts`), taken by the asked player
        (`asked`), or listed by the type's candidates (`listed`); none: it is asked."""
        # (promise, each promising implementation's types, whether naming `kind` in it is
        # the promise): `listed` names what is never refused, the others what may be
        checks = [(name, self._narrowed[name], name == "listed")
                  for name, on in zip(PROMISES, (amounts, asked, listed)) if on]
        return [(f, tuple(self._said.get((f, name), name) for name, declared, among in checks
                          if (named := declared.get(f)) is not None and (kind in named) is among))
                for keys, _, f in self._impls["em_refusals"] if keys is None or kind in keys]

    def selecting(self, name: str, key: Any) -> list[str]:
        """The plugins whose implementation of the keyed hook `name` its annotation lets be
        asked about `key` (an action type, a space kind), in calling order."""
        return [plugin for (keys, _, _), plugin in zip(self._impls[name], self._plugins[name])
                if keys is None or key in keys]

    def has_refusers(self, kind: type) -> bool:
        """Whether any `em_refusals` implementation may be asked about this action type
        (always, where pluggy calls them all)."""
        return not self._one_by_one("em_refusals") or bool(self.selecting("em_refusals", kind))

    def narrow_for(self, kind: type) -> Callable[..., Any] | None:
        """The `em_narrow` caller for one action type; None when no implementation
        selects it (then nothing narrows its candidates)."""
        return self._for("em_narrow", kind) if self.selecting("em_narrow", kind) else None

    def land_for(self, kind: str) -> Callable[..., Any]:
        """The `em_land` caller for one space kind."""
        return self._for("em_land", kind)


def _narrowing(chosen: Selection, declared: str,
               types: Mapping[Any, Any]) -> frozenset[Any] | None:
    """What an annotated judge promises (`declared`: one of PROMISES): the types it may
    refuse for an amount (a field its traits concern may vary over a range), none when the
    asked player takes them (ByAnother: it judges who acts), and those whose listed
    candidates it never meets (OffGrid). None: no narrowing."""
    if declared == "asked":
        return frozenset() if chosen.by_another else None
    selected = [t for t in types if chosen.test is None or chosen.test(t)]
    if declared == "listed":
        never = frozenset(t for t in selected if chosen.listed_never(t))
        return never or None
    may = []
    for t in selected:
        fields, amounts = chosen.concerns(t), amount_fields(t)
        if fields is None or amounts is None or not fields.isdisjoint(amounts):
            may.append(t)
    return frozenset(may)
