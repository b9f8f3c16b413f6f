"""Candidates derived from an action's fields, for a class that writes no `candidates`.

A field that is a player, a space, a word from a list or a flag is enumerated by the
framework (the players in the game, the board's spaces, the words, False and True); an
amount (`Money`) is offered as a range between the class's `amount_bounds`, on the rules'
grid (R30); a field with a default keeps it. A value the rules that cross actions narrow
away (`Game.narrowed`) is not enumerated. Each candidate is judged by the class's own
`refusals`, so the listing offers exactly what its rule allows, as a class's own candidates
must. The actor is the player asked, for the requests the class's line answers (`ASKED_BY`,
or those whose `accepts` hold it).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .lines import LineError, _annotations, _field
from .values import ActionRange, on_grid, with_field

if TYPE_CHECKING:
    from .actions import Action, Request
    from .game import Game

Candidates = Callable[["Game", "Request"], Iterable["Action | ActionRange"]]

# Derived candidates are the product of the fields' values: more than this many for one
# request cannot be listed (and judged) in time, so a class whose product is larger on the
# standard board (48 spaces, 4 players) is refused at load, and a larger product on another
# board is one error naming the class rather than a listing that never returns.
MAX_DERIVED = 100_000
_SIZES_AT_LOAD = {"players": 4, "spaces": 48}
_PLANS: dict[type[Action], Candidates | str] = {}


def derived_candidates(kind: type[Action]) -> Candidates | str:
    """The derived candidates of `kind`, or why they cannot be derived (a sentence naming
    the class and the field). Made once per class."""
    found = _PLANS.get(kind)
    if found is None:
        found = _PLANS[kind] = _plan(kind)
    return found


def _plan(kind: type[Action]) -> Candidates | str:
    name = kind.__name__
    is_dataclass = dataclasses.is_dataclass(kind)  # apart: the check would narrow `kind`
    if not is_dataclass:
        return f"{name} is not a dataclass: write its candidates"
    annotations = _annotations(kind)
    choices: list[tuple[str, Callable[[Any], Sequence[Any]]]] = []
    amount: str | None = None
    for f in dataclasses.fields(kind):  # type: ignore[arg-type]
        if not f.init or f.kw_only or f.name == "player" or f.name == kind.chance:
            continue
        try:
            read = _field(name, f.name, annotations.get(f.name, f.type)).kind
        except LineError:
            read = ""
        if read in ("Player", "PlayerName"):
            choices.append((f.name, _players))
        elif read in ("Space", "SpaceRef"):
            choices.append((f.name, _spaces))
        elif read == "literal":
            words = _field(name, f.name, annotations[f.name]).words
            choices.append((f.name, _these(words)))
        elif read == "bool":
            choices.append((f.name, _these((False, True))))
        elif read == "Money" and amount is None:
            amount = f.name
        elif f.default is not dataclasses.MISSING:
            continue  # it keeps its default
        else:
            why = "a second amount" if read == "Money" else f"of type {f.type}"
            return (f"{name}.{f.name} ({why}) cannot be enumerated: write {name}.candidates, "
                    f"or give the field a default")
    sizes = [_SIZES_AT_LOAD.get(getattr(e, "__name__", "").strip("_"), 0) or len(e(None))
             for _, e in choices]
    if math.prod(sizes) > MAX_DERIVED:
        return (f"{name} has {math.prod(sizes):,} derived candidates a request on the standard "
                f"board ({' x '.join(f'{n} {f}' for (f, _), n in zip(choices, sizes))}); at "
                f"most {MAX_DERIVED:,} can be listed: write {name}.candidates to offer fewer, "
                f"or give some fields defaults")
    asked_by = kind.ASKED_BY
    # the action made for a candidate may take its least amount in place of a copy, unless
    # it is frozen or a __post_init__ would read the amount (a copy runs it again)
    mutable = kind.__setattr__ is object.__setattr__ and not hasattr(kind, "__post_init__")
    names = [n for n, _ in choices]
    enumerators = [e for _, e in choices]
    # the fields in the order __init__ takes them: the actor, the enumerated ones, then the
    # amount, the others keeping their defaults (the usual class) are given by position
    taken = [f for f in dataclasses.fields(kind) if f.init and not f.kw_only]  # type: ignore[arg-type]
    given = ["player", *names, *([amount] if amount is not None else [])]
    by_position = ([f.name for f in taken[:len(given)]] == given and all(
        f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        for f in taken[len(given):]))

    def candidates(game: Game, request: Request) -> Iterator[Action | ActionRange]:
        if not kind.ANY_MOMENT and (request.kind not in asked_by if asked_by is not None
                                    else kind not in request.accepts):
            return
        make: Callable[..., Action] = kind  # a dataclass: its fields are its arguments
        actor = request.player
        values_of = [enumerate_(game) for enumerate_ in enumerators]
        cuts = game.narrowing(kind)  # what the rules that cross actions refuse whatever the rest
        if cuts:
            if actor in cuts.get("player", ()):
                return
            for i, field in enumerate(names):
                cut = cuts.get(field)
                if cut:
                    values_of[i] = [v for v in values_of[i] if v not in cut]
        count = 1
        for values in values_of:
            count *= len(values)
        if count > MAX_DERIVED:  # a larger board or table than the load's check assumed
            from ..errors import PluginError
            owner = game.ruleset.action_owner.get(kind, kind.__module__)
            raise PluginError(f"plugin {owner!r}: {name} has {count:,} derived candidates for "
                              f"this request; at most {MAX_DERIVED:,} can be listed: write "
                              f"{name}.candidates to offer fewer")
        grid: int | None = None  # the rules' grid of the amount, asked at the first one
        for values in itertools.product(*values_of):
            if amount is None:
                action = make(actor, *values) if by_position else make(actor, **dict(zip(names, values)))
                if not action.refusals(game):
                    yield action
                continue
            action = make(actor, *values, 0) if by_position else \
                make(actor, **dict(zip(names, values)), **{amount: 0})
            least, most = action.amount_bounds(game, amount)
            if grid is None:
                grid = amount_step(game, action, amount)
            if grid > 1:  # the amounts a listing offers (R30): judged at its own ends
                least, most = on_grid(least, most, grid)
            if least > most:
                continue
            if mutable:  # made here and seen by nobody yet: set, not copied
                setattr(action, amount, least)
                low = action
            else:
                low = with_field(action, amount, least)
            # an amount is judged at both ends, as the listing judges a range by the others
            if low.refusals(game):
                continue
            high = low if most == least else with_field(low, amount, most)
            if high is not low and high.refusals(game):
                continue
            found = ActionRange(low, amount, least, most, grid)
            found.top = high  # made: the listing and a bot judge and value it again
            yield found
    return candidates


def _these(values: Iterable[Any]) -> Callable[[Any], tuple[Any, ...]]:
    """The same values whatever the game: a field's words, or a flag's two values."""
    fixed = tuple(values)
    return lambda game: fixed


def _players(game: Game) -> list[Any]:
    return [p for p in game.players if not p.bankrupt]


def _spaces(game: Game) -> list[Any]:
    return list(game.spaces)


def amount_step(game: Game, action: Action, field: str | None = None) -> int:
    """The step of the amounts an action of this kind may carry in `field`: for a `Money`
    field, the grid of the amounts a person writes (R30: the smallest bill, em_money_step);
    asked of the rules once per game and action type."""
    steps = game.decisions.amount_steps
    kind = type(action)
    step = steps.get(kind)
    if step is None:
        grid = 1
        if field is None or field in kind.money_fields:
            found = game.hook.em_money_step(game) if kind.money_fields else None
            grid = 1 if found is None else max(1, int(found))
        step = steps[kind] = grid
    return step
