"""Actions as values: a copy with one field changed, a range of actions differing by an
amount, a space as a line names it. Below easymoney.engine.actions, the line templates
(lines) and the derived candidates (derived), which all use them."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action
    from .game import Player


def quoted(space: Any) -> str:
    """`"Dover Street"`: a space as a script line names it. A space a line gave by its board
    number (a `SpaceRef` with no name) prints as that number, as the line said it."""
    name = space.name
    return str(space.number) if name is None else f'"{name}"'

def fields_reader(kind: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """A reader of the values of all the dataclass fields of `kind`, in order (None: not a
    dataclass): one attrgetter, for readers that ask it of many actions."""
    if not dataclasses.is_dataclass(kind):
        return None
    names = tuple(f.name for f in dataclasses.fields(kind))
    read = attrgetter(*names)
    if len(names) == 1:  # attrgetter of one name gives the value, not a tuple
        return lambda action: (read(action),)
    return read


# values a copy of a game shares with it, in a stash or a request: nothing in them changes
IMMUTABLE = frozenset({type(None), bool, int, float, str, bytes})


FieldPlan = tuple[Callable[[Any], tuple[Any, ...]], tuple[str, ...], bool]
# action type -> its FieldPlan (None: not a dataclass), made once a type: `with_field` makes
# several copies a listing, a replay rebinds every step (easymoney.engine.stepping.rebind)
_FIELD_PLANS: dict[type, FieldPlan | None] = {}


def field_plan(kind: type) -> FieldPlan | None:
    """(a reader of all the dataclass fields of `kind` in order, their names, whether
    __init__ sets them all: then `kind(*values)` makes a copy), or None: not a dataclass."""
    try:
        return _FIELD_PLANS[kind]
    except KeyError:
        pass
    read = fields_reader(kind)
    plan = _FIELD_PLANS[kind] = None if read is None else (
        read, tuple(f.name for f in dataclasses.fields(kind)),
        all(f.init for f in dataclasses.fields(kind)))
    return plan


def with_field(action: Action, field: str, value: Any) -> Action:
    """`action` with one field changed (actions are values: a copy)."""
    kind = type(action)
    plan = field_plan(kind)
    if plan is not None and plan[2]:
        read, names, _ = plan
        values = list(read(action))
        try:
            values[names.index(field)] = value
        except ValueError:  # no such field: the copy as it was
            pass
        return kind(*values)
    if dataclasses.is_dataclass(action):
        return dataclasses.replace(action, **{field: value})  # type: ignore[type-var]
    other = copy.copy(action)
    setattr(other, field, value)
    return other

def on_grid(least: int, most: int, step: int) -> tuple[int, int]:
    """The least and most amounts of `least..most` that are multiples of `step`."""
    return -(-least // step) * step, most // step * step


class ActionRange:
    """Actions that differ only by an amount: `Ann bids N` for N from `least` to `most` in
    steps of `step`. `at(n)` makes one of them; `n in r` says whether it is in the range."""

    __slots__ = ("template", "field", "least", "most", "step")

    def __init__(self, template: Action, field: str, least: int, most: int, step: int = 1) -> None:
        if step != 1:
            step = max(1, step)
            least, most = -(-least // step) * step, most // step * step  # on_grid's, without its call
        self.template = template
        self.field = field
        self.least = least
        self.most = most
        self.step = step

    @property
    def player(self) -> Player:
        return self.template.player

    @property
    def kind(self) -> type[Action]:
        return type(self.template)

    def at(self, amount: int) -> Action:
        return with_field(self.template, self.field, amount)

    def __contains__(self, amount: object) -> bool:
        return (type(amount) is int and self.least <= amount <= self.most
                and (amount - self.least) % self.step == 0)

    def __len__(self) -> int:
        return 0 if self.most < self.least else (self.most - self.least) // self.step + 1

    def values(self) -> range:
        return range(self.least, self.most + 1, self.step)

    def line(self, placeholder: str = "N") -> str:
        """The script line with the amount left as `placeholder`: `Ann bids N`."""
        text = str(self.at(self.least))
        mark = str(self.least)
        head, found, tail = text.rpartition(mark)
        return head + placeholder + tail if found else text

    def __str__(self) -> str:
        step = f" in steps of {self.step}" if self.step > 1 else ""
        return f"{self.line()} (N from {self.least} to {self.most}{step})"

    def __repr__(self) -> str:
        return f"ActionRange({self.line()!r}, {self.least}..{self.most} step {self.step})"

    def __eq__(self, other: object) -> bool:
        return (type(other) is ActionRange and self.template == other.template
                and (self.field, self.least, self.most, self.step)
                == (other.field, other.least, other.most, other.step))

    def __hash__(self) -> int:
        return hash((type(self.template), self.field, self.least, self.most, self.step))
