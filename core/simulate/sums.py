"""The exact sums of one arm's games, and the row of one game: what a chunk of games adds
up (easymoney.simulate.games) and what a profile extends (easymoney.simulate.profile)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.events import Event
    from ..engine.game import Game


@dataclass(frozen=True)
class GameRow:
    """One game as the per-game files show it: seats are 0-based indexes."""

    game: int        # 1-based, as the record files are numbered
    seed: int
    turns: int
    end: str         # bankruptcy, bank or turns
    winners: tuple[int, ...]
    worths: tuple[int, ...]  # final worth of each seat (0 for a bankrupt player)
    bank: int = 0    # the Bank's cash at the end
    arm: int = 0     # which arm played it
    # the per-game figures `analyze` pairs between arms (Plan.profile names them), else ()
    extra: tuple[int | Fraction, ...] = ()


class ArmStats:
    """Exact sums over the games of one arm: merged in any order, they give the same result."""

    def __init__(self, players: int, spaces: int) -> None:
        self.games = 0
        self.player_turns = 0
        self.ended: Counter[str] = Counter()
        self.turns: Counter[int] = Counter()   # game length -> games
        self.seat_wins = [Fraction(0)] * players
        self.shared = 0      # games whose win was shared
        self.no_winner = 0
        self.worth = [0] * players
        self.bank = 0        # the Bank's cash at the end, summed
        self.bank_sq = 0     # ... and its squares, for the interval of the mean
        self.landings = [0] * spaces
        self.rent = [0] * spaces
        self.paid = [0] * spaces  # purchase prices, winning bids and houses built
        # "P1 timeout" -> games where the program at seat P1 timed out (core/seats.py)
        self.seat_failures: Counter[str] = Counter()

    def add(self, row: GameRow) -> None:
        self.games += 1
        self.player_turns += row.turns
        self.ended[row.end] += 1
        self.turns[row.turns] += 1
        self.bank += row.bank
        self.bank_sq += row.bank * row.bank
        if not row.winners:
            self.no_winner += 1
        elif len(row.winners) > 1:
            self.shared += 1
        for seat in row.winners:
            self.seat_wins[seat] += Fraction(1, len(row.winners))
        for seat, worth in enumerate(row.worths):
            self.worth[seat] += worth

    def merge(self, other: ArmStats) -> None:
        self.games += other.games
        self.player_turns += other.player_turns
        self.ended.update(other.ended)
        self.turns.update(other.turns)
        self.seat_failures.update(other.seat_failures)
        self.shared += other.shared
        self.no_winner += other.no_winner
        self.bank += other.bank
        self.bank_sq += other.bank_sq
        for name in ("seat_wins", "worth", "landings", "rent", "paid"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs)])

    def watch(self, game: Game) -> Callable[[GameRow], GameRow] | None:
        """What else to follow in `game` (ProfileStats in profile.py follows more): the
        function that completes its row once it is played, or None."""
        return None

    def listener(self, index: Mapping[str, int]) -> Callable[[Event], None]:
        """The event listener that adds a game's landings, rents and investments to these sums."""
        landings, rent, paid = self.landings, self.rent, self.paid

        def on_event(event: Event) -> None:
            kind = event.kind
            if kind == "move":
                landings[event.data["end"]] += 1
            elif kind == "rent":
                rent[index[event.data["space"]]] += event.data["amount"]
            elif kind == "buy":
                paid[index[event.data["space"]]] += event.data["price"]
            elif kind == "auction_won":
                paid[index[event.data["space"]]] += event.data["amount"]
            elif kind == "build":
                paid[index[event.data["space"]]] += event.data["cost"]
            elif kind == "seat_failed":
                self.seat_failures[f"{event.data['player']} {event.data['problem']}"] += 1
        return on_event
