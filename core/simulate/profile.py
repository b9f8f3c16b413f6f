"""A variant's profile (`easymoney analyze`): the shape of its games, from bot games.

A worker follows each game a little more closely than `simulate` does (ProfileStats.watch):
every seat's worth (R28) after each player-turn, the payments by kind, the events of each
rule. What it keeps are exact sums (integers and fractions) merged in game order, as
simulate's, so the profile is the same whatever the workers.

The per-game figures (PROFILE_METRICS, defined in docs/simulation.md, "A variant's profile"):

- lead changes: the sole leader (the one seat of strictly largest worth) after a player-turn
  differs from the last sole leader; a tie for the lead changes nothing;
- decided at: the first player-turn from which the eventual (sole) winner's worth is never
  below another seat's again (a shared win: the last turn), and that turn as a share of the
  game's length;
- comeback: the sole winner was strictly last (worth below every other seat's) after some
  player-turn past the first quarter of the game;
- margin: the winner's final worth minus the best other seat's (0 for a shared win), and
  that margin as a share of the winner's worth;
- flow:KIND: the dollars paid in payments of that kind (ledger.PAYMENT_KINDS) in the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..engine.events import Event
from ..engine.ledger import PAYMENT_KINDS
from .games import ArmStats, GameRow

if TYPE_CHECKING:
    from ..engine.game import Game

# the money of play: a player's starting cash ("setup") is not a flow of the game
FLOW_KINDS = tuple(k for k in PAYMENT_KINDS if k != "setup")
PROFILE_METRICS = ("lead_changes", "decided_turn", "decided_share", "comeback", "margin",
                   "margin_share", *(f"flow:{k}" for k in FLOW_KINDS))
COMEBACK_AFTER = Fraction(1, 4)  # a comeback counts from this share of the game's length on
DECILES = 10


def rule_events(game: Game) -> dict[str, str]:
    """Event kind -> the rule in play that declares it (its EVENTS)."""
    plugins = game.ruleset.registry.plugins
    owner: dict[str, str] = {}
    for pid in game.ruleset.enabled:
        info = plugins.get(pid)
        if info is not None:
            for kind in info.events:
                owner.setdefault(kind, pid)
    return owner


def game_figures(turns: list[int], marks: list[tuple[int, ...]], winners: Sequence[int],
                 length: int) -> tuple[int, int, int, int]:
    """(lead changes, decided at, comeback 0/1, margin) of a game from each seat's worth
    after each player-turn (`marks`, at `turns`), the last being the end."""
    changes = 0
    leader: int | None = None
    for w in marks:
        top = max(w)
        if w.count(top) == 1:
            sole = w.index(top)
            if leader is not None and sole != leader:
                changes += 1
            leader = sole
    if len(winners) != 1:
        return changes, length, 0, 0
    s = winners[0]
    decided = length
    for turn, w in zip(reversed(turns), reversed(marks)):
        if w[s] < max(w):
            break
        decided = turn
    others = [i for i in range(len(marks[-1])) if i != s]
    comeback = int(any(COMEBACK_AFTER * length < turn and w[s] < min(w[i] for i in others)
                       for turn, w in zip(turns, marks))) if others else 0
    final = marks[-1]
    margin = final[s] - max(final[i] for i in others) if others else 0
    return changes, decided, comeback, margin


class ProfileStats(ArmStats):
    """ArmStats and the sums of a profile: exact, merged in any order to the same result."""

    def __init__(self, players: int, spaces: int) -> None:
        super().__init__(players, spaces)
        self.sums: list[int | Fraction] = [0] * len(PROFILE_METRICS)
        self.squares: list[int | Fraction] = [0] * len(PROFILE_METRICS)
        self.lead_hist: Counter[int] = Counter()      # lead changes -> games
        self.decided_hist: Counter[int] = Counter()   # decile of the game decided at -> games
        self.flows: Counter[str] = Counter()          # kind -> dollars (plugins' own kinds too)
        self.flow_sq: Counter[str] = Counter()        # kind -> sum of each game's dollars squared
        self.payments: Counter[str] = Counter()       # kind -> payments
        self.fired: Counter[str] = Counter()          # rule -> games in which it emitted an event
        self.events: Counter[str] = Counter()         # event kind -> times emitted
        self.in_play: Counter[str] = Counter()        # rule -> games it was in play
        # per space, sums over games of rent^2, paid^2 and rent*paid: the return's interval
        self.space_rr = [0] * spaces
        self.space_pp = [0] * spaces
        self.space_rp = [0] * spaces

    def merge(self, other: ArmStats) -> None:
        super().merge(other)
        assert isinstance(other, ProfileStats)
        self.sums = [a + b for a, b in zip(self.sums, other.sums)]
        self.squares = [a + b for a, b in zip(self.squares, other.squares)]
        for name in ("lead_hist", "decided_hist", "flows", "flow_sq", "payments", "fired",
                     "events", "in_play"):
            getattr(self, name).update(getattr(other, name))
        for name in ("space_rr", "space_pp", "space_rp"):
            setattr(self, name, [a + b for a, b in zip(getattr(self, name), getattr(other, name))])

    def watch(self, game: Game) -> Callable[[GameRow], GameRow]:
        players = game.players
        worth = game.worth
        turns: list[int] = []
        marks: list[tuple[int, ...]] = []
        flows: Counter[str] = Counter()
        owner = rule_events(game)
        fired: set[str] = set()
        events = self.events
        payments = self.payments
        rent0, paid0 = list(self.rent), list(self.paid)

        def on_turn(event: Event) -> None:
            if game.turns_played:  # each seat's worth after the player-turns played so far
                turns.append(game.turns_played)
                marks.append(tuple(0 if p.bankrupt else worth(p) for p in players))

        def on_pay(event: Event) -> None:
            data = event.data
            kind = data.get("payment", "other")
            flows[kind] += data["amount"]
            payments[kind] += 1

        def on_rule(event: Event) -> None:
            events[event.kind] += 1
            fired.add(owner[event.kind])

        game.listen(on_turn, ("turn",))
        game.listen(on_pay, ("pay",))
        game.listen(on_rule, tuple(owner))

        def finish(row: GameRow) -> GameRow:
            if turns and turns[-1] == row.turns:  # the end is the last mark
                turns.pop()
                marks.pop()
            turns.append(row.turns)
            marks.append(row.worths)
            winners = row.winners
            changes, decided, comeback, margin = game_figures(turns, marks, winners, row.turns)
            top = row.worths[winners[0]] if len(winners) == 1 else 0
            share = Fraction(decided, row.turns) if row.turns else Fraction(1)
            values: list[int | Fraction] = [
                changes, decided, share, comeback, margin,
                Fraction(margin, top) if top > 0 else Fraction(0),
                *(flows.get(k, 0) for k in FLOW_KINDS)]
            for k, v in enumerate(values):
                if v:
                    self.sums[k] += v
                    self.squares[k] += v * v
            self.lead_hist[changes] += 1
            self.decided_hist[min(DECILES - 1, int(share * DECILES))] += 1
            for kind, amount in flows.items():
                if kind != "setup":
                    self.flows[kind] += amount
                    self.flow_sq[kind] += amount * amount
            payments.pop("setup", None)
            self.fired.update(fired)
            self.in_play.update(game.ruleset.enabled)
            rent, paid = self.rent, self.paid
            for i, (r0, p0) in enumerate(zip(rent0, paid0)):
                r, p = rent[i] - r0, paid[i] - p0
                if r or p:
                    self.space_rr[i] += r * r
                    self.space_pp[i] += p * p
                    self.space_rp[i] += r * p
            return GameRow(row.game, row.seed, row.turns, row.end, row.winners, row.worths,
                           row.bank, row.arm, tuple(values))
        return finish
