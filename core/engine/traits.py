"""What a rule's hook handles, said by the annotation of its parameter: the engine reads it.

A rule that crosses actions judges them by their traits (R13 every action that hands a
space over, R5 every window action), and a landing rule handles kinds of space by theirs
(R18 every space with a rent rule). The annotation says it once, for the reader and for the
engine, which then asks the hook only about what it selects:

    @hookimpl
    def em_refusals(game: Game, action: HandsOver | Builds) -> list[Refusal] | None: ...

    @hookimpl
    def em_land(game: Game, player: Player, space: Rented, dice: tuple[int, int]) -> ...

An action trait is also an `isinstance` test (`isinstance(action, HandsOver)`); an action
class (`action: GoBankrupt`) selects itself and its subclasses; a union selects what any
member selects; `Action`, `Space`, no annotation or one the engine cannot read: everything
(always right). `ByAnother[...]` selects the actions taken by another player than the one
asked (R5, R25: who may act), which a listing of the asked player's own choices never meets.
"""

from __future__ import annotations

import types
import typing
from abc import ABCMeta
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

if TYPE_CHECKING:  # a type checker reads an annotated action or space as one
    from .actions import Action as _ActionBase
    from .model import Space as _SpaceBase
else:
    _ActionBase = _SpaceBase = object

__all__ = ["ActionTrait", "WindowAction", "RaisesMoney", "Deal", "HandsOver", "Builds",
           "Priced", "OffGrid", "ByAnother", "SpaceTrait", "Rented", "BoughtOnLanding",
           "AuctionedOnLanding", "OwnKind", "Selection", "selection"]


class ActionTrait(_ActionBase, metaclass=ABCMeta):  # noqa: B024 - a trait is no abstract class
    """A trait of action types, read from their class attributes: `issubclass(Bid, HandsOver)`.

    `concerns(kind)`: the fields of `kind` a judge selecting by the trait reads (who acts,
    which space, whom it binds): judged over a range of amounts in another field, it
    refuses both ends alike, so a listing asks it at one end only."""

    listed_never = False  # a listing's candidates are never selected (OffGrid)

    @classmethod
    def selects(cls, kind: type) -> bool:
        raise NotImplementedError

    @classmethod
    def concerns(cls, kind: type) -> tuple[str, ...]:
        return ("player",)

    @classmethod
    def __subclasshook__(cls, other: type) -> bool:
        if cls is ActionTrait:
            return NotImplemented
        return bool(cls.selects(other))


class WindowAction(ActionTrait):
    """Taken in the mover's own windows (R5): `window`."""

    @classmethod
    def selects(cls, kind: type) -> bool:
        return bool(getattr(kind, "window", False))


class RaisesMoney(ActionTrait):
    """Answers a request to raise money (R25): `raises_money`."""

    @classmethod
    def selects(cls, kind: type) -> bool:
        return bool(getattr(kind, "raises_money", False))


class _NamesAField(ActionTrait):
    """A trait said by a class attribute naming one field of the action (None: not of it)."""

    names = ""

    @classmethod
    def selects(cls, kind: type) -> bool:
        return getattr(kind, cls.names, None) is not None

    @classmethod
    def concerns(cls, kind: type) -> tuple[str, ...]:
        return ("player", getattr(kind, cls.names))  # who acts, and that field


class Deal(_NamesAField):
    """Binds another player, who is asked first (R22, R22a): `counterparty`; judged for
    whom it binds, at any price."""

    names = "counterparty"


class HandsOver(ActionTrait):
    """Hands one space or more to a player (a purchase, a bid, a sale, a swap): `hands_over`."""

    @classmethod
    def selects(cls, kind: type) -> bool:
        return bool(getattr(kind, "hands_over", ()))

    @classmethod
    def concerns(cls, kind: type) -> tuple[str, ...]:
        return ("player", *(f for pair in getattr(kind, "hands_over") for f in pair))  # who gets what


class Builds(_NamesAField):
    """Adds houses from the actor's supply (R17): `adds_houses`, the field of how many."""

    names = "adds_houses"


class Priced(ActionTrait):
    """Carries an amount a person writes (a field annotated `Money`, R30): `money_fields`."""

    @classmethod
    def selects(cls, kind: type) -> bool:
        return bool(getattr(kind, "money_fields", ()))

    @classmethod
    def concerns(cls, kind: type) -> tuple[str, ...]:
        return tuple(getattr(kind, "money_fields"))


class OffGrid(Priced):
    """An amount a person wrote off the rules' grid (R30: not a multiple of the smallest
    bill, `em_money_step`). A listing offers amounts on the grid only, so it never asks a
    judge selecting by this trait; a line or a bot's own action is judged."""

    listed_never = True


class _ByAnother:
    """The mark of `ByAnother[...]` in an annotation."""

    def __repr__(self) -> str:
        return "by another than the asked player"


BY_ANOTHER = _ByAnother()
_T = TypeVar("_T")
# `ByAnother[WindowAction]`: those actions, when another player than the one asked takes
# them (R5: a window is its player's; R25: so is raising money): a judge that refuses only
# who acts, which a listing of the asked player's own choices never needs
ByAnother = Annotated[_T, BY_ANOTHER]


class SpaceTrait(_SpaceBase):
    """A trait of kinds of space (easymoney.SpaceKind), for a landing rule's `space`."""

    @classmethod
    def selects(cls, kind: Any) -> bool:
        raise NotImplementedError


class Rented(SpaceTrait):
    """A kind with a rent rule (R18)."""

    @classmethod
    def selects(cls, kind: Any) -> bool:
        return kind.rent is not None


class BoughtOnLanding(SpaceTrait):
    """A kind offered at its price to whoever lands on it unowned (R9)."""

    @classmethod
    def selects(cls, kind: Any) -> bool:
        return bool(kind.on_landing == "buy")


class AuctionedOnLanding(SpaceTrait):
    """A kind auctioned as soon as someone lands on it unowned (R10)."""

    @classmethod
    def selects(cls, kind: Any) -> bool:
        return bool(kind.on_landing == "auction")


class OwnKind(_SpaceBase):
    """A kind of space the plugin itself declares (its SPACE_KINDS): `space: OwnKind` asks
    the hook about landings on those kinds only, built-in rule or not. Not a test of the
    kind: which plugin declares it says."""


@dataclass(frozen=True)
class Selection:
    """What a hook's annotated parameter selects: `test(key)` for an action type or a
    SpaceKind (None: everything), whether only actions by another than the asked, and
    the members of the annotation (traits, action classes), as written in `text`."""

    test: Callable[[Any], bool] | None
    by_another: bool = False
    members: tuple[Any, ...] = ()
    text: str = ""

    def concerns(self, kind: type) -> frozenset[str] | None:
        """The fields of `kind` a judge of this selection reads; None: any."""
        if self.by_another:
            return frozenset(("player",))  # who acts
        found: set[str] = set()
        for member in self.members:
            if not _is_trait(member):
                return None  # an action class: judged as a whole
            if member.selects(kind):
                found.update(member.concerns(kind))
        return frozenset(found)

    def listed_never(self, kind: type) -> bool:
        """Whether a listed candidate of `kind` is never selected (every member selecting
        `kind` says so: OffGrid)."""
        if not all(_is_trait(m) for m in self.members):
            return False  # an action class: judged as a whole
        members = [m for m in self.members if m.selects(kind)]
        return bool(members) and all(m.listed_never for m in members)


EVERYTHING = Selection(None)


def selection(function: Callable[..., Any], parameter: str) -> Selection:
    """What the annotation of `function`'s `parameter` selects; EVERYTHING when it has none
    or the engine cannot read it (a name imported only for type checkers)."""
    function = getattr(function, "__func__", function)
    written = declared = getattr(function, "__annotations__", {}).get(parameter)
    if isinstance(declared, str):
        try:
            declared = eval(declared, getattr(function, "__globals__", {}))  # noqa: S307
        except Exception:  # an annotation for type checkers only: asked about everything
            return EVERYTHING
    if typing.get_origin(declared) is type:  # `kind: type[HandsOver]`: a hook given the type
        declared = typing.get_args(declared)[0]
    by_another = (typing.get_origin(declared) is Annotated
                  and BY_ANOTHER in getattr(declared, "__metadata__", ()))
    if by_another:
        declared = typing.get_args(declared)[0]
    members = _members(declared)
    test = _test(members)
    if test is None and not by_another:
        return EVERYTHING
    text = written if isinstance(written, str) else _written(written)
    return Selection(test, by_another, () if test is None else members, f"{parameter}: {text}")


def own_kind(function: Callable[..., Any]) -> bool:
    """Whether the hook's `space` is annotated `OwnKind` (as a name or as the class)."""
    declared = getattr(getattr(function, "__func__", function), "__annotations__", {}).get("space")
    return declared is OwnKind or declared == "OwnKind"


def _written(declared: Any) -> str:
    """An annotation as its author wrote it: `ByAnother[WindowAction]`, `HandsOver | Builds`."""
    if typing.get_origin(declared) is Annotated and BY_ANOTHER in getattr(declared, "__metadata__", ()):
        return f"ByAnother[{_written(typing.get_args(declared)[0])}]"
    members = _members(declared)
    if len(members) > 1:
        return " | ".join(_written(m) for m in members)
    return getattr(declared, "__name__", repr(declared))


def _members(declared: Any) -> tuple[Any, ...]:
    if isinstance(declared, types.UnionType) or typing.get_origin(declared) is typing.Union:
        return typing.get_args(declared)
    return (declared,)


def _is_trait(member: Any) -> bool:
    """An action trait itself (issubclass would say so of every class it selects too)."""
    return isinstance(member, type) and ActionTrait in member.__mro__ and member is not ActionTrait


def _subclass_of(cls: type) -> Callable[[Any], bool]:
    return lambda kind: isinstance(kind, type) and issubclass(kind, cls)


def _test(members: tuple[Any, ...]) -> Callable[[Any], bool] | None:
    from .actions import Action
    tests: list[Callable[[Any], bool]] = []
    for member in members:
        if _is_trait(member) or (isinstance(member, type) and SpaceTrait in member.__mro__
                                 and member is not SpaceTrait):
            tests.append(member.selects)
        elif isinstance(member, type) and issubclass(member, Action) and member is not Action:
            tests.append(_subclass_of(member))
        else:
            return None  # Action, Space, anything else: every key
    if len(tests) == 1:
        return tests[0]
    return lambda key: any(t(key) for t in tests)
