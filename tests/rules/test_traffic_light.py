"""The `traffic_light` plugin (R8): crossing the Red Traffic Light (41-42) without stopping costs $100."""

from __future__ import annotations

from .conftest import play


def test_R8_crossing_the_light_without_stopping_is_fined_100_once():
    play("""
        setup Ann at 40
        Ann rolls 2 4                 # 40 -> 46 across both cells: one fine
        expect Ann cash 20100         # - $100 + $200 Building & Loan Dividend
        expect bank 259900
    """)


def test_R8_stopping_on_either_cell_costs_nothing():
    play("""
        setup Ann at 36
        setup Bob at 36
        Ann rolls 1 4                 # 41
        expect Ann cash 20000
        Bob rolls 2 4                 # 42
        expect Bob cash 20000
    """)


def test_R8_a_man_starting_on_a_cell_is_not_fined():
    play("""
        setup Ann at 41
        setup Bob at 42
        Ann rolls 2 3                 # 41 -> 46: over the second cell
        expect Ann cash 20200
        Bob rolls 1 3                 # 42 -> 46
        expect Bob cash 20200
    """)


def test_R8_moving_backward_is_never_fined():
    play("""
        setup Ann at 44
        Ann rolls 3 3                 # doubles: the card, then 6 back to 38
        Ann draws "Take $100"
        expect Ann at 38
        expect Ann cash 19700         # + $100 - $400 Fire Loss, no fine
    """)


def test_R8_crossing_on_the_way_to_the_bonus_corner():
    play("""
        setup Ann at 40
        Ann rolls 3 5                 # 40 -> 0: the fine, then the bonus
        expect Ann cash 22400
    """)


def test_R8_the_special_exemption_card_waives_the_fine():
    play("""
        setup exemption Ann
        setup Ann at 40
        Ann rolls 2 4
        expect Ann cash 20200
        expect bank 259800
    """)


def test_R8_off_crossing_the_light_costs_nothing():
    play("""
        without traffic_light
        setup Ann at 40
        Ann rolls 2 4
        expect Ann cash 20200
        expect Ann at 46
    """)
