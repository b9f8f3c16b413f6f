"""The board as a picture (matplotlib) and as characters: its square layout and a game's state on it."""

from __future__ import annotations

from .layout import Cell, layout
from .state import BoardState

__all__ = ["BoardState", "Cell", "layout"]
