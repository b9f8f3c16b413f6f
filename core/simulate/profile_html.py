"""analyze --html: the profile as one self-contained HTML page, its plots embedded as PNG.

No link leaves the page (no script, no style sheet, no font from elsewhere): it can be
mailed or archived as it is. The plots carry no date or software stamp, so the same profile
gives the same bytes.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

from ..board.draw import plain_text
from .games import END_LABELS
from .plot import _lengths, require_matplotlib

COLOURS = ("steelblue", "darkorange")
# a rule's refusals beside its actions: the same hue as its variant's, lighter
PALE = ("lightsteelblue", "navajowhite")
STYLE = ("body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}"
         "img{max-width:100%;display:block;margin:.5em 0 1.5em}pre{font-size:12px;"
         "background:#f6f6f6;padding:1em;overflow-x:auto}dt{font-weight:bold}dd{margin:0 0 .5em 1em}")

Series = tuple[str, Sequence[tuple[str, float, float, float]]]  # arm, (label, value, low, high)


def _png(fig: Any) -> str:
    plt = require_matplotlib()
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format="png", metadata={"Software": None}, dpi=100)
    finally:
        plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


@plain_text
def _points(title: str, unit: str, series: Sequence[Series], reference: float | None = None,
            horizontal: bool = False, colours: Sequence[str] = COLOURS) -> Any:
    """Each series' values with their 95% intervals, side by side per label."""
    plt = require_matplotlib()
    labels = [label for label, *_ in series[0][1]]
    height = max(2.6, 0.32 * len(labels) + 1.2) if horizontal else 3.4
    fig, ax = plt.subplots(figsize=(8, height), layout="constrained")
    width = 0.8 / len(series)
    for k, (arm, points) in enumerate(series):
        pos = [i + (k - (len(series) - 1) / 2) * width for i in range(len(points))]
        values = [p[1] for p in points]
        err = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
        if horizontal:
            ax.barh(pos, values, height=width, xerr=err, capsize=3,
                    color=colours[k % len(colours)], label=arm)
        else:
            ax.bar(pos, values, width=width, yerr=err, capsize=3,
                   color=colours[k % len(colours)], label=arm)
    if horizontal:
        ax.set_yticks(range(len(labels)), labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        if reference is not None:
            ax.axvline(reference, color="grey", linestyle="--", linewidth=1)
    else:
        ax.set_xticks(range(len(labels)), labels, fontsize=8, rotation=15 if len(labels) > 4 else 0)
        ax.set_ylabel(unit)
        if reference is not None:
            ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
    from matplotlib import ticker
    thousands = ticker.FuncFormatter(lambda v, _: f"{v:,.0f}" if abs(v) >= 100 else f"{v:g}")
    (ax.xaxis if horizontal else ax.yaxis).set_major_formatter(thousands)
    ax.set_title(title + " (bars: 95% intervals)", fontsize=10)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return fig


@plain_text
def _distributions(profiles: Sequence[Mapping[str, Any]]) -> Any:
    """Game lengths, lead changes and when the winner took the lead for good."""
    plt = require_matplotlib()
    fig, axes = plt.subplots(len(profiles), 3, figsize=(12, 3.2 * len(profiles)),
                             layout="constrained", squeeze=False)
    for row, p in zip(axes, profiles):
        _lengths(row[0], {"turns": p["length"]["turns"]})
        row[0].set_title(f"{p['arm']}: game length", fontsize=10)
        hist = p["lead"]["changes_histogram"]
        row[1].bar([k for k, _ in hist], [c for _, c in hist], color="steelblue")
        row[1].set_title(f"{p['arm']}: lead changes a game", fontsize=10)
        row[1].set_xlabel("lead changes")
        row[1].set_ylabel("games")
        deciles = p["lead"]["decided_deciles"]
        row[2].bar([10 * d + 5 for d in range(len(deciles))], deciles, width=9, color="darkorange")
        row[2].set_title(f"{p['arm']}: the winner leads for good from", fontsize=10)
        row[2].set_xlabel("% of the game's player-turns")
        row[2].set_ylabel("games")
    return fig


def _series(profiles: Sequence[Mapping[str, Any]], points: Any) -> list[Series]:
    return [(p["arm"], points(p)) for p in profiles]


def _aligned(labels: Sequence[str], by: Mapping[str, Sequence[float]]
             ) -> list[tuple[str, float, float, float]]:
    """(label, value, low, high) for each label, 0 where this profile has none (a kind of
    payment, a rule, that the other variant alone has)."""
    rows = []
    for k in labels:
        value, lo, hi = by.get(k, (0.0, 0.0, 0.0))
        rows.append((k, value, lo, hi))
    return rows


def plots(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(caption, base64 PNG) of each plot of a profile or of two side by side."""
    profiles = summary.get("profiles") or [summary]
    first = profiles[0]
    out = [("Length, lead changes and when the game is decided", _png(_distributions(profiles)))]
    out.append(("How games end", _png(_points("How games end", "% of games", _series(
        profiles, lambda p: [(END_LABELS.get(r, r), e["percent"], *e["ci95"])
                             for r, e in p["ended"].items()])))))
    out.append(("Each seat's win rate against parity", _png(_points(
        "Win rate by seat", "% of games", _series(profiles, lambda p: [
            (f"{s['seat']} {s['strategy']}", 100 * s["rate"], 100 * s["ci95"][0],
             100 * s["ci95"][1]) for s in p["wins"]["by_seat"]]), reference=first["wins"]["parity"]))))
    kinds = list(dict.fromkeys(f["kind"] for p in profiles for f in p["flows"]))
    if kinds:
        out.append(("Money flows per game by payment kind", _png(_points(
            "Dollars paid per game by kind", "$ per game", _series(profiles, lambda p: _aligned(
                kinds, {f["kind"]: (f["per_game"]["mean"], *f["per_game"]["ci95"])
                        for f in p["flows"]})), horizontal=True))))
    rules = [r["rule"] for r in first["rules"]]
    if rules:
        # acted and refused side by side, as the text gives them: a rule that only refuses
        # (R13's four sides, which sets the game's length) is not drawn as doing nothing
        series: list[Series] = []
        colours: list[str] = []
        for k, p in enumerate(profiles):
            name = f"{p['arm']}: " if len(profiles) > 1 else ""
            series.append((name + "acted", _aligned(rules, {
                r["rule"]: (r["percent"], *r["ci95"]) for r in p["rules"]})))
            series.append((name + "refused", _aligned(rules, {
                r["rule"]: (r["refused_percent"], *r["refused_ci95"]) for r in p["rules"]})))
            colours += [COLOURS[k % 2], PALE[k % 2]]
        out.append(("Rules' activity: the share of games in which each rule acted, and in "
                    "which it refused a candidate", _png(_points(
                        "Games in which the rule acted or refused", "% of games", series,
                        horizontal=True, colours=colours))))
    spaces = [s for s in first["spaces"] if s["return"] is not None]
    if spaces:
        names = [f"{s['index']} {s['name']}" for s in spaces]

        def returns(p: Mapping[str, Any]) -> list[tuple[str, float, float, float]]:
            by = {s["index"]: s for s in p["spaces"]}
            rows = []
            for s, name in zip(spaces, names):
                o = by.get(s["index"])
                if o is None or o["return"] is None:
                    rows.append((name, 0.0, 0.0, 0.0))
                else:
                    lo, hi = o["ci95"] or (o["return"], o["return"])
                    rows.append((name, o["return"], lo, hi))
            return rows
        out.append(("Each space's return on its price", _png(_points(
            "Rent earned / what owners paid", "return", _series(profiles, returns),
            reference=1.0, horizontal=True))))
    ladder = summary.get("ladder") or []
    if ladder:
        arms = [a["arm"] for a in ladder[0]["arms"]]
        series = [(arm, [(f"{r['first']} vs {r['second']}", r["arms"][k]["share"],
                          *r["arms"][k]["ci95"]) for r in ladder]) for k, arm in enumerate(arms)]
        out.append(("Skill ladder: the share won by the second strategy (seats swapped)",
                    _png(_points("Share of games won by the second strategy", "% of games",
                                 series, reference=50.0))))
    return out


def profile_html(summary: Mapping[str, Any], text: str) -> str:
    """The whole page: the plots, the report as the terminal shows it, the definitions."""
    profiles = summary.get("profiles") or [summary]
    title = "Profile of " + " against ".join(p["arm"] for p in profiles)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>",
             f"<p>{profiles[0]['games']:,} games a variant, {profiles[0]['players']} players, "
             f"seed {profiles[0]['seed']}; every figure with its 95% interval. Made by "
             f"<code>easymoney analyze</code>.</p>"]
    for caption, png in plots(summary):
        parts += [f"<h2>{html.escape(caption)}</h2>",
                  f'<img alt="{html.escape(caption)}" src="data:image/png;base64,{png}">']
    parts += ["<h2>The figures</h2>", f"<pre>{html.escape(text)}</pre>", "<h2>Definitions</h2>",
              "<dl>"]
    for key, note in summary.get("notes", {}).items():
        parts.append(f"<dt>{html.escape(key)}</dt><dd>{html.escape(note)}</dd>")
    parts += ["</dl>", "</body></html>"]
    return "\n".join(parts) + "\n"
