"""What a kind of space or card is, declared once where the kind is declared; every rule asks it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .model import Space

# rent a lander owes the owner of an unmortgaged space with `houses` houses, for this throw
RentRule = Callable[["Game", "Space", int, "tuple[int, int]"], int]
# what the space is worth to its owner with `houses` houses, unmortgaged (R28; bots use it too)
ValueRule = Callable[["Game", "Space", int], int]

ON_LANDING = (None, "buy", "auction")


@dataclass(frozen=True)
class SpaceKind:
    """A kind of board space: its YAML keys and what the rules may do with it.

    schema        JSON Schema of the kind's own keys: `description`, `properties`, `required`
                  (annotations `x-money`, `x-space`, `x-per-house` on values are checked too)
    ownable       a player may own it; a house of theirs marks it (R3), it may be sold (R22)
    on_landing    what landing on it while it is unowned does: "buy" (offered at its `price`,
                  else auctioned: R9), "auction" (auctioned at once: R10), or None
    mortgageable  its owner may mortgage it for its `mortgage` value (R19)
    builds        houses may be added on it at its `price` each (R17); R13 counts it as a street
    rent          the rent rule (R18): (game, space, houses, dice) -> dollars
    value         its worth to its owner (R28, and bots' estimates): (game, space, houses) -> dollars
    plural        how messages name such spaces ("commercial buildings")

    A plain mapping in `SPACE_KINDS` is the same as `SpaceKind(schema=mapping)`: a kind
    with keys and no capability (a legend, a corner).
    """

    schema: Mapping[str, Any] = field(default_factory=dict)
    ownable: bool = False
    on_landing: str | None = None
    mortgageable: bool = False
    builds: bool = False
    rent: RentRule | None = None
    value: ValueRule | None = None
    plural: str = ""  # how messages name such spaces ("streets"); default "KIND spaces"

    def called(self, name: str) -> str:
        """The kind in the plural, for messages: `streets`, or `railroad spaces`."""
        return self.plural or f"{name} spaces"

    def problems(self) -> list[str]:
        """What is inconsistent in this declaration (empty: nothing)."""
        out: list[str] = []
        if self.on_landing not in ON_LANDING:
            out.append(f"on_landing must be one of {', '.join(map(repr, ON_LANDING))}, "
                       f"found {self.on_landing!r}")
        needs_owner = [name for name in ("on_landing", "mortgageable", "builds", "rent", "value")
                       if getattr(self, name)]
        if needs_owner and not self.ownable:
            out.append(f"{', '.join(needs_owner)} need ownable=True")
        keys = set(self.schema.get("properties", {}))
        for capability, key in (("builds", "price"), ("mortgageable", "mortgage")):
            if getattr(self, capability) and key not in keys:
                out.append(f"{capability}=True needs a `{key}` key in the schema's properties")
        if self.on_landing == "buy" and "price" not in keys:
            out.append("on_landing='buy' needs a `price` key in the schema's properties")
        return out


@dataclass(frozen=True)
class CardKind:
    """A kind of Give or Take card: its YAML keys; the plugin's `em_card` follows it.

    kept   the drawer keeps the card instead of discarding it (R21's Special Exemption card)
    """

    schema: Mapping[str, Any] = field(default_factory=dict)
    kept: bool = False


def as_space_kind(declared: Any) -> SpaceKind:
    return declared if isinstance(declared, SpaceKind) else SpaceKind(schema=dict(declared))


def as_card_kind(declared: Any) -> CardKind:
    return declared if isinstance(declared, CardKind) else CardKind(schema=dict(declared))
