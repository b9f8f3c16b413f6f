"""Environments for learning agents (the `agents` extra: pettingzoo, gymnasium, numpy).

    easymoney.agents.env(...)     a PettingZoo AEC environment, every seat an agent
    easymoney.agents.single(...)  a Gymnasium environment, one seat against built-in bots

docs/agents.md describes the action catalogue, the observations and the rewards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import UsageError

if TYPE_CHECKING:
    from .aec import EasyMoneyEnv
    from .seat import SingleSeatEnv

__all__ = ["env", "single", "ActionNotInMask"]


def _need() -> None:
    try:
        import gymnasium  # noqa: F401
        import numpy  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as exc:
        raise UsageError(f"easymoney.agents needs {exc.name}: pip install "
                         "'easymoney-game[agents]'") from None


def env(variant: str = "standard", players: int | Sequence[str] = 2, seed: int | None = None,
        **kwargs: Any) -> EasyMoneyEnv:
    """A PettingZoo AEC environment of `variant` (options: enable, disable, options,
    render_mode, max_turns, amount_steps, state_info)."""
    _need()
    from .aec import EasyMoneyEnv
    return EasyMoneyEnv(variant, players, seed, **kwargs)


def single(variant: str = "standard", seat: str = "Ann", opponents: str | Sequence[str] = "cautious",
           players: int | Sequence[str] = 2, seed: int | None = None,
           **kwargs: Any) -> SingleSeatEnv:
    """A Gymnasium environment: `seat` learns, the other seats play `opponents`' strategies."""
    _need()
    from .seat import SingleSeatEnv
    return SingleSeatEnv(variant, seat, opponents, players, seed, **kwargs)


def __getattr__(name: str) -> Any:
    if name == "ActionNotInMask":
        from .table import ActionNotInMask
        return ActionNotInMask
    raise AttributeError(f"module 'easymoney.agents' has no attribute {name!r}")
