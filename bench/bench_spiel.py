"""The OpenSpiel game (easymoney.agents.spiel): its decisions a second beside the PettingZoo
environment's, and OpenSpiel's MCTS bot playing whole games.

    python bench/bench_spiel.py [--steps N] [--repeat K] [--variant standard]
    python bench/bench_spiel.py --mcts [--games G] [--simulations S] [--rollouts R]
                                [--turns T] [--variant examples/variants/railroads.yaml]

Speed: a uniformly random player at every seat, one process. In the OpenSpiel game a
decision is `legal_actions()` and `apply_action()` of a seat's move (the chance nodes are
sampled from `chance_outcomes()` on the way and counted apart); in the PettingZoo
environment a decision is an `env.step` of a slot drawn from the mask. Games start again
when one ends. `--repeat K` reports the fastest of K runs (as timeit does).

--mcts: `open_spiel.python.algorithms.mcts.MCTSBot` (UCT, c=2, `--simulations` a
decision, `--rollouts` random rollouts a leaf) at one seat and OpenSpiel's uniform random
bot at the other, seats swapped game by game, chance sampled. The games end by the
variant's own `end.max_turns=T` (R28: the richer seat wins), so that every rollout ends
with a winner. Prints each game's result and time, and the MCTS seat's wins.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import easymoney.agents
import easymoney.agents.spiel as spiel


def spiel_run(game, decisions: int, rng: random.Random) -> tuple[int, int, int]:
    """(decisions, chance moves, games ended) of random play until `decisions` decisions."""
    done = chance = games = 0
    state = game.new_initial_state()
    while done < decisions:
        if state.is_terminal():
            games += 1
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            chance += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return done, chance, games


def aec_run(env, steps: int, rng: random.Random) -> tuple[int, int]:
    """(steps, games ended) of random masked play until `steps` steps (bench_agents' loop)."""
    env.reset(seed=0)
    done = games = 0
    while done < steps:
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None
            if not (term or trunc):
                legal = obs["action_mask"].nonzero()[0]
                action = legal[rng.randrange(len(legal))]
            env.step(action)
            done += 1
            if done >= steps:
                break
        else:
            games += 1
            env.reset()
    return done, games


def speed(args: argparse.Namespace) -> None:
    game = spiel.game(args.variant, args.players)
    env = easymoney.agents.env(args.variant, args.players, seed=0, state_info=False)
    spiel_run(game, 300, random.Random(1))  # warm the caches
    aec_run(env, 300, random.Random(1))
    best_spiel = best_aec = None
    for _ in range(max(1, args.repeat)):  # alternated, so that both meet the same load
        start = time.perf_counter()
        done, chance, games = spiel_run(game, args.steps, random.Random(0))
        took = time.perf_counter() - start
        if best_spiel is None or took < best_spiel[0]:
            best_spiel = (took, done, chance, games)
        start = time.perf_counter()
        steps, aec_games = aec_run(env, args.steps, random.Random(0))
        took = time.perf_counter() - start
        if best_aec is None or took < best_aec[0]:
            best_aec = (took, steps, aec_games)
    assert best_spiel is not None and best_aec is not None
    took, done, chance, games = best_spiel
    runs = f", fastest of {args.repeat} runs" if args.repeat > 1 else ""
    print(f"{args.variant}, {args.players} seats, uniformly random players{runs}:")
    print(f"  OpenSpiel game:       {done:,} decisions (+{chance:,} chance moves) in {took:.2f}s "
          f"= {done / took:,.0f} decisions/s, {(done + chance) / took:,.0f} moves/s "
          f"({games} games ended)")
    took, steps, aec_games = best_aec
    print(f"  PettingZoo AEC env:   {steps:,} steps in {took:.2f}s = {steps / took:,.0f} steps/s "
          f"({aec_games} games ended)")


def mcts_games(args: argparse.Namespace) -> None:
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    game = spiel.game(args.variant, 2, options=f"end.max_turns={args.turns}")
    rng = np.random.RandomState(args.seed)
    wins = 0.0
    total = 0.0
    for number in range(args.games):
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                           evaluator=mcts.RandomRolloutEvaluator(args.rollouts, rng),
                           random_state=rng)
        seat = number % 2
        other = uniform_random.UniformRandomBot(1 - seat, rng)
        state = game.new_initial_state()
        searched = asked = 0
        start = time.perf_counter()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == seat:
                asked += 1
                if len(state.legal_actions()) == 1:  # nothing to search
                    state.apply_action(state.legal_actions()[0])
                else:
                    searched += 1
                    state.apply_action(bot.step(state))
            else:
                state.apply_action(other.step(state))
        took = time.perf_counter() - start
        total += took
        returns = state.returns()
        won = max(returns[seat], 0.0)
        wins += won
        outcome = state.game_state.outcome
        print(f"  game {number + 1}: MCTS at seat {seat}: returns {returns}, "
              f"{len(state.history()):,} moves, {asked} MCTS decisions ({searched} searched), "
              f"{took:.1f}s = {took / max(searched, 1):.2f}s a searched decision "
              f"({outcome.reason if outcome else 'cut short'})", flush=True)
    print(f"{args.variant}, 2 seats, end.max_turns={args.turns}: MCTSBot (simulations="
          f"{args.simulations}, rollouts={args.rollouts}) against uniform random: won "
          f"{wins:g} of {args.games} games; {total:.0f}s in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000, help="decisions a run (speed)")
    parser.add_argument("--repeat", type=int, default=1, help="runs; the fastest is reported")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--mcts", action="store_true", help="MCTS whole games instead")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--turns", type=int, default=30, help="end.max_turns of the MCTS games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.mcts:
        mcts_games(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
