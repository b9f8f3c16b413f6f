"""Sweeps: every combination of varied options and rule switches, on common random numbers.

A cell is one combination; game i has the same seed in every cell. The effect of a setting's
value is measured against the setting's first value, game by game: for game i, the difference
is averaged over the combinations of the other settings, and the test runs over those n
per-game differences (paired t for the means, McNemar's normal form for the rates). All tests
of the effects table are Holm-adjusted together.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..engine.registry import discover
from ..words import count
from ..errors import PluginError, UsageError
from .arms import Arm, echo
from .games import END_LABELS, END_REASONS, Contrast
from .report import (HOLM_NOTE, _limits, limit_text, p_text, paired_tests, seat_failure_lines,
                     seats_text, summarize, table_lines)
from .runner import Result
from .stats import adjust

MAX_CELLS = 512
MAX_VALUES = 64
SWITCH_VALUES = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")


@dataclass(frozen=True)
class Setting:
    """One --vary: an option KEY (`rule.option`) or a rule switch (`rule`), and its values in order."""

    key: str
    values: tuple[str, ...]

    @property
    def is_switch(self) -> bool:
        return "." not in self.key


def parse_vary(text: str) -> Setting:
    """`doubles.after_card=backward,forward` or `four_sides=on,off` -> a Setting.

    UsageError when it does not read, names no rule, or switches a rule with other than on/off.
    """
    key, eq, rest = text.partition("=")
    key = key.strip()
    if not eq or not _KEY.match(key):
        raise UsageError(f"--vary {echo(text)}: expected RULE.OPTION=V1,V2,... or RULE=on,off, "
                         f"e.g. --vary end.max_turns=200,400 or --vary four_sides=on,off")
    values = tuple(v.strip() for v in rest.split(","))
    if not rest or any(not v for v in values):
        raise UsageError(f"--vary {echo(text)}: expected values separated by commas after '='")
    if len(values) > MAX_VALUES:
        raise UsageError(f"--vary {key}: {len(values)} values; at most {MAX_VALUES}")
    if len(set(values)) != len(values):
        raise UsageError(f"--vary {key}: a value is given twice")
    rule = key.split(".")[0]
    try:
        discover().resolve(rule)
    except PluginError as exc:
        raise UsageError(f"--vary {key}: {exc.message}") from None
    if "." not in key:
        wrong = [v for v in values if v.lower() not in SWITCH_VALUES]
        if wrong:
            raise UsageError(f"--vary {key}={rest}: a rule is switched with on or off, not "
                             f"{wrong[0]!r} (to set an option: --vary {key}.OPTION=...)")
        if len({SWITCH_VALUES[v.lower()] for v in values}) != len(values):
            raise UsageError(f"--vary {key}: a value is given twice")
    return Setting(key, values)


def check_settings(settings: Sequence[Setting]) -> None:
    keys = [s.key for s in settings]
    for k in keys:
        if keys.count(k) > 1:
            raise UsageError(f"--vary {k}: given twice; give all its values in one --vary")
    cells = 1
    for s in settings:
        cells *= len(s.values)
    if cells > MAX_CELLS:
        raise UsageError(f"--vary: {cells:,} combinations; at most {MAX_CELLS} cells in a sweep")


@dataclass(frozen=True)
class Grid:
    """The cells of a sweep in order (the last setting varies fastest); cell 0 is the baseline."""

    base: Arm
    settings: tuple[Setting, ...]

    @property
    def combos(self) -> list[tuple[int, ...]]:
        return list(itertools.product(*(range(len(s.values)) for s in self.settings)))

    def arm(self, combo: Sequence[int]) -> Arm:
        on, off, opts = list(self.base.enable), list(self.base.disable), list(self.base.options)
        parts = []
        for s, k in zip(self.settings, combo):
            value = s.values[k]
            parts.append(f"{s.key}={value}")
            if s.is_switch:
                (on if SWITCH_VALUES[value.lower()] else off).append(s.key)
            else:
                opts.append(f"{s.key}={value}")
        return Arm(self.base.variant, tuple(on), tuple(off), tuple(opts), label=" ".join(parts))

    def arms(self) -> list[Arm]:
        return [self.arm(c) for c in self.combos]

    def columns(self) -> list[dict[str, Any]]:
        """The columns naming each cell in the per-game files."""
        return [{"cell": i + 1} | {s.key: s.values[k] for s, k in zip(self.settings, c)}
                for i, c in enumerate(self.combos)]

    def effects(self) -> list[tuple[int, int, Contrast]]:
        """(setting, value, contrast) for every value after a setting's first: the main effects."""
        index = {c: i for i, c in enumerate(self.combos)}
        out = []
        for d, s in enumerate(self.settings):
            for k in range(1, len(s.values)):
                pairs = tuple((index[c], index[c[:d] + (k,) + c[d + 1:]])
                              for c in self.combos if c[d] == 0)
                out.append((d, k, pairs))
        return out


def figures(summary: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """metric -> {value, ci95} of one cell: means for turns and bank, rates (0-1) for the rest."""
    out = {"turns": {"value": summary["turns"]["mean"], "ci95": summary["turns"]["ci95"]},
           "bank": {"value": summary["bank"]["mean"], "ci95": summary["bank"]["ci95"]}}
    for r, e in summary["ended"].items():
        if r in END_REASONS:
            out[f"ended:{r}"] = {"value": e["percent"] / 100, "ci95": [x / 100 for x in e["ci95"]]}
    for s in summary["wins"]["by_seat"]:
        out[f"seat:{s['seat']}"] = {"value": s["rate"], "ci95": s["ci95"]}
    if len(summary["wins"]["by_strategy"]) > 1:
        for s in summary["wins"]["by_strategy"]:
            out[f"strategy:{s['strategy']}"] = {"value": s["rate"], "ci95": s["ci95"]}
    return out


def sweep_summary(result: Result, grid: Grid) -> dict[str, Any]:
    """The cells with their figures and intervals, and the Holm-adjusted main effects."""
    batch = result.batch
    cells = []
    arms = []
    for i, (combo, column) in enumerate(zip(grid.combos, grid.columns())):
        s = summarize(result, i, histogram=False)
        arms.append(s)
        cells.append({"cell": i + 1, "settings": {k: v for k, v in column.items() if k != "cell"},
                      "arm": s["arm"], "max_turns": s["max_turns"], "figures": figures(s)})
        if "seat_failures" in s:
            cells[-1]["seat_failures"] = s["seat_failures"]
    effects = []
    family: list[dict[str, Any]] = []
    for (d, k, contrast), pair in zip(grid.effects(), result.pairs):
        tests = paired_tests(pair, batch)
        family += tests.values()
        setting = grid.settings[d]
        effects.append({"setting": setting.key, "value": setting.values[k],
                        "against": setting.values[0], "cells": len(contrast), "games": pair.n,
                        "tests": tests})
    adjust(family)
    return {"variant": grid.base.name, "games": batch.games, "players": batch.players,
            "seed": batch.seed, "max_turns": _limits(arms),
            "seats": [{"seat": nm, "strategy": st} for nm, st in zip(batch.names, batch.seats)],
            "settings": [{"key": s.key, "values": list(s.values)} for s in grid.settings],
            "cells": cells, "effects": effects,
            "tests": {"count": len(family), "adjustment": "Holm", "note": HOLM_NOTE}}


def metric_label(metric: str) -> str:
    kind, _, name = metric.partition(":")
    if kind == "turns":
        return "mean turns"
    if kind == "bank":
        return "mean Bank's cash"
    if kind == "ended":
        return f"% ended by {END_LABELS.get(name, name)}"
    return f"% won by {name}"


def short_label(metric: str) -> str:
    """The column heading of a figure in the cells table."""
    kind, _, name = metric.partition(":")
    if kind in ("turns", "bank"):
        return {"turns": "turns", "bank": "Bank $"}[kind]
    if kind == "ended":
        return f"% {END_LABELS.get(name, name)}"
    return f"% {name} won"


def _scaled(metric: str, x: float) -> float:
    return x if metric in ("turns", "bank") else 100 * x


def sweep_text(summary: Mapping[str, Any]) -> str:
    """The cells table and the effects table of `sweep`."""
    cells = summary["cells"]
    settings = summary["settings"]
    metrics = list(cells[0]["figures"])
    shape = " x ".join(str(len(s["values"])) for s in settings)
    lines = [f"{count(summary['games'], 'game')} in each of {count(len(cells), 'cell')} "
             f"({shape}) of {summary['variant']}, the same seeds in each (seed "
             f"{summary['seed']}), {count(summary['players'], 'player')}, "
             f"{limit_text(summary['max_turns'])}",
             f"Seats: {seats_text(summary)}",
             *seat_failure_lines([(f"cell {c['cell']}: ", c) for c in cells]), "",
             "Cells (value ± half its 95% interval)"]
    table = [["#"] + [s["key"] for s in settings] + [short_label(m) for m in metrics]]
    for c in cells:
        row = [str(c["cell"])] + [c["settings"][s["key"]] for s in settings]
        for m in metrics:
            f = c["figures"][m]
            half = (_scaled(m, f["ci95"][1]) - _scaled(m, f["ci95"][0])) / 2
            digits = 0 if m == "bank" else 1
            row.append(f"{_scaled(m, f['value']):,.{digits}f} ±{half:,.{digits}f}")
        table.append(row)
    lines += table_lines(table)
    lines += ["", "Effects: each value against the setting's first value, averaged over the "
                  "other settings, game by game"]
    table = [["setting", "value", "figure", "diff", "95% CI", "p"]]
    for e in summary["effects"]:
        for m, test in e["tests"].items():
            lo, hi = (_scaled(m, x) for x in test["ci95"])
            table.append([e["setting"], f"{e['value']} vs {e['against']}", metric_label(m),
                          f"{_scaled(m, test['mean']):+,.1f}", f"{lo:+,.1f} to {hi:+,.1f}",
                          p_text(test)])
    lines += table_lines(table)
    lines += ["",
              "diff: percentage points for the %; p: two-sided, paired over the common seeds: "
              "t-test for the means, McNemar's test",
              "for the % (its normal form for an effect averaged over several cells);",
              f"Holm-adjusted for the {count(summary['tests']['count'], 'test')} of the table;",
              "* significant at 95% after the adjustment.",
              "A win shared by k players counts 1/k to each."]
    return "\n".join(lines) + "\n"


def cells_csv_rows(summary: Mapping[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """One row per cell, for pandas: the settings, then each figure with its 95% bounds."""
    settings = [s["key"] for s in summary["settings"]]
    metrics = list(summary["cells"][0]["figures"])
    header = ["cell", *settings, "games"]
    for m in metrics:
        header += [m, f"{m}_ci95_low", f"{m}_ci95_high"]
    rows = []
    for c in summary["cells"]:
        row: list[Any] = [c["cell"], *(c["settings"][k] for k in settings), summary["games"]]
        for m in metrics:
            f = c["figures"][m]
            row += [f["value"], *f["ci95"]]
        rows.append(row)
    return header, rows


def effects_csv_rows(summary: Mapping[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """One row per effect and figure, for pandas."""
    header = ["setting", "value", "against", "metric", "diff", "ci95_low", "ci95_high", "test",
              "p", "p_holm", "significant"]
    rows = []
    for e in summary["effects"]:
        for m, t in e["tests"].items():
            rows.append([e["setting"], e["value"], e["against"], m, t["mean"], *t["ci95"],
                         t["test"], t["p"], t["p_holm"], t["significant"]])
    return header, rows


Panel = tuple[str, str, list[tuple[str, float, float, float]]]  # figure, setting, points


def plot_grid(summary: Mapping[str, Any]) -> list[list[Panel]]:
    """For each figure (a row) and setting (a column): the mean over the cells with each value,
    with the interval of the effect against the first value around it."""
    cells, effects = summary["cells"], summary["effects"]
    grid = []
    for m in cells[0]["figures"]:
        row = []
        for s in summary["settings"]:
            points = []
            base = None
            for v in s["values"]:
                members = [c["figures"][m]["value"] for c in cells if c["settings"][s["key"]] == v]
                mean = _scaled(m, float(sum(map(Fraction, members)) / len(members)))
                if base is None:
                    base = mean
                    points.append((v, mean, mean, mean))
                    continue
                test = next(e["tests"][m] for e in effects
                            if e["setting"] == s["key"] and e["value"] == v)
                lo, hi = (_scaled(m, x) for x in test["ci95"])
                centre = base + _scaled(m, test["mean"])
                points.append((v, centre, base + lo, base + hi))
            row.append((metric_label(m), s["key"], points))
        grid.append(row)
    return grid
