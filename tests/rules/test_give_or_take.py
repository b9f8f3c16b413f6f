"""The `give_or_take` plugin (R14): the Stock Exchange and the Give or Take space draw a card."""

from __future__ import annotations

from pathlib import Path

from easymoney.plugins.give_or_take import MAX_CHAIN

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


def _chain_variant(folder: Path, copies: int = 200) -> Path:
    """A deck of advance cards to the Stock Exchange, a draw space: each card draws the next."""
    path = folder / "chain.yaml"
    path.write_text("extends: standard\ndeck:\n  - {text: Back to the Stock Exchange, kind: "
                    f"advance, to: Stock Exchange, count: {copies}}}\n", encoding="utf-8")
    return path


def test_R14_a_chain_of_cards_stops_after_max_chain_cards(tmp_path):
    result = play(f"""
        variant "{_chain_variant(tmp_path)}"
        setup Ann at 9
        Ann rolls 1 2                 # 12: the Stock Exchange, and each card comes back to it
        expect Ann at 12
        Bob rolls 5 6
        expect Ann at 12
    """)
    log = result.game.log
    draws = [e for e in log if e.kind == "draw"]
    assert len(draws) == MAX_CHAIN and {e.data["player"] for e in draws} == {"Ann"}
    stops = [e.data for e in log if e.kind == "chain_stops"]
    assert stops == [{"player": "Ann", "space": "Stock Exchange", "cards": MAX_CHAIN}]
    assert result.game.describe(next(e for e in log if e.kind == "chain_stops")) == (
        f"Ann lands on Stock Exchange after {MAX_CHAIN} cards in a row: no more cards this "
        f"move (R14)")
    assert len(result.game.deck) == 200 - MAX_CHAIN


def test_R14_R12_a_doubles_card_starts_no_longer_chain(tmp_path):
    result = play(f"""
        variant "{_chain_variant(tmp_path)}"
        setup Ann at 8
        Ann rolls 2 2                 # doubles: a card to the Stock Exchange, then the chain
        expect Ann at 12
    """)
    assert sum(e.kind == "draw" for e in result.game.log) == MAX_CHAIN + 1
    result = play(f"""
        variant "{_chain_variant(tmp_path)}"
        setup Ann at 9
        Ann rolls 1 2
        Bob rolls 4 6                 # 10: Auto Accident
        Ann rolls 6 6                 # a new move: a doubles card, then a chain of its own
    """)
    assert sum(e.kind == "chain_stops" for e in result.game.log) == 2
