"""`easymoney play FILE`: run a game script and print its transcript and standings."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ..cli import trace_requested
from ..errors import EasyMoneyError, PluginError, UsageError, is_control, visible
from ..timelimit import check_game_timeout
from ._variant_args import (add_game_timeout_arg, add_invariants_arg, add_variant_args,
                            invariants_switch)

if TYPE_CHECKING:
    from ..engine.events import Event
    from ..engine.game import Game
    from ..script.runner import Note, RunResult, ScriptRunner


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="run a game script (*.game), or play a game at the prompt",
                       description="Run a game script: print one line per event, then the "
                       "standings and how many expectations held. Exit 0 when every "
                       "expectation held, 1 when one failed, 2 for any error. With "
                       "--interactive, play at the prompt (after the script, if one is named).")
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="the script; - reads standard input")
    seats = p.add_argument_group("interactive play", "Play at the prompt: see docs/playing.md.")
    seats.add_argument("--interactive", "-i", action="store_true",
                       help="play at the prompt: a new game, or FILE's game from where it ends")
    seats.add_argument("--players", nargs="+", metavar="NAME[:STRATEGY]",
                       help="the seats of a new game in turn order; NAME:STRATEGY is a bot "
                            "(e.g. Ann Bob:greedy Cat:cautious; default: You Ann:cautious "
                            "Bob:greedy)")
    seats.add_argument("--variant", metavar="VARIANT", default=None,
                       help="the variant of a new game: a built-in name or a .yaml file "
                            "(default: standard)")
    seats.add_argument("--seed", type=int, metavar="N", default=None,
                       help="the seed of a new game (default: a fresh one, printed)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help="one JSON object per event, then a summary object (JSON Lines)")
    out.add_argument("--quiet", action="store_true",
                     help="only the standings and the expectation report")
    p.add_argument("--record", metavar="OUT",
                   help="write the game just played as a complete script that replays it")
    add_invariants_arg(p)
    add_game_timeout_arg(p)
    p.add_argument("--trace", action="store_true",
                   help="print every hook call, the plugin that answered and its result "
                        "(also EASYMONEY_TRACE=1)")
    add_variant_args(p)
    p.set_defaults(func=run)


@invariants_switch
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
        return play_interactive(args)
    for flag, given in (("--players", args.players), ("--variant", args.variant),
                        ("--seed", args.seed)):
        if given is not None:
            raise UsageError(f"{flag} is for a new game at the prompt: add --interactive "
                             "(a script names its own in its header)")
    limit = check_game_timeout(args.game_timeout)
    if args.file is None:
        raise UsageError("name a script to play (FILE, or - for standard input), or start "
                         "a game at the prompt with --interactive")
    if args.record:
        check_not_input(args.record, args.file)
    from ..outputs import check_target
    from ..script.parser import MAX_SCRIPT_BYTES, parse_bytes, parse_file
    from ..script.record import Recorder, record_text, write_atomically
    from ..script.runner import ScriptRunner
    from ..timelimit import GameTimeout, stalled, time_limit
    if args.file == "-":
        # read one byte past the limit: enough for the parser to refuse a larger script
        script = parse_bytes(sys.stdin.buffer.read(MAX_SCRIPT_BYTES + 1), "<stdin>")
    else:
        script = parse_file(args.file)
    enable, disable, options = args.with_rules, args.without_rules, args.options
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

    if args.record:
        # before playing: no transcript for a record never written, no device replaced
        check_target(args.record, "--record")
    game_ref: list[Game] = []
    runner = ScriptRunner(script, enable=enable, disable=disable, options=options,
                          trace=sys.stderr if trace_requested(args) else None,
                          on_event=on_event, on_note=on_note)
    game_ref.append(runner.game)
    recorder = Recorder(runner.game) if args.record else None
    # made before the game: a variant path a script cannot write is refused now
    header = _record_header(runner, args.record) if args.record else []
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
        write_atomically(args.record, record_text(header, recorder, args.record))
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


def _names_script(value: str) -> bool:
    return value == "-" or value.endswith(".game") or "/" in value or os.sep in value


def check_not_input(record: str, script: str) -> None:
    """Refuse a record that would overwrite the script it records (also through a link)."""
    if script == "-":
        return
    try:
        same = os.path.samefile(record, script)
    except OSError:
        return  # the record does not exist yet (or the script cannot be read: said later)
    if same:
        raise UsageError(f"--record {record} would overwrite the script being played "
                         f"({script}): name another file, e.g. --record "
                         f"{os.path.splitext(record)[0]}-recorded.game")


def waits_for(game: Game) -> str | None:
    """What a stopped game waits for, in the rules' words ("Ann to buy Dover Street or decline")."""
    if game.outcome is not None or game.request is None:
        return None
    return game.request.describe()


def _record_header(runner: ScriptRunner, out_path: str) -> list[str]:
    from ..script.record import header_lines
    h = runner.header
    ref, _ = h.variant_ref(runner.script)
    is_path = h.variant is not None and h.variant.path is not None
    if is_path:
        ref = os.path.relpath(ref, os.path.dirname(os.path.abspath(out_path)))
    switched: dict[str, bool] = {}
    for on, rule, _stmt in h.switches:
        switched.pop(rule, None)
        switched[rule] = on
    return header_lines(
        ref, is_path=is_path,
        enable=[r for r, on in switched.items() if on],
        disable=[r for r, on in switched.items() if not on],
        options=[o for o, _ in h.options],
        players=[p.name for p in runner.game.players], seed=h.seed,
        setup=[str(s) for s in h.setup])


def summary(result: RunResult) -> dict[str, Any]:
    game = result.game
    o = game.outcome
    ranks = {p.name: (w, r) for p, w, r in game.standings()}
    return {
        "variant": game.variant.name,
        "seed": game.seed,
        "turns": game.turns_played,
        "over": o is not None,
        "reason": o.reason if o else None,
        "detail": o.detail if o else None,
        "winners": list(o.winners) if o else [p.name for p in game.winners()],
        "standings": [{"player": p.name, "cash": p.cash, "worth": ranks.get(p.name, (None,))[0],
                       "rank": ranks.get(p.name, (None, None))[1], "bankrupt": p.bankrupt}
                      for p in game.players],
        "bank": game.bank.cash,
        "pots": {name: pot.cash for name, pot in game.pots.items()},
        "expectations": {"checked": result.checked, "held": result.held,
                         "failed": len(result.failures)},
        "players": [{"name": p.name, "strategy": p.strategy, "cash": p.cash,
                     "worth": ranks.get(p.name, (None,))[0],
                     "rank": ranks.get(p.name, (None, None))[1], "position": p.position,
                     "houses_left": p.houses_left, "bankrupt": p.bankrupt,
                     "cards": [c.text for c in p.held]} for p in game.players],
        "waiting_for": waits_for(game),
        "state": final_state(game),
    }


def final_state(game: Game) -> dict[str, Any]:
    """The board where the game ends: each space's owner, houses and mortgage, the MEN,
    the pots, the Special Exemption card's holder and the draw pile's size."""
    return {
        "turn": current_turn(game),
        "current": game.current.name if game.current is not None else None,
        "spaces": [{"space": s.index, "name": s.name, "owner": _name(game.owner[s.index]),
                    "houses": game.houses[s.index], "mortgaged": game.mortgaged[s.index]}
                   for s in game.spaces],
        "positions": {p.name: p.position for p in game.players if not p.bankrupt},
        "pots": {name: pot.cash for name, pot in game.pots.items()},
        # the cards drawers keep (the Special Exemption card): who holds each, or null
        "held": {text: None if p is None else p.name for text, p in game.kept_cards()},
        "deck": len(game.deck),
        "discard": len(game.discard),
    }


def _name(player: Any) -> str | None:
    return None if player is None else player.name


def current_turn(game: Game) -> int:
    """The number of the last turn begun (0 before the first)."""
    for event in reversed(game.log):
        if event.kind == "turn":
            return int(event.data["number"])
    return 0


def standings_text(result: RunResult) -> str:
    from ..engine.actions import money
    game = result.game
    o = game.outcome
    lines = [""]
    turn = current_turn(game)
    if o is not None:
        lines.append(f"Game over in turn {turn} by {o.reason}: {o.detail}")
    else:
        lines.append(f"The game stopped in turn {turn} (the script ends here)")
    lines.append("Standings:")
    width = max(len(p.name) for p in game.players)
    table = {p.name: (w, r) for p, w, r in game.standings()}
    order = sorted(game.players, key=lambda p: (p.name not in table, table.get(p.name, (0, 0))[1], p.index))
    for p in order:
        if p.name in table:
            worth, rank = table[p.name]
            lines.append(f"  {rank}. {p.name:<{width}}  cash {money(p.cash):>9}  worth {money(worth):>9}")
        else:
            lines.append(f"  -  {p.name:<{width}}  bankrupt")
    winners = o.winners if o else tuple(p.name for p in game.winners())
    label = "Winner" if o else "Leader"
    lines.append(f"{label}{'s' if len(winners) > 1 else ''}: {', '.join(winners) or 'nobody'}")
    if result.checked:
        lines.append(f"Expectations: {result.held} of {result.checked} held")
    return "\n".join(lines) + "\n"
