"""simulate, compare and sweep under hostile input: huge counts, long SPECs, odd output paths, signals, failing games."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from easymoney import simulate as S
from easymoney.engine.game import Game
from easymoney.errors import PluginError, UsageError
from easymoney.outputs import check_target, write_atomically

from cli_helpers import cli, one_line_error
from processes import easymoney, wait_for




def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- counts that must not be allocated up front ---------------------------------------------------

class Enough(Exception):
    pass


@pytest.mark.parametrize("workers", [1, 2])
def test_a_huge_game_count_is_streamed_not_allocated(workers):
    batch = S.Batch(games=10 ** 15, players=2, strategies=("greedy",), max_turns=20)
    seen = []

    def progress(done: int, chunks_done: int, chunks: int) -> None:
        seen.append((done, chunks_done, chunks))
        raise Enough()

    start = time.monotonic()
    with pytest.raises(Enough):
        S.run([S.Arm("standard")], batch, workers=workers, progress=progress)
    assert seen == [(S.MAX_CHUNK, 1, -(-10 ** 15 // S.MAX_CHUNK))]
    assert time.monotonic() - start < 30
    assert next(S.chunk_bounds(10 ** 15, 50)) == (0, 50)


def test_a_huge_player_count_is_refused_before_anything_is_built(tmp_path, capsys):
    variant = tmp_path / "crowd.yaml"
    variant.write_text("name: crowd\nextends: standard\nplayers:\n  min: 2\n  max: 1000000000\n")
    code, out, err = cli(capsys, "simulate", str(variant), "--players", "100000000", "--games", "1")
    assert (code, out) == (2, "")
    assert "--players 100000000: expected 1 to 1,000 players" in one_line_error(err)


# --- SPECs -----------------------------------------------------------------------------------------

def test_a_long_unknown_spec_is_refused_quickly_and_shortly(capsys):
    spec = "x" * 10_000
    start = time.monotonic()
    code, out, err = cli(capsys, "compare", "standard", spec, "--games", "1")
    assert time.monotonic() - start < 3
    assert (code, out) == (2, "")
    line = one_line_error(err)
    assert len(line) < 400 and "(10,000 characters)" in line


def test_a_long_spec_with_a_bad_suffix_is_echoed_shortly(capsys):
    code, _, err = cli(capsys, "compare", "standard", "standard*" + "y" * 10_000, "--games", "1")
    assert code == 2
    assert len(one_line_error(err)) < 400


# --- output paths --------------------------------------------------------------------------------

def test_a_folder_named_like_the_summary_stops_the_run_before_it_starts(tmp_path, capsys):
    (tmp_path / "out-summary.csv").mkdir()
    code, out, err = cli(capsys, "simulate", "--games", "2", "--workers", "1", "--max-turns", "30",
                         "--csv-out", str(tmp_path / "out.csv"))
    assert (code, out) == (2, "")
    assert "the summary table of --csv-out" in one_line_error(err)
    assert listing(tmp_path) == ["out-summary.csv"]


def test_a_device_is_refused_by_the_check():
    with pytest.raises(UsageError, match="is a character device"):
        check_target(os.devnull, "--json-out")


@pytest.mark.parametrize("flag", ["--json-out", "--csv-out", "--plot"])
def test_a_device_is_never_replaced_by_a_file(flag, capsys, tmp_path, monkeypatch):
    """A stand-in device: a real one replaced by a failing test would break the machine."""
    device = tmp_path / "full"
    device.write_text("")
    real_stat = os.stat

    def stat(path, *args, **kw):
        result = real_stat(path, *args, **kw)
        if os.path.abspath(path) == str(device):
            return os.stat_result((0o20666,) + tuple(result)[1:])
        return result

    from easymoney import outputs
    monkeypatch.setattr(outputs.os, "stat", stat)
    code, out, err = cli(capsys, "simulate", "--games", "1", "--workers", "1", flag, str(device))
    assert (code, out) == (2, "")
    assert "is a character device" in one_line_error(err)
    assert listing(tmp_path) == ["full"]


def test_a_fifo_a_folder_and_an_empty_name_are_refused(tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target, message in ((str(fifo), "is a FIFO"), (str(tmp_path), "is a folder"),
                            ("", "the file name is empty")):
        code, out, err = cli(capsys, "simulate", "--games", "1", "--workers", "1",
                             "--json-out", target)
        assert (code, out) == (2, ""), target
        assert message in one_line_error(err)
    code, _, err = cli(capsys, "simulate", "--games", "1", "--record-dir", "")
    assert code == 2 and "empty" in one_line_error(err)
    assert listing(tmp_path) == ["pipe"]


def test_the_same_file_twice_is_refused(tmp_path, capsys):
    code, _, err = cli(capsys, "simulate", "--games", "1", "--json-out", str(tmp_path / "a"),
                       "--plot", str(tmp_path / "a"))
    assert code == 2 and "the same file as --json-out" in one_line_error(err)


def test_write_atomically_refuses_a_target_that_became_a_fifo(tmp_path):
    """play --record writes through the same primitive."""
    fifo = tmp_path / "rec"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="not a regular file"):
        write_atomically(str(fifo), "text\n")
    assert listing(tmp_path) == ["rec"]
    with pytest.raises(UsageError, match="is a FIFO"):
        check_target(str(fifo), "--record")


# --- a game that fails inside a worker -------------------------------------------------------------

@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("failure", [
    PluginError("plugin rent raised in hook em_land: ValueError: boom"),
    RuntimeError("a plugin bug"),
])
def test_a_failing_game_is_one_line_naming_the_game_and_seed(capsys, monkeypatch, workers, failure):
    original = Game.play
    bad = S.game_seed(0, 5)

    def play(self, max_turns=None):
        if self.seed == bad:
            raise failure
        return original(self, max_turns)

    monkeypatch.setattr(Game, "play", play)  # forked workers inherit it
    code, out, err = cli(capsys, "simulate", "--games", "12", "--workers", workers,
                         "--max-turns", "30", "--check-invariants")
    assert (code, out) == (2, "")
    line = one_line_error(err)
    assert f"game 6 (seed {bad}) of standard failed" in line
    assert str(failure).split(":")[0] in line


# --- signals ---------------------------------------------------------------------------------------

def test_sigterm_leaves_no_temporary_file(tmp_path):
    # its own process group, killed whatever happens (issue 19 case 26)
    with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2",
                   "--json-out", "g.json", "--csv-out", "g.csv") as proc:
        wait_for(lambda: len([p for p in tmp_path.iterdir()
                              if p.name.startswith(".easymoney-")]) == 2, "the temporary files")
        time.sleep(0.5)  # well into the run
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 128 + signal.SIGTERM
        assert err == "easymoney: terminated\n"
        assert listing(tmp_path) == []


def test_ctrl_c_with_two_workers_prints_one_line(tmp_path):
    for _ in range(2):
        # SIGINT at its default in the child even when pytest runs in the background (where
        # it is ignored), and the group killed whatever happens (issue 19 case 26)
        with easymoney(tmp_path, "simulate", "--games", "1000000", "--workers", "2") as proc:
            time.sleep(2.0)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
            assert proc.returncode == 130
            assert err == "easymoney: interrupted\n", err
            assert out == ""
