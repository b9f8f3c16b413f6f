"""The `rent` plugin (R18): landing on another player's space pays its owner the rent."""

from __future__ import annotations

import pytest

from .conftest import play


@pytest.mark.parametrize("houses, rent", [(1, 70), (2, 280), (3, 770), (4, 1540), (5, 2450)])
def test_R18_street_rent_follows_the_number_of_houses(houses, rent):
    play(f"""
        setup Bob owns "Dover Street" {houses} houses
        Ann rolls 3 4
        expect Ann cash {20000 - rent}
        expect Bob cash {20000 + rent}
        expect bank 260000
    """)


@pytest.mark.parametrize("space, start, dice, rent", [
    ("Airdale Bus Line", 0, "1 3", 250),
    ("Associated Airways", 36, "1 3", 400),
    ("Waldorf Hotel", 0, "3 5", 500),
    ("Milk Route", 17, "2 3", 300),
    ("L.M. Telephone Company", 22, "2 4", 300),   # 50 x 6
    ("L.M. Telephone Company", 23, "2 3", 250),   # 50 x 5
])
def test_R18_utilities_and_commercial_buildings_pay_their_printed_rent(space, start, dice, rent):
    play(f"""
        setup Bob owns "{space}"
        setup Ann at {start}
        Ann rolls {dice}
        expect Ann at "{space}"
        expect Ann cash {20000 - rent}
        expect Bob cash {20000 + rent}
    """)


def test_R18_landing_on_ones_own_space_costs_nothing():
    play("""
        setup Ann owns "Dover Street" 5 houses
        Ann rolls 3 4
        expect Ann cash 20000
        expect bank 260000
    """)


MORTGAGED = [('"Dover Street" 3 houses', "3 4", 70),   # the rent for one house
             ('"Waldorf Hotel"', "3 5", 500)]          # the printed rent


@pytest.mark.parametrize("space, dice, rent", MORTGAGED)
def test_R18_R19_a_mortgaged_space_collects_the_one_house_rent(space, dice, rent):
    play(f"""
        option mortgage.rent one_house
        setup Bob owns {space} mortgaged
        Ann rolls {dice}
        expect Ann cash {20000 - rent}
        expect Bob cash {20000 + rent}
    """)


@pytest.mark.parametrize("header", ["option mortgage.rent none", "variant classic-1936"])
@pytest.mark.parametrize("space, dice, rent", MORTGAGED)
def test_R18_R19_with_mortgage_rent_none_a_mortgaged_space_collects_nothing(header, space,
                                                                            dice, rent):
    result = play(f"""
        {header}
        setup Bob owns {space} mortgaged
        Ann rolls {dice}
        expect Ann cash 20000
        expect Bob cash 20000
    """)
    assert "no_rent" in {e.kind for e in result.game.log}


def test_R18_off_landing_on_an_owned_space_costs_nothing():
    play("""
        without rent
        setup Bob owns "Dover Street" 5 houses
        setup Ann owns "Waldorf Hotel"
        Ann rolls 3 4                 # Bob's Dover Street: no rent
        Bob rolls 3 5                 # Ann's Waldorf Hotel: no rent
        expect Ann cash 20000
        expect Bob cash 20000
        expect bank 260000
    """)
