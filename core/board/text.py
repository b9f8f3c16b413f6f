"""The board in characters for a terminal: the same square layout as the drawing, 79 columns wide."""

from __future__ import annotations

import itertools
import textwrap

from ..engine.actions import money
from ..words import count
from .layout import CORNER, board_size, layout
from .state import BoardState

CELL_W = 6  # characters per board slot, with its left border
CELL_H = 3  # lines per board slot, with its top border


SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def tokens(names: list[str]) -> list[str]:
    """One distinct mark per player: up to 36 players, a capital letter of their name not
    yet taken (else a free letter or digit); past 36, every mark is two characters (three
    past 1,296), so that a run of MEN such as `*a1b2` still reads, mark by mark."""
    width = 1
    while len(SYMBOLS) ** width < len(names):
        width += 1
    taken: set[str] = set()
    marks: list[str] = []
    spare = ("".join(p) for p in itertools.product(SYMBOLS, repeat=width))
    for name in names:
        chars = [c for c in name.upper() if c.isalnum()]
        if width == 1:
            wanted = [c for c in chars if c.isalpha()]
        else:  # its initial, then each later character of its name: P12 is P1
            wanted = [chars[0] + "".join(rest) for rest in
                      itertools.combinations(chars[1:], width - 1)] if chars else []
        pick = next((m for m in wanted if m not in taken), None)
        if pick is None:
            pick = next(m for m in spare if m not in taken)
        taken.add(pick)
        marks.append(pick)
    return marks


def text_board(state: BoardState) -> str:
    """The board as text: each cell shows its number and name, then owner, houses and MEN."""
    variant = state.variant
    slots = int(board_size(variant) - 2 * CORNER)
    cols = slots + 2
    width, height = cols * CELL_W + 1, cols * CELL_H + 1
    canvas = [[" "] * width for _ in range(height)]
    marks = tokens([p.name for p in state.players])

    def box(c0: int, r0: int, c1: int, r1: int) -> tuple[int, int, int, int]:
        """Draw the border of grid slots [c0, c1) x [r0, r1); returns the inner text area."""
        x0, y0, x1, y1 = c0 * CELL_W, r0 * CELL_H, c1 * CELL_W, r1 * CELL_H
        for x in range(x0, x1 + 1):
            for y in (y0, y1):
                canvas[y][x] = "+" if x in (x0, x1) else "-"
        for y in range(y0 + 1, y1):
            for x in (x0, x1):
                canvas[y][x] = "|"
        return x0 + 1, y0 + 1, x1 - x0 - 1, y1 - y0 - 1

    def put(x: int, y: int, text: str, room: int) -> None:
        for k, ch in enumerate(text[:room]):
            canvas[y][x + k] = ch

    for cell in layout(variant):
        # grid slots: a corner is one slot in characters; a side cell spans its spaces
        n = len(cell.indices)
        if cell.corner:
            c0 = 0 if cell.x == 0 else cols - 1
            r0 = 0 if cell.y > 0 else cols - 1  # text rows run top to bottom
            c1, r1 = c0 + 1, r0 + 1
        elif cell.edge in ("bottom", "top"):
            c0 = 1 + round(cell.x - CORNER)
            c1 = c0 + max(1, round(cell.w))
            r0 = cols - 1 if cell.edge == "bottom" else 0
            r1 = r0 + 1
        else:
            r0 = 1 + round(board_size(variant) - CORNER - cell.y - cell.h)
            r1 = r0 + max(1, round(cell.h))
            c0 = 0 if cell.edge == "left" else cols - 1
            c1 = c0 + 1
        x, y, w, h = box(c0, r0, c1, r1)
        first = cell.indices[0]
        space = variant.spaces[first]
        number = f"{first}-{cell.indices[-1]}" if n > 1 else str(first)
        put(x, y, f"{number:>2}{space.name}", w)
        if h > 1:
            put(x, y + 1, _state_text(state, cell.indices, marks) if state.is_game
                else _short_price(space.data.get("price")), w)
        for k, chunk in enumerate([word[:w] for word in space.name.split()][:max(0, h - 3)]):
            put(x, y + 3 + k, chunk, w)  # a tall cell (the double space) spells its name
    # the centre: the title, then the players and the key when they fit, else below the board
    room = (cols - 2) * CELL_W - 3
    height = (cols - 2) * CELL_H - 1
    title: list[str] = []  # its parts on one line when they fit, else one below the other
    for part in ["EASY MONEY", variant.name] + ([state.when] if state.is_game else []):
        if title and len(title[-1]) + 2 + len(part) <= room:
            title[-1] += "  " + part
        else:
            title += textwrap.wrap(part, room, break_long_words=True)
    legend = _legend(state, marks) if state.is_game else []
    below: list[str] = []
    if (len(title) + 1 + len(legend) > height
            or any(len(line) > room for line in legend)):
        below, legend = legend, []
    lines = title + ([""] + legend if legend else [])
    for k, line in enumerate(lines[:height]):
        put(CELL_W + 2, CELL_H + 1 + k, line, room)
    board = "\n".join("".join(row).rstrip() for row in canvas) + "\n"
    return board + "".join(line.rstrip() + "\n" for line in below)


def _legend(state: BoardState, marks: list[str]) -> list[str]:
    """The players (mark, name, cash, where), the pots, the kept cards, the key."""
    variant = state.variant
    width = max(len(m) for m in marks)
    lines = []
    for mark, p in zip(marks, state.players):
        where = variant.spaces[p.position].name
        line = f"{mark:<{width}} {p.name:<10.10} {money(p.cash):>8}"
        line += "  bankrupt" if p.bankrupt else f"  on {p.position} {where}"
        lines.append(line)
        if p.shown:  # what the plugins show of their state: a line of its own
            lines.append(" " * (width + 1) + "; ".join(p.shown))
    lines.append("")
    lines += [f"{title}: {money(cash)}" for title, cash in state.pots.items()]
    lines += [f"{text} card: {holder or 'not held'}" for text, holder in state.kept]
    lines.append(f"Give or Take cards in the pile: {state.deck}")
    lines.append("")
    full = variant.houses_per_street
    some = max(1, min(3, full - 1))
    lines.append(f"Key: A{some} owned by A with {count(some, 'house')}, AS a Subdivision "
                 f"({count(full, 'house')}),")
    lines.append("     Am mortgaged; *ab the MEN of A and B")
    return lines


def _state_text(state: BoardState, indices: tuple[int, ...], marks: list[str]) -> str:
    parts = []
    for i in indices:
        o = state.owner[i]
        if o is None:
            continue
        h = state.houses[i]
        text = marks[o] + ("S" if h >= state.variant.houses_per_street
                           else str(h) if h > 1 or _builds(state, i) else "")
        parts.append(text + ("m" if state.mortgaged[i] else ""))
    men = [marks[k].lower() for i in indices for k in state.men_at(i)]
    if men:
        parts.append("*" + "".join(men))
    return " ".join(parts)


def _builds(state: BoardState, i: int) -> bool:
    return "rent" in state.variant.spaces[i].data and isinstance(
        state.variant.spaces[i].data["rent"], list)


def _short_price(price: object) -> str:
    if not isinstance(price, int):
        return ""
    text = money(price)
    return text if len(text) <= CELL_W - 1 else f"${price}"
