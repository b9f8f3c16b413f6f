"""`easymoney compare SPEC SPEC ...`: the same games under several rule sets, side by side."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .simulate import Job, add_batch_args, add_mixes_arg, execute, execute_mixes

if TYPE_CHECKING:  # imported when the command runs: --help stays quick
    from .. import simulate as S

MAX_ARMS = 64


HELP = "play the same games under several rule sets and compare them"
DESCRIPTION = """Play N games on each SPEC with the same seeds (common random numbers) and
print the figures side by side, with each arm's difference against the
first and whether it is significant at 95% (p-values Holm-adjusted for
the tests of the table). A SPEC is a variant name or file followed by
any of +RULE (switch on), -RULE (switch off) and @RULE.OPTION=VALUE, e.g.
standard-four_sides or standard@doubles.after_card=forward; --with,
--without and --option apply to every SPEC. See docs/simulation.md."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("specs", nargs="+", metavar="SPEC",
                        help="the arms; the first is the baseline")
    add_batch_args(parser)
    add_mixes_arg(parser)


def comparison_table(summary: Mapping[str, Any]) -> str:
    """One row per arm and figure, for pandas: the value and its interval, then the test."""
    from .. import simulate as S
    rows = []
    for i, arm in enumerate(summary["arms"]):
        test_of = summary["differences"][i - 1]["tests"] if i else {}
        for label, metric, values, rate in S.report.figure_rows(summary, summary["arms"]):
            value = values[i]
            ci = _interval(arm, metric)
            t = test_of.get(metric) if metric else None
            scale = 100 if rate else 1
            test: list[Any] = ["", "", "", "", "", ""]
            if t is not None:
                test = [t["mean"] * scale, t["ci95"][0] * scale, t["ci95"][1] * scale, t["p"],
                        t["p_holm"], t["significant"]]
            rows.append([arm["arm"], label, metric, value, *ci, *test])
    return S.table_csv(["arm", "figure", "metric", "value", "ci95_low", "ci95_high", "diff",
                        "diff_ci95_low", "diff_ci95_high", "p", "p_holm", "significant"], rows)


def _interval(arm: Mapping[str, Any], metric: str) -> list[Any]:
    kind, _, name = metric.partition(":")
    if kind == "turns":
        return list(arm["turns"]["ci95"])
    if kind == "bank":
        return list(arm["bank"]["ci95"])
    if kind == "ended":
        return list(arm["ended"][name]["ci95"])
    if kind == "seat":
        seat = next(s for s in arm["wins"]["by_seat"] if s["seat"] == name)
        return [100 * x for x in seat["ci95"]]
    if kind == "strategy":
        st = next(s for s in arm["wins"]["by_strategy"] if s["strategy"] == name)
        return [100 * x for x in st["ci95"]]
    return ["", ""]


def _plot(summary: Mapping[str, Any], result: S.Result, path: str) -> None:
    from .. import simulate as S
    from ..simulate.plot import plot_figures
    arms = summary["arms"]
    panels = []
    for label, metric, values, _ in S.report.figure_rows(summary, arms):
        if not metric:
            continue
        points = [(a["arm"], v, *_interval(a, metric)) for a, v in zip(arms, values)]
        panels.append((label, "arm", points))
    cols = 3
    plot_figures(f"compare: {summary['games']:,} games on each arm, seed {summary['seed']}",
                 [panels[i:i + cols] for i in range(0, len(panels), cols)], path)


def run(args: argparse.Namespace) -> int:
    from .. import simulate as S
    if len(args.specs) < 2:
        raise UsageError("compare needs at least two SPECs, e.g. `easymoney compare standard "
                         "no-four-sides`")
    if len(args.specs) > MAX_ARMS:
        raise UsageError(f"compare: {len(args.specs)} SPECs; at most {MAX_ARMS}")
    arms = [S.parse_spec(spec, enable=args.with_rules, disable=args.without_rules,
                         options=args.options) for spec in args.specs]
    job = Job(arms=arms, summarize=S.compare_summary, text=S.compare_text,
              tables=lambda s: {"summary": comparison_table(s)}, plot=_plot,
              arm_columns=[{"arm": a.name} for a in arms])
    return execute_mixes(args, job) if args.strategies_sets else execute(args, job)
