"""The `legends` plugin (R15): legend spaces pay to or receive from the Bank the printed amount."""

from __future__ import annotations

import pytest

from .conftest import play


@pytest.mark.parametrize("start, dice, space, change", [
    (11, "2 3", "United Trust Company", +300),
    (31, "2 3", "Bingo Game", +500),
    (44, "1 1", "Building & Loan Dividend", +200),
    (0, "1 5", "Real Estate Tax", -1000),
    (30, "1 3", "Personal Property Tax", -500),
    (33, "2 3", "Fire Loss", -400),
    (15, "2 3", "Speed Trap", -200),
])
def test_R15_landing_pays_or_receives_the_printed_amount(start, dice, space, change):
    play(f"""
        without doubles
        setup Ann at {start}
        Ann rolls {dice}
        expect Ann at "{space}"
        expect Ann cash {20000 + change}
        expect bank {260000 - change}
    """)


def test_R15_christmas_club():
    play("""
        setup Ann at 47
        Ann rolls 1 2                 # across the Bonus Corner to 2
        expect Ann cash 22750
    """)


@pytest.mark.parametrize("start, space, amount", [(5, "Auto Accident", 500),
                                                  (21, "Airplane Crash", 1000)])
def test_R15_crashes_are_paid_into_the_hospital_pot(start, space, amount):
    play(f"""
        setup Ann at {start}
        Ann rolls 2 3
        expect Ann at "{space}"
        expect Ann cash {20000 - amount}
        expect hospital {amount}
        expect bank 260000
    """)


@pytest.mark.parametrize("start, dice, change", [
    (0, "1 5", 0),          # Real Estate Tax: a tax, waived
    (30, "1 3", 0),         # Personal Property Tax: a tax, waived
    (15, "2 3", 0),         # Speed Trap: a traffic fine, waived
    (33, "2 3", -400),      # Fire Loss: neither, paid
    (5, "2 3", -500),       # Auto Accident: neither, paid
])
def test_R15_R16_taxes_and_fines_are_waived_for_the_exemption_holder(start, dice, change):
    play(f"""
        setup exemption Ann
        setup Ann at {start}
        Ann rolls {dice}
        expect Ann cash {20000 + change}
    """)


def test_R15_off_legend_spaces_do_nothing():
    play("""
        without legends
        setup Bob at 5
        Ann rolls 1 5                 # Real Estate Tax
        Bob rolls 2 3                 # Auto Accident
        Ann rolls 4 6                 # United Trust Company
        expect Ann at 16
        expect Ann cash 20000
        expect Bob cash 20000
        expect hospital 0
        expect bank 260000
    """)
