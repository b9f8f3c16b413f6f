"""Every flag the docs give a command is in that command's --help (issue 18: `simulate --dispatch`)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# the pages whose flag tables (rows opening with `--FLAG`) document these commands
TABLES = {"playing.md": ("play",), "scripts.md": ("play",),
          "simulation.md": ("simulate", "compare", "sweep")}
COMMAND = re.compile(r"\beasymoney ([a-z]+)\b([^`\n|]*)")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


@lru_cache(maxsize=None)
def _help(command: str) -> str:
    done = subprocess.run([sys.executable, "-m", "easymoney", command, "--help"],
                          capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    return done.stdout if done.returncode == 0 else ""


def _documented() -> set[tuple[str, str, str]]:
    """(command, flag, where the docs give it)."""
    found = set()
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, 1):
            where = f"{page.relative_to(ROOT)}:{n}"
            for command, rest in COMMAND.findall(line):
                found |= {(command, flag, where) for flag in FLAG.findall(rest)}
            if line.startswith("| `--"):
                cell = line.split("|")[1]
                found |= {(command, flag, where) for command in TABLES.get(page.name, ())
                          for flag in FLAG.findall(cell)}
    return {(c, f, w) for c, f, w in found if _help(c)}  # words that are no command: skipped


def test_issue_18_every_documented_flag_is_in_its_commands_help():
    missing = sorted(f"{where}: easymoney {command} {flag}" for command, flag, where in _documented()
                     if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", _help(command)))
    assert missing == []


@pytest.mark.parametrize("command", ["play", "simulate", "compare", "sweep"])
def test_the_check_sees_the_flag_tables(command):
    assert any(c == command for c, _, _ in _documented())
