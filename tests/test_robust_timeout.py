"""Issue 19 case 12: a hook that never returns is stopped by --game-timeout, naming the plugin
and the game, in `simulate` (here and in worker processes), `compare`, `sweep` and `play`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from easymoney.plugins import turn
from easymoney.simulate.arms import game_seed

from cli_helpers import cli, one_line_error

ROOT = Path(__file__).resolve().parent.parent


def _never_returns(game):  # the body a hook is given below: a loop with no end
    while True:
        pass


@pytest.fixture
def hanging_turn() -> Iterator[None]:
    """The `turn` plugin's em_play_turn never returns (forked workers inherit it)."""
    code = turn.em_play_turn.__code__
    turn.em_play_turn.__code__ = _never_returns.__code__
    try:
        yield
    finally:
        turn.em_play_turn.__code__ = code


@pytest.mark.parametrize("workers", ["1", "2"])
def test_issue19_case12_simulate_stops_a_game_that_hangs(hanging_turn, capsys, workers):
    code, out, err = cli(capsys, "simulate", "--games", "4", "--workers", workers,
                         "--game-timeout", "0.5")
    assert (code, out) == (2, "")
    assert one_line_error(err) == (
        f"error: game 1 (seed {game_seed(0, 0)}) of standard was stopped after 0.5 s "
        f"(--game-timeout): plugin 'turn' in em_play_turn did not return")


def test_issue19_case12_compare_and_sweep_have_the_limit_too(hanging_turn, capsys):
    for argv in (["compare", "standard", "standard-four_sides"],
                 ["sweep", "standard", "--vary", "end.max_turns=50,60"]):
        code, out, err = cli(capsys, *argv, "--games", "2", "--workers", "1",
                             "--game-timeout", "0.5")
        assert (code, out) == (2, ""), argv
        assert "was stopped after 0.5 s (--game-timeout): plugin 'turn' in em_play_turn " \
               "did not return" in one_line_error(err)


def test_issue19_case12_play_stops_a_script_that_hangs(hanging_turn, capsys):
    code, out, err = cli(capsys, "play", str(ROOT / "examples" / "01-first-turns.game"),
                         "--game-timeout", "0.5", "--quiet")
    assert (code, out) == (2, "")
    assert err.startswith("error: game seed ")
    assert err.endswith(" was stopped after 0.5 s (--game-timeout): plugin 'turn' in "
                        "em_play_turn did not return\n")


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "x"])
def test_issue19_case12_a_bad_limit_is_refused(capsys, value):
    try:
        code, out, err = cli(capsys, "simulate", "--games", "1", "--game-timeout", value)
    except SystemExit as exc:  # refused by the option parser
        code = exc.code
        out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "--game-timeout" in err.splitlines()[-1]


def test_issue19_case12_the_default_limit_changes_nothing(capsys):
    plain = cli(capsys, "simulate", "--games", "6", "--workers", "1", "--max-turns", "40")
    limited = cli(capsys, "simulate", "--games", "6", "--workers", "2", "--max-turns", "40",
                  "--game-timeout", "30")
    assert plain == limited


def test_issue38_item9_limits_in_other_threads_share_one_watchdog_and_still_stop(monkeypatch):
    """A page's table puts each bot decision under a limit in the table's thread: the limits
    share one watchdog thread (a Timer each started a thread a decision); a block past its
    limit is stopped, nested ones too, and a block that ended in time is told nothing."""
    import threading
    import time

    from easymoney.timelimit import GameTimeout, time_limit
    started: list[str] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started.append(thread.name)
        start(thread)
    monkeypatch.setattr(threading.Thread, "start", counted)
    seen: list[str] = []

    def work() -> None:
        for _ in range(200):
            with time_limit(10):
                pass
        for inner in (0.2, 5.0):
            t0 = time.monotonic()
            try:
                with time_limit(5.0 if inner < 1 else 0.2), time_limit(inner):
                    while True:
                        pass
            except GameTimeout:
                seen.append(f"stopped after {time.monotonic() - t0:.1f} s")
        with time_limit(0.05):
            time.sleep(0.01)
        time.sleep(0.3)  # past that limit: nothing is raised here
        seen.append("told nothing")
    worker = threading.Thread(target=work)
    worker.start()
    worker.join(30)
    assert seen == ["stopped after 0.2 s", "stopped after 0.2 s", "told nothing"], seen
    assert len(started) <= 2, started  # the worker, and the watchdog if it was not running
