"""The interactive session: a GameState stepped by the people at the prompt and the bots.

The game is a `GameState`: each person's line is one `apply`, each bot's seat is answered by
its strategy, `undo` steps back and `save` writes the state's script. A script named on the
command line is replayed into the state first by the script runner's reading of its lines
(the runner answers each request from the script, and checks its `expect` lines), then the
prompt goes on from where it ends.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any, TextIO

from ..board.state import BoardState
from ..board.text import text_board
from ..engine.actions import Action, Request
from ..engine.deals import AGREE, Accept
from ..engine.events import Event
from ..engine.game import Game, StopGame
from ..engine.stepping import GameState
from ..errors import (EasyMoneyError, RefusedAction, ScriptError, ScriptSyntaxError, UsageError,
                      shown_line, visible)
from ..outputs import (check_record, check_target, handling, record_header, record_inputs,
                       standings_text, write_atomically)
from ..engine.settings import Settings
from ..script import ast as S
from ..script.parser import parse, parse_file
from ..script.runner import Note, RunResult, ScriptRunner
from ..seats import close_strategies
from ..script.setup import apply_setup
from ..script.table import read_line
from .answers import (answer_lines, completions, describe_wait, ends_turn, help_text, is_throw,
                      split_words, status_text, turn_of)

INSTALL_PLAY = "pip install 'easymoney-game[play]'"
# the default person is named so that the game's sentences read ("Pat has $20,000")
DEFAULT_PLAYERS = ("Pat", "Ann:cautious", "Bob:greedy")
NEW_GAME = "<new game>"
HISTORY_LINES = 30  # `history` alone shows this many of the last lines
HISTORY_USAGE = "usage: history [N | all]: the last N lines of the transcript (30 without N)"
CHOSEN_DICE = "# the dice were chosen by the players (--choose-dice)"
EXIT_STATUS: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}


class Signalled(SystemExit):
    """SIGHUP or SIGTERM: the person leaves as at Ctrl-C (the record is written). A
    SystemExit, as asyncio (under prompt_toolkit) lets only it and KeyboardInterrupt through."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


class OutputGone(BaseException):
    """Standard output was closed (`play -i | head`): leave quietly."""


class Reader:
    """Reads the person's lines: prompt_toolkit at a terminal, plain lines from a pipe."""

    def __init__(self, state: Callable[[], GameState | None], stdin: TextIO,
                 stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout
        self.session: Any = None
        if _is_tty(stdin) and _is_tty(stdout):
            if importlib.util.find_spec("prompt_toolkit") is None:
                raise UsageError(f"interactive play at a terminal needs prompt_toolkit: "
                                 f"{INSTALL_PLAY} (or pipe the answers in)")
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import Completer, Completion
            from prompt_toolkit.history import InMemoryHistory

            class _Lines(Completer):
                def get_completions(self, document: Any, complete_event: Any) -> Any:
                    s = state()
                    if s is None:
                        return
                    words, current = split_words(document.text_before_cursor)
                    for word in completions(s, words, current):
                        yield Completion(word, start_position=-len(current))

            self.session = PromptSession(history=InMemoryHistory(), completer=_Lines(),
                                         complete_while_typing=False)

    def interrupt(self, signum: int) -> bool:
        """End the prompt being read with the signal's exception (raised by `read`); False
        when no prompt_toolkit prompt runs (the caller raises it)."""
        app = getattr(self.session, "app", None)
        if app is None or not app.is_running:
            return False
        exc: BaseException = KeyboardInterrupt() if signum == signal.SIGINT else Signalled(signum)
        app.loop.call_soon_threadsafe(lambda: app.exit(exception=exc))
        return True

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
        # a piped session reads as typed, its control characters shown, never carried out
        self.stdout.write(shown_line(line.rstrip("\n")) + "\n")
        return line


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass
class Mark:
    """A person's own step: where to step back to on `undo`."""

    steps: int       # the state's steps before it
    transcript: int  # the transcript's length before it
    line: str        # the line as applied


class Session:
    """One game at the prompt, on a `GameState`."""

    def __init__(self, args: argparse.Namespace, script: S.Script, out: TextIO | None = None,
                 stdin: TextIO | None = None, settings: Settings | None = None) -> None:
        self.args = args
        self.settings = settings
        self.script = script
        self.filename = script.filename
        self.out = out or sys.stdout
        self.history: list[str] = []      # the transcript, for `history`
        self.marks: list[Mark] = []       # the people's steps that stand, for `undo`
        self.auto = bool(getattr(args, "auto_pass", False))
        self.act = False    # with auto on: the person asked to act at their next window
        self.hold = False   # after an undo: ask, do not pass, the request stepped back to
        # the person who acted in a window they were asked in: it stays open until they pass it
        self.open_window = ""
        self.shown = -1     # the step count whose "waits for" line was shown
        self.person = ""    # the person asked last (who leaves on quit)
        self.out_gone = False
        self.busy = True    # signals wait while a step is taken: a record is whole steps
        self.pending: int | None = None
        self.banner = ""
        self.runner = self._runner()
        self.bots = dict(self.runner.strategies)
        self.state = self._state()
        self.reader = Reader(lambda: self.state, stdin or sys.stdin, self.out)

    # --- building the game -----------------------------------------------------------------
    def _runner(self) -> ScriptRunner:
        args = self.args
        try:
            return ScriptRunner(self.script, enable=args.with_rules, disable=args.without_rules,
                                options=args.options, settings=self.settings,
                                on_note=self._note)
        except EasyMoneyError as exc:
            raise self._option_error(exc) from None

    def _state(self) -> GameState:
        runner = self.runner
        game = runner.game
        setup = runner.header.setup

        def set_up() -> None:  # the game's own setup, then the header's `setup` lines
            Game.setup(game)
            for stmt in setup:
                try:
                    apply_setup(game, stmt, runner)
                except EasyMoneyError as exc:
                    raise runner.error(stmt, exc.message) from None

        game.setup = set_up  # type: ignore[method-assign]
        try:
            state = GameState(game, choose_dice=True, read_line=read_line)
        finally:
            del game.setup
        return state

    def _option_error(self, exc: EasyMoneyError) -> EasyMoneyError:
        """An error in the header of a new game is the command line's: name the option."""
        if self.filename != NEW_GAME or exc.file != NEW_GAME or exc.line is None:
            return exc
        flag = {1: "--variant", 2: "--players", 3: "--seed"}.get(exc.line)
        return UsageError(f"{flag}: {exc.message}" if flag else exc.message)

    def _replay(self) -> None:
        """The script's lines, each read by the script runner and applied to the state (a
        line stating a deal is the deal both agreed; its `draws` lines choose the cards)."""
        runner, state = self.runner, self.state
        state.choose_card = runner.choose_card  # type: ignore[method-assign]
        try:
            while state.request is not None and (runner.autoplay or
                                                 runner._next_action() < len(runner.body)):
                request = state.request
                try:
                    action = runner.decide(state.game, request)
                except StopGame:
                    break
                try:
                    self._take(action)
                except RefusedAction as exc:
                    runner.refused(state.game, request, action, list(exc.refusals))
                    continue
                offer = state.request
                if offer is not None and offer.kind == AGREE and offer.offer == action:
                    self._take(Accept(offer.player, action))
            # as `play` does, the last expectations wait while the bots drive the game
            while state.request is not None and state.request.player.name in self.bots:
                self._take(self.bots[state.request.player.name].decide(state.game,
                                                                        state.request))
            runner._flush(len(runner.body))
        finally:
            del state.choose_card

    # --- output ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.out_gone:
            return
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except OSError:  # the reader went away (`| head`), or the terminal closed
            self.out_gone = True

    def _event(self, event: Event) -> None:
        if self.banner:  # said once the game is set up: never before an error in its header
            self.say(self.banner)
            self.banner = ""
        text = self.state.game.describe(event)
        if text is None:
            return
        self.history.append(text)
        self.say(text)

    def _note(self, note: Note) -> None:
        if note.kind == "expectation_failed":
            self.say(f"{self.filename}:{note.line}:{note.column}: expectation failed: "
                     f"{note.text}: {note.message}")
        else:
            self.say(f"line {note.line}: refused as expected: {note.message}")

    # --- signals ---------------------------------------------------------------------------
    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.busy:
            self.pending = signum  # taken at the end of the step under way
        elif not self.reader.interrupt(signum):
            self._raise(signum)

    @staticmethod
    def _raise(signum: int) -> None:
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Signalled(signum)

    def _check_pending(self) -> None:
        if self.out_gone:
            raise OutputGone
        if self.pending is not None:
            signum, self.pending = self.pending, None
            self._raise(signum)

    @contextmanager
    def _signals(self) -> Iterator[None]:
        with handling(EXIT_STATUS, self._on_signal):
            yield

    def _read(self, prompt: str) -> str:
        self._check_pending()
        self.busy = False
        try:
            return self.reader.read(prompt)
        except OSError as exc:  # the terminal went away while reading
            raise Signalled(signal.SIGHUP) from exc
        finally:
            self.busy = True

    # --- the game --------------------------------------------------------------------------
    def play(self) -> int:
        with self._signals():
            try:
                return self._play()
            except KeyboardInterrupt:
                return self._leave(130, "Interrupted: ")
            except Signalled as exc:
                return self._leave(EXIT_STATUS.get(exc.signum, 128 + exc.signum), "")
            except OutputGone:
                self._record()
                return 0
            finally:  # programs at seats (core/seats.py) end with the session
                close_strategies(self.bots.values())

    def _leave(self, status: int, why: str) -> int:
        self.say("")
        who = f"{self.person} leaves" if self.person else "You leave"  # before anyone was asked
        self.say(f"{why}{who} the game in turn {turn_of(self.state.game)}.")
        self._record()
        return status

    def _play(self) -> int:
        game = self.state.game
        for event in list(game.log):  # the setup's events, said before the listener was on
            self._event(event)
        self.state.listen(self._event)
        if self.script.body:
            self._replay()
        self.state.choose_dice = bool(getattr(self.args, "choose_dice", False))
        left = self._loop()
        self._check_pending()
        result = RunResult(self.state.game, self.runner.checked, self.runner.failures)
        text = standings_text(result).replace("(the script ends here)", "(left at the prompt)")
        self.say(text.rstrip("\n"))
        self._record()
        if left:
            return 0
        return self._after()

    def _loop(self) -> bool:
        """Step the game until it is over (False) or the person leaves (True)."""
        state = self.state
        while state.request is not None:
            self._check_pending()
            request = state.request
            player = request.player.name
            bot = self.bots.get(player)
            if bot is not None:
                self._take(bot.decide(state.game, request))
                continue
            self.person = player
            passed = self._passing(request)
            if passed is not None:
                action, why = passed
                self.say(f"{player} {_unnamed(str(action), player)} ({why})")
                self._take(action)
                continue
            try:
                self._ask(request)
            except EOFError:  # Ctrl-D, the end of piped input, or `quit`
                self.say(f"{player} leaves the game in turn {turn_of(state.game)}.")
                return True
        return False

    def _take(self, action: Action) -> None:
        """One step of a bot, of the replayed script or of the session itself."""
        self.state.apply(action)

    def _passing(self, request: Request) -> tuple[Action, str] | None:
        """The step the session takes for the person, and why: the turn's end when it is all
        that is left; with auto on, the pass of a window the person has not asked to act in."""
        legal = self.state.legal_actions()
        if len(legal) == 1 and isinstance(legal[0], Action) and ends_turn(legal[0]):
            self.open_window = ""
            return legal[0], "by itself: nothing else may be done now"
        passes = _passes(legal)
        if not passes or self.hold or self.open_window == request.player.name:
            return None
        if self.act:
            self.act = False  # this window is the one asked for
            return None
        if self.auto:
            return passes[0], "auto: `act` to stop at your next window, `auto off` to stop"
        return None

    def _ask(self, request: Request) -> None:
        """Read the person's lines until one is a step taken (commands are carried out)."""
        state = self.state
        if self.shown != state.steps:
            self.shown = state.steps
            self.say(describe_wait(state, request))
        while True:
            line = self._read(f"{request.player}> ").strip()
            if not line:
                continue
            try:
                if self._command(line):
                    if self.shown == -1:  # an undo stepped back, or auto went on: look again
                        return
                    continue
            except EasyMoneyError as exc:
                self.say(f"error: {visible(exc.message)}")
                continue
            if self._answer(line, request):
                self.hold = False
                return

    def _answer(self, line: str, request: Request) -> bool:
        """Apply the person's line; False after saying why it was not applied."""
        state = self.state
        p = request.player
        first = line.split(maxsplit=1)[0]
        if first in state.game.by_name and first != p.name:
            bot = " (a bot: its strategy decides)" if first in self.bots else ""
            self.say(f"refused: it is {p}'s decision now, and only {p}'s lines are typed here: "
                     f"{first}{bot} answers for itself when the game asks them.")
            return False
        text = line if first == p.name else f"{p} {line}"
        steps, transcript = state.steps, len(self.history)
        window = bool(_passes(state.legal_actions()))
        try:
            action = read_line(state, text)
            if action.player is not p:
                self.say(f"refused: it is {p}'s decision now: the game waits for "
                         f"{request.describe()}.")
                return False
            state.apply(action)
        except ScriptSyntaxError as exc:
            self.say(f"not understood: {visible(exc.message)}")
            if exc.col is not None:
                self.say("  " + shown_line(text) + "\n  " + " " * (exc.col - 1) + "^")
            self.say("(? lists what may be answered now; help lists the commands)")
            return False
        except RefusedAction as exc:
            # the game's own refusals (dice, whose turn) name no rule and no plugin
            self.say(f"refused: {visible(exc.message.replace(': - -: ', ': '))}")
            self.say("Nothing changed; answer again (? lists what may be answered now).")
            return False
        except ScriptError as exc:
            self.say(f"refused: {visible(exc.message)}")
            self.say("Nothing changed; answer again (? lists what may be answered now).")
            return False
        except EasyMoneyError as exc:  # a rule failed while carrying it out: take it back
            self.say(f"error: {visible(exc.message)}")
            if state.steps > steps:
                state.undo()
                del self.history[transcript:]
            self.say("Nothing changed; answer again.")
            return False
        self.marks.append(Mark(steps, transcript, str(action)))
        if window:  # an action in a window keeps it open for the next; its pass closes it
            self.open_window = "" if _passes([action]) else p.name
        return True

    # --- commands --------------------------------------------------------------------------
    def _command(self, line: str) -> bool:
        """Carry out a command of the prompt; False when the line is none."""
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        state = self.state
        game = state.game
        request = state.request
        if word == "help":
            self.say(help_text(state))
            return True
        if word == "?":
            if request is None:
                self.say("The game is over: board, status, history, save FILE or quit.")
            else:
                self.say(f"{request.player} may answer:")
                for answer in answer_lines(state):
                    self.say("  " + answer)
            return True
        if word == "board" and not rest:
            # the state now, in the turn under way (after the last one, once the game is over)
            self.say(text_board(BoardState.of(game, turn_of(game), under_way=True)).rstrip("\n"))
            return True
        if word == "status" and not rest:
            self.say(status_text(game))
            return True
        if word == "history":
            self._history(rest)
            return True
        if word == "save":
            self._save(rest)
            return True
        if word == "undo" and not rest:
            self._undo()
            return True
        if word == "auto" and rest in ("on", "off"):
            self.auto = rest == "on"
            self.hold = False
            self.open_window = ""
            self.shown = -1  # the window under way may be passed now
            self.say("Your windows are passed without asking (`act` stops at the next one)."
                     if self.auto else "You are asked at every window again.")
            return True
        if word == "act" and not rest:
            self.act = True
            self.say("You will be asked at your next window, until you pass it.")
            return True
        if word in ("quit", "exit") and not rest:
            raise EOFError
        if word in COMMAND_USAGE:
            self.say(COMMAND_USAGE[word])
            return True
        return False

    def _history(self, rest: str) -> None:
        if rest == "all":
            count = len(self.history)
        elif not rest:
            count = HISTORY_LINES
        elif rest.isascii() and rest.isdigit() and len(rest) <= 9:
            count = int(rest)
        else:
            self.say(f"{HISTORY_USAGE}; found {visible(rest)!r}"[:200])
            return
        for text in self.history[-count:] if count else []:
            self.say(text)

    def _save(self, rest: str) -> None:
        path = rest.strip('"')
        if not path:
            self.say("save needs a file name: save FILE (e.g. save mine.game)")
            return
        if path == "-":
            self.say("save -: a game is saved to a file, not to standard output: name one "
                     "(e.g. save mine.game)")
            return
        try:
            self._write(path, "save")
        except EasyMoneyError as exc:
            self.say(f"error: {visible(exc.message)}")
            return
        shown = visible(path)
        self.say(f"Saved the game to {shown}: `easymoney play {shown}` replays it.")

    def _undo(self) -> None:
        state = self.state
        if state.request is None:
            self.say("The game is over: there is nothing to undo.")
            return
        if not self.marks:
            self.say("Nothing to undo: no decision has been typed yet.")
            return
        mark = self.marks.pop()
        while state.steps > mark.steps:
            state.undo()
        del self.history[mark.transcript:]
        self.hold = True
        self.open_window = ""  # the request stepped back to is asked (hold), open or not
        self.shown = -1
        self.say(f"Taking back `{visible(mark.line)}` (and what followed it).")

    # --- after the game -----------------------------------------------------------------------
    def _after(self) -> int:
        self.say("The game is over: board, status, history and save FILE still work; "
                 "quit or Ctrl-D leaves.")
        while True:
            try:
                line = self._read("> ").strip()
            except (EOFError, KeyboardInterrupt):
                return 0
            if not line:
                continue
            try:
                if not self._command(line):
                    self.say("The game is over: board, status, history, save FILE or quit.")
            except EOFError:
                return 0

    # --- the record ------------------------------------------------------------------------
    def script_text(self, path: str) -> str:
        """The game as a script written to `path`: the state's script, its header naming the
        variant from where the file is."""
        header = record_header(self.runner, path)
        if self.state.choose_dice:
            header.insert(2, CHOSEN_DICE)
        self.state.header = header
        return self.state.script()

    def _write(self, path: str, what: str) -> None:
        check_target(path, what, record_inputs(self.args.file, self.state.game.variant))
        write_atomically(path, self.script_text(path))

    def _record(self) -> None:
        if self.args.record:
            try:
                self._write(self.args.record, "--record")
                self.say(f"Recorded the game in {visible(self.args.record)}.")
            except EasyMoneyError as exc:
                self.say(f"error: {visible(exc.message)}")


COMMAND_USAGE = {
    "board": "usage: board (the board as text)",
    "status": "usage: status (every player's cash, worth and spaces)",
    "undo": "usage: undo (take back your last decision)",
    "auto": "usage: auto on | auto off (pass your windows without being asked, or not)",
    "act": "usage: act (with auto on: be asked at your next window)",
    "quit": "usage: quit (leave the game)",
}


def _passes(legal: list[Any]) -> list[Action]:
    """The passes among `legal`: the throw of a window before the roll, the turn's end after."""
    return [a for a in legal if isinstance(a, Action) and (ends_turn(a) or is_throw(a))]


def _unnamed(line: str, name: str) -> str:
    head = f"{name} "
    return line[len(head):] if line.startswith(head) else line


def new_game_lines(args: argparse.Namespace) -> list[str]:
    """The header of a new game from the command line: variant, players and seed."""
    ref = args.variant or "standard"
    if ref.endswith((".yaml", ".yml")) or os.sep in ref:
        variant = f'variant "{os.path.abspath(ref)}"'
    else:
        variant = f"variant {ref}"
    players = args.players or list(DEFAULT_PLAYERS)
    return [variant, "players " + " ".join(players), f"seed {args.seed}"]


def play_interactive(args: argparse.Namespace, settings: Settings | None = None) -> int:
    """`easymoney play [FILE] --interactive`."""
    if args.file is not None:
        for flag, given in (("--players", args.players), ("--variant", args.variant),
                            ("--seed", args.seed)):
            if given is not None:
                raise UsageError(f"{flag} is for a new game: {args.file} names its own in "
                                 "its header")
        if args.file == "-":
            raise UsageError("--interactive reads your answers from standard input: name "
                             "the script as a file")
        script = parse_file(args.file, enable=args.with_rules, disable=args.without_rules,
                            options=args.options)
    else:
        if args.seed is None:
            args.seed = random.SystemRandom().randrange(1, 1_000_000)
        try:
            script = parse("\n".join(new_game_lines(args)) + "\n", NEW_GAME,
                           enable=args.with_rules, disable=args.without_rules,
                           options=args.options)
        except EasyMoneyError as exc:
            option = {1: "--variant", 2: "--players", 3: "--seed"}.get(exc.line or 0)
            raise UsageError(f"{option}: {exc.message}" if option else exc.message) from None
    if args.record:
        check_record(args, script)
    session = Session(args, script, settings=settings)
    if args.file is None:
        dice = " You choose your dice (`rolls 3 4`)." if args.choose_dice else ""
        session.banner = (f"A new game of {args.variant or 'standard'}, seed {args.seed} "
                          f"(`--seed {args.seed}` deals the same dice again).{dice} Type ? "
                          "for what you may answer, help for the commands.")
    return session.play()
