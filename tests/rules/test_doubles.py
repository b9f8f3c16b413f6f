"""The `doubles` plugin (R12): doubles draw a Give or Take card; option `doubles.after_card`."""

from __future__ import annotations

from .conftest import play


def test_R12_backward_move_after_a_take_card():
    play("""
        setup Ann at 10
        Ann rolls 2 2                 # the card first, then 4 back: 6, Real Estate Tax
        Ann draws "Take $500"
        expect Ann at 6
        expect Ann cash 19500         # + $500 - $1,000
    """)


def test_R12_backward_move_after_a_pay_card():
    play("""
        setup Ann at 12
        Ann rolls 1 1                 # the card, then 2 back: 10, Auto Accident
        Ann draws "Pay $200"
        expect Ann at 10
        expect Ann cash 19300         # - $200 - $500 into the Hospital pot
        expect hospital 500
    """)


def test_R12_the_landing_after_the_backward_move_is_resolved():
    play("""
        setup Ann at 12
        setup Bob owns "Fairmount Road"
        Ann rolls 2 2                 # 12 - 4 = 8: Waldorf Hotel, unowned: auction
        Ann draws "Take $100"
        Ann bids 100
        Bob passes
        expect "Waldorf Hotel" owner Ann
        expect Ann cash 20000
        Bob rolls 1 1                 # Bob at 0 - 2 = 46
        Bob draws "Pay $100"
        expect Bob at 46
        expect Bob cash 20100         # - $100 + $200, no Bonus Corner backward
    """)


def test_R12_an_advance_card_moves_forward_and_there_is_no_backward_move():
    play("""
        setup Ann at 10
        Ann rolls 2 2
        Ann draws "Advance to Elm Country Club"   # 10 -> 18, unowned: auction (R21a)
        Ann bids 100
        Bob passes
        expect Ann at 18
        expect "Elm Country Club" owner Ann
        expect Ann cash 19900
    """)


def test_R12_R7_R8_apply_on_the_way_of_an_advance_card():
    play("""
        setup Ann at 40
        Ann rolls 1 1
        Ann draws "Advance to Black Kat Night Club"   # 40 -> 30 across 41-42 and 0
        Ann passes
        Bob passes
        expect Ann at 30
        expect Ann cash 22400         # - $100 fine + $2,500 bonus
    """)


def test_R12_an_advance_card_to_an_owned_space_pays_rent():
    play("""
        setup Bob owns "Black Kat Night Club"
        setup Ann at 20
        Ann rolls 3 3
        Ann draws "Advance to Black Kat Night Club"
        expect Ann at 30
        expect Ann cash 19300
        expect Bob cash 20700
    """)


def test_R12_forward_option_moves_lands_then_draws():
    play("""
        option doubles.after_card forward
        Ann rolls 1 1                 # 2: Christmas Club, then the card
        Ann draws "Take $500"
        expect Ann at 2
        expect Ann cash 20750
    """)


def test_R12_backward_option_with_the_same_throw():
    play("""
        option doubles.after_card backward
        Ann rolls 1 1                 # the card, then 2 back: 46
        Ann draws "Take $500"
        expect Ann at 46
        expect Ann cash 20700
    """)


def test_R12_forward_option_with_an_advance_card_moves_on_after_landing():
    play("""
        option doubles.after_card forward
        Ann rolls 3 3                 # 6: Real Estate Tax, then the card
        Ann draws "Advance to the Bonus Corner"   # 6 -> 0 across the light
        expect Ann at 0
        expect Ann cash 21400         # - $1,000 - $100 + $2,500
    """)


def test_R12_forward_option_the_landing_comes_before_the_card():
    play("""
        option doubles.after_card forward
        setup Ann cash 100
        setup Ann at 4
        Ann rolls 1 1                 # 6: Real Estate Tax first: bankrupt, no card
        Ann goes bankrupt
        expect Ann bankrupt
        expect game over by bankruptcy
    """)


def test_R12_off_doubles_are_an_ordinary_throw():
    result = play("""
        without doubles
        setup Ann at 44
        Ann rolls 1 1                 # 46, no card
        expect Ann at 46
        expect Ann cash 20200
    """)
    game = result.game
    assert len(game.deck) == 24 and game.discard == []
    assert "draw" not in {e.kind for e in game.log}
