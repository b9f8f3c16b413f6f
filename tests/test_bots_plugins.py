"""Issue 28: bots, programs and a plugin's deals and actions.

Case 34: a deal the other player rejected is not offered again by the same player in the
same window (R22a), whoever offers it: the random bot offered the railroads example's
loans again and again, and a program repeating an offer stalled the game until
--game-timeout.

Case 35: the built-in bots take a plugin's action that raises money when they must raise
money, and a plugin's any-moment action in their windows when it is worth taking, as
docs/plugins.md's contract says: the test plugin `shares` (tests/plugins/shares_plugin)
has both.
"""

from __future__ import annotations

import collections
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game
from easymoney.loading.loader import load_variant
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner

from processes import HUNG, easymoney

ROOT = Path(__file__).resolve().parent.parent
LENDER = Path(__file__).resolve().parent / "data" / "seats" / "lender.py"

railroads = pytest.importorskip("easymoney_railroads",
                                reason="the railroads example is installed for the tests")


def bot_game(variant: Any, strategies: list[str], seed: int, turns: int = 300) -> tuple[Game, list[Any]]:
    """A game of bots played to its end or `turns` turns; with each deal_rejected event and
    the window (turn, request kind, asked player) it was rejected in."""
    names = [f"P{k + 1}" for k in range(len(strategies))]
    game = Game(variant, list(zip(names, strategies)),
                BotDecider({n: make_strategy(s) for n, s in zip(names, strategies)}), seed=seed)
    heard: list[Any] = []
    game.listen(lambda event: heard.append((game.turns_played, game.request.kind,
                                            game.request.player.name, event.data)),
                kinds=("deal_rejected",))
    game.setup()
    game.play(max_turns=turns)
    return game, heard


def test_issue28_case34_bots_never_offer_a_rejected_deal_again_in_its_window():
    variant = load_variant("standard", enable=["railroads"])
    rejected = 0
    for seed in range(3):
        _, heard = bot_game(variant, ["random", "random", "random"], seed)
        rejected += len(heard)
        # the deal whatever its amount: `lend $N to P2`
        windows = collections.Counter((turn, kind, asked, data["offerer"],
                                       data["deal"].rsplit(" to ", 1)[1])
                                      for turn, kind, asked, data in heard)
        assert [w for w, n in windows.items() if n > 1] == []
    assert rejected > 5  # loans were offered, and turned down


def test_issue28_case34_a_program_repeating_a_rejected_offer_no_longer_stalls_the_game(tmp_path):
    seat = f'exec:"{sys.executable} {LENDER}"'
    with easymoney(tmp_path, "simulate", "--games", "1", "--players", "2", "--max-turns", "20",
                   "--with", "railroads", "--workers", "1", "--game-timeout", "30",
                   "--strategies", f"{seat},cautious") as proc:
        out, err = proc.communicate(timeout=HUNG * 2)
    # it was stopped by --game-timeout, blaming the turn rule: it offered the same loan for ever
    assert (proc.returncode, err) == (0, ""), err
    assert "turn limit   100.0%  1 game" in out


# --- case 35 ---------------------------------------------------------------------------------

shares = pytest.importorskip("easymoney_test_shares",
                             reason="the shares test plugin is installed for the tests")

OWES_RENT = """with shares
players Ann:{strategy} Bob
setup Ann cash 100
setup Bob owns "Dover Street" 5 houses
Ann rolls 3 4
"""


@pytest.mark.parametrize("strategy", ["cautious", "greedy", "random"])
def test_issue28_case35_a_bot_raising_money_cashes_a_plugins_shares_not_going_bankrupt(strategy):
    """$2,450 rent on $100: with nothing to mortgage, the bot cashed none of its ten shares
    ($450 each) and went bankrupt; it cashes what the debt needs."""
    result = ScriptRunner(parse(OWES_RENT.format(strategy=strategy))).run()
    game = result.game
    ann = game.by_name["Ann"]
    assert not ann.bankrupt and game.by_name["Bob"].cash == 20000 + 2450
    left = shares.held(game, ann)
    if strategy == "random":  # any of the shares' answers, a range at either end
        assert left < 10
        return
    # the most valuable answer is one share at a time (-$50 each): six pay the debt, and
    # the four left pocket a dividend ($50 each) in Ann's window after the landing
    assert (left, ann.cash) == (4, 100 + 6 * 450 - 2450 + 4 * 50)


@pytest.mark.parametrize("strategy", ["cautious", "greedy"])
def test_issue28_case35_bots_take_a_plugins_any_moment_action_worth_taking(strategy):
    """A dividend ($50 a share) is pocketed once a turn, in the mover's window; a levy (a
    dividend of -$50 a share) never."""
    names = ["P1", "P2", "P3"]
    pocketed = []
    for per_share in (50, -50):
        variant = load_variant("standard", options=[f"shares.dividend={per_share}"])
        game = Game(variant, [(n, strategy) for n in names],
                    BotDecider({n: make_strategy(strategy) for n in names}), seed=4)
        game.setup()
        game.play(max_turns=60)
        pocketed.append(sum(1 for e in game.log if e.kind == "dividend"))
        if per_share > 0:  # (a turn cut short by a bankruptcy pocketed its dividend too)
            assert pocketed[0] in (game.turns_played, game.turns_played + 1)
    assert pocketed[0] > 10 and pocketed[1] == 0
