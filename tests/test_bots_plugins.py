"""Issue 28: bots, programs and a plugin's deals and actions.

Case 34: a deal the other player rejected is not offered again by the same player in the
same window (R22a), whoever offers it: the random bot offered the railroads example's
loans again and again, and a program repeating an offer stalled the game until
--game-timeout.
"""

from __future__ import annotations

import collections
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from easymoney.bots import BotDecider, make_strategy
from easymoney.engine.game import Game
from easymoney.loading.loader import load_variant

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
