"""Issue 19 case 27: every line of the README's tour runs as pasted (from a copy of the
repository's examples and variants), but the one that needs a Dask scheduler."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from processes import HUNG, kill_group, start

ROOT = Path(__file__).resolve().parent.parent


def tour_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A short tour", 1)[1].split("\n\n", 2)[1]
    lines = [line.strip() for line in block.splitlines()]
    assert lines and all(line.startswith("easymoney ") for line in lines), block
    return lines


@pytest.mark.parametrize("line", tour_lines())
def test_issue19_case27_a_readme_tour_line_runs_as_pasted(tmp_path, line):
    if "--cluster" in line:
        pytest.skip("needs a Dask scheduler at HOST:8786 (tests/test_cluster.py plays on one)")
    for folder in ("examples", "variants"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    if line.split("#")[0].split()[:2] == ["easymoney", "serve"]:
        _serves(line, tmp_path, env)
        return
    proc = start(["/bin/sh", "-c", line], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate("quit\n", timeout=HUNG * 5)  # the prompt's line leaves
    finally:
        kill_group(proc)
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def _serves(line: str, folder: Path, env: dict[str, str]) -> None:
    """`easymoney serve` runs until it is stopped: it must say where to point the browser
    (on a free port, the default one may be taken), then it is stopped."""
    import select
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = line.split("#")[0].strip() + f" --port {port}"
    proc = start(["/bin/sh", "-c", command], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "easymoney serve said nothing in 60 s"
        first = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}" in first, (first, proc.poll())
    finally:
        kill_group(proc)
