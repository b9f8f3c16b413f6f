"""The strategies by name: what `--strategies`, a script's `players Ann:greedy` and a seat
of the page name.

    cautious, greedy, random    the built-in bots (easymoney.bots)
    mc, mc:rollouts=64,...      the searching bot (easymoney.search)
    exec:"python bot.py"        a program at a seat (easymoney.seats, docs/seats.md)
    policy:FILE                 a trained agent's saved policy (easymoney.agents.policy)
    others                      the entry-point group `easymoney.strategies` (the entry
                                point's object is a strategy class or instance); a kind
                                named by a prefix, `KIND:...`, the group
                                `easymoney.strategy_kinds` (its object is called with the
                                whole name: `policy` is the project's own)

This table stands above the three modules that define strategies, and none of them asks it
for another (issue 29): the playouts' strategy of a searching bot is made here and its
maker handed over, and so is the fallback of a program's seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from .entrypoints import entry_points
from .bots import Cautious, Greedy, RandomStrategy, Strategy
from .errors import UsageError, did_you_mean
from .search import MonteCarlo, parse_options
from .seats import PREFIX as PROGRAM_PREFIX, RESIGN, ProgramStrategy, Resign, check_program, \
    parse_spec

STRATEGY_GROUP = "easymoney.strategies"
KIND_GROUP = "easymoney.strategy_kinds"

BUILTIN_STRATEGIES: dict[str, type[Strategy]] = {
    "cautious": Cautious, "greedy": Greedy, "random": RandomStrategy, "mc": MonteCarlo}


@lru_cache(maxsize=1)
def strategy_kinds() -> Mapping[str, Any]:
    """prefix -> the entry point of the strategies named `PREFIX:...` (`policy`)."""
    return {ep.name: ep for ep in entry_points(group=KIND_GROUP)}


@lru_cache(maxsize=1)
def available_strategies() -> Mapping[str, tuple[Any, str]]:
    """name -> (factory, origin) for the built-in strategies and the entry-point ones."""
    found: dict[str, tuple[Any, str]] = {n: (c, "built-in") for n, c in BUILTIN_STRATEGIES.items()}
    for ep in sorted(entry_points(group=STRATEGY_GROUP), key=lambda e: e.name):
        if ep.name in found:
            continue
        try:
            found[ep.name] = (ep.load(), f"entry point {ep.name}")
        except Exception:  # a broken third-party strategy must not stop the others
            continue
    return found


def is_program(name: str) -> bool:
    """Whether the strategy `name` would start a program on this machine: a program at the
    seat, or one that plays a searching bot's playouts (`mc:policy=exec:...`)."""
    return PROGRAM_PREFIX in name


def make_strategy(name: str) -> Strategy:
    """The strategy called `name`; `mc:rollouts=64,horizon=8` gives the searching bot its
    options (see core/search.py)."""
    if name == "mc" or name.startswith("mc:"):
        _, _, text = name.partition(":")
        return MonteCarlo(make_strategy, **(parse_options("mc", text, MonteCarlo.OPTIONS)
                                            if text else {}))
    if name.startswith(PROGRAM_PREFIX):
        return program_strategy(name)
    prefix, colon, _ = name.partition(":")
    if colon and prefix in strategy_kinds():  # `policy:FILE`, a trained agent's saved policy
        return strategy_kinds()[prefix].load()(name)  # type: ignore[no-any-return]
    table = available_strategies()
    if name not in table:
        raise UsageError(f"unknown strategy {name!r}{did_you_mean(name, table)}; "
                         f"known: {', '.join(table)}")
    factory = table[name][0]
    return factory() if isinstance(factory, type) else factory


def program_strategy(name: str) -> ProgramStrategy:
    """The strategy for an `exec:` name: the spec checked, the program started once, its
    fallback (`on_error=`) made."""
    spec = parse_spec(name, available_strategies())
    check_program(spec)
    return ProgramStrategy(spec, Resign() if spec.on_error == RESIGN
                           else make_strategy(spec.on_error))
