"""Benchmark: bulk simulation with a third-party rule on, as a ratio of the speed without it.

    python bench/bench_plugins.py [--rules loan holiday] [--games N] [--repeat R]

Issue 37's figures: tests/plugins/loan_plugin (a bank loan, a window action of an amount in
$50 steps up to $1,000, which the bots never take) and tests/plugins/holiday_plugin (a
rent holiday bought from another player: a deal). Plays `standard` with 4 `cautious` bots,
game i with seed i (no event log: the engine alone), without the rule and with it, in
turn, keeps the fastest of --repeat runs of each and prints player-turns a second and the
ratio (with ÷ without: 1.00x means the rule costs nothing while it is not taken). The
plugins are installed into a temporary folder for the run (tests/plugin_site.py), never
into the environment; `--site DIR` uses a folder where they are installed already.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
import time
from pathlib import Path
from typing import Any

from easymoney.bots import BotDecider
from easymoney.engine.game import Game, ruleset_for
from easymoney.loading.loader import load_variant
from easymoney.strategies import make_strategy

ROOT = Path(__file__).resolve().parent.parent


def play(variant: Any, ruleset: Any, seeds: range, players: int, strategy: str,
         max_turns: int) -> int:
    """Play the games of `seeds`; the player-turns played."""
    names = [f"P{i + 1}" for i in range(players)]
    turns = 0
    for seed in seeds:
        decider = BotDecider({n: make_strategy(strategy) for n in names})
        game = Game(variant, [(n, strategy) for n in names], decider, seed=seed,
                    keep_log=False, ruleset=ruleset)
        game.setup()
        game.play(max_turns=max_turns)
        turns += game.turns_played
    return turns


@contextlib.contextmanager
def plugins_installed(site: str | None) -> Any:
    sys.path.insert(0, str(ROOT / "tests"))
    import plugin_site  # tests/plugin_site.py: installs the plugin projects into a folder
    if site is not None:
        plugin_site.activate(Path(site))
        yield Path(site)
        return
    with plugin_site.temporary_site() as made:
        yield made


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["loan", "holiday"],
                   help="the rules to bench, each on its own (default: loan holiday)")
    p.add_argument("--games", type=int, default=40, help="games per run (default 40)")
    p.add_argument("--repeat", type=int, default=3,
                   help="time each run this many times and keep the fastest (default 3)")
    p.add_argument("--variant", default="standard")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--strategy", default="cautious")
    p.add_argument("--max-turns", type=int, default=1000)
    p.add_argument("--site", help="a folder where the test plugins are installed already")
    args = p.parse_args(argv)
    with plugins_installed(args.site):
        from easymoney.engine.registry import discover
        registry = discover()
        base = load_variant(args.variant, registry=registry)
        arms = [("without", base, ruleset_for(base))]
        for rule in args.rules:
            variant = load_variant(args.variant, registry=registry, enable=[rule])
            arms.append((rule, variant, ruleset_for(variant)))
        seeds = range(args.games)
        for _, variant, ruleset in arms:  # warm-up: imports, rule sets, caches
            play(variant, ruleset, range(10_000, 10_002), args.players, args.strategy, 200)
        print(f"{args.variant}, {args.players} x {args.strategy}, {args.games} games, "
              f"best of {args.repeat}, Python {sys.version.split()[0]}")
        best = {label: math.inf for label, _, _ in arms}
        turns: dict[str, int] = {}
        for _ in range(max(1, args.repeat)):  # the arms alternate: load slows them alike
            for label, variant, ruleset in arms:
                start = time.perf_counter()
                turns[label] = play(variant, ruleset, seeds, args.players, args.strategy,
                                    args.max_turns)
                best[label] = min(best[label], time.perf_counter() - start)
        rate = {label: turns[label] / best[label] for label in best}
        for label in best:
            print(f"{label:<10} {turns[label]:>9,} player-turns  {best[label]:7.2f} s  "
                  f"{rate[label]:>10,.0f} player-turns/s")
        for rule in args.rules:
            print(f"ratio      {rule}: {rate[rule] / rate['without']:.2f}x as fast as without it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
