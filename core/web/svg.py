"""The board as SVG text for a page: the square layout and a game's state, every name escaped.

The same cells as `easymoney board` (board/layout.py) and the same state (BoardState); a
kind of space the page does not know (a plugin's) is drawn plainly, grey, with its name.
"""

from __future__ import annotations

from html import escape

from ..board.draw import KIND_COLOURS, OTHER_KIND, player_colour, space_caption
from ..board.layout import CORNER, Cell, board_size, layout
from ..board.state import BoardState
from ..engine.actions import money

UNIT = 60  # pixels per board unit
HOUSE = "#2e7d32"


def _y(state: BoardState, y: float, h: float) -> float:
    """SVG's y runs down; the layout's runs up."""
    return (board_size(state.variant) - y - h) * UNIT


def _rect(state: BoardState, x: float, y: float, w: float, h: float, **attrs: str) -> str:
    extra = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return (f'<rect x="{x * UNIT:.1f}" y="{_y(state, y, h):.1f}" width="{w * UNIT:.1f}" '
            f'height="{h * UNIT:.1f}" {extra}/>')


def _text(state: BoardState, x: float, y: float, text: str, size: float, **attrs: str) -> str:
    extra = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return (f'<text x="{x * UNIT:.1f}" y="{_y(state, y, 0):.1f}" font-size="{size}" '
            f'text-anchor="middle" dominant-baseline="middle" {extra}>{escape(text)}</text>')


def _wrap(name: str, width: int) -> list[str]:
    import textwrap
    return textwrap.wrap(name, width, break_long_words=True)[:3] or [""]


def board_svg(state: BoardState) -> str:
    """The whole board, with the state of the game on it when there is one."""
    variant = state.variant
    size = board_size(variant)
    px = size * UNIT
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {px:.0f} {px:.0f}" '
           f'class="board" role="img" aria-label="{escape(variant.name)} board">',
           _rect(state, 0, 0, size, size, fill="#fbf8ef", stroke="black")]
    for cell in layout(variant):
        first = cell.indices[0]
        space = variant.spaces[first]
        kind_colour = KIND_COLOURS.get(space.kind, OTHER_KIND)
        owner = state.owner[first] if state.is_game else None
        fill = "white"
        if cell.corner:
            fill = kind_colour + "55"
        if owner is not None:
            fill = player_colour(owner) + "40"
        out.append(f'<g class="space" data-index="{first}" data-kind="{escape(space.kind)}">'
                   f'<title>{escape(space.name)} ({escape(space.kind)})</title>')
        out.append(_rect(state, cell.x, cell.y, cell.w, cell.h, fill=fill, stroke="black",
                         stroke_width="0.8"))
        if not cell.corner:
            out.append(_rect(state, *cell.band(), fill=kind_colour, stroke="black",
                             stroke_width="0.5"))
        cx, cy = cell.x + cell.w / 2, cell.y + cell.h / 2
        width = 12 if cell.corner else (9 if cell.edge in ("bottom", "top") and cell.w < 1.5
                                        else 18)
        lines = _wrap(space.name, width)
        for k, line in enumerate(lines):
            out.append(_text(state, cx, cy + 0.35 - 0.2 * k, line, 9 if cell.corner else 8,
                             class_="name"))
        number = str(first) if len(cell.indices) == 1 else f"{first}–{cell.indices[-1]}"
        out.append(_text(state, cell.x + 0.18, cell.y + cell.h - 0.12 if cell.edge == "top"
                         else cell.y + 0.12, number, 6, fill="#555"))
        caption = space_caption(space)
        if caption:
            out.append(_text(state, cx, cy - 0.35, caption, 7, fill="#333"))
        if state.is_game:
            out.extend(_state_marks(state, cell))
        out.append("</g>")
    out.extend(_centre(state))
    out.append("</svg>")
    return "\n".join(out)


def _state_marks(state: BoardState, cell: Cell) -> list[str]:
    out = []
    for i, x, y, w, h in cell.parts():
        owner = state.owner[i]
        if state.mortgaged[i]:
            out.append(_rect(state, x, y, w, h, fill="url(#hatch)", fill_opacity="0.3",
                             class_="mortgaged", data_index=str(i)))
            out.append(_text(state, x + w / 2, y + h / 2 - 0.1, "MORTGAGED", 7, fill="#a00",
                             font_weight="bold", class_="mortgaged-label"))
        if owner is not None:
            houses = state.houses[i]
            bx, by, bw, bh = cell.band()
            label = "SUBDIVISION" if houses >= 5 else ("⌂" * houses)
            out.append(_rect(state, bx, by, bw, bh, fill=player_colour(owner), stroke="black",
                             stroke_width="0.5", class_="owner", data_index=str(i),
                             data_owner=state.players[owner].name, data_houses=str(houses)))
            if label:
                rotate = cell.edge in ("left", "right")
                tx, ty = bx + bw / 2, by + bh / 2
                extra = {"transform": f"rotate(90 {tx * UNIT:.1f} {_y(state, ty, 0):.1f})"} \
                    if rotate else {}
                out.append(_text(state, tx, ty, label, 7 if houses >= 5 else 9, fill="white",
                                 class_="houses", **extra))
        men = state.men_at(i)
        for k, p in enumerate(men):
            mx = x + w * (k + 1) / (len(men) + 1)
            my = y + h * 0.3
            out.append(f'<circle cx="{mx * UNIT:.1f}" cy="{_y(state, my, 0):.1f}" r="9" '
                       f'fill="{player_colour(p)}" stroke="black" class="man" '
                       f'data-player="{escape(state.players[p].name)}" data-index="{i}"/>')
            out.append(_text(state, mx, my, state.players[p].name[:1], 9, fill="white",
                             font_weight="bold"))
    return out


def _centre(state: BoardState) -> list[str]:
    """The title and, in a game, each player's cash and place, the pots and the card holder."""
    x0 = CORNER + 0.4
    top = board_size(state.variant) - CORNER - 0.5
    lines: list[tuple[str, str]] = [(f"EASY MONEY · {state.variant.name}", "#000")]
    if state.is_game:
        lines.append((f"game over: {state.over}" if state.over else f"turn {state.turn}",
                      "#333"))
        for k, p in enumerate(state.players):
            where = "bankrupt" if p.bankrupt else \
                f"on {p.position} {state.variant.spaces[p.position].name}"
            lines.append((f"● {p.name}  {money(p.cash)}  {where}", player_colour(k)))
        # by title, as the terminal's board shows them: `Hospital pot`
        lines += [(f"{title}: {money(cash)}", "#333") for title, cash in state.pots.items()]
        lines += [(f"{text} card: {holder or 'not held'}", "#333") for text, holder in state.kept]
        lines.append((f"Cards in the pile: {state.deck}", "#333"))
    out = []
    for k, (line, colour) in enumerate(lines):
        out.append(f'<text x="{x0 * UNIT:.1f}" y="{(board_size(state.variant) - top) * UNIT + k * 22:.1f}" '
                   f'font-size="{16 if k == 0 else 13}" fill="{colour}" class="centre">'
                   f'{escape(line)}</text>')
    out.insert(0, '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
               'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#600" '
               'stroke-width="2"/></pattern></defs>')
    return out
