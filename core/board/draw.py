"""The board drawn with matplotlib: the square layout, a game's state on it, or heat maps."""

from __future__ import annotations

import functools
import io
import os
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, cast

from ..engine.actions import money
from ..engine.model import Space, Variant
from ..errors import UsageError
from ..outputs import Input, check_target, write_atomically
from .layout import CORNER, Cell, board_size, layout
from .state import BoardState

FORMATS = ("png", "svg", "pdf")
INCHES = 11.0  # one board's width and height
# the colour band of each kind of space; other kinds (from plugins) take grey
KIND_COLOURS = {"street": "#c8a165", "utility": "#7fb3d5", "commercial": "#a98bd1",
                "legend": "#f4d35e", "draw": "#f29e4c", "hospital": "#e05a5a",
                "bonus": "#6abf69", "traffic_light": "#d7263d"}
OTHER_KIND = "#b0b0b0"
PLAYER_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                  "#e377c2", "#17becf")
INSTALL_PLOT = "pip install 'easymoney-game[plot]'"


def player_colour(k: int) -> str:
    return PLAYER_COLOURS[k % len(PLAYER_COLOURS)]


Draw = TypeVar("Draw", bound=Callable[..., Any])


def plain_text(draw: Draw) -> Draw:
    """Run `draw` with every text it makes plain: a `$` in a space's name is a dollar, never
    matplotlib's math (`Pay $\\foo$ now` would fail, `$5 or $6` turn italic), and no TeX."""
    @functools.wraps(draw)
    def inside(*args: Any, **kwargs: Any) -> Any:
        matplotlib = matplotlib_for("drawing the board")
        with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
            return draw(*args, **kwargs)
    return cast(Draw, inside)


def matplotlib_for(what: str) -> Any:
    """The matplotlib module; without it (the plain install leaves it out), one line saying
    that `what` (a flag, or what is drawn) needs the `plot` extra."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError(f"{what} needs matplotlib, which is not installed: "
                         f"{INSTALL_PLOT}") from None
    return matplotlib


def _matplotlib() -> Any:
    from matplotlib.figure import Figure  # called under plain_text, which found matplotlib
    return Figure


def picture_format(path: str, what: str = "-o") -> str:
    """The format of a picture file by its extension (`png`, `svg`, `pdf`); any other
    extension is refused, naming the supported ones, before work is done."""
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise UsageError(f"{what} {path}: name a {', '.join('.' + f for f in FORMATS[:-1])} "
                         f"or .{FORMATS[-1]} file (the format follows the extension)")
    return ext


def check_path(path: str, what: str = "-o", inputs: Iterable[Input] = ()) -> str:
    """The format of an output picture, and its target checked like every other output
    (outputs.check_target, which refuses any of `inputs`): refused before any work is done."""
    ext = picture_format(path, what)
    check_target(path, what, inputs)
    return ext


@plain_text
def save_figure(fig: Any, path: str, what: str = "-o", dpi: int = 150) -> None:
    """Render `fig` in memory in the format of `path`'s extension, then write it whole by a
    rename (outputs.write_atomically): a link is replaced, never followed, and a write that
    fails leaves the old file as it was."""
    ext = picture_format(path, what)
    # no date or software stamp: the same game draws the same bytes
    meta = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None},
            "png": {"Software": None}}[ext]
    import matplotlib
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "easymoney", "svg.fonttype": "none"}):
        fig.savefig(buf, format=ext, metadata=meta, dpi=dpi)
    write_atomically(path, buf.getvalue())


def space_caption(space: Space) -> str:
    """What a cell says under the name: the price, or what the space does."""
    d = space.data
    if "price" in d:
        return money(int(d["price"]))
    if "rent" in d and isinstance(d["rent"], int):
        return f"rent {money(d['rent'])}"
    if "rent_per_dice" in d:
        return f"rent {d['rent_per_dice']} × dice"
    if "receive" in d:
        return f"get {money(int(d['receive']))}"
    if "pay" in d:
        return f"pay {money(int(d['pay']))}"
    if "amount" in d and isinstance(d["amount"], int):
        return money(int(d["amount"]))
    if "fine" in d:
        return f"fine {money(int(d['fine']))}"
    return ""


def _name_lines(name: str, cell: Cell) -> str:
    width = 11 if cell.corner else (10 if cell.edge in ("bottom", "top") and cell.w < 1.5
                                    else 22)
    return "\n".join(textwrap.wrap(name, width, break_long_words=True)[:4])


def _draw_board(ax: Any, state: BoardState, values: Sequence[float] | None = None,
                cmap: Any = None, norm: Any = None,
                value_label: Callable[[float], str] | None = None) -> None:
    from matplotlib.patches import Circle, Rectangle
    variant = state.variant
    size = board_size(variant)
    ax.set_xlim(-0.05, size + 0.05)
    ax.set_ylim(-0.05, size + 0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), size, size, facecolor="#fbf8ef", edgecolor="black", lw=1.2))
    cells = layout(variant)
    if values is not None:  # each space its own colour, so its own name and number beside it
        cells = [Cell((i,), cell.edge, cell.corner, x, y, w, h)
                 for cell in cells for i, x, y, w, h in cell.parts()]
    for cell in cells:
        space = variant.spaces[cell.indices[0]]
        if values is not None:
            i = cell.indices[0]
            ax.add_patch(Rectangle((cell.x, cell.y), cell.w, cell.h,
                                   facecolor=cmap(norm(values[i])), edgecolor="black", lw=0.5))
            ax.text(cell.x + cell.w / 2, cell.y + cell.h * 0.22, (value_label or str)(values[i]),
                    ha="center", va="center", fontsize=5.5, fontweight="bold", gid=f"value-{i}",
                    color="white" if norm(values[i]) > 0.6 else "black")
        else:
            kind_colour = KIND_COLOURS.get(space.kind, OTHER_KIND)
            # a corner is tinted by its kind; a side space has a band of it on its inner edge
            fill = _pale(kind_colour) if cell.corner else "white"
            owner = state.owner[cell.indices[0]]
            if owner is not None:
                fill = _pale(player_colour(owner))
            ax.add_patch(Rectangle((cell.x, cell.y), cell.w, cell.h, facecolor=fill,
                                   edgecolor="black", lw=0.6, gid=f"space-{cell.indices[0]}"))
            if not cell.corner:
                bx, by, bw, bh = cell.band()
                ax.add_patch(Rectangle((bx, by), bw, bh, facecolor=kind_colour,
                                       edgecolor="black", lw=0.4))
        label = space.name
        cx, cy = cell.x + cell.w / 2, cell.y + cell.h / 2
        dark = values is not None and norm(values[cell.indices[0]]) > 0.6
        name_y = cy + (0.25 if values is None else 0.15)
        ax.text(cx, name_y, _name_lines(label, cell),
                ha="center", va="center", fontsize=6 if cell.corner else 5,
                linespacing=1.0, gid=f"name-{cell.indices[0]}",
                color="white" if dark else "black")
        numbers = "–".join(str(i) for i in (cell.indices[0], cell.indices[-1])) \
            if len(cell.indices) > 1 else str(cell.indices[0])
        # the number in the outer corner, clear of the band
        nx = cell.x + cell.w - 0.06 if cell.edge == "right" else cell.x + 0.06
        ny = cell.y + cell.h - 0.06 if cell.edge == "top" else cell.y + 0.06
        ax.text(nx, ny, numbers, ha="right" if cell.edge == "right" else "left",
                va="top" if cell.edge == "top" else "bottom", fontsize=4, color="#555555",
                gid=f"number-{cell.indices[0]}")
        if values is not None:
            continue
        caption = space_caption(space)
        if caption:
            ax.text(cx, cy - 0.45, caption, ha="center", va="center", fontsize=5,
                    color="#333333")
        if not state.is_game:
            continue
        for i, x, y, w, h in cell.parts():
            if state.mortgaged[i]:
                ax.add_patch(Rectangle((x, y), w, h, facecolor="none", edgecolor="#666666",
                                       hatch="////", lw=0, gid=f"mortgaged-{i}"))
                ax.text(x + w / 2, y + h / 2 - 0.15, "MORTGAGED", ha="center", va="center",
                        fontsize=4.5, color="#aa0000", rotation=30, fontweight="bold")
            owner = state.owner[i]
            if owner is not None and state.houses[i]:
                _houses(ax, cell, state.houses[i], variant.houses_per_street,
                        player_colour(owner), i)
            men = state.men_at(i)
            # as many discs as the cell holds side by side; the last says how many more
            room = max(1, int((w if len(cell.indices) == 1 else min(w, h) - 0.1) / 0.36))
            shown = men if len(men) <= room else men[:room - 1]
            for k, p in enumerate(shown + ([-1] if len(shown) < len(men) else [])):
                mx = x + w * (k + 1) / (min(len(men), room) + 1)
                my = y + h * 0.3
                if len(cell.indices) > 1:  # a double cell's name is in its middle: MEN beside
                    # it, on the outer side (the band is on the inner one)
                    mx = x + w - 0.25 - 0.36 * k if cell.edge != "left" else x + 0.25 + 0.36 * k
                    my = y + h / 2
                more = p < 0
                ax.add_patch(Circle((mx, my), 0.17, facecolor="white" if more else
                                    player_colour(p), edgecolor="black", lw=0.6, zorder=5,
                                    gid=f"more-men-{i}" if more else f"man-{p}"))
                ax.text(mx, my, f"+{len(men) - len(shown)}" if more else
                        state.players[p].name[:1], ha="center", va="center",
                        fontsize=4 if more else 5.5, color="black" if more else "white",
                        fontweight="bold", zorder=6)


def _houses(ax: Any, cell: Cell, count: int, full: int, colour: str, index: int) -> None:
    """Houses on the band: small squares, or, for a full street (`full`, the variant's
    houses.per_street), one block marked Subdivision, written along the band."""
    from matplotlib.patches import Rectangle
    bx, by, bw, bh = cell.band()
    along = cell.edge in ("bottom", "top")
    if count >= full:
        ax.add_patch(Rectangle((bx + 0.05, by + 0.05), bw - 0.1, bh - 0.1, facecolor=colour,
                               edgecolor="black", lw=0.5, zorder=4, gid=f"houses-{index}"))
        length = (bw if along else bh) - 0.2
        size = min(4.0, 0.8 * length * _points_per_unit(ax) / _text_width("Subdivision", 1))
        ax.text(bx + bw / 2, by + bh / 2, "Subdivision", ha="center", va="center",
                fontsize=size, color="white", zorder=5, rotation=0 if along else 90,
                gid=f"subdivision-{index}")
        return
    step = (bw if along else bh) / full
    side = min(step * 0.8, (bh if along else bw) * 0.7)
    for k in range(count):
        if along:
            x, y = bx + step * (k + 0.5) - side / 2, by + (bh - side) / 2
        else:
            x, y = bx + (bw - side) / 2, by + step * (k + 0.5) - side / 2
        ax.add_patch(Rectangle((x, y), side, side, facecolor=colour, edgecolor="black",
                               lw=0.4, zorder=4, gid=f"houses-{index}-{k}"))


def _pale(colour: str) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(c + (255 - c) * 0.72):02x}" for c in (r, g, b))


def value_format(values: Sequence[float]) -> Callable[[float], str]:
    """One format for all the values of a heat map, by their size: `20,480`, `12.5`, `0.03`
    (never `2` beside `2.1`)."""
    top = max((abs(v) for v in values), default=0.0)
    digits = 0 if top >= 100 else 1 if top >= 1 else 2
    return lambda v: f"{v:,.{digits}f}"


def _points_per_unit(ax: Any) -> float:
    """How many typographic points one board unit spans in the axes (aspect equal)."""
    fig = ax.get_figure()
    box = ax.get_position()
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    return float(min(box.width * fig.get_figwidth() / (x1 - x0),
                     box.height * fig.get_figheight() / (y1 - y0)) * 72)


def _text_width(text: str, fontsize: float, bold: bool = False) -> float:
    """The width of `text` in points, as matplotlib lays it out (plain text, no math)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath
    props = FontProperties(size=fontsize, weight="bold" if bold else "normal")
    return float(TextToPath().get_text_width_height_descent(text, props, ismath=False)[0])


def _fit(text: str, most: float, room: float, bold: bool = False) -> float:
    """The font size, at most `most`, at which `text` is `room` points wide or less."""
    return min(most, room / max(_text_width(text, 1, bold), 1e-6))


def _cut(text: str, fontsize: float, room: float) -> str:
    """`text`, cut with an ellipsis to `room` points."""
    while len(text) > 1 and _text_width(text, fontsize) > room:
        text = text[:-2] + "…"
    return text


SMALLEST = 4.0  # the smallest font of the middle's table: below it, rows are left out
LINE = 1.6  # a line's height, in font sizes


def _centre(ax: Any, state: BoardState, title: str) -> None:
    """The middle of the board, laid out in the room the variant's board leaves: the name,
    the title, then the legend of kinds (an empty board) or the players' table and the pots,
    each font made to fit (a small board, long names, many players)."""
    from matplotlib.patches import Rectangle
    size = board_size(state.variant)
    ppu = _points_per_unit(ax)
    pad = 0.3
    left, right, top = CORNER + pad, size - CORNER - pad, size - CORNER - pad
    room = (right - left) * ppu  # points
    fs = _fit("EASY MONEY", 20, room, bold=True)
    y = top - fs * 0.7 / ppu
    ax.text(size / 2, y, "EASY MONEY", ha="center", va="center", fontsize=fs,
            fontweight="bold", color="#2a6f3a", gid="centre-heading")
    y -= fs * 0.7 / ppu
    fs = max(5.0, _fit(title, 9, room))
    for k, line in enumerate(textwrap.wrap(title, max(10, int(len(title) * room
                                                              / _text_width(title, fs))))):
        y -= fs * LINE / ppu
        ax.text(size / 2, y, _cut(line, fs, room), ha="center", va="center", fontsize=fs,
                gid=f"centre-title-{k}")
    y -= 9 * LINE / ppu
    height = (y - (CORNER + pad)) * ppu  # what is left below, in points
    if not state.is_game:
        kinds = sorted(_kinds(state.variant).items())
        fs = min(7.0, height / (LINE * max(1, len(kinds))),
                 _fit(max((k for k, _ in kinds), key=len), 7, room / 2))
        box = fs * 1.2 / ppu
        widest = max(_text_width(kind.replace("_", " "), fs) for kind, _ in kinds) / ppu
        x = size / 2 - (1.5 * box + widest) / 2  # the block centred: swatch, gap, name
        for k, (kind, colour) in enumerate(kinds):
            ax.add_patch(Rectangle((x, y - box / 2), box, box, facecolor=colour,
                                   edgecolor="black", lw=0.4))
            ax.text(x + 1.5 * box, y, kind.replace("_", " "), ha="left", va="center",
                    fontsize=fs, gid=f"centre-kind-{k}")
            y -= fs * LINE / ppu
        return
    _players_table(ax, state, left, right, y, height, ppu)


def _players_table(ax: Any, state: BoardState, left: float, right: float, y: float,
                   height: float, ppu: float) -> None:
    """The players (name, cash, worth, where), then the pots and the cards, from `y` down
    within `height` points: columns sized by their widest cell, the font by what fits."""
    from matplotlib.patches import Rectangle
    head = ["player", "cash", "worth", "on space"]
    rows = [[p.name + (" (bankrupt)" if p.bankrupt else ""), money(p.cash),
             "-" if p.worth is None else money(p.worth),
             "" if p.bankrupt else f"{p.position} {state.variant.spaces[p.position].name}"]
            for p in state.players]
    lines = [f"{title}: {money(cash)}" for title, cash in state.pots.items()]
    lines += [f"{text} card: {holder or 'not held'}" for text, holder in state.kept]
    lines.append(f"Give or Take cards in the pile: {state.deck}")
    if state.over:
        lines.append(f"Game over by {state.over}")
    room = (right - left) * ppu

    def widths(fs: float) -> list[float]:
        return [max([_text_width(head[c], fs, bold=True)]
                    + [_text_width(r[c], fs) for r in rows]) for c in range(4)]

    # swatch, then the four columns, with a gap of two font sizes between them
    fs = 7.0
    natural = 1.5 * fs + sum(widths(fs)) + 4 * 2 * fs
    fs = max(SMALLEST, min(fs, fs * room / natural,
                           height / (LINE * (len(rows) + len(lines) + 2))))
    shown = len(rows)
    if LINE * fs * (len(rows) + len(lines) + 2) > height:  # even the smallest font is too big
        shown = max(0, int(height / (LINE * fs)) - len(lines) - 3)
    col = widths(fs)
    x = [left + 1.5 * fs / ppu]
    for c in range(3):
        x.append(x[-1] + (col[c] + 2 * fs) / ppu)
    # the last column takes what is left: a long space name is cut
    spare = room - (x[3] - left) * ppu
    step = fs * LINE / ppu

    def put(c: int, row: int, text: str, gid: str, bold: bool = False) -> None:
        right_aligned = c in (1, 2)  # money lines up on its right edge
        at = x[c] + col[c] / ppu if right_aligned else x[c]
        ax.text(at, y, _cut(text, fs, spare) if c == 3 else text, ha="right" if right_aligned
                else "left", va="center", fontsize=fs, gid=gid,
                fontweight="bold" if bold else "normal")

    for c, text in enumerate(head):
        put(c, 0, text, f"centre-head-{c}", bold=True)
    for k, row in enumerate(rows[:shown]):
        y -= step
        box = fs * 1.2 / ppu
        ax.add_patch(Rectangle((left, y - box / 2), box, box, facecolor=player_colour(k),
                               edgecolor="black", lw=0.4))
        for c, text in enumerate(row):
            if text:
                put(c, k, text, f"centre-cell-{c}-{k}")
    if shown < len(rows):
        y -= step
        ax.text(x[0], y, f"... and {len(rows) - shown:,} more players (easymoney board "
                f"prints them all as text)", fontsize=fs, va="center", gid="centre-more")
    y -= step
    for k, line in enumerate(lines):
        y -= step
        ax.text(x[0], y, _cut(line, fs, room - (x[0] - left) * ppu), fontsize=fs,
                va="center", gid=f"centre-line-{k}")


def _kinds(variant: Variant) -> dict[str, str]:
    return {s.kind: KIND_COLOURS.get(s.kind, OTHER_KIND) for s in variant.spaces}


def draw_board(state: BoardState, path: str, title: str | None = None) -> None:
    """Draw the board (with the game on it when `state` has players) to a .png/.svg/.pdf file."""
    check_path(path)
    save_figure(board_figure(state, title), path)


@plain_text
def board_pixels(state: BoardState, dpi: int = 48) -> Any:
    """The board with the game on it as an RGB image, a numpy array (height, width, 3) of
    uint8: a learning environment's `render_mode="rgb_array"`."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    fig = board_figure(state)
    canvas = FigureCanvasAgg(fig)
    fig.set_dpi(dpi)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


@plain_text
def board_figure(state: BoardState, title: str | None = None) -> Any:
    """The matplotlib Figure of the board; each cell's artists carry a gid naming the space
    (`space-7`, `name-7`, `houses-7-0`, `mortgaged-7`, `man-0` for the first player's MAN)."""
    Figure = _matplotlib()
    fig = Figure(figsize=(INCHES, INCHES))
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
    _draw_board(ax, state)
    if title is None:
        title = state.variant.name
        if state.is_game:
            title += f", {state.when}"
    _centre(ax, state, title)
    return fig


def board_heatmaps(variant: Variant, panels: list[tuple[str, list[float]]], path: str) -> None:
    """One board per panel, side by side, each space coloured by its value (with a colour
    bar, and the value written in the cell); saved to `path` in the format of its extension."""
    check_path(path)
    save_figure(heatmap_figure(variant, panels), path)


@plain_text
def heatmap_figure(variant: Variant, panels: list[tuple[str, list[float]]],
                   formats: Sequence[Callable[[float], str]] | None = None,
                   below: float = 0.0) -> Any:
    """The Figure of `board_heatmaps`; each value's text has the gid `value-I`, written in
    its panel's format (`formats[k]`, else `value_format`). `below`: inches left free under
    the boards for more axes."""
    n = len(variant.spaces)
    if not panels:
        raise UsageError("nothing to draw: no panel of values")
    for title, values in panels:
        if len(values) != n:
            raise UsageError(f"the panel '{title}' has {len(values)} values; the board of "
                             f"{variant.name} has {n} spaces")
    Figure = _matplotlib()
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    high = INCHES + below
    fig = Figure(figsize=(INCHES * len(panels) * 1.1, high))
    cmap = colormaps["YlOrRd"]
    empty = BoardState.empty(variant)
    size = board_size(variant)
    for k, (title, values) in enumerate(panels):
        shown = formats[k] if formats is not None else value_format(values)
        ax = fig.add_axes((k / len(panels) + 0.005, (below + 0.02 * INCHES) / high,
                           0.9 / len(panels), 0.96 * INCHES / high))
        lo, hi = min(values), max(values)
        norm = Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1)
        _draw_board(ax, empty, values, cmap, norm, shown)
        room = (size - 2 * CORNER - 0.6) * _points_per_unit(ax)
        ax.text(size / 2, size / 2 + 1.5, title, ha="center", va="center",
                fontsize=_fit(title, 14, room, bold=True), fontweight="bold")
        ax.text(size / 2, size / 2 + 0.6, variant.name, ha="center", va="center",
                fontsize=_fit(variant.name, 9, room))
        bar = fig.add_axes((k / len(panels) + 0.91 / len(panels),
                            (below + 0.1 * INCHES) / high, 0.015, 0.8 * INCHES / high))
        fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=bar,
                     format=FuncFormatter(lambda v, _, shown=shown: shown(v)),
                     ticks=MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))  # round in any format
    return fig
