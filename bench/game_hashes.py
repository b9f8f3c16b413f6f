"""Hashes of the final states of seeded bot games: the same hashes before and after a change
that must not change any game.

    python bench/game_hashes.py [--games N] > hashes.txt

For each shipped variant and each mix of strategies, plays N seeded games (seed i for game
i) with and without the event log, and prints one line per (variant, mix, log): the
SHA-256 of every game's final snapshot and outcome. Compare two runs with `diff`.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
from typing import Any


def _api() -> tuple[Any, Any, Any, Any, Any]:
    """The engine's entry points, wherever this version of the project keeps them."""
    try:
        em = importlib.import_module("easymoney")
        return (em.Game, em.ruleset_for, em.BotDecider, em.make_strategy, em.load_variant)
    except (ImportError, AttributeError):
        game = importlib.import_module("easymoney.engine.game")
        bots = importlib.import_module("easymoney.bots")
        loader = importlib.import_module("easymoney.loading.loader")
        return game.Game, game.ruleset_for, bots.BotDecider, bots.make_strategy, loader.load_variant


VARIANTS = ("standard", "no-four-sides", "reference-card", "classic-1936")
MIXES = (("cautious",) * 4, ("greedy", "random", "cautious"), ("random", "greedy"))


def game_hash(variant: str, mix: tuple[str, ...], games: int, keep_log: bool) -> str:
    Game, ruleset_for, BotDecider, make_strategy, load_variant = _api()
    v = load_variant(variant)
    rs = ruleset_for(v)
    h = hashlib.sha256()
    names = [f"P{i + 1}" for i in range(len(mix))]
    for seed in range(games):
        decider = BotDecider({n: make_strategy(s) for n, s in zip(names, mix)})
        game = Game(v, list(zip(names, mix)), decider, seed=seed, keep_log=keep_log, ruleset=rs)
        game.setup()
        game.play(max_turns=1000)
        snap = game.snapshot()
        h.update(repr(sorted(snap.items(), key=lambda kv: kv[0])).encode())
        if keep_log:
            h.update(repr([(e.kind, sorted(e.data.items())) for e in game.log]).encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    args = p.parse_args(argv)
    for variant in VARIANTS:
        for mix in MIXES:
            for keep_log in (False, True):
                print(f"{variant:<16} {','.join(mix):<24} log={keep_log!s:<5} "
                      f"{game_hash(variant, mix, args.games, keep_log)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
