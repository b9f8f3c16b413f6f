"""What the page's board and words cost a view: the time to draw the board (web/svg.py)
and to word the controls, refusals, standings, transcript by turn and last throw
(web/words.py), in a game in progress, and the size of the drawing.

    python bench/bench_board.py                  # standard, You and two bots, at turn 80
    python bench/bench_board.py --turns 200 --repeat 50

Each figure is the fastest of `--repeat` runs (a burst of load from elsewhere slows some
runs, never all); the game is the same for a seed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from easymoney.engine.actions import ActionRange
from easymoney.script.table import new_game
from easymoney.web import words
from easymoney.web.games import Played, parse_seats
from easymoney.web.svg import board_svg

PREFER = ("buys", "builds", "rolls", "ends turn", "declines", "passes")


def game_at(variant: str, players: str, seed: int, turns: int) -> Played:
    """A game where the person buys and builds what they may, played to `turns` turns."""
    state = new_game(variant, players.split(), seed=seed,
                     options=[f"end.max_turns={turns + 50}"])
    played = Played("bench", state, parse_seats(players), {})
    # on to the person's own decision: the view then has controls and refusals to word
    while state.request is not None and (state.game.turns_played < turns or played.bot_to_move()):
        if played.bot_to_move():
            played.bot_step()
            continue
        listed = state.legal_actions()
        controls = played.controls()
        pick = next((c for word in PREFER for c in controls if word in c["text"]), controls[0])
        action = listed[pick["index"]]
        played.take(action.at(action.least) if isinstance(action, ActionRange) else action)
    return played


def best_ms(work: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--players", default="You Bot:greedy Cat:cautious")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--turns", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    played = game_at(args.variant, args.players, args.seed, args.turns)
    state, me = played.state, args.players.split()[0]
    board = played.board()
    svg = board_svg(board, me=me)
    print(f"{args.variant}, {args.players}, seed {args.seed}, at turn "
          f"{state.game.turns_played} ({len(state.game.log):,} events); best of {args.repeat}:")
    figures = {
        "board_svg": lambda: board_svg(board, me=me),
        "controls + refused": lambda: (played.controls(), played.refused()),
        "standings": lambda: words.standings(state, me),
        "transcript_by_turn": lambda: words.transcript_by_turn(state, me),
        "  the last 3 turns": lambda: words.transcript_by_turn(
            state, me, since=state.game.turns_played - 2),
        "motion (last throw)": lambda: words.motion(state),
        "prompt": lambda: words.prompt(state, me),
    }
    for name, work in figures.items():
        print(f"  {name:<22} {best_ms(work, args.repeat):8.2f} ms")
    print(f"  the drawing: {len(svg.encode()):,} bytes")


if __name__ == "__main__":
    main()
