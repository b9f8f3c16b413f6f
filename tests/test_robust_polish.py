"""Issue 19 case 27 (polish): an option of another command is named with its command, and a
script's `option KEY=VALUE` is shown how it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import cli

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = str(ROOT / "examples" / "01-first-turns.game")


def test_issue19_case27_an_option_of_another_command_is_named(capsys):
    code, out, err = cli(capsys, "play", SCRIPT, "--turn", "3")
    assert (code, out) == (2, "")
    assert err == ("error: play takes no --turn: it is an option of `easymoney board` (e.g. "
                   "easymoney board FILE --turn 3)\n")


def test_issue19_case27_an_unknown_option_is_one_line_of_its_command(capsys):
    with pytest.raises(SystemExit) as exit_:  # the option parser's own exit, as before
        cli(capsys, "play", SCRIPT, "--nosuch")
    out, err = capsys.readouterr()
    assert (exit_.value.code, out) == (2, "")
    assert err.splitlines()[-1] == "easymoney play: error: unrecognized arguments: --nosuch"
    assert err.startswith("usage: easymoney play ")


def test_issue19_case27_option_with_an_equals_sign_gets_a_hint(capsys, tmp_path):
    script = tmp_path / "eq.game"
    script.write_text("option doubles.after_card=forward\nplayers Ann Bob\n")
    code, out, err = cli(capsys, "play", str(script))
    assert (code, out) == (2, "")
    first = err.splitlines()[0]
    assert first.startswith(f"{script}:1:")
    assert first.endswith("(write it `option doubles.after_card forward`)")
