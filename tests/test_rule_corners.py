"""Corners of the rules and the script runner: scripts under tests/data/rules, bot games without an end."""

from __future__ import annotations

from pathlib import Path

import pytest

from easymoney.engine.settings import Settings
from easymoney.errors import ScriptError
from easymoney.script import runner as runner_module
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner

DATA = Path(__file__).parent / "data" / "rules"


def run_file(name: str):
    path = DATA / name
    result = ScriptRunner(parse(path.read_text(encoding="utf-8"), str(path)),
                          settings=Settings(invariants=True)).run()
    assert [f"line {n.line}: {n.message}" for n in result.failures] == []
    return result


def test_header_statements_may_follow_an_expect_line():
    result = run_file("header_after_expect.game")
    assert result.checked == 3
    assert result.game.seed == 4
    assert result.game.by_name["Bob"].cash == 19000


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> int:
    """The runner's cap on bot turns, made small so that a test reaches it quickly."""
    monkeypatch.setattr(runner_module, "AUTOPLAY_LIMIT", 50)
    return 50


def test_bots_without_an_ending_rule_stop_at_the_cap(small_cap: int) -> None:
    with pytest.raises(ScriptError) as info:
        run_file("bots_without_end.game")
    err = info.value
    assert err.message == ("the bots played 50 turns after the script's last line and nothing "
                           "ended the game: set `option end.max_turns N`, or write "
                           "`autoplay N turns`")
    assert (err.line, err.col) == (8, 1)  # the players line that makes them bots


def test_autoplay_n_turns_is_the_limit_the_user_wrote(small_cap: int) -> None:
    path = DATA / "autoplay_turns_without_end.game"
    result = ScriptRunner(parse(path.read_text(encoding="utf-8"), str(path)),
                          settings=Settings(invariants=True)).run()
    assert result.game.turns_played == 120 and result.game.outcome is None
    assert [n.message for n in result.failures] == ["Ann is not bankrupt"]


def test_end_max_turns_with_autoplay_is_the_limit_the_user_wrote(small_cap: int) -> None:
    result = run_file("autoplay_max_turns.game")
    assert result.game.turns_played == 120
    assert result.game.outcome is not None and result.game.outcome.reason == "turns"


def test_a_long_bot_game_keeps_only_the_current_turn_in_its_log(small_cap: int) -> None:
    result = run_file("autoplay_max_turns.game")
    log = result.game.log
    assert log and log[0].kind == "turn" and log[0].data["number"] == 120
    assert sum(1 for e in log if e.kind == "turn") == 1


def test_a_bare_autoplay_without_an_ending_rule_stops_at_the_cap(small_cap: int) -> None:
    with pytest.raises(ScriptError) as info:
        run_file("autoplay_without_end.game")
    assert info.value.message == ("autoplay played 50 turns and nothing ended the game: set "
                                  "`option end.max_turns N`, or write `autoplay N turns`")
    assert (info.value.line, info.value.col) == (8, 1)
