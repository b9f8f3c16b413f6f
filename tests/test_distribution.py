"""What a new user meets first: the distribution's name, its install hints, and a test run that leaves the environment clean."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import easymoney

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "easymoney-game"


def _tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None  # binary or unreadable test data: it cannot name a path


def test_the_distribution_is_easymoney_game_and_the_command_stays_easymoney() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION
    assert project["scripts"] == {"easymoney": "easymoney.cli:main"}
    assert importlib.metadata.version(DISTRIBUTION) == easymoney.__version__
    done = subprocess.run([sys.executable, "-m", "easymoney", "--version"], capture_output=True,
                          text=True, check=True)
    assert done.stdout == f"easymoney {easymoney.__version__}\n"


def test_every_plugin_project_depends_on_the_new_name() -> None:
    projects = sorted(ROOT.glob("examples/plugins/*/pyproject.toml"))
    assert projects
    for path in projects:
        deps = tomllib.loads(path.read_text())["project"].get("dependencies", [])
        names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0] for d in deps}
        assert DISTRIBUTION in names and "easymoney" not in names, path


def test_no_install_hint_names_the_unrelated_easymoney_distribution() -> None:
    # `pip install easymoney[plot]` or a dependency on "easymoney" fetches someone else's project
    wrong = re.compile(r"pip install\s+['\"]?easymoney(?![-\w])")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in _tracked_files() if (text := _text(p))
             for n, line in enumerate(text.splitlines(), 1) if wrong.search(line)
             and p.name != "test_distribution.py"]
    assert found == []
