"""Issue 19 cases 8 and 26: signals end a batch run promptly, and leave nothing running.

Every run here starts in a session of its own (`start_new_session`), with SIGINT and SIGTERM
at their defaults whatever the test process ignores (pytest run in the background ignores
SIGINT), and its whole process group is killed in a `finally`: a failing test leaves no
simulation behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HUNG = 60  # seconds after which a run that has not ended counts as hung


def _default_signals() -> None:
    # in the child, before exec: a shell's `&` leaves SIGINT ignored, and exec keeps that
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def easymoney(tmp_path: Path, *argv: str) -> Iterator[subprocess.Popen]:
    """`easymoney ARGV` in its own process group, killed with everything it started at the end."""
    proc = subprocess.Popen([sys.executable, "-m", "easymoney", *argv], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_signals)
    try:
        yield proc
    finally:
        kill_group(proc)


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.communicate()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry))
    return found


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(predicate, what: str, timeout: float = HUNG) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc for the workers")


def test_issue19_case8_sigterm_to_the_group_always_ends_the_run(tmp_path):
    """`kill -- -PGID` reaches the workers and the parent at once; it used to hang 4 in 25."""
    for attempt in range(6):
        with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2") as proc:
            wait_for(lambda: len(children(proc.pid)) >= 2, "the workers")
            time.sleep(0.2 * attempt)  # at another moment of the run each time
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                out, err = proc.communicate(timeout=HUNG)
            except subprocess.TimeoutExpired:
                pytest.fail(f"attempt {attempt + 1}: still running {HUNG} s after SIGTERM")
            assert (proc.returncode, out, err) == (143, "", "easymoney: terminated\n")
            wait_for(lambda: not group_alive(proc.pid), "the workers to end")


def test_issue19_case8_a_worker_that_dies_ends_the_run_with_one_line(tmp_path):
    """A worker killed (the OOM killer, kill -9) used to leave the run waiting for ever."""
    with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2",
                   "--json-out", "g.json") as proc:
        wait_for(lambda: len(children(proc.pid)) >= 2, "the workers")
        time.sleep(0.5)
        os.kill(children(proc.pid)[0], signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=HUNG)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {HUNG} s after a worker died")
        assert (proc.returncode, out) == (2, "")
        assert err.startswith("error: a worker process ended without its games (killed by "
                              "signal 9)"), err
        assert len(err.splitlines()) == 1, err
        assert list(tmp_path.iterdir()) == []
