"""`easymoney simulate [VARIANT]`: play many bot games and print what they add up to.

Also the flags and the run that simulate, compare and sweep share, so that each flag means
the same on all three.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ._variant_args import (add_dispatch_arg, add_game_timeout_arg, add_invariants_arg,
                            add_variant_args, settings_from_args)

if TYPE_CHECKING:  # the simulation is imported when a command runs: --help stays quick
    from .. import simulate as S
    from ..simulate.games import Contrast

# the help's defaults; tests/test_simulate.py checks them against easymoney.simulate's
HELP_GAMES = "1,000"
HELP_PLAYERS = "4"
HELP_MAX_TURNS = "1,000"
DEFAULT_STRATEGIES = "cautious"


def add_batch_args(p: argparse.ArgumentParser) -> None:
    """The flags simulate, compare and sweep share: games, seats, seeds, where to play, outputs."""
    add_play_args(p)
    add_output_args(p)
    add_variant_args(p)


def add_play_args(p: argparse.ArgumentParser) -> None:
    """What to play and where (analyze's too): games, seats, seeds, workers, the checks."""
    p.add_argument("--games", "-n", type=int, default=None, metavar="N",
                   help=f"games to play on each arm (default {HELP_GAMES})")
    p.add_argument("--players", type=int, default=None, metavar="K",
                   help=f"players at the table (default {HELP_PLAYERS}, or the nearest "
                        f"number every variant allows)")
    # None: not given (--strategies-sets refuses it beside them), else DEFAULT_STRATEGIES
    p.add_argument("--strategies", default=None, metavar="NAME,...",
                   help=f"strategies given to the seats in turn, cycling (default "
                        f"{DEFAULT_STRATEGIES}); "
                        "see `easymoney strategies`; exec:\"COMMAND\" seats a program "
                        "(docs/seats.md)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the master seed: game i's seed is derived from it and i (default 0)")
    p.add_argument("--max-turns", type=int, default=None, metavar="T",
                   help=f"stop a game after T player-turns; it counts as ended by the turn "
                        f"limit (default: the variant's end.max_turns, else "
                        f"{HELP_MAX_TURNS})")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="W",
                       help="processes to play in on this machine (default: the number of "
                            "CPUs); the output does not depend on it")
    where.add_argument("--cluster", metavar="ADDRESS",
                       help="play on a Dask cluster: tcp://HOST:8786 (a running `dask "
                            "scheduler`), or local:N to start N worker processes here; the "
                            "output is the same (needs pip install 'easymoney-game[cluster]')")
    add_game_timeout_arg(p)
    add_dispatch_arg(p)
    add_invariants_arg(p)


def add_output_args(p: argparse.ArgumentParser) -> None:
    """simulate's, compare's and sweep's outputs: the printed summary, its files, the records."""
    out = p.add_argument_group("output")
    shown = out.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true",
                       help="print the summary as one JSON document instead of the text")
    shown.add_argument("--csv", action="store_true",
                       help="print the summary table as CSV instead of the text")
    out.add_argument("--json-out", metavar="FILE",
                     help="write every game (seed, turns, end, winners, the Bank, worths) and "
                          "the summary as JSON to FILE")
    out.add_argument("--csv-out", metavar="FILE",
                     help="write one CSV row per game to FILE, and the summary table(s) "
                          "beside it (FILE-summary.csv, ...)")
    out.add_argument("--record-dir", metavar="DIR",
                     help="write each game as a script DIR/game-00001.game that `easymoney "
                          "play` replays (DIR/arm-K/... for several arms; created if missing)")
    out.add_argument("--plot", metavar="FILE",
                     help="draw the figures to FILE: .png, .svg or .pdf, by its extension "
                          "(needs pip install 'easymoney-game[plot]')")


@dataclass
class Job:
    """What one of the three commands plays and how it reports it."""

    arms: list[S.Arm]
    summarize: Callable[[S.Result], dict[str, Any]]
    text: Callable[[Mapping[str, Any]], str]
    tables: Callable[[Mapping[str, Any]], dict[str, str]]  # suffix -> CSV beside --csv-out
    plot: Callable[[Mapping[str, Any], S.Result, str], None]
    contrasts: Sequence[Contrast] | None = None
    arm_columns: list[dict[str, Any]] = field(default_factory=lambda: [{}])
    table_suffixes: tuple[str, ...] = ("summary",)


def batch_from_args(args: argparse.Namespace, arms: Sequence[S.Arm]) -> tuple[S.Batch, list[Any]]:
    """The batch and the loaded variants of the arms, every flag checked."""
    from .. import simulate as S
    from ..timelimit import check_game_timeout
    args.game_timeout = check_game_timeout(args.game_timeout)
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: expected at least 1")
    if args.players is not None and not 1 <= args.players <= S.MAX_PLAYERS:
        raise UsageError(f"--players {args.players}: expected 1 to {S.MAX_PLAYERS:,} players "
                         f"at a simulated table")
    strategies = S.parse_strategies(DEFAULT_STRATEGIES if args.strategies is None
                                    else args.strategies)
    variants = [arm.load() for arm in arms]
    players = S.default_players(args.players, list(zip(arms, variants)))
    games = S.DEFAULT_GAMES if args.games is None else args.games
    batch = S.Batch(games=games, players=players, strategies=strategies, seed=args.seed,
                    max_turns=args.max_turns)
    S.check_batch(batch, list(zip(arms, variants)))
    return batch, variants


def add_spec_arg(parser: argparse.ArgumentParser) -> None:
    """simulate's and sweep's VARIANT: the one variant played, changed as a SPEC of compare."""
    parser.add_argument("variant", nargs="?", default="standard", metavar="VARIANT",
                        help="a built-in variant or a YAML file, optionally followed by +RULE, "
                             "-RULE, @RULE.OPTION=VALUE as in `compare` (default standard)")


def add_mixes_arg(p: argparse.ArgumentParser) -> None:
    """compare's and sweep's --strategies-sets: the same question under several mixes."""
    p.add_argument("--strategies-sets", nargs="+", default=None, metavar="MIX",
                   help="ask the same question under each strategy mix (each as --strategies "
                        "takes it, e.g. --strategies-sets cautious greedy cautious,mc) and say "
                        "where an effect changes sign or significance between mixes")


def execute_mixes(args: argparse.Namespace, job: Job) -> int:
    """The job once a mix of --strategies-sets, then the effects side by side."""
    from .. import simulate as S
    from ..simulate import mixes
    for flag, given in (("--json-out", args.json_out), ("--csv-out", args.csv_out),
                        ("--record-dir", args.record_dir), ("--plot", args.plot),
                        ("--csv", args.csv)):
        if given:
            raise UsageError(f"{flag} with --strategies-sets: not supported; run one mix at a "
                             f"time with --strategies for the files")
    if args.strategies is not None:  # each mix is a --strategies of its own
        mixes_given = " ".join(shlex.quote(m) for m in [args.strategies, *args.strategies_sets])
        raise UsageError(f"--strategies with --strategies-sets: give every mix to "
                         f"--strategies-sets (e.g. --strategies-sets {mixes_given})")
    if len(args.strategies_sets) < 2:
        raise UsageError("--strategies-sets needs at least two mixes, e.g. "
                         "--strategies-sets cautious greedy")
    for mix in args.strategies_sets:  # every mix checked before any game is played
        S.parse_strategies(mix, flag="--strategies-sets mix")
    runs: list[tuple[str, Mapping[str, Any]]] = []
    for mix in args.strategies_sets:
        one = argparse.Namespace(**{**vars(args), "strategies": mix})
        found: list[Mapping[str, Any]] = []
        execute(one, job, collect=found)
        runs.append((mix, found[0]))
    if args.json:
        sys.stdout.write(json.dumps(mixes.mixes_json(runs), indent=2) + "\n")
    else:
        sys.stdout.write(mixes.mixes_text(runs, job.text))
    return 0


def cluster_from_args(args: argparse.Namespace) -> Any:
    """The Dask cluster of --cluster (checked, not yet started), or None."""
    if args.cluster is None:
        return None
    from ..simulate.cluster import Cluster, require_dask
    cluster = Cluster(args.cluster)
    require_dask()
    return cluster


def execute(args: argparse.Namespace, job: Job,
            collect: list[Mapping[str, Any]] | None = None) -> int:
    """Check everything, play the job's arms, write the files, print the result (or, with
    `collect`, add the summary to it and print nothing)."""
    from .. import simulate as S
    from ..outputs import cleanup_on_signals, variant_inputs
    from ..simulate.plot import require_matplotlib
    batch, variants = batch_from_args(args, job.arms)
    targets: list[tuple[str | None, str]] = [(args.json_out, "--json-out"),
                                             (args.csv_out, "--csv-out"), (args.plot, "--plot")]
    if args.csv_out is not None:
        targets += [(S.derived_path(args.csv_out, suffix), f"the {suffix} table of --csv-out")
                    for suffix in job.table_suffixes]
    S.check_outputs(targets, [i for variant in variants for i in variant_inputs(variant)])
    if args.plot is not None:  # a name of no known format is refused before any game
        from ..board.draw import picture_format
        picture_format(args.plot, "--plot")
    if args.plot is not None:
        require_matplotlib()
    cluster = cluster_from_args(args)
    if cluster is not None:
        if cluster.remote and args.record_dir is not None:
            raise UsageError("--record-dir with a remote --cluster: the records would be written "
                             "on the workers' machines; use local:N or --workers")
    record_dir = (S.prepare_record_dir(args.record_dir, len(job.arms))
                  if args.record_dir is not None else None)
    with cleanup_on_signals(), ExitStack() as stack:
        executor = stack.enter_context(cluster) if cluster is not None else None
        files = S.RowFiles(batch, args.json_out, args.csv_out, job.arm_columns)
        progress = S.Progress(batch.games)
        try:
            result = S.run(job.arms, batch, workers=args.workers, executor=executor,
                           contrasts=job.contrasts, variants=variants,
                           on_rows=files.add if files.wanted else None, record_dir=record_dir,
                           progress=progress, settings=settings_from_args(args),
                           game_timeout=args.game_timeout)
            progress.close()
            summary = job.summarize(result)
            files.finish(summary, job.tables(summary) if args.csv_out else {})
        except BaseException:
            progress.close()
            files.abort()
            raise
    if collect is not None:
        collect.append(summary)
        return 0
    if args.json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
    elif args.csv:
        tables = job.tables(summary)
        sys.stdout.write(tables[job.table_suffixes[0]])
    else:
        sys.stdout.write(job.text(summary))
    if args.plot is not None:
        job.plot(summary, result, args.plot)
    for line in written(args, job, batch.games * len(job.arms)):
        print(line, file=sys.stderr)
    return 0


def written(args: argparse.Namespace, job: Job, plays: int) -> list[str]:
    """What the run wrote where, a line an output (standard error: the summary alone is on
    standard output); `plays` is the games played on all arms."""
    from .. import simulate as S
    games = f"{plays:,} game{'s' if plays != 1 else ''}"
    lines = []
    if args.json_out is not None:
        lines.append(f"wrote {games} and the summary to {args.json_out}")
    if args.csv_out is not None:
        tables = job.table_suffixes
        lines.append(f"wrote {games} to {args.csv_out}, and the {' and '.join(tables)} "
                     f"table{'s' if len(tables) > 1 else ''} to "
                     + " and ".join(S.derived_path(args.csv_out, t) for t in tables))
    if args.record_dir is not None:
        arms = len(job.arms)
        lines.append(f"wrote {games} as game scripts to {args.record_dir}"
                     + (f" (arm-1 to arm-{arms}, a folder an arm)" if arms > 1 else ""))
    if args.plot is not None:
        lines.append(f"wrote the figures to {args.plot}")
    return lines


HELP = "play many bot games and summarize them"
DESCRIPTION = """Play N games between bots and print how they ended, how long they
lasted, who won (with 95% intervals) and what each space earned. The
output is the same whatever --workers or --cluster. See docs/simulation.md."""


def arguments(parser: argparse.ArgumentParser) -> None:
    add_spec_arg(parser)
    add_batch_args(parser)


def _plot(summary: Mapping[str, Any], result: S.Result, path: str) -> None:
    from ..simulate.plot import plot_summary
    plot_summary(summary, path, result.variants[0])


def run(args: argparse.Namespace) -> int:
    from .. import simulate as S
    arm = S.parse_spec(args.variant, enable=args.with_rules, disable=args.without_rules,
                       options=args.options)
    job = Job(arms=[arm], summarize=S.summarize, text=S.summary_text,
              tables=lambda s: {"summary": S.summary_csv(s)}, plot=_plot)
    return execute(args, job)
