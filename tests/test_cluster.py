"""--cluster: a real `dask scheduler` and two `dask worker` processes on 127.0.0.1 give the local result.

Also: a worker killed in the middle of a run changes nothing, a scheduler that cannot be
reached is one line and no file, a worker without the client's plugins is refused by name.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from easymoney.cli import main
from processes import easymoney, group, kill_group, start

pytestmark = pytest.mark.slow  # left out of the quick run: python -m pytest -m "not slow"

distributed = pytest.importorskip("distributed")

ARGS = ["--games", "60", "--strategies", "cautious,greedy", "--max-turns", "150", "--seed", "9"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_worker(address: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return start(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
         "--no-nanny", "--no-dashboard", "--host", "127.0.0.1", "--death-timeout", "60"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def wait_for_workers(client, count: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while len(client.scheduler_info()["workers"]) != count:
        assert time.monotonic() < end, "the workers did not come"
        time.sleep(0.1)


def worker_of(client, pid: int) -> str:
    """The address of the worker that runs in process `pid`."""
    return next(addr for addr, p in client.run(os.getpid).items() if p == pid)


def stop(proc: subprocess.Popen) -> None:
    """End a process of `start` and whatever it started."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
    kill_group(proc)


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, object]]:
    """(address, a client of our own) of a scheduler with two one-thread workers."""
    address = f"tcp://127.0.0.1:{free_port()}"
    port = address.rsplit(":", 1)[1]
    scheduler = start(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", port, "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = [start_worker(address) for _ in range(2)]
    client = None
    try:
        client = distributed.Client(address, timeout=30)
        wait_for_workers(client, 2)
        yield address, client
    finally:
        if client is not None:
            client.close()
        for proc in workers + [scheduler]:
            stop(proc)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_on_the_cluster_is_the_local_result(cluster, capsys, tmp_path):
    address, _ = cluster
    outputs = []
    for where in (["--workers", "1"], ["--cluster", address]):
        path = tmp_path / f"{where[0][2:]}.json"
        code, out, err = cli(capsys, "simulate", "no-four-sides", *ARGS, *where, "--json-out", str(path))
        assert code == 0, err
        outputs.append((out, path.read_text()))
    assert outputs[0] == outputs[1]


def test_compare_and_sweep_on_the_cluster_are_the_local_result(cluster, capsys):
    address, _ = cluster
    for argv in (["compare", "standard", "no-four-sides", "standard@doubles.after_card=forward"],
                 ["sweep", "--vary", "four_sides=on,off", "--vary", "end.max_turns=60,120"]):
        args = [*ARGS, "--games", "24"]
        local = cli(capsys, *argv, *args, "--workers", "1", "--json")
        remote = cli(capsys, *argv, *args, "--cluster", address, "--json")
        assert local[0] == remote[0] == 0, remote[2]
        assert local[1] == remote[1]


def test_issue20_a_searching_seat_on_the_cluster_is_the_local_result(cluster, capsys):
    """`mc` needs only the stepping game and the legal actions: built in each worker, it
    plays the same games there as here."""
    address, _ = cluster
    args = ["--games", "4", "--players", "2", "--strategies", "mc:rollouts=2,horizon=2,cautious",
            "--max-turns", "40", "--seed", "3", "--json"]
    local = cli(capsys, "simulate", *args, "--workers", "1")
    remote = cli(capsys, "simulate", *args, "--cluster", address)
    assert local[0] == remote[0] == 0, remote[2]
    assert local[1] == remote[1] and "mc:rollouts=2,horizon=2" in local[1]


def test_a_worker_killed_mid_run_loses_nothing(cluster, tmp_path):
    address, client = cluster
    argv = [sys.executable, "-m", "easymoney", "simulate", "--games", "480", "--max-turns",
            "150", "--seed", "5", "--json"]
    local = subprocess.run(argv + ["--workers", "1"], capture_output=True, text=True,
                           cwd=tmp_path, check=True).stdout
    for attempt in range(3):  # the victim must hold a task when it dies; the scheduler decides
        extra = start_worker(address)
        try:
            wait_for_workers(client, 3)
            victim = worker_of(client, extra.pid)
            with group(argv + ["--cluster", address], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, cwd=tmp_path) as run:
                end = time.monotonic() + 60
                while not client.processing().get(victim) and run.poll() is None:
                    assert time.monotonic() < end, "the run did not start"
                    time.sleep(0.01)
                killed = run.poll() is None
                extra.kill()
                out, err = run.communicate(timeout=120)
                assert run.returncode == 0, err
                assert out == local
        finally:
            stop(extra)
            wait_for_workers(client, 2)
        if killed:
            return
    pytest.fail("the victim never held a task in three runs")


def test_a_worker_without_the_plugins_is_refused_by_name(cluster, capsys):
    address, client = cluster
    env = dict(os.environ, EASYMONEY_DISABLE_PLUGIN_AUTOLOAD="1")
    bare = start_worker(address, env)
    try:
        wait_for_workers(client, 3)
        name = worker_of(client, bare.pid)
        code, out, err = cli(capsys, "simulate", "standard+double_bonus", "--games", "4",
                             "--cluster", address)
        assert (code, out) == (2, "")
        lines = err.strip().splitlines()
        assert len(lines) == 1
        assert f"worker {name} lacks plugin double_bonus" in lines[0]
        assert "easymoney-double-bonus" in lines[0]
        # the rules every worker has are fine on the same cluster
        code, _, err = cli(capsys, "simulate", "standard", "--games", "4", "--max-turns", "30",
                           "--cluster", address)
        assert code == 0, err
    finally:
        stop(bare)
        wait_for_workers(client, 2)


def test_a_scheduler_that_cannot_be_reached_is_one_line_and_no_file(capsys, tmp_path, monkeypatch):
    from easymoney.simulate import cluster as C
    monkeypatch.setattr(C, "CONNECT_TIMEOUT", 2)
    target = tmp_path / "g.json"
    address = f"tcp://127.0.0.1:{free_port()}"
    code, out, err = cli(capsys, "simulate", "--games", "4", "--cluster", address,
                         "--json-out", str(target), "--csv-out", str(tmp_path / "g.csv"))
    assert (code, out) == (2, "")
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --cluster {address}: cannot reach")
    assert list(tmp_path.iterdir()) == []


def test_a_local_cluster(capsys):
    local = cli(capsys, "simulate", *ARGS, "--workers", "1")
    remote = cli(capsys, "simulate", *ARGS, "--cluster", "local:2")
    assert local[0] == remote[0] == 0, remote[2]
    assert local[1] == remote[1]


def test_without_dask_the_message_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    code, out, err = cli(capsys, "simulate", "--games", "1", "--cluster", "local:1")
    assert (code, out) == (2, "")
    assert err == ("error: --cluster needs Dask, which is not installed: "
                   "pip install 'easymoney-game[cluster]'\n")


def well_into_the_run(run: subprocess.Popen, folder) -> None:
    """Wait until the run has begun (its temporary file is in `folder`), and a second more."""
    end = time.monotonic() + 60
    while not list(folder.iterdir()):
        assert time.monotonic() < end and run.poll() is None, run.communicate()
        time.sleep(0.1)
    time.sleep(1)


def test_a_scheduler_that_goes_away_is_one_line_and_no_file(tmp_path):
    address = f"tcp://127.0.0.1:{free_port()}"
    scheduler = start(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = start_worker(address)
    try:
        with easymoney(tmp_path, "simulate", "--games", "1000000", "--cluster", address,
                       "--json-out", "g.json") as run:
            well_into_the_run(run, tmp_path)
            scheduler.kill()
            out, err = run.communicate(timeout=90)
            assert (run.returncode, out) == (2, "")
            assert err == f"error: --cluster {address}: lost the scheduler during the run\n" or \
                err.startswith(f"error: --cluster {address}: lost the scheduler (no answer"), err
            assert list(tmp_path.iterdir()) == []
    finally:
        stop(worker)
        stop(scheduler)


def test_check_invariants_reaches_the_workers(cluster, monkeypatch):
    """--check-invariants reaches a worker elsewhere with the plan's settings (issue 18: it
    was an environment variable that the simulator wrote)."""
    from easymoney import simulate as S
    from easymoney.commands._variant_args import INVARIANTS_ENV
    from easymoney.engine.settings import Settings
    from easymoney.simulate.cluster import play_chunk
    address, client = cluster
    arm = S.Arm("standard")
    batch = S.Batch(games=2, players=2, strategies=("greedy",), max_turns=20)
    before = client.run(lambda: __import__("os").environ.get(INVARIANTS_ENV))
    for on in (True, False):
        plan = S.Plan((arm,), batch, (arm.load(),), (), settings=Settings(invariants=on))
        monkeypatch.delenv(INVARIANTS_ENV, raising=False)
        assert ("invariants" in S.Simulator(plan).rulesets[0].enabled) is on
        chunks = client.gather([client.submit(play_chunk, plan, 0, 2, pure=False, workers=[w])
                                for w in client.scheduler_info()["workers"]])
        assert all(c.stats[0].games == 2 for c in chunks)
        seen = client.run(lambda: __import__("os").environ.get(INVARIANTS_ENV))
        assert seen == before  # nothing was written into the workers' environment


def test_ctrl_c_on_a_local_cluster_is_one_line_and_no_file(tmp_path):
    # SIGINT at its default in the child even when pytest runs in the background, and the
    # run's group (its local cluster too) killed whatever happens (issue 19 case 26)
    with easymoney(tmp_path, "simulate", "--games", "1000000", "--cluster", "local:1",
                   "--json-out", "g.json") as run:
        well_into_the_run(run, tmp_path)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
        assert (run.returncode, out, err) == (130, "", "easymoney: interrupted\n")
        assert list(tmp_path.iterdir()) == []
