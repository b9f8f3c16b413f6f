"""The `sales` plugin (R22): a space changes hands between players, houses and mortgage included."""

from __future__ import annotations

from .conftest import fails, play, refused


def test_R22_a_street_is_sold_with_its_houses_in_the_buyers_colour():
    play("""
        setup Ann owns "Dover Street" 3 houses
        Ann sells "Dover Street" to Bob for 2000
        expect "Dover Street" owner Bob
        expect "Dover Street" houses 3
        expect Ann houses left 16
        expect Bob houses left 13
        expect Ann cash 22000
        expect Bob cash 18000
        expect bank 260000
    """)


def test_R22_the_mortgage_goes_with_the_space():
    play("""
        setup Ann owns "Waldorf Hotel" mortgaged
        Ann rolls 1 5
        Ann sells "Waldorf Hotel" to Bob for 0     # after the throw, for nothing
        expect "Waldorf Hotel" owner Bob
        expect "Waldorf Hotel" mortgaged
        expect Ann cash 19000
        expect Bob cash 20000
        Bob redeems "Waldorf Hotel"                # Bob's window: he lifts it
        expect Bob cash 18350
    """)


def test_R22_a_utility_may_be_sold():
    play("""
        setup Ann owns "Airdale Bus Line"
        Ann sells "Airdale Bus Line" to Bob for 700
        expect "Airdale Bus Line" owner Bob
        expect Ann cash 20700
    """)


def test_R22_the_buyer_must_have_the_price():
    refused("""
        setup Bob cash 500
        setup Ann owns "Dover Street"
        Ann sells "Dover Street" to Bob for 600
    """, "R22", "sales", "Ann", "Dover Street", "Bob has $500")


def test_R22_only_ones_own_space_to_another_player():
    refused("""
        setup Bob owns "Dover Street"
        Ann sells "Dover Street" to Bob for 600
    """, "R22", "sales", "Ann", "Dover Street", "Ann does not own Dover Street")
    refused("""
        setup Ann owns "Dover Street"
        Ann sells "Dover Street" to Ann for 600
    """, "R22", "sales", "Ann", "Dover Street", "another player")


def test_R22_R3_the_buyer_needs_houses_for_the_space():
    refused("""
        setup Ann owns "Dover Street" 3 houses
        setup Bob owns "Grove Street" 5 houses
        setup Bob owns "Lincoln Street" 5 houses
        setup Bob owns "Riverside Drive" 4 houses
        Ann sells "Dover Street" to Bob for 600
    """, "R3", "houses", "Bob", "Dover Street", "only 2 houses left")


def test_R22_R13_applies_to_the_buyer():
    refused("""
        setup Ann owns "Grove Street"
        setup Bob owns "Highland Avenue"
        Ann sells "Grove Street" to Bob for 1000
    """, "R13", "four_sides", "Bob", "Grove Street", "side 2")


def test_R22_R25_a_sale_raises_money_for_a_debt():
    play("""
        setup Ann cash 100
        setup Ann owns "Airdale Bus Line"
        Ann rolls 1 5                              # Real Estate Tax: $1,000
        Ann sells "Airdale Bus Line" to Bob for 1000
        expect Ann cash 100
        expect "Airdale Bus Line" owner Bob
        expect bank 280900
    """)


def test_R22_off_no_sales_and_debts_are_raised_by_mortgaging():
    refused("""
        without sales
        setup Ann owns "Dover Street"
        Ann sells "Dover Street" to Bob for 600
    """, "R22", "sales", "Ann", "Dover Street", "switched off")
    play("""
        without sales
        setup Ann cash 100
        setup Ann owns "Waldorf Hotel"
        Ann rolls 1 5
        Ann mortgages "Waldorf Hotel"
        expect Ann cash 600
    """)
    fails("""
        without sales
        setup Ann cash 100
        setup Ann owns "Airdale Bus Line"
        Ann rolls 1 5
        Ann sells "Airdale Bus Line" to Bob for 1000
    """, "R22 sales: the rule 'sales' is switched off")
