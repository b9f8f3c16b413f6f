"""The figures of a run as JSON-ready data, and as the tables the terminal shows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..engine.actions import money
from ..words import count, noun
from .arms import Batch
from .games import END_LABELS, END_REASONS, PairStats, metric_names
from .runner import Result
from .stats import adjust, mcnemar, mean_interval, paired_t, turn_figures, wilson

HOLM_NOTE = "p-values are Holm-adjusted for the number of tests in the table"


def summarize(result: Result, arm: int = 0, *, histogram: bool = True) -> dict[str, Any]:
    """The summary of one arm as JSON-ready data (what `simulate` prints and writes)."""
    s, batch, variant, a = result.stats[arm], result.batch, result.variants[arm], result.arms[arm]
    n = s.games
    reasons = list(END_REASONS) + sorted(r for r in s.ended if r not in END_REASONS)
    seats = []
    for i, (name, strategy) in enumerate(zip(batch.names, batch.seats)):
        wins = float(s.seat_wins[i])
        lo, hi = wilson(wins, n)
        seats.append({"seat": name, "strategy": strategy, "wins": wins,
                      "rate": wins / n if n else 0.0, "ci95": [lo, hi],
                      "mean_worth": s.worth[i] / n if n else 0.0})
    strategies = []
    for strategy in batch.strategy_order:
        idx = [i for i, st in enumerate(batch.seats) if st == strategy]
        wins = float(sum((s.seat_wins[i] for i in idx), Fraction(0)))
        lo, hi = wilson(wins, n)
        strategies.append({"strategy": strategy, "seats": len(idx), "wins": wins,
                           "rate": wins / n if n else 0.0, "parity": len(idx) / batch.players,
                           "ci95": [lo, hi]})
    landings = sum(s.landings)
    spaces = []
    for sp in variant.spaces:
        i = sp.index
        spaces.append({"index": i, "name": sp.name, "kind": sp.kind, "landings": s.landings[i],
                       "landing_share": s.landings[i] / landings if landings else 0.0,
                       "rent": s.rent[i], "paid": s.paid[i],
                       "return": s.rent[i] / s.paid[i] if s.paid[i] else None})
    turns = turn_figures(s.turns)
    if histogram:
        turns["histogram"] = [[t, s.turns[t]] for t in sorted(s.turns)]
    bank = mean_interval(n, s.bank, s.bank_sq)
    out = {
        "arm": a.name, "variant": variant.name,
        "rules": {"with": list(a.enable), "without": list(a.disable), "options": list(a.options)},
        "games": n, "players": batch.players, "seed": batch.seed,
        "max_turns": batch.turn_limit(variant),
        "seats": [{"seat": nm, "strategy": st} for nm, st in zip(batch.names, batch.seats)],
        "player_turns": s.player_turns,
        "ended": {r: {"games": s.ended.get(r, 0), "percent": 100 * s.ended.get(r, 0) / n if n else 0.0,
                      "ci95": [100 * x for x in wilson(s.ended.get(r, 0), n)]}
                  for r in reasons},
        "turns": turns,
        "bank": {"mean": bank["mean"], "ci95": bank["ci95"],
                 "note": "the Bank's cash at the end of the game"},
        "wins": {"note": "a win shared by k players counts 1/k for each of them; "
                         "intervals are 95% Wilson score intervals",
                 "shared_games": s.shared, "games_without_winner": s.no_winner,
                 "by_seat": seats, "by_strategy": strategies},
        "landings": landings,
        "spaces": spaces,
    }
    if s.seat_failures:  # programs at seats that failed (core/seats.py); absent otherwise
        strategy_of = dict(zip(batch.names, batch.seats))
        out["seat_failures"] = [
            {"seat": seat, "strategy": strategy_of.get(seat, ""), "problem": problem, "games": k}
            for (seat, problem), k in sorted((tuple(key.split(" ", 1)), k)
                                             for key, k in s.seat_failures.items())]
    return out


def seat_failure_lines(summaries: Sequence[tuple[str, Mapping[str, Any]]]) -> list[str]:
    """A line per seat program that failed, per arm (`label` before it when there are arms)."""
    lines = []
    for label, summary in summaries:
        for f in summary.get("seat_failures", ()):
            lines.append(f"  {label}{f['seat']} {f['strategy']}: {f['problem']} in "
                         f"{count(f['games'], 'game')} (the seat played its fallback from there)")
    return ["Seat programs that failed:"] + lines if lines else []


def tested_metrics(batch: Batch) -> list[str]:
    """The metrics with a test in a comparison table (one strategy's win share tells nothing)."""
    names = metric_names(batch)
    if len(batch.strategy_order) < 2:
        names = [m for m in names if not m.startswith("strategy:")]
    return names


def paired_tests(pair: PairStats, batch: Batch) -> dict[str, dict[str, Any]]:
    """The test of each metric over one contrast's per-game differences (not yet adjusted)."""
    names = metric_names(batch)
    tests = {}
    for name in tested_metrics(batch):
        k = names.index(name)
        if name in ("turns", "bank"):
            tests[name] = paired_t(pair.n, pair.sum[k], pair.sq[k])
        else:
            tests[name] = mcnemar(pair.n, pair.sum[k], pair.sq[k], pair.fractional[k])
    return tests


def compare_summary(result: Result) -> dict[str, Any]:
    """Every arm's summary and, for each arm after the first, the paired tests against it."""
    batch = result.batch
    arms = [summarize(result, i, histogram=False) for i in range(len(result.arms))]
    for a in arms:
        del a["spaces"]
    differences = []
    family: list[dict[str, Any]] = []
    for j, pair in enumerate(result.pairs, start=1):
        tests = paired_tests(pair, batch)
        family += tests.values()
        differences.append({"arm": result.arms[j].name, "against": result.arms[0].name,
                            "games": pair.n, "tests": tests})
    adjust(family)
    return {"games": batch.games, "players": batch.players, "seed": batch.seed,
            "max_turns": _limits(arms),
            "seats": [{"seat": nm, "strategy": st} for nm, st in zip(batch.names, batch.seats)],
            "arms": arms, "differences": differences,
            "tests": {"count": len(family), "adjustment": "Holm", "note": HOLM_NOTE}}


def _limits(arms: Sequence[Mapping[str, Any]]) -> int | list[int]:
    limits = [a["max_turns"] for a in arms]
    return limits[0] if len(set(limits)) == 1 else limits


def limit_text(limit: int | Sequence[int]) -> str:
    if isinstance(limit, int):
        return f"at most {count(limit, 'turn')} a game"
    return f"at most {min(limit):,} to {max(limit):,} turns a game (by arm)"


# --- in words ----------------------------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: float) -> str:
    return f"{x:,.1f}" if x != int(x) else f"{int(x):,}"


def seats_text(summary: Mapping[str, Any]) -> str:
    return ", ".join(f"{s['seat']} {s['strategy']}" for s in summary["seats"])


def summary_text(summary: Mapping[str, Any], top: int = 10) -> str:
    """The summary of `simulate` as the terminal shows it."""
    n = summary["games"]
    rules = summary["rules"]
    changes = ([f"+{r}" for r in rules["with"]] + [f"-{r}" for r in rules["without"]]
               + [f"@{o}" for o in rules["options"]])
    lines = [f"{count(n, 'game')} of {summary['variant']}{' (' + ' '.join(changes) + ')' if changes else ''}"
             f", {count(summary['players'], 'player')}, seed {summary['seed']}, "
             f"{limit_text(summary['max_turns'])}",
             f"Seats: {seats_text(summary)}",
             *seat_failure_lines([("", summary)]),
             f"Player-turns played: {summary['player_turns']:,}", "", "How the games ended"]
    for reason, e in summary["ended"].items():
        lines.append(f"  {END_LABELS.get(reason, reason):<12} {e['percent']:5.1f}%  "
                     f"{e['games']:>{len(f'{n:,}')},} {noun(e['games'], 'game')}")
    t = summary["turns"]
    b = summary["bank"]
    lines += ["", f"Turns per game: mean {t['mean']:,.1f}, median {_num(t['median'])}, "
                  f"90th percentile {t['p90']:,} (shortest {t['min']:,}, longest {t['max']:,})",
              f"The Bank's cash at the end: mean {money(round(b['mean']))} "
              f"(95% CI {money(round(b['ci95'][0]))} to {money(round(b['ci95'][1]))})",
              "", "Wins (95% Wilson intervals; a win shared by k players counts 1/k to each)"]
    w = summary["wins"]
    strat_w = max(8, *(len(s["strategy"]) for s in w["by_strategy"]))
    lines.append(f"  {'seat':<5} {'strategy':<{strat_w}} {'wins':>8} {'rate':>6}  "
                 f"{'95% CI':<15}  {'mean final worth':>16}")
    for s in w["by_seat"]:
        lo, hi = s["ci95"]
        lines.append(f"  {s['seat']:<5} {s['strategy']:<{strat_w}} {_num(s['wins']):>8} "
                     f"{_pct(s['rate']):>6}  {_pct(lo) + '-' + _pct(hi):<15}  "
                     f"{money(round(s['mean_worth'])):>16}")
    lines.append(f"  {'by strategy':<{strat_w + 6}} {'wins':>8} {'share':>6}  {'95% CI':<15}  "
                 f"{'seats':>5} (parity)")
    for s in w["by_strategy"]:
        lo, hi = s["ci95"]
        lines.append(f"  {s['strategy']:<{strat_w + 6}} {_num(s['wins']):>8} {_pct(s['rate']):>6}  "
                     f"{_pct(lo) + '-' + _pct(hi):<15}  {s['seats']:>5} ({_pct(s['parity'])})")
    lines.append(f"  {count(w['shared_games'], 'game')} had a shared win"
                 + (f"; {w['games_without_winner']:,} had no winner" if w["games_without_winner"] else ""))
    spaces = sorted(summary["spaces"], key=lambda s: (-s["rent"], s["index"]))[:top]
    if spaces:
        width = max(len(s["name"]) for s in spaces)
        lines += ["", f"Spaces: the {len(spaces)} that earned the most rent "
                      f"(all {len(summary['spaces'])} with --json)",
                  f"  {'#':>2}  {'space':<{width}}  {'landings':>8}  {'rent earned':>13}  "
                  f"{'paid by owners':>14}  {'return':>6}"]
        for s in spaces:
            ret = "-" if s["return"] is None else f"{s['return']:.2f}"
            lines.append(f"  {s['index']:>2}  {s['name']:<{width}}  {_pct(s['landing_share']):>8}  "
                         f"{money(s['rent']):>13}  {money(s['paid']):>14}  {ret:>6}")
        lines += ["  landings: share of all landings; return: rent earned / what owners paid",
                  "  (purchase price or winning bid, plus houses built)"]
    return "\n".join(lines) + "\n"


def figure_rows(summary: Mapping[str, Any], arms: Sequence[Mapping[str, Any]]
                ) -> list[tuple[str, str, list[float], bool]]:
    """(label, metric, value per arm, is a rate) for each compared figure."""
    rows: list[tuple[str, str, list[float], bool]] = [
        ("mean turns", "turns", [a["turns"]["mean"] for a in arms], False),
        ("median turns", "", [a["turns"]["median"] for a in arms], False),
        ("90th percentile turns", "", [a["turns"]["p90"] for a in arms], False),
        ("mean Bank's cash at the end", "bank", [a["bank"]["mean"] for a in arms], False)]
    for r in END_REASONS:
        rows.append((f"% ended by {END_LABELS[r]}", f"ended:{r}",
                     [a["ended"].get(r, {"percent": 0.0})["percent"] for a in arms], True))
    for i, seat in enumerate(summary["seats"]):
        rows.append((f"% won by {seat['seat']} ({seat['strategy']})", f"seat:{seat['seat']}",
                     [100 * a["wins"]["by_seat"][i]["rate"] for a in arms], True))
    strategies = arms[0]["wins"]["by_strategy"]
    if len(strategies) > 1:
        for i, st in enumerate(strategies):
            rows.append((f"% won by {st['strategy']}", f"strategy:{st['strategy']}",
                         [100 * a["wins"]["by_strategy"][i]["rate"] for a in arms], True))
    return rows


def p_text(test: Mapping[str, Any]) -> str:
    p = test["p_holm"]
    return ("<0.001" if p < 0.001 else f"{p:.3f}") + (" *" if test["significant"] else "")


def table_lines(table: list[list[str]]) -> list[str]:
    """Rows of cells: the first column left-aligned, the others right-aligned."""
    widths = [max(len(row[c]) for row in table) for c in range(len(table[0]))]
    out = []
    for row in table:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        out.append("  ".join(cells).rstrip())
    return out


def _short(label: str, width: int = 40) -> str:
    """An arm's label as a column heading: a long SPEC is cut (the JSON keeps it whole)."""
    return label if len(label) <= width else label[:width - 3] + "..."


def compare_text(summary: Mapping[str, Any]) -> str:
    """The side-by-side table of `compare`."""
    arms = summary["arms"]
    diffs = summary["differences"]
    first = arms[0]["arm"]
    header = ["figure"] + [_short(arms[0]["arm"])]
    for a in arms[1:]:
        header += [_short(a["arm"]), "diff", "p"]
    table = [header]
    for label, metric, values, rate in figure_rows(summary, arms):
        cells = [label, f"{values[0]:,.1f}"]
        for j, value in enumerate(values[1:]):
            cells.append(f"{value:,.1f}")
            if metric:
                test = diffs[j]["tests"][metric]
                cells += [f"{test['mean'] * (100 if rate else 1):+,.1f}", p_text(test)]
            else:
                cells += [f"{value - values[0]:+,.1f}", ""]
        table.append(cells)
    lines = [f"{count(summary['games'], 'game')} on each of {len(arms)} arms, the same seeds on each "
             f"(seed {summary['seed']}), {count(summary['players'], 'player')}, "
             f"{limit_text(summary['max_turns'])}",
             f"Seats: {seats_text(summary)}",
             *seat_failure_lines([(f"{a['arm']}: ", a) for a in arms]), ""]
    lines += table_lines(table)
    lines += ["",
              f"diff: the arm minus {_short(first)} (percentage points for the %); p: two-sided, over the "
              f"common seeds:",
              f"paired t-test for the means, McNemar's test for the %; Holm-adjusted for the "
              f"{count(summary['tests']['count'], 'test')} of the table;",
              "* significant at 95% after the adjustment. A win shared by k players counts 1/k "
              "to each."]
    return "\n".join(lines) + "\n"
