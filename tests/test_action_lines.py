"""One action object knows its own script line: what --record writes parses back to it.

Every action type of the built-in rules is made, written with `str()` (as the recorder
writes it), parsed as a script line, and turned back into an action by its statement (as
the runner does): the action must come back equal.
"""

from __future__ import annotations

import pytest

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game
from easymoney.loading.loader import load_variant
from easymoney.plugins.auction import BID, Bid, Pass
from easymoney.plugins.building import Build
from easymoney.plugins.debts import RAISE, GoBankrupt
from easymoney.plugins.exemption import SellExemption
from easymoney.plugins.mortgage import Mortgage, Redeem
from easymoney.plugins.sales import Sell
from easymoney.plugins.streets import BUY, Buy, Decline
from easymoney.plugins.turn import WINDOW_AFTER, WINDOW_BEFORE, EndTurn, Roll
from easymoney.engine.actions import Request
from easymoney.script import ast as S
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner


@pytest.fixture(scope="module")
def runner() -> ScriptRunner:
    return ScriptRunner(parse("players Ann Bob\n"))


def _cases(game: Game) -> list[tuple[object, str]]:
    ann, bob = game.players
    street = game.space("Dover Street")
    return [
        (Roll(ann, (3, 4)), WINDOW_BEFORE), (Roll(ann, None), WINDOW_BEFORE),
        (EndTurn(ann), WINDOW_AFTER),
        (Buy(ann, street), BUY), (Decline(ann, street), BUY),
        (Bid(ann, street, 600), BID), (Pass(ann, street), BID),
        (Build(ann, street, 1), WINDOW_AFTER), (Build(ann, street, 3), WINDOW_BEFORE),
        (Mortgage(ann, street), WINDOW_AFTER), (Mortgage(ann, street), RAISE),
        (Redeem(ann, street), WINDOW_BEFORE),
        (Sell(ann, street, bob, 1200), WINDOW_AFTER), (Sell(ann, street, bob, 1200), RAISE),
        (SellExemption(ann, bob, 100), BID), (GoBankrupt(ann), RAISE),
    ]


def test_every_action_parses_back_from_its_own_line(runner):
    game = runner.game
    ann = game.players[0]
    for action, kind in _cases(game):
        line = str(action)
        (stmt,) = parse(line + "\n").body
        request = Request(kind, ann, (type(action),), space=game.space("Dover Street"))
        back = runner._answer(stmt, request)
        assert back == action, (line, back)
        assert str(stmt) == line  # the statement writes the same line


def test_a_recorded_bot_game_is_made_of_such_lines(tmp_path):
    from easymoney.script.record import Recorder
    variant = load_variant("standard")
    names = ["Ann", "Bob", "Cat"]
    game = Game(variant, names, BotDecider({n: make_strategy("random") for n in names}), seed=9)
    recorder = Recorder(game)
    game.setup()
    game.play(max_turns=60)
    kinds = {type(line) for line in recorder.lines if not isinstance(line, str)}
    assert len(kinds) >= 5
    for line in recorder.body():
        (stmt,) = parse(line + "\n").body
        assert str(stmt) == line
        assert isinstance(stmt, S.ACTION_TYPES)
