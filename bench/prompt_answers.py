"""How many answers a person types at the prompt in a 2-player game against a bot.

    python bench/prompt_answers.py [--seeds 10]

Both seats decide as `greedy` to the end of each game (seed 1..N): every question to the
person's seat is counted, then those the prompt takes for them: the turn's end when it is
all that is left (always), and every window's pass (with `auto on`, no `act`).
"""

from __future__ import annotations

import argparse

import easymoney
from easymoney.strategies import make_strategy
from easymoney.engine.actions import Action
from easymoney.interactive.answers import ends_turn, is_throw


def count(seed: int) -> tuple[int, int, int, int]:
    """(questions, of them the turn's end alone, of them other windows, turns played)."""
    state = easymoney.new_game("standard", ["Ann", "Bob"], seed=seed)
    person, bot = make_strategy("greedy"), make_strategy("greedy")
    asked = alone = windows = 0
    while state.request is not None:
        request = state.request
        if request.player.name == "Ann":
            asked += 1
            legal = state.legal_actions()
            if len(legal) == 1 and isinstance(legal[0], Action) and ends_turn(legal[0]):
                alone += 1
            elif any(isinstance(a, Action) and (ends_turn(a) or is_throw(a)) for a in legal):
                windows += 1
            state.apply(person.decide(state.game, request))
        else:
            state.apply(bot.decide(state.game, request))
    return asked, alone, windows, state.game.turns_played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    asked = alone = windows = turns = 0
    for seed in range(1, args.seeds + 1):
        a, b, c, d = count(seed)
        asked, alone, windows, turns = asked + a, alone + b, windows + c, turns + d
    print(f"{args.seeds} games, {turns:,} turns: the person is asked {asked:,} times")
    print(f"  the turn's end alone: {alone:,}; answers typed by default: {asked - alone:,}")
    print(f"  other windows: {windows:,}; answers typed with auto on: "
          f"{asked - alone - windows:,}")


if __name__ == "__main__":
    main()
