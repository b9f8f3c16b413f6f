"""The railroads rule, played through real scripts.

The rule edits nothing in easymoney: these tests show that the built-in rules handle a
kind of space they were never told about. They play the default mode only: easymoney's
own suite holds its fast relay equal to pluggy on third-party plugins, this one included.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from easymoney.cli import main
from easymoney.script.parser import parse, parse_file
from easymoney.script.runner import ScriptRunner

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent.parent.parent
SCRIPT = EXAMPLES / "16-railroads.game"
VARIANT = EXAMPLES / "variants" / "railroads.yaml"


def play(text: str):
    header = f'variant "{VARIANT}"\nplayers Ann Bob\n'
    runner = ScriptRunner(parse(header + textwrap.dedent(text)))
    return runner.run()


def test_the_example_script_holds():
    result = ScriptRunner(parse_file(str(SCRIPT))).run()
    assert result.failures == [] and result.checked == 11


def test_rent_doubles_with_each_railroad_the_owner_has():
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
    """)
    assert result.failures == []


def test_without_doubling_every_railroad_charges_its_printed_rent():
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
    """)
    assert result.failures == []


def test_a_mortgaged_railroad_is_worth_nothing_and_counts_for_the_rent():
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
    """)
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


def test_a_loan_is_repaid_with_interest_at_the_lenders_next_turn():
    result = play("""
        setup Bob owes Ann 330      # repaid as Ann's first turn begins, before her window
        Ann rolls 1 2
        expect Bob owes Ann 0
        expect Ann cash 20330
        Ann declines
        Ann passes
        Bob passes
        Ann lends Bob 1000          # after the landing, in Ann's window
        expect Bob owes Ann 1100
        Bob rolls 3 4
        Bob buys
        Ann rolls 1 2               # 3 + 3: Real Estate Tax
        expect Bob owes Ann 0
        expect Bob cash 18870       # 20,000 - 330 + 1,000 - 700 (Dover Street) - 1,100
    """)
    assert result.failures == [] and result.checked == 5


def test_a_loan_beyond_the_lenders_cash_is_refused_and_changes_nothing():
    result = play("""
        Ann lends Bob 25000
        expect refused railroads
        Ann lends Bob 1005
        expect refused R30
        Ann lends Ann 100
        expect refused
        expect Ann cash 20000
        expect Bob owes Ann 0
    """)
    assert result.failures == [] and result.checked == 5


def test_a_loan_line_by_another_player_in_a_window_is_refused_by_r5():
    result = play("""
        Bob lends Ann 100
        expect refused R5
    """)
    assert result.failures == []
