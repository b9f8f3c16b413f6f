"""Playing games and summing them exactly: what a worker process (or a Dask task) runs.

A chunk is games [start, stop) of a batch, each played on every arm with the same seed. It
comes back as exact sums (integers and fractions) per arm and per contrast, so that chunks
merged in any order, on any number of processes or machines, give the same figures.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..bots import BotDecider
from ..strategies import make_strategy
from ..engine.events import Event
from ..engine.game import Game, ruleset_for
from ..engine.settings import Settings
from ..engine.model import Variant
from ..errors import EasyMoneyError, UsageError
from ..search import play_stepping
from ..script.record import Recorder, header_lines, record_text
from ..seats import close_strategies, is_program
from ..outputs import write_atomically
from ..timelimit import GameTimeout, stalled, time_limit
from .arms import Arm, Batch, game_seed
from .sums import ArmStats as ArmStats, GameRow as GameRow  # re-exported

END_REASONS = ("bankruptcy", "bank", "turns")
END_LABELS = {"bankruptcy": "bankruptcy", "bank": "bank broken", "turns": "turn limit"}

# the events the statistics read: the others are not even built during a simulation
STAT_EVENTS = ("move", "rent", "buy", "auction_won", "build", "seat_failed")

Contrast = tuple[tuple[int, int], ...]  # (baseline arm, arm) pairs whose differences are averaged


class SimulationError(EasyMoneyError):
    """A game that failed inside a worker: which game, seed and arm, and what went wrong."""

    def __reduce__(self) -> tuple[Any, ...]:  # crosses process boundaries whole
        return (SimulationError, (self.message,))


def metric_names(batch: Batch, extra: Sequence[str] = ()) -> list[str]:
    """The per-game figures that compare and sweep pair between arms, in order (then
    analyze's `extra` ones, a GameRow's `extra`)."""
    return (["turns", "bank"] + [f"ended:{r}" for r in END_REASONS]
            + [f"seat:{n}" for n in batch.names] + [f"strategy:{s}" for s in batch.strategy_order]
            + list(extra))


def metric_values(row: GameRow, batch: Batch) -> list[int | Fraction]:
    shares = [Fraction(0)] * batch.players
    for seat in row.winners:
        shares[seat] = Fraction(1, len(row.winners))
    seats = batch.seats
    by_strategy = [sum((shares[i] for i in range(batch.players) if seats[i] == s), Fraction(0))
                   for s in batch.strategy_order]
    return [row.turns, row.bank, *(int(row.end == r) for r in END_REASONS), *shares, *by_strategy,
            *row.extra]


class PairStats:
    """Sums of the per-game differences of one contrast (an arm minus its baseline) over the seeds."""

    def __init__(self, metrics: int) -> None:
        self.n = 0
        self.sum: list[int | Fraction] = [0] * metrics
        self.sq: list[int | Fraction] = [0] * metrics
        self.fractional = [False] * metrics  # a difference other than -1, 0, 1 was seen

    def add_diffs(self, diffs: Sequence[int | Fraction]) -> None:
        self.n += 1
        for k, d in enumerate(diffs):
            if d:
                self.sum[k] += d
                self.sq[k] += d * d
                if d != 1 and d != -1:
                    self.fractional[k] = True

    def add(self, base: Sequence[int | Fraction], other: Sequence[int | Fraction]) -> None:
        self.add_diffs([b - a for a, b in zip(base, other)])

    def merge(self, other: PairStats) -> None:
        self.n += other.n
        self.sum = [a + b for a, b in zip(self.sum, other.sum)]
        self.sq = [a + b for a, b in zip(self.sq, other.sq)]
        self.fractional = [a or b for a, b in zip(self.fractional, other.fractional)]


@dataclass
class Chunk:
    """What a worker sends back for games [start, stop): sums per arm and contrast, rows if asked."""

    start: int
    stop: int
    stats: list[ArmStats]
    pairs: list[PairStats]
    rows: list[GameRow] | None


def empty_stats(batch: Batch, variant: Variant, profile: Sequence[str] = ()) -> ArmStats:
    if profile:  # analyze's sums: imported only then
        from .profile import ProfileStats
        return ProfileStats(batch.players, len(variant.spaces))
    return ArmStats(batch.players, len(variant.spaces))


def against_first(arms: int) -> tuple[Contrast, ...]:
    """The contrasts of `compare`: every arm after the first against the first."""
    return tuple(((0, j),) for j in range(1, arms))


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play chunks: picklable, and sent once per worker."""

    arms: tuple[Arm, ...]
    batch: Batch
    variants: tuple[Variant, ...]
    contrasts: tuple[Contrast, ...]
    rows: bool = False
    record_dir: str | None = None
    # --check-invariants, --dispatch: a worker on another machine must know them too
    settings: Settings = Settings()
    game_timeout: float | None = None  # seconds a game may take (--game-timeout), None: any
    # analyze: the per-game figures of a profile (profile.PROFILE_METRICS), summed in
    # ProfileStats and paired between arms; () for simulate, compare and sweep
    profile: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.arms, self.batch, self.contrasts, self.rows, self.record_dir, self.settings,
                self.game_timeout, self.profile)


class Simulator:
    """Plays chunks of a plan; each process builds one, with the rule sets made once.

    `Simulator(plan)`, or `Simulator(arms, batch)` for every arm against the first.
    """

    def __init__(self, plan: Plan | Sequence[Arm], batch: Batch | None = None) -> None:
        if not isinstance(plan, Plan):
            if batch is None:
                raise TypeError("Simulator(arms, batch): the batch is missing")
            arms = tuple(plan)
            plan = Plan(arms, batch, tuple(a.load() for a in arms), against_first(len(arms)))
        self.plan = plan
        self.arms = plan.arms
        self.batch = plan.batch
        self.variants = list(plan.variants)
        self.rulesets = [ruleset_for(v, settings=plan.settings) for v in self.variants]
        self.caps = [plan.batch.cap(v) for v in self.variants]
        self.space_index = [{s.name: s.index for s in v.spaces} for v in self.variants]
        self.width = max(5, len(str(plan.batch.games)))
        self.programs = any(is_program(s) for s in plan.batch.strategy_order)
        used = {a for contrast in plan.contrasts for pair in contrast for a in pair}
        self.metric_arms = frozenset(used)

    def new_stats(self, arm: int) -> ArmStats:
        return empty_stats(self.batch, self.variants[arm], self.plan.profile)

    def record_folder(self, arm: int) -> str:
        assert self.plan.record_dir is not None
        if len(self.arms) == 1:
            return self.plan.record_dir
        return os.path.join(self.plan.record_dir, arm_folder(arm))

    def record_path(self, arm: int, index: int) -> str:
        return os.path.join(self.record_folder(arm), f"game-{index + 1:0{self.width}d}.game")

    def play(self, arm: int, index: int, listener: Callable[[Event], None],
             stats: ArmStats | None = None) -> GameRow:
        """Play game `index` (0-based) of the batch on arm `arm` (`stats` may follow more of
        it: ArmStats.watch)."""
        batch = self.batch
        seed = game_seed(batch.seed, index)
        names, seats = batch.names, batch.seats
        strategies = {n: make_strategy(s) for n, s in zip(names, seats)}
        decider = BotDecider(strategies)
        game = Game(self.variants[arm], list(zip(names, seats)), decider, seed=seed,
                    keep_log=False, ruleset=self.rulesets[arm])
        game.listen(listener, STAT_EVENTS)
        finish = stats.watch(game) if stats is not None else None
        recording = self.plan.record_dir is not None
        stepping = any(getattr(s, "searches", False) for s in strategies.values())
        # the record: a stepping game's history, else what the Recorder around the decider saw
        recorder = Recorder(game) if recording and not stepping else None
        body: list[str] = []
        if stepping:
            try:
                state = play_stepping(game, strategies, self.caps[arm])  # a search copies it mid-turn
            finally:
                close_strategies(strategies.values())
            outcome = game.outcome
            if recording:
                body = state.history
        elif self.programs:
            try:
                game.setup()
                outcome = game.play(max_turns=self.caps[arm])
            finally:  # a program at a seat lives one game
                close_strategies(decider.strategies.values())
        else:
            game.setup()
            outcome = game.play(max_turns=self.caps[arm])
        worth = {p.index: w for p, w, _ in game.standings()}
        winners = outcome.winners if outcome is not None else tuple(p.name for p in game.winners())
        row = GameRow(index + 1, seed, game.turns_played,
                      outcome.reason if outcome is not None else "turns",
                      tuple(sorted(game.by_name[w].index for w in winners)),
                      tuple(worth.get(i, 0) for i in range(batch.players)),
                      game.bank.cash, arm)
        if finish is not None:
            row = finish(row)
        if recording:
            path = self.record_path(arm, index)
            if recorder is not None:
                body = recorder.body()
            write_atomically(path, record_text(self._header(arm, seed), body, game, path))
        return row

    def _header(self, arm_index: int, seed: int) -> list[str]:
        arm = self.arms[arm_index]
        ref = arm.variant
        if arm.is_path:
            ref = os.path.relpath(os.path.abspath(ref), os.path.abspath(self.record_folder(arm_index)))
        return header_lines(ref, is_path=arm.is_path, enable=arm.enable, disable=arm.disable,
                            options=arm.options, players=list(self.batch.names), seed=seed)

    def chunk(self, start: int, stop: int) -> Chunk:
        plan, batch = self.plan, self.batch
        stats = [self.new_stats(a) for a in range(len(self.arms))]
        listeners = [s.listener(ix) for s, ix in zip(stats, self.space_index)]
        pairs = [PairStats(len(metric_names(batch, plan.profile))) for _ in plan.contrasts]
        rows: list[GameRow] | None = [] if plan.rows else None
        for index in range(start, stop):
            values: dict[int, list[int | Fraction]] = {}
            for a in range(len(self.arms)):
                row = self._play_reporting(a, index, listeners[a], stats[a])
                stats[a].add(row)
                if rows is not None:
                    rows.append(row)
                if a in self.metric_arms:
                    values[a] = metric_values(row, batch)
            for pair, contrast in zip(pairs, plan.contrasts):
                if len(contrast) == 1:
                    (base, arm), = contrast
                    pair.add(values[base], values[arm])
                else:  # a main effect: the difference averaged over the other settings
                    k = len(contrast)
                    width = len(values[contrast[0][0]])
                    means: list[int | Fraction] = [
                        Fraction(sum((values[a][m] - values[b][m] for b, a in contrast),
                                     Fraction(0))) / k for m in range(width)]
                    pair.add_diffs(means)
        return Chunk(start, stop, stats, pairs, rows)

    def _play_reporting(self, arm: int, index: int, listener: Callable[[Event], None],
                        stats: ArmStats | None = None) -> GameRow:
        game = f"game {index + 1} (seed {game_seed(self.batch.seed, index)}) of {self.arms[arm].name}"
        try:
            with time_limit(self.plan.game_timeout):
                return self.play(arm, index, listener, stats)
        except GameTimeout as exc:
            raise SimulationError(f"{game} {stalled(exc, self.rulesets[arm], self.plan.game_timeout)}") \
                from None
        except UsageError:
            raise
        except Exception as exc:
            what = exc.message if isinstance(exc, EasyMoneyError) else f"{type(exc).__name__}: {exc}"
            raise SimulationError(f"{game} failed: {what}") from exc


def arm_folder(arm: int) -> str:
    """The subfolder of --record-dir for an arm of compare or sweep (1-based, in table order)."""
    return f"arm-{arm + 1}"
