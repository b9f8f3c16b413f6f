"""Corners of the rules and the script runner: scripts under tests/data/rules, bot games without an end."""

from __future__ import annotations

from pathlib import Path

from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner

DATA = Path(__file__).parent / "data" / "rules"


def run_file(name: str):
    path = DATA / name
    result = ScriptRunner(parse(path.read_text(encoding="utf-8"), str(path))).run()
    assert [f"line {n.line}: {n.message}" for n in result.failures] == []
    return result


def test_header_statements_may_follow_an_expect_line():
    result = run_file("header_after_expect.game")
    assert result.checked == 3
    assert result.game.seed == 4
    assert result.game.by_name["Bob"].cash == 19000
