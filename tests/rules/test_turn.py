"""The `turn` plugin: turn order (R1), the turn (R4), the windows (R5), movement (R6)."""

from __future__ import annotations

from .conftest import fails, play, refused


def test_R1_players_play_in_the_order_they_are_listed():
    play("""
        players Cat Ann Bob
        setup Ann at 36
        setup Bob at 36
        setup Cat at 36
        expect turn Cat
        Cat rolls 1 4            # 41, the Red Traffic Light: nothing happens
        expect turn Cat          # Cat's window after the landing
        Ann rolls 2 3            # opens Ann's turn
        expect turn Ann
        Bob rolls 2 4            # 42
        expect turn Bob
        Cat rolls 1 4            # from 41 to 46: Building & Loan Dividend
        expect turn Cat
        expect Cat at 46
        expect Cat cash 20200
    """, players="")


def test_R1_a_player_out_of_turn_is_an_error():
    fails("""
        Bob rolls 1 2
    """, "the game waits for Ann to roll", "Bob rolls 1 2")


def test_R4_doubles_give_no_extra_throw():
    play("""
        Ann rolls 3 3
        Ann draws "Take $100"    # R12: follow the card, then 6 back to 42
        expect Ann at 42
        expect Ann cash 20100
        expect turn Ann
        Bob rolls 1 4            # the next throw is Bob's
        expect turn Bob
        expect Bob at 5
    """)
    fails("""
        Ann rolls 3 3
        Ann draws "Take $100"
        Ann rolls 1 2
    """, "the game waits for Ann to build, mortgage, redeem or sell, or Bob to begin the next turn")


def test_R4_a_turn_is_window_throw_move_landing_window():
    play("""
        without four_sides
        setup Ann owns "Dover Street"
        setup Ann at 36
        Ann builds on "Dover Street"      # the window before the throw
        expect "Dover Street" houses 2
        expect Ann cash 19300
        Ann rolls 2 3                     # 41: nothing to resolve
        expect Ann at 41
        Ann builds on "Dover Street"      # the window after the landing
        Ann mortgages "Dover Street"
        expect "Dover Street" houses 3
        expect Ann cash 18950
        expect turn Ann
        Bob rolls 1 2                     # closes Ann's window
        expect turn Bob
    """)


def test_R5_no_building_in_another_players_window():
    text = """
        without four_sides
        setup Bob owns "Dover Street"
        Bob builds on "Dover Street"
    """
    refused(text, "R5", "turn", "Bob", "Dover Street", "Ann's turn")


def test_R5_no_window_action_in_another_players_window_after():
    base = """
        players Ann Bob Cat
        without four_sides
        setup Cat owns "Dover Street"
        setup Cat owns "Waldorf Hotel" mortgaged
        setup Ann at 36
        Ann rolls 2 3
    """
    for line in ('Cat builds on "Dover Street"', 'Cat mortgages "Dover Street"',
                 'Cat sells "Dover Street" to Bob for 500', 'Cat redeems "Waldorf Hotel"'):
        refused(base + line + "\n", "R5", "turn", "Cat", "Ann's turn")


def test_R5_the_refused_line_may_be_expected_and_the_game_goes_on():
    play("""
        setup Bob owns "Dover Street"
        Bob mortgages "Dover Street"
        expect refused R5
        Ann rolls 1 3                   # Airdale Bus Line: auction
        Ann passes
        Bob passes
        Bob mortgages "Dover Street"    # Bob's own window before his throw
        expect "Dover Street" mortgaged
        expect Bob cash 20350
    """)


def test_R5_no_window_action_while_an_auction_waits():
    fails("""
        setup Ann owns "Dover Street"
        Ann rolls 1 3
        Ann mortgages "Dover Street"
    """, "the game waits for Ann to bid on Airdale Bus Line or pass")


def test_R6_the_man_moves_forward_the_total_of_the_dice():
    play("""
        Ann rolls 1 5                     # 6: Real Estate Tax
        expect Ann at 6
        expect Ann cash 19000
        Bob rolls 4 6                     # 10: Auto Accident
        expect Bob at "Auto Accident"
        expect Bob cash 19500
        Ann rolls 2 4                     # 12: Stock Exchange
        Ann draws "Take $250"
        expect Ann at 12
        expect Ann cash 19250
    """)


def test_R6_after_space_47_comes_space_0():
    play("""
        setup Ann at 44
        Ann rolls 2 4            # 44 + 6 = 50: space 2, Christmas Club
        expect Ann at 2
        expect Ann cash 22750    # + $2,500 Bonus Corner (R7) + $250
    """)


def test_R5_expectations_before_the_next_turn_see_the_window_after():
    play("""
        setup Ann at 36
        Ann rolls 2 3
        expect turn Ann
        Bob rolls 1 2
        expect turn Bob
    """)


def test_R4_the_turn_plugin_is_essential():
    fails("without turn\n", "rule 'turn' is essential and cannot be switched off")
