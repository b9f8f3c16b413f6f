"""Issue 19 cases 8 and 26, issue 28 case 17: signals end a batch run promptly, and leave
nothing running: no worker, no seat program, nothing a seat program started.

Every run here starts in a session of its own (`start_new_session`), with SIGINT and SIGTERM
at their defaults whatever the test process ignores (pytest run in the background ignores
SIGINT), and its whole process group is killed in a `finally`: a failing test leaves no
simulation behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from processes import HUNG, children, easymoney, group_alive, running, wait_for

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc for the workers")


def ended(proc: subprocess.Popen, after: str) -> tuple[str, str]:
    """The output of a run that must end within HUNG seconds of `after`."""
    try:
        return proc.communicate(timeout=HUNG)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {HUNG} s after {after}")


def test_issue19_case8_sigterm_to_the_group_always_ends_the_run(tmp_path):
    """`kill -- -PGID` reaches the workers and the parent at once; it used to hang 4 in 25."""
    for attempt in range(6):
        with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2") as proc:
            wait_for(lambda: len(children(proc.pid)) >= 2, "the workers")
            time.sleep(0.2 * attempt)  # at another moment of the run each time
            os.killpg(proc.pid, signal.SIGTERM)
            out, err = ended(proc, f"SIGTERM (attempt {attempt + 1})")
            assert (proc.returncode, out, err) == (143, "", "easymoney: terminated\n"), err
            wait_for(lambda: not group_alive(proc.pid), "the workers to end")


def test_issue19_case8_a_worker_that_dies_ends_the_run_with_one_line(tmp_path):
    """A worker killed (the OOM killer, kill -9) used to leave the run waiting for ever."""
    with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2",
                   "--json-out", "g.json") as proc:
        wait_for(lambda: len(children(proc.pid)) >= 2, "the workers")
        time.sleep(0.5)
        os.kill(children(proc.pid)[0], signal.SIGKILL)
        out, err = ended(proc, "a worker died")
        assert (proc.returncode, out) == (2, "")
        assert err.startswith("error: a worker process ended without its games (killed by "
                              "signal 9)"), err
        assert len(err.splitlines()) == 1, err
        assert list(tmp_path.iterdir()) == []


def test_issue19_case26_workers_end_when_their_parent_is_killed(tmp_path):
    """A run killed with SIGKILL (no cleanup of its own) leaves no worker playing on."""
    with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2") as proc:
        wait_for(lambda: len(children(proc.pid)) >= 2, "the workers")
        workers = children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=HUNG)  # the workers hold its output pipes: no communicate()
        wait_for(lambda: not any(running(w) for w in workers), "the orphaned workers to stop")



BAD_AGENT = Path(__file__).resolve().parent / "data" / "seats" / "bad_agent.py"


@contextlib.contextmanager
def spawning_seats(folder: Path) -> Iterator[tuple[str, Path]]:
    """--strategies whose first seat is a program that starts a sleeping child and writes
    its pid to the file yielded; every child still there at the end is killed."""
    pids = folder / "pids"
    seat = f'exec:"{sys.executable} {BAD_AGENT} spawn {pids}"'
    try:
        yield f"{seat},cautious", pids
    finally:
        for pid in spawned(pids):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def spawned(pids: Path) -> list[int]:
    return [int(p) for p in pids.read_text().split()] if pids.exists() else []


def test_issue28_case17_sighup_ends_a_run_like_sigterm_and_leaves_nothing(tmp_path):
    """SIGHUP used to end the parent alone: its workers played on for nobody, starting seat
    programs. It is handled as SIGTERM is (status 129), and the workers end their seat
    programs and what those started."""
    with spawning_seats(tmp_path) as (strategies, pids), \
            easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2",
                      "--players", "2", "--strategies", strategies) as proc:
        wait_for(lambda: len(children(proc.pid)) >= 2 and len(spawned(pids)) >= 3,
                 "the workers and their seat programs")
        os.kill(proc.pid, signal.SIGHUP)
        out, err = ended(proc, "SIGHUP")
        assert (proc.returncode, out, err) == (129, "", "easymoney: hung up\n"), err
        wait_for(lambda: not group_alive(proc.pid), "the workers to end", timeout=10)
        wait_for(lambda: not any(running(pid) for pid in spawned(pids)),
                 "what the seat programs started to end", timeout=30)


def test_issue28_case17_workers_stop_at_once_when_their_parent_is_gone(tmp_path):
    """A worker used to notice its parent's death only after its chunk of games (50, a
    minute with seat programs): it stops within a second or so, seat programs ended."""
    with spawning_seats(tmp_path) as (strategies, pids), \
            easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2",
                      "--players", "2", "--strategies", strategies) as proc:
        wait_for(lambda: len(children(proc.pid)) >= 2 and len(spawned(pids)) >= 3,
                 "the workers and their seat programs")
        workers = children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=HUNG)
        wait_for(lambda: not any(running(w) for w in workers), "the orphaned workers to stop",
                 timeout=10)
        wait_for(lambda: not any(running(pid) for pid in spawned(pids)),
                 "what the seat programs started to end", timeout=30)


def test_issue28_case17_a_hang_up_unwinds_even_when_the_terminal_is_gone(monkeypatch):
    """After a hang-up, writing to the closed terminal fails (EIO): the run still unwinds
    with status 129, not with that error."""
    from easymoney import outputs

    class Gone:
        def write(self, text: str) -> int:
            raise OSError(5, "Input/output error")

        def flush(self) -> None:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(sys, "stderr", Gone())
    with pytest.raises(outputs.Terminated) as info:
        outputs._on_signal(signal.SIGHUP, None)
    assert info.value.code == 129


def test_a_signal_that_comes_in_a_finalizer_ends_the_run_without_a_traceback(capsys):
    """SIGTERM during a finalizer (SQLAlchemy's pool returns a connection from one, under
    `tune`): Python prints the handler's exception as "ignored" with a traceback and goes
    on. The run still ends as told, and says only its one line."""
    from easymoney import outputs

    class Connection:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)

    seen: list[object] = []

    def later_hook(unraisable: object) -> None:  # what a hook after the run would be told
        seen.append(unraisable)

    before = sys.unraisablehook
    sys.unraisablehook = later_hook
    try:
        with pytest.raises(outputs.Terminated) as info, outputs.cleanup_on_signals():
            connection = Connection()
            del connection  # the finalizer runs here; Python cannot raise from it
            outputs.raise_if_signalled()
        assert sys.unraisablehook is later_hook  # the hook before the run is back
    finally:
        sys.unraisablehook = before
    assert info.value.code == 143
    err = capsys.readouterr().err
    assert err == "easymoney: terminated\n" and not seen


def test_a_signal_whose_exception_a_library_swallowed_still_ends_the_run(capsys):
    """The handler's exception can be lost in code called back from a library's C code
    (the tune study went on to its end after SIGTERM): the next safe point, or the end of
    the run, raises it again, and the signal is told once."""
    from easymoney import outputs

    def swallowed() -> None:  # as C code that clears any error it meets
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
        except BaseException:
            pass

    with pytest.raises(outputs.Terminated) as info, outputs.cleanup_on_signals():
        swallowed()
        with pytest.raises(outputs.Terminated):
            outputs.raise_if_signalled()  # a safe point
        swallowed()
    assert info.value.code == 143
    assert capsys.readouterr().err.count("easymoney: terminated") == 1
    with outputs.cleanup_on_signals():  # a later run in the same process is not ended by it
        pass
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not under `pytest &`
        with pytest.raises(KeyboardInterrupt), outputs.cleanup_on_signals():
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(1)
            except BaseException:
                pass
            outputs.raise_if_signalled()  # Ctrl-C's, likewise


LOGS_ON_ITS_WAY_OUT = """
import logging, os, signal, sys
from easymoney.outputs import cleanup_on_signals
with cleanup_on_signals():
    try:  # as SQLAlchemy's pool returns a connection: it logs what it caught, then re-raises
        os.kill(os.getpid(), signal.SIGTERM)
        signal.pause() if hasattr(signal, "pause") else None
    except BaseException:
        logging.getLogger("sqlalchemy.pool").error("Exception during reset or similar",
                                                   exc_info=True)
        raise
"""


@pytest.mark.parametrize("configured", [False, True])
def test_a_library_logging_the_signal_it_caught_prints_no_traceback(configured):
    """The tune test's flake: SIGTERM inside SQLAlchemy's pool, which logged the Terminated
    it caught with its traceback before re-raising it. The run ends with the signal's one
    line and its status, whether logging has handlers of its own or not."""
    code = ("import logging; logging.basicConfig()\n" if configured else "") + LOGS_ON_ITS_WAY_OUT
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, start_new_session=True)
    assert done.returncode == 143, done.stderr
    assert done.stderr == "easymoney: terminated\n"
