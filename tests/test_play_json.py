"""`easymoney play`: the JSON stream ends with the final state, errors in JSON, a record never over its own script, a stopped script says what the game waits for."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from easymoney.cli import main

GAME = """\
players Ann Bob:greedy
seed 4
setup Bob owns "Waldorf Hotel" mortgaged
setup exemption Ann
Ann rolls 3 4
Ann buys
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.game"
    path.write_text(GAME)
    return path


def test_the_json_summary_ends_with_the_final_state(game, capsys):
    status, out, _ = run(capsys, "play", str(game), "--json")
    assert status == 0
    summary = json.loads(out.splitlines()[-1])["summary"]
    state = summary["state"]
    spaces = state["spaces"]
    assert len(spaces) == 48 and [s["space"] for s in spaces] == list(range(48))
    assert spaces[7] == {"space": 7, "name": "Dover Street", "owner": "Ann", "houses": 1,
                         "mortgaged": False}
    assert spaces[8]["owner"] == "Bob" and spaces[8]["mortgaged"] is True
    assert spaces[3] == {"space": 3, "name": "Beacon Street", "owner": None, "houses": 0,
                         "mortgaged": False}
    assert state["positions"] == {"Ann": 7, "Bob": 0}
    assert state["pots"] == {"hospital": 0}
    assert state["held"] == {"Special Exemption": "Ann"}
    assert state["deck"] == 23  # the Special Exemption card is in Ann's hand
    assert state["turn"] == 1
    assert summary["waiting_for"] == ("Ann to build, mortgage, redeem or sell, or Bob to begin "
                                      "the next turn")


def test_the_json_summary_lists_the_players_as_objects(game, capsys):
    _, out, _ = run(capsys, "play", str(game), "--json")
    players = json.loads(out.splitlines()[-1])["summary"]["players"]
    assert isinstance(players, list)
    assert [p["name"] for p in players] == ["Ann", "Bob"]
    assert players[0] == {"name": "Ann", "strategy": None, "cash": 19300, "worth": 20000,
                          "rank": 1, "position": 7, "houses_left": 15, "bankrupt": False,
                          "cards": ["Special Exemption"]}
    assert players[1]["strategy"] == "greedy"


def test_an_error_in_json_mode_is_a_json_object_on_stdout_too(tmp_path, capsys):
    bad = tmp_path / "bad.game"
    bad.write_text("players Ann Bob\nAnn rolls 3 4\nAnn bids 500\n")
    status, out, err = run(capsys, "play", str(bad), "--json")
    assert status == 2
    last = json.loads(out.splitlines()[-1])
    assert last == {"event": "error", "message": "the game waits for Ann to buy Dover Street "
                    "or decline; found 'Ann bids 500'", "file": str(bad), "line": 3,
                    "column": 1}
    assert err.startswith(f"{bad}:3:1: error: the game waits for Ann to buy")
    assert "Traceback" not in err


def test_an_error_before_any_game_in_json_mode_is_a_json_object_too(tmp_path, capsys):
    status, out, err = run(capsys, "play", str(tmp_path / "missing.game"), "--json")
    assert status == 2
    error = json.loads(out)
    assert error["event"] == "error" and error["message"].startswith("cannot read the script")
    assert error["line"] is None and "error: cannot read the script" in err


def test_a_record_over_its_own_script_is_refused_before_the_run(game, capsys):
    before = game.read_text()
    status, out, err = run(capsys, "play", str(game), "--record", str(game))
    assert status == 2
    assert out == ""  # refused before playing: no transcript
    assert "--record" in err and "would overwrite the script being played" in err
    assert game.read_text() == before


def test_a_record_over_its_own_script_through_a_link_is_refused(game, tmp_path, capsys):
    link = tmp_path / "link.game"
    os.symlink(game, link)
    hard = tmp_path / "hard.game"
    os.link(game, hard)
    before = game.read_text()
    for target in (link, hard):
        status, _, err = run(capsys, "play", str(game), "--record", str(target))
        assert status == 2 and "would overwrite the script being played" in err
    assert game.read_text() == before


def test_a_record_to_another_file_still_works(game, tmp_path, capsys):
    out = tmp_path / "rec.game"
    status, _, _ = run(capsys, "play", str(game), "--record", str(out))
    assert status == 0 and out.read_text().startswith("# Recorded by easymoney")


def test_a_script_that_stops_before_the_end_says_what_the_game_waits_for(tmp_path, capsys):
    path = tmp_path / "s.game"
    path.write_text("players Ann Bob\nAnn rolls 3 4\n")
    status, out, _ = run(capsys, "play", str(path))
    assert status == 0
    assert ("The script ends here; the game stops where it is\n"
            "The game waits for Ann to buy Dover Street or decline\n") in out


def test_a_finished_game_says_nothing_of_waiting(capsys):
    root = Path(__file__).resolve().parent.parent
    status, out, _ = run(capsys, "play", str(root / "examples" / "13-bankruptcy.game"))
    assert status == 0 and "waits for" not in out


def test_interactive_without_prompt_toolkit_says_what_to_install(monkeypatch, capsys):
    """At a terminal only (issue 19 case 27: piped answers need no prompt_toolkit)."""
    import importlib.util

    from easymoney.interactive import session
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "prompt_toolkit" else real(name, *a))
    monkeypatch.setattr(session, "_is_tty", lambda stream: True)
    status, out, err = run(capsys, "play", "--interactive", "--players", "Ann", "Bob:greedy")
    assert status == 2
    assert err.strip() == ("error: interactive play at a terminal needs prompt_toolkit: "
                           "pip install 'easymoney-game[play]' (or pipe the answers in)")


def test_new_game_options_need_interactive(capsys):
    status, _, err = run(capsys, "play", "--players", "Ann", "Bob")
    assert status == 2 and "--players is for a new game at the prompt: add --interactive" in err
    status, _, err = run(capsys, "play")
    assert status == 2 and "name a script to play" in err


def test_the_json_summary_holds_the_one_view_of_where_the_game_stopped(game, capsys):
    """Issue 29, part 5: `view` is easymoney.view's, the older keys read from it."""
    status, out, _ = run(capsys, "play", str(game), "--json")
    assert status == 0
    summary = json.loads(out.splitlines()[-1])["summary"]
    view = summary["view"]
    assert set(view) == {"state", "request", "legal", "me"}
    assert view["request"]["kind"] == "window_after"
    assert view["request"]["words"] == summary["waiting_for"]
    assert view["request"]["next_player"] == "Bob"
    assert "Ann ends turn" in [entry["line"] for entry in view["legal"]]
    state = view["state"]
    assert state["kept_cards"] == summary["state"]["held"] == {"Special Exemption": "Ann"}
    assert state["owners"][str(summary["state"]["positions"]["Ann"])] == "Ann"
    assert [p["cards"] for p in state["players"]] == [p["cards"] for p in summary["players"]]


def test_r11_a_script_stopped_in_an_auction_shows_the_bids_it_waits_for(tmp_path, capsys, monkeypatch):
    """The summary's view is taken where the game stopped, with its auction under way: after
    the stop the auction's state is gone, and a listing made then (with invariants checked)
    found the rule refusing its own `Bid` candidate."""
    monkeypatch.setenv("EASYMONEY_CHECK_INVARIANTS", "1")
    path = tmp_path / "auction.game"
    path.write_text("players Ann Bob\nseed 3\nAnn rolls 1 1\nBob rolls 1 1\nAnn rolls 1 1\n")
    status, out, _ = run(capsys, "play", str(path), "--json")
    assert status == 0, out.splitlines()[-1]
    view = json.loads(out.splitlines()[-1])["summary"]["view"]
    assert view["request"]["kind"] == "bid" and view["request"]["player"] == "Ann"
    assert [entry["type"] for entry in view["legal"]] == ["Bid", "Pass"]
    assert view["legal"][0]["least"] == view["request"]["least"] == 100
