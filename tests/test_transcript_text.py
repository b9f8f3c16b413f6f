"""The transcript in plain English: backward moves say so, counts have their plural, the title names the rule changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from easymoney.cli import main
from easymoney.engine.events import Event, describe
from easymoney.words import count, plural

GOLDEN = Path(__file__).resolve().parent / "golden"


def _play(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *args: str) -> list[str]:
    script = tmp_path / "game.game"
    script.write_text(text, encoding="utf-8")
    status = main(["play", str(script), *args])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    return out.splitlines()


def test_counts_have_their_plural() -> None:
    assert [count(n, "house") for n in (0, 1, 2, 1000)] == ["0 houses", "1 house", "2 houses",
                                                            "1,000 houses"]
    assert count(1, "game") == "1 game" and count(3, "game") == "3 games"
    assert [plural(w) for w in ("card", "loss", "match", "strategy", "day")] == [
        "cards", "losses", "matches", "strategies", "days"]


def test_a_backward_move_says_it_moves_back(tmp_path, capsys) -> None:
    # doubles (R12): the card is followed, then the MAN moves back the total thrown
    lines = _play(tmp_path, capsys, 'players Ann Bob\nAnn rolls 2 2\nAnn draws "Take $200"\n')
    assert "Ann moves back to Majestic Theatre (44)" in lines
    lines = _play(tmp_path, capsys, "players Ann Bob\nAnn rolls 1 2\n")
    assert "Ann moves to Beacon Street (3)" in lines


def test_one_house_is_a_house(tmp_path, capsys) -> None:
    lines = _play(tmp_path, capsys, "without four_sides\nplayers Ann Bob\n"
                  'setup Ann owns "Arlington Avenue"\nAnn builds on "Arlington Avenue"\n')
    assert any(re.match(r"Ann builds 1 house on Arlington Avenue for \$600", line) for line in lines)


def test_the_title_names_the_rules_the_header_changes(tmp_path, capsys) -> None:
    lines = _play(tmp_path, capsys, "without four_sides\noption doubles.after_card forward\n"
                  "players Ann Bob\n")
    assert lines[0] == ("Game of standard without four_sides, option doubles.after_card=forward "
                        "with Ann, Bob")
    lines = _play(tmp_path, capsys, "players Ann Bob\n", "--without", "R13")
    assert lines[0] == "Game of standard without four_sides with Ann, Bob"
    lines = _play(tmp_path, capsys, "players Ann Bob Cid\n")
    assert lines[0] == "Game of standard with Ann, Bob, Cid"


def test_the_title_reads_players_as_a_list_or_as_words() -> None:
    templates = {"game_start": "Game of {variant}{changes:changes} with {players:names}"}
    for players in (["Ann", "Bob"], "Ann Bob"):
        event = Event("game_start", {"variant": "standard", "players": players, "changes": []})
        assert describe(event, templates) == "Game of standard with Ann, Bob"


def test_no_golden_transcript_writes_a_plural_in_brackets() -> None:
    for path in sorted(GOLDEN.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        assert "(s)" not in text, path.name
        assert not re.search(r"\b1 (houses|games|turns|cards)\b", text), path.name


def test_one_simulated_game_is_one_game(capsys) -> None:
    assert main(["simulate", "--games", "1", "--players", "2", "--workers", "1",
                 "--max-turns", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 game of standard, 2 players, seed 0, at most 1 turn a game")
    assert "(s)" not in out and not re.search(r"\b1 (games|turns)\b", out), out
