"""What to play: the arms (a variant and its rule changes), the batch, the seeds, the SPEC syntax."""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..bots import BotDecider
from ..strategies import available_strategies, make_strategy
from ..engine.game import Game, ruleset_for
from ..engine.model import Variant
from ..engine.registry import discover
from ..errors import PluginError, UsageError
from ..loading.loader import builtin_names, load_variant
from ..seats import split_strategies

SEAT_PREFIX = "P"
DEFAULT_GAMES = 1000       # simulate, compare and sweep alike
DEFAULT_PLAYERS = 4        # clamped to what every arm's variant allows
DEFAULT_MAX_TURNS = 1000   # when the variant sets no end.max_turns of its own
MAX_PLAYERS = 1000         # a table of more seats is a mistake, not a game to simulate
MAX_SPEC_ECHO = 60         # characters of a SPEC repeated in an error message
PATH_MAX = 4096


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
    """What every arm plays: how many games, the seats and their strategies, the seeds, the limit.

    `max_turns` None: each arm's own `end.max_turns`, or DEFAULT_MAX_TURNS when it sets none.
    """

    games: int
    players: int = DEFAULT_PLAYERS
    strategies: tuple[str, ...] = ("cautious",)
    seed: int = 0
    max_turns: int | None = None

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

    def cap(self, variant: Variant) -> int:
        """The turn limit handed to the engine for a game of this variant."""
        if self.max_turns is not None:
            return self.max_turns
        return variant_turn_limit(variant) or DEFAULT_MAX_TURNS

    def turn_limit(self, variant: Variant) -> int:
        """The most player-turns a game of this variant can last here (what the reports say)."""
        own = variant_turn_limit(variant)
        return min(self.cap(variant), own) if own else self.cap(variant)


def variant_turn_limit(variant: Variant) -> int | None:
    """The variant's `end.max_turns`, None when it sets none."""
    value = variant.rules.get("end", {}).get("max_turns")
    return int(value) if value else None


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` (0-based) of a batch with seed `master`: a hash of both, 32 bits."""
    digest = hashlib.blake2b(f"easymoney-simulate:{master}:{index}".encode(), digest_size=4)
    return int.from_bytes(digest.digest(), "big")


def parse_strategies(text: str, flag: str = "--strategies") -> tuple[str, ...]:
    """`cautious,greedy` -> ('cautious', 'greedy'), every name checked (UsageError otherwise).

    `flag` is where the text was given (`--strategies-sets mix`): the errors name it, as
    that of an unknown strategy does for any flag but --strategies.
    """
    parts: list[str] = []
    for part in split_strategies(text):  # a program's quoted command may hold commas
        # `mc:rollouts=64,horizon=8`: an option after the first continues its strategy
        if parts and "=" in part and ":" not in part and ":" in parts[-1]:
            parts[-1] += "," + part.strip()
        else:
            parts.append(part)
    names = tuple(part.strip() for part in parts)
    if not names or any(not n for n in names):
        raise UsageError(f"{flag} {echo(text)}: expected names separated by commas, like "
                         f"cautious,greedy; known: {', '.join(available_strategies())}")
    for name in names:
        try:
            make_strategy(name)
        except UsageError as exc:
            if flag == "--strategies":  # the message is the one --strategies always gave
                raise
            raise UsageError(f"{flag} {echo(text)}: {exc.message}") from None
    return names


def default_players(requested: int | None, arms: Sequence[tuple[Arm, Variant]]) -> int:
    """--players, or DEFAULT_PLAYERS clamped to what every arm's variant allows."""
    lo = max(v.min_players for _, v in arms)
    hi = min(v.max_players for _, v in arms)
    if requested is not None:
        return requested
    if lo > hi:
        raise UsageError("the arms have no number of players in common: "
                         + ", ".join(f"{a.name} is played by {v.min_players} to {v.max_players}"
                                     for a, v in arms))
    return max(lo, min(DEFAULT_PLAYERS, hi, MAX_PLAYERS))


def check_batch(batch: Batch, variants: Sequence[tuple[Arm, Variant]]) -> None:
    """Raise UsageError when the batch cannot be played on these variants."""
    if batch.games < 1:
        raise UsageError(f"--games {batch.games}: expected at least 1 game")
    if batch.max_turns is not None and batch.max_turns < 1:
        raise UsageError(f"--max-turns {batch.max_turns}: expected at least 1 turn")
    if not 1 <= batch.players <= MAX_PLAYERS:
        raise UsageError(f"--players {batch.players}: expected 1 to {MAX_PLAYERS:,} players "
                         f"at a simulated table")
    for arm, variant in variants:
        if not variant.min_players <= batch.players <= variant.max_players:
            raise UsageError(f"--players {batch.players}: {arm.name} is played by "
                             f"{variant.min_players} to {variant.max_players} players")
    for name in batch.strategy_order:
        strategy = make_strategy(name)
        fits = getattr(strategy, "check_game", None)
        if fits is not None:  # made for one kind of game (a trained policy): said before any
            for _, variant in variants:
                game = Game(variant, list(zip(batch.names, batch.seats)), BotDecider({}),
                            keep_log=False, ruleset=ruleset_for(variant))
                game.setup()  # as it stands at its first decision: its pots made
                fits(game)


# --- SPEC: a variant with +RULE, -RULE and @KEY=VALUE suffixes ---------------------------------

_SUFFIX = re.compile(
    r"(?P<sign>[+-])(?P<rule>[A-Za-z_][A-Za-z0-9_]*)"
    r"|@(?P<key>[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)=(?P<value>(?:(?![+@-][A-Za-z_]).)*)")


def echo(text: str, limit: int = MAX_SPEC_ECHO) -> str:
    """`text` quoted for an error message, cut short when long."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"


def _variant_prefix(spec: str) -> int:
    """The length of the longest prefix of `spec` that is a built-in variant or a file, or 0."""
    names = builtin_names()
    longest = min(len(spec), max(PATH_MAX, *(len(n) for n in names)))
    for cut in range(longest, 0, -1):
        prefix = spec[:cut]
        if (prefix in names and not _looks_like_path(prefix)) or os.path.isfile(prefix):
            return cut
    return 0


def _suggest(spec: str, names: list[str]) -> str:
    # only prefixes as long as a name (and a little more) can resemble one: bounded work
    reach = min(len(spec), max(len(n) for n in names) + 3)
    scored = [(difflib.SequenceMatcher(None, spec[:cut], name).ratio(), name)
              for cut in range(1, reach + 1) for name in names]
    best = max(scored, default=(0.0, ""))
    return f" (did you mean {best[1]!r}?)" if best[0] >= 0.6 else ""


def parse_spec(spec: str, *, enable: Iterable[str] = (), disable: Iterable[str] = (),
               options: Iterable[str] = ()) -> Arm:
    """`standard-four_sides@doubles.after_card=forward` -> an Arm (UsageError when it does not read).

    The variant is the longest prefix that is a built-in variant name or an existing file,
    since variant names may contain `-` themselves (`no-four-sides`); the rest must read as
    suffixes. `enable`, `disable` and `options` come first (the command line's
    --with, --without, --option); the suffixes follow.
    """
    names = builtin_names()
    cut = _variant_prefix(spec)
    if not cut:
        hint = _suggest(spec, names)
        if not hint and spec.lower().endswith((".json", ".csv", ".png")):
            hint = (" (--json and --csv are switches that print to standard output; "
                    "write files with --json-out FILE and --csv-out FILE)")
        raise UsageError(f"SPEC {echo(spec)} does not start with a variant: expected a built-in "
                         f"variant ({', '.join(names)}) or a YAML file, then any of +RULE, "
                         f"-RULE, @RULE.OPTION=VALUE{hint}")
    rest = spec[cut:]
    on, off, opts = list(enable), list(disable), list(options)
    registry = discover()
    pos = 0
    while pos < len(rest):
        m = _SUFFIX.match(rest, pos)
        if m is None or m.end() == pos:
            before = spec[:cut + pos]
            raise UsageError(f"SPEC {echo(spec)}: cannot read {echo(rest[pos:], 30)} after "
                             f"{echo(before, 30)}; expected +RULE (switch on), -RULE (switch "
                             f"off) or @RULE.OPTION=VALUE (set an option)")
        if m.group("sign"):
            rule = m.group("rule")
            try:
                registry.resolve(rule)
            except PluginError as exc:
                raise UsageError(f"SPEC {echo(spec)}: {exc.message}") from None
            (on if m.group("sign") == "+" else off).append(rule)
        else:
            opts.append(f"{m.group('key')}={m.group('value')}")
        pos = m.end()
    return Arm(spec[:cut], tuple(on), tuple(off), tuple(opts), label=spec)


def iter_strategies() -> Iterator[tuple[str, str, str]]:
    """(name, origin, one-line description) of every strategy installed."""
    for name, (factory, origin) in available_strategies().items():
        doc = (factory.__doc__ if isinstance(factory, type) else type(factory).__doc__) or ""
        line = doc.strip().splitlines()[0] if doc.strip() else ""
        if origin != "built-in":
            module = getattr(factory, "__module__", "") or ""
            origin = f"entry point ({module})" if module else "entry point"
        yield name, origin, line
