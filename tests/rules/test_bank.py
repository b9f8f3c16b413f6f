"""The `bank` plugin: starting cash (R2) and the finite Bank that can break (R27)."""

from __future__ import annotations

from .conftest import fails, play


def test_R2_each_player_receives_the_starting_cash_from_the_bank():
    play("""
        expect Ann cash 20000
        expect Bob cash 20000
        expect bank 260000
    """)
    play("""
        expect Dan cash 20000
        expect bank 220000          # $300,000 - 4 x $20,000
    """, players="Ann Bob Cat Dan")


def test_R2_money_paid_to_the_bank_stays_in_it():
    result = play("""
        Ann rolls 1 5                 # Real Estate Tax: $1,000 to the Bank
        expect bank 261000
        expect Ann cash 19000
    """)
    assert result.game.total_money() == 300000


def test_R27_the_bank_pays_exactly_what_it_has():
    play("""
        setup Ann cash 277500         # the Bank is left with $2,500
        setup Ann at 44
        expect bank 2500
        Ann rolls 1 3                 # onto the Bonus Corner: $2,500, all the Bank has
        expect bank 0
        expect Ann cash 280000
    """)


def test_R27_a_bank_that_cannot_pay_pays_what_it_has_and_the_game_ends():
    result = play("""
        setup Ann cash 279900         # the Bank is left with $100
        setup Ann at 44
        Ann rolls 2 4                 # passes the Bonus Corner: the Bank owes $2,500
        expect bank 0
        expect Ann cash 280000
        expect game over by bank
        expect winner Ann
    """)
    game = result.game
    assert game.total_money() == 300000
    assert "could not pay $2,500" in game.outcome.detail
    assert [e.kind for e in game.log][-2:] == ["bank_broken", "game_over"]


def test_R27_the_bank_breaks_on_a_card_too():
    play("""
        setup Bob cash 279500         # the Bank is left with $500
        setup Ann at 9
        Ann rolls 1 2                 # Stock Exchange
        Ann draws "Take $750"
        expect Ann cash 20500
        expect game over by bank
        expect winner Bob
    """)


def test_R2_the_bank_plugin_is_essential():
    fails("without bank\n", "rule 'bank' is essential and cannot be switched off")
    fails("players Ann Bob\n", "essential", disable=["R2"], players="")
