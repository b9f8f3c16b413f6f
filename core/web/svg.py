"""The board as SVG text for a page: the square layout and a game's state, every name escaped.

The same cells as `easymoney board` (board/layout.py) and the same state (BoardState); a
kind of space the page does not know (a plugin's) is drawn plainly, grey, with its name.
The drawing has a `viewBox` and no size of its own: the page's CSS makes it fill the space
it has, so its text sizes are chosen for the board seen at about 640 pixels (a 1024×700
window), a price then about 11 pixels tall. Names wrap on word boundaries, in a size that
fits their longest word; the MEN stand beside the price, never on it. Each space has a
spot for MEN (`circle.spot`, its `data-index`) and the centre an empty `g.dice`, which the
page's script (static/board.js) uses to show the throw and move a MAN space by space.
"""

from __future__ import annotations

import functools
import textwrap
from html import escape
from typing import TYPE_CHECKING

from ..board.draw import KIND_COLOURS, OTHER_KIND, player_colour, space_caption
from ..board.layout import CORNER, Cell, board_size, layout
from ..board.state import BoardState
from ..engine.actions import money

if TYPE_CHECKING:
    from ..engine.model import Variant

UNIT = 60  # viewBox units per board unit: a side's cell is 60 wide and 120 deep
BAND = 0.32  # the kind band's depth, in board units (layout.Cell.band's default)
GLYPH = 0.56  # the width of an average sans-serif character, in font sizes
NAME_SIZE, NAME_LEAST = 13.0, 9.5  # a name's font size, and the least it shrinks to fit
PRICE_SIZE = 17.0  # about 11 pixels on a board 640 pixels wide
NUMBER_SIZE = 10.0
MAN_RADIUS = 10.0  # a MAN; 8 when three or more share a narrow cell
NARROW_NAME = 0.45  # the share of a narrow cell's height its name may take
YOU = "  (you)"  # after the line of the player of the person looking


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())


class _Canvas:
    """Board units (y up, from the bottom left) to SVG's (y down), and its elements."""

    def __init__(self, state: BoardState) -> None:
        self.size = board_size(state.variant)

    @classmethod
    def sized(cls, size: float) -> _Canvas:
        canvas = cls.__new__(cls)
        canvas.size = size
        return canvas

    def x(self, x: float) -> float:
        return x * UNIT

    def y(self, y: float) -> float:
        return (self.size - y) * UNIT

    def rect(self, x: float, y: float, w: float, h: float, **attrs: str) -> str:
        return (f'<rect x="{self.x(x):.1f}" y="{self.y(y + h):.1f}" width="{w * UNIT:.1f}" '
                f'height="{h * UNIT:.1f}"{_attrs(attrs)}/>')


def _text(x: float, y: float, text: str, size: float, anchor: str = "middle",
          **attrs: str) -> str:
    """Text at SVG point (x, y), its middle on y."""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" text-anchor="{anchor}" '
            f'dominant-baseline="central"{_attrs(attrs)}>{escape(text)}</text>')


def wrap_name(name: str, width: float, height: float, size: float = NAME_SIZE,
              least: float = NAME_LEAST) -> tuple[list[str], float]:
    """`name` in lines broken between words only (never `Interurba/n`), in the largest size
    from `size` down to `least` at which its longest word fits `width` and its lines fit
    `height` (1.15 sizes a line); at the least size, a word longer than the width stays whole."""
    words = name.split() or [""]
    while True:
        per_line = max(1, int(width / (GLYPH * size)))
        lines = textwrap.wrap(name, per_line, break_long_words=False,
                              break_on_hyphens=False) or [""]
        fits = max(len(w) for w in words) <= per_line and len(lines) * size * 1.15 <= height
        if fits or size <= least:
            return lines, size
        size = max(least, size - 0.5)


def _fit(text: str, width: float, size: float) -> float:
    """The size at most `size` at which `text` on one line fits `width`."""
    return min(size, width / max(1, GLYPH * len(text)))


def board_svg(state: BoardState, *, me: str | None = None) -> str:
    """The whole board, with the state of the game on it when there is one; `me`: the
    seat of the person looking, marked in the centre."""
    variant = state.variant
    canvas = _Canvas(state)
    px = canvas.size * UNIT
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {px:.0f} {px:.0f}" '
           f'class="board" role="img" aria-label="{escape(variant.name)} board" '
           # the widths of Arial's letters, which its look-alikes share, are those GLYPH counts on
           'font-family="Arial, Helvetica, \'Liberation Sans\', Arimo, sans-serif">',
           '<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="8" stroke="#900" '
           'stroke-width="2.5"/></pattern></defs>',
           canvas.rect(0, 0, canvas.size, canvas.size, fill="#fbf8ef", stroke="#333")]
    spots: list[str] = []
    men: list[str] = []
    for cell in _layout(variant):
        out.append(_cell(state, canvas, cell, spots, men))
    out.extend(_centre(state, canvas, me))
    out.append('<g class="spots">' + "".join(spots) + "</g>")
    out.append('<g class="men">' + "".join(men) + "</g>")
    out.append("</svg>")
    return "\n".join(out)


def _cell(state: BoardState, canvas: _Canvas, cell: Cell, spots: list[str],
          men: list[str]) -> str:
    """One cell: its spaces' frames, kind band, names, numbers, prices, and the state on it;
    its spots and MEN go to `spots` and `men`."""
    space = state.variant.spaces[cell.indices[0]]
    marks = None
    if state.is_game:
        marks = tuple((state.mortgaged[i], owner, None if owner is None else
                       state.players[owner].name, state.houses[i])
                      for i in cell.indices for owner in (state.owner[i],))
    spots.append(_spots(canvas.size, cell))
    if state.is_game:
        for i, x, y, w, h in cell.parts():
            here = state.men_at(i)
            if not here:
                continue
            sx, sy = _spot(canvas, cell, x, y, w, h)
            for k, p in enumerate(here):
                mx, my = _beside(sx, sy, k, len(here), cell)
                name = state.players[p].name
                men.append(f'<g class="man" data-player="{escape(name)}" data-index="{i}" '
                           f'transform="translate({mx:.1f} {my:.1f})">'
                           f'<title>{escape(name)}</title>'
                           f'<circle r="{_radius(len(here), cell)}" fill="{player_colour(p)}" '
                           'stroke="#111" '
                           'stroke-width="1.5"/>'
                           + _text(0, 0.5, name[:1], 12, fill="white", font_weight="bold")
                           + "</g>")
    return _framed(canvas.size, cell, space.name, space.kind, space_caption(space), marks)


# A table's board is drawn at each step, and most cells are as they were (its MEN aside):
# a cell is made once for each state it is seen in (most of a drawing's cost is wrapping
# the names); its MEN are placed at each drawing.
@functools.lru_cache(maxsize=4096)
def _framed(size: float, cell: Cell, name: str, kind: str, caption: str,
            marks: tuple[tuple[bool, int | None, str | None, int], ...] | None) -> str:
    """A cell's group: its frame, filled in its owner's colour, its words, and `marks` (for
    each of its spaces: mortgaged, owner, owner's name, houses; None: no game)."""
    canvas = _Canvas.sized(size)
    kind_colour = KIND_COLOURS.get(kind, OTHER_KIND)
    owner = marks[0][1] if marks is not None else None
    fill = "white"
    if cell.corner:
        fill = kind_colour + "55"
    if owner is not None:
        fill = player_colour(owner) + "30"
    out = [f'<g class="space" data-index="{cell.indices[0]}" data-kind="{escape(kind)}">'
           f'<title>{escape(name)} ({escape(kind)})</title>',
           canvas.rect(cell.x, cell.y, cell.w, cell.h, fill=fill, stroke="#333",
                       stroke_width="1"),
           _words(size, cell, name, kind_colour, caption)]
    if marks is not None:
        out.extend(_marks(canvas, cell, marks))
    out.append("</g>")
    return "\n".join(out)


_LAYOUTS: dict[int, tuple[Variant, list[Cell]]] = {}  # by id: the variant is held with it


def _layout(variant: Variant) -> list[Cell]:
    """layout(variant), made once a variant (a game's variant is one object all game)."""
    held = _LAYOUTS.get(id(variant))
    if held is None or held[0] is not variant:
        if len(_LAYOUTS) >= 64:
            _LAYOUTS.clear()
        held = _LAYOUTS[id(variant)] = (variant, layout(variant))
    return held[1]


# A cell's words and spots are the same at every step of a game and in every game of its
# variant: a table's board is drawn at each step, so they are made once (most of a
# drawing's cost is wrapping the names).
@functools.lru_cache(maxsize=4096)
def _words(size: float, cell: Cell, name: str, kind_colour: str, caption: str) -> str:
    """The kind band, the name, the caption and the number of a cell, in SVG text."""
    canvas = _Canvas.sized(size)
    first = cell.indices[0]
    out = []
    if not cell.corner:
        out.append(canvas.rect(*cell.band(BAND), fill=kind_colour, stroke="#333",
                               stroke_width="0.6"))
    box = _text_box(canvas, cell)  # the part of the cell the words go in, SVG units
    left, top, width, height = box
    number = str(first) if len(cell.indices) == 1 else f"{first}–{cell.indices[-1]}"
    if cell.corner:
        lines, fitted = wrap_name(name, width - 8, height * 0.45, 17, 12)
        out += _lines(lines, fitted, left + width / 2, top + 8, "middle", "name")
        if caption:
            out.append(_text(left + width / 2, top + height * 0.58, caption,
                             _fit(caption, width - 8, PRICE_SIZE), class_="price",
                             font_weight="600"))
        out.append(_text(left + 4, top + height - 6, number, NUMBER_SIZE, "start",
                         fill="#666", class_="number"))
    else:
        horizontal = cell.edge in ("bottom", "top")  # a narrow cell: words above the price
        name_height = height * (NARROW_NAME if horizontal else 0.55)
        # a wide cell keeps its right end for the MEN (and the number, over them)
        lines, fitted = wrap_name(name, width - (6 if horizontal else 2 * MAN_RADIUS + 12),
                                  name_height)
        out += _lines(lines, fitted, left + width / 2 if horizontal else left + 4, top + 2,
                      "middle" if horizontal else "start", "name")
        if caption:
            price_size = _fit(caption, width - 6 if horizontal else width * 0.55, PRICE_SIZE)
            if horizontal:
                out.append(_text(left + width / 2, top + height - price_size * 0.7, caption,
                                 price_size, class_="price", font_weight="600"))
            else:
                out.append(_text(left + 4, top + height - price_size * 0.7, caption,
                                 price_size, "start", class_="price", font_weight="600"))
        out.append(_text(left + width - 2, top + height - 5 if horizontal else top + 7,
                         number, NUMBER_SIZE * 0.9, "end", fill="#777", class_="number"))
    return "\n".join(out)


@functools.lru_cache(maxsize=4096)
def _spots(size: float, cell: Cell) -> str:
    """The spots where the MEN of the cell's spaces stand (board.js walks a MAN over them)."""
    canvas = _Canvas.sized(size)
    out = []
    for i, x, y, w, h in cell.parts():
        sx, sy = _spot(canvas, cell, x, y, w, h)
        out.append(f'<circle class="spot" data-index="{i}" cx="{sx:.1f}" cy="{sy:.1f}" '
                   'r="0" fill="none"/>')
    return "".join(out)


def _text_box(canvas: _Canvas, cell: Cell) -> tuple[float, float, float, float]:
    """(left, top, width, height) in SVG units of the cell without its kind band."""
    x, y, w, h = cell.x, cell.y, cell.w, cell.h
    if not cell.corner:
        if cell.edge == "bottom":
            h -= BAND
        elif cell.edge == "top":
            y += BAND
            h -= BAND
        elif cell.edge == "left":
            w -= BAND
        else:
            x += BAND
            w -= BAND
    return canvas.x(x), canvas.y(y + h), w * UNIT, h * UNIT


def _lines(lines: list[str], size: float, x: float, top: float, anchor: str,
           cls: str) -> list[str]:
    return [_text(x, top + size * (0.65 + 1.15 * k), line, size, anchor, class_=cls)
            for k, line in enumerate(lines)]


def _spot(canvas: _Canvas, cell: Cell, x: float, y: float, w: float, h: float
          ) -> tuple[float, float]:
    """Where the MEN of a space stand: beside its price, between the name and the price on
    a narrow cell (bottom, top), right of the price on a wide one (left, right), low in a
    corner."""
    left, right = canvas.x(x), canvas.x(x + w)
    top, bottom = canvas.y(y + h), canvas.y(y)
    if cell.corner:
        return (left + right) / 2, top + (bottom - top) * 0.8
    if cell.edge in ("bottom", "top"):  # midway between the name and the price
        box_top = top + (BAND * UNIT if cell.edge == "bottom" else 0)
        box_height = bottom - top - BAND * UNIT
        name_bottom = box_top + 2 + box_height * NARROW_NAME
        price_top = box_top + box_height - PRICE_SIZE * 1.2
        return (left + right) / 2, (name_bottom + price_top) / 2
    # a wide cell: a column at its right end, right of the price and of the number
    middle = (top + bottom) / 2
    if cell.edge == "left":
        return right - BAND * UNIT - MAN_RADIUS - 3, middle
    return right - MAN_RADIUS - 3, middle


def _radius(n: int, cell: Cell) -> float:
    """A MAN's radius where `n` MEN share the cell's spot."""
    return MAN_RADIUS if n <= 2 or cell.corner else 8.0


def _beside(x: float, y: float, k: int, n: int, cell: Cell) -> tuple[float, float]:
    """The place of MAN `k` of `n` on a spot: side by side on a narrow cell (two rows when
    many, a little over each other), one above the other on a wide one (more columns
    leftwards, away from the edge), four a row in a corner."""
    r = _radius(n, cell)
    gap = r * 2.1
    if cell.edge in ("left", "right") and not cell.corner:  # a column, tokens overlapping
        step = min(gap, (UNIT - 2 * r - 4) / max(1, n - 1))
        return x, y + (k - (n - 1) / 2) * step
    per_row = 4 if cell.corner else 2
    row, col = divmod(k, per_row)
    in_row = min(per_row, n - row * per_row)
    rows = -(-n // per_row)
    return x + (col - (in_row - 1) / 2) * gap, y + (row - (rows - 1) / 2) * r * 1.8


def _marks(canvas: _Canvas, cell: Cell,
           marks: tuple[tuple[bool, int | None, str | None, int], ...]) -> list[str]:
    """Owners (the band in their colour, the houses on it), Subdivisions and mortgages."""
    out = []
    for (i, x, y, w, h), (mortgaged, owner, owner_name, houses) in zip(cell.parts(), marks):
        if mortgaged:
            out.append(canvas.rect(x, y, w, h, fill="url(#hatch)", fill_opacity="0.35",
                                   class_="mortgaged", data_index=str(i)))
            sx, sy = _spot(canvas, cell, x, y, w, h)
            out.append(_text(sx, sy, "MORTGAGED", min(10.0, (w * UNIT - 4) / (0.72 * 9)), fill="#900", font_weight="bold",
                             class_="mortgaged-label", stroke="white", stroke_width="2.5",
                             paint_order="stroke"))
        if owner is None or owner_name is None:
            continue
        bx, by, bw, bh = cell.band(BAND)
        out.append(canvas.rect(bx, by, bw, bh, fill=player_colour(owner), stroke="#333",
                               stroke_width="0.6", class_="owner", data_index=str(i),
                               data_owner=owner_name, data_houses=str(houses)))
        tx, ty = canvas.x(bx + bw / 2), canvas.y(by + bh / 2)
        vertical = cell.edge in ("left", "right")
        if houses >= 5:
            length = (bh if vertical else bw) * UNIT - 4
            extra = {"transform": f"rotate(90 {tx:.1f} {ty:.1f})"} if vertical else {}
            out.append(_text(tx, ty + 0.5, "SUBDIVISION", min(10.0, length / (0.74 * 11)),
                             fill="white", class_="houses", font_weight="bold", **extra))
        elif houses:
            out.append(_houses(tx, ty, houses, vertical))
    return out


def _houses(x: float, y: float, count: int, vertical: bool) -> str:
    """`count` little houses in a row (a column on a left or right band) centred on x, y."""
    gap = 12.5
    shapes = []
    for k in range(count):
        off = (k - (count - 1) / 2) * gap
        hx, hy = (x, y + off) if vertical else (x + off, y)
        shapes.append(f'<path d="M{hx - 5:.1f} {hy + 5:.1f}v-5l5-5l5 5v5z"/>')
    return (f'<g class="houses" data-count="{count}" fill="white" stroke="#111" '
            f'stroke-width="1">{"".join(shapes)}</g>')


def _centre(state: BoardState, canvas: _Canvas, me: str | None) -> list[str]:
    """The title and, in a game, each player's cash and place, the pots and the card
    holder; and the place of the dice (`g.dice`), which the page's script fills."""
    x0 = canvas.x(CORNER + 0.45)
    y0 = canvas.y(canvas.size - CORNER - 0.3)
    inner = (canvas.size - 2 * CORNER - 0.9) * UNIT
    # (text, colour, size, weight, the player the line is of, the text its size fits)
    lines: list[tuple[str, str, float, str, str | None, str]] = []

    def add(text: str, colour: str, size: float, weight: str = "normal",
            player: str | None = None, fitted: str | None = None) -> None:
        lines.append((text, colour, size, weight, player, fitted or text))
    add(f"EASY MONEY · {state.variant.name}", "#2e4a2e", 26, "bold")
    if state.is_game:
        add(f"game over: {state.over}" if state.over else f"turn {state.turn}", "#333", 18)
        for k, p in enumerate(state.players):
            where = "bankrupt" if p.bankrupt else \
                f"on {p.position} {state.variant.spaces[p.position].name}"
            you = p.name == me
            line = f"● {p.name}  {money(p.cash)}  {where}"
            # sized as if it said "(you)": a table's board, drawn once for every browser at
            # it, is marked so by the page of the seat (static/app.js, markMe)
            add(line + (YOU if you else ""), player_colour(k), 19,
                "bold" if you else "600", p.name, line + YOU)
        # by title, as the terminal's board shows them: `Hospital pot`
        for title, cash in state.pots.items():
            add(f"{title}: {money(cash)}", "#333", 18)
        for text, holder in state.kept:
            add(f"{text} card: {holder or 'not held'}", "#333", 18)
        add(f"Cards in the pile: {state.deck}", "#333", 18)
    out = []
    y = y0
    for line, colour, size, weight, player, fitted in lines:
        size = _fit(fitted, inner, size)
        y += size * 1.45
        of = f' data-player="{escape(player)}"' if player is not None else ""
        out.append(f'<text x="{x0:.1f}" y="{y:.1f}" font-size="{size:.1f}" fill="{colour}" '
                   f'font-weight="{weight}"{of} class="centre">{escape(line)}</text>')
    # the dice: under the words, in the middle of the centre
    cx = canvas.x(canvas.size / 2)
    cy = max(y + 80, canvas.y(canvas.size / 2) + 60)
    out.append(f'<g class="dice" data-x="{cx:.1f}" data-y="{cy:.1f}" '
               f'transform="translate({cx:.1f} {cy:.1f})"></g>')
    return out
