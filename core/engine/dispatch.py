"""Calling hooks: pluggy itself, or per-game callers generated from the specs.

The fast relay keeps pluggy's semantics: implementations run in pluggy's order
(tryfirst/trylast, then last registered first), a `firstresult` hook stops at the first
non-None result, other hooks collect the non-None results in a list, and a hook with a
wrapper is left to pluggy. It only drops pluggy's per-call bookkeeping, which is most of
the cost of a call (tests/test_dispatch.py plays the same games both ways). The callers
are written by easymoney.engine.callers; those chosen by key (an action type, a space
kind) by easymoney.engine.filters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

import pluggy

from . import hookspecs
from .callers import compose, how_combined, impl_of, traced, via_pluggy
from .filters import ByKey
from .kinds import SpaceKind

# The core's hooks; a plugin may declare more (its HOOKSPECS), which a relay finds in its manager.
HOOK_NAMES: tuple[str, ...] = tuple(
    name for name in vars(hookspecs) if name.startswith("em_") and callable(getattr(hookspecs, name)))


def hook_names(pm: pluggy.PluginManager) -> tuple[str, ...]:
    """The core's hooks, then those the plugins of `pm` declare."""
    declared = [name for name in vars(pm.hook) if name.startswith("em_")
                and name not in HOOK_NAMES and getattr(pm.hook, name).spec is not None]
    return HOOK_NAMES + tuple(declared)


def _off(name: str, owner: str) -> Callable[..., Any]:
    """The caller of a hook whose declaring rule is off and that nothing here implements."""
    def off(*args: Any, **kwargs: Any) -> Any:
        from ..errors import PluginError
        raise PluginError(f"the hook {name} is declared by the rule '{owner}', which is off in "
                          f"this game: nothing answers it (ask `game.hook.has({name!r})` first)")
    return off


class HookRelay(ByKey):
    """`relay.em_land(game, player, space, dice)`: the hooks of one plugin set, called
    by position or by keyword."""

    def __init__(self, pm: pluggy.PluginManager, mode: str = "fast",
                 trace: TextIO | None = None,
                 kinds: Mapping[str, SpaceKind] | None = None,
                 action_types: Iterable[type] | None = None,
                 off: Mapping[str, str] | None = None,
                 own_kinds: Mapping[str, frozenset[str]] | None = None) -> None:
        """`off`: the hooks declared by a rule that is not in play -> that rule; calling
        one that nothing here implements is an error naming the rule. `own_kinds`: plugin
        name -> the kinds of space it declares (what `space: OwnKind` selects)."""
        if mode not in ("fast", "pluggy"):
            raise ValueError(f"dispatch mode must be 'fast' or 'pluggy', not {mode!r}")
        self.mode = mode
        self.implemented: dict[str, tuple[str, ...]] = {}
        for name in hook_names(pm):
            caller: pluggy.HookCaller = getattr(pm.hook, name)
            spec_args = tuple(caller.spec.argnames) if caller.spec else ()
            impls = caller.get_hookimpls()
            self.implemented[name] = tuple(i.plugin_name for i in reversed(impls))
            if off and name in off and not impls:
                fn = _off(name, off[name])
            elif trace is not None:
                fn = traced(name, caller, spec_args, trace)
            elif mode == "pluggy" or any(i.hookwrapper or i.wrapper for i in impls):
                fn = via_pluggy(name, caller, spec_args)
            else:
                fn = compose(how_combined(caller), name, spec_args,
                             [impl_of(i) for i in reversed(impls)])
            setattr(self, name, fn)
        self._keyed(pm, trace, dict(kinds or {}), {t: t for t in action_types or ()},
                    own_kinds or {})

    if TYPE_CHECKING:  # the hooks are set in __init__; no __getattr__ at run time, for
        # Python 3.11 does not specialize attribute reads on a class that has one
        def __getattr__(self, name: str) -> Callable[..., Any]: ...

    def has(self, name: str) -> bool:
        """Whether any plugin implements the hook (callers may skip a hook nobody answers)."""
        return bool(self.implemented[name])
