"""The `give_or_take` plugin (R14): the Stock Exchange and the Give or Take space draw a card."""

from __future__ import annotations

from .conftest import play, runner


def test_R14_the_stock_exchange_draws_a_card():
    result = play("""
        setup Ann at 9
        Ann rolls 1 2                 # 12: Stock Exchange
        Ann draws "Take $300"
        expect Ann at 12
        expect Ann cash 20300
    """)
    assert [c.text for c in result.game.discard] == ["Take $300"]


def test_R14_R12_a_card_drawn_on_a_draw_space_brings_no_backward_move():
    play("""
        setup Ann at 16
        Ann rolls 2 2                 # doubles: a card, then 4 back to the Stock Exchange
        Ann draws "Take $100"
        Ann draws "Take $200"         # R14: the Stock Exchange's card, and no more moving
        expect Ann at 12
        expect Ann cash 20300
    """)


def test_R14_the_give_or_take_space_draws_a_card():
    play("""
        setup Ann at 18
        Ann rolls 2 3                 # 23: Give or Take
        Ann draws "Pay $200"
        expect Ann at 23
        expect Ann cash 19800
    """)


def test_R14_without_a_draws_line_the_top_card_is_drawn():
    before = runner("setup Ann at 9\n")
    before.run()
    top = before.game.deck[-1]
    game = play("setup Ann at 9\nAnn rolls 1 2\n").game
    assert [e.data["card"] for e in game.log if e.kind == "draw"] == [top.text]


def test_R14_off_the_draw_spaces_do_nothing():
    result = play("""
        without give_or_take
        setup Ann at 9
        setup Bob at 18
        Ann rolls 1 2
        Bob rolls 2 3
        expect Ann at 12
        expect Bob at 23
        expect Ann cash 20000
        expect Bob cash 20000
    """)
    assert len(result.game.deck) == 24
