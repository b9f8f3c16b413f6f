"""The `deck` plugin (R21): the 24 Give or Take cards, shuffled, drawn, discarded, reshuffled; money cards."""

from __future__ import annotations

from collections import Counter

import pytest

from .conftest import custom_variant, fails, play, runner


def test_R21_the_24_cards_are_shuffled_at_setup():
    orders = []
    for seed in (1, 2, 1):
        r = runner(f"seed {seed}\n")
        r.run()
        deck = r.game.deck
        assert len(deck) == 24
        assert Counter(c.text for c in deck) == Counter(c.text for c in r.game.variant.cards)
        orders.append([c.text for c in deck])
    assert orders[0] == orders[2] != orders[1]


def test_R21_the_top_card_is_drawn_and_discarded():
    r = runner("seed 5\nsetup Ann at 9\n")
    r.run()
    top = r.game.deck[-1].text
    game = play("""
        seed 5
        setup Ann at 9
        Ann rolls 1 2
    """).game
    assert [e.data["card"] for e in game.log if e.kind == "draw"] == [top]
    assert top != "Special Exemption"
    assert [c.text for c in game.discard] == [top]
    assert len(game.deck) == 23


@pytest.fixture
def three_cards(tmp_path):
    return custom_variant(tmp_path, "three-cards", deck=[
        {"text": "Take $100", "kind": "take", "amount": 100},
        {"text": "Special Exemption", "kind": "exemption"},
        {"text": "Pay $100", "kind": "pay", "amount": 100}])


def test_R21_the_discards_are_reshuffled_without_the_exemption_card(three_cards):
    result = play(three_cards + """
        setup Ann at 9
        setup Bob at 9
        Ann rolls 1 2                 # Stock Exchange
        Ann draws "Take $100"
        Bob rolls 1 2
        Bob draws "Special Exemption" # kept
        Ann rolls 5 6                 # 23: Give or Take
        Ann draws "Pay $100"          # the draw pile is empty now
        Bob rolls 5 6                 # the two discards become the draw pile
        Bob draws "Pay $100"
        expect exemption Bob
        expect Ann cash 20000
        expect Bob cash 19900
    """)
    game = result.game
    assert [e.data for e in game.log if e.kind == "reshuffle"] == [{"cards": 2}]
    assert [c.text for c in game.deck] == ["Take $100"]
    assert [c.text for c in game.discard] == ["Pay $100"]


def test_R21_a_card_on_the_discard_pile_cannot_be_drawn(three_cards):
    fails(three_cards + """
        setup Ann at 9
        setup Bob at 9
        Ann rolls 1 2
        Ann draws "Take $100"
        Bob rolls 1 2
        Bob draws "Take $100"
    """, '"Take $100" is not in the draw pile: it is on the discard pile')


def test_R21_birthday_collects_from_every_other_player():
    play("""
        players Ann Bob Cat
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "Birthday"
        expect Ann cash 20400
        expect Bob cash 19800
        expect Cat cash 19800
        expect bank 240000
    """)


def test_R21_doctors_bill_and_traffic_ticket():
    play("""
        setup Ann at 9
        setup Bob at 9
        Ann rolls 1 2
        Ann draws "Doctor's Bill"
        expect hospital 300
        expect Ann cash 19700
        Bob rolls 1 2
        Bob draws "Traffic Ticket"
        expect Bob cash 19850
        expect bank 260150
    """)


def test_R21_property_assessment_counts_every_house_on_the_board():
    play("""
        setup Ann owns "Dover Street" 5 houses
        setup Ann owns "Grove Street" 2 houses
        setup Ann owns "Waldorf Hotel"
        setup Ann owns "Airdale Bus Line"
        setup Ann at 9
        Ann rolls 1 2
        Ann draws "Property Assessment"   # 9 houses x $100
        expect Ann cash 19100
    """)


def test_R21_off_there_are_no_cards():
    result = play("""
        without deck
        setup Ann at 9
        setup Bob at 44
        Ann rolls 1 2                 # Stock Exchange: nothing to draw
        expect Ann cash 20000
        Bob rolls 1 1                 # doubles without a deck: an ordinary move
        expect Bob at 46
        expect Bob cash 20200
        expect exemption nobody
    """)
    assert result.game.deck == [] and result.game.discard == []
    assert "draw" not in {e.kind for e in result.game.log}
