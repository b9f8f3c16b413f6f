"""`easymoney simulate [VARIANT]`: play many bot games and print what they add up to."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ._variant_args import add_invariants_arg, add_variant_args, invariants_switch

if TYPE_CHECKING:
    from .. import simulate as S


def add_batch_args(p: argparse.ArgumentParser, games: int) -> None:
    """The options `simulate` and `compare` share: the games, the seats, the seeds, the workers."""
    p.add_argument("--games", "-n", type=int, default=games, metavar="N",
                   help=f"how many games to play (default {games})")
    p.add_argument("--players", type=int, default=4, metavar="K",
                   help="players at the table (default 4)")
    p.add_argument("--strategies", default="cautious", metavar="NAME,...",
                   help="strategies given to the seats in turn, cycling (default cautious); "
                        "see `easymoney strategies`")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the master seed: game i's seed is derived from it and i (default 0)")
    p.add_argument("--workers", type=int, default=None, metavar="W",
                   help="processes to play in (default: the number of CPUs); the output does "
                        "not depend on it")
    p.add_argument("--max-turns", type=int, default=1000, metavar="T",
                   help="stop a game after T player-turns; it counts as ended by the turn "
                        "limit (default 1000)")
    p.add_argument("--dispatch", choices=("fast", "pluggy"), default="fast",
                   help=argparse.SUPPRESS)
    add_invariants_arg(p)


def batch_from_args(args: argparse.Namespace) -> S.Batch:
    from .. import simulate as S
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: expected at least 1")
    return S.Batch(games=args.games, players=args.players,
                   strategies=S.parse_strategies(args.strategies), seed=args.seed,
                   max_turns=args.max_turns, dispatch=args.dispatch)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate", help="play many bot games and summarize them",
        description="Play N games between bots and print how they ended, how long they "
                    "lasted, who won (with 95% intervals) and what each space earned. The "
                    "output is the same whatever --workers is. See docs/simulation.md.")
    p.add_argument("variant", nargs="?", default="standard", metavar="VARIANT",
                   help="a built-in variant or a YAML file, optionally followed by +RULE, "
                        "-RULE, @RULE.OPTION=VALUE as in `compare` (default standard)")
    add_batch_args(p, games=100)
    out = p.add_argument_group("output files")
    out.add_argument("--json", metavar="FILE",
                     help="write every game (seed, turns, end, winners, strategies, worths) "
                          "and the full summary as JSON")
    out.add_argument("--csv", metavar="FILE",
                     help="write one CSV row per game; the summary goes to FILE-summary.csv")
    out.add_argument("--record-dir", metavar="DIR",
                     help="write each game as a script DIR/game-00001.game that `easymoney "
                          "play` replays (DIR is created if missing)")
    out.add_argument("--plot", metavar="FILE.png",
                     help="draw landings and rent per space and the game lengths (needs "
                          "matplotlib: pip install 'easymoney-game[plot]')")
    add_variant_args(p)
    p.set_defaults(func=run)


@invariants_switch
def run(args: argparse.Namespace) -> int:
    from .. import simulate as S
    arm = S.parse_spec(args.variant, enable=args.with_rules, disable=args.without_rules,
                       options=args.options)
    batch = batch_from_args(args)
    for path, what in ((args.json, "--json"), (args.csv, "--csv"), (args.plot, "--plot")):
        if path:
            S.check_output(path, what)
    if args.plot:
        S.require_matplotlib()
    record_dir = S.prepare_record_dir(args.record_dir) if args.record_dir else None
    files = S.RowFiles(batch, args.json, args.csv)
    progress = S.Progress(batch.games)
    try:
        result = S.run([arm], batch, workers=args.workers,
                       on_rows=files.add if files.wanted else None, record_dir=record_dir,
                       progress=progress)
        summary = S.summarize(result)
        files.finish(summary)
    except BaseException:
        files.abort()
        raise
    finally:
        progress.close()
    sys.stdout.write(S.summary_text(summary))
    if args.plot:
        S.plot_summary(summary, args.plot)
    return 0
