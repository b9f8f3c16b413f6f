"""Legal actions and the stepping game: agreement with the rules, steps a second, undo and clone.

    python bench/bench_legal.py                  # all figures (about a minute)
    python bench/bench_legal.py --states 10000   # agreement over at least this many states
    python bench/bench_legal.py --agreement-only # the agreement alone

Agreement covers tests/data/variants/every-plugin.yaml too: every built-in rule and every
example and test plugin on at once (installed into a temporary folder for the run, as
bench_plugins.py does; `--site DIR` uses a folder where they are installed already).

Agreement: random game states of the shipped variants (and any variant files named with
--variant) are reached by random legal play; at each, a wide universe of actions is judged
both ways, listed by `legal_actions` and allowed by the rules (`game.refusals`, for the
asked player, of a type that answers the request). Prints the share that agree (100% is
the goal) and the first disagreements.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from easymoney import ActionRange, new_game
from easymoney.engine.legal import answer_types, is_listed

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["standard", "reference-card", "classic-1936", "no-four-sides"]
EVERY_PLUGIN = str(ROOT / "tests/data/variants/every-plugin.yaml")


def _amounts(game: Any, request: Any, kind: type, field: str, listed: list) -> set[int]:
    """A spread of amounts around what is listed: the ends, just past them, off the grid."""
    found = {0, 1, 5, 10, 15, 100, 105, request.player.cash, request.player.cash + 10}
    for item in listed:
        if isinstance(item, ActionRange) and item.kind is kind and item.field == field:
            found |= {item.least, item.most, item.least - item.step, item.most + item.step,
                      item.least + max(1, item.step // 2), (item.least + item.most) // 2}
    if field == "count":
        found |= set(range(-1, game.variant.houses_per_street + 2))
    return {a for a in found if a > -2}


def universe(game: Any, request: Any, listed: list | None = None,
             rng: random.Random | None = None, per_type: int = 60) -> Iterator[Any]:
    """Actions of every type that may answer `request`, by the asked player, over the
    players, spaces and a spread of amounts (a sample of at most `per_type` per type)."""
    listed = listed if listed is not None else []
    rng = rng or random.Random(0)
    for kind in answer_types(game, request):
        if not dataclasses.is_dataclass(kind):
            continue
        fields = dataclasses.fields(kind)
        choices: list[list[Any]] = []
        for f in fields:
            text = str(f.type)
            if f.name == "player":
                choices.append([request.player])
            elif f.name == "offer":
                choices.append([request.offer] if request.offer is not None else [])
            elif "Player" in text:
                choices.append(list(game.players))
            elif "Space" in text:
                specific = request.space is not None and not (kind.window or kind.raises_money)
                refusable = game.hook.has_refusers(kind)
                # a request's own space (buy, bid): the never-refused answers (decline,
                # pass) name it by their request; refusable ones are tried elsewhere too
                choices.append([request.space] if specific and not refusable
                               else list(game.spaces))
            elif "tuple" in text:  # chance (the dice): left to the game
                choices.append([None])
            elif "int" in text:
                choices.append(sorted(_amounts(game, request, kind, f.name, listed)))
            else:
                choices = []
                break
        if not choices or any(not c for c in choices):
            continue
        total = 1
        for c in choices:
            total *= len(c)
        picks: Iterable[tuple[Any, ...]]
        if total <= per_type:
            picks = _product(choices)
        else:
            picks = (tuple(rng.choice(c) for c in choices) for _ in range(per_type))
        for values in picks:
            yield kind(*values)


def _product(choices: list[list[Any]]) -> Iterator[tuple[Any, ...]]:
    if not choices:
        yield ()
        return
    for head in choices[0]:
        for rest in _product(choices[1:]):
            yield (head, *rest)


def allowed(game: Any, request: Any, action: Any) -> bool:
    """The rules' own judgement: a type that answers, by the asked player, not refused."""
    kind = type(action)
    if kind not in answer_types(game, request) or action.player is not request.player:
        return False
    if kind.chance is not None and getattr(action, kind.chance) is not None:
        return False
    return not game.refusals(action)


def check_state(state: Any, rng: random.Random) -> list[str]:
    game, request = state.game, state.request
    listed = state.legal_actions()
    out = []
    for item in listed:  # a listed action is never refused
        for action in ([item.at(item.least), item.at(item.most)]
                       if isinstance(item, ActionRange) else [item]):
            if not allowed(game, request, action):
                out.append(f"listed but refused: {action} ({request.describe()}): "
                           f"{game.refusals(action)}")
    for action in universe(game, request, listed, rng):
        if is_listed(listed, action) != allowed(game, request, action):
            what = "listed" if is_listed(listed, action) else "not listed"
            out.append(f"{what} but the rules say {allowed(game, request, action)}: {action} "
                       f"({request.describe()})")
    return out


def random_step(state: Any, rng: random.Random) -> None:
    choice = rng.choice(state.legal_actions())
    if isinstance(choice, ActionRange):
        choice = choice.at(rng.choice([choice.least, choice.most, choice.least + choice.step
                                       * rng.randrange(len(choice))]))
    state.apply(choice)


def check_variant(variant: str, seeds: Iterable[int] = range(3), steps: int = 200,
                  every: int = 1, players: int = 3) -> tuple[int, list[str]]:
    """(states checked, disagreements) over random legal play of `variant`."""
    checked = 0
    problems: list[str] = []
    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(variant, names, seed=seed)
        for step in range(steps):
            if state.is_over:
                break
            if step % every == 0:
                problems += check_state(state, rng)
                checked += 1
            random_step(state, rng)
    return checked, problems


def steps_per_second(variant: str = "standard", seconds: float = 3.0) -> tuple[float, int]:
    rng = random.Random(1)
    done = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = new_game(variant, ["Ann", "Bob", "Cat", "Dan"], seed=seed, keep_log=False)
        seed += 1
        while not state.is_over and state.game.turns_played < 500:
            random_step(state, rng)
            done += 1
    return done / (time.perf_counter() - start), seed


def at_turn(turn: int, seed: int = 3) -> Any:
    """A cautious-bot game of standard stepped to the start of `turn`."""
    from easymoney.strategies import make_strategy
    bot = make_strategy("cautious")
    for s in range(seed, seed + 50):
        state = new_game("standard", ["Ann", "Bob"], seed=s, options=["end.max_turns=2000"])
        while not state.is_over and state.game.turns_played < turn - 1:
            state.apply(bot.decide(state.game, state.request))
        if not state.is_over:
            return state
    raise RuntimeError(f"no game reached turn {turn}")


def cost(fn: Any, repeat: int = 50) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=10_000)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--agreement-only", action="store_true",
                        help="measure the agreement only, not the stepping figures")
    parser.add_argument("--site", help="a folder where the test plugins are installed already")
    args = parser.parse_args(argv)
    from bench_plugins import plugins_installed  # next to this file
    with plugins_installed(args.site):
        return _main(args)


def _main(args: argparse.Namespace) -> int:
    variants = SHIPPED + [EVERY_PLUGIN] + args.variant
    per_variant = -(-args.states // len(variants))
    total, problems = 0, []
    for variant in variants:
        seeds = 0
        done = 0
        while done < per_variant:
            checked, found = check_variant(variant, seeds=[seeds], steps=400)
            done += checked
            problems += found
            seeds += 1
        total += done
    share = 100.0 * (1 - len(problems) / max(1, total))
    print(f"agreement of legal actions and refusals: {total:,} states of "
          f"{len(variants)} variants, {len(problems)} disagreements ({share:.2f}% of states agree)")
    for p in problems[:10]:
        print("  " + p)
    if args.agreement_only:
        return 1 if problems else 0
    rate, games = steps_per_second()
    print(f"stepping API, random legal agent, standard, 4 players: {rate:,.0f} steps a second "
          f"({games} games, one process)")
    for turn in (10, 500):
        state = at_turn(turn)
        clone = cost(state.clone)
        probe = state.clone()

        def step_and_undo() -> None:
            random_step(probe, random.Random(0))
            probe.undo()
        undo = cost(step_and_undo)
        print(f"turn {turn}: clone {clone * 1e3:.2f} ms, a step and its undo "
              f"{undo * 1e3:.2f} ms ({state.steps} steps so far)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
