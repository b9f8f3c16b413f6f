"""The `building` plugin (R17): houses at the street's price, one at a time, up to a Subdivision of five."""

from __future__ import annotations

from .conftest import play, refused


def test_R17_the_owner_builds_houses_at_the_street_price_up_to_five():
    result = play("""
        without four_sides
        setup Ann owns "Dover Street"
        setup Ann at 36
        Ann builds on "Dover Street"          # before the throw
        expect "Dover Street" houses 2
        expect Ann cash 19300
        Ann rolls 2 3
        Ann builds 3 on "Dover Street"        # after the landing: a Subdivision
        expect "Dover Street" houses 5
        expect Ann cash 17200
        expect Ann houses left 11
        expect bank 262800
        expect Ann worth 20700                # R28: $17,200 + 5 x $700
    """)
    assert "subdivision" in {e.kind for e in result.game.log}


def test_R17_a_sixth_house_is_refused():
    refused("""
        without four_sides
        setup Ann owns "Dover Street" 5 houses
        Ann builds on "Dover Street"
    """, "R17", "building", "Ann", "Dover Street", "at most 5")
    refused("""
        without four_sides
        setup Ann owns "Dover Street" 3 houses
        Ann builds 3 on "Dover Street"
    """, "R17", "building", "Ann", "Dover Street", "has 3 houses")


def test_R17_R19_no_house_on_a_mortgaged_street():
    refused("""
        without four_sides
        setup Ann owns "Dover Street" 2 houses mortgaged
        Ann builds on "Dover Street"
    """, "R19", "building", "Ann", "Dover Street", "mortgaged")


def test_R17_only_on_ones_own_streets():
    refused("""
        without four_sides
        setup Bob owns "Dover Street"
        Ann builds on "Dover Street"
    """, "R17", "building", "Ann", "Dover Street", "does not own")
    refused("""
        without four_sides
        setup Ann owns "Waldorf Hotel"
        Ann builds on "Waldorf Hotel"
    """, "R17", "building", "Ann", "Waldorf Hotel", "not a street")


def test_R17_the_houses_must_be_paid_for():
    refused("""
        without four_sides
        setup Ann cash 1000
        setup Ann owns "Dover Street"
        Ann builds 2 on "Dover Street"
    """, "R17", "building", "Ann", "Dover Street", "$1,400")


def test_R17_R5_building_outside_ones_window_is_refused():
    refused("""
        without four_sides
        setup Bob owns "Dover Street"
        Bob builds on "Dover Street"          # Ann's window before her throw
    """, "R5", "turn", "Bob", "Dover Street", "it is Ann's turn")
    refused("""
        players Ann Bob Cat
        without four_sides
        setup Cat owns "Dover Street"
        Ann rolls 1 5
        Cat builds on "Dover Street"          # Ann's window after: Bob plays next
    """, "R5", "turn", "Cat", "Dover Street", "it is Ann's turn")
    play("""
        without four_sides
        setup Bob owns "Dover Street"
        Ann rolls 1 5
        Bob builds on "Dover Street"          # opens Bob's turn: his window before
        expect "Dover Street" houses 2
        expect Bob cash 19300
    """)


def test_R17_off_houses_come_only_with_a_purchase():
    play("""
        without four_sides
        without building
        setup Ann owns "Dover Street"
        Ann builds on "Dover Street"
        expect refused R17
        Ann rolls 1 2
        Ann buys
        expect "Dover Street" houses 1
        expect "Beacon Street" houses 1
        expect Ann cash 19200
    """)
    refused("""
        without building
        setup Ann owns "Dover Street"
        Ann builds on "Dover Street"
    """, "R17", "building", "Ann", "Dover Street", "switched off")
