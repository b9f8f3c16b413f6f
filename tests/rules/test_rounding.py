"""The `rounding` plugin (R30): computed amounts to the nearest $10, halves up; chosen ones multiples of $10."""

from __future__ import annotations

import pytest

from .conftest import custom_variant, play, refused


@pytest.fixture
def odd_amounts(tmp_path):
    """`standard` with a telephone rent of 25 x the dice (a per-house amount must be a multiple
    of the smallest bill, so only a dice multiple can fall between two bills)."""
    return custom_variant(tmp_path, "odd-amounts", modify={
        "spaces": {"L.M. Telephone Company": {"rent_per_dice": 25}}})


def test_R30_telephone_rent_is_50_times_the_dice():
    play("""
        setup Bob owns "L.M. Telephone Company"
        setup Ann at 21
        Ann rolls 3 4                 # 28: 50 x 7 = $350
        expect Ann cash 19650
        expect Bob cash 20350
    """)


def test_R30_a_dice_multiple_rent_is_rounded_halves_up(odd_amounts):
    play(odd_amounts + """
        setup Bob owns "L.M. Telephone Company"
        setup Ann at 21
        Ann rolls 3 4                 # 25 x 7 = $175 -> $180
        expect Ann cash 19820
        expect Bob cash 20180
        expect Bob worth 20720        # R28: 3 x the rent at a throw of 7 = 3 x $180
    """)


def test_R30_without_rounding_the_dice_multiple_is_paid_as_computed(odd_amounts):
    play(odd_amounts + """
        without rounding
        setup Bob owns "L.M. Telephone Company"
        setup Ann at 21
        Ann rolls 3 4                 # $175
        expect Ann cash 19825
        expect Bob cash 20175
        expect Bob worth 20700        # 20175 + 3 x 175
    """)


@pytest.mark.parametrize("street, cost", [("Irving Place", 420),   # M $380 -> $418 -> $420
                                          ("Dover Street", 390)])  # M $350 -> $385 -> $390
def test_R30_redeem_interest_is_rounded_halves_up(street, cost):
    play(f"""
        setup Ann owns "{street}" mortgaged
        Ann redeems "{street}"
        expect Ann cash {20000 - cost}
        expect bank {260000 + cost}
        expect "{street}" unmortgaged
    """)


@pytest.mark.parametrize("street, cost", [("Irving Place", 418), ("Dover Street", 385)])
def test_R30_without_rounding_redeem_costs_the_exact_interest(street, cost):
    play(f"""
        without rounding
        setup Ann owns "{street}" mortgaged
        Ann redeems "{street}"
        expect Ann cash {20000 - cost}
    """)


def test_R30_property_assessment_per_house():
    play("""
        setup Ann owns "Dover Street" 3 houses
        setup Ann owns "Waldorf Hotel"
        setup Ann at 9
        Ann rolls 1 2                 # Stock Exchange
        Ann draws "Property Assessment"   # 4 houses x $100
        expect Ann cash 19600
    """)


def test_R30_a_bid_must_be_a_multiple_of_10():
    text = """
        Ann rolls 1 3                 # Airdale Bus Line
        Ann bids 105
    """
    refused(text, "R30", "rounding", "Ann", "Airdale Bus Line", "$105", "multiple")


def test_R30_a_sale_price_must_be_a_multiple_of_10():
    refused("""
        setup Ann owns "Dover Street"
        Ann sells "Dover Street" to Bob for 1005
    """, "R30", "rounding", "Ann", "Dover Street", "$1,005")
    refused("""
        setup exemption Ann
        Ann sells exemption to Bob for 55
    """, "R30", "rounding", "Ann", "Bob", "$55")


def test_R30_without_rounding_any_whole_amount_may_be_bid():
    play("""
        without rounding
        Ann rolls 1 3
        Ann bids 105
        Bob passes
        expect "Airdale Bus Line" owner Ann
        expect Ann cash 19895
    """)
