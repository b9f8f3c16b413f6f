"""The `debts` plugin: debts (R23), raising money (R25) and bankruptcy (R26)."""

from __future__ import annotations

from .conftest import fails, play, refused


def test_R23_a_debt_within_the_cash_is_paid_in_full():
    play("""
        setup Bob owns "Beacon Street" 3 houses
        Ann rolls 1 2                 # Beacon Street, 3 houses: $880
        expect Ann cash 19120
        expect Bob cash 20880
    """)


def test_R23_a_debt_of_exactly_the_cash_is_paid():
    play("""
        setup Ann cash 880
        setup Bob owns "Beacon Street" 3 houses
        Ann rolls 1 2
        expect Ann cash 0
        expect Bob cash 20880
    """)


def test_R25_a_debt_over_the_cash_is_raised_by_mortgaging():
    play("""
        setup Ann cash 100
        setup Ann owns "Dover Street"
        setup Ann owns "Waldorf Hotel"
        setup Bob owns "Beacon Street" 3 houses
        Ann rolls 1 2                 # owes $880, has $100
        Ann mortgages "Dover Street"  # + $350: $450, not yet enough
        Ann mortgages "Waldorf Hotel" # + $1,500: $1,950, pays $880
        expect Ann cash 1070
        expect Bob cash 20880
        expect "Dover Street" mortgaged
        expect "Waldorf Hotel" mortgaged
        expect bank 278050            # 260000 + 19900 (setup) - 350 - 1500
    """)


def test_R25_money_is_raised_by_selling_to_another_player():
    play("""
        players Ann Bob Cat
        setup Ann cash 100
        setup Ann owns "Dover Street"
        setup Bob owns "Beacon Street" 3 houses
        Ann rolls 1 2                 # owes Bob $880
        Ann sells "Dover Street" to Cat for 1000
        expect Ann cash 220
        expect "Dover Street" owner Cat
        expect Cat cash 19000
        expect Bob cash 20880
    """)


def test_R25_money_is_raised_at_once_out_of_turn():
    play("""
        setup Ann cash 100
        setup Ann owns "Dover Street"
        setup Bob at 9
        Ann rolls 1 4                 # 5: Chestnut Road
        Ann declines
        Ann passes
        Bob passes
        Bob rolls 1 2                 # Stock Exchange
        Bob draws "Birthday"          # Ann owes Bob $200 in Bob's turn
        Ann mortgages "Dover Street"  # R25: out of turn
        expect Ann cash 250
        expect Bob cash 20200
        expect turn Bob
    """)


def test_R25_the_debtor_must_raise_money_before_anything_else():
    fails("""
        setup Ann cash 100
        setup Ann owns "Dover Street"
        setup Bob owns "Beacon Street" 3 houses
        Ann rolls 1 2
        Bob rolls 1 2
    """, "the game waits for Ann to raise $780 by mortgaging or selling (owes $880 to Bob)")


def test_R26_bankruptcy_settles_the_estate():
    result = play("""
        setup Ann cash 100
        setup Ann owns "Dover Street" 2 houses mortgaged
        setup Ann owns "Airdale Bus Line"
        setup exemption Ann
        setup Bob owns "Beacon Street" 5 houses
        Ann rolls 1 2                 # $2,800 rent; nothing left to mortgage
        Ann goes bankrupt
        expect Ann bankrupt
        expect Ann cash 0
        expect Bob cash 20100         # the creditor receives all Ann's cash
        expect "Dover Street" owner nobody
        expect "Dover Street" houses 0
        expect "Dover Street" unmortgaged
        expect "Airdale Bus Line" owner nobody
        expect "Airdale Bus Line" houses 0
        expect exemption nobody       # the card leaves the game
        expect game over by bankruptcy
        expect winner Bob
    """)
    game = result.game
    assert game.total_money() == 300000
    everywhere = game.deck + game.discard + [c for p in game.players for c in p.held]
    assert [c for c in everywhere if c.kind == "exemption"] == []
    assert game.players[0].spaces == []


def test_R25_a_debtor_with_nothing_to_mortgage_or_sell_is_asked_and_may_go_bankrupt():
    play("""
        setup Ann cash 300
        Ann rolls 1 5                 # Real Estate Tax: $1,000 to the Bank
        Ann goes bankrupt             # asked all the same (R25)
        expect Ann bankrupt
        expect bank 280000            # 260000 + 19700 (setup) + Ann's last $300
        expect game over by bankruptcy
        expect winner Bob
    """)


def test_R26_no_bankruptcy_while_something_can_be_mortgaged():
    text = """
        setup Ann cash 100
        setup Ann owns "Dover Street" mortgaged
        setup Ann owns "Waldorf Hotel"
        setup Bob owns "Beacon Street" 5 houses
        Ann rolls 1 2
        Ann goes bankrupt
    """
    refused(text, "R26", "mortgage", "Ann", "Waldorf Hotel")


def test_R26_bankruptcy_is_no_answer_outside_a_debt():
    fails("""
        Ann goes bankrupt
    """, "the game waits for Ann to roll")


def test_R26_the_debts_plugin_is_essential():
    fails("without debts\n", "rule 'debts' is essential and cannot be switched off")
    fails("players Ann Bob\n", "essential", disable=["R25"], players="")


def _bankrupt_bob():
    from easymoney.bots import BotDecider
    from easymoney.strategies import make_strategy
    from easymoney.engine.game import Game
    from easymoney.loading.loader import load_variant

    game = Game(load_variant("reference-card"), ["Ann", "Bob", "Cat"],
                BotDecider({n: make_strategy("cautious") for n in ("Ann", "Bob", "Cat")}))
    game.setup()
    bob = game.by_name["Bob"]
    game.transfer(bob, game.bank, bob.cash, "bankruptcy of Bob (R26)")
    bob.bankrupt = True
    return game, bob


def test_R26_nothing_is_paid_to_a_bankrupt_player():
    game, bob = _bankrupt_bob()
    before = game.snapshot()
    assert game.collect(game.bank, bob, 2500, "the Bonus Corner (R7)") == 0
    assert game.collect(game.by_name["Ann"], bob, 500, "rent (R18)") == 0
    assert game.collect(bob, game.bank, 100, "a traffic fine (R8)") == 0
    assert game.snapshot() == before


def test_R26_a_bankrupt_player_is_asked_nothing():
    import pytest

    from easymoney import Request
    from easymoney.plugins.streets import BUY, Buy, Decline

    game, bob = _bankrupt_bob()
    with pytest.raises(RuntimeError, match="Bob is bankrupt, and a bankrupt player is asked "
                                           r"nothing \(R26\)"):
        game.ask(Request(BUY, bob, (Buy, Decline), space=game.space("Dover Street")))


def test_R25_a_debtor_who_owns_nothing_may_sell_the_exemption_card_to_raise_money():
    play("""
        players Ann Bob Cat
        setup Ann cash 100
        setup exemption Ann
        setup Bob owns "Beacon Street" 3 houses
        Ann rolls 1 2                 # owes Bob $880, has $100 and owns no space
        Ann sells exemption to Cat for 800
        expect Ann cash 20            # $900 raised, $880 paid
        expect Bob cash 20880
        expect exemption Cat
        expect Cat cash 19200
        Bob rolls 1 3                 # the game goes on: Airdale Bus Line
        Bob passes
        Cat passes
        Ann passes
    """)


def test_R25_a_debtor_who_raised_too_little_is_asked_again():
    play("""
        players Ann Bob Cat
        setup Ann cash 100
        setup exemption Ann
        setup Bob owns "Beacon Street" 3 houses
        Ann rolls 1 2                 # owes Bob $880
        Ann sells exemption to Cat for 100
        Ann goes bankrupt             # $200 is not enough, and nothing is left to sell
        expect Ann bankrupt
        expect Bob cash 20200
        expect exemption Cat
    """)


def test_R25_a_bot_with_nothing_to_mortgage_goes_bankrupt_at_once():
    play("""
        players Ann:greedy Bob
        setup Ann cash 300
        Ann rolls 1 5                 # Real Estate Tax: her strategy gives up (R26)
        expect Ann bankrupt
        expect game over by bankruptcy
    """)
