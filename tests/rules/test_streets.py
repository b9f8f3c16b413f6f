"""The `streets` plugin (R9): the lander may buy an unowned street at its price, else it is auctioned."""

from __future__ import annotations

from .conftest import play, refused


def test_R9_the_lander_buys_an_unowned_street_at_its_price():
    play("""
        Ann rolls 3 4                 # Dover Street, B $700
        Ann buys
        expect Ann cash 19300
        expect bank 260700
        expect "Dover Street" owner Ann
        expect "Dover Street" houses 1
        expect Ann houses left 15
        expect Ann worth 20000        # R28: $19,300 + 1 x $700
    """)


def test_R9_a_declined_street_is_auctioned_at_once_lander_first():
    play("""
        Ann rolls 3 4
        Ann declines
        Ann bids 100                  # the lander bids first
        Bob bids 110
        Ann passes
        expect "Dover Street" owner Bob
        expect Bob cash 19890
        expect Ann cash 20000
        expect "Dover Street" houses 1
    """)


def test_R9_the_lander_may_not_buy_without_the_cash():
    text = """
        setup Ann cash 500
        Ann rolls 3 4
        Ann buys
    """
    refused(text, "R9", "streets", "Ann", "Dover Street", "$500", "$700")
    play(text + """
        expect refused R9
        Ann declines
        Ann passes
        Bob bids 500
        expect "Dover Street" owner Bob
        expect Bob cash 19500
    """)


def test_R9_landing_on_an_owned_street_offers_nothing():
    play("""
        setup Ann owns "Dover Street"
        Ann rolls 3 4                 # her own street: no question, no rent
        expect Ann cash 20000
        Bob rolls 3 4                 # Ann's street: rent (R18)
        expect Bob cash 19930
    """)


def test_R9_without_auction_a_declined_street_stays_unowned():
    play("""
        without auction
        Ann rolls 3 4
        Ann declines
        expect "Dover Street" owner nobody
        expect Ann cash 20000
        Bob rolls 3 4
        Bob buys
        expect "Dover Street" owner Bob
    """)
