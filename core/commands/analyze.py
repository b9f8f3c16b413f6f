"""`easymoney analyze VARIANT`: a variant's profile from bot games (is it a good game?)."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from typing import Any

from ..errors import UsageError
from ._variant_args import add_variant_args, settings_from_args
from .simulate import add_play_args, add_spec_arg, batch_from_args, cluster_from_args

HELP_SECONDS = 20   # tests/test_analyze.py checks them against easymoney.simulate's
HELP_LADDER_GAMES = 100
HELP_LADDER_MC_GAMES = 10
HELP_LADDER_MC = "mc:rollouts=2,horizon=3"

HELP = "profile a variant from bot games: length, balance, drama, skill, money"
DESCRIPTION = """Play N games between bots and profile the variant: how long its games
last (player-turns and table minutes), how they end, each seat's advantage,
the winner's margin, lead changes and the turn from which the winner leads
for good, comebacks, each rule's activity, money flows by payment kind, each
space's return on its price, and a skill ladder of built-in strategies
(random, cautious, greedy, mc; seats swapped). Every figure with its 95%
interval; --against OTHER puts a second variant beside it with paired tests
over the same seeds. The output is the same whatever --workers. See
docs/simulation.md, "A variant's profile"."""


def arguments(parser: argparse.ArgumentParser) -> None:
    add_spec_arg(parser)
    add_play_args(parser)
    p = parser.add_argument_group("profile")
    p.add_argument("--against", metavar="OTHER",
                   help="a second variant or SPEC (standard-four_sides), played on the same "
                        "seeds: each figure's difference with a paired test")
    add_seconds_per_turn(p)
    p.add_argument("--ladder-games", type=int, default=HELP_LADDER_GAMES, metavar="N",
                   help=f"games of each seat order on the ladder's rungs random vs cautious "
                        f"and cautious vs greedy (default {HELP_LADDER_GAMES}; 0: no ladder)")
    p.add_argument("--ladder-mc-games", type=int, default=HELP_LADDER_MC_GAMES, metavar="N",
                   help=f"games of each seat order on the rung greedy vs mc, much slower "
                        f"(default {HELP_LADDER_MC_GAMES}; 0: leave it out)")
    p.add_argument("--ladder-mc", default=HELP_LADDER_MC, metavar="STRATEGY",
                   help=f"the searching bot of the last rung, with its budget (default "
                        f"{HELP_LADDER_MC})")
    out = parser.add_argument_group("output")
    out.add_argument("--json", action="store_true",
                     help="print the profile as one JSON document instead of the text")
    out.add_argument("--json-out", metavar="FILE", help="write the profile as JSON to FILE")
    out.add_argument("--html", metavar="FILE",
                     help="write a self-contained HTML report with its plots to FILE (needs "
                          "pip install 'easymoney-game[plot]')")
    add_variant_args(parser)


def add_seconds_per_turn(group: Any) -> None:
    """--seconds-per-turn (analyze's and tune's): what turns a length in table minutes."""
    group.add_argument("--seconds-per-turn", type=int, default=HELP_SECONDS, metavar="N",
                       help=f"seconds a player-turn takes at a real table, for the length in "
                            f"minutes (default {HELP_SECONDS})")


def _check(args: argparse.Namespace) -> None:
    """The profile's own flags, before any game."""
    from .. import simulate as S
    if args.seconds_per_turn < 1:
        raise UsageError(f"--seconds-per-turn {args.seconds_per_turn}: expected at least 1 second")
    for flag, value in (("--ladder-games", args.ladder_games),
                        ("--ladder-mc-games", args.ladder_mc_games)):
        if value < 0:
            raise UsageError(f"{flag} {value}: expected 0 (none) or more games")
    if len(S.parse_strategies(args.ladder_mc, flag="--ladder-mc")) != 1:
        raise UsageError(f"--ladder-mc {args.ladder_mc}: expected one strategy, e.g. "
                         f"{HELP_LADDER_MC}")


def run(args: argparse.Namespace) -> int:
    from .. import simulate as S
    from ..outputs import cleanup_on_signals, variant_inputs, write_atomically
    from ..simulate.profile import PROFILE_METRICS
    from ..simulate import profile_report as R
    _check(args)
    specs = [args.variant] + ([args.against] if args.against is not None else [])
    arms = [S.parse_spec(spec, enable=args.with_rules, disable=args.without_rules,
                         options=args.options) for spec in specs]
    batch, variants = batch_from_args(args, arms)
    S.check_outputs([(args.json_out, "--json-out"), (args.html, "--html")],
                    [i for variant in variants for i in variant_inputs(variant)])
    if args.html is not None:
        from ..simulate.plot import require_matplotlib
        require_matplotlib()
    cluster = cluster_from_args(args)
    # a rung seats two strategies: a table of one has no ladder
    rungs = (R.ladder_rungs(args.ladder_mc, args.ladder_games, args.ladder_mc_games)
             if batch.players > 1 else [])
    with cleanup_on_signals(), ExitStack() as stack:
        executor = stack.enter_context(cluster) if cluster is not None else None
        common: dict[str, Any] = {"workers": args.workers, "executor": executor,
                                  "settings": settings_from_args(args),
                                  "game_timeout": args.game_timeout}
        progress = S.Progress(batch.games)
        try:
            result = S.run(arms, batch, variants=variants, progress=progress,
                           profile=PROFILE_METRICS, **common)
        finally:
            progress.close()
        ladder = R.play_ladder(arms, batch, rungs, variants=variants, **common)
    summary: dict[str, Any]
    if len(arms) == 1:
        summary = R.profile_summary(result, 0, args.seconds_per_turn)
        summary["ladder"] = ladder
        text = R.profile_text(summary)
    else:
        summary = R.against_summary(result, args.seconds_per_turn, ladder)
        text = R.against_text(summary)
    summary["notes"] = R.NOTES
    document = json.dumps(summary, indent=2) + "\n"
    page = None
    if args.html is not None:  # made before any file is written: a failure leaves none
        from ..simulate.profile_html import profile_html
        page = profile_html(summary, text)
    if args.json_out is not None:
        write_atomically(args.json_out, document)
    if args.html is not None and page is not None:
        write_atomically(args.html, page)
    sys.stdout.write(document if args.json else text)
    for path, what in ((args.json_out, "the profile as JSON"), (args.html, "the HTML report")):
        if path is not None:
            print(f"wrote {what} to {path}", file=sys.stderr)
    return 0
