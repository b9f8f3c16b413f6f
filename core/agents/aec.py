"""The PettingZoo environment: every seat an agent, the asked player the one to act."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import GameOverError, UsageError
from .table import (DEFAULT_ACTIONS, DEFAULT_AMOUNT_STEPS, DEFAULT_GAMMA, DEFAULT_LONE_WINDOWS,
                    DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS, DEFAULT_RAISE_IN_WINDOWS,
                    DEFAULT_SHAPING, DEFAULT_WINDOW_ACTIONS, ENV_NAME, RENDER_MODES, Table,
                    check_render_mode)


def observation_space(table: Table) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (table.layout.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (table.catalogue.size,), np.int8),
    })


class EasyMoneyEnv(AECEnv):  # type: ignore[misc]
    """An AEC game of Easy Money (docs/agents.md). `agent_selection` is the seat the game
    asks, whatever it asks (to roll, to bid, to agree to a deal, a plugin's question); a
    window whose only move closes it is taken by the environment itself (`lone_windows=
    "skip"`, each a step of the game settled as one: its rewards add up in the seats'
    cumulative rewards), unless `lone_windows="ask"`."""

    metadata = {"name": ENV_NAME, "render_modes": RENDER_MODES, "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, variant: str = "standard", players: int | Sequence[str] = 2,
                 seed: int | None = None, *, enable: Sequence[str] = (),
                 disable: Sequence[str] = (), options: Sequence[str] = (),
                 render_mode: str | None = None, max_turns: int = DEFAULT_MAX_TURNS,
                 amount_steps: int = DEFAULT_AMOUNT_STEPS, max_steps: int = DEFAULT_MAX_STEPS,
                 window_actions: int = DEFAULT_WINDOW_ACTIONS, reward: str = "terminal",
                 shaping: str | None = DEFAULT_SHAPING, gamma: float = DEFAULT_GAMMA,
                 actions: str = DEFAULT_ACTIONS,
                 raise_in_windows: bool = DEFAULT_RAISE_IN_WINDOWS,
                 lone_windows: str = DEFAULT_LONE_WINDOWS,
                 agent_names: str = "seats", state_info: bool = True) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.table = Table(variant, players, seed, enable, disable, options, max_turns,
                           amount_steps, max_steps=max_steps, window_actions=window_actions,
                           reward=reward, shaping=shaping, gamma=gamma, actions=actions,
                           raise_in_windows=raise_in_windows, lone_windows=lone_windows)
        self.state_info = state_info
        if agent_names not in ("seats", "player_N"):
            raise UsageError(f"agent_names={agent_names!r}: 'seats' (the seats' names) or "
                             "'player_N' (player_0, player_1, ... as PettingZoo's games name them)")
        seats = self.table.seats
        self.possible_agents = (list(seats) if agent_names == "seats"
                                else [f"player_{k}" for k in range(len(seats))])
        self._seat = {name: k for k, name in enumerate(self.possible_agents)}
        # the game's seat name of each agent, and the agent of each seat name
        self._seat_name = dict(zip(self.possible_agents, seats))
        self._agent_of = dict(zip(seats, self.possible_agents))
        self.action_spaces = {a: spaces.Discrete(self.table.catalogue.size)
                              for a in self.possible_agents}
        obs = observation_space(self.table)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self._started = False

    @property
    def catalogue(self) -> Any:
        return self.table.catalogue

    def observation_names(self) -> list[str]:
        """The name of each feature of `observation["observation"]`, in order."""
        return self.table.observation_names()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self._started = True
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._rewarded = False
        self._phi: dict[str, float] = {}
        self._settle()
        if self.table.shaping is not None:  # Phi of the first state: shaping starts here
            shares = self.table.potentials()
            self._phi = {a: shares[self._seat[a]] for a in self.agents
                         if not (self.terminations[a] or self.truncations[a])}
        if self.table.skips and self.table.lone() is not None:
            self._take_lone()
            self._inform()

    def _take_lone(self) -> None:
        """The lone windows the table takes itself (`lone_windows="skip"`) while a live seat
        is selected, each a step settled as an agent's is: its rewards and shaping add up in
        each seat's `_cumulative_rewards`, which the seat gets at its next step. A seat out
        takes its dead step first, as after any step."""
        table = self.table
        while self.agents and not (self.terminations[self.agent_selection]
                                   or self.truncations[self.agent_selection]) \
                and table.take_lone():
            if self._rewarded:
                self._clear_rewards()
                self._rewarded = False
            self._settle(inform=False)

    def _settle(self, inform: bool = True) -> None:
        """After a step: who is out, who is asked, the rewards of an ending; with `inform`,
        the infos (`_inform`)."""
        table = self.table
        state = table.state
        over = state.request is None  # state.is_over
        game = state.game
        truncated = not over and table.at_limit()  # table.truncated, `over` known
        out = over or truncated  # someone is out: rewards to add, dead steps to come first
        agents, terminations = self.agents, self.terminations
        if over:
            for a in agents:
                if not terminations[a]:
                    terminations[a] = True
                    self.rewards[a] = table.final_reward(self._seat_name[a])
        elif truncated:
            for a in agents:
                if not self.truncations[a]:
                    self.truncations[a] = True
                    self.rewards[a] = table.truncated_reward(self._seat_name[a])
        else:
            players, seat = game.players, self._seat
            for a in agents:
                if terminations[a]:
                    out = True  # its dead step is still to come
                elif players[seat[a]].bankrupt:
                    terminations[a] = True
                    self.rewards[a] = table.out_reward()
                    out = True
            self.agent_selection = self._agent_of[state.request.player.name]  # type: ignore[union-attr]
        phi = self._phi
        if not out:
            if phi:  # most steps: every seat shaped, none out
                # _shape and _accumulate_rewards in one loop: nobody is done or truncated,
                # and the seats shaped are the seats in the game
                gamma, shares = table.gamma, table.potentials()
                rewards, cumulative, seat = self.rewards, self._cumulative_rewards, self._seat
                for a, before in phi.items():
                    now = shares[seat[a]]
                    rewards[a] += gamma * now - before
                    cumulative[a] += rewards[a]
                    phi[a] = now
                self._rewarded = True
            if inform and self.state_info:
                self._inform()
            return  # otherwise every reward is 0 and nobody is out: nothing to add
        if phi:
            self._shape(truncated)
        if not agents:
            return
        if over or truncated:
            self.agent_selection = agents[0]
        if inform and self.state_info:
            self._inform()
        self._rewarded = True
        self._accumulate_rewards()
        self._deads_step_first()

    def _inform(self) -> None:
        """Each seat's infos: the state's facts (`state_info`)."""
        if self.state_info and self.agents:
            facts = self.table.facts(0)
            for a in self.agents:
                self.infos[a] = {"state": dict(facts, me=self._seat_name[a])}

    def _shape(self, truncated: bool) -> None:
        """Potential-based shaping (`shaping="worth"` or `"equity"`): each seat still shaped gets
        gamma * Phi(now) - Phi(before), every step; Phi is 0 once the seat is terminated,
        and a truncated seat keeps its last Phi (its state is not terminal)."""
        gamma, phi = self.table.gamma, self._phi
        shares = self.table.potentials()
        rewards, terminations, seat = self.rewards, self.terminations, self._seat
        for a, before in list(phi.items()):
            done = terminations[a]
            now = 0.0 if done else shares[seat[a]]  # table.potential(seat, done)
            rewards[a] += gamma * now - before
            if done or truncated:
                del phi[a]
            else:
                phi[a] = now

    def step(self, action: Any) -> None:
        if not self._started:
            raise GameOverError("no game yet: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            if self.agents and self.table.lone() is not None:  # held back by the dead step
                self._take_lone()
                self._inform()
            return
        table = self.table
        table.step(action)  # an action outside the mask raises, changing nothing
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards come only when someone is out or shaped: else none to clear
            self._clear_rewards()
            self._rewarded = False
        if not table.skips or table.lone() is None:  # most steps: a seat has a choice now
            self._settle()
        else:
            self._settle(inform=False)
            self._take_lone()
            self._inform()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in self._seat:
            raise UsageError(f"no seat {agent!r}: the seats are {', '.join(self.possible_agents)}")
        if not self._started:
            raise GameOverError("no game yet: call reset() first")
        if agent not in self.agents:
            raise GameOverError(f"{agent} has left the game ({self.table.over_text()}): no "
                                "observation of it; reset() starts another game")
        live = (agent == self.agent_selection and not self.terminations[agent]
                and not self.truncations[agent])
        return self.table.observation(self._seat[agent], live)

    def render(self) -> Any:
        return None if self.render_mode is None else self.table.render(self.render_mode)

    def close(self) -> None:
        pass
