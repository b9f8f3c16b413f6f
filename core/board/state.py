"""A game's state as the board shows it: owners, houses, mortgages, MEN, cash, pot, card holder."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..engine.model import Variant
from ..view import state_view


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    cash: int
    position: int
    bankrupt: bool
    worth: int | None  # None: bankrupt
    shown: tuple[str, ...] = ()  # the plugins' facts of their state, in words (SHOWN)


@dataclass(frozen=True, slots=True)  # slots: a page keeps one a step of a script
class BoardState:
    """What a drawing of a game shows. `owner[i]` is an index into `players` (None: the Bank)."""

    variant: Variant
    players: tuple[Seat, ...] = ()
    owner: tuple[int | None, ...] = ()
    houses: tuple[int, ...] = ()
    mortgaged: tuple[bool, ...] = ()
    pots: dict[str, int] = field(default_factory=dict)  # by title: `Hospital pot`
    kept: tuple[tuple[str, str | None], ...] = ()  # (card, holder) of the cards drawers keep
    deck: int = 0
    turn: int = 0
    over: str | None = None  # how the game ended, if it did
    under_way: bool = False  # `turn` is the turn under way, not the last one played

    @classmethod
    def empty(cls, variant: Variant) -> BoardState:
        """The board alone: no game on it."""
        n = len(variant.spaces)
        return cls(variant, owner=(None,) * n, houses=(0,) * n, mortgaged=(False,) * n)

    @classmethod
    def of(cls, game: Any, turn: int, under_way: bool = False) -> BoardState:
        """The state of `game` now, `turn` being the number of the last turn played (or, with
        `under_way`, of the turn under way: the prompt shows the board in the middle of one)."""
        state = state_view(game)  # the engine's one outward view, by index for a drawing
        players = state["players"]
        seats = tuple(Seat(p["name"], p["cash"], p["position"], p["bankrupt"], p["worth"],
                           tuple(fact["words"] for fact in p["shown"]))
                      for p in players)
        n = len(game.spaces)
        owner: list[int | None] = [None] * n
        houses = [0] * n
        mortgaged = [False] * n
        for k, p in enumerate(players):
            for number in p["spaces"]:
                owner[number] = k
        for key, count in state["houses"].items():
            houses[int(key)] = count
        for number in state["mortgaged"]:
            mortgaged[number] = True
        titles = state["pot_titles"]
        o = state["outcome"]
        return cls(game.variant, seats, tuple(owner), tuple(houses), tuple(mortgaged),
                   {titles[name]: cash for name, cash in state["pots"].items()},
                   tuple(state["kept_cards"].items()), state["deck"], turn,
                   f"{o['reason']}: {o['detail']}" if o else None, under_way)

    @property
    def when(self) -> str:
        """When in the game the state is, in words: `after turn 3`, `in turn 4`."""
        if self.over:
            return f"game over by {self.over}"
        if self.turn == 0:
            return "before the first turn"
        return f"{'in' if self.under_way else 'after'} turn {self.turn}"

    def sharing(self, previous: BoardState | None) -> BoardState:
        """This state, each part equal to `previous`'s being that same object: the boards of
        a game's events, kept one after another, then hold only what each event changed."""
        if previous is None:
            return self
        same = {}
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(previous, f.name)
            if mine is not theirs and mine == theirs:
                same[f.name] = theirs
        return replace(self, **same) if same else self

    @property
    def is_game(self) -> bool:
        return bool(self.players)

    def men_at(self, index: int) -> list[int]:
        """The players (by index) whose MAN stands on space `index`."""
        return [k for k, p in enumerate(self.players) if p.position == index and not p.bankrupt]
