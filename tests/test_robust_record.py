"""Issue 19 case 10: a record is checked to read back; an action whose text is not its
script line fails the record with one line naming the plugin that owns the action."""

from __future__ import annotations

from pathlib import Path

import pytest

from easymoney.plugins import streets
from easymoney.script import record

from cli_helpers import cli

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = str(ROOT / "examples" / "01-first-turns.game")


@pytest.fixture
def unchecked(monkeypatch):
    """Forget which action types were checked already in this process."""
    monkeypatch.setattr(record, "_READ_BACK", set())


@pytest.mark.parametrize("text", ["{player} purchases it", "{player} buys\nAnn rolls 1 1",
                                  "{player}   buys", "Buy({player})"])
def test_issue19_case10_an_action_that_is_not_its_line_is_not_recorded(
        monkeypatch, capsys, tmp_path, unchecked, text):
    monkeypatch.setattr(streets.Buy, "__str__", lambda self: text.format(player=self.player))
    out_file = tmp_path / "out.game"
    code, out, err = cli(capsys, "play", SCRIPT, "--quiet", "--record", str(out_file))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: cannot record the game: plugin 'streets' writes its "
                               "action Buy as ")
    assert not out_file.exists()


def test_issue19_case10_a_sound_record_is_written(capsys, tmp_path, unchecked):
    out_file = tmp_path / "out.game"
    code, out, err = cli(capsys, "play", SCRIPT, "--quiet", "--record", str(out_file))
    assert (code, err) == (0, "")
    assert cli(capsys, "play", str(out_file), "--quiet")[0] == 0
