"""`easymoney play FILE`: run a game script and print its transcript and standings."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from ..errors import EasyMoneyError, PluginError, UsageError, is_control, visible
from ..outputs import current_turn, record_header, record_inputs, standings_text
from ..timelimit import check_game_timeout
from ._variant_args import (add_dispatch_arg, add_game_timeout_arg, add_invariants_arg,
                            add_variant_args, settings_from_args)

if TYPE_CHECKING:
    from ..engine.events import Event
    from ..engine.model import Variant
    from ..outputs import Input
    from ..engine.game import Game
    from ..script.runner import Note, RunResult, ScriptRunner


HELP = "run a game script (*.game), or play a game at the prompt"
DESCRIPTION = """Run a game script: print one line per event, then the
standings and how many expectations held. Exit 0 when every
expectation held, 1 when one failed, 2 for any error. With
--interactive, play at the prompt (after the script, if one is named)."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", nargs="?",
                        help="the script; - reads standard input")
    seats = parser.add_argument_group("interactive play",
                                      "Play at the prompt: see docs/playing.md.")
    seats.add_argument("--interactive", "-i", action="store_true",
                       help="play at the prompt: a new game, or FILE's game from where it ends")
    seats.add_argument("--players", nargs="+", metavar="NAME[:STRATEGY]",
                       help="the seats of a new game in turn order; NAME:STRATEGY is a bot "
                            "(e.g. Ann Bob:greedy Cat:cautious; default: Pat Ann:cautious "
                            "Bob:greedy); 'Ann:exec:\"python my_bot.py\"' seats a program "
                            "(docs/seats.md)")
    seats.add_argument("--variant", metavar="VARIANT", default=None,
                       help="the variant of a new game: a built-in name or a .yaml file "
                            "(default: standard)")
    seats.add_argument("--seed", type=int, metavar="N", default=None,
                       help="the seed of a new game (default: a fresh one, printed)")
    seats.add_argument("--choose-dice", action="store_true",
                       help="at the prompt, the people choose their dice (`rolls 3 4`); the "
                            "transcript and a saved game say so")
    seats.add_argument("--auto-pass", action="store_true",
                       help="pass each of a person's windows (roll, end the turn) without "
                            "asking, unless they typed `act` (as `auto on` at the prompt)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help="one JSON object per event, then a summary object (JSON Lines)")
    out.add_argument("--quiet", action="store_true",
                     help="only the standings and the expectation report")
    parser.add_argument("--record", metavar="OUT",
                        help="write the game just played as a complete script that replays it")
    add_invariants_arg(parser)
    add_game_timeout_arg(parser)
    add_dispatch_arg(parser)
    parser.add_argument("--trace", action="store_true",
                        help="print every hook call, the plugin that answered and its result "
                             "(also EASYMONEY_TRACE=1)")
    add_variant_args(parser)


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except EasyMoneyError as exc:
        if args.json:  # a reader of the JSON stream learns of the error there too
            sys.stdout.write(json.dumps(error_json(exc)) + "\n")
        raise


def error_json(exc: EasyMoneyError) -> dict[str, Any]:
    return {"event": "error", "message": exc.message, "file": exc.file, "line": exc.line,
            "column": exc.col}


def _run(args: argparse.Namespace) -> int:
    take_script_from_players(args)
    if args.interactive:
        if args.json or args.quiet:
            raise UsageError("--interactive plays at the prompt: it takes no --json or --quiet")
        from ..interactive import play_interactive
        return play_interactive(args, settings_from_args(args))
    for flag, given in (("--choose-dice", args.choose_dice), ("--auto-pass", args.auto_pass)):
        if given:
            raise UsageError(f"{flag} is for play at the prompt: add --interactive (a script "
                             "chooses its dice in its lines)")
    for flag, given in (("--players", args.players), ("--variant", args.variant),
                        ("--seed", args.seed)):
        if given is not None:
            raise UsageError(f"{flag} is for a new game at the prompt: add --interactive "
                             "(a script names its own in its header)")
    limit = check_game_timeout(args.game_timeout)
    if args.file is None:
        raise UsageError("name a script to play (FILE, or - for standard input), or start "
                         "a game at the prompt with --interactive")
    from ..outputs import check_target, write_atomically
    if args.record:  # the script at once; its variant's files once the header is read
        check_target(args.record, "--record", record_inputs(args.file))
    from ..script.parser import MAX_SCRIPT_BYTES, parse_bytes, parse_file
    from ..script.record import Recorder, record_text
    from ..script.runner import ScriptRunner
    enable, disable, options = args.with_rules, args.without_rules, args.options
    switches = {"enable": enable, "disable": disable, "options": options}  # the language's rules
    from ..timelimit import GameTimeout, stalled, time_limit
    if args.file == "-":
        # read one byte past the limit: enough for the parser to refuse a larger script
        script = parse_bytes(sys.stdin.buffer.read(MAX_SCRIPT_BYTES + 1), "<stdin>", **switches)
    else:
        script = parse_file(args.file, **switches)
    out = sys.stdout

    def on_event(event: Event) -> None:
        if args.json:
            out.write(json.dumps(event.to_json()) + "\n")
        elif not args.quiet:
            text = game_ref[0].describe(event)
            if text is not None:
                out.write(text + "\n")
            if event.kind == "stopped":
                waiting = waits_for(game_ref[0])
                if waiting:
                    out.write(f"The game waits for {waiting}\n")

    def on_note(note: Note) -> None:
        if args.json:
            out.write(json.dumps(note.to_json()) + "\n")
        elif note.kind == "expectation_failed":
            out.write(f"{script.filename}:{note.line}:{note.column}: expectation failed: "
                      f"{note.text}: {note.message}\n")
        elif not args.quiet:
            out.write(f"line {note.line}: refused as expected: {note.message}\n")

    game_ref: list[Game] = []
    runner = ScriptRunner(script, enable=enable, disable=disable, options=options,
                          settings=settings_from_args(args),
                          on_event=on_event, on_note=on_note)
    if args.record:
        # before playing: no transcript for a record never written, no input replaced
        check_target(args.record, "--record", record_inputs(args.file, runner.game.variant))
    game_ref.append(runner.game)
    recorder = Recorder(runner.game) if args.record else None
    # made before the game: a variant path a script cannot write is refused now
    header = record_header(runner, args.record) if args.record else []
    try:
        with time_limit(limit):
            result = runner.run()
    except GameTimeout as exc:
        raise PluginError(f"game seed {runner.game.seed} "
                          f"{stalled(exc, runner.game.ruleset, limit)}") from None
    if args.json:
        out.write(json.dumps({"summary": summary(result)}) + "\n")
    else:
        out.write(standings_text(result))
    if recorder is not None:
        write_atomically(args.record, record_text(header, recorder.body(), recorder.game,
                                                  args.record))
    return 1 if result.failures else 0


def take_script_from_players(args: argparse.Namespace) -> None:
    """Check each `--players` value is one seat, and take a script named after them as FILE.

    `--players` takes several values, so `play -i --players Ann Bob saved.game` gives it the
    script too: a last value that names a script (`.game`, a path, `-`) is FILE when no FILE
    came before; anywhere else it is refused. A value holding a space, a control character
    or a `#` would be more (or less) than one seat once in the header: refused by name.
    """
    players = args.players
    if not players:
        return
    for k, value in enumerate(players):
        if _SEAT_WITH_STRATEGY.match(value):  # `Ann:exec:"python bots/a.py"`: a seat
            continue
        if _names_script(value):
            if k == len(players) - 1 and args.file is None and k > 0:
                args.file = value
                del players[k]
                return
            raise UsageError(f"--players {value!r}: a script, not a player: name the script "
                             "before --players (easymoney play -i FILE), or a player as "
                             "NAME[:STRATEGY]")
        if any(ch.isspace() or ch == "#" or is_control(ch) for ch in value):
            raise UsageError(f"--players '{visible(value)}': one value is one seat: expected a player name, optionally "
                             "with :STRATEGY (e.g. Ann or Bob:greedy)")


# a name then a strategy: its program's command may hold spaces and paths (docs/seats.md)
_SEAT_WITH_STRATEGY = re.compile(r'[A-Za-z_]\w*:(exec:"[^"\n\r#]*"(:[\w=.,]+)*|[^\s#"]+)\Z')


def _names_script(value: str) -> bool:
    return value == "-" or value.endswith(".game") or "/" in value or os.sep in value
def waits_for(game: Game) -> str | None:
    """What a stopped game waits for, in the rules' words ("Ann to buy Dover Street or decline")."""
    if game.outcome is not None or game.request is None:
        return None
    return game.request.describe()


def summary(result: RunResult) -> dict[str, Any]:
    """The last line of `play --json`: `view`, the game's one outward view of where it
    ended (easymoney.view: the state, what it waits for, what is legal), and the
    older keys, each read from the view, kept for the readers of the stream."""
    from ..view import decision_view
    game = result.game
    view = result.stopped_view if result.stopped_view is not None else decision_view(game)
    state = view["state"]
    o = state["outcome"]
    ranks = {p.name: r for p, _, r in game.standings()}
    strategies = {p.name: p.strategy for p in game.players}
    players = [{"name": p["name"], "strategy": strategies[p["name"]], "cash": p["cash"],
                "worth": p["worth"], "rank": ranks.get(p["name"]), "position": p["position"],
                "houses_left": p["houses_left"], "bankrupt": p["bankrupt"], "cards": p["cards"]}
               for p in state["players"]]
    return {
        "variant": game.variant.name,
        "seed": game.seed,
        "turns": state["turns_played"],
        "over": o is not None,
        "reason": o["reason"] if o else None,
        "detail": o["detail"] if o else None,
        "winners": o["winners"] if o else [p.name for p in game.winners()],
        "standings": [{"player": p["name"], "cash": p["cash"], "worth": p["worth"],
                       "rank": p["rank"], "bankrupt": p["bankrupt"]} for p in players],
        "bank": state["bank"],
        "pots": state["pots"],
        "expectations": {"checked": result.checked, "held": result.held,
                         "failed": len(result.failures)},
        "players": players,
        "waiting_for": view["request"]["words"] if view["request"] and not o else None,
        "state": final_state(game, state),
        "view": view,
    }


def final_state(game: Game, state: dict[str, Any]) -> dict[str, Any]:
    """The board where the game ends, in the spellings `play --json` had before the view
    (`state`, the view's): each space's owner, houses and mortgage, the MEN, the pots, the
    Special Exemption card's holder and the draw pile's size."""
    owners, houses, mortgaged = state["owners"], state["houses"], set(state["mortgaged"])
    return {
        "turn": current_turn(game),  # the last turn begun, read from the log
        "current": state["current"],
        "spaces": [{"space": s.index, "name": s.name, "owner": owners.get(str(s.index)),
                    "houses": houses.get(str(s.index), 0), "mortgaged": s.index in mortgaged}
                   for s in game.spaces],
        "positions": {p["name"]: p["position"] for p in state["players"] if not p["bankrupt"]},
        "pots": state["pots"],
        "held": state["kept_cards"],
        "deck": state["deck"],
        "discard": state["discard"],
    }
