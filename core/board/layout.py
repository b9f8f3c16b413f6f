"""Where each space sits on the square board: corners, the four sides in play order, double cells."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.model import Variant

CORNER = 2.0  # a corner cell is CORNER x CORNER; a side is this deep
EDGES = ("bottom", "left", "top", "right")  # play order: space 0 sits at the bottom right


@dataclass(frozen=True)
class Cell:
    """One drawn cell: the spaces it shows (two for a double space such as the Red Traffic
    Light), the board edge it lies on, and its rectangle (x, y from the bottom left)."""

    indices: tuple[int, ...]
    edge: str        # bottom, left, top, right
    corner: bool
    x: float
    y: float
    w: float
    h: float

    def parts(self) -> list[tuple[int, float, float, float, float]]:
        """(index, x, y, w, h) of each space of the cell, split along the edge in play order."""
        n = len(self.indices)
        out = []
        for k, i in enumerate(self.indices):
            if self.edge in ("bottom", "top"):
                w = self.w / n
                # the bottom edge runs right to left, the top left to right
                x = self.x + self.w - (k + 1) * w if self.edge == "bottom" else self.x + k * w
                out.append((i, x, self.y, w, self.h))
            else:
                h = self.h / n
                y = self.y + k * h if self.edge == "left" else self.y + self.h - (k + 1) * h
                out.append((i, self.x, y, self.w, h))
        return out

    def band(self, depth: float = 0.32) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the kind-colour band along the cell's inner edge (facing the centre)."""
        if self.edge == "bottom":
            return self.x, self.y + self.h - depth, self.w, depth
        if self.edge == "top":
            return self.x, self.y, self.w, depth
        if self.edge == "left":
            return self.x + self.w - depth, self.y, depth, self.h
        return self.x, self.y, depth, self.h


def _segments(variant: Variant) -> list[list[int]]:
    """The board cut into four runs of space numbers, each opening with its corner."""
    n = len(variant.spaces)
    in_side = {i for first, last in variant.sides.values() for i in range(first, last + 1)}
    corners = [i for i in range(n) if i not in in_side]
    if variant.sides and len(corners) == 4 and corners[0] == 0:
        bounds = corners + [n]
    else:  # no sides declared (or not four corners): four equal runs
        q = -(-n // 4)
        bounds = [min(k * q, n) for k in range(4)] + [n]
    return [list(range(bounds[k], bounds[k + 1])) for k in range(4)]


def _groups(variant: Variant, run: list[int]) -> list[tuple[int, ...]]:
    """The spaces of a side grouped by cell: a space of `cells: N` fills one cell of N spaces."""
    groups: list[list[int]] = []
    for i in run:
        s = variant.spaces[i]
        prev = variant.spaces[groups[-1][-1]] if groups else None
        if (prev is not None and prev.name == s.name and prev.kind == s.kind
                and int(s.get("cells", 1) or 1) > len(groups[-1])):
            groups[-1].append(i)
        else:
            groups.append([i])
    return [tuple(g) for g in groups]


def board_size(variant: Variant) -> float:
    return 2 * CORNER + _slots(variant)


def _slots(variant: Variant) -> int:
    return max(1, max(len(run) - 1 for run in _segments(variant)))


def layout(variant: Variant) -> list[Cell]:
    """Every cell of the board in play order: each space in exactly one cell."""
    slots = _slots(variant)
    size = 2 * CORNER + slots
    far = size - CORNER
    corner_at = {"bottom": (far, 0.0), "left": (0.0, 0.0), "top": (0.0, far), "right": (far, far)}
    cells: list[Cell] = []
    for edge, run in zip(EDGES, _segments(variant)):
        if not run:
            continue
        x, y = corner_at[edge]
        cells.append(Cell((run[0],), edge, True, x, y, CORNER, CORNER))
        groups = _groups(variant, run[1:])
        # a double space is as wide as the spaces in it; the side fills the slots evenly
        unit = slots / max(1, sum(len(g) for g in groups))
        pos = 0.0
        for g in groups:
            length = unit * len(g)
            if edge == "bottom":
                cell = Cell(g, edge, False, far - pos - length, 0.0, length, CORNER)
            elif edge == "left":
                cell = Cell(g, edge, False, 0.0, CORNER + pos, CORNER, length)
            elif edge == "top":
                cell = Cell(g, edge, False, CORNER + pos, far, length, CORNER)
            else:
                cell = Cell(g, edge, False, far, far - pos - length, CORNER, length)
            cells.append(cell)
            pos += length
    return cells
