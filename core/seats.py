"""Programs at a seat: a strategy that asks a program in any language, one JSON line each way.

A seat written `Ann:exec:"python my_bot.py"` (options after it: `:timeout=2`,
`:on_error=resign`) is a `ProgramStrategy`. The program is started (shlex-split, no shell)
at the seat's first decision, in a process group of its own, and closed with the group at
the end of the game; it hears a hello, then one `decide` message per decision, and answers
each with one line, the message and the answer within the seat's time limit. A program
that is slow, does not read, crashes, writes garbage or answers an illegal line is
stopped, named by a `seat_failed` event, and its seat plays the fallback (a built-in
strategy, or `resign`) from then on.
The protocol is docs/seats.md.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from .bots import Strategy
from .engine.actions import Action, ActionRange, Request
from .engine.deals import Reject
from .engine.legal import is_listed, legal_actions, lone_closing
from .view import ChoiceError, clip, decision_view, parse_answer, read_choice
from .errors import UsageError, did_you_mean

PROTOCOL = 1              # what a program hears first, and speaks unless it chooses another
PROTOCOLS = (1, 2)        # the versions a program may choose in its answer to the hello
PREFIX = "exec:"
DEFAULT_TIMEOUT = 10.0    # seconds a program may think about one decision
HELLO_TIMEOUT = 10.0      # seconds a program may take to start and answer the hello
DEFAULT_FALLBACK = "cautious"
RESIGN = "resign"
MAX_LINE = 1 << 20        # an answer longer than this is garbage
CLOSE_WAIT = 1.0          # seconds a program has to leave after `bye` before it is killed

_SPEC = re.compile(r'exec:(?:"(?P<quoted>[^"\n]*)"|(?P<bare>[^\s:",]+))'
                   r'(?P<opts>(?::[A-Za-z_]+=[^\s:",]*)*)$')


@dataclass(frozen=True)
class SeatSpec:
    """A parsed `exec:` seat: the program's argument list, its time limit, its fallback."""

    text: str
    argv: tuple[str, ...]
    timeout: float = DEFAULT_TIMEOUT
    on_error: str = DEFAULT_FALLBACK


def is_program(name: str) -> bool:
    return name.startswith(PREFIX)


_clip = clip


def parse_spec(text: str, strategies: Iterable[str]) -> SeatSpec:
    """`exec:"python bot.py":timeout=2:on_error=resign` -> SeatSpec (UsageError when malformed).

    `strategies` are the names a failed program's seat may fall back to, besides resign
    (easymoney.strategies.available_strategies: those that start no program are)."""
    m = _SPEC.match(text)
    if m is None:
        raise UsageError(f"seat {_clip(text)}: expected exec:\"COMMAND\" or exec:PROGRAM, then "
                         f"options like :timeout=2:on_error=resign (e.g. "
                         f"Ann:exec:\"python my_bot.py\":timeout=2)")
    command = m["quoted"] if m["quoted"] is not None else m["bare"]
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise UsageError(f"seat {_clip(text)}: the command {command!r} does not split into "
                         f"arguments ({exc})") from None
    if not argv:
        raise UsageError(f"seat {_clip(text)}: the command is empty")
    timeout, on_error = DEFAULT_TIMEOUT, DEFAULT_FALLBACK
    for option in filter(None, m["opts"].split(":")):
        key, _, value = option.partition("=")
        if key == "timeout":
            try:
                timeout = float(value)
            except ValueError:
                timeout = -1.0
            if not 0 < timeout <= 3600:
                raise UsageError(f"seat {_clip(text)}: timeout={value!r}: expected seconds "
                                 f"between 0 and 3600, e.g. timeout=2")
        elif key == "on_error":
            choices = [RESIGN] + [n for n in strategies if not is_program(n)]
            if value not in choices:
                raise UsageError(f"seat {_clip(text)}: on_error={value!r}{did_you_mean(value, choices)}; "
                                 f"expected one of {', '.join(choices)}")
            on_error = value
        else:
            raise UsageError(f"seat {_clip(text)}: unknown option {key!r}"
                             f"{did_you_mean(key, ['timeout', 'on_error'])}; the options are "
                             f"timeout=SECONDS and on_error=STRATEGY|resign")
    return SeatSpec(text, argv, timeout, on_error)


def split_strategies(text: str) -> list[str]:
    """`cautious,exec:"python a.py, b",greedy` -> its names: commas inside quotes do not split."""
    parts: list[str] = []
    current: list[str] = []
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == "," and not quoted:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    parts.append("".join(current).strip())
    return parts


class SeatFailure(Exception):
    """What went wrong with a program: `problem` is timeout, crash, garbage or illegal."""

    def __init__(self, problem: str, detail: str) -> None:
        super().__init__(f"{problem}: {detail}")
        self.problem = problem
        self.detail = detail


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Stop `proc` and whatever it started (its process group) now, and reap it (a
    finalizer: it must not raise)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # also once the program left: its children
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait()
    except OSError:
        pass
    for stream in (proc.stdin, proc.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


_TRACEBACK = "Traceback (most recent call last)"
# node's `Error: ...`, Java's `Exception in thread ...`, Go's `panic: ...`, `error: ...`
_LOOKS_LIKE_AN_ERROR = re.compile(r"(?i:^\s*(?:error|fatal|panic)\b)|\b\w*(?:Error|Exception)\b"
                                  r"|\bpanicked\b")


def error_line(lines: list[str]) -> str:
    """The line of a program's standard error (not empty) that says why it died: a Python
    traceback's exception, else the first line that looks like an error, else the last
    (node, for one, ends with its version)."""
    if any(line.startswith(_TRACEBACK) for line in lines):
        last = max(i for i, line in enumerate(lines) if line.startswith(_TRACEBACK))
        # the frames are indented; the exception is the first line after them that is not
        found = next((line for line in lines[last + 1:] if not line[:1].isspace()), None)
        if found is not None:
            return found
    return next((line for line in lines if _LOOKS_LIKE_AN_ERROR.search(line)), lines[-1])


_STOPS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """While inside, the signals that stop a run are held (delivered on leaving): on the
    main thread, where Python runs their handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class Program:
    """One running seat program: JSON lines to its standard input, lines from its output.

    Both pipes are non-blocking and every write and read waits at most until a deadline:
    a program that stops reading fills the pipe, and a blocking write would wait for ever.
    """

    def __init__(self, spec: SeatSpec) -> None:
        self.spec = spec
        # its standard error goes to a file: a pipe nobody reads could block it, and its
        # lines say why a program died
        self.errors: IO[bytes] = tempfile.TemporaryFile()
        # a stop signal (a worker's SIGTERM raises SystemExit) waits until the program is
        # known to end_programs: raised inside Popen, it would leave the program and what it
        # starts running for nobody
        with _stops_held():
            try:
                # a process group of its own: what it starts is ended with it (_kill)
                self.proc = subprocess.Popen(list(spec.argv), stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=self.errors,
                                             bufsize=0, process_group=0)
            except OSError as exc:
                self.errors.close()
                raise UsageError(f"seat {_clip(spec.text)}: cannot start {spec.argv[0]!r}: "
                                 f"{exc.strerror or exc}") from None
            # a strategy dropped without close() still stops its program
            self._finalizer = weakref.finalize(self, _kill, self.proc)
            _LIVE.add(self)
        self._buffer = b""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        os.set_blocking(self.proc.stdin.fileno(), False)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._readable = selectors.DefaultSelector()
        self._readable.register(self.proc.stdout, selectors.EVENT_READ)
        self._writable = selectors.DefaultSelector()
        self._writable.register(self.proc.stdin, selectors.EVENT_WRITE)

    def ask(self, message: dict[str, Any], timeout: float) -> str:
        """Send `message` and return the program's answer: both within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        self._write(message, deadline, timeout)
        return self._read(deadline, timeout)

    def send(self, message: dict[str, Any], timeout: float) -> None:
        """Write `message` as one line within `timeout` seconds (SeatFailure otherwise)."""
        self._write(message, time.monotonic() + timeout, timeout)

    def read(self, timeout: float) -> str:
        """The next line the program writes, within `timeout` seconds (SeatFailure otherwise)."""
        return self._read(time.monotonic() + timeout, timeout)

    def _wait(self, pipe: selectors.BaseSelector, deadline: float, late: str) -> None:
        """Until `pipe` is ready or `deadline`: then a crash if the program left, else a
        timeout saying `late`."""
        left = deadline - time.monotonic()
        if left <= 0 or not pipe.select(left):
            if self.proc.poll() is not None:
                raise SeatFailure("crash", self._exit_text())
            raise SeatFailure("timeout", late)

    def _write(self, message: dict[str, Any], deadline: float, timeout: float) -> None:
        assert self.proc.stdin is not None
        data = memoryview((json.dumps(message) + "\n").encode())
        fd = self.proc.stdin.fileno()
        while data:
            self._wait(self._writable, deadline, f"did not take its input within {timeout:g} s")
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                continue
            except OSError:  # a broken pipe: it left
                raise SeatFailure("crash", self._exit_text()) from None

    def _read(self, deadline: float, timeout: float) -> str:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            self._wait(self._readable, deadline, f"no answer within {timeout:g} s")
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:  # its output closed: it exits, or is killed as it fails
                raise SeatFailure("crash", self._exit_text())
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE:
                raise SeatFailure("garbage", f"a line longer than {MAX_LINE:,} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def _exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=CLOSE_WAIT)
        except subprocess.TimeoutExpired:
            return "its standard input or output closed"
        said = ""
        try:
            self.errors.seek(0)
            lines = [ln for ln in self.errors.read().decode("utf-8", "replace").splitlines()
                     if ln.strip()]
            said = f" ({error_line(lines).strip()[:200]})" if lines else ""
        except (OSError, ValueError):
            pass
        return f"the program exited with status {code}{said}"

    def close(self, *, polite: bool = True) -> None:
        """Say bye, give the program a moment to leave, then kill it and what it started;
        always reaped."""
        if polite and self.proc.poll() is None:
            try:
                self.send({"type": "bye"}, CLOSE_WAIT)
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=CLOSE_WAIT)
            except (SeatFailure, OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._finalizer()
        _LIVE.discard(self)
        self._readable.close()
        self._writable.close()
        self.errors.close()


_LIVE: weakref.WeakSet[Program] = weakref.WeakSet()  # the programs this process runs


def end_programs() -> None:
    """Kill every seat program this process still runs, and what each started: for a
    worker process that stops in the middle of a game (an exit runs no finalizer)."""
    for program in list(_LIVE):
        program._finalizer()
        _LIVE.discard(program)


_STARTED: set[str] = set()  # specs whose program started and answered a hello in this process


def check_program(spec: SeatSpec) -> None:
    """Start the program once, hello, and close it: a program that cannot start is a
    UsageError before any game is played (once per spec and process)."""
    if spec.text in _STARTED:
        return
    if os.sep not in spec.argv[0] and shutil.which(spec.argv[0]) is None:
        raise UsageError(f"seat {_clip(spec.text)}: cannot start {spec.argv[0]!r}: no such "
                         f"program on the PATH")
    program = Program(spec)
    try:
        reply = program.ask(hello_message(None, "", [], spec), max(spec.timeout, HELLO_TIMEOUT))
        if _ready(reply) is None:
            raise SeatFailure("garbage", _not_ready(reply))
    except SeatFailure as exc:
        raise UsageError(f"seat {_clip(spec.text)}: the program did not answer the hello: "
                         f"{exc}") from None
    finally:
        program.close(polite=True)
    _STARTED.add(spec.text)


def _ready(line: str) -> int | None:
    """The protocol a program's answer to the hello chooses (`{"ready": true}`: version 1,
    `{"ready": true, "protocol": 2}`: version 2), or None when it is no such answer."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("ready") is not True:
        return None
    version = data.get("protocol", 1)
    return version if version in PROTOCOLS and type(version) is int else None


def _not_ready(reply: str) -> str:
    return (f"expected {{\"ready\": true}} (and \"protocol\": one of "
            f"{', '.join(map(str, PROTOCOLS))}), got {_clip(reply)}")


def hello_message(game: Any, seat: str, players: list[str], spec: SeatSpec) -> dict[str, Any]:
    """The first message: the protocol, the variant and its board, the seat, the players;
    `protocols`, the versions a program may choose in its answer."""
    if game is None:  # the start-up check: no game yet
        return {"type": "hello", "protocol": PROTOCOL, "protocols": list(PROTOCOLS),
                "variant": None, "seat": None, "players": [], "board": [], "check": True}
    variant = game.variant
    return {"type": "hello", "protocol": PROTOCOL, "protocols": list(PROTOCOLS),
            "variant": variant.name, "changes": list(variant.changes), "seat": seat,
            "players": players,
            "board": [{"index": s.index, "name": s.name, "kind": s.kind,
                       "price": s.data.get("price")} for s in game.spaces]}


def decide_message(game: Any, request: Request, legal: list[Action | ActionRange],
                   protocol: int) -> dict[str, Any]:
    """A decision as the program's protocol says it: version 2 is the engine's one view
    (easymoney.view); version 1 its older spellings, kept for the programs that
    speak it."""
    if protocol == 2:
        return {"type": "decide", **decision_view(game, request, legal, for_player=request.player)}
    return {"type": "decide", "request": request_message(request), "state": state_message(game),
            "actions": action_entries(legal)}


def state_message(game: Any) -> dict[str, Any]:
    """Version 1's state: everything a player sees of the game (not the order of the deck)."""
    return {
        "turn": game.turns_played + 1,
        "current": game.current.name if game.current is not None else None,
        "players": [{"name": p.name, "cash": p.cash, "position": p.position,
                     "bankrupt": p.bankrupt, "houses_left": p.houses_left,
                     "cards": [c.text for c in p.held]} for p in game.players],
        "owners": [o.name if o is not None else None for o in game.owner],
        "houses": list(game.houses),
        "mortgaged": [bool(m) for m in game.mortgaged],
        "pots": {name: pot.cash for name, pot in game.pots.items()},
        "bank": game.bank.cash,
    }


def request_message(request: Request) -> dict[str, Any]:
    return {"kind": request.kind, "player": request.player.name, "words": request.describe(),
            "space": request.space.name if request.space is not None else None,
            "amount": request.amount, "high_bid": request.high_bid, "least": request.least}


def action_entries(legal: Iterable[Action | ActionRange]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for found in legal:
        if isinstance(found, ActionRange):
            out.append({"line": found.line("N"), "least": found.least, "most": found.most,
                        "step": found.step})
        else:
            out.append({"line": str(found)})
    return out


def read_answer(line: str, legal: list[Action | ActionRange]) -> Action:
    """The action a program's answer names: `{"line": ...}` or `{"index": i[, "amount": n]}`
    (both versions read it so: easymoney.view.read_choice)."""
    try:
        return read_choice(legal, parse_answer(line))
    except ChoiceError as exc:
        raise SeatFailure(exc.problem, exc.message) from None


class Resign(Strategy):
    """Gives up without leaving: goes bankrupt when asked to raise money, passes, declines,
    rejects, ends the turn, and rolls only when nothing else answers."""

    name = RESIGN

    def decide(self, game: Any, request: Request) -> Action:
        listed = [a for a in legal_actions(game, request)
                  if not isinstance(a, ActionRange) and type(a) in request.accepts]
        for action in listed:
            kind = type(action)
            if kind.verb in ("go bankrupt", "pass", "decline") or kind is Reject or kind.ends_turn:
                return action
        for action in listed:
            if type(action).chance == "dice":
                return action
        if listed:
            return listed[0]
        return self.choose(game, request)


class ProgramStrategy(Strategy):
    """A seat played by a program over standard input and output (docs/seats.md)."""

    def __init__(self, spec: SeatSpec, fallback: Strategy) -> None:
        super().__init__()
        self.spec = spec
        self.name = spec.text
        self.program: Program | None = None
        self.game: Any = None           # the game the program was told about
        self.failed: str | None = None  # what went wrong, once it has
        self.protocol = PROTOCOL        # the version its program chose at the hello
        self.fallback = fallback  # what its seat plays once it failed (spec.on_error)

    def decide(self, game: Any, request: Request) -> Action:
        legal = legal_actions(game, request)
        # a window whose one legal answer closes it (a throw, the end of the turn) is no
        # decision: the program is not asked (docs/seats.md)
        only = lone_closing(request, legal)
        if only is not None:
            return only
        if self.failed is not None and game is self.game:
            return self.fallback.decide(game, request)
        try:
            return self._ask(game, request, legal)
        except SeatFailure as exc:
            self._fail(game, request, exc)
            return self.fallback.decide(game, request)

    def _ask(self, game: Any, request: Request, legal: list[Action | ActionRange]) -> Action:
        if game is not self.game:  # a new game for this seat: a fresh program
            self.close()
            self.failed = None
            self.game = game
            try:
                self.program = Program(self.spec)
            except UsageError as exc:  # it started before (check_program): now it cannot
                raise SeatFailure("crash", exc.message) from None
            reply = self.program.ask(hello_message(game, request.player.name,
                                                   [p.name for p in game.players], self.spec),
                                     max(self.spec.timeout, HELLO_TIMEOUT))
            protocol = _ready(reply)
            if protocol is None:
                raise SeatFailure("garbage", f"after the hello: {_not_ready(reply)}")
            self.protocol = protocol
        program = self.program
        assert program is not None
        answer = program.ask(decide_message(game, request, legal, self.protocol),
                             self.spec.timeout)
        action = read_answer(answer, legal)
        if not is_listed(legal, action):  # a listed action never is; kept as a guard
            raise SeatFailure("illegal", f"{str(action)!r} is refused")
        return action

    def _fail(self, game: Any, request: Request, exc: SeatFailure) -> None:
        self.failed = exc.problem
        self.game = game
        if self.program is not None:
            self.program.close(polite=False)
            self.program = None
        game.emit("seat_failed", player=request.player.name, program=self.spec.text,
                  problem=exc.problem, detail=exc.detail, fallback=self.spec.on_error)

    def close(self) -> None:
        """Stop the program (the end of a game or of a batch); safe to call twice."""
        if self.program is not None:
            self.program.close()
            self.program = None


def close_strategies(strategies: Iterable[Any]) -> None:
    """Close each strategy that runs a program (the others have nothing to close)."""
    for strategy in strategies:
        close = getattr(strategy, "close", None)
        if close is not None:
            close()
