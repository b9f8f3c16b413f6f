"""Output files: check a target before any work, write it whole or not at all, clean up on signals.

No output may be a file the command reads (the script, the variant, a file it extends): each
command passes its inputs (`Input`, see `variant_inputs`) to `check_target`.

Every file a command writes (`play --record`, `simulate --json-out`, `--csv-out`, `--plot`, ...)
is written to a temporary file in the target's folder and renamed over the target when it is
complete. A rename replaces whatever the name points to, so it is only done onto a regular
file or a new name: a device (`/dev/full`), a FIFO, a socket or a folder is refused before the
run starts, not turned into a regular file at the end.

Also what `play` and the prompt both write about a game: a record's header, the standings.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

from .errors import EasyMoneyError, UsageError

if TYPE_CHECKING:
    from .engine.game import Game
    from .script.runner import RunResult, ScriptRunner
    from .engine.model import Variant

# a file a command reads, and what it is to the command ("the script being played")
Input = tuple[str, str]

TEMP_PREFIX = ".easymoney-"
TEMP_SUFFIX = ".tmp"

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"))


def variant_inputs(variant: Variant) -> list[Input]:
    """The files a loaded variant was read from: its own, then each it `extends`."""
    return [(path, "the variant being read" if k == 0 else "a file the variant extends")
            for k, path in enumerate(variant.files)]


def check_not_input(path: str, what: str, inputs: Iterable[Input]) -> None:
    """UsageError when `path` is one of `inputs`, by any name (a link, a hard link)."""
    for source, role in inputs:
        if source != "-" and _same_file(path, source):
            raise UsageError(f"{what} {path} would overwrite {role} ({source}): name "
                             f"another file")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them is missing (or its name is no path)
        return os.path.realpath(a) == os.path.realpath(b)


def check_target(path: str, what: str, inputs: Iterable[Input] = ()) -> None:
    """UsageError now, before any work, when `path` cannot be written by an atomic rename
    or would overwrite one of `inputs`.

    `what` names the option (`--json-out`) or the derived file (`the summary of --csv-out`)
    in the message.
    """
    if not path:
        raise UsageError(f"{what}: the file name is empty")
    if "\0" in path:
        raise UsageError(f"{what} {path!r}: a file name cannot hold a NUL character")
    check_not_input(path, what, inputs)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
        hint = "; expected a file name" if stat.S_ISDIR(info.st_mode) else \
            "; only a regular file or a new name is written (by renaming a complete file over it)"
        raise UsageError(f"{what} {path}: is {kind}{hint}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{what} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {path}: the folder {folder} is not writable")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# the temporary files not yet renamed or removed: a signal handler removes them
_LIVE: set[str] = set()


class StreamedFile:
    """A file written bit by bit under a temporary name, renamed over the target by `commit`.

    `abort` (or any exception leaving a `with` block) removes the temporary file.
    """

    def __init__(self, path: str, *, binary: bool = False) -> None:
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        try:
            fd, self.tmp = tempfile.mkstemp(dir=folder, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror}") from None
        _LIVE.add(self.tmp)
        os.chmod(self.tmp, 0o666 & ~_umask())  # mkstemp makes it 0600; give it a plain file's mode
        self.file: Any = os.fdopen(fd, "wb") if binary else \
            os.fdopen(fd, "w", encoding="utf-8", newline="")

    def __enter__(self) -> StreamedFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()

    def commit(self) -> None:
        try:
            self.file.close()
            # checked again: the target may have become a device or a folder during the run
            info = os.stat(self.path) if os.path.lexists(self.path) else None
            if info is not None and not stat.S_ISREG(info.st_mode):
                raise UsageError(f"cannot write {self.path}: it is not a regular file")
            os.replace(self.tmp, self.path)
        except OSError as exc:
            self.abort()
            raise UsageError(f"cannot write {self.path}: {exc.strerror}") from None
        except BaseException:
            self.abort()
            raise
        _LIVE.discard(self.tmp)

    def abort(self) -> None:
        if not self.file.closed:
            try:
                self.file.close()
            except OSError:
                pass
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)
        _LIVE.discard(self.tmp)


def write_atomically(path: str, text: str | bytes) -> None:
    """Write `text` to `path` via a temporary file and a rename: no partial file is left behind."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write {path}: the folder {folder} does not exist")
    out = StreamedFile(path, binary=isinstance(text, bytes))
    try:
        out.file.write(text)
    except OSError as exc:
        out.abort()
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    except BaseException:
        out.abort()
        raise
    out.commit()


class Terminated(SystemExit):
    """Raised in the main thread by SIGTERM or SIGHUP: unwinds like Ctrl-C, so that
    temporary files go (and worker processes and seat programs are ended)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(128 + signum)


# what each signal that unwinds says on standard error
_UNWINDING: dict[int, str] = {signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}


# the signals handled inside cleanup_on_signals, latest last (None outside it)
_RECEIVED: list[int] | None = None


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if not _RECEIVED:
        with contextlib.suppress(OSError):  # after a hang-up the terminal refuses writes (EIO)
            print(f"easymoney: {_UNWINDING[signum]}", file=sys.stderr)
    if _RECEIVED is not None:
        _RECEIVED.append(signum)
    _quiet_logging()
    raise Terminated(signum)


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    if _RECEIVED is not None:
        _RECEIVED.append(signum)
    _quiet_logging()
    raise KeyboardInterrupt


def _not_a_signal(record: Any) -> bool:
    """A log record's filter: False for one that carries a signal's own exception."""
    caught = record.exc_info[1] if record.exc_info else None
    return not isinstance(caught, (Terminated, KeyboardInterrupt))


def _quiet_logging() -> None:
    """A library may log the exception it caught on its way out, with its traceback
    (SQLAlchemy's pool: "Exception during reset or similar", then re-raised): the logging
    handlers drop the records of a signal's exception. Set when a signal comes, so that
    a run that never logs never imports logging."""
    logging = sys.modules.get("logging")
    if logging is None:
        return
    for handler in (logging.lastResort, *logging.getLogger().handlers):
        if handler is not None and _not_a_signal not in handler.filters:
            handler.addFilter(_not_a_signal)


def _quiet_about_signals(previous: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """An unraisable-exception hook that says nothing of a signal's own exception.

    The handler may run inside a finalizer (SQLAlchemy returns a connection to its pool from
    one): Python cannot raise there, so it prints the exception with a traceback as
    "ignored". It is not ignored here: the next safe point raises it again."""
    def hook(unraisable: Any) -> None:
        exc = unraisable.exc_value
        if _RECEIVED and isinstance(exc, (Terminated, KeyboardInterrupt)):
            return
        previous(unraisable)
    return hook


def raise_if_signalled() -> None:
    """Raise Terminated (KeyboardInterrupt for Ctrl-C) again if a signal was handled but
    the run goes on.

    The handler runs in whatever Python code the main thread is in, also code called back
    from a library's C code (numpy, sqlite3) that may clear any error it meets: the
    exception is then lost. Long runs call this at their safe points (a trial, a chunk of
    games) so that a signal still ends them, with the words of a signal."""
    if _RECEIVED:
        if _RECEIVED[-1] == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(_RECEIVED[-1])


@contextlib.contextmanager
def handling(signums: Iterable[int],
             handler: Callable[[int, FrameType | None], Any]) -> Iterator[None]:
    """While inside, `handler` handles these signals; the handlers before it come back after.
    Off the main thread nothing is changed: signals can only be caught there."""
    before: dict[int, Any] = {}
    try:
        for signum in signums:
            before[signum] = signal.signal(signum, handler)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for signum, previous in before.items():
            signal.signal(signum, previous)


@contextlib.contextmanager
def cleanup_on_signals() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP (the terminal closed) unwind the stack (exit status
    143 and 129) instead of killing at once.

    Ctrl-C already unwinds (KeyboardInterrupt). Either way every temporary file of a
    StreamedFile is removed, also those a caller forgot to abort.
    """
    global _RECEIVED
    outer, _RECEIVED = _RECEIVED, []
    # Ctrl-C is remembered too, where it raises KeyboardInterrupt (not where it is ignored)
    interrupt = ([signal.SIGINT] if signal.getsignal(signal.SIGINT) is signal.default_int_handler
                 else [])
    unraisable_before, sys.unraisablehook = (sys.unraisablehook,
                                             _quiet_about_signals(sys.unraisablehook))
    try:
        with handling(_UNWINDING, _on_signal), handling(interrupt, _on_interrupt):
            yield
            raise_if_signalled()  # the run ended although a signal came: it ends as told
    finally:
        _RECEIVED = outer
        sys.unraisablehook = unraisable_before
        for tmp in list(_LIVE):
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            _LIVE.discard(tmp)


# --- what `play` and the prompt write about a game -------------------------------------

def record_inputs(script_file: str | None, variant: Variant | None = None) -> list[Input]:
    """What a record may not overwrite: the script played and the files of its variant."""
    own = [(script_file, "the script being played")] if script_file not in (None, "-") else []
    return own + (variant_inputs(variant) if variant is not None else [])


def check_record(args: Any, script: Any) -> None:
    """For a game at the prompt: refuse `--record` before the game starts when it cannot be
    written or is one of its inputs (the script, the variant, a file the variant extends)."""
    from .script.runner import ScriptRunner
    check_target(args.record, "--record", record_inputs(args.file))
    try:
        variant = ScriptRunner(script, enable=args.with_rules, disable=args.without_rules,
                               options=args.options).game.variant
    except EasyMoneyError:
        return  # a header in error: the game says so as it starts, in its own words
    check_target(args.record, "--record", record_inputs(args.file, variant))


def record_header(runner: ScriptRunner, out_path: str) -> list[str]:
    """The header of a record of `runner`'s game written to `out_path` (a variant path
    relative to the record's folder)."""
    from .script.record import header_lines
    h = runner.header
    ref, _ = h.variant_ref(runner.script)
    is_path = h.variant is not None and h.variant.path is not None
    if is_path:
        ref = os.path.relpath(ref, os.path.dirname(os.path.abspath(out_path)))
    switched: dict[str, bool] = {}
    for on, rule, _stmt in h.switches:
        switched.pop(rule, None)
        switched[rule] = on
    options: dict[str, str] = {}  # an option the command line sets again: its last value
    for option, _stmt in h.options:
        key = option.partition("=")[0].strip()
        options.pop(key, None)
        options[key] = option
    return header_lines(
        ref, is_path=is_path,
        enable=[r for r, on in switched.items() if on],
        disable=[r for r, on in switched.items() if not on],
        options=list(options.values()),
        players=[p.name for p in runner.game.players], seed=h.seed,
        setup=[str(s) for s in h.setup])


def current_turn(game: Game) -> int:
    """The number of the last turn begun (0 before the first)."""
    for event in reversed(game.log):
        if event.kind == "turn":
            return int(event.data["number"])
    return 0


def standings_text(result: RunResult) -> str:
    from .engine.actions import money
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
