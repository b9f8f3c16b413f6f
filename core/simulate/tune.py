"""A search over a variant's options toward targets on its profile (`easymoney tune`).

The search space (--vary): rule switches (`four_sides=on,off`), options with choices
(`doubles.after_card=backward,forward`) and option ranges (`mortgage.interest_percent=0..30`),
each checked against the option's own JSON Schema (minimum, maximum, enum) before any game.
The targets (--target): a figure of the profile, `<=`, `>=` or `in`, a value or a range.

Every candidate plays batches of games on the same seeds (batch k's seeds are the same for
all candidates: common random numbers), and after each batch its figures and their 95%
intervals are known (analyze's: the order statistics' for a median, Wilson's for a share,
Student's t for a mean). Racing: a candidate whose interval already lies outside a target is
pruned at once; one whose figures all meet the targets gets batches up to the most; any
other stops after the fewest, unless it does at least as well as the best candidate played
out so far (racing against the incumbent): then it too gets more games, and stops as soon
as it falls behind.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.registry import discover
from ..errors import PluginError, UsageError
from .arms import Arm, Batch, echo
from .sums import ArmStats
from .profile import PROFILE_METRICS, ProfileStats
from .profile_report import median_interval
from .stats import mean_interval, wilson
from .sweep import SWITCH_VALUES, _KEY

MAX_VARY = 32
MAX_CHOICES = 64


# --- the search space ---------------------------------------------------------------------

@dataclass(frozen=True)
class Domain:
    """One --vary: a rule switched (`kind` switch), an option's choices or a numeric range."""

    key: str                      # `four_sides` or `mortgage.interest_percent`
    kind: str                     # "switch", "choice", "int" or "float"
    choices: tuple[str, ...] = ()  # switch: ("on", "off"); choice: the values as typed
    low: float = 0
    high: float = 0
    step: int | None = None       # int: the grid (x-money options: the smallest bill)

    @property
    def rule(self) -> str:
        return self.key.split(".")[0]

    def text(self, value: Any) -> str:
        """A sampled value as an option's text on the command line."""
        if self.kind == "float":
            return repr(float(value))
        return str(value)


def _strip_prefix(key: str) -> str:
    # the spelling `rules.auction` and `options.four_sides.x`, and sweep's `auction`
    for prefix in ("rules.", "options."):
        if key.startswith(prefix) and key.count(".") >= 1:
            return key[len(prefix):]
    return key


_RANGE = re.compile(r"^\s*(?P<lo>[-+]?[0-9.eE+-]+)\s*\.\.\s*(?P<hi>[-+]?[0-9.eE+-]+)"
                    r"(?:\s*:\s*(?P<step>[0-9]+))?\s*$")


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_domain(text: str, smallest_bill: int) -> Domain:
    """`mortgage.interest_percent=0..30`, `doubles.after_card=backward,forward` or
    `four_sides=on,off` -> a Domain, checked against the option's schema (UsageError
    naming --vary otherwise)."""
    from ..loading.overrides import parse_option
    key, eq, rest = text.partition("=")
    key = _strip_prefix(key.strip())
    if not eq or not _KEY.match(key) or not rest.strip():
        raise UsageError(f"--vary {echo(text)}: expected RULE=on,off, RULE.OPTION=V1,V2,... or "
                         f"RULE.OPTION=LOW..HIGH, e.g. --vary four_sides=on,off or --vary "
                         f"mortgage.interest_percent=0..30")
    registry = discover()
    rule, dot, option = key.partition(".")
    try:
        pid = registry.resolve(rule)
    except PluginError as exc:
        raise UsageError(f"--vary {key}: {exc.message}") from None
    info = registry.plugins[pid]
    if not dot:
        switches = [v.strip().lower() for v in rest.split(",")]
        wrong = [v for v in switches if v not in SWITCH_VALUES]
        if wrong or len({SWITCH_VALUES[v] for v in switches}) != 2 or len(switches) != 2:
            raise UsageError(f"--vary {key}={rest}: a rule is switched with on,off (to vary "
                             f"an option: --vary {key}.OPTION=...)")
        if info.essential:
            raise UsageError(f"--vary {key}: rule {pid!r} is essential and cannot be switched off")
        return Domain(pid, "switch", ("on", "off"))
    key = f"{pid}.{option}"
    if option not in info.options:
        from ..errors import did_you_mean
        known = ", ".join(info.options) or "none"
        raise UsageError(f"--vary {key}: rule {pid!r} has no option {option!r} (its options: "
                         f"{known}){did_you_mean(option, info.options)}")
    schema = info.options[option]
    m = _RANGE.match(rest)
    if m is None:
        values = tuple(v.strip() for v in rest.split(","))
        if any(not v for v in values) or len(values) < 2:
            raise UsageError(f"--vary {key}={rest}: expected two or more values separated by "
                             f"commas, or a range LOW..HIGH")
        if len(values) > MAX_CHOICES or len(set(values)) != len(values):
            raise UsageError(f"--vary {key}: at most {MAX_CHOICES} values, each once")
        for v in values:
            try:
                parse_option(f"{key}={v}", registry)
            except UsageError as exc:
                raise UsageError(f"--vary {key}={rest}: {v!r} is outside the option's schema: "
                                 f"{exc.message}") from None
        return Domain(key, "choice", values)
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    lo_text, hi_text, step_text = m.group("lo"), m.group("hi"), m.group("step")
    try:
        lo, hi = _number(lo_text), _number(hi_text)
    except ValueError:
        raise UsageError(f"--vary {key}={rest}: LOW..HIGH must be numbers") from None
    if "integer" not in types and "number" not in types:
        raise UsageError(f"--vary {key}={rest}: the option is not a number (its schema: "
                         f"{_schema_words(schema)}); give its values separated by commas")
    integer = "integer" in types
    if integer and not (isinstance(lo, int) and isinstance(hi, int)):
        raise UsageError(f"--vary {key}={rest}: the option is a whole number; expected "
                         f"LOW..HIGH in whole numbers")
    if not lo < hi:
        raise UsageError(f"--vary {key}={rest}: LOW must be below HIGH")
    for bound in (lo, hi):
        try:
            parse_option(f"{key}={bound}", registry)
        except UsageError as exc:
            raise UsageError(f"--vary {key}={rest}: the range is outside the option's schema "
                             f"({_schema_words(schema)}): {exc.message}") from None
    step = None
    if integer:
        step = int(step_text) if step_text else (smallest_bill if schema.get("x-money") else 1)
        if step < 1 or (hi - lo) % step or (schema.get("x-money") and step % smallest_bill):
            raise UsageError(f"--vary {key}={rest}: the step {step} must divide HIGH - LOW"
                             + (f" and be a multiple of the smallest bill, {smallest_bill}"
                                if schema.get("x-money") else ""))
    elif step_text:
        raise UsageError(f"--vary {key}={rest}: a step is for whole-number options")
    return Domain(key, "int" if integer else "float", (), lo, hi, step)


def _schema_words(schema: Mapping[str, Any]) -> str:
    parts = []
    for word in ("type", "minimum", "maximum", "enum"):
        if word in schema:
            parts.append(f"{word} {schema[word]}")
    return ", ".join(parts) or "any value"


def check_domains(domains: Sequence[Domain]) -> None:
    keys = [d.key for d in domains]
    for k in keys:
        if keys.count(k) > 1:
            raise UsageError(f"--vary {k}: given twice")
    if len(domains) > MAX_VARY:
        raise UsageError(f"--vary: {len(domains)} settings; at most {MAX_VARY}")


def candidate_arm(base: Arm, domains: Sequence[Domain], params: Mapping[str, Any],
                  label: str = "") -> Arm:
    """The base arm with the sampled switches and options (a switched-off rule's options
    are left out: setting one would switch it on again)."""
    on, off, opts = list(base.enable), list(base.disable), list(base.options)
    switched_off = {d.rule for d in domains if d.kind == "switch" and params[d.key] == "off"}
    for d in domains:
        value = params[d.key]
        if d.kind == "switch":
            (on if value == "on" else off).append(d.key)
        elif d.rule not in switched_off:
            opts.append(f"{d.key}={d.text(value)}")
    opts = [o for o in opts if o.split(".")[0] not in switched_off]
    on = [r for r in on if r not in off]
    return Arm(base.variant, tuple(on), tuple(off), tuple(opts), label=label or base.name)


def describe_params(domains: Sequence[Domain], params: Mapping[str, Any]) -> str:
    return " ".join(f"{d.key}={d.text(params[d.key])}" for d in domains)


# --- the figures and the targets ---------------------------------------------------------

Measured = tuple[float, float, float]  # value, 95% interval


@dataclass(frozen=True)
class Figure:
    name: str
    words: str
    profile: bool  # needs analyze's per-game figures (ProfileStats)
    measure: Callable[[ArmStats, Batch, int], Measured]


def _median(s: ArmStats, b: Batch, spt: int) -> Measured:
    from .stats import turn_figures
    lo, hi = median_interval(s.turns)
    return float(turn_figures(s.turns)["median"]), lo, hi


def _minutes(s: ArmStats, b: Batch, spt: int) -> Measured:
    v, lo, hi = _median(s, b, spt)
    return v * spt / 60, lo * spt / 60, hi * spt / 60


def _turns_mean(s: ArmStats, b: Batch, spt: int) -> Measured:
    total = sum(t * c for t, c in s.turns.items())
    squares = sum(t * t * c for t, c in s.turns.items())
    m = mean_interval(s.games, total, squares)
    return m["mean"], m["ci95"][0], m["ci95"][1]


def _seat_advantage(s: ArmStats, b: Batch, spt: int) -> Measured:
    """The largest seat's advantage (win rate minus parity, percentage points); its
    interval from the seats' Wilson intervals: the largest lower and upper bounds."""
    parity = 1 / b.players
    rates, lows, highs = [], [], []
    for wins in s.seat_wins:
        lo, hi = wilson(float(wins), s.games)
        rates.append(float(wins) / s.games if s.games else 0.0)
        lows.append(lo)
        highs.append(hi)
    return (100 * (max(rates) - parity), 100 * (max(lows) - parity),
            100 * (max(highs) - parity))


def _ended(reason: str) -> Callable[[ArmStats, Batch, int], Measured]:
    def measure(s: ArmStats, b: Batch, spt: int) -> Measured:
        k = s.ended.get(reason, 0)
        lo, hi = wilson(k, s.games)
        return 100 * k / s.games if s.games else 0.0, 100 * lo, 100 * hi
    return measure


def _profile_mean(metric: str, scale: float) -> Callable[[ArmStats, Batch, int], Measured]:
    k = PROFILE_METRICS.index(metric)

    def measure(s: ArmStats, b: Batch, spt: int) -> Measured:
        assert isinstance(s, ProfileStats)
        m = mean_interval(s.games, s.sums[k], s.squares[k])
        return m["mean"] * scale, m["ci95"][0] * scale, m["ci95"][1] * scale
    return measure


def _comebacks(s: ArmStats, b: Batch, spt: int) -> Measured:
    assert isinstance(s, ProfileStats)
    k = float(s.sums[PROFILE_METRICS.index("comeback")])
    lo, hi = wilson(k, s.games)
    return 100 * k / s.games if s.games else 0.0, 100 * lo, 100 * hi


FIGURES: dict[str, Figure] = {f.name: f for f in (
    Figure("turns", "median player-turns a game", False, _median),
    Figure("turns_mean", "mean player-turns a game", False, _turns_mean),
    Figure("minutes", "median table minutes a game (--seconds-per-turn)", False, _minutes),
    Figure("seat_advantage", "the largest seat's win rate minus parity, in points", False,
           _seat_advantage),
    Figure("ended_bankruptcy", "% of games ended by a bankruptcy", False, _ended("bankruptcy")),
    Figure("ended_bank", "% of games ended by the Bank broken", False, _ended("bank")),
    Figure("ended_turns", "% of games stopped by the turn limit", False, _ended("turns")),
    Figure("lead_changes", "mean lead changes a game", True, _profile_mean("lead_changes", 1)),
    Figure("decided_share", "mean % of the game after which the winner leads for good", True,
           _profile_mean("decided_share", 100)),
    Figure("margin_share", "mean winner's margin, % of the winner's worth", True,
           _profile_mean("margin_share", 100)),
    Figure("comebacks", "% of games won by a seat last after the first quarter", True,
           _comebacks),
)}


@dataclass(frozen=True)
class Target:
    figure: str
    op: str          # "<=", ">=" or "in"
    low: float
    high: float

    @property
    def text(self) -> str:
        if self.op == "in":
            return f"{self.figure} in {_g(self.low)}..{_g(self.high)}"
        return f"{self.figure}{self.op}{_g(self.high if self.op == '<=' else self.low)}"

    @property
    def scale(self) -> float:
        """What a miss is divided by, so that misses of different figures add up."""
        if self.op == "in":
            return max(self.high - self.low, abs(self.high), 1.0) if self.high == self.low \
                else self.high - self.low
        return max(abs(self.high if self.op == "<=" else self.low), 1.0)

    def miss(self, value: float) -> float:
        """How far `value` is from meeting the target (0: met), in units of `scale`."""
        below = self.low - value if self.op in (">=", "in") else 0.0
        above = value - self.high if self.op in ("<=", "in") else 0.0
        return max(below, above, 0.0) / self.scale

    def far_miss(self, lo: float, hi: float) -> float:
        """The miss of the interval's end farthest from meeting the target: 0 when the
        whole interval meets it (what ranks candidates of equal misses: the surer first)."""
        return max(self.miss(lo), self.miss(hi))

    def out(self, lo: float, hi: float) -> bool:
        """The whole interval misses the target: racing drops the candidate."""
        return (self.op in (">=", "in") and hi < self.low) or \
            (self.op in ("<=", "in") and lo > self.high)


def _g(x: float) -> str:
    return f"{x:g}"


_TARGET = re.compile(r"^\s*(?P<fig>[A-Za-z_]+)\s*(?P<op><=|>=|\s+in\s+|=)\s*(?P<value>.+?)\s*$")


def _finite(text: str, x: float) -> float:
    """A target's bound: a number Optuna can be told a miss from (NaN or an infinity makes
    every candidate's value unacceptable to it, and the search would ask again for ever)."""
    if not math.isfinite(x):
        raise UsageError(f"--target {echo(text)}: {x!r} is not a finite number; give a "
                         f"number, e.g. --target 'turns in 60..150'")
    return x


def parse_target(text: str) -> Target:
    """`turns in 60..150`, `seat_advantage<=3`, `comebacks>=10` -> a Target."""
    m = _TARGET.match(text)
    if m is None:
        raise UsageError(f"--target {echo(text)}: expected FIGURE<=VALUE, FIGURE>=VALUE or "
                         f"'FIGURE in LOW..HIGH', e.g. --target 'turns in 60..150'")
    name, op, value = m.group("fig"), m.group("op").strip(), m.group("value")
    if name not in FIGURES:
        close = difflib.get_close_matches(name, FIGURES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UsageError(f"--target {echo(text)}: unknown figure {name!r}; expected one of "
                         f"{', '.join(FIGURES)}{hint}")
    try:
        if op in ("in", "="):
            lo_text, dots, hi_text = value.partition("..")
            if not dots:
                raise ValueError
            lo, hi = _finite(text, float(lo_text)), _finite(text, float(hi_text))
            if lo > hi:
                raise UsageError(f"--target {echo(text)}: LOW must not be above HIGH")
            return Target(name, "in", lo, hi)
        x = _finite(text, float(value))
    except ValueError:
        raise UsageError(f"--target {echo(text)}: expected a number"
                         + (" range LOW..HIGH" if op in ("in", "=") else "")
                         + f" after {op!r}") from None
    return Target(name, op, x, x)


# --- racing ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """Games a batch, and the fewest and most batches a candidate plays."""

    games: int = 100
    fewest: int = 2
    most: int = 6

    def check(self) -> None:
        if self.games < 1:
            raise UsageError(f"--batch-games {self.games}: expected at least 1")
        if not 1 <= self.fewest <= self.most:
            raise UsageError(f"--batches {self.fewest}..{self.most}: expected 1 <= FEWEST <= MOST")


def batch_seed(seed: int, k: int, purpose: str = "search") -> int:
    """The master seed of batch k: the same for every candidate (common random numbers)."""
    digest = hashlib.blake2b(f"easymoney-tune:{purpose}:{seed}:{k}".encode(), digest_size=6)
    return int.from_bytes(digest.digest(), "big")


@dataclass
class Evaluation:
    """What a candidate's games showed, batch after batch."""

    figures: dict[str, Measured] = field(default_factory=dict)
    games: int = 0
    batches: int = 0
    pruned_by: str | None = None  # the target whose interval it missed entirely
    history: list[float] = field(default_factory=list)  # the objective after each batch

    def misses(self, targets: Sequence[Target]) -> list[float]:
        return [t.miss(self.figures[t.figure][0]) for t in targets]

    def far_misses(self, targets: Sequence[Target]) -> float:
        return sum(t.far_miss(*self.figures[t.figure][1:]) for t in targets)

    def meets(self, targets: Sequence[Target]) -> bool:
        return not any(self.misses(targets))


def needs_profile(targets: Sequence[Target]) -> bool:
    return any(FIGURES[t.figure].profile for t in targets)


def evaluate(arm: Arm, base_batch: Batch, budget: Budget, targets: Sequence[Target],
             seconds_per_turn: int, run_batch: Callable[[Arm, Batch], ArmStats],
             after_batch: Callable[[Evaluation], None] | None = None,
             purpose: str = "search", pareto: bool = False,
             incumbent: float | None = None) -> Evaluation:
    """Play batches of games on `arm` (racing, see the module's doc) and measure it.

    `after_batch` sees the evaluation after each batch (the study reports it; it may raise
    to stop the candidate). With `pareto` (targets that compete) a candidate is dropped only
    when its intervals miss every target: missing one may still put it on the front.
    `incumbent`: the best sum of misses of the candidates played out so far; a candidate
    that does at least as well after the fewest batches gets more games (racing against
    the best so far), as does one that meets every target."""
    ev = Evaluation()
    stats: ArmStats | None = None
    for k in range(budget.most):
        batch = Batch(games=budget.games, players=base_batch.players,
                      strategies=base_batch.strategies, seed=batch_seed(base_batch.seed, k, purpose),
                      max_turns=base_batch.max_turns)
        part = run_batch(arm, batch)
        if stats is None:
            stats = part
        else:
            stats.merge(part)
        ev.games += budget.games
        ev.batches = k + 1
        ev.figures = {t.figure: FIGURES[t.figure].measure(stats, batch, seconds_per_turn)
                      for t in targets}
        ev.history.append(sum(ev.misses(targets)))
        out = [t.text for t in targets if t.out(*ev.figures[t.figure][1:])]
        if out and (not pareto or len(out) == len(targets)):
            ev.pruned_by = "; ".join(out)
        if after_batch is not None:
            after_batch(ev)
        if ev.pruned_by is not None:
            break
        looks_good = ev.meets(targets) or (
            incumbent is not None and not pareto and ev.history[-1] <= incumbent)
        if k + 1 >= budget.fewest and not looks_good:
            break  # neither clearly out nor looking good: no more games for it
    return ev
