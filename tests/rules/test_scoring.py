"""The `scoring` plugin: each player's total (R28) and the winner (R29)."""

from __future__ import annotations

import pytest

from .conftest import fails, play


def test_R28_cash_plus_the_value_of_what_is_owned():
    play("""
        setup exemption Ann
        setup Ann owns "Dover Street" 3 houses          # 3 x $700
        setup Ann owns "Waldorf Hotel"                  # 3 x $500
        setup Ann owns "L.M. Telephone Company"         # 3 x (50 x 7)
        setup Ann owns "Milk Route"                     # $1,100 whatever its rent
        setup Ann owns "Elm Country Club" mortgaged     # nothing
        expect Ann worth 25750
    """)


@pytest.mark.parametrize("space, value", [("Airdale Bus Line", 750), ("Associated Airways", 1200),
                                          ("Majestic Theatre", 1650), ("Park Avenue", 2000),
                                          ("Elm Country Club", 1800)])
def test_R28_space_values(space, value):
    play(f"""
        setup Ann owns "{space}"
        expect Ann worth {20000 + value}
    """)


def test_R28_a_mortgaged_space_is_worth_nothing():
    play("""
        setup Ann owns "Park Avenue" 5 houses mortgaged
        expect Ann worth 20000
    """)


def test_R28_the_hospital_pot_belongs_to_no_one():
    play("""
        setup hospital 5000
        expect Ann worth 20000
        expect Bob worth 20000
        expect hospital 5000
    """)


def test_R29_the_largest_total_wins_not_the_largest_cash():
    play("""
        setup Ann cash 15000
        setup Ann owns "Park Avenue" 5 houses           # $10,000
        expect Ann worth 25000
        expect winner Ann
    """)


def test_R29_equal_largest_totals_share_the_win():
    result = play("""
        players Ann Bob Cat
        setup Cat cash 19000
        expect winner Ann Bob
    """)
    assert [rank for _, _, rank in result.game.standings()] == [1, 1, 3]


def test_R29_a_finished_game_names_its_winner():
    play("""
        option end.max_turns 1
        setup Bob owns "Park Avenue"
        Ann rolls 1 5                 # Real Estate Tax
        autoplay
        expect game over by turns
        expect winner Bob
    """)


def test_R28_the_scoring_plugin_is_essential():
    fails("without scoring\n", "rule 'scoring' is essential and cannot be switched off")
