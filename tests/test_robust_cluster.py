"""Issue 19 case 13: a --cluster address that is malformed, or a server there that is not a
scheduler (an HTTP server, a port that accepts and never answers), is one line and exit 2
within the connect limit; never a traceback, never a wait for ever."""

from __future__ import annotations

import http.server
import socket
import threading
from collections.abc import Iterator

import pytest

from cli_helpers import cli, one_line_error

pytestmark = pytest.mark.slow  # left out of the quick run: python -m pytest -m "not slow"

pytest.importorskip("distributed")


@pytest.fixture
def quick_connect(monkeypatch):
    from easymoney.simulate import cluster
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


@pytest.fixture
def http_port() -> Iterator[int]:
    """An HTTP server on 127.0.0.1 (it answers a Dask handshake with an HTTP error page)."""
    class Quiet(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(capsys, address: str) -> str:
    code, out, err = cli(capsys, "simulate", "--games", "2", "--cluster", address)
    assert (code, out) == (2, ""), err
    return one_line_error(err)


@pytest.mark.parametrize("address", ["local:²", "local:٣", "tcp://127.0.0.1:1:2",
                                     "127.0.0.1:²", "tcp://127.0.0.1:99999"])
def test_issue19_case13_a_malformed_address_is_one_line(capsys, address):
    assert run(capsys, address).startswith(f"error: --cluster {address!r}: expected") or \
        run(capsys, address).startswith(f"error: --cluster {address}: expected")


def test_issue19_case13_tls_without_certificates_is_one_line(capsys, quick_connect):
    line = run(capsys, f"tls://127.0.0.1:{closed_port()}")
    assert line.startswith(f"error: --cluster tls://127.0.0.1:")


def test_issue19_case13_an_http_server_is_one_line(capsys, quick_connect, http_port):
    line = run(capsys, f"tcp://127.0.0.1:{http_port}")
    assert line.startswith(f"error: --cluster tcp://127.0.0.1:{http_port}: cannot reach the "
                           f"scheduler"), line


def test_issue19_case13_a_port_that_never_answers_is_one_line(capsys, quick_connect, silent_port):
    line = run(capsys, f"tcp://127.0.0.1:{silent_port}")
    assert line.startswith(f"error: --cluster tcp://127.0.0.1:{silent_port}: cannot reach the "
                           f"scheduler"), line


def test_issue19_case13_a_scheduler_frozen_mid_run_is_one_line(tmp_path):
    """SIGSTOP: the kernel still accepts on its port, but it never answers."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from processes import HUNG, easymoney, kill_group, start
    port = closed_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = start([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                       "127.0.0.1", "--port", str(port), "--no-dashboard"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = start([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads",
                    "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with easymoney(tmp_path, "simulate", "--games", "1000000", "--cluster", address,
                       "--json-out", "g.json", env={**os.environ, "PYTHONFAULTHANDLER": "1"}) as run:
            end = time.monotonic() + HUNG
            while not list(tmp_path.iterdir()):  # the run has begun: its temporary file
                assert time.monotonic() < end and run.poll() is None, run.communicate()
                time.sleep(0.1)
            time.sleep(1)
            os.kill(scheduler.pid, signal.SIGSTOP)
            try:
                out, err = run.communicate(timeout=HUNG)
            except subprocess.TimeoutExpired:
                run.send_signal(signal.SIGABRT)  # faulthandler: where it waits, in its stderr
                pytest.fail(f"still running {HUNG} s after the scheduler froze: "
                            f"{run.communicate(timeout=HUNG)[1][-4000:]}")
            assert (run.returncode, out) == (2, "")
            assert err.startswith(f"error: --cluster {address}: lost the scheduler"), err
            assert len(err.splitlines()) == 1, err
            assert list(tmp_path.iterdir()) == []
    finally:
        for proc in (worker, scheduler):
            try:
                os.kill(proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            kill_group(proc)
