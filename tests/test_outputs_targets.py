"""Where outputs may go (issue 19, cases 1 and 2): every command writes through one checked,
write-then-rename path, and no output may be a file the command reads."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import cli, one_line_error

SCRIPT = """variant "{variant}"
players Ann Bob
seed 3
Ann rolls 3 4
"""


def run(*args: str, cwd: Path, limit: int | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`easymoney ARGS` in a process of its own; `limit`: the largest file it may write (bytes)."""
    def lower_limit() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([sys.executable, "-m", "easymoney", *args], cwd=cwd, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                          preexec_fn=lower_limit)


# --- case 1: board -o takes the same checked path as every other output -----------------------

def test_issue19_case1_board_replaces_a_link_and_leaves_its_target_alone(tmp_path, capsys):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "board.svg"
    link.symlink_to(target)
    code, out, err = cli(capsys, "board", "standard", "-o", str(link))
    assert (code, err) == (0, "")
    assert target.read_text() == "keep me\n"
    assert not link.is_symlink() and link.read_text().startswith("<?xml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_issue19_case1_board_refuses_a_fifo_at_once(tmp_path):
    fifo = tmp_path / "board.png"
    os.mkfifo(fifo)
    done = run("board", "standard", "-o", str(fifo), cwd=tmp_path)  # it blocked for ever
    assert done.returncode == 2
    assert one_line_error(done.stderr) == (f"error: -o {fifo}: is a FIFO; only a regular file "
                                           f"or a new name is written (by renaming a complete "
                                           f"file over it)")


def test_issue19_case1_board_refuses_a_device(tmp_path, capsys):
    device = tmp_path / "board.pdf"
    device.symlink_to("/dev/null")
    code, out, err = cli(capsys, "board", "standard", "-o", str(device))
    assert (code, out) == (2, "")
    assert "is a character device" in one_line_error(err)
    assert device.is_symlink()


def test_issue19_case1_a_board_write_failing_halfway_keeps_the_old_file(tmp_path):
    old = tmp_path / "board.png"
    old.write_bytes(b"the old picture " * 64)
    done = run("board", "standard", "-o", "board.png", cwd=tmp_path, limit=20 * 1024)
    assert done.returncode == 2, done.stderr
    assert one_line_error(done.stderr) == "error: cannot write board.png: File too large"
    assert old.read_bytes() == b"the old picture " * 64
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png"]


# --- case 2: no output overwrites an input -------------------------------------------------------

VARIANT = "name: mine\nextends: base.yaml\n"
BASE = "name: base\nextends: standard\nplayers:\n  min: 2\n  max: 4\n"


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """A script that plays v.yaml, which extends base.yaml, which extends standard."""
    (tmp_path / "v.yaml").write_text(VARIANT)
    (tmp_path / "base.yaml").write_text(BASE)
    (tmp_path / "g.game").write_text(SCRIPT.format(variant="v.yaml"))
    (tmp_path / "link.yaml").symlink_to(tmp_path / "base.yaml")
    return tmp_path


def contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir()) if not p.is_symlink()}


@pytest.mark.parametrize("target, role", [
    ("v.yaml", "the variant being read"),
    ("base.yaml", "a file the variant extends"),
    ("link.yaml", "a file the variant extends"),  # a link to base.yaml
])
@pytest.mark.parametrize("argv", [
    ["play", "g.game", "--record", "{t}"],
    ["simulate", "v.yaml", "-n", "2", "--json-out", "{t}"],
    ["simulate", "v.yaml", "-n", "2", "--csv-out", "{t}"],
    ["simulate", "v.yaml", "-n", "2", "--plot", "{t}"],
    ["compare", "standard", "v.yaml", "-n", "2", "--json-out", "{t}"],
    ["sweep", "v.yaml", "--vary", "four_sides=on,off", "-n", "2", "--json-out", "{t}"],
    ["board", "v.yaml", "-o", "{t}"],
    ["board", "g.game", "-o", "{t}"],
])
def test_issue19_case2_no_output_overwrites_the_variant_or_what_it_extends(
        argv, target, role, inputs, capsys, monkeypatch):
    monkeypatch.chdir(inputs)
    before = contents(inputs)
    if argv[0] == "board" or "--plot" in argv:  # a picture must be named as one: a link
        picture = target.replace(".yaml", ".png")
        (inputs / picture).symlink_to(inputs / target)
        target = picture
    words = [w.replace("{t}", target) for w in argv]
    code, out, err = cli(capsys, *words)
    assert (code, out) == (2, "")
    assert f"{words[-2]} {target} would overwrite {role}" in one_line_error(err)
    assert contents(inputs) == before


def test_issue19_case2_a_record_does_not_overwrite_the_script(inputs, capsys, monkeypatch):
    monkeypatch.chdir(inputs)
    before = contents(inputs)
    code, out, err = cli(capsys, "board", "g.game", "-o", "g.png")
    assert code == 0  # a new name is fine
    (inputs / "g.png").unlink()
    (inputs / "g.svg").symlink_to(inputs / "g.game")
    code, out, err = cli(capsys, "board", "g.game", "-o", "g.svg")
    assert (code, out) == (2, "")
    assert "-o g.svg would overwrite the script being played (g.game)" in one_line_error(err)
    assert contents(inputs) == before


def test_issue19_case2_a_new_game_at_the_prompt_does_not_record_over_its_variant(inputs):
    pytest.importorskip("prompt_toolkit")
    before = contents(inputs)
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", "-i", "--variant",
                           "v.yaml", "--players", "Ann", "Bob", "--seed", "1", "--record",
                           "v.yaml"], cwd=inputs, input="quit\n", text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 2, done.stdout
    assert f"--record v.yaml would overwrite the variant being read ({inputs / 'v.yaml'})" \
        in one_line_error(done.stderr)
    assert contents(inputs) == before
