"""The OpenSpiel game (easymoney.agents.spiel): its decisions a second beside the PettingZoo
environment's, and OpenSpiel's MCTS bot playing whole games.

    python bench/bench_spiel.py [--steps N] [--repeat K] [--variant standard]
    python bench/bench_spiel.py --ops 1000 [--clones 20]     # a state's legal + apply + clone
    python bench/bench_spiel.py --mcts [--games G] [--simulations S] [--rollouts R]
                                [--horizon H] [--max-turns T] [--evaluator rollout|random]
                                [--variant examples/variants/railroads.yaml]

Speed: a uniformly random player at every seat, one process. In the OpenSpiel game a
decision is `legal_actions()` and `apply_action()` of a seat's move (the chance nodes are
sampled from `chance_outcomes()` on the way and counted apart); in the PettingZoo
environment a decision is an `env.step` of a slot drawn from the mask. Games start again
when one ends. `--repeat K` reports the fastest of K runs (as timeit does).

--mcts: `open_spiel.python.algorithms.mcts.MCTSBot` (UCT, c=2, `--simulations` a
decision) at one seat and OpenSpiel's uniform random bot at the other, seats swapped game
by game, chance sampled: docs/openspiel.md's example, many times. Its evaluator is
`spiel.RolloutEvaluator` (`--horizon` turns of `--strategy` play a leaf, valued by the
shares of worth, R28) unless `--evaluator random` (OpenSpiel's random rollouts to the end);
the games are cut at `--max-turns` (returns: shares of worth), or end by the variant's own
`end.max_turns` with `--turns T`. A decision with one legal move is not searched. Prints
each game's result and CPU time, and the MCTS seat's wins with a 95% interval.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import easymoney.agents
import easymoney.agents.spiel as spiel
from easymoney.simulate.stats import wilson


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


def state_ops(args: argparse.Namespace) -> None:
    """The mean CPU time of a state's `legal_actions()`, `apply_action()` and `clone()` at the
    decisions of random play (issue 37's OpenSpiel state figure), `--clones` clones of each
    state as a search makes of its root."""
    game = spiel.game(args.variant, args.players)
    spiel_run(game, 300, random.Random(1))  # warm the caches
    rng = random.Random(0)
    listing = applying = cloning = 0.0
    decisions = 0
    state = game.new_initial_state()
    clock = time.process_time
    while decisions < args.ops:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        start = clock()
        legal = state.legal_actions()
        listed = clock()
        for _ in range(args.clones):
            state.clone()
        cloned = clock()
        state.apply_action(legal[rng.randrange(len(legal))])
        listing, cloning = listing + listed - start, cloning + cloned - listed
        applying += clock() - cloned
        decisions += 1
    each = [1e3 * listing / decisions, 1e3 * applying / decisions,
            1e3 * cloning / (decisions * max(1, args.clones))]
    print(f"{args.variant}, {args.players} seats, OpenSpiel state at {decisions:,} decisions of "
          f"random play ({args.clones} clones each): legal_actions {each[0]:.3f} ms + "
          f"apply_action {each[1]:.3f} ms + clone {each[2]:.3f} ms = {sum(each):.3f} ms (CPU)")


def mcts_games(args: argparse.Namespace) -> None:
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random

    if args.turns:  # the variant's own end (R28: the richer seat wins) instead of the cut
        game = spiel.game(args.variant, 2, options=f"end.max_turns={args.turns}")
    else:  # the game cut at --max-turns, each seat's share of worth its return
        game = spiel.game(args.variant, 2, max_turns=args.max_turns)
    rng = np.random.RandomState(args.seed)
    if args.evaluator == "random":
        evaluator = mcts.RandomRolloutEvaluator(args.rollouts, rng)
        how = f"random rollouts={args.rollouts}"
    else:
        evaluator = spiel.RolloutEvaluator(turns=args.horizon, rollouts=args.rollouts,
                                           strategy=args.strategy, random_state=rng)
        how = f"RolloutEvaluator(turns={args.horizon}, rollouts={args.rollouts}, {args.strategy})"
    wins = 0.0
    total = searched_all = 0.0
    for number in range(args.games):
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                           evaluator=evaluator, random_state=rng)
        seat = number % 2
        other = uniform_random.UniformRandomBot(1 - seat, rng)
        state = game.new_initial_state()
        searched = asked = 0
        start = time.process_time()
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
        took = time.process_time() - start
        total += took
        searched_all += searched
        returns = state.returns()
        # a win: the game's winner, or the larger share of worth where it was cut
        won = 1.0 if returns[seat] > returns[1 - seat] else 0.5 if returns[seat] == returns[1 - seat] else 0.0
        wins += won
        outcome = state.game_state.outcome
        print(f"  game {number + 1}: MCTS at seat {seat}: returns "
              f"[{returns[0]:+.2f}, {returns[1]:+.2f}], {state.game_state.game.turns_played} turns, "
              f"{asked} MCTS decisions ({searched} searched), {took:.1f}s CPU = "
              f"{took / max(searched, 1):.3f}s a searched decision "
              f"({outcome.reason if outcome else 'cut short'})", flush=True)
    lo, hi = wilson(wins, args.games)
    limit = f"end.max_turns={args.turns}" if args.turns else f"max_turns={args.max_turns}"
    print(f"{args.variant}, 2 seats, {limit}: MCTSBot (simulations={args.simulations}, {how}) "
          f"against uniform random, seats alternating: won {wins:g} of {args.games} games = "
          f"{wins / args.games:.0%} (95% interval {lo:.0%}-{hi:.0%}); {total:.0f}s CPU in all, "
          f"{total / args.games:.1f}s a game, {total / max(searched_all, 1):.3f}s a searched decision")


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
    parser.add_argument("--evaluator", choices=("rollout", "random"), default="rollout",
                        help="spiel.RolloutEvaluator (the docs' settings) or OpenSpiel's "
                             "RandomRolloutEvaluator (rollouts to the end)")
    parser.add_argument("--horizon", type=int, default=6, help="RolloutEvaluator's turns")
    parser.add_argument("--strategy", default="greedy", help="RolloutEvaluator's strategy")
    parser.add_argument("--max-turns", type=int, default=100,
                        help="the cut of the MCTS games (returns: shares of worth)")
    parser.add_argument("--turns", type=int, default=0,
                        help="end the MCTS games by the variant's end.max_turns instead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ops", type=int, default=0, metavar="N",
                        help="the state's legal_actions + apply_action + clone, mean over N decisions")
    parser.add_argument("--clones", type=int, default=20,
                        help="with --ops: clones of each state (MCTS clones its root once a simulation)")
    args = parser.parse_args()
    if args.ops:
        state_ops(args)
    elif args.mcts:
        mcts_games(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
