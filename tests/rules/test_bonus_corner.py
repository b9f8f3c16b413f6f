"""The `bonus_corner` plugin (R7): moving forward onto or across space 0 collects $2,500."""

from __future__ import annotations

from .conftest import play


def test_R7_moving_forward_across_the_bonus_corner_collects_2500():
    play("""
        setup Ann at 44
        Ann rolls 2 4                 # 44 -> 2: across the corner, onto Christmas Club
        expect Ann cash 22750         # + $2,500 + $250
        expect bank 257250
    """)


def test_R7_landing_on_the_bonus_corner_collects_2500():
    play("""
        setup Ann at 44
        Ann rolls 1 3                 # 44 -> 0
        expect Ann at "Bonus Corner"
        expect Ann cash 22500
    """)


def test_R7_moving_backward_across_it_neither_collects_nor_pays():
    play("""
        setup Ann at 2
        Ann rolls 2 2                 # doubles (R12): the card, then 4 back to 46
        Ann draws "Take $100"
        expect Ann at 46
        expect Ann cash 20300         # + $100 + $200 Building & Loan Dividend, no bonus
    """)


def test_R7_starting_on_the_corner_is_not_crossing_it():
    play("""
        setup Ann at 44
        Ann rolls 1 3                 # onto the corner: $2,500
        Bob rolls 1 5
        Ann rolls 2 4                 # from the corner to 6: Real Estate Tax
        expect Ann cash 21500
    """)


def test_R7_an_advance_card_to_the_bonus_corner_collects():
    play("""
        setup Ann at 9
        Ann rolls 1 2                 # Stock Exchange
        Ann draws "Advance to the Bonus Corner"
        expect Ann at 0
        expect Ann cash 22400         # + $2,500, - $100 for crossing the light (R8)
    """)


def test_R7_off_the_bonus_corner_pays_nothing():
    play("""
        without bonus_corner
        setup Ann at 44
        setup Bob at 44
        Ann rolls 2 4                 # across: only the Christmas Club's $250
        expect Ann cash 20250
        Bob rolls 1 3                 # onto the corner: nothing
        expect Bob cash 20000
        Ann rolls 4 6                 # Stock Exchange
        Ann draws "Advance to the Bonus Corner"
        expect Ann at 0
        expect Ann cash 20150         # only the fine for crossing the light (R8)
        expect bank 259850
    """)


def test_R26_bankrupt_mid_move_collects_nothing():
    """The traffic fine bankrupts Cat on the way: the Bonus Corner she then lands on pays nothing."""
    play("""
        variant reference-card        # the game goes on after a bankruptcy
        players Cat Ann Bob
        setup Cat cash 10
        setup Cat at 37
        Cat rolls 6 5                 # 37 -> 0: across the Red Traffic Light ($100)
        Cat goes bankrupt             # the rest of the move is not resolved
        expect Cat bankrupt
        expect Cat cash 0
        expect bank 260000            # 300000 - 3 x $20,000 + Cat's $19,990 (setup) + her last $10
        expect turn Ann
    """)


def test_R26_bankrupt_mid_move_in_seeded_bot_game():
    """Game 25 of `simulate reference-card --games 25 --players 4 --strategies greedy,random
    --seed 1`: a bot bankrupted by the traffic fine collected the Bonus Corner after it."""
    from easymoney.simulate import Arm, Batch, Simulator

    sim = Simulator([Arm("reference-card")],
                    Batch(25, players=4, strategies=("greedy", "random"), seed=1))
    sim.chunk(24, 25)  # the invariants (on in the suite) raise at the payment
