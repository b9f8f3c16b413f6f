"""Issue 19 cases 18 and 23: each `--players` value is one seat, and a script after it is the script.

`--players` values used to be pasted into the new game's header as text: `'Ann Bob'` made two
seats, a line break added a line of its own (its error blamed on `--seed`), a `#` cut the
rest off; and `play -i --players Ann Bob:greedy saved.game` took the script for a player.
"""

from __future__ import annotations

import io
import sys

import pytest

from cli_helpers import cli


def play_piped(monkeypatch, capsys, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    return cli(capsys, "play", *argv)


@pytest.mark.parametrize("value", ["Ann Bob", "Ann\nsetup Ann cash 5", "Bob#", "Ann\tBob",
                                   "Bob:greedy Cat", "Ann\x1b[2J"])
def test_issue19_case18_a_players_value_is_one_seat(monkeypatch, capsys, tmp_path, value):
    monkeypatch.chdir(tmp_path)
    code, out, err = play_piped(monkeypatch, capsys, "-i", "--seed", "1", "--players", "Cat",
                                value)
    assert (code, out) == (2, "")
    shown = repr(value)[1:-1]
    assert err == (f"error: --players '{shown}': one value is one seat: expected a player "
                   f"name, optionally with :STRATEGY (e.g. Ann or Bob:greedy)\n")
    assert list(tmp_path.iterdir()) == []


def test_issue19_case18_good_values_still_make_the_seats(monkeypatch, capsys):
    code, out, err = play_piped(monkeypatch, capsys, "-i", "--seed", "1", "--players", "Ann",
                                "Bob:greedy", "Élodie:cautious")
    assert (code, err) == (0, "")
    assert "Game of standard with Ann, Bob, Élodie" in out


def test_issue19_case23_a_script_after_players_is_the_script(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saved.game").write_text("players Ann Bob\nseed 1\nAnn rolls 3 4\n")
    code, out, err = play_piped(monkeypatch, capsys, "-i", "--players", "Ann", "Bob:greedy",
                                "saved.game")
    assert (code, out) == (2, "")
    assert err == ("error: --players is for a new game: saved.game names its own in its "
                   "header\n")
    # without --players, the same command goes on with the script's game
    code, out, err = play_piped(monkeypatch, capsys, "-i", "saved.game")
    assert (code, err) == (0, "")
    assert "Ann rolls 3 + 4" in out


def test_issue19_case23_a_file_among_the_players_is_named(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, err = play_piped(monkeypatch, capsys, "-i", "--players", "Ann", "saved.game",
                                "Bob")
    assert (code, out) == (2, "")
    assert err == ("error: --players 'saved.game': a script, not a player: name the script "
                   "before --players (easymoney play -i FILE), or a player as NAME[:STRATEGY]\n")
