"""The `houses` plugin: each player's supply of 16 houses (R3)."""

from __future__ import annotations

from .conftest import fails, play, refused

# Ann owns a street on every side (so R13 is out of the way) and has used all 16 houses.
ALL_HOUSES_USED = """
    setup Ann owns "Arlington Avenue" 5 houses
    setup Ann owns "Grove Street" 5 houses
    setup Ann owns "Lincoln Street" 5 houses
    setup Ann owns "Riverside Drive"
"""


def test_R3_each_player_has_16_houses_and_a_purchase_uses_one():
    play("""
        expect Ann houses left 16
        expect Bob houses left 16
        Ann rolls 3 4                 # Dover Street
        Ann buys
        expect "Dover Street" houses 1
        expect Ann houses left 15
        Bob rolls 1 3                 # Airdale Bus Line: auction
        Bob passes
        Ann bids 100
        expect "Airdale Bus Line" owner Ann
        expect "Airdale Bus Line" houses 1
        expect Ann houses left 14
    """)


def test_R3_no_house_left_no_purchase():
    text = ALL_HOUSES_USED + """
        expect Ann houses left 0
        Ann rolls 1 2                 # Beacon Street
        Ann buys
    """
    refused(text, "R3", "houses", "Ann", "Beacon Street", "no house left")


def test_R3_no_house_left_only_passing_at_auction():
    text = ALL_HOUSES_USED + """
        Ann rolls 1 3                 # Airdale Bus Line
        Ann bids 100
    """
    refused(text, "R3", "houses", "Ann", "Airdale Bus Line", "no house left")
    play(text + """
        expect refused R3
        Ann passes
        Bob bids 100
        expect "Airdale Bus Line" owner Bob
        expect Ann cash 20000
    """)


def test_R3_no_house_left_in_the_supply_no_building():
    text = ALL_HOUSES_USED + """
        Ann builds on "Riverside Drive"
    """
    refused(text, "R3", "houses", "Ann", "Riverside Drive", "no house left")


def test_R3_building_several_houses_needs_as_many_in_the_supply():
    text = """
        setup Ann owns "Arlington Avenue" 5 houses
        setup Ann owns "Grove Street" 5 houses
        setup Ann owns "Lincoln Street" 3 houses
        setup Ann owns "Riverside Drive"
        expect Ann houses left 2
        Ann builds 3 on "Riverside Drive"
    """
    refused(text, "R3", "houses", "Ann", "Riverside Drive", "only 2 houses left")
    play(text + """
        expect refused R3
        Ann builds 2 on "Riverside Drive"
        expect "Riverside Drive" houses 3
        expect Ann houses left 0
        expect Ann cash 17000
    """)


def test_R3_houses_come_back_to_the_supply_when_a_space_is_sold():
    play("""
        setup Ann owns "Dover Street" 3 houses
        expect Ann houses left 13
        Ann sells "Dover Street" to Bob for 1000
        expect Ann houses left 16
        expect Bob houses left 13
    """)


def test_R3_the_houses_plugin_is_essential():
    fails("without houses\n", "rule 'houses' is essential and cannot be switched off")
