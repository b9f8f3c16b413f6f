"""Start-up: `easymoney --version` and `--help` import no engine, loader, script parser, schema library or simulation."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

# What a listing of the commands does not need: each command imports these inside its `run`.
HEAVY = ("easymoney.engine", "easymoney.loading", "easymoney.script", "easymoney.simulate",
         "easymoney.bots", "easymoney.plugins", "jsonschema", "lark", "yaml", "pluggy",
         "multiprocessing")

_PROBE = """
import json, sys
from easymoney.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print(json.dumps(sorted(sys.modules)))
"""


def _imported_after(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True,
                          check=True)
    modules = json.loads(done.stdout.splitlines()[-1])
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["play", "--help"],
                                  ["simulate", "--help"], ["compare", "--help"],
                                  ["sweep", "--help"], ["analyze", "--help"],
                                  ["tune", "--help"]])
def test_listing_the_commands_imports_nothing_heavy(args: list[str]) -> None:
    assert _imported_after(*args) == []


def test_a_command_imports_what_it_needs_when_it_runs() -> None:
    assert "easymoney.loading.loader" in _imported_after("check", "standard")
    assert "easymoney.simulate" not in _imported_after("check", "standard")


def test_every_command_is_listed_and_its_help_works() -> None:
    done = subprocess.run([sys.executable, "-m", "easymoney", "--help"], capture_output=True,
                          text=True, check=True)
    for name in ("play", "simulate", "compare", "sweep", "variants", "check", "show", "diff", "rules",
                 "schema", "strategies"):
        assert re.search(rf"^    {name}\s", done.stdout, re.M), name
