"""Mortgages (R19) and redeeming (R20): borrow a space's mortgage value from the Bank, and repay it with 10%.

R19  in a window of their own turn, or to raise money (R25), an owner may mortgage a street
     or a commercial building and receive its mortgage value M from the Bank, whatever its
     houses; utilities cannot be mortgaged. Houses on a mortgaged street stay ("stored on
     end") but none may be added. Option `mortgage.rent`: `one_house` (a mortgaged space
     still collects the rent for one house / its printed rent) | `none` (it collects nothing).
R20  in a window of their own turn, the owner lifts a mortgage by paying the Bank M plus 10%
     interest, rounded (R30).
R26  a player may not give up (go bankrupt) while they can still mortgage something.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from easymoney import (WINDOW_KINDS, Action, ActionRange, Refusal, hookimpl,
                       money)
from easymoney.plugins.debts import RAISE, GoBankrupt

if TYPE_CHECKING:
    from easymoney import Game, Player, Request, Space


@dataclass(slots=True)
class Mortgage(Action):
    """`P mortgages SPACE` (R19): in a window, or to raise money (R25)."""

    LINE = "{player} mortgages {space}"
    ASKED_BY = (*WINDOW_KINDS, RAISE)
    player: Player
    space: Space
    verb = "mortgage"
    window = True
    raises_money = True

    def describe(self) -> str:
        return f"mortgage {self.space}"

    def refusals(self, game: Game) -> list[Refusal]:
        why = _why_not_mortgage(game, self.player, self.space)
        return [Refusal("R19", PLUGIN_ID, why)] if why else []

    def apply(self, game: Game) -> None:
        p, space = self.player, self.space
        game.set_mortgaged(space, True)
        game.emit("mortgage", player=p.name, space=space.name, amount=space.mortgage)
        game.collect(game.bank, p, space.mortgage, f"mortgage on {space} (R19)", "mortgage")

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """In the asked player's window, or to raise money: each space they own."""
        if request.kind in WINDOW_KINDS or request.kind == RAISE:
            p = request.player
            mortgaged, kinds = game.mortgaged, game.kinds
            for space in p.spaces:
                # a mortgaged one, or one of a kind never mortgaged, is always refused
                if not mortgaged[space.index] and kinds[space.kind].mortgageable:
                    yield cls(p, space)


@dataclass(slots=True)
class Redeem(Action):
    """`P redeems SPACE` (R20): in a window."""

    LINE = "{player} redeems {space}"
    ASKED_BY = WINDOW_KINDS
    player: Player
    space: Space
    verb = "redeem"
    window = True

    def describe(self) -> str:
        return f"redeem {self.space}"

    def refusals(self, game: Game) -> list[Refusal]:
        p, space = self.player, self.space
        if game.owner[space.index] is not p:
            return [Refusal("R20", PLUGIN_ID, f"{p} does not own {space}")]
        if not game.mortgaged[space.index]:
            return [Refusal("R20", PLUGIN_ID, f"{space} is not mortgaged")]
        cost = redeem_cost(game, space)
        if p.cash < cost:
            return [Refusal("R20", PLUGIN_ID, f"{p} has {money(p.cash)} and redeeming {space} "
                            f"costs {money(cost)}")]
        return []

    def apply(self, game: Game) -> None:
        p, space = self.player, self.space
        cost = redeem_cost(game, space)
        game.collect(p, game.bank, cost, f"redeeming {space} (R20)", "redemption")
        game.set_mortgaged(space, False)
        game.emit("redeem", player=p.name, space=space.name, amount=cost)

    @classmethod
    def candidates(cls, game: Game, request: Request) -> Iterable[Action | ActionRange]:
        """In the asked player's window: each mortgaged space they own and can pay for."""
        if request.kind in WINDOW_KINDS:
            p = request.player
            mortgaged = game.mortgaged
            for space in p.spaces:
                # only a mortgaged one is redeemed, by one who has the cost (R20)
                if mortgaged[space.index] and p.cash >= redeem_cost(game, space):
                    yield cls(p, space)


PLUGIN_ID = "mortgage"
RULES = ("R19", "R20")
ACTIONS = (Mortgage, Redeem)
OPTIONS = {
    "rent": {
        "enum": ["one_house", "none"], "default": "one_house",
        "description": "What a mortgaged space collects: one_house, the rent for one house "
                       "(streets) or the printed rent (commercial buildings), as the reference "
                       "card's 'still collect reduced rent' (standard); none, nothing (1936).",
    },
    "interest_percent": {
        "type": "integer", "minimum": 0, "maximum": 100, "default": 10,
        "description": "The interest added when a mortgage is lifted (R20).",
    },
}
EVENTS = {
    "mortgage": "{player} mortgages {space} for {amount:$}",
    "redeem": "{player} redeems {space} for {amount:$}",
}


def redeem_cost(game: Game, space: Space) -> int:
    percent = game.variant.rules[PLUGIN_ID]["interest_percent"]
    total = space.mortgage * (100 + percent)
    return game.round(total // 100 if total % 100 == 0 else Fraction(total, 100))


@lru_cache(maxsize=16)
def _kinds_on(spaces: tuple[Space, ...]) -> frozenset[str]:
    """The kinds of space a board has (bots ask about utilities often: made once a board)."""
    return frozenset(s.kind for s in spaces)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _why_not_mortgage(game: Game, player: Player, space: Space) -> str | None:
    i = space.index
    if game.owner[i] is not player:
        return f"{player} does not own {space}"
    if not game.kinds[space.kind].mortgageable:
        on_board = _kinds_on(game.spaces)
        can = [kind.called(k) for k, kind in game.kinds.items()
               if kind.mortgageable and k in on_board]
        return f"{space} is a {space.kind}: only {_and(can)} can be mortgaged"
    if game.mortgaged[i]:
        return f"{space} is already mortgaged"
    return None


@hookimpl
def em_refusals(game: Game, action: GoBankrupt) -> list[Refusal] | None:
    """R26: bankruptcy is the last resort, not while a space can still be mortgaged."""
    if type(action) is not GoBankrupt:
        return None
    p = action.player
    for space in game.owned_by(p):
        if _why_not_mortgage(game, p, space) is None:
            return [Refusal("R26", PLUGIN_ID, f"{p} can still mortgage {space}")]
    return None
