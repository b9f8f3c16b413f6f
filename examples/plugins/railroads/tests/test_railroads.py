"""The railroads rule, played through real scripts in both dispatch modes.

The rule edits nothing in easymoney: these tests show that the built-in rules handle a
kind of space they were never told about, and that the fast relay calls the plugin
exactly when pluggy does.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from easymoney.cli import main
from easymoney.script.parser import parse, parse_file
from easymoney.script.runner import ScriptRunner

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent.parent.parent
SCRIPT = EXAMPLES / "16-railroads.game"
VARIANT = EXAMPLES / "variants" / "railroads.yaml"
MODES = ("fast", "pluggy")


def play(text: str, dispatch: str = "fast"):
    header = f'variant "{VARIANT}"\nplayers Ann Bob\n'
    runner = ScriptRunner(parse(header + textwrap.dedent(text)), dispatch=dispatch)
    return runner.run()


@pytest.mark.parametrize("dispatch", MODES)
def test_the_example_script_holds_in_both_modes(dispatch):
    result = ScriptRunner(parse_file(str(SCRIPT)), dispatch=dispatch).run()
    assert result.failures == [] and result.checked == 7


@pytest.mark.parametrize("dispatch", MODES)
def test_rent_doubles_with_each_railroad_the_owner_has(dispatch):
    result = play("""
        setup Ann owns "Reading Railroad"
        setup Ann owns "Pennsylvania Railroad"
        setup Ann owns "Short Line"
        Ann rolls 1 2
        Ann declines
        Ann passes
        Bob passes
        Bob rolls 1 3           # Reading Railroad: three railroads, 250 x 4
        expect Bob cash 19000
    """, dispatch)
    assert result.failures == []


@pytest.mark.parametrize("dispatch", MODES)
def test_without_doubling_every_railroad_charges_its_printed_rent(dispatch):
    result = play("""
        option railroads.doubling false
        setup Ann owns "Reading Railroad"
        setup Ann owns "Pennsylvania Railroad"
        Ann rolls 1 2
        Ann declines
        Ann passes
        Bob passes
        Bob rolls 1 3
        expect Bob cash 19750
    """, dispatch)
    assert result.failures == []


@pytest.mark.parametrize("dispatch", MODES)
def test_a_mortgaged_railroad_is_worth_nothing_and_counts_for_the_rent(dispatch):
    result = play("""
        setup Ann owns "Reading Railroad" mortgaged
        setup Ann owns "Pennsylvania Railroad"
        expect Ann worth 20750      # R28: the mortgaged one counts nothing; 3 x 250
        Ann rolls 1 2
        Ann declines
        Ann passes
        Bob passes
        Bob rolls 1 3               # Reading Railroad, mortgaged: R19's reduced rent, by the
        expect Bob cash 19500       # kind's own rule (two railroads: 500)
    """, dispatch)
    assert result.failures == []


def test_buying_a_railroad_at_a_price_is_refused():
    result = play("""
        Ann rolls 1 3
        Ann bids 300
        Bob bids 310
        Ann passes
        expect "Reading Railroad" owner Bob
    """)
    assert result.failures == []


def test_play_records_a_game_that_replays(tmp_path, capsys):
    out = tmp_path / "rr.game"
    assert main(["play", str(SCRIPT), "--record", str(out)]) == 0
    first = capsys.readouterr().out
    assert main(["play", str(out)]) == 0
    again = capsys.readouterr().out
    # the record adds its own final expectations; the events are the same
    assert first.split("\nThe game stopped")[0] == again.split("\nThe game stopped")[0]
