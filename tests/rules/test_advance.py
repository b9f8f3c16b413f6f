"""The `advance` plugin (R21a): "advance to" cards move the MAN forward to a space and resolve the landing."""

from __future__ import annotations

from .conftest import custom_variant, fails, play, standard_deck


def test_R21a_an_unowned_commercial_building_is_auctioned_at_once_without_rent():
    play("""
        setup Ann at 9
        Ann rolls 1 2                 # Stock Exchange
        Ann draws "Advance to Elm Country Club"
        Ann bids 100
        Bob bids 110
        Ann passes
        expect Ann at 18
        expect "Elm Country Club" owner Bob
        expect Ann cash 20000
        expect Bob cash 19890
    """)


def test_R21a_a_space_owned_by_another_player_charges_rent():
    play("""
        setup Bob owns "Elm Country Club"
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "Advance to Elm Country Club"
        expect Ann cash 19400
        expect Bob cash 20600
    """)


def test_R21a_a_man_already_there_stays_and_the_landing_is_resolved_again():
    play("""
        setup Bob owns "Elm Country Club"
        setup Ann at 18
        Ann rolls 2 2                 # doubles: the card before moving (R12)
        Ann draws "Advance to Elm Country Club"
        expect Ann at 18              # no move, no backward move
        expect Ann cash 19400         # the rent again
    """)


def test_R21a_R7_R8_apply_on_the_way():
    play("""
        setup Ann at 18
        Ann rolls 2 3                 # 23: Give or Take
        Ann draws "Advance to the Bonus Corner"
        expect Ann at 0
        expect Ann cash 22400         # - $100 traffic fine (R8) + $2,500 (R7)
    """)
    play("""
        setup exemption Ann
        setup Ann at 18
        Ann rolls 2 3
        Ann draws "Advance to Black Kat Night Club"   # 23 -> 30: nothing on the way
        Ann passes
        Bob passes
        expect Ann at 30
        expect Ann cash 20000
    """)


def test_R21a_an_unowned_street_is_offered_for_sale(tmp_path):
    header = custom_variant(tmp_path, "street-card", deck=standard_deck() + [
        {"text": "Advance to Dover Street", "kind": "advance", "to": "Dover Street"}])
    play(header + """
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "Advance to Dover Street"   # 12 -> 7 the long way: light, then corner
        Ann buys
        expect "Dover Street" owner Ann
        expect Ann cash 21700                 # - 100 + 2,500 - 700
    """)


def test_R21a_off_the_advance_cards_are_not_in_the_deck():
    result = play("""
        without advance
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "Take $100"
        expect Ann cash 20100
    """)
    game = result.game
    assert len(game.deck) == 18     # 24 - 5 advance cards - the card drawn
    assert all(c.kind != "advance" for c in game.deck)
    fails("""
        without advance
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "Advance to Elm Country Club"
    """, '"Advance to Elm Country Club" is not in the draw pile: it is out of the game')
