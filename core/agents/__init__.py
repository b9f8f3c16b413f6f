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

__all__ = ["env", "single", "ActionNotInMask", "gym_id", "register_gymnasium"]

VERSION = 1  # of the environments (their ids end -v1; metadata["name"] is easymoney_v1)


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


def gym_id(variant: str) -> str:
    """The Gymnasium id of a shipped variant: `no-four-sides` -> `easymoney/NoFourSides-v1`."""
    return f"easymoney/{''.join(w.capitalize() for w in variant.split('-'))}-v{VERSION}"


def register_gymnasium() -> list[str]:
    """Register `single()` of each shipped variant with Gymnasium (`gymnasium.make(
    "easymoney/Standard-v1", opponents="greedy")`, any `single` option as a keyword), once;
    done when easymoney.agents is imported with gymnasium installed. The ids."""
    import gymnasium
    from ..loading.sources import builtin_names
    ids = []
    for name in builtin_names():
        ident = gym_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(ident, entry_point="easymoney.agents:single",
                               kwargs={"variant": name})
        ids.append(ident)
    return ids


try:  # registered on import, as Gymnasium's own packages do; without gymnasium, nothing to do
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:
    pass
else:
    register_gymnasium()


def __getattr__(name: str) -> Any:
    if name == "ActionNotInMask":
        from .table import ActionNotInMask
        return ActionNotInMask
    raise AttributeError(f"module 'easymoney.agents' has no attribute {name!r}")
