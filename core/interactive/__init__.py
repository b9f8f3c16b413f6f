"""Playing a game at the prompt: people and bots at one table, answers in the script language."""

from __future__ import annotations

from .session import play_interactive

__all__ = ["play_interactive"]
