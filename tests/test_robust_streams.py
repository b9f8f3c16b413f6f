"""Issue 19 case 16: a closed standard stream (`>&-`, `<&-`) is one error line and status 2."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = str(ROOT / "examples" / "01-first-turns.game")

COMMANDS = [
    ["play", SCRIPT],
    ["simulate", "--games", "2", "--workers", "1", "--max-turns", "20"],
    ["board", "standard"],
    ["rules"],
]


def _run(argv: list[str], closed: str, tmp_path: Path) -> tuple[int, str]:
    """Run `easymoney ARGV` from a shell with `closed` (`<&-` or `>&-`); (status, stderr)."""
    err_path = tmp_path / "stderr"
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "easymoney", *argv])
    with open(err_path, "w") as err, open(os.devnull, "r+") as null:
        proc = subprocess.run(["/bin/sh", "-c", f"exec {command} {closed}"], stdin=null,
                              stdout=null, stderr=err, cwd=tmp_path, timeout=120)
    return proc.returncode, err_path.read_text()


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_issue19_case16_closed_standard_output_is_one_line(argv, tmp_path):
    code, err = _run(argv, ">&-", tmp_path)
    assert code == 2, err
    assert err == "error: standard output is closed: nothing can be written\n"


@pytest.mark.parametrize("argv", [["play", "-"], ["play", "-i", "--players", "Ann", "Bob"]],
                         ids=["script", "interactive"])
def test_issue19_case16_closed_standard_input_is_one_line(argv, tmp_path):
    code, err = _run(argv, "<&-", tmp_path)
    assert code == 2, err
    assert err == "error: standard input is closed: nothing can be read\n"


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_issue19_case16_commands_that_read_nothing_run_with_standard_input_closed(argv, tmp_path):
    code, err = _run(argv, "<&-", tmp_path)
    assert (code, err) == (0, "")
