"""Starting `easymoney` (or a server) as a child process that a test always cleans up.

A child runs in a session and process group of its own, with SIGINT, SIGTERM and SIGHUP at
their defaults: pytest started in the background (`pytest &`) ignores SIGINT, and under
`nohup` SIGHUP, and a child would inherit that and never see the test's signal. Whatever happens in the test, the whole group
(the child and every worker it forked) is killed when the `with` block ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HUNG = 60  # seconds after which a run that has not ended counts as hung


def default_signals() -> None:
    """In the child, before exec: SIGINT, SIGTERM and SIGHUP at their defaults (exec keeps an
    ignore)."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def start(argv: list[str], **kw: Any) -> subprocess.Popen:
    """Popen(argv) in a process group of its own, signals at their defaults."""
    return subprocess.Popen(argv, start_new_session=True, preexec_fn=default_signals, **kw)


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's whole process group, and reap the child."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.communicate()


@contextmanager
def group(argv: list[str], **kw: Any) -> Iterator[subprocess.Popen]:
    """`start(argv)`, its process group killed when the block ends, whatever happens in it."""
    proc = start(argv, **kw)
    try:
        yield proc
    finally:
        kill_group(proc)


@contextmanager
def easymoney(cwd: Path, *argv: str, **kw: Any) -> Iterator[subprocess.Popen]:
    """`easymoney ARGV` in `cwd`, text stdout and stderr piped, cleaned up as `group` does."""
    with group([sys.executable, "-m", "easymoney", *argv], cwd=cwd, stdout=subprocess.PIPE,
               stderr=subprocess.PIPE, text=True, **kw) as proc:
        yield proc


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (read from /proc)."""
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


def running(pid: int) -> bool:
    """Whether process `pid` exists and has not exited (a zombie has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = HUNG) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


@contextmanager
def serving(cwd: Path, port: int, *argv: str) -> Iterator[subprocess.Popen]:
    """`easymoney serve --port PORT ARGV` as a process of its own (so that it can be stopped
    for real), once it answers on 127.0.0.1; cleaned up as `group` does."""
    import urllib.request
    with easymoney(cwd, "serve", "--port", str(port), *argv) as proc:
        def up() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=5):
                    return True
            except OSError:
                assert proc.poll() is None, proc.communicate()
                return False
        wait_for(up, "easymoney serve to answer")
        yield proc
