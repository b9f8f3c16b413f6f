"""`easymoney sweep VARIANT --vary KEY=V1,V2 ...`: every combination of settings, on the same seeds."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .simulate import Job, add_batch_args, add_mixes_arg, add_spec_arg, execute, execute_mixes

if TYPE_CHECKING:  # imported when the command runs: --help stays quick
    from .. import simulate as S


HELP = "play every combination of option values and rule switches"
DESCRIPTION = """Play N games in every cell of a grid of settings (each --vary adds a
dimension), with the same seeds in every cell, and print each cell's
figures with 95% intervals and the effect of each setting's values
against its first value (Holm-adjusted p-values). E.g. easymoney sweep
standard --vary doubles.after_card=backward,forward --vary
four_sides=on,off. See docs/simulation.md."""


def arguments(parser: argparse.ArgumentParser) -> None:
    add_spec_arg(parser)
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="a setting to vary: RULE.OPTION=V1,V2,... (option values) or "
                             "RULE=on,off (a rule switched); repeatable, the first value of each "
                             "is the baseline")
    add_batch_args(parser)
    add_mixes_arg(parser)


def _tables(summary: Mapping[str, Any]) -> dict[str, str]:
    from .. import simulate as S
    from ..simulate import sweep as W
    return {"summary": S.table_csv(*W.cells_csv_rows(summary)),
            "effects": S.table_csv(*W.effects_csv_rows(summary))}


def _plot(summary: Mapping[str, Any], result: S.Result, path: str) -> None:
    from ..simulate import sweep as W
    from ..simulate.plot import plot_figures
    plot_figures(f"sweep of {summary['variant']}: {summary['games']:,} games a cell, "
                 f"seed {summary['seed']} (mean over the cells with each value; bars: 95% "
                 f"interval of the effect)", W.plot_grid(summary), path)


def run(args: argparse.Namespace) -> int:
    from .. import simulate as S
    from ..simulate import sweep as W
    if not args.vary:
        raise UsageError("sweep needs at least one --vary, e.g. --vary four_sides=on,off or "
                         "--vary end.max_turns=200,400")
    settings = [W.parse_vary(text) for text in args.vary]
    W.check_settings(settings)
    base = S.parse_spec(args.variant, enable=args.with_rules, disable=args.without_rules,
                        options=args.options)
    grid = W.Grid(base, tuple(settings))
    arms = grid.arms()
    effects = grid.effects()
    job = Job(arms=arms, summarize=lambda result: W.sweep_summary(result, grid),
              text=W.sweep_text, tables=_tables, plot=_plot,
              contrasts=[contrast for _, _, contrast in effects],
              arm_columns=grid.columns(), table_suffixes=("summary", "effects"))
    return execute_mixes(args, job) if args.strategies_sets else execute(args, job)
