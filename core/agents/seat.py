"""The Gymnasium environment: one learning seat against built-in bots, whose decisions are
applied inside `step` until the game asks the learning seat again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..strategies import make_strategy
from ..errors import GameOverError, UsageError
from ..script.table import game_seed
from .aec import observation_space
from .table import (DEFAULT_ACTIONS, DEFAULT_AMOUNT_STEPS, DEFAULT_GAMMA, DEFAULT_LONE_WINDOWS,
                    DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS, DEFAULT_RAISE_IN_WINDOWS,
                    DEFAULT_SHAPING, DEFAULT_WINDOW_ACTIONS, ENV_NAME, RENDER_MODES, Table,
                    check_render_mode)


class LegalDiscrete(spaces.Discrete):  # type: ignore[misc]
    """`Discrete(n)` whose `sample()` without a mask draws a legal slot (the environment's
    mask now), so that tools sampling the action space (gymnasium's `check_env`) play the
    game; an explicit mask is used as given. Pickled without the environment."""

    def __init__(self, n: int, legal: Callable[[], np.ndarray] | None = None) -> None:
        super().__init__(n)
        self._legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._legal is not None:
            legal = self._legal()
            if legal.any():
                mask = legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_legal": None}


class SingleSeatEnv(gymnasium.Env):  # type: ignore[misc]
    """`seat` is the agent; each other seat plays a built-in strategy (`make_strategy`).
    A slot outside the mask, by default (`illegal="penalty"`), changes nothing and earns
    `penalty`; with `illegal="raise"` it raises `ActionNotInMask`. Anything that is no
    slot of the action space raises it either way (for tools that sample
    unmasked actions, as gymnasium's env checker does). `action_masks()` is the mask.
    A window of the seat's whose only move closes it is taken inside `step` (or `reset`)
    as the bots' moves are (`lone_windows="skip"`: a step's reward covers them, its shaping
    from the state the seat was asked in, a lone window's at a reset, to the next), unless
    `lone_windows="ask"`."""

    metadata = {"name": ENV_NAME, "render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(self, variant: str = "standard", seat: str = "Ann",
                 opponents: str | Sequence[str] = "cautious", players: int | Sequence[str] = 2,
                 seed: int | None = None, *, enable: Sequence[str] = (),
                 disable: Sequence[str] = (), options: Sequence[str] = (),
                 render_mode: str | None = None, max_turns: int = DEFAULT_MAX_TURNS,
                 amount_steps: int = DEFAULT_AMOUNT_STEPS, max_steps: int = DEFAULT_MAX_STEPS,
                 window_actions: int = DEFAULT_WINDOW_ACTIONS, reward: str = "terminal",
                 shaping: str | None = DEFAULT_SHAPING, gamma: float = DEFAULT_GAMMA,
                 actions: str = DEFAULT_ACTIONS,
                 raise_in_windows: bool = DEFAULT_RAISE_IN_WINDOWS,
                 lone_windows: str = DEFAULT_LONE_WINDOWS,
                 illegal: str = "penalty",
                 penalty: float = -0.01) -> None:
        check_render_mode(render_mode)
        if illegal not in ("raise", "penalty"):
            raise UsageError(f"illegal={illegal!r}: 'raise' or 'penalty'")
        self.render_mode = render_mode
        self.illegal, self.penalty = illegal, penalty
        self.table = Table(variant, players, seed, enable, disable, options, max_turns,
                           amount_steps, max_steps=max_steps, window_actions=window_actions,
                           reward=reward, shaping=shaping, gamma=gamma, actions=actions,
                           raise_in_windows=raise_in_windows, lone_windows=lone_windows)
        seats = self.table.seats
        if seat not in seats:
            raise UsageError(f"no seat {seat!r}: the seats are {', '.join(seats)}")
        self.seat = seat
        self.me = seats.index(seat)
        others = [s for s in seats if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise UsageError(f"{len(others)} opponents' strategies needed, {len(names)} given")
        self.bots = {s: make_strategy(n) for s, n in zip(others, names)}
        self.action_space = LegalDiscrete(self.table.catalogue.size, self.action_masks)
        self.observation_space = observation_space(self.table)
        self._done = True
        self._phi: float | None = None  # Phi of the state the seat was last asked in

    @property
    def catalogue(self) -> Any:
        return self.table.catalogue

    def observation_names(self) -> list[str]:
        """The name of each feature of `observation["observation"]`, in order."""
        return self.table.observation_names()

    def _play_bots(self) -> None:
        """The bots answer until the game asks the learning seat (a window of its with one
        move that closes it taken for it: `Table.take_lone`), ends, or reaches the limit."""
        table = self.table
        state = table.state
        while not state.is_over and not table.truncated:
            request = state.request
            assert request is not None
            if request.player.name != self.seat:
                table.apply(self.bots[request.player.name].decide(state.game, request))
                continue
            if self._phi is None:  # the seat's first question: its shaping starts there,
                self._phi = self._potential(False)  # a lone window's too (a reset's)
            if not table.take_lone():
                return

    def _out(self) -> bool:
        return self.table.state.game.players[self.me].bankrupt

    def _obs(self) -> dict[str, np.ndarray]:
        live = not self.table.state.is_over and not self._out() and not self.table.truncated
        return self.table.observation(self.me, live)

    def _info(self) -> dict[str, Any]:
        return {"state": self.table.facts(self.me)}

    def _potential(self, terminal: bool) -> float:
        return self.table.potential(self.me, terminal) if self.table.shaping is not None else 0.0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is not None:
            seed = game_seed(seed)  # gymnasium seeds its generator with Python ints only
        self.table.reset(seed)  # no seed: the one after the last game's
        super().reset(seed=seed)
        self._phi = None
        self._play_bots()
        self._done = self.table.state.is_over or self._out() or self.table.truncated
        if self._phi is None or self._done:
            self._phi = self._potential(self._done)
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise GameOverError(f"{self.table.over_text() if self.table.state.is_over else 'the episode is over'}"
                                ": no action can be taken; reset() starts another game")
        table = self.table
        reward = 0.0
        if (self.illegal == "penalty" and not table.is_legal(action)
                and self.action_space.contains(action)):
            reward = self.penalty
        else:
            table.step(action)
            self._play_bots()
        terminated = table.state.is_over or self._out()
        truncated = not terminated and table.truncated
        if terminated:
            reward = table.final_reward(self.seat) if not self._out() else table.out_reward()
        elif truncated:
            reward = table.truncated_reward(self.seat)
        if table.shaping is not None:  # gamma * Phi(next) - Phi(this), Phi(terminal) = 0
            phi = self._potential(terminated)
            assert self._phi is not None  # set by reset, and by every step
            reward += table.gamma * phi - self._phi
            self._phi = phi
        self._done = terminated or truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal slots now, as sb3-contrib's MaskablePPO asks for them."""
        return self.table.mask() if not self._done else np.zeros(self.table.catalogue.size, np.int8)

    def render(self) -> Any:
        return None if self.render_mode is None else self.table.render(self.render_mode)
