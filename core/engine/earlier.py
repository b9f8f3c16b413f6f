"""The earlier ways of writing a rule (before issue 29), translated at load into the new form.

A plugin written the earlier way keeps working for one release, with one DeprecationWarning
per way it takes (docs/plugins.md, "Earlier ways (deprecated)"). Loading translates it here,
once, so that the engine's paths know one world:

- `REFUSES`, `REFUSES_AMOUNTS`, `REFUSES_ASKED`, `REFUSES_UNLISTED`: the plugin's
  `em_refusals` gets the annotation that says the same (a trait made of the declarations:
  the types it judges, the fields it concerns, whether a listed candidate meets it, and
  `ByAnother` when it refuses no asked player);
- `LANDS_ON`, `PASSES`: its `em_land` and `em_moved` are called for the kinds they name only
  (the hook returns at once for the others);
- `em_apply`: each of the plugin's action classes without an `apply` of its own gets one
  that calls it;
- `em_amount_step`: each of the plugin's action classes offers its ranges on that grid.

The engine then registers the translated object in the plugin's place (a module-like copy of
its attributes: the original is kept as `PluginInfo.earlier`). A plugin taking no earlier
way is registered as it is. `ActionStatement` lines are the script layer's to read.
"""

from __future__ import annotations

import inspect
import types
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Union

from ..errors import PluginError, RefusedAction, did_you_mean
from .actions import Action, amount_fields
from .decisions import NO_RULE
from .traits import ActionTrait, ByAnother, SpaceTrait
from .values import ActionRange, on_grid

if TYPE_CHECKING:
    from .registry import PluginInfo, Registry

MARK = "easymoney_impl"  # pluggy's mark of a hook implementation (easymoney.hookimpl)
REFUSALS = ("REFUSES", "REFUSES_AMOUNTS", "REFUSES_ASKED", "REFUSES_UNLISTED")
KINDS = ("LANDS_ON", "PASSES")
HOOKS = ("em_apply", "em_amount_step")  # hooks of before: no longer the core's

# each earlier declaration, and what says the same by the structure
INSTEAD = {
    "REFUSES": "annotate em_refusals's `action` with the traits or action classes it judges "
               "(`action: HandsOver | Builds`, easymoney's traits), and drop REFUSES",
    "REFUSES_AMOUNTS": "drop it: the engine reads it from the fields the traits of "
                       "em_refusals's `action` annotation concern",
    "REFUSES_ASKED": "annotate em_refusals's `action` as `ByAnother[...]` when it refuses "
                     "only others than the asked player, and drop REFUSES_ASKED",
    "REFUSES_UNLISTED": "annotate em_refusals's `action` as `OffGrid` when it refuses only "
                        "amounts off the rules' grid, or drop it: an action's own "
                        "`refusals` are known to the engine",
    "LANDS_ON": "annotate em_land's `space` with the traits of the kinds it handles "
                "(`space: Rented`), or drop it",
    "PASSES": "drop it: em_moved is told of every move, and does nothing for the others",
    "em_apply": "define apply(self, game) on the action class",
    "em_amount_step": "annotate the amount Money (its grid is R30's, em_money_step)",
}


def check_shapes(obj: Any, label: str) -> None:
    """A declaration of the wrong shape would select the wrong calls: PluginError now."""
    for name in (*REFUSALS, *KINDS):
        declared = getattr(obj, name, None)
        if declared is None or (callable(declared) and not isinstance(declared, type)):
            continue  # none, or a predicate over the kinds or the action types
        item, what = (str, "space kinds") if name in KINDS else (type, "action types")
        if (not isinstance(declared, (tuple, list, frozenset, set))
                or not all(isinstance(x, item) for x in declared)):
            also = " or a predicate over SpaceKind" if item is str else " or a predicate"
            raise PluginError(f"{label}: {name} must be a tuple of {what}{also}, "
                              f"found {declared!r}")


def ways(obj: Any) -> list[str]:
    """The earlier ways `obj` takes, each with what to write instead."""
    from .statements import ActionStatement
    found = [f"its line class {cls.__name__} is an ActionStatement: declare LINE on the action "
             f"class it answers with, which then reads and prints the line, and drop "
             f"{cls.__name__}" for cls in getattr(obj, "STATEMENTS", ()) or ()
             if isinstance(cls, type) and issubclass(cls, ActionStatement)]
    for name in (*REFUSALS, *KINDS):
        if getattr(obj, name, None) is not None:
            found.append(f"it declares {name}: {INSTEAD[name]}")
    for hook in HOOKS:
        if callable(getattr(obj, hook, None)):
            found.append(f"it implements {hook}: {INSTEAD[hook]}")
    return found


def warn(info: PluginInfo, label: str) -> None:
    """One DeprecationWarning per earlier way, at load (discovery is made once)."""
    for what in ways(info.earlier if info.earlier is not None else info.obj):
        warnings.warn(f"{label}: {what} (the earlier way, deprecated: docs/plugins.md, "
                      f"'Earlier ways (deprecated)')", DeprecationWarning, stacklevel=4)


def translate(obj: Any, label: str) -> Any:
    """`obj` in the new form: itself when it takes no earlier way the engine would meet,
    else a module-like copy of its attributes with its hooks translated."""
    check_shapes(obj, label)
    declared = {n: getattr(obj, n) for n in (*REFUSALS, *KINDS) if getattr(obj, n, None) is not None}
    hooks = {n: getattr(obj, n) for n in HOOKS if callable(getattr(obj, n, None))}
    if not declared and not hooks:
        return obj
    copy: Any = types.ModuleType(getattr(obj, "__name__", label), getattr(obj, "__doc__", None))
    for name in dir(obj):
        if not name.startswith("__") and name not in declared and name not in hooks:
            setattr(copy, name, getattr(obj, name))
    refusals = getattr(obj, "em_refusals", None)
    if refusals is not None and any(n in declared for n in REFUSALS):
        copy.em_refusals = _annotated(refusals, "action", _judged(declared))
    if "LANDS_ON" in declared and getattr(obj, "em_land", None) is not None:
        copy.em_land = _for_kinds(obj.em_land, declared["LANDS_ON"], True)
    if "PASSES" in declared and getattr(obj, "em_moved", None) is not None:
        copy.em_moved = _for_kinds(obj.em_moved, declared["PASSES"], False)
    actions = tuple(getattr(obj, "ACTIONS", ()) or ())
    if "em_apply" in hooks:
        for kind in actions:
            if kind.apply is Action.apply:
                kind.apply = _applying(hooks["em_apply"])
    if "em_amount_step" in hooks:
        for kind in actions:  # once, however many times the plugin is read
            if not getattr(kind.candidates, "on_earlier_grid", False):
                kind.candidates = _on_grid(kind.candidates.__func__, hooks["em_amount_step"])
    return copy


def problems(registry: Registry, info: PluginInfo) -> list[str]:
    """The entries of `info`'s LANDS_ON, PASSES and REFUSES that no installed plugin
    declares: naming nothing, they would select no call (an error at load)."""
    obj = info.earlier
    if obj is None:
        return []
    kinds = registry.space_kind_table()
    out: list[str] = []
    for name in KINDS:
        declared = getattr(obj, name, None)
        for entry in () if declared is None or callable(declared) else declared:
            if entry not in kinds:
                out.append(f"plugin {info.id} ({info.origin}): {name} names the space kind "
                           f"{entry!r}, which no installed plugin declares"
                           f"{did_you_mean(entry, kinds)}")
    refuses = getattr(obj, "REFUSES", None)
    types_ = registry.action_types()
    for entry in () if refuses is None or callable(refuses) else refuses:
        if entry not in types_:
            out.append(f"plugin {info.id} ({info.origin}): REFUSES names the action type "
                       f"{entry.__name__}, which no installed plugin declares in ACTIONS")
    return out


def _member(declared: Any) -> Callable[[Any], bool]:
    """A declaration as a test of one key (a tuple names them; else a predicate)."""
    if callable(declared) and not isinstance(declared, type):
        return lambda key: bool(declared(key))
    named = frozenset(declared)
    return named.__contains__


def _judged(declared: Mapping[str, Any]) -> Any:
    """The annotation saying what the refusal declarations said: traits named after them."""
    judged = _member(declared["REFUSES"]) if "REFUSES" in declared else (lambda kind: True)
    by_amount = _member(declared["REFUSES_AMOUNTS"]) if "REFUSES_AMOUNTS" in declared else None
    unlisted = _member(declared["REFUSES_UNLISTED"]) if "REFUSES_UNLISTED" in declared else None

    def trait(name: str, selects: Callable[[type], bool], listed_never: bool) -> type:
        def concerns(cls: type, kind: type) -> tuple[str, ...]:
            # the amounts concern it unless REFUSES_AMOUNTS leaves this type out
            if by_amount is not None and not by_amount(kind):
                return ("player",)
            return ("player", *(amount_fields(kind) or ()))  # none known: it may, anyway
        return type(name, (ActionTrait,), {
            "selects": classmethod(lambda cls, kind: judged(kind) and selects(kind)),
            "concerns": classmethod(concerns), "listed_never": listed_never})

    # ByAnother says it of every type: only a promise for every type is one
    by_another = declared.get("REFUSES_ASKED") == () and declared.get("REFUSES_AMOUNTS") == ()
    listed = trait("REFUSES_ASKED" if by_another else "REFUSES",
                   lambda kind: unlisted is None or not unlisted(kind), False)
    members: Any = listed
    if unlisted is not None:
        members = Union[listed, trait("REFUSES_UNLISTED", unlisted, True)]  # noqa: UP007
    return ByAnother[members] if by_another else members  # type: ignore[misc]


def _annotated(hook: Callable[..., Any], parameter: str, annotation: Any) -> Callable[..., Any]:
    """The same hook with `parameter` annotated `annotation` (its code, mark and defaults)."""
    function = getattr(hook, "__func__", hook)
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                              function.__defaults__, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__dict__.update(function.__dict__)
    copy.__annotations__ = {**function.__annotations__, parameter: annotation}
    bound = getattr(hook, "__self__", None)
    return copy if bound is None or isinstance(hook, types.FunctionType) else types.MethodType(copy, bound)


def _touched(game: Any, start: int, steps: int) -> Iterator[str]:
    """The kinds of the spaces a move started on, crossed and ended on."""
    n = len(game.spaces)
    lo = start if steps >= 0 else start + steps
    for k in range(min(abs(steps), n - 1) + 1):
        yield game.spaces[(lo + k) % n].kind


def _for_kinds(hook: Callable[..., Any], declared: Any, landing: bool) -> Callable[..., Any]:
    """`hook` (em_land, or em_moved) called only when the landing or the move meets a kind
    `declared` names (a tuple of kinds, or a predicate over SpaceKind)."""
    wanted = _member(declared)
    by_name = not callable(declared) or isinstance(declared, type)
    names = _argnames(hook)

    def meets(game: Any, kinds: Iterator[str]) -> bool:
        table = game.ruleset.kinds
        return any(wanted(kind if by_name else table[kind]) for kind in kinds)

    def em_land(game: Any, player: Any, space: Any, dice: Any) -> Any:
        if not meets(game, iter((space.kind,))):
            return None
        given = {"game": game, "player": player, "space": space, "dice": dice}
        return hook(**{n: given[n] for n in names})

    def em_moved(game: Any, player: Any, start: int, steps: int) -> Any:
        if not meets(game, _touched(game, start, steps)):
            return None
        given = {"game": game, "player": player, "start": start, "steps": steps}
        return hook(**{n: given[n] for n in names})

    translated = em_land if landing else em_moved
    translated.__dict__[MARK] = getattr(hook, MARK)
    return translated


def _argnames(hook: Callable[..., Any]) -> tuple[str, ...]:
    return tuple(p.name for p in inspect.signature(hook).parameters.values()
                 if p.default is inspect.Parameter.empty)


def _applying(em_apply: Callable[..., Any]) -> Callable[[Action, Any], None]:
    """An action's `apply` that the plugin's em_apply carries out."""
    names = _argnames(em_apply)

    def apply(self: Action, game: Any) -> None:
        given = {"game": game, "action": self}
        if em_apply(**{n: given[n] for n in names}) is None:
            raise RefusedAction(f"{self.player} cannot {self.describe()}: {NO_RULE.reason}",
                                (NO_RULE,))
    return apply


def _on_grid(candidates: Callable[..., Any], em_amount_step: Callable[..., Any]) -> classmethod:
    """A class's `candidates` with its ranges on the grid em_amount_step says."""
    names = _argnames(em_amount_step)

    def on_its_grid(cls: type, game: Any, request: Any) -> Iterator[Any]:
        for found in candidates(cls, game, request):
            if isinstance(found, ActionRange):
                given = {"game": game, "action": found.template}
                step = em_amount_step(**{n: given[n] for n in names})
                if step is not None and int(step) > found.step:
                    least, most = on_grid(found.least, found.most, int(step))
                    if least > most:
                        continue
                    found = ActionRange(found.at(least), found.field, least, most, int(step))
            yield found
    on_its_grid.on_earlier_grid = True  # type: ignore[attr-defined]
    return classmethod(on_its_grid)
