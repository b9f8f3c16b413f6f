"""The fixed action catalogue of an environment: one slot per action an agent may name.

A learning agent picks a number; the catalogue says which action each number is, and which
numbers are legal now (the mask). It is built once per environment from the variant, the
players and the action types of the rules in play, so a plugin's actions join it when the
plugin is on. docs/agents.md describes the construction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action, ActionRange
from ..engine.deals import Accept, Reject
from ..engine.game import Game

# how a field of an action type is named in the catalogue
PLAYER, SPACE, NUMBER = "player", "space", "number"


def _field_kind(annotation: Any) -> str | None:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    if text == "Player":
        return PLAYER
    if text == "Space":
        return SPACE
    if text == "int":
        return NUMBER
    return None  # fixed by the request (a deal's offer) or by chance (a throw's dice)


def _offered(kind: type[Action]) -> bool:
    """Whether the type lists candidates: a type that lists none is never legal."""
    return getattr(kind.candidates, "__func__", None) is not Action.candidates.__func__  # type: ignore[attr-defined]


class _Layout:
    """Where the slots of one action type start and how its fields index them."""

    __slots__ = ("kind", "base", "fields", "sizes", "strides", "size", "indexing")

    def __init__(self, kind: type[Action], base: int, fields: list[tuple[str, str]],
                 sizes: list[int]) -> None:
        self.kind, self.base, self.fields, self.sizes = kind, base, fields, sizes
        strides, stride = [], 1
        for size in reversed(sizes):
            strides.append(stride)
            stride *= size
        self.strides = list(reversed(strides))
        self.size = stride
        # (field, whether a number, stride) of each field: what `Catalogue.slots` walks
        self.indexing = tuple((name, kind == NUMBER, s)
                              for (name, kind), s in zip(fields, self.strides))


class Catalogue:
    """Slots `0..len(self)-1`, each an action type with its arguments: for each type in
    name order, one slot per combination of its other players (by seat), its spaces (by
    board index) and its numbers (`steps` slots each: a range's amounts in even fractions
    of the range, or a small number `n` at slot `n`)."""

    def __init__(self, game: Game, steps: int) -> None:
        if steps < 1:
            raise ValueError("amount_steps must be at least 1")
        self.steps = steps
        self.players = len(game.players)
        self.spaces = len(game.spaces)
        types: set[type[Action]] = {t for t in game.ruleset.handled if _offered(t)} | {Accept, Reject}
        self.layouts: dict[type[Action], _Layout] = {}
        self.names: list[str] = []
        base = 0
        for kind in sorted(types, key=lambda t: (t.__name__, t.__module__)):
            fields: list[tuple[str, str]] = []
            sizes: list[int] = []
            chance = kind.chance
            declared: tuple[dataclasses.Field[Any], ...] = (
                dataclasses.fields(kind) if dataclasses.is_dataclass(kind) else ())
            for f in declared:
                if f.name == "player" or f.name == chance:
                    continue
                fk = _field_kind(f.type)
                if fk is None:
                    continue
                fields.append((f.name, fk))
                sizes.append({PLAYER: self.players, SPACE: self.spaces, NUMBER: steps}[fk])
            layout = _Layout(kind, base, fields, sizes)
            self.layouts[kind] = layout
            self.names.extend(self._names(layout))
            base += layout.size
        self.size = base

    def __len__(self) -> int:
        return self.size

    def _names(self, layout: _Layout) -> list[str]:
        names = [layout.kind.__name__]
        for (name, _), size in zip(layout.fields, layout.sizes):
            names = [f"{n} {name}={k}" for n in names for k in range(size)]
        return names

    def name(self, slot: int) -> str:
        """`Sell space=3 buyer=1 price=2`: the slot's type and argument indices."""
        return self.names[slot]

    def amount(self, found: ActionRange, k: int) -> int:
        """The amount of a range's `k`-th slot: least, most, and even fractions between
        them, down to the range's grid."""
        least, most, step = found.least, found.most, found.step
        if self.steps == 1 or most == least:
            return least
        raw = least + (most - least) * k // (self.steps - 1)
        return least + (raw - least) // step * step

    def slots(self, legal: Sequence[Action | ActionRange]) -> dict[int, tuple[Action | ActionRange, int]]:
        """Each legal slot -> (the listed action or range, the amount for a range): the first
        listed wins where two meet."""
        out: dict[int, tuple[Action | ActionRange, int]] = {}
        layouts = self.layouts
        steps = range(self.steps)
        # last listed first, each slot simply set: where two meet, the first listed is left
        for found in reversed(legal):
            ranged = type(found) is ActionRange
            action: Any = found.template if ranged else found  # type: ignore[union-attr]
            layout = layouts.get(type(action))
            if layout is None:
                continue
            ranged_field = found.field if ranged else None  # type: ignore[union-attr]
            index = layout.base
            spread = -1
            for name, number, stride in layout.indexing:
                if name == ranged_field:
                    spread = stride
                    continue
                value = getattr(action, name)
                if number:
                    if value not in steps:
                        break  # a number the catalogue has no slot for
                    index += value * stride
                else:
                    index += value.index * stride
            else:
                if spread < 0:
                    out[index] = (found, 0)
                else:
                    out.update({index + k * spread: (found, k) for k in steps})
        return out

    def action(self, entry: tuple[Action | ActionRange, int]) -> Action:
        found, k = entry
        if type(found) is ActionRange:
            return found.at(self.amount(found, k))  # type: ignore[arg-type]
        return found  # type: ignore[return-value]
