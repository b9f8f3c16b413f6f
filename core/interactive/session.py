"""The interactive session: a ScriptRunner whose script grows with each line a person types."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import random
import sys
from collections.abc import Callable
from typing import Any, TextIO

from ..board.state import BoardState
from ..board.text import text_board
from ..engine import actions as A
from ..engine.events import Event
from ..engine.game import Game
from ..errors import EasyMoneyError, ScriptSyntaxError, UsageError
from ..script import ast as S
from ..script.parser import parse, parse_file
from ..script.record import Recorder, record_text, write_atomically
from ..script.runner import Note, RunResult, ScriptRunner
from .answers import (completions, describe_wait, help_text, possible_answers, split_words,
                      status_text, turn_of)

INSTALL_PLAY = "pip install 'easymoney-game[play]'"
DEFAULT_PLAYERS = ("You", "Ann:cautious", "Bob:greedy")
NEW_GAME = "<new game>"
HISTORY_LINES = 30  # `history` alone shows this many of the last lines


class _Undo(BaseException):
    """Raised out of the game to replay it without the person's last decision (a
    BaseException, as KeyboardInterrupt: the game reports any Exception from inside a turn
    as a plugin's failure, and this one is no failure)."""


class Reader:
    """Reads the person's lines: prompt_toolkit at a terminal, plain lines from a pipe."""

    def __init__(self, game: Callable[[], Game | None], stdin: TextIO, stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout
        self.session: Any = None
        if stdin.isatty() and stdout.isatty():
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import Completer, Completion
            from prompt_toolkit.history import InMemoryHistory

            class _Words(Completer):
                def get_completions(self, document: Any, complete_event: Any) -> Any:
                    g = game()
                    if g is None:
                        return
                    words, current = split_words(document.text_before_cursor)
                    for word in completions(g, words, current):
                        yield Completion(word, start_position=-len(current))

            self.session = PromptSession(history=InMemoryHistory(), completer=_Words(),
                                         complete_while_typing=False)

    def read(self, prompt: str) -> str:
        """One line; EOFError at Ctrl-D or the end of input, KeyboardInterrupt at Ctrl-C."""
        if self.session is not None:
            return str(self.session.prompt(prompt))
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            raise EOFError
        self.stdout.write(line if line.endswith("\n") else line + "\n")  # a piped session reads as typed
        return line


class Session:
    """One game at the prompt. The game is always the replay of a script: the base script
    (a file, or the header of a new game) followed by the lines the people typed, so that
    `undo` replays it without the last of them and `save` writes what `--record` writes."""

    def __init__(self, args: argparse.Namespace, base_lines: list[str], filename: str,
                 out: TextIO | None = None, stdin: TextIO | None = None) -> None:
        out = out or sys.stdout
        stdin = stdin or sys.stdin
        self.args = args
        self.base = list(base_lines)
        self.filename = filename
        self.out = out
        self.typed: list[str] = []        # the people's lines that stand, in order
        self.lines: list[str] = []        # the script of the game being played
        self.typed_at: list[int] = []     # line number (in `lines`) of each of `typed`
        self.history: list[str] = []
        self.muted = False
        self.left = False
        self.runner: ScriptRunner | None = None
        self.recorder: Recorder | None = None
        self.shown: A.Request | None = None
        self.banner = ""
        self.reader = Reader(lambda: self.runner.game if self.runner else None, stdin, out)

    # --- output ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _event(self, event: Event) -> None:
        if self.banner:  # said once the game is set up: never before an error in its header
            self.say(self.banner)
            self.banner = ""
        text = self.runner.game.describe(event) if self.runner else None
        if text is None:
            return
        self.history.append(text)
        if not self.muted:
            self.say(text)

    def _note(self, note: Note) -> None:
        if note.kind == "expectation_failed":
            self.say(f"{self.filename}:{note.line}:{note.column}: expectation failed: "
                     f"{note.text}: {note.message}")
        elif not self.muted:
            self.say(f"line {note.line}: refused as expected: {note.message}")

    # --- the game --------------------------------------------------------------------------
    def play(self) -> int:
        quiet = False
        while True:
            try:
                result = self._run(quiet)
            except EasyMoneyError as exc:
                raise self._option_error(exc) from None
            except _Undo:
                quiet = True
                continue
            except KeyboardInterrupt:
                self.say("")
                self.say(f"Interrupted: you leave the game in turn {self._turn()}.")
                self._record()
                return 130
            break
        from ..commands.play import standings_text
        self.out.write(standings_text(result).replace("(the script ends here)",
                                                      "(you left the game)"))
        self._record()
        if self.left:
            return 0
        return self._after(result)

    def _option_error(self, exc: EasyMoneyError) -> EasyMoneyError:
        """An error in the header of a new game is the command line's: name the option."""
        if self.filename != NEW_GAME or exc.file != NEW_GAME or exc.line is None:
            return exc
        flag = {1: "--variant", 2: "--players", 3: "--seed"}.get(exc.line)
        return UsageError(f"{flag}: {exc.message}" if flag else exc.message)

    def _turn(self) -> int:
        return turn_of(self.runner.game) if self.runner else 0

    def _run(self, quiet: bool) -> RunResult:
        self.lines = self.base + self.typed
        self.typed_at = list(range(len(self.base) + 1, len(self.lines) + 1))
        script = parse("\n".join(self.lines) + "\n", self.filename)
        self.muted = quiet
        self.history = []
        self.shown = None
        args = self.args
        self.runner = ScriptRunner(script, enable=args.with_rules, disable=args.without_rules,
                                   options=args.options, on_event=self._event,
                                   on_note=self._note, more_lines=self._more,
                                   on_refused=self._refused)
        self.recorder = Recorder(self.runner.game)
        return self.runner.run()

    def _more(self, request: A.Request) -> list[Any] | None:
        """The next line of the person asked: commands are carried out here, until a line
        of the script language comes (None: the person leaves)."""
        assert self.runner is not None
        self.muted = False
        if self.shown is not request:
            self.shown = request
            self.say(describe_wait(self.runner.game, request))
        while True:
            try:
                line = self.reader.read(f"{request.player}> ").strip()
                if not line or self._command(line, request):
                    continue
            except EOFError:  # Ctrl-D, the end of piped input, or `quit`
                self.say(f"You leave the game in turn {self._turn()}.")
                self.left = True
                self.muted = True  # the runner's "the script ends here" is not for a person
                return None
            stmt = self._statement(line, request)
            if stmt is not None:
                return [stmt]

    def _command(self, line: str, request: A.Request | None) -> bool:
        """Carry out a command of the prompt; False when the line is none."""
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        game = self.runner.game if self.runner else None
        if word in ("?", "help") and game is not None:
            if word == "help":
                self.say(help_text())
            elif request is None:
                self.say("The game is over: board, status, history, save FILE or quit.")
            else:
                self.say(f"{request.player} may answer:")
                for answer in possible_answers(game, request):
                    self.say("  " + answer)
            return True
        if word == "board" and game is not None and not rest:
            self.out.write(text_board(BoardState.of(game, turn_of(game))))
            return True
        if word == "status" and game is not None and not rest:
            self.say(status_text(game))
            return True
        if word == "history" and (not rest or rest.isdigit() or rest == "all"):
            count = len(self.history) if rest == "all" else int(rest or HISTORY_LINES)
            for text in self.history[-count:] if count else []:
                self.say(text)
            return True
        if word == "save":
            if not rest:
                self.say("save needs a file name: save FILE (e.g. save mine.game)")
            else:
                path = rest.strip('"')
                try:
                    self._write(path)
                    self.say(f"Saved the game to {path}: `easymoney play {path}` replays it.")
                except EasyMoneyError as exc:
                    self.say(f"error: {exc.message}")
            return True
        if word == "undo" and not rest:
            if request is None:
                self.say("The game is over: there is nothing to undo.")
            elif not self.typed:
                self.say("Nothing to undo: no decision has been typed yet.")
            else:
                taken = self.typed.pop()
                self.say(f"Taking back `{taken}`: replaying the game to just before it.")
                raise _Undo()
            return True
        if word in ("quit", "exit") and not rest:
            raise EOFError
        return False

    def _statement(self, line: str, request: A.Request) -> Any:
        """The statement of a typed line (the asked player's name put in front when left
        out), or None after saying why it cannot be one."""
        assert self.runner is not None
        game = self.runner.game
        first = line.split(maxsplit=1)[0]
        text = line if first in game.by_name else f"{request.player} {line}"
        try:
            # blank lines in front: the statement carries its line number in the game's script
            script = parse("\n" * len(self.lines) + text + "\n", self.filename)
        except ScriptSyntaxError as exc:
            self.say(f"not understood: {exc.message}")
            if exc.col is not None:
                self.say("  " + text + "\n  " + " " * (exc.col - 1) + "^")
            self.say("(? lists what may be answered now; help lists the commands)")
            return None
        stmts = list(script.header) + list(script.body)
        stmt = stmts[0] if len(stmts) == 1 else None
        if stmt is None or not isinstance(stmt, S.ACTION_TYPES) or isinstance(
                stmt, (S.Draw, S.Autoplay)):
            self.say("At the prompt, answer with one action (the cards are drawn by the "
                     "game); ? lists what may be answered now.")
            return None
        actor = getattr(stmt, "player", None)
        if actor != request.player.name and not getattr(stmt, "ANY_MOMENT", False):
            self.say(f"It is {request.player}'s decision now: the game waits for "
                     f"{request.describe()}.")
            return None
        self.lines.append(text)
        self.typed.append(text)
        self.typed_at.append(stmt.line)
        self.runner.script = dataclasses.replace(self.runner.script,
                                                 source_lines=tuple(self.lines))
        return stmt

    def _refused(self, stmt: Any, message: str) -> None:
        """A typed line the rules refuse, or that does not answer: say why; nothing changed."""
        assert self.runner is not None
        if stmt.line not in self.typed_at:  # a line of the script file: its error stands
            raise self.runner.error(stmt, message)
        k = self.typed_at.index(stmt.line)
        del self.typed[k], self.typed_at[k]
        self.say(f"refused: {message}")
        self.say("Nothing changed; answer again (? lists what may be answered now).")

    # --- after the game -----------------------------------------------------------------------
    def _after(self, result: RunResult) -> int:
        if result.game.outcome is None:
            return 0
        self.say("The game is over: board, status, history and save FILE still work; "
                 "quit or Ctrl-D leaves.")
        while True:
            try:
                line = self.reader.read("> ").strip()
            except (EOFError, KeyboardInterrupt):
                return 0
            if not line:
                continue
            try:
                if not self._command(line, None):
                    self.say("The game is over: board, status, history, save FILE or quit.")
            except EOFError:
                return 0

    def _write(self, path: str) -> None:
        from ..commands.play import _record_header
        from ..outputs import check_target
        assert self.runner is not None and self.recorder is not None
        check_target(path, "save")
        write_atomically(path, record_text(_record_header(self.runner, path), self.recorder))

    def _record(self) -> None:
        if self.args.record and self.runner is not None:
            try:
                self._write(self.args.record)
                self.say(f"Recorded the game in {self.args.record}.")
            except EasyMoneyError as exc:
                self.say(f"error: {exc.message}")


def new_game_lines(args: argparse.Namespace) -> list[str]:
    """The header of a new game from the command line: variant, players and seed."""
    ref = args.variant or "standard"
    if ref.endswith((".yaml", ".yml")) or os.sep in ref:
        variant = f'variant "{os.path.abspath(ref)}"'
    else:
        variant = f"variant {ref}"
    players = args.players or list(DEFAULT_PLAYERS)
    return [variant, "players " + " ".join(players), f"seed {args.seed}"]


def play_interactive(args: argparse.Namespace) -> int:
    """`easymoney play [FILE] --interactive`."""
    if importlib.util.find_spec("prompt_toolkit") is None:
        raise UsageError(f"interactive play needs prompt_toolkit: {INSTALL_PLAY}")
    if args.file is not None:
        for flag, given in (("--players", args.players), ("--variant", args.variant),
                            ("--seed", args.seed)):
            if given is not None:
                raise UsageError(f"{flag} is for a new game: {args.file} names its own in "
                                 "its header")
        if args.file == "-":
            raise UsageError("--interactive reads your answers from standard input: name "
                             "the script as a file")
        script = parse_file(args.file)
        lines, filename = list(script.source_lines), args.file
    else:
        if args.seed is None:
            args.seed = random.SystemRandom().randrange(1, 1_000_000)
        lines, filename = new_game_lines(args), NEW_GAME
    if args.record:
        from ..commands.play import check_record
        check_record(args, lines, filename)
    session = Session(args, lines, filename)
    if args.file is None:
        session.banner = (f"A new game of {args.variant or 'standard'}, seed {args.seed} "
                    f"(`--seed {args.seed}` deals the same dice again). Type ? for what "
                          "you may answer, help for the commands.")
    return session.play()
