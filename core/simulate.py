"""Playing many bot games and summing them up: the engine of `easymoney simulate` and `compare`.

A batch plays game 0, 1, ..., N-1; game i's seed is `game_seed(master, i)`, so it does not
depend on how the games are shared among worker processes. Workers play chunks of game
indices (every arm of a comparison on the same seeds, one after the other) and send back
exact aggregates (integers and fractions) that the parent merges in game order: the output
is the same whatever the number of workers. Memory stays flat: nothing is kept per game
except the rows a caller streams to a file.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import json
import math
import multiprocessing
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TextIO

from .engine.actions import money
from .bots import BotDecider, available_strategies, make_strategy
from .errors import PluginError, UsageError
from .engine.events import Event
from .engine.game import Game, ruleset_for
from .loading.loader import builtin_names, load_variant
from .engine.model import Variant
from .engine.registry import discover
from .script.record import Recorder, header_lines, record_text, write_atomically
from .words import count, noun

END_REASONS = ("bankruptcy", "bank", "turns")
END_LABELS = {"bankruptcy": "bankruptcy", "bank": "bank broken", "turns": "turn limit"}
Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution
SEAT_PREFIX = "P"


# --- what to play ----------------------------------------------------------------------------

def _looks_like_path(ref: str) -> bool:
    return "/" in ref or os.sep in ref or ref.lower().endswith((".yaml", ".yml"))


@dataclass(frozen=True)
class Arm:
    """One set of rules: a variant (built-in name or YAML path) and the changes made to it."""

    variant: str = "standard"
    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    label: str = ""

    @property
    def name(self) -> str:
        return self.label or self.variant

    @property
    def is_path(self) -> bool:
        return not (self.variant in builtin_names() and not _looks_like_path(self.variant))

    def load(self) -> Variant:
        return load_variant(self.variant, enable=self.enable, disable=self.disable,
                            options=self.options)


@dataclass(frozen=True)
class Batch:
    """What every arm plays: how many games, the seats and their strategies, the seeds, the limit."""

    games: int
    players: int = 4
    strategies: tuple[str, ...] = ("cautious",)
    seed: int = 0
    max_turns: int = 1000
    dispatch: str = "fast"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"{SEAT_PREFIX}{i + 1}" for i in range(self.players))

    @property
    def seats(self) -> tuple[str, ...]:
        """The strategy of each seat: the strategies assigned in turn, cycling."""
        return tuple(self.strategies[i % len(self.strategies)] for i in range(self.players))

    @property
    def strategy_order(self) -> tuple[str, ...]:
        """The distinct strategies at the table, in order of their first seat."""
        return tuple(dict.fromkeys(self.seats))


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` (0-based) of a batch with seed `master`: a hash of both, 32 bits."""
    digest = hashlib.blake2b(f"easymoney-simulate:{master}:{index}".encode(), digest_size=4)
    return int.from_bytes(digest.digest(), "big")


def parse_strategies(text: str) -> tuple[str, ...]:
    """`cautious,greedy` -> ('cautious', 'greedy'), every name checked (UsageError otherwise)."""
    names = tuple(part.strip() for part in text.split(","))
    if not names or any(not n for n in names):
        raise UsageError(f"--strategies {text!r}: expected names separated by commas, like "
                         f"cautious,greedy; known: {', '.join(available_strategies())}")
    for name in names:
        make_strategy(name)
    return names


def check_batch(batch: Batch, variants: Sequence[tuple[Arm, Variant]]) -> None:
    """Raise UsageError when the batch cannot be played on these variants."""
    if batch.games < 1:
        raise UsageError(f"--games {batch.games}: expected at least 1 game")
    if batch.max_turns < 1:
        raise UsageError(f"--max-turns {batch.max_turns}: expected at least 1 turn")
    for arm, variant in variants:
        if not variant.min_players <= batch.players <= variant.max_players:
            raise UsageError(f"--players {batch.players}: {arm.name} is played by "
                             f"{variant.min_players} to {variant.max_players} players")
    for name in batch.strategy_order:
        make_strategy(name)


# --- SPEC: a variant with +RULE, -RULE and @KEY=VALUE suffixes ---------------------------------

_SUFFIX = re.compile(
    r"(?P<sign>[+-])(?P<rule>[A-Za-z_][A-Za-z0-9_]*)"
    r"|@(?P<key>[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)=(?P<value>(?:(?![+@-][A-Za-z_]).)*)")


def parse_spec(spec: str, *, enable: Iterable[str] = (), disable: Iterable[str] = (),
               options: Iterable[str] = ()) -> Arm:
    """`standard-four_sides@doubles.after_card=forward` -> an Arm (UsageError when it does not read).

    The variant is the longest prefix that is a built-in variant name or an existing file,
    since variant names may contain `-` themselves (`no-four-sides`); the rest must read as
    suffixes. `enable`, `disable` and `options` come first (the command line's
    --with, --without, --option); the suffixes follow.
    """
    names = builtin_names()
    for cut in range(len(spec), 0, -1):
        prefix = spec[:cut]
        if (prefix in names and not _looks_like_path(prefix)) or os.path.isfile(prefix):
            rest = spec[cut:]
            break
    else:
        scored = [(difflib.SequenceMatcher(None, spec[:cut], name).ratio(), name)
                  for cut in range(1, len(spec) + 1) for name in names]
        best = max(scored, default=(0.0, ""))
        hint = f" (did you mean {best[1]!r}?)" if best[0] >= 0.6 else ""
        raise UsageError(f"SPEC {spec!r} does not start with a variant: expected a built-in variant "
                         f"({', '.join(names)}) or a YAML file, then any of +RULE, -RULE, "
                         f"@RULE.OPTION=VALUE{hint}")
    on, off, opts = list(enable), list(disable), list(options)
    registry = discover()
    pos = 0
    while pos < len(rest):
        m = _SUFFIX.match(rest, pos)
        if m is None or m.end() == pos:
            before = spec[:len(spec) - len(rest) + pos]
            raise UsageError(f"SPEC {spec!r}: cannot read {rest[pos:]!r} after {before!r}; "
                             f"expected +RULE (switch on), -RULE (switch off) or "
                             f"@RULE.OPTION=VALUE (set an option)")
        if m.group("sign"):
            rule = m.group("rule")
            try:
                registry.resolve(rule)
            except PluginError as exc:
                raise UsageError(f"SPEC {spec!r}: {exc.message}") from None
            (on if m.group("sign") == "+" else off).append(rule)
        else:
            opts.append(f"{m.group('key')}={m.group('value')}")
        pos = m.end()
    return Arm(spec[:len(spec) - len(rest)], tuple(on), tuple(off), tuple(opts), label=spec)


# --- one game, and the sums over many --------------------------------------------------------

@dataclass(frozen=True)
class GameRow:
    """One game as the per-game files show it: seats are 0-based indexes."""

    game: int        # 1-based, as the record files are numbered
    seed: int
    turns: int
    end: str         # bankruptcy, bank or turns
    winners: tuple[int, ...]
    worths: tuple[int, ...]  # final worth of each seat (0 for a bankrupt player)


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
        self.landings = [0] * spaces
        self.rent = [0] * spaces
        self.paid = [0] * spaces  # purchase prices, winning bids and houses built

    def add(self, row: GameRow) -> None:
        self.games += 1
        self.player_turns += row.turns
        self.ended[row.end] += 1
        self.turns[row.turns] += 1
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
        self.shared += other.shared
        self.no_winner += other.no_winner
        for name in ("seat_wins", "worth", "landings", "rent", "paid"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs)])

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
        return on_event


# the events the statistics read: the others are not even built during a simulation
STAT_EVENTS = ("move", "rent", "buy", "auction_won", "build")


def metric_names(batch: Batch) -> list[str]:
    """The per-game figures that `compare` pairs between arms, in order."""
    return (["turns"] + [f"ended:{r}" for r in END_REASONS]
            + [f"seat:{n}" for n in batch.names] + [f"strategy:{s}" for s in batch.strategy_order])


def metric_values(row: GameRow, batch: Batch) -> list[int | Fraction]:
    shares = [Fraction(0)] * batch.players
    for seat in row.winners:
        shares[seat] = Fraction(1, len(row.winners))
    seats = batch.seats
    by_strategy = [sum((shares[i] for i in range(batch.players) if seats[i] == s), Fraction(0))
                   for s in batch.strategy_order]
    return [row.turns, *(int(row.end == r) for r in END_REASONS), *shares, *by_strategy]


class PairStats:
    """Sums of the per-game differences (this arm minus the first) over the common seeds."""

    def __init__(self, metrics: int) -> None:
        self.n = 0
        self.sum: list[int | Fraction] = [0] * metrics
        self.sq: list[int | Fraction] = [0] * metrics
        self.fractional = [False] * metrics  # a difference other than -1, 0, 1 was seen

    def add(self, base: Sequence[int | Fraction], other: Sequence[int | Fraction]) -> None:
        self.n += 1
        for k, (a, b) in enumerate(zip(base, other)):
            d = b - a
            if d:
                self.sum[k] += d
                self.sq[k] += d * d
                if d != 1 and d != -1:
                    self.fractional[k] = True

    def merge(self, other: PairStats) -> None:
        self.n += other.n
        self.sum = [a + b for a, b in zip(self.sum, other.sum)]
        self.sq = [a + b for a, b in zip(self.sq, other.sq)]
        self.fractional = [a or b for a, b in zip(self.fractional, other.fractional)]


@dataclass
class Chunk:
    """What a worker sends back for games [start, stop): sums per arm, pairs, and rows if asked."""

    start: int
    stop: int
    stats: list[ArmStats]
    pairs: list[PairStats]
    rows: list[GameRow] | None


class Simulator:
    """Plays the games of a batch on every arm; each process builds one, variants and rule sets once."""

    def __init__(self, arms: Sequence[Arm], batch: Batch, *, rows: bool = False,
                 record_dir: str | None = None, variants: Sequence[Variant] | None = None) -> None:
        self.arms = tuple(arms)
        self.batch = batch
        self.want_rows = rows
        self.record_dir = record_dir
        self.variants = list(variants) if variants is not None else [a.load() for a in arms]
        self.rulesets = [ruleset_for(v, dispatch=batch.dispatch) for v in self.variants]
        self.space_index = [{s.name: s.index for s in v.spaces} for v in self.variants]
        self.key = (self.arms, batch, rows, record_dir)
        self.width = max(5, len(str(batch.games)))

    def new_stats(self, arm: int) -> ArmStats:
        return ArmStats(self.batch.players, len(self.variants[arm].spaces))

    def record_path(self, index: int) -> str:
        assert self.record_dir is not None
        return os.path.join(self.record_dir, f"game-{index + 1:0{self.width}d}.game")

    def play(self, arm: int, index: int, listener: Callable[[Event], None]) -> GameRow:
        """Play game `index` (0-based) of the batch on arm `arm`."""
        batch = self.batch
        seed = game_seed(batch.seed, index)
        names, seats = batch.names, batch.seats
        decider = BotDecider({n: make_strategy(s) for n, s in zip(names, seats)})
        game = Game(self.variants[arm], list(zip(names, seats)), decider, seed=seed,
                    keep_log=False, ruleset=self.rulesets[arm])
        game.listen(listener, STAT_EVENTS)
        recorder = Recorder(game) if self.record_dir is not None and arm == 0 else None
        game.setup()
        outcome = game.play(max_turns=batch.max_turns)
        worth = {p.index: w for p, w, _ in game.standings()}
        winners = outcome.winners if outcome is not None else tuple(p.name for p in game.winners())
        row = GameRow(index + 1, seed, game.turns_played,
                      outcome.reason if outcome is not None else "turns",
                      tuple(sorted(game.by_name[w].index for w in winners)),
                      tuple(worth.get(i, 0) for i in range(batch.players)))
        if recorder is not None:
            write_atomically(self.record_path(index), record_text(self._header(seed), recorder))
        return row

    def _header(self, seed: int) -> list[str]:
        arm = self.arms[0]
        assert self.record_dir is not None
        ref = arm.variant
        if arm.is_path:
            ref = os.path.relpath(os.path.abspath(ref), os.path.abspath(self.record_dir))
        return header_lines(ref, is_path=arm.is_path, enable=arm.enable, disable=arm.disable,
                            options=arm.options, players=list(self.batch.names), seed=seed)

    def chunk(self, start: int, stop: int) -> Chunk:
        stats = [self.new_stats(a) for a in range(len(self.arms))]
        listeners = [s.listener(ix) for s, ix in zip(stats, self.space_index)]
        pairs = [PairStats(len(metric_names(self.batch))) for _ in self.arms[1:]]
        rows: list[GameRow] | None = [] if self.want_rows else None
        for index in range(start, stop):
            base: list[int | Fraction] = []
            for a in range(len(self.arms)):
                try:
                    row = self.play(a, index, listeners[a])
                except Exception as exc:
                    if isinstance(exc, UsageError):
                        raise
                    raise RuntimeError(f"game {index + 1} (seed {game_seed(self.batch.seed, index)})"
                                       f" of {self.arms[a].name} failed: {type(exc).__name__}: "
                                       f"{exc}") from exc
                stats[a].add(row)
                if a == 0:
                    if rows is not None:
                        rows.append(row)
                    if pairs:
                        base = metric_values(row, self.batch)
                else:
                    pairs[a - 1].add(base, metric_values(row, self.batch))
        return Chunk(start, stop, stats, pairs, rows)


_WORKER: Simulator | None = None


def _init_worker(arms: tuple[Arm, ...], batch: Batch, rows: bool, record_dir: str | None) -> None:
    global _WORKER
    if _WORKER is None or _WORKER.key != (arms, batch, rows, record_dir):  # a forked worker inherits it
        _WORKER = Simulator(arms, batch, rows=rows, record_dir=record_dir)


def _run_chunk(bounds: tuple[int, int]) -> Chunk:
    assert _WORKER is not None
    return _WORKER.chunk(*bounds)


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(50, games // (workers * 8)))  # any size gives the same result
    return [(i, min(i + size, games)) for i in range(0, games, size)]


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


@dataclass
class Result:
    """The merged sums of a batch: one ArmStats per arm, one PairStats per arm after the first."""

    arms: tuple[Arm, ...]
    batch: Batch
    variants: list[Variant]
    stats: list[ArmStats]
    pairs: list[PairStats]


def run(arms: Sequence[Arm], batch: Batch, *, workers: int | None = None,
        on_rows: Callable[[list[GameRow]], None] | None = None, record_dir: str | None = None,
        progress: Callable[[int], None] | None = None) -> Result:
    """Play the batch on every arm (the same seeds on each) and merge the sums in game order.

    `on_rows` receives the first arm's per-game rows chunk by chunk, in game order;
    `progress` the number of games done after each chunk; `record_dir` gets one replayable
    script per game of the first arm.
    """
    arms = tuple(arms)
    variants = [arm.load() for arm in arms]
    check_batch(batch, list(zip(arms, variants)))
    workers = max(1, min(workers or os.cpu_count() or 1, batch.games))
    sim = Simulator(arms, batch, rows=on_rows is not None, record_dir=record_dir,
                    variants=variants)
    stats = [sim.new_stats(a) for a in range(len(arms))]
    pairs = [PairStats(len(metric_names(batch))) for _ in arms[1:]]

    def take(chunk: Chunk) -> None:
        for mine, theirs in zip(stats, chunk.stats):
            mine.merge(theirs)
        for mine_p, theirs_p in zip(pairs, chunk.pairs):
            mine_p.merge(theirs_p)
        if on_rows is not None and chunk.rows is not None:
            on_rows(chunk.rows)
        if progress is not None:
            progress(chunk.stop)

    bounds = _chunks(batch.games, workers)
    if workers == 1:
        for start, stop in bounds:
            take(sim.chunk(start, stop))
    else:
        global _WORKER
        _WORKER = sim
        try:
            with _context().Pool(workers, initializer=_init_worker,
                                 initargs=(arms, batch, on_rows is not None, record_dir)) as pool:
                for chunk in pool.imap(_run_chunk, bounds):
                    take(chunk)
        finally:
            _WORKER = None
    return Result(arms, batch, variants, stats, pairs)


# --- statistics ----------------------------------------------------------------------------------

def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    # the interval always holds p; rounding must not push a bound past it at 0 or 1
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_test_p(t: float, df: int) -> float:
    """Two-sided p-value of Student's t with `df` degrees of freedom."""
    if df <= 0 or math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return _betai(df / 2, 0.5, df / (df + t * t))


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def paired_t(n: int, total: int | Fraction, squares: int | Fraction) -> dict[str, Any]:
    """Paired t-test from the sum and sum of squares of the differences."""
    if n < 2:
        return {"test": "paired t", "mean": float(total) / n if n else 0.0, "p": 1.0}
    mean = Fraction(total) / n
    var = (Fraction(squares) - Fraction(total) ** 2 / n) / (n - 1)
    se = math.sqrt(float(var) / n)
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
        t = 0.0 if mean == 0 else math.copysign(math.inf, mean)
    else:
        t = float(mean) / se
        p = t_test_p(t, n - 1)
    return {"test": "paired t", "mean": float(mean), "t": t, "df": n - 1, "p": p}


EXACT_MCNEMAR_LIMIT = 1000  # discordant games up to which McNemar's test is computed exactly


def mcnemar(n: int, total: int | Fraction, squares: int | Fraction,
            fractional: bool = False) -> dict[str, Any]:
    """McNemar's test over the per-game differences d (this arm's 0/1 outcome minus the first's).

    sum(d) is c - b and sum(d^2) is b + c, b and c the discordant games. Exact (binomial,
    two-sided) up to EXACT_MCNEMAR_LIMIT discordant games, else the normal form
    z = sum(d) / sqrt(sum(d^2)); a shared win makes d fractional, and the normal form is used.
    """
    mean = float(total) / n if n else 0.0
    if not squares:
        return {"test": "McNemar", "mean": mean, "z": 0.0, "p": 1.0}
    z = float(total) / math.sqrt(float(squares))
    if not fractional and squares <= EXACT_MCNEMAR_LIMIT:
        m = int(squares)
        k = (m - abs(int(total))) // 2  # the smaller of b and c
        tail = Fraction(sum(math.comb(m, i) for i in range(k + 1)), 2 ** m)
        return {"test": "McNemar exact", "mean": mean, "z": z, "b_plus_c": m,
                "p": float(min(Fraction(1), 2 * tail))}
    return {"test": "McNemar", "mean": mean, "z": z, "p": normal_p(z)}


def _quantile(hist: Counter[int], rank: int) -> int:
    """The value of the rank-th smallest game (1-based) of a histogram."""
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    raise ValueError("rank beyond the histogram")


def turn_figures(hist: Counter[int]) -> dict[str, Any]:
    n = sum(hist.values())
    if n == 0:
        return {"mean": 0.0, "median": 0.0, "p90": 0, "min": 0, "max": 0}
    total = sum(v * c for v, c in hist.items())
    if n % 2:
        median: float = float(_quantile(hist, (n + 1) // 2))
    else:
        median = (_quantile(hist, n // 2) + _quantile(hist, n // 2 + 1)) / 2
    return {"mean": total / n, "median": median, "p90": _quantile(hist, math.ceil(0.9 * n)),
            "min": min(hist), "max": max(hist)}


def summarize(result: Result, arm: int = 0, *, histogram: bool = True) -> dict[str, Any]:
    """The summary of one arm as JSON-ready data (what `simulate` prints and writes)."""
    s, batch, variant, a = result.stats[arm], result.batch, result.variants[arm], result.arms[arm]
    n = s.games
    reasons = list(END_REASONS) + sorted(r for r in s.ended if r not in END_REASONS)
    seats = []
    for i, (name, strategy) in enumerate(zip(batch.names, batch.seats)):
        wins = float(s.seat_wins[i])
        lo, hi = wilson(wins, n)
        seats.append({"seat": name, "strategy": strategy, "wins": wins,
                      "rate": wins / n if n else 0.0, "ci95": [lo, hi],
                      "mean_worth": s.worth[i] / n if n else 0.0})
    strategies = []
    for strategy in batch.strategy_order:
        idx = [i for i, st in enumerate(batch.seats) if st == strategy]
        wins = float(sum((s.seat_wins[i] for i in idx), Fraction(0)))
        lo, hi = wilson(wins, n)
        strategies.append({"strategy": strategy, "seats": len(idx), "wins": wins,
                           "rate": wins / n if n else 0.0, "parity": len(idx) / batch.players,
                           "ci95": [lo, hi]})
    landings = sum(s.landings)
    spaces = []
    for sp in variant.spaces:
        i = sp.index
        spaces.append({"index": i, "name": sp.name, "kind": sp.kind, "landings": s.landings[i],
                       "landing_share": s.landings[i] / landings if landings else 0.0,
                       "rent": s.rent[i], "paid": s.paid[i],
                       "return": s.rent[i] / s.paid[i] if s.paid[i] else None})
    turns = turn_figures(s.turns)
    if histogram:
        turns["histogram"] = [[t, s.turns[t]] for t in sorted(s.turns)]
    return {
        "arm": a.name, "variant": variant.name,
        "rules": {"with": list(a.enable), "without": list(a.disable), "options": list(a.options)},
        "games": n, "players": batch.players, "seed": batch.seed, "max_turns": batch.max_turns,
        "seats": [{"seat": nm, "strategy": st} for nm, st in zip(batch.names, batch.seats)],
        "player_turns": s.player_turns,
        "ended": {r: {"games": s.ended.get(r, 0), "percent": 100 * s.ended.get(r, 0) / n if n else 0.0}
                  for r in reasons},
        "turns": turns,
        "wins": {"note": "a win shared by k players counts 1/k for each of them; "
                         "intervals are 95% Wilson score intervals",
                 "shared_games": s.shared, "games_without_winner": s.no_winner,
                 "by_seat": seats, "by_strategy": strategies},
        "landings": landings,
        "spaces": spaces,
    }


def compare_summary(result: Result) -> dict[str, Any]:
    """Every arm's summary and, for each arm after the first, the paired tests against it."""
    batch = result.batch
    arms = [summarize(result, i, histogram=False) for i in range(len(result.arms))]
    for a in arms:
        del a["spaces"]
    names = metric_names(batch)
    differences = []
    for j, pair in enumerate(result.pairs, start=1):
        tests = {}
        for k, name in enumerate(names):
            if name == "turns":
                test = paired_t(pair.n, pair.sum[k], pair.sq[k])
            else:
                test = mcnemar(pair.n, pair.sum[k], pair.sq[k], pair.fractional[k])
            test["significant"] = test["p"] < 0.05
            tests[name] = test
        differences.append({"arm": result.arms[j].name, "against": result.arms[0].name,
                            "games": pair.n, "tests": tests})
    return {"games": batch.games, "players": batch.players, "seed": batch.seed,
            "max_turns": batch.max_turns,
            "seats": [{"seat": nm, "strategy": st} for nm, st in zip(batch.names, batch.seats)],
            "arms": arms, "differences": differences}


# --- in words ----------------------------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return f"{x:,.1f}" if x != int(x) else f"{int(x):,}"


def _seats_text(summary: Mapping[str, Any]) -> str:
    return ", ".join(f"{s['seat']} {s['strategy']}" for s in summary["seats"])


def summary_text(summary: Mapping[str, Any], top: int = 10) -> str:
    """The summary of `simulate` as the terminal shows it."""
    n = summary["games"]
    rules = summary["rules"]
    changes = ([f"+{r}" for r in rules["with"]] + [f"-{r}" for r in rules["without"]]
               + [f"@{o}" for o in rules["options"]])
    lines = [f"{count(n, 'game')} of {summary['variant']}{' (' + ' '.join(changes) + ')' if changes else ''}"
             f", {summary['players']} players, seed {summary['seed']}, at most "
             f"{count(summary['max_turns'], 'turn')} a game",
             f"Seats: {_seats_text(summary)}",
             f"Player-turns played: {summary['player_turns']:,}", "", "How the games ended"]
    for reason, e in summary["ended"].items():
        lines.append(f"  {END_LABELS.get(reason, reason):<12} {e['percent']:5.1f}%  "
                     f"{e['games']:>{len(str(n))}} {noun(e['games'], 'game')}")
    t = summary["turns"]
    lines += ["", f"Turns per game: mean {t['mean']:,.1f}, median {_num(t['median'])}, "
                  f"90th percentile {t['p90']:,} (shortest {t['min']:,}, longest {t['max']:,})",
              "", "Wins (95% Wilson intervals; a win shared by k players counts 1/k to each)"]
    w = summary["wins"]
    strat_w = max(8, *(len(s["strategy"]) for s in w["by_strategy"]))
    lines.append(f"  {'seat':<5} {'strategy':<{strat_w}} {'wins':>8} {'rate':>6}  "
                 f"{'95% CI':<15}  {'mean final worth':>16}")
    for s in w["by_seat"]:
        lo, hi = s["ci95"]
        lines.append(f"  {s['seat']:<5} {s['strategy']:<{strat_w}} {_num(s['wins']):>8} "
                     f"{_pct(s['rate']):>6}  {_pct(lo) + '-' + _pct(hi):<15}  "
                     f"{money(round(s['mean_worth'])):>16}")
    lines.append(f"  {'by strategy':<{strat_w + 6}} {'wins':>8} {'share':>6}  {'95% CI':<15}  "
                 f"{'seats':>5} (parity)")
    for s in w["by_strategy"]:
        lo, hi = s["ci95"]
        lines.append(f"  {s['strategy']:<{strat_w + 6}} {_num(s['wins']):>8} {_pct(s['rate']):>6}  "
                     f"{_pct(lo) + '-' + _pct(hi):<15}  {s['seats']:>5} ({_pct(s['parity'])})")
    lines.append(f"  {count(w['shared_games'], 'game')} had a shared win"
                 + (f"; {w['games_without_winner']} had no winner" if w["games_without_winner"] else ""))
    spaces = sorted(summary["spaces"], key=lambda s: (-s["rent"], s["index"]))[:top]
    if spaces:
        width = max(len(s["name"]) for s in spaces)
        lines += ["", f"Spaces: the {len(spaces)} that earned the most rent "
                      f"(all {len(summary['spaces'])} in --json)",
                  f"  {'#':>2}  {'space':<{width}}  {'landings':>8}  {'rent earned':>13}  "
                  f"{'paid by owners':>14}  {'return':>6}"]
        for s in spaces:
            ret = "-" if s["return"] is None else f"{s['return']:.2f}"
            lines.append(f"  {s['index']:>2}  {s['name']:<{width}}  {_pct(s['landing_share']):>8}  "
                         f"{money(s['rent']):>13}  {money(s['paid']):>14}  {ret:>6}")
        lines += ["  landings: share of all landings; return: rent earned / what owners paid",
                  "  (purchase price or winning bid, plus houses built)"]
    return "\n".join(lines) + "\n"


def _compare_rows(summary: Mapping[str, Any]) -> list[tuple[str, str, list[float], str | None, float]]:
    """(label, metric name, value per arm, format, scale) for each compared figure."""
    arms = summary["arms"]
    rows: list[tuple[str, str, list[float], str | None, float]] = [
        ("mean turns", "turns", [a["turns"]["mean"] for a in arms], "num", 1),
        ("median turns", "", [a["turns"]["median"] for a in arms], "num", 1),
        ("90th percentile turns", "", [a["turns"]["p90"] for a in arms], "num", 1)]
    for r in END_REASONS:
        rows.append((f"% ended by {END_LABELS[r]}", f"ended:{r}",
                     [a["ended"].get(r, {"percent": 0.0})["percent"] for a in arms], "pct", 100))
    for i, seat in enumerate(summary["seats"]):
        rows.append((f"% won by {seat['seat']} ({seat['strategy']})", f"seat:{seat['seat']}",
                     [100 * a["wins"]["by_seat"][i]["rate"] for a in arms], "pct", 100))
    strategies = arms[0]["wins"]["by_strategy"]
    if len(strategies) > 1:
        for i, st in enumerate(strategies):
            rows.append((f"% won by {st['strategy']}", f"strategy:{st['strategy']}",
                         [100 * a["wins"]["by_strategy"][i]["rate"] for a in arms], "pct", 100))
    return rows


def _p_text(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def compare_text(summary: Mapping[str, Any]) -> str:
    """The side-by-side table of `compare`."""
    arms = summary["arms"]
    diffs = summary["differences"]
    first = arms[0]["arm"]
    header = ["figure"] + [arms[0]["arm"]]
    for a in arms[1:]:
        header += [a["arm"], "diff", "p"]
    table = [header]
    for label, metric, values, fmt, _ in _compare_rows(summary):
        cells = [label, f"{values[0]:.1f}"]
        for j, value in enumerate(values[1:]):
            cells.append(f"{value:.1f}")
            if metric:
                test = diffs[j]["tests"][metric]
                mean = test["mean"] * (100 if fmt == "pct" and metric != "turns" else 1)
                cells += [f"{mean:+.1f}", _p_text(test["p"]) + (" *" if test["significant"] else "")]
            else:
                cells += [f"{value - values[0]:+.1f}", ""]
        table.append(cells)
    widths = [max(len(row[c]) for row in table) for c in range(len(header))]
    lines = [f"{count(summary['games'], 'game')} on each of {len(arms)} arms, the same seeds on each "
             f"(seed {summary['seed']}), {summary['players']} players, at most "
             f"{count(summary['max_turns'], 'turn')} a game",
             f"Seats: {_seats_text(summary)}", ""]
    for row in table:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    lines += ["",
              f"diff: the arm minus {first} (percentage points for the %); p: two-sided, over the "
              f"common seeds:",
              "paired t-test for mean turns, McNemar's test for the %; * significant at 95% "
              "(p < 0.05).",
              "A win shared by k players counts 1/k to each."]
    return "\n".join(lines) + "\n"


# --- files ----------------------------------------------------------------------------------------

def check_output(path: str, what: str) -> None:
    """UsageError now, before any game is played, when `path` cannot be written later."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{what} {path}: the folder {folder} does not exist")
    if os.path.isdir(path):
        raise UsageError(f"{what} {path}: is a folder; expected a file name")


class StreamedFile:
    """A file written as the games come in, under a temporary name, renamed when complete."""

    def __init__(self, path: str) -> None:
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        try:
            fd, self.tmp = tempfile.mkstemp(dir=folder, prefix=".easymoney-", suffix=".tmp")
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror}") from None
        os.chmod(self.tmp, 0o666 & ~_umask())  # mkstemp makes it 0600; give it a plain file's mode
        self.file: TextIO = os.fdopen(fd, "w", encoding="utf-8", newline="")

    def commit(self) -> None:
        self.file.close()
        try:
            os.replace(self.tmp, self.path)
        except OSError as exc:
            self.abort()
            raise UsageError(f"cannot write {self.path}: {exc.strerror}") from None

    def abort(self) -> None:
        if not self.file.closed:
            self.file.close()
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def row_json(row: GameRow, batch: Batch) -> dict[str, Any]:
    names = batch.names
    return {"game": row.game, "seed": row.seed, "turns": row.turns, "end": row.end,
            "winners": [names[i] for i in row.winners],
            "seats": [{"seat": names[i], "strategy": batch.seats[i], "worth": row.worths[i]}
                      for i in range(batch.players)]}


def csv_header(batch: Batch) -> list[str]:
    cols = ["game", "seed", "turns", "end", "winners"]
    for name in batch.names:
        cols += [f"{name}_strategy", f"{name}_worth"]
    return cols


def row_csv(row: GameRow, batch: Batch) -> list[Any]:
    cells: list[Any] = [row.game, row.seed, row.turns, row.end,
                        " ".join(batch.names[i] for i in row.winners)]
    for i in range(batch.players):
        cells += [batch.seats[i], row.worths[i]]
    return cells


class RowFiles:
    """The --json and --csv files: rows streamed as they come, the summary at the end."""

    def __init__(self, batch: Batch, json_path: str | None, csv_path: str | None) -> None:
        self.batch = batch
        self.json: StreamedFile | None = None
        self.csv: StreamedFile | None = None
        self.csv_path = csv_path
        self.count = 0
        try:
            if json_path:
                self.json = StreamedFile(json_path)
                self.json.file.write('{"games": [')
            if csv_path:
                self.csv = StreamedFile(csv_path)
                self.writer = csv.writer(self.csv.file, lineterminator="\n")
                self.writer.writerow(csv_header(batch))
        except BaseException:
            self.abort()
            raise

    @property
    def wanted(self) -> bool:
        return self.json is not None or self.csv is not None

    def add(self, rows: list[GameRow]) -> None:
        for row in rows:
            if self.json is not None:
                self.json.file.write(("\n  " if self.count == 0 else ",\n  ")
                                     + json.dumps(row_json(row, self.batch)))
            if self.csv is not None:
                self.writer.writerow(row_csv(row, self.batch))
            self.count += 1

    def finish(self, summary: Mapping[str, Any]) -> None:
        if self.json is not None:
            self.json.file.write("\n],\n\"summary\": " + json.dumps(summary, indent=2) + "}\n")
            self.json.commit()
        if self.csv is not None:
            self.csv.commit()
            assert self.csv_path is not None
            write_atomically(summary_csv_path(self.csv_path), summary_csv(summary))

    def abort(self) -> None:
        for f in (self.json, self.csv):
            if f is not None:
                f.abort()


def summary_csv_path(csv_path: str) -> str:
    """`out/games.csv` -> `out/games-summary.csv`: where the summary of a --csv run goes."""
    root, ext = os.path.splitext(csv_path)
    return f"{root}-summary{ext or '.csv'}"


def _flatten(value: Any, key: str, out: list[tuple[str, Any]]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, f"{key}.{k}" if key else str(k), out)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for v in value:
            id_key = next(k for k in ("seat", "strategy", "index") if k in v)
            _flatten({k: x for k, x in v.items() if k != id_key}, f"{key}.{v[id_key]}", out)
    elif isinstance(value, list):
        out.append((key, " ".join(map(str, value))))
    else:
        out.append((key, "" if value is None else value))


def summary_csv(summary: Mapping[str, Any]) -> str:
    """The summary as a two-column CSV (key, value); keys are dotted paths of the JSON summary."""
    flat: list[tuple[str, Any]] = []
    _flatten({k: v for k, v in summary.items() if k != "turns"} | {
        "turns": {k: v for k, v in summary["turns"].items() if k != "histogram"}}, "", flat)
    lines = ["key,value"]
    for key, value in flat:
        text = str(value)
        if any(ch in text for ch in ',"\n'):
            text = '"' + text.replace('"', '""') + '"'
        lines.append(f"{key},{text}")
    return "\n".join(lines) + "\n"


def prepare_record_dir(path: str) -> str:
    """The --record-dir folder, created when missing (its parent must exist)."""
    if os.path.isdir(path):
        return path
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"--record-dir {path}: the folder {parent} does not exist")
    try:
        os.mkdir(path)
    except OSError as exc:
        raise UsageError(f"--record-dir {path}: {exc.strerror}") from None
    return path


# --- progress --------------------------------------------------------------------------------

class Progress:
    """A progress bar with the time left, on a terminal only (nothing on a pipe or a file)."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        left = elapsed / done * (self.total - done) if done else 0.0
        width = 30
        filled = width * done // self.total
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {done:,}/{self.total:,} games  "
                          f"{_clock(elapsed)} elapsed, about {_clock(left)} left ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.enabled and self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


# --- the plot ----------------------------------------------------------------------------------

def require_matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise UsageError("--plot needs matplotlib, which is not installed: "
                         "pip install 'easymoney-game[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _ring(n: int) -> list[tuple[int, int]] | None:
    """The (column, row) of each space on a square board, space 0 at the bottom right."""
    if n < 8 or n % 4:
        return None
    side = n // 4
    cells = []
    for i in range(n):
        k, j = divmod(i, side)
        cells.append([(side - j, 0), (0, j), (j, side), (side, side - j)][k])
    return cells


def plot_summary(summary: Mapping[str, Any], path: str) -> None:
    """The board's spaces coloured by landing share, rent earned per space, and game lengths."""
    plt = require_matplotlib()
    import matplotlib
    from matplotlib import cm, colors, ticker

    spaces = summary["spaces"]
    n = len(spaces)
    fig = plt.figure(figsize=(16, 9))
    grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.25))
    board = fig.add_subplot(grid[:, 0])
    shares = [s["landing_share"] for s in spaces]
    norm = colors.Normalize(vmin=min(shares), vmax=max(shares) or 1)
    cmap = matplotlib.colormaps["YlOrRd"]
    cells = _ring(n)
    if cells is not None:
        side = n // 4
        for s, (x, y) in zip(spaces, cells):
            board.add_patch(plt.Rectangle((x, y), 1, 1, facecolor=cmap(norm(s["landing_share"])),
                                          edgecolor="grey", linewidth=0.5))
            board.text(x + 0.5, y + 0.62, str(s["index"]), ha="center", va="center", fontsize=7,
                       weight="bold")
            board.text(x + 0.5, y + 0.32, f"{100 * s['landing_share']:.1f}%", ha="center",
                       va="center", fontsize=6)
        board.set_xlim(0, side + 1)
        board.set_ylim(0, side + 1)
        board.text((side + 1) / 2, (side + 1) / 2,
                   f"{summary['arm']}\n{count(summary['games'], 'game')}\n\nshare of landings\nper space",
                   ha="center", va="center", fontsize=11)
        board.set_aspect("equal")
        board.axis("off")
    else:
        board.bar(range(n), [100 * x for x in shares], color=[cmap(norm(x)) for x in shares])
        board.set_xlabel("space")
        board.set_ylabel("% of landings")
    fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=board, shrink=0.6,
                 label="share of landings", format=ticker.FuncFormatter(lambda v, _: f"{100 * v:.1f}%"))
    bars = fig.add_subplot(grid[0, 1])
    bars.bar(range(n), [s["rent"] / max(summary["games"], 1) for s in spaces],
             color=[cmap(norm(x)) for x in shares], edgecolor="grey", linewidth=0.3)
    bars.set_title("Rent earned per space (mean per game)")
    bars.set_xlabel("space")
    bars.set_ylabel("$ per game")
    bars.set_xlim(-0.5, n - 0.5)
    lengths = fig.add_subplot(grid[1, 1])
    hist = summary["turns"].get("histogram", [])
    if hist:
        values = [t for t, _ in hist]
        weights = [c for _, c in hist]
        lengths.hist(values, weights=weights, bins=min(40, max(1, len(values))),
                     color="steelblue", edgecolor="white")
    t = summary["turns"]
    lengths.axvline(t["mean"], color="black", linestyle="--", label=f"mean {t['mean']:.0f}")
    lengths.axvline(t["median"], color="darkred", linestyle=":", label=f"median {t['median']:.0f}")
    lengths.set_title("Game length")
    lengths.set_xlabel("player-turns per game")
    lengths.set_ylabel("games")
    lengths.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110, format="png")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def iter_strategies() -> Iterator[tuple[str, str, str]]:
    """(name, origin, one-line description) of every strategy installed."""
    for name, (factory, origin) in available_strategies().items():
        doc = (factory.__doc__ if isinstance(factory, type) else type(factory).__doc__) or ""
        line = doc.strip().splitlines()[0] if doc.strip() else ""
        if origin != "built-in":
            module = getattr(factory, "__module__", "") or ""
            origin = f"entry point ({module})" if module else "entry point"
        yield name, origin, line
