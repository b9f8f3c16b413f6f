"""The `end` plugin (R27): the game ends at a bankruptcy (option `end.on`) or after `end.max_turns`."""

from __future__ import annotations

import pytest

from .conftest import play

# Ann and Cat have $100 and nothing else; Bob's Dover Street charges $2,450.
TWO_DEBTORS = """
    players Ann Bob Cat
    setup Ann cash 100
    setup Cat cash 100
    setup Bob owns "Dover Street" 5 houses
    setup Ann at 3
    setup Cat at 3
"""


def test_R27_first_bankruptcy_ends_the_game_and_ranks_the_others():
    result = play("""
        players Ann Bob Cat
        option end.on first_bankruptcy
        setup Ann cash 100
        setup Cat cash 30000
        setup Bob owns "Dover Street" 5 houses
        setup Ann at 3
        Ann rolls 1 3
        Ann goes bankrupt
        expect Ann bankrupt
        expect game over by bankruptcy
        expect winner Cat
    """)
    ranking = [(p.name, worth, rank) for p, worth, rank in result.game.standings()]
    assert ranking == [("Cat", 30000, 1), ("Bob", 23600, 2)]


@pytest.mark.parametrize("header", ["option end.on last_player_standing",
                                    "variant reference-card"])
def test_R27_last_player_standing_plays_on_without_the_bankrupt(header):
    result = play(header + TWO_DEBTORS + """
        Ann rolls 1 3                 # Dover Street: Ann owes more than she has
        Ann goes bankrupt
        expect Ann bankrupt
        expect turn Bob               # the game goes on
        Bob rolls 1 3                 # Airdale Bus Line: Bob and Cat bid, not Ann
        Bob passes
        Cat passes
        Cat rolls 1 3                 # Dover Street: Cat cannot pay either
        Cat goes bankrupt
        expect Cat bankrupt
        expect Bob cash 20200
        expect game over by bankruptcy
        expect winner Bob
    """)
    assert "Bob is the last player standing" in result.game.outcome.detail


def test_R27_last_player_standing_with_two_players_ends_at_the_bankruptcy():
    result = play("""
        option end.on last_player_standing
        setup Ann cash 100
        setup Bob owns "Dover Street" 5 houses
        setup Ann at 3
        Ann rolls 1 3
        Ann goes bankrupt
        expect game over by bankruptcy
        expect winner Bob
    """)
    assert "last player standing" in result.game.outcome.detail


def test_R27_max_turns_ends_the_game_after_that_many_player_turns():
    result = play("""
        option end.max_turns 3
        Ann rolls 1 5                 # Real Estate Tax
        Bob rolls 1 3                 # Airdale Bus Line
        Bob passes
        Ann passes
        Ann rolls 2 3                 # 11: Fairmount Road
        Ann declines
        Ann passes
        Bob passes
        autoplay                      # Ann's window closes: the third turn is over
        expect game over by turns
        expect winner Bob
    """)
    assert result.game.turns_played == 3


def test_R27_without_max_turns_turns_do_not_end_the_game():
    result = play("""
        option end.max_turns null
        autoplay 30 turns
    """)
    assert result.game.outcome is None
    assert result.game.turns_played == 30
