"""A `policy:FILE` seat's decisions a second (issue 40 part 4): a policy of the default
environment's size (a 256x256 MLP of random weights, numpy alone) plays `random` on
`standard` for `--games` games of at most `--turns` player-turns; the time of its own
decisions (the mask, the observation, the forward pass) over their count.

    python bench/bench_policy.py [--games 5] [--turns 400] [--hidden 256]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

import easymoney.agents as agents
from easymoney.agents.policy import save_policy
from easymoney.script.table import new_game
from easymoney.strategies import make_strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--hidden", type=int, default=256)
    args = parser.parse_args()
    env = agents.single()
    n, m, h = env.table.layout.size, env.table.catalogue.size, args.hidden
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "agent.npz"
        save_policy(path, [(rng.normal(0, 0.1, (n, h)), np.zeros(h)),
                           (rng.normal(0, 0.1, (h, h)), np.zeros(h)),
                           (rng.normal(0, 0.1, (h, m)), np.zeros(m))], env)
        decisions, spent = 0, 0.0
        for game in range(args.games):
            state = new_game("standard", ["Ann", "Bob"], game, keep_log=False)
            seats = {"Ann": make_strategy(f"policy:{path}"), "Bob": make_strategy("random")}
            while not state.is_over and state.game.turns_played < args.turns:
                request = state.request
                start = time.perf_counter()
                action = seats[request.player.name].decide(state.game, request)
                if request.player.name == "Ann":
                    spent += time.perf_counter() - start
                    decisions += 1
                state.apply(action)
    print(f"policy seat: {decisions} decisions in {spent:.2f} s: "
          f"{decisions / spent:,.0f} decisions a second ({n} observations, {m} slots, "
          f"MLP {h}x{h})")


if __name__ == "__main__":
    main()
