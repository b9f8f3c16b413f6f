"""`easymoney board VARIANT|SCRIPT`: the board in its square layout, as text or drawn to a file."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ._variant_args import add_variant_args, variant_from_args

if TYPE_CHECKING:  # the command's own imports are made when it runs: a quick start-up
    from ..board.state import BoardState
    from ..engine.events import Event


HELP = "show the board, or a game's state on it (text, PNG, SVG)"
DESCRIPTION = """Show a variant's board in its square layout, or the state
where a game script ends (owners, houses, mortgages, MEN, cash, the
Hospital pot, the Special Exemption card). Printed as text, or drawn
to a .png, .svg or .pdf file with -o (needs matplotlib: pip install
'easymoney-game[plot]')."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="VARIANT|SCRIPT",
                        help="a variant (built-in name or .yaml file), or a game script (.game; "
                             "- reads standard input)")
    parser.add_argument("--turn", type=int, metavar="N",
                        help="for a script: the state after turn N (0: before the first turn)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="draw to FILE (.png, .svg or .pdf) instead of printing text")
    add_variant_args(parser)


def is_script(source: str) -> bool:
    return source == "-" or source.endswith(".game")


def run(args: argparse.Namespace) -> int:
    from ..board.state import BoardState
    from ..board.text import text_board
    if args.output is not None:
        from ..board.draw import check_path, matplotlib_for
        check_path(args.output)  # before any work: a bad name fails at once
        matplotlib_for("-o")  # and so does a missing extra
    if args.turn is not None and args.turn < 0:
        raise UsageError(f"--turn takes a turn number, 0 or more; found {args.turn}")
    if is_script(args.source):
        state = script_state(args.source, args)
    else:
        if args.turn is not None:
            raise UsageError("--turn is for a game script (.game): a variant alone has no turns")
        state = BoardState.empty(variant_from_args(args.source, args))
    if args.output is None:
        sys.stdout.write(text_board(state))
        return 0
    from ..board.draw import check_path, draw_board
    from ..outputs import record_inputs
    # the inputs are known once read: the script, and the variant with what it extends
    check_path(args.output, "-o", record_inputs(args.source if is_script(args.source) else None,
                                                state.variant))
    draw_board(state, args.output)
    print(f"drew {args.output}")
    return 0


def script_state(source: str, args: argparse.Namespace) -> BoardState:
    from ..board.state import BoardState
    from ..engine.game import StopGame
    from ..script.parser import MAX_SCRIPT_BYTES, parse_bytes, parse_file
    from ..script.runner import ScriptRunner
    """Play the script (to its end, or to the end of turn `args.turn`) and take its state."""
    if source == "-":
        script = parse_bytes(sys.stdin.buffer.read(MAX_SCRIPT_BYTES + 1), "<stdin>",
                             enable=args.with_rules, disable=args.without_rules,
                             options=args.options)
    else:
        script = parse_file(source, enable=args.with_rules, disable=args.without_rules,
                            options=args.options)
    taken: list[BoardState] = []
    game_ref: list[Any] = []

    def on_event(event: Event) -> None:
        # the state after turn N is the state as turn N + 1 begins
        if args.turn is not None and event.kind == "turn" and event.data["number"] == args.turn + 1:
            taken.append(BoardState.of(game_ref[0], args.turn))
            raise StopGame()

    runner = ScriptRunner(script, enable=args.with_rules, disable=args.without_rules,
                          options=args.options, on_event=on_event if args.turn is not None
                          else None)
    game_ref.append(runner.game)
    result = runner.run()
    if taken:
        return taken[0]
    game = result.game
    from .play import current_turn
    played = current_turn(game)
    if args.turn is not None and args.turn > played:
        raise UsageError(f"--turn {args.turn}: the script plays {played} turn"
                         f"{'' if played == 1 else 's'}; give 0 to {played}")
    return BoardState.of(game, played)
