"""Which implementations of a hook are concerned by one key: the callers by key of the relay.

Three hooks are fired often with a discriminating argument: em_refusals (by action type),
em_land (by space kind) and em_moved (by the kinds of space the move touched). An
implementation is called only for the keys it handles, as its structure says: the
annotation of its `action` or `space` parameter (traits or action classes:
easymoney.engine.traits), which binds in every dispatch mode, or the kinds of space a
built-in rule declares (registry.own_kind_filters). Earlier plugins' declarations (REFUSES,
LANDS_ON, PASSES: deprecated) still narrow the calls; the registry refuses, at load time,
one naming nothing declared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pluggy

from .actions import amount_fields
from .callers import Impl, compose, impl_of, traced, via_pluggy
from .traits import EVERYTHING, Selection, selection

# hook -> the declaration narrowing it, its keyed parameter, its arguments, how it combines
KEYED = {"em_refusals": ("REFUSES", "action", ("game", "action"), "collect"),
         "em_land": ("LANDS_ON", "space", ("game", "player", "space", "dice"), "first"),
         "em_moved": ("PASSES", None, ("game", "player", "start", "steps"), "notify")}
# the declarations by which a judge promises never to refuse a type judged so
PROMISES = ("REFUSES_AMOUNTS", "REFUSES_ASKED", "REFUSES_UNLISTED")


class ByKey:
    """The keyed callers of a HookRelay (its mode, tracer and hooks are the relay's)."""

    mode: str
    implemented: dict[str, tuple[str, ...]]

    def _keyed(self, pm: pluggy.PluginManager, trace: Any, space_kinds: Mapping[Any, Any],
               types: Mapping[Any, Any], filters: Mapping[str, Mapping[str, Any]] | None) -> None:
        """`filters`: plugin name -> its filters (Registry.call_filters); without it, those
        its object declares."""
        self._pm, self._trace = pm, trace

        def declared_by(impl: pluggy.HookImpl, name: str) -> Any:
            if filters is not None and impl.plugin_name in filters:
                return filters[impl.plugin_name].get(name)
            return getattr(impl.plugin, name, None)
        # hook -> (plugin, the keys its annotation selects) of each implementation that has one
        self._selected: dict[str, list[tuple[str, frozenset[Any]]]] = {}
        # hook -> (the keys or None for all, the implementation, its positional caller)
        self._impls: dict[str, list[tuple[frozenset[Any] | None, Impl, Callable[..., Any]]]] = {}
        for name, (declared, param, args, _) in KEYED.items():
            universe = types if name == "em_refusals" else space_kinds
            found = self._impls[name] = []
            for i in reversed(getattr(pm.hook, name).get_hookimpls()):
                keys = _expand(declared_by(i, declared), universe)
                chosen = selection(i.function, param) if param else EVERYTHING
                if chosen.test is not None:
                    keys = frozenset(k for k, v in universe.items() if chosen.test(v))
                    self._selected.setdefault(name, []).append((i.plugin_name, keys))
                found.append((keys, impl_of(i), compose("first", name, args, [impl_of(i)])))
        self._by_key: dict[tuple[str, Any], Callable[..., Any] | None] = {}
        # em_refusals caller -> the types it may refuse for their amounts (REFUSES_AMOUNTS),
        # may refuse when the asked player takes them (REFUSES_ASKED), and whose listed
        # candidates it never refuses (REFUSES_UNLISTED): what its annotation says (the
        # fields its traits concern; ByAnother; OffGrid), or an earlier plugin's declarations
        # (the others may refuse any type any way)
        impls = reversed(pm.hook.em_refusals.get_hookimpls())
        self._narrowed: dict[str, dict[Callable[..., Any], frozenset[Any]]] = {n: {} for n in PROMISES}
        self._said: dict[tuple[Callable[..., Any], str], str] = {}  # how a message names it
        self._refuser_plugin: dict[Callable[..., Any], str] = {}
        for (_, _, f), i in zip(self._impls["em_refusals"], impls):
            self._refuser_plugin[f] = i.plugin_name
            chosen = selection(i.function, "action")
            for declared in PROMISES:
                found_keys = declared_by(i, declared)
                if found_keys is not None:
                    self._narrowed[declared][f] = _expand(found_keys, types)  # type: ignore[assignment]
                    self._said[f, declared] = declared
                elif chosen is not EVERYTHING:
                    narrowed = _narrowing(chosen, declared, types)
                    if narrowed is not None:
                        self._narrowed[declared][f] = narrowed
                        self._said[f, declared] = f"annotation `{chosen.text}`"

    def _for(self, name: str, key: Any) -> Callable[..., Any] | None:
        """The caller of hook `name` for one key: an action type, a space kind, or a set of
        space kinds (em_moved); None when no implementation is concerned."""
        cache_key = (name, key)
        if cache_key in self._by_key:
            return self._by_key[cache_key]
        fn: Callable[..., Any] | None
        if not self._one_by_one(name):
            # pluggy (or the tracer) calls them all, wrappers too, but those whose
            # annotation leaves this key out
            left_out = [p for p, keys in self._selected.get(name, ()) if not _meets(key, keys)]
            fn = getattr(self, name) if not left_out else self._subset(name, left_out)
        else:
            _, _, args, how = KEYED[name]
            impls = [impl for keys, impl, _ in self._impls[name] if _meets(key, keys)]
            fn = None if how == "notify" and not impls else compose(how, name, args, impls)
        self._by_key[cache_key] = fn
        return fn

    def _subset(self, name: str, left_out: list[str]) -> Callable[..., Any]:
        """pluggy's caller of hook `name` without the implementations of these plugins."""
        caller = self._pm.subset_hook_caller(
            name, remove_plugins=[self._pm.get_plugin(p) for p in left_out])
        args = KEYED[name][2]
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
        checks = [(name, self._narrowed[name], name == "REFUSES_UNLISTED")
                  for name, on in zip(PROMISES, (amounts, asked, listed)) if on]
        return [(f, tuple(self._said.get((f, name), name) for name, declared, among in checks
                          if (named := declared.get(f)) is not None and (kind in named) is among))
                for keys, _, f in self._impls["em_refusals"] if keys is None or kind in keys]

    def has_refusers(self, kind: type) -> bool:
        """Whether any `em_refusals` implementation may be asked about this action type
        (always, where pluggy calls them all)."""
        return not self._one_by_one("em_refusals") or any(
            keys is None or kind in keys for keys, _, _ in self._impls["em_refusals"])

    def land_for(self, kind: str) -> Callable[..., Any]:
        """The `em_land` caller for one space kind."""
        fn = self._for("em_land", kind)
        assert fn is not None
        return fn

    def moved_for(self, kinds: frozenset[str]) -> Callable[..., Any] | None:
        """The `em_moved` caller for a move that touched spaces of these kinds, or None."""
        return self._for("em_moved", kinds)


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
