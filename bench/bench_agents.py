"""Environment steps a second of easymoney.agents.env with a random masked agent, one process.

    python bench/bench_agents.py [--steps N] [--variant standard] [--players 2] [--info] [--profile]
                                 [--repeat K] [--lone skip|ask]
    python bench/bench_agents.py --ends 200 [--variant standard] [--players 2] [--lone skip|ask]
    python bench/bench_agents.py --connect-four --repeat 5   # beside PettingZoo's connect_four

A step is one `env.step` of a seat's action (the dead seats' closing steps count too);
games are started again with the next seed when one ends. It also prints the share of
the time spent in the engine listing what is legal (`engine.legal.legal_actions`, which
the mask needs every step), timed around each call, and the share of the agent's own
choices (the nonzero slots of its mask, one draw among them), with the steps a second
of the environment alone, that share taken out. `--profile` prints where the time
goes (cProfile, by own time). `--repeat K` plays the same steps K times and reports the
fastest, as `timeit` does: on a shared machine the fastest run is the one least slowed.

`--connect-four` plays PettingZoo's own `connect_four_v3` with the same agent in the same
process, the two alternated run by run so that both meet the same load, and prints the
ratio of the steps a second (issue 37's figure; connect_four needs pygame: `pip install
pygame`).

`--ends N` plays seeds 0..N-1 with two deterministic policies, every seat taking the first
legal slot, then the last, and counts how each episode ended: the game over, truncated at
`max_turns`, truncated at `max_steps` (the environment's last resort), or not at all
(still going after ten times `max_steps`: never, as the environment is built); with the
median of the agents' steps a game, and of the game's own steps (a lone window the
environment takes is one of these, no agent's: issue 37).

`--lone ask` makes the environment ask the windows whose one move closes them, as before
issue 37 (`lone_windows="ask"`); the default is the environment's (`skip`).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable
from typing import Any


import easymoney.agents
from easymoney.engine import stepping

_LISTING = [0.0]


def _timed(listing: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any) -> Any:
        start = time.perf_counter()
        try:
            return listing(*args)
        finally:
            _LISTING[0] += time.perf_counter() - start
    return timed


def run(env: object, steps: int, rng: random.Random) -> tuple[int, int, float, int]:
    """Play `steps` steps from seed 0: (steps, games ended, the agent's own seconds, in
    finding its legal slots and drawing one, the game's steps: the agents' and the lone
    windows the environment took; 0 for an environment of another game)."""
    e: object = env
    e.reset(seed=0)  # type: ignore[attr-defined]
    table = getattr(e, "table", None)
    moved = 0  # the game's steps of the games ended

    def game_steps() -> int:
        return 0 if table is None else table.state.steps - table._first_step
    done = games = 0
    # the agent as cheap as numpy allows, so that the figure is the environment's: numpy's
    # Generator takes longer to draw one number than Python's random does
    choose = rng.randrange
    clock = time.perf_counter
    spent = 0.0
    while done < steps:
        for agent in e.agent_iter():  # type: ignore[attr-defined]
            obs, _, term, trunc, _ = e.last()  # type: ignore[attr-defined]
            if term or trunc:
                action = None
            else:
                start = clock()
                legal = obs["action_mask"].nonzero()[0]
                action = legal[choose(len(legal))]
                spent += clock() - start
            e.step(action)  # type: ignore[attr-defined]
            done += 1
            if done >= steps:
                break
        else:
            games += 1
            moved += game_steps()
            e.reset()  # type: ignore[attr-defined]
    return done, games, spent, moved + game_steps()


def ends(variant: str, players: int, games: int, lone: dict[str, str]) -> None:
    """How the first- and the last-legal-slot policies' episodes end, seeds 0..games-1."""
    env = easymoney.agents.env(variant, players, seed=0, state_info=False, **lone)
    table = env.table
    for policy, pick in (("first", 0), ("last", -1)):
        counts = {"game over": 0, "max_turns": 0, "max_steps": 0, "without end": 0}
        steps: list[int] = []
        moved: list[int] = []
        start = time.process_time()
        for seed in range(games):
            env.reset(seed=seed)
            taken = 0
            for _ in env.agent_iter(10 * table.max_steps):
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(int(obs["action_mask"].nonzero()[0][pick]))
                taken += 1
            steps.append(taken)
            moved.append(table.state.steps - table._first_step)
            if env.agents:
                counts["without end"] += 1
            elif table.state.is_over:
                counts["game over"] += 1
            elif table.state.game.turns_played >= table.max_turns:
                counts["max_turns"] += 1
            else:
                counts["max_steps"] += 1
        steps.sort()
        moved.sort()
        print(f"{variant}, {players} seats, {policy}-legal-slot policy, lone_windows="
              f"{table.lone_windows}, {games} seeds: "
              + ", ".join(f"{n} {what}" for what, n in counts.items())
              + f"; steps a game: median {steps[len(steps) // 2]:,}, most {steps[-1]:,}; "
              f"the game's steps: median {moved[len(moved) // 2]:,} "
              f"({time.process_time() - start:.0f} CPU s)")


def beside_connect_four(args: argparse.Namespace) -> None:
    """Steps a second of the environment and of PettingZoo's connect_four_v3, the same random
    masked agent, alternated run by run; the fastest run of each and their ratio."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as exc:  # its rendering needs pygame, which no extra installs
        raise SystemExit(f"connect_four_v3 cannot be imported ({exc}): pip install pygame")
    ours = easymoney.agents.env(args.variant, args.players, seed=0, state_info=args.info,
                                **lone_option(args))
    theirs = connect_four_v3.env()
    envs = {"easymoney": ours, "connect_four_v3": theirs}
    for env in envs.values():
        run(env, 500, random.Random(1))  # warm the caches
    best = {name: 0.0 for name in envs}
    for _ in range(max(1, args.repeat)):
        for name, env in envs.items():
            start = time.perf_counter()
            done, _, _, _ = run(env, args.steps, random.Random(0))
            best[name] = max(best[name], done / (time.perf_counter() - start))
    runs = f", fastest of {args.repeat} runs each" if args.repeat > 1 else ""
    print(f"{args.variant}, {args.players} seats, random masked agent{runs}: "
          f"{best['easymoney']:,.0f} steps/s; connect_four_v3: {best['connect_four_v3']:,.0f} "
          f"steps/s; ratio {best['easymoney'] / best['connect_four_v3']:.2f}x")


def lone_option(args: argparse.Namespace) -> dict[str, str]:
    """The environment's `lone_windows` as `--lone` gives it (none: its default)."""
    return {} if args.lone is None else {"lone_windows": args.lone}


def _lone_of(env: Any) -> str:
    """The environment's `lone_windows`; an environment made before issue 37 asked them all."""
    return getattr(env.table, "lone_windows", "ask (before issue 37)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--info", action="store_true", help="with infos[agent]['state'] (the default of env())")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, help="runs; the fastest is reported")
    parser.add_argument("--ends", type=int, metavar="N",
                        help="how the first/last-legal-slot policies' episodes of N seeds end")
    parser.add_argument("--connect-four", action="store_true",
                        help="beside PettingZoo's connect_four_v3, alternated: the ratio")
    parser.add_argument("--lone", choices=("skip", "ask"),
                        help="the environment's lone_windows (default: its own, skip)")
    args = parser.parse_args()
    if args.ends:
        ends(args.variant, args.players, args.ends, lone_option(args))
        return
    if args.connect_four:
        beside_connect_four(args)
        return
    stepping.legal_actions = _timed(stepping.legal_actions)  # type: ignore[assignment]
    env = easymoney.agents.env(args.variant, args.players, seed=0, state_info=args.info,
                               **lone_option(args))
    run(env, 500, random.Random(0))  # warm the caches
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
    best: tuple[float, float, float, int, int, int] | None = None
    for _ in range(max(1, args.repeat)):
        _LISTING[0] = 0.0
        start = time.perf_counter()
        # the same steps each run
        done, games, agent, moved = run(env, args.steps, random.Random(0))
        took = time.perf_counter() - start
        if best is None or took < best[0]:
            best = (took, _LISTING[0], agent, done, games, moved)
    took, listing, agent_took, done, games, moved = best  # type: ignore[misc]
    if args.profile:
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
    runs = f", fastest of {args.repeat} runs" if args.repeat > 1 else ""
    print(f"{args.variant}, {args.players} seats, random masked agent, state_info={args.info}, "
          f"lone_windows={_lone_of(env)}: "
          f"{done:,} steps in {took:.2f}s = {done / took:,.0f} steps/s ({games} games ended{runs})")
    print(f"  the game's steps (the agents' and the lone windows the environment took): "
          f"{moved:,} = {moved / took:,.0f} a second")
    print(f"  of which the engine listing legal actions: {listing:.2f}s ({listing / took:.0%}); "
          f"the rest (the env, the game's steps, the agent): {done / (took - listing):,.0f} steps/s")
    print(f"  of which the agent choosing (nonzero of the mask, one draw): {agent_took:.2f}s "
          f"({agent_took / took:.0%}); the environment alone: {done / (took - agent_took):,.0f} steps/s")


if __name__ == "__main__":
    main()
