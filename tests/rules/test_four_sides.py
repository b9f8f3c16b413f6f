"""The `four_sides` plugin (R13): one street per side and no second house until a street on every side."""

from __future__ import annotations

from .conftest import play, refused

FOUR_SIDES = """
    setup Ann owns "Dover Street"
    setup Ann owns "Grove Street"
    setup Ann owns "Lincoln Street"
    setup Ann owns "Riverside Drive"
"""


def test_R13_second_street_on_a_side_is_refused():
    text = """
        setup Ann owns "Dover Street"
        Ann rolls 1 2                 # Beacon Street: side 1 again
        Ann buys
    """
    message = refused(text, "R13", "four_sides", "Ann", "Beacon Street")
    assert message.endswith("Ann owns Dover Street on side 1 and has no street on sides 2, 3, 4")


def test_R13_the_script_example():
    play("""
        seed 7
        Ann rolls 3 4            # 7 = Dover Street, side 1
        Ann buys
        expect Ann cash $19,300
        expect "Dover Street" owner Ann
        Bob rolls 2 3            # 5 = Chestnut Road, also side 1
        Bob declines             # to auction: Bob bids first, then Ann
        Bob passes
        Ann bids 600             # refused: Ann already owns a street on side 1
        expect refused R13
        Ann passes               # nobody bid: Chestnut Road stays unowned
        expect "Chestnut Road" owner nobody
    """)


def test_R13_a_street_on_another_side_may_be_bought():
    play("""
        setup Ann owns "Dover Street"
        setup Ann at 10
        Ann rolls 1 2                 # Grove Street, side 2
        Ann buys
        expect "Grove Street" owner Ann
        expect Ann cash 19000
    """)


def test_R13_no_second_house_without_a_street_on_every_side():
    text = """
        setup Ann owns "Dover Street"
        setup Ann owns "Grove Street"
        setup Ann owns "Lincoln Street"
        Ann builds on "Dover Street"
    """
    message = refused(text, "R13", "four_sides", "Ann", "Dover Street")
    assert "Ann has no street on side 4" in message


def test_R13_with_a_street_on_every_side_buy_and_build_anywhere():
    play(FOUR_SIDES + """
        Ann builds 2 on "Dover Street"
        expect "Dover Street" houses 3
        Ann rolls 1 2                 # Beacon Street, side 1 again
        Ann buys
        expect "Beacon Street" owner Ann
        expect Ann cash 17800         # - 2 x $700 - $800
    """)


def test_R13_mortgaged_streets_count_as_owned():
    refused("""
        setup Ann owns "Dover Street" mortgaged
        Ann rolls 1 2
        Ann buys
    """, "R13", "four_sides", "Ann", "Beacon Street", "Dover Street")
    play("""
        setup Ann owns "Dover Street"
        setup Ann owns "Grove Street"
        setup Ann owns "Lincoln Street"
        setup Ann owns "Riverside Drive" mortgaged
        Ann builds on "Dover Street"
        expect "Dover Street" houses 2
    """)


def test_R13_utilities_and_commercial_buildings_are_outside_the_rule():
    play("""
        setup Ann owns "Dover Street"
        setup Ann owns "Waldorf Hotel"
        Ann rolls 1 3                 # Airdale Bus Line, side 1
        Ann bids 100
        Bob passes
        expect "Airdale Bus Line" owner Ann
    """)
    refused("""
        setup Ann owns "Dover Street"
        setup Ann owns "L.M. Navigation Co."
        setup Ann owns "L.M. Telephone Company"
        setup Ann owns "Associated Airways"
        Ann builds on "Dover Street"
    """, "R13", "four_sides", "Ann", "Dover Street", "sides 2, 3, 4")


def test_R13_applies_to_the_buyer_of_a_sale():
    refused("""
        setup Ann owns "Beacon Street"
        setup Bob owns "Dover Street"
        Ann sells "Beacon Street" to Bob for 800
    """, "R13", "four_sides", "Bob", "Beacon Street", "Bob owns Dover Street on side 1")


def test_R13_is_judged_at_the_moment_of_the_act():
    play("""
        setup Ann owns "Dover Street"
        Ann sells "Dover Street" to Bob for 700   # Ann has no street on side 1 now
        Ann rolls 1 2
        Ann buys
        expect "Beacon Street" owner Ann
        expect Ann cash 19900
    """)


def test_R13_off_streets_are_bought_anywhere_and_built_on_at_once():
    play("""
        without four_sides
        setup Ann owns "Dover Street"
        Ann rolls 1 2                 # Beacon Street, side 1 again
        Ann buys
        Ann builds 4 on "Beacon Street"
        expect "Beacon Street" owner Ann
        expect "Beacon Street" houses 5
        expect Ann cash 16000         # - 5 x $800
    """)
    play("""
        variant no-four-sides
        setup Ann owns "Dover Street"
        Ann rolls 1 2
        Ann buys
        Ann builds on "Beacon Street"
        expect "Beacon Street" houses 2
    """)
