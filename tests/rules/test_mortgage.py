"""The `mortgage` plugin: mortgages (R19), redeeming (R20), and no bankruptcy while one is possible (R26)."""

from __future__ import annotations

import pytest

from .conftest import fails, play, refused


def test_R19_a_street_is_mortgaged_for_M_whatever_its_houses():
    play("""
        setup Ann owns "Dover Street" 3 houses
        Ann mortgages "Dover Street"
        expect "Dover Street" mortgaged
        expect "Dover Street" houses 3       # stored on end
        expect "Dover Street" owner Ann
        expect Ann houses left 13
        expect Ann cash 20350
        expect bank 259650
        expect Ann worth 20350               # R28: a mortgaged space is worth nothing
    """)


def test_R19_a_commercial_building_is_mortgaged_for_M():
    play("""
        setup Ann owns "Elm Country Club"
        Ann mortgages "Elm Country Club"
        expect Ann cash 21800
    """)


def test_R19_a_utility_cannot_be_mortgaged():
    refused("""
        setup Ann owns "Airdale Bus Line"
        Ann mortgages "Airdale Bus Line"
    """, "R19", "mortgage", "Ann", "Airdale Bus Line", "utility")


def test_R19_only_ones_own_unmortgaged_space():
    refused("""
        setup Bob owns "Dover Street"
        Ann mortgages "Dover Street"
    """, "R19", "mortgage", "Ann", "Dover Street", "Ann does not own Dover Street")
    refused("""
        setup Ann owns "Dover Street" mortgaged
        Ann mortgages "Dover Street"
    """, "R19", "mortgage", "Ann", "Dover Street", "already mortgaged")


def test_R20_redeeming_pays_M_plus_10_percent():
    play("""
        setup Ann owns "Waldorf Hotel" mortgaged
        Ann redeems "Waldorf Hotel"          # $1,500 + $150
        expect "Waldorf Hotel" unmortgaged
        expect Ann cash 18350
        expect bank 261650
    """)


@pytest.mark.parametrize("percent, cost", [(20, 420), (0, 350), (15, 400)])  # 402.5 -> 400
def test_R20_option_interest_percent(percent, cost):
    play(f"""
        option mortgage.interest_percent {percent}
        setup Ann owns "Dover Street" mortgaged
        Ann redeems "Dover Street"
        expect Ann cash {20000 - cost}
    """)


def test_R20_refusals():
    refused("""
        setup Ann owns "Dover Street"
        Ann redeems "Dover Street"
    """, "R20", "mortgage", "Ann", "Dover Street", "not mortgaged")
    refused("""
        setup Ann cash 380
        setup Ann owns "Dover Street" mortgaged
        Ann redeems "Dover Street"
    """, "R20", "mortgage", "Ann", "Dover Street", "$380", "$390")


def test_R19_mortgage_and_redeem_in_the_same_turn():
    play("""
        setup Ann owns "Dover Street"
        Ann mortgages "Dover Street"
        Ann rolls 1 5                        # Real Estate Tax
        Ann redeems "Dover Street"
        expect Ann cash 18960                # + 350 - 1000 - 390
        expect "Dover Street" unmortgaged
    """)


def test_R26_no_bankruptcy_while_a_space_can_be_mortgaged():
    refused("""
        setup Ann cash 100
        setup Ann owns "Dover Street"
        Ann rolls 1 5                        # owes $1,000
        Ann goes bankrupt
    """, "R26", "mortgage", "Ann", "Dover Street", "can still mortgage")


def test_R19_off_no_mortgage_and_debts_are_raised_by_selling():
    play("""
        without mortgage
        setup Ann owns "Dover Street"
        Ann mortgages "Dover Street"
        expect refused R19
        Ann rolls 1 5
        expect "Dover Street" unmortgaged
        expect Ann cash 19000
    """)
    play("""
        without mortgage
        setup Ann cash 100
        setup Ann owns "Dover Street"
        Ann rolls 1 5                        # owes $1,000: only a sale or bankruptcy
        Ann goes bankrupt                    # allowed: nothing can be mortgaged
        expect Ann bankrupt
        expect "Dover Street" owner nobody
        expect game over by bankruptcy
    """)
    fails("""
        without mortgage
        setup Ann cash 100
        setup Ann owns "Dover Street"
        Ann rolls 1 5
        Ann mortgages "Dover Street"
    """, "R19 mortgage: the rule 'mortgage' is switched off")
