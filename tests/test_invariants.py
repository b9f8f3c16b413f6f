"""The `invariants` plugin: each kind of breach is caught at the next event, and it is off unless switched on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.cli import main
from easymoney.commands._variant_args import INVARIANTS_ENV
from easymoney.engine.game import Game
from easymoney.engine.settings import Settings
from easymoney.loading.loader import load_variant
from easymoney.engine.model import Card
from easymoney.plugins.invariants import InvariantViolation, violations
from easymoney.script import runner as runner_module

EVENT = "the Bank pays Ann $10: a test"


def new_game(variant: str = "standard", settings: Settings | None = None, **kw: Any) -> Game:
    v = load_variant(variant, **kw)
    bots = BotDecider({"Ann": make_strategy("cautious"), "Bob": make_strategy("greedy")})
    game = Game(v, ["Ann", "Bob"], bots, seed=1, settings=settings)
    game.setup()
    return game


def breach(game: Game) -> str:
    """Emit an event; the invariants must stop the game there. The message, without the event."""
    with pytest.raises(InvariantViolation) as info:
        game.emit("pay", payer="the Bank", payee="Ann", amount=10, reason="a test")
    message, prefix = info.value.message, f"invariant broken by event '{EVENT}': "
    assert message.startswith(prefix), message
    return message[len(prefix):]


@pytest.fixture
def game() -> Game:
    game = new_game(settings=Settings(invariants=True))
    assert "invariants" in game.ruleset.enabled
    assert violations(game) == []
    game.emit("pay", payer="the Bank", payee="Ann", amount=0, reason="a sound state")
    return game


def street(game: Game, name: str = "Dover Street") -> Any:
    return game.space(name)


# --- each kind of breach -------------------------------------------------------------------------

def test_money_taken_from_the_bank(game: Game) -> None:
    game.bank.cash -= 10
    assert "money is not conserved: the Bank, players and pots hold $299,990, not $300,000" \
        in breach(game)


def test_money_made_out_of_nothing(game: Game) -> None:
    game.players[0].cash += 10
    assert "money is not conserved" in breach(game)


def test_negative_cash(game: Game) -> None:
    ann = game.players[0]
    game.bank.cash += ann.cash + 10
    ann.cash = -10
    assert breach(game) == "Ann has negative cash (-10)"


def test_a_house_given_out_of_nothing(game: Game) -> None:
    game.players[0].houses_left += 1
    assert breach(game) == "Ann has 0 houses on the board and 17 in supply, not 16 in all"


def test_a_house_that_vanished(game: Game) -> None:
    game.acquire(game.players[1], street(game))
    game.houses[street(game).index] += 1  # one more on the board, none taken from the supply
    assert breach(game) == "Bob has 2 houses on the board and 15 in supply, not 16 in all"


def test_an_owned_space_without_a_house(game: Game) -> None:
    ann, space = game.players[0], street(game)
    game.acquire(ann, space)
    game.houses[space.index] = 0
    ann.houses_left += 1
    assert breach(game) == "Dover Street is owned by Ann but carries no house"


def test_houses_on_an_unowned_space(game: Game) -> None:
    game.houses[street(game).index] = 2
    assert breach(game) == "unowned Dover Street carries 2 houses"


def test_an_owner_who_does_not_hold_the_space(game: Game) -> None:
    ann, space = game.players[0], street(game)
    game.owner[space.index] = ann
    game.houses[space.index] = 1
    ann.houses_left -= 1
    assert breach(game) == "Dover Street is owned by Ann but missing from their holdings"


def exemption_card(game: Game) -> Card:
    return next(c for c in game.deck if c.kind == "exemption")


def test_the_exemption_card_duplicated(game: Game) -> None:
    card = exemption_card(game)
    game.players[0].held.append(card)  # held and still in the deck
    assert breach(game) == ("a card is in more than one place; the Special Exemption card is "
                            "in more than one place")


def test_a_second_exemption_card_printed(game: Game) -> None:
    card = exemption_card(game)
    game.players[1].held.append(Card(card.text, card.kind, card.data))
    assert breach(game) == "the Special Exemption card is in more than one place"


def test_a_card_in_two_places(game: Game) -> None:
    card = next(c for c in game.deck if c.kind != "exemption")
    game.discard.append(card)
    assert breach(game) == "a card is in more than one place"


def test_a_bankrupt_player_who_still_holds_something(game: Game) -> None:
    game.players[0].bankrupt = True
    assert "bankrupt Ann still owns or holds something" in breach(game)


def test_a_bankrupt_player_who_acts_again(game: Game) -> None:
    ann = game.players[0]
    game.transfer(ann, game.bank, ann.cash, "settling the test")
    ann.bankrupt = True
    with pytest.raises(InvariantViolation) as info:
        game.emit("roll", player="Ann", dice=[3, 4])
    text = game.describe(game.log[-1])
    assert info.value.message == f"invariant broken by event '{text}': bankrupt Ann acts or pays again"


def test_every_breach_at_once_is_listed(game: Game) -> None:
    game.bank.cash -= 10
    game.houses[street(game).index] = 1
    found = breach(game)
    assert "money is not conserved" in found and "unowned Dover Street" in found


def test_the_violation_stops_a_game_in_play(game: Game) -> None:
    game.bank.cash -= 10
    with pytest.raises(InvariantViolation) as info:
        game.play(max_turns=1)
    assert info.value.message.startswith("invariant broken by event 'Turn 1: Ann': money is "
                                         "not conserved")


# --- off unless switched on -------------------------------------------------------------------------

def test_off_unless_switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    for value in (None, "", "0", "1"):  # below the command line, the variable is never read
        if value is None:
            monkeypatch.delenv(INVARIANTS_ENV, raising=False)
        else:
            monkeypatch.setenv(INVARIANTS_ENV, value)
        game = new_game()
        assert "invariants" not in game.ruleset.enabled
        game.bank.cash -= 10
        game.emit("pay", payer="the Bank", payee="Ann", amount=10, reason="a test")  # no check
        assert violations(game)  # the breach is there; nobody was looking


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """`played(*flags)`: play a short script with `easymoney play`; whether its rule set checked
    the invariants."""
    seen: list[tuple[str, ...]] = []
    real = runner_module.ruleset_for

    def spy(*args: Any, **kw: Any) -> Any:
        rs = real(*args, **kw)
        seen.append(rs.enabled)
        return rs

    monkeypatch.setattr(runner_module, "ruleset_for", spy)
    script = tmp_path / "short.game"
    script.write_text("players Ann Bob\nAnn rolls 3 4\nAnn buys\n", encoding="utf-8")

    def play(*flags: str) -> bool:
        assert main(["play", "--quiet", *flags, str(script)]) == 0
        return "invariants" in seen[-1]
    return play


def test_switched_on_by_the_environment_at_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                                             played: Any, capsys: Any) -> None:
    monkeypatch.setenv(INVARIANTS_ENV, "1")
    assert played()
    monkeypatch.setenv(INVARIANTS_ENV, "0")
    assert not played()


def test_switched_on_by_a_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(INVARIANTS_ENV, raising=False)
    game = new_game(enable=["invariants"])
    assert "invariants" in game.ruleset.enabled
    game.bank.cash -= 10
    with pytest.raises(InvariantViolation):
        game.emit("pay", payer="the Bank", payee="Ann", amount=10, reason="a test")


def test_play_check_invariants_switches_it_on(monkeypatch: pytest.MonkeyPatch, played: Any,
                                              capsys: Any) -> None:
    monkeypatch.delenv(INVARIANTS_ENV, raising=False)
    assert not played()
    assert played("--check-invariants")


def test_a_breach_in_a_played_script_is_one_located_line(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path, capsys: Any) -> None:
    real_setup = Game.setup

    def leaky_setup(self: Game) -> None:  # a bug in a rule: $10 vanishes at the start
        real_setup(self)
        self.bank.cash -= 10

    monkeypatch.setattr(Game, "setup", leaky_setup)
    script = tmp_path / "leak.game"
    script.write_text("players Ann Bob\nAnn rolls 3 4\n", encoding="utf-8")
    assert main(["play", "--quiet", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: invariant broken by event '")
    assert "money is not conserved" in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_a_bankrupt_player_who_receives_money(game: Game) -> None:
    ann = game.players[0]
    game.transfer(ann, game.bank, ann.cash, "settling the test")
    ann.bankrupt = True
    with pytest.raises(InvariantViolation) as info:
        game.emit("pay", payer="the Bank", payee="Ann", amount=2500, reason="a test")
    assert info.value.message.endswith("bankrupt Ann receives $2,500 from the Bank (R26)")
