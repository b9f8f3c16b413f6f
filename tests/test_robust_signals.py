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
import time
from pathlib import Path

import pytest

from processes import HUNG, children, easymoney, group_alive, running, wait_for

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
            assert (proc.returncode, out, err) == (143, "", "easymoney: terminated\n"), err
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


def test_issue19_case26_workers_end_when_their_parent_is_killed(tmp_path):
    """A run killed with SIGKILL (no cleanup of its own) leaves no worker playing on."""
    with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2") as proc:
        wait_for(lambda: len(children(proc.pid)) >= 2, "the workers")
        workers = children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=HUNG)  # the workers hold its output pipes: no communicate()
        wait_for(lambda: not any(running(w) for w in workers), "the orphaned workers to stop")

