"""A pot is shown by its name, not by its key (issue 18: `Free_parking pot`)."""

from __future__ import annotations

from easymoney import Account, Game
from easymoney.board.state import BoardState
from easymoney.board.text import text_board
from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.interactive.answers import status_text
from easymoney.loading.loader import load_variant


def _game_with_a_pot() -> Game:
    variant = load_variant("standard")
    game = Game(variant, ["Ann", "Bob"], BotDecider({n: make_strategy("cautious") for n in ("Ann", "Bob")}))
    game.setup()
    game.pots["free_parking"] = Account("the Free Parking pot", 0)
    return game


def test_issue_18_a_pot_s_label_is_its_name():
    assert Account("the Free Parking pot").title == "Free Parking pot"
    assert Account("Lottery").title == "Lottery"


def test_issue_18_the_prompt_s_status_names_the_pot():
    text = status_text(_game_with_a_pot())
    assert "Free Parking pot: $0" in text and "Free_parking" not in text
    assert "Hospital pot: $0" in text


def test_issue_18_the_board_names_the_pot():
    text = text_board(BoardState.of(_game_with_a_pot(), 0))
    assert "Free Parking pot: $0" in text and "Free_parking" not in text
