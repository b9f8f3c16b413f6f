"""The `auction` plugin: unowned utilities and commercial buildings (R10) and the auction (R11)."""

from __future__ import annotations

from .conftest import play, refused


def test_R10_an_unowned_utility_is_auctioned_on_landing():
    play("""
        Ann rolls 1 3                 # Airdale Bus Line
        Ann passes
        Bob bids 100
        expect "Airdale Bus Line" owner Bob
        expect "Airdale Bus Line" houses 1
        expect Bob houses left 15
        expect Bob cash 19900
        expect bank 260100
    """)


def test_R10_an_unowned_commercial_building_is_auctioned_on_landing():
    play("""
        Ann rolls 3 5                 # Waldorf Hotel
        Ann bids 100
        Bob bids 200
        Ann bids 210
        Bob passes
        expect "Waldorf Hotel" owner Ann
        expect Ann cash 19790
        expect Bob cash 20000
    """)


def test_R11_bidding_goes_round_in_turn_order_from_the_lander():
    play("""
        players Ann Bob Cat
        setup Bob at 4
        Ann rolls 1 5                 # Real Estate Tax
        Bob rolls 1 3                 # 8: Waldorf Hotel: Bob, Cat, Ann, Bob, ...
        Bob bids 100
        Cat bids 150
        Ann passes                    # Ann is out
        Bob bids 200
        Cat passes                    # only the high bidder is left
        expect "Waldorf Hotel" owner Bob
        expect Bob cash 19800
        expect Cat cash 20000
    """)


def test_R11_with_no_bid_the_space_stays_unowned():
    play("""
        Ann rolls 1 3
        Ann passes
        Bob passes
        expect "Airdale Bus Line" owner nobody
        expect Ann cash 20000
        expect Bob cash 20000
        expect bank 260000
    """)


def test_R11_the_first_bid_is_at_least_100():
    refused("""
        Ann rolls 1 3
        Ann bids 90
    """, "R11", "auction", "Ann", "Airdale Bus Line", "at least $100")


def test_R11_a_later_bid_is_at_least_10_above():
    refused("""
        Ann rolls 1 3
        Ann bids 100
        Bob bids 100
    """, "R11", "auction", "Bob", "Airdale Bus Line", "at least $110")


def test_R11_nobody_may_bid_more_than_their_cash():
    text = """
        setup Bob cash 150
        Ann rolls 1 3
        Ann passes
        Bob bids 160
    """
    refused(text, "R11", "auction", "Bob", "Airdale Bus Line", "$150")
    play(text + """
        expect refused R11
        Bob bids 150                  # all of it is allowed
        expect Bob cash 0
        expect "Airdale Bus Line" owner Bob
    """)


def test_R11_option_first_bid():
    text = """
        option auction.first_bid 500
        Ann rolls 1 3
        Ann bids 490
    """
    refused(text, "R11", "auction", "Ann", "at least $500")
    play(text + """
        expect refused R11
        Ann bids 500
        Bob bids 510
        Ann passes
        expect "Airdale Bus Line" owner Bob
        expect Bob cash 19490
    """)


def test_R11_option_increment():
    text = """
        option auction.increment 50
        Ann rolls 1 3
        Ann bids 100
        Bob bids 140
    """
    refused(text, "R11", "auction", "Bob", "at least $150")
    play(text + """
        expect refused R11
        Bob bids 150
        Ann bids 200
        Bob passes
        expect "Airdale Bus Line" owner Ann
        expect Ann cash 19800
    """)


def test_R11_a_player_who_may_not_own_the_space_can_only_pass():
    play("""
        setup Ann owns "Dover Street"
        Ann rolls 1 2                 # Beacon Street, side 1 like Dover Street
        Ann declines
        Ann bids 100
        expect refused R13
        Ann passes
        Bob bids 100
        expect "Beacon Street" owner Bob
    """)


def test_R10_without_auction_unowned_utilities_and_buildings_stay_unowned():
    result = play("""
        without auction
        Ann rolls 1 3                 # Airdale Bus Line: nothing happens
        expect "Airdale Bus Line" owner nobody
        Bob rolls 3 5                 # Waldorf Hotel
        expect "Waldorf Hotel" owner nobody
        expect Ann cash 20000
        expect Bob cash 20000
    """)
    assert "auction" not in {e.kind for e in result.game.log}


def test_R11_a_winner_bankrupted_by_the_bid_gets_nothing():
    """Bob's bid was within his cash; he then bought the card at any moment (R16) and cannot pay."""
    result = play("""
        variant reference-card        # the game goes on after a bankruptcy
        players Ann Bob Cat
        setup Bob cash 500
        setup exemption Cat
        Ann rolls 1 3                 # Airdale Bus Line
        Ann passes
        Bob bids 500                  # all his cash
        Cat sells exemption to Bob for 100
        Cat passes                    # Bob wins at $500 with $400
        Bob goes bankrupt             # owns nothing to mortgage (R25, R26)
        expect Bob bankrupt
        expect "Airdale Bus Line" owner nobody
        expect "Airdale Bus Line" houses 0
        expect Bob houses left 16
        expect bank 259900            # 240000 + 19500 (setup) + Bob's last $400 (R26)
        Cat rolls 1 3                 # Bob's turn is skipped; Airdale Bus Line is for sale again
        Cat bids 100
        Ann passes
        expect "Airdale Bus Line" owner Cat
    """)
    won = [e.data["player"] for e in result.game.log if e.kind == "auction_won"]
    assert won == ["Cat"]  # the second auction only


def test_R11_a_winner_whose_cash_fell_raises_the_difference():
    play("""
        variant reference-card
        players Ann Bob Cat
        setup Bob cash 500
        setup Bob owns "Dover Street"
        setup exemption Cat
        Ann rolls 1 3                 # Airdale Bus Line
        Ann passes
        Bob bids 500
        Cat sells exemption to Bob for 100
        Cat passes                    # Bob owes $500 and has $400 (R25)
        Bob mortgages "Dover Street"  # + $350
        expect "Airdale Bus Line" owner Bob
        expect Bob cash 250
        expect exemption Bob
    """)
