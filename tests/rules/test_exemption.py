"""The `exemption` plugin (R16): the Special Exemption card waives taxes and traffic fines; sold any moment."""

from __future__ import annotations

import pytest

from .conftest import fails, play, refused


def test_R16_the_drawer_keeps_the_card():
    result = play("""
        setup Ann at 9
        expect exemption nobody
        Ann rolls 1 2
        Ann draws "Special Exemption"
        expect exemption Ann
        expect Ann cash 20000
        expect Ann worth 20000        # R28: the card is worth nothing
    """)
    game = result.game
    assert len(game.deck) == 23 and game.discard == []
    assert [c.text for c in game.players[0].held] == ["Special Exemption"]


@pytest.mark.parametrize("card", ["Property Assessment", "Traffic Ticket"])
def test_R16_tax_and_traffic_fine_cards_are_waived(card):
    play(f"""
        setup exemption Ann
        setup Ann owns "Dover Street" 3 houses
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "{card}"
        expect Ann cash 20000
    """)
    play(f"""
        setup Ann owns "Dover Street" 3 houses
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "{card}"
        expect Ann cash {19700 if card == "Property Assessment" else 19850}
    """)


def test_R16_other_payments_are_not_waived():
    play("""
        setup exemption Ann
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "Pay $500"
        expect Ann cash 19500
        Bob rolls 1 3
        Bob passes
        Ann passes
        Ann rolls 2 2                 # doubles at 12: the card, then 4 back: Waldorf Hotel
        Ann draws "Doctor's Bill"
        Ann passes
        Bob passes
        expect Ann cash 19200
        expect hospital 300
    """)


def test_R16_the_card_may_be_sold_at_any_moment():
    play("""
        setup exemption Ann
        Ann rolls 1 3                 # Airdale Bus Line: an auction waits for Ann
        Ann passes
        Ann sells exemption to Bob for 200   # while the game waits for Bob's bid
        Bob passes
        expect exemption Bob
        expect Ann cash 20200
        expect Bob cash 19800
        Bob sells exemption to Ann for 0     # in Bob's window, for nothing
        expect exemption Ann
        expect Ann cash 20200
    """)


def test_R16_a_sale_in_another_players_window_belongs_to_no_turn():
    play("""
        players Ann Bob Cat
        setup exemption Cat
        setup Ann at 36
        Ann rolls 2 3
        Cat sells exemption to Bob for 100   # Ann's window after: no R5 here
        expect exemption Bob
        expect Cat cash 20100
        Bob rolls 1 2
    """)


def test_R16_only_the_holder_may_sell_it():
    refused("""
        setup exemption Ann
        Bob sells exemption to Ann for 100
    """, "R16", "exemption", "Bob", "Ann", "does not hold")


def test_R16_the_buyer_must_have_the_price():
    refused("""
        setup exemption Ann
        setup Bob cash 50
        Ann sells exemption to Bob for 100
    """, "R16", "exemption", "Ann", "Bob", "$50")


def test_R16_the_card_leaves_the_game_with_a_bankrupt_holder():
    result = play("""
        players Ann Bob Cat
        option end.on last_player_standing
        setup exemption Ann
        setup Ann cash 100
        setup Bob owns "Dover Street" 5 houses
        setup Ann at 3
        Ann rolls 1 3
        Ann goes bankrupt             # keeping the card (R25: she might have sold it)
        expect Ann bankrupt
        expect exemption nobody
    """)
    game = result.game
    assert all(c.kind != "exemption" for c in game.deck + game.discard)


def test_R16_off_the_card_is_not_in_the_deck():
    result = play("""
        without exemption
        expect exemption nobody
        Ann rolls 1 5                 # Real Estate Tax, paid
        expect Ann cash 19000
    """)
    game = result.game
    assert len(game.deck) == 23
    assert all(c.kind != "exemption" for c in game.deck)
    fails("""
        without exemption
        setup exemption Ann
    """, "the Special Exemption card is not in play: the rule 'exemption' is off")


def test_R16_off_selling_the_card_is_refused():
    play("""
        without exemption
        Ann sells exemption to Bob for 0
        expect refused R16
        expect Ann cash 20000
    """)
    refused("""
        without exemption
        Ann sells exemption to Bob for 0
    """, "R16", "exemption", "Ann", "Bob", "switched off")
