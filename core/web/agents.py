"""Trained agents the server seats by name: `easymoney serve --agent NAME=FILE` (issue 40).

A visitor never names a file on the server (a `policy:FILE` seat is refused at the page);
the server's operator names the policy file once at start, and the page seats it as
`Bob:NAME`, "the trained agent (NAME)". Each file is read and checked at start against
a game of the variant and seat count it was trained on (easymoney.agents.policy's checks):
a file that is missing, not a policy, truncated, or of another action space than this
server's rules give that game is one line, and the server does not start. A game of the
page that the policy does not fit (another variant, seat count or rules) refuses the seat
in one line when it is made.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import EasyMoneyError, UsageError

# a short word: what a visitor types after a seat's colon, shown in the lobby's list
AGENT_NAME = re.compile(r"[a-z][a-z0-9_]{0,23}")


@dataclass
class Agent:
    """A policy file the server seats as NAME: read once, shared by every seat it plays."""

    name: str
    path: str
    policy: Any  # easymoney.agents.policy.Policy

    @property
    def label(self) -> str:
        return f"the trained agent ({self.name})"

    def describe(self) -> dict[str, Any]:
        """What the page lists: the name to seat it by, its label, the games it fits."""
        h = self.policy.header
        return {"name": self.name, "label": self.label, "variant": h["variant"],
                "players": h["players"]}

    def strategy(self) -> Any:
        """A fresh seat's strategy (its window counts are its own), the policy shared."""
        from ..agents.policy import PolicyStrategy
        return PolicyStrategy(self.name, policy=self.policy)

    def refusal(self, seat: str, strategy: Any, game: Any) -> str | None:
        """None if the policy fits `game`, else one line for the page, naming the agent
        (never its file) and what differs."""
        from ..agents.policy import PolicyError
        try:
            strategy.check_game(game)
        except PolicyError as exc:
            differs = exc.message.removeprefix(f"policy {self.path}: ")
            return f"players: {seat}:{self.name}: {self.label} was {differs}"
        return None


def read_agents(specs: Sequence[str], taken: Mapping[str, Any]) -> dict[str, Agent]:
    """`--agent NAME=FILE` values as agents by name, each file read and checked against a
    game of its variant and seat count; one UsageError line otherwise. `taken`: the
    strategies' names, which an agent's NAME may not hide."""
    from ..agents.policy import PolicyError, PolicyStrategy
    from ..script.table import new_game
    agents: dict[str, Agent] = {}
    for spec in specs:
        name, eq, path = spec.partition("=")
        if not eq or not path or not AGENT_NAME.fullmatch(name):
            raise UsageError(f"--agent {spec}: give NAME=FILE, NAME a short word of lower-case "
                             "letters, digits and _ (--agent trained=agent.npz)")
        if name in taken or name in ("policy", "exec") or name in agents:
            raise UsageError(f"--agent {spec}: {name!r} is already "
                             f"{'another --agent' if name in agents else 'a strategy name'}: "
                             "give the agent a name of its own")
        try:
            strategy = PolicyStrategy(f"policy:{path}")
        except PolicyError as exc:
            raise UsageError(f"--agent {spec}: {exc.message}") from None
        header = strategy.policy.header
        players = [f"P{k + 1}" for k in range(int(header["players"]))]
        try:
            game = new_game(str(header["variant"]), players, 0, keep_log=False).game
        except EasyMoneyError as exc:
            raise UsageError(f"--agent {spec}: trained on variant {header['variant']!r} with "
                             f"{len(players)} seats, which this server cannot make: "
                             f"{exc.message}") from None
        try:
            strategy.check_game(game)
        except PolicyError as exc:
            raise UsageError(f"--agent {spec}: {exc.message}") from None
        agents[name] = Agent(name, path, strategy.policy)
    return agents
