"""The fixed action catalogue of an environment: one slot per action an agent may name.

A learning agent picks a number; the catalogue says which action each number is, and which
numbers are legal now (the mask). It is built once per environment from the variant, the
players and the action types of the rules in play, so a plugin's actions join it when the
plugin is on. docs/agents.md describes the construction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.actions import RAISE, WINDOW_KINDS, Action, ActionRange
from ..engine.deals import Accept, Reject
from ..engine.game import Game
from ..engine.lines import LineError, _annotations, _field
from ..errors import UsageError


# how a field of an action type is named in the catalogue; with `actions="compact"`, ASKED
# is a space the request names (one slot: the auctioned space), VALUE an amount of a space's
# value (one slot per fraction of `fractions`)
PLAYER, SPACE, NUMBER, ASKED, VALUE = "player", "space", "number", "asked", "value"
# a field of a few values (a `Literal`'s words, a `bool`'s False and True): one slot each
WORD = "word"
# the compact catalogue's amounts of a space: a bargain, its value, a premium
DEFAULT_FRACTIONS = (0.5, 1.0, 1.5)
# the most slots a catalogue may have: each is a name and a byte of every mask, and a
# plugin's type of several space or number fields multiplies them (48**5 for five spaces)
MAX_SLOTS = 200_000


def _field_kind(annotation: Any) -> str | None:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    if text == "Player":
        return PLAYER
    if text == "Space":
        return SPACE
    if text in ("int", "Money"):  # a count, or an amount (Money, R30's grid)
        return NUMBER
    return None  # fixed by the request (a deal's offer) or by chance (a throw's dice)


def _words(kind: type[Action], name: str, annotation: Any) -> tuple[Any, ...] | None:
    """The values of a field that holds one of a few (a `Literal`'s words, as the line
    reads them; a `bool`'s False and True), or None: each value is a distinct legal
    answer (issue 40: `pays percent tax` was out of every agent's reach)."""
    try:
        read = _field(kind.__name__, name, _annotations(kind).get(name, annotation))
    except LineError:
        return None
    if read.kind == "literal":
        return tuple(read.words)
    if read.kind == "bool":
        return (False, True)
    return None


def _offered(kind: type[Action]) -> bool:
    """Whether the type lists candidates, its own or derived: one that lists none is never legal."""
    from ..engine.actions import own_candidates
    from ..engine.derived import derived_candidates
    return own_candidates(kind) or not isinstance(derived_candidates(kind), str)


class _Layout:
    """Where the slots of one action type start and how its fields index them."""

    __slots__ = ("kind", "base", "fields", "sizes", "strides", "size", "indexing", "valued",
                 "space_field")

    def __init__(self, kind: type[Action], base: int, fields: list[tuple[str, str]],
                 sizes: list[int]) -> None:
        self.kind, self.base, self.fields, self.sizes = kind, base, fields, sizes
        # the compact catalogue's field of a space's amounts, and the field of that space
        self.valued = next((name for name, k in fields if k == VALUE), None)
        self.space_field = next((name for name, k in fields if k in (SPACE, ASKED)), None)
        strides, stride = [], 1
        for size in reversed(sizes):
            strides.append(stride)
            stride *= size
        self.strides = list(reversed(strides))
        self.size = stride
        # (field, whether a number, stride) of each field: what `Catalogue.slots` walks
        self.indexing = tuple((name, kind in (NUMBER, VALUE), s)
                              for (name, kind), s in zip(fields, self.strides))


class Catalogue:
    """Slots `0..len(self)-1`, each an action type with its arguments: for each type in
    name order, one slot per combination of its other players (by seat), its spaces (by
    board index) and its numbers (`steps` slots each: a range's amounts in even fractions
    of the range, or a small number `n` at slot `n`)."""

    def __init__(self, game: Game, steps: int, compact: bool = False,
                 fractions: Sequence[float] = DEFAULT_FRACTIONS) -> None:
        if steps < 1:
            raise ValueError("amount_steps must be at least 1")
        self.steps = steps
        self.compact = compact
        self.fractions = tuple(fractions)
        self.players = len(game.players)
        self.spaces = len(game.spaces)
        types: set[type[Action]] = {t for t in game.ruleset.handled if _offered(t)} | {Accept, Reject}
        self.layouts: dict[type[Action], _Layout] = {}
        # (type, field) -> the field's values, in slot order (WORD fields)
        self.words: dict[tuple[type[Action], str], tuple[Any, ...]] = {}
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
                words = _words(kind, f.name, f.type) if fk is None else None
                if words is not None:
                    fk = WORD
                    self.words[kind, f.name] = words
                if fk is None:
                    continue
                if compact:
                    fk = self._compact_kind(kind, f.name, fk, fields)
                fields.append((f.name, fk))
                sizes.append(len(words) if words is not None else
                             {PLAYER: self.players, SPACE: self.spaces, NUMBER: steps, ASKED: 1,
                              VALUE: len(self.fractions)}[fk])
            layout = _Layout(kind, base, fields, sizes)
            if base + layout.size > MAX_SLOTS:
                raise UsageError(
                    f"the agents' catalogue would have more than {MAX_SLOTS:,} slots: "
                    f"{kind.__name__} ({kind.__module__}) alone takes {layout.size:,} "
                    f"({' x '.join(map(str, sizes))} for {', '.join(n for n, _ in fields)})"
                    + (f"; a smaller amount_steps than {steps} shrinks it"
                       if any(k in (NUMBER,) for _, k in fields) else ""))
            self.layouts[kind] = layout
            self.names.extend(self._names(layout))
            base += layout.size
        self.size = base
        # type -> its one slot or its slot function (`_plain_slot`); for a range, type -> the
        # range's field and its slot function and stride
        self._plain: dict[type, int | Callable[..., int | None] | None] = {}
        self._ranged: dict[type, tuple[str, tuple[Callable[..., int | None], int] | None]] = {}
        self._ones = b"\x01" * steps  # a range's marks

    def __len__(self) -> int:
        return self.size

    @staticmethod
    def _compact_kind(kind: type[Action], name: str, fk: str, before: list[tuple[str, str]]) -> str:
        """A field's kind in the compact catalogue: a space of a type only some request
        asks for, not a window or the raising of money (a bid's, a purchase's), is the
        request's own space (ASKED); the amount of a type that names a space before it (a
        bid's, a sale's price) is a fraction of that space's value (VALUE)."""
        asked_by = kind.ASKED_BY or ()
        if fk == SPACE and asked_by and not set(asked_by) & {*WINDOW_KINDS, RAISE}:
            return ASKED
        money = kind.money_fields
        if fk == NUMBER and money and money[0] == name and any(k in (SPACE, ASKED) for _, k in before):
            return VALUE
        return fk

    def _names(self, layout: _Layout) -> list[str]:
        names = [layout.kind.__name__]
        for (name, kind), size in zip(layout.fields, layout.sizes):
            values = (["asked"] if kind == ASKED else [f"{f:g}value" for f in self.fractions]
                      if kind == VALUE else
                      [str(w).lower() for w in self.words[layout.kind, name]] if kind == WORD
                      else [str(k) for k in range(size)])
            names = [f"{n} {name}={v}" for n in names for v in values]
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

    def _indexer(self, kind: type, ranged: str | None) -> tuple[Callable[..., int | None], int] | None:
        """(the slot of an action of `kind` with its `ranged` field left out, the stride of
        that field or -1), made once per type and range field; None: a type with no slots."""
        layout = self.layouts.get(kind)
        if layout is None:
            return None
        spread, fixed = -1, []
        for name, number, stride in layout.indexing:
            if name == ranged:
                spread = stride
            else:
                fixed.append((name, number, stride))
        # one function per type, written out as a dataclass writes its __init__: the fields
        # read by plain attribute loads, the fastest Python has (asked for every listed action)
        lines, terms = [], [str(layout.base)]
        kinds = dict(layout.fields)
        scope: dict[str, Any] = {"numbers": range(self.steps)}
        for name, number, stride in fixed:
            if kinds[name] == WORD:  # a value's place among the field's values
                words = self.words[kind, name]
                # keyed by (type, value): True and 1 are equal keys, and a bool is no word
                scope[f"words_{name}"] = {(type(w), w): k for k, w in enumerate(words)}
                lines.append(f" {name} = words_{name}.get((type(action.{name}), action.{name}))")
                lines.append(f" if {name} is None: return None")
                terms.append(f"{name} * {stride}")
            elif kinds[name] == ASKED:  # one slot: the space the request names, or none
                lines.append(f" if action.{name} is not asked: return None")
            elif kinds[name] == VALUE:  # a fraction of a value, never a plain number
                return None
            elif number:
                lines.append(f" {name} = action.{name}")
                lines.append(f" if {name} not in numbers: return None")  # no slot for it
                terms.append(f"{name} * {stride}")
            else:
                terms.append(f"action.{name}.index * {stride}")
        source = "\n".join(["def index(action, asked=None):", *lines,
                            f" return {' + '.join(terms)}"])
        exec(source, scope)  # noqa: S102  # names are the dataclass's own field names
        index: Callable[..., int | None] = scope["index"]
        return index, spread

    def places(self, legal: Sequence[Action | ActionRange], game: Game | None = None,
               request: Any = None) -> tuple[list[tuple[int, int, Action | ActionRange]], bytearray]:
        """(where each listed action that has slots is, the mask of the legal slots), in one
        pass: each place is (first slot, stride, listed) in listing order, one slot at
        `first` (stride -1) or a range's `steps` slots from `first`; the mask is 1 at each
        legal slot (set in Python: cheaper than numpy's fancy index)."""
        out: list[tuple[int, int, Action | ActionRange]] = []
        marks = bytearray(self.size)
        steps = self.steps
        ones = self._ones
        plain, ranged, compact = self._plain, self._ranged, self.compact
        indexer: tuple[Callable[..., int | None], int] | None
        asked = None if request is None else request.space
        for found in legal:
            if type(found) is ActionRange:
                action: Any = found.template
                field = found.field
                by_field = ranged.get(type(action))
                if by_field is None or by_field[0] != field:  # a type's range has one field, as a rule
                    by_field = ranged[type(action)] = (field, self._indexer(type(action), field))
                indexer = by_field[1]
                if indexer is not None:
                    index = indexer[0](action, asked)
                    if index is not None:
                        spread = indexer[1]
                        if compact and self.layouts[type(action)].valued == field:
                            self._valued(found, index, spread, game, out, marks)
                            continue
                        out.append((index, spread, found))
                        marks[index:index + steps * spread:spread] = ones
                continue
            try:
                slot = plain[type(found)]
            except KeyError:
                slot = plain[type(found)] = self._plain_slot(type(found))
            if slot is not None:
                # a type with no field to index (a roll, an answer) has one slot: no call
                index = slot if type(slot) is int else slot(found, asked)  # type: ignore[operator]
                if index is not None:
                    out.append((index, -1, found))
                    marks[index] = 1
        return out, marks

    def _plain_slot(self, kind: type) -> int | Callable[..., int | None] | None:
        """The slot of every action of `kind` where its fields index none (its one slot),
        else its indexer (`_indexer`); None: a type with no slots."""
        indexer = self._indexer(kind, None)
        if indexer is None:
            return None
        layout = self.layouts[kind]
        return layout.base if not layout.fields else indexer[0]

    def _valued(self, found: ActionRange, index: int, spread: int, game: Game | None,
                out: list[tuple[int, int, Action | ActionRange]], marks: bytearray) -> None:
        """A range of a space's amounts, compact: one action per fraction of the space's
        value (R28, with its houses; the range's most where the space has no value), at
        its slot where the range holds it (rounded down to the range's grid)."""
        action: Any = found.template
        field = self.layouts[type(action)].space_field
        assert field is not None  # a VALUE field follows a space field (_compact_kind)
        space = getattr(action, field)
        value = None
        if game is not None:
            rule = game.kinds[space.kind].value
            if rule is not None:
                value = rule(game, space, max(1, game.houses[space.index]))
        if value is None:
            value = found.most
        least, most, step = found.least, found.most, found.step
        for k, fraction in enumerate(self.fractions):
            amount = int(value * fraction)
            # rounded down to the range's grid from its least: in the range up to its most
            if amount >= least:
                amount = least + (amount - least) // step * step
                if amount <= most:
                    slot = index + k * spread
                    if not marks[slot]:  # the first listed keeps a slot
                        out.append((slot, -1, found.at(amount)))
                        marks[slot] = 1

    def entry(self, places: list[tuple[int, int, Action | ActionRange]],
              slot: int) -> tuple[Action | ActionRange, int] | None:
        """(the listed action or range, the amount's k) of `slot`: the first listed wins
        where two meet; None: no legal slot."""
        steps = self.steps
        for index, spread, found in places:
            if spread < 0:
                if slot == index:
                    return found, 0
            elif index <= slot < index + steps * spread and not (slot - index) % spread:
                return found, (slot - index) // spread
        return None

    def slots(self, places: list[tuple[int, int, Action | ActionRange]]) -> dict[int, tuple[Action | ActionRange, int]]:
        """Each legal slot of `places` (see `places`) -> (the listed action or range, the
        amount for a range): the first listed wins where two meet."""
        out: dict[int, tuple[Action | ActionRange, int]] = {}
        steps = self.steps
        for index, spread, found in reversed(places):  # the first listed set last
            if spread < 0:
                out[index] = (found, 0)
            else:
                out.update((index + k * spread, (found, k)) for k in range(steps))
        return out

    def action(self, entry: tuple[Action | ActionRange, int]) -> Action:
        found, k = entry
        if type(found) is ActionRange:
            return found.at(self.amount(found, k))  # type: ignore[arg-type]
        return found  # type: ignore[return-value]
