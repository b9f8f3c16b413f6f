"""The --plot pictures: one arm's per-space values on the board; figures against arms or settings.

`space_panels` gives the per-space values (landing share, rent) with the variant, which is all
a board drawing needs; `plot_summary` draws them as a board ring and bars.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..board.draw import matplotlib_for, plain_text
from ..engine.actions import money
from ..engine.model import Variant
from ..words import count


def require_matplotlib() -> Any:
    """matplotlib's pyplot on the Agg backend, or the one line naming the `plot` extra."""
    matplotlib_for("--plot").use("Agg")
    import matplotlib.pyplot as plt
    return plt


def space_panels(summary: Mapping[str, Any]) -> list[tuple[str, list[float]]]:
    """(title, one value per space in board order) for the board pictures of one arm."""
    spaces = summary["spaces"]
    games = max(summary["games"], 1)
    return [("landings (% of all)", [100 * s["landing_share"] for s in spaces]),
            ("rent earned per game ($)", [s["rent"] / games for s in spaces])]


def save(fig: Any, plt: Any, path: str) -> None:
    """Render in the format of `path`'s extension, then write atomically: a failed plot
    leaves no file."""
    from ..board.draw import save_figure
    try:
        save_figure(fig, path, "--plot", dpi=110)
    finally:
        plt.close(fig)


def _ring(n: int) -> list[tuple[int, int]] | None:
    """The (column, row) of each space on a square board, space 0 at the bottom right."""
    if n < 8 or n % 4:
        return None
    side = n // 4
    cells = []
    for i in range(n):
        k, j = divmod(i, side)
        cells.append([(side - j, 0), (0, j), (j, side), (side, side - j)][k])
    return cells


def plot_summary(summary: Mapping[str, Any], path: str, variant: Variant | None = None) -> None:
    """Draw `summary_figure` to `path` (.png, .svg or .pdf, by its extension)."""
    plt = require_matplotlib()
    save(summary_figure(summary, variant), plt, path)


def percent(v: float) -> str:
    return f"{v:.1f}%"


def dollars(v: float) -> str:
    return money(round(v))


@plain_text
def summary_figure(summary: Mapping[str, Any], variant: Variant | None = None) -> Any:
    """The board's spaces coloured by landing share, rent earned per space, and game lengths.

    With the variant, the boards are the drawing of `easymoney board`, once per figure, each
    space coloured by its landing share and by the rent it earned a game, the game lengths
    below them; without it (a summary read back from JSON), a ring of squares and bars.
    """
    plt = require_matplotlib()
    if variant is not None:
        from ..board.draw import heatmap_figure
        fig = heatmap_figure(variant, space_panels(summary), [percent, dollars], below=4.0)
        high = fig.get_figheight()
        _lengths(fig.add_axes((0.06, 0.6 / high, 0.88, 2.9 / high)), summary)
        return fig
    import matplotlib
    from matplotlib import cm, colors, ticker

    panels = space_panels(summary)
    spaces = summary["spaces"]
    n = len(spaces)
    fig = plt.figure(figsize=(16, 9))
    grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.25))
    board = fig.add_subplot(grid[:, 0])
    shares = [s["landing_share"] for s in spaces]
    norm = colors.Normalize(vmin=min(shares), vmax=max(shares) or 1)
    cmap = matplotlib.colormaps["YlOrRd"]
    cells = _ring(n)
    if cells is not None:
        side = n // 4
        for s, share, (x, y) in zip(spaces, shares, cells):
            board.add_patch(plt.Rectangle((x, y), 1, 1, facecolor=cmap(norm(share)),
                                          edgecolor="grey", linewidth=0.5))
            board.text(x + 0.5, y + 0.62, str(s["index"]), ha="center", va="center", fontsize=7,
                       weight="bold")
            board.text(x + 0.5, y + 0.32, percent(100 * share), ha="center", va="center",
                       fontsize=6)
        board.set_xlim(0, side + 1)
        board.set_ylim(0, side + 1)
        board.text((side + 1) / 2, (side + 1) / 2,
                   f"{summary['arm']}\n{count(summary['games'], 'game')}\n\nshare of landings\nper space",
                   ha="center", va="center", fontsize=11)
        board.set_aspect("equal")
        board.axis("off")
    else:
        board.bar(range(n), [100 * x for x in shares], color=[cmap(norm(x)) for x in shares])
        board.set_xlabel("space")
        board.set_ylabel("% of landings")
    fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=board, shrink=0.6,
                 label="share of landings",
                 format=ticker.FuncFormatter(lambda v, _: percent(100 * v)))
    bars = fig.add_subplot(grid[0, 1])
    bars.bar(range(n), panels[1][1], color=[cmap(norm(x)) for x in shares], edgecolor="grey",
             linewidth=0.3)
    bars.set_title("Rent earned per space (mean per game)")
    bars.set_xlabel("space")
    bars.set_ylabel("$ per game")
    bars.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: dollars(v)))
    bars.set_xlim(-0.5, n - 0.5)
    _lengths(fig.add_subplot(grid[1, 1]), summary)
    fig.tight_layout()
    return fig


def _lengths(ax: Any, summary: Mapping[str, Any]) -> None:
    """The histogram of game lengths (player-turns), with the mean and the median."""
    from matplotlib import ticker
    hist = summary["turns"].get("histogram", [])
    if hist:
        values = [t for t, _ in hist]
        weights = [c for _, c in hist]
        ax.hist(values, weights=weights, bins=min(40, max(1, len(values))),
                color="steelblue", edgecolor="white")
    t = summary["turns"]
    ax.axvline(t["mean"], color="black", linestyle="--", label=f"mean {t['mean']:,.0f}")
    ax.axvline(t["median"], color="darkred", linestyle=":", label=f"median {t['median']:,.0f}")
    ax.set_title("Game length")
    ax.set_xlabel("player-turns per game")
    ax.set_ylabel("games")
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.yaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    ax.legend()


Point = tuple[str, float, float, float]  # x label, value, 95% low, 95% high


def plot_figures(title: str, grid: Sequence[Sequence[tuple[str, str, Sequence[Point]]]],
                 path: str) -> None:
    """Draw `figures_figure` to `path` (.png, .svg or .pdf, by its extension)."""
    plt = require_matplotlib()
    save(figures_figure(title, grid), plt, path)


@plain_text
def figures_figure(title: str, grid: Sequence[Sequence[tuple[str, str, Sequence[Point]]]]) -> Any:
    """A grid of panels: grid[row][col] = (figure name, x axis name, points with 95% intervals),
    under `title`, wrapped to the figure's width."""
    plt = require_matplotlib()
    from matplotlib import ticker
    rows, cols = len(grid), max(len(r) for r in grid)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 2.8 * rows + 0.4), squeeze=False,
                             layout="constrained")
    for r, row in enumerate(grid):
        for c in range(cols):
            ax = axes[r][c]
            if c >= len(row):
                ax.axis("off")
                continue
            name, xname, points = row[c]
            xs = list(range(len(points)))
            ys = [p[1] for p in points]
            err = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=4, color="steelblue")
            ax.set_xticks(xs, [p[0] for p in points], fontsize=7, rotation=20 if len(points) > 3 else 0)
            ax.set_title(name, fontsize=9)
            ax.set_xlabel(xname, fontsize=8)
            ax.tick_params(axis="y", labelsize=7)
            ax.yaxis.set_major_formatter(ticker.FuncFormatter(_tick))
    # about 0.55 of a font size a character: the title wrapped to the figure's width
    chars = int(fig.get_figwidth() * 72 * 0.95 / (11 * 0.55))
    fig.suptitle("\n".join(textwrap.wrap(title, chars)), fontsize=11)
    return fig


def _tick(v: float, _: Any) -> str:
    """An axis tick: thousands separated, decimals only where the axis needs them."""
    return f"{v:,.0f}" if v == round(v) else f"{v:,.2f}".rstrip("0")
