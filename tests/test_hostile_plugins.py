"""Issue 28, what a hostile tester found in plugins: a plugin's own code that misbehaves
(candidates that raise or list what is not theirs, a line that cannot be printed), a
plugin written the earlier way, a plugin that is installed but off, a request kind no
bot was written for, and hook calls by keyword. Each is one line naming the plugin, in
every command and path that meets it, and a game the plugin does not play in never
calls it.

The misbehaving plugins are stand-ins (tests/stand_in_plugins.py): installed for one test
only, as `easymoney` finds an installed one, so that no other test meets them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.bots import BotDecider, make_strategy
from easymoney.engine.game import Game, ruleset_for
from easymoney.loading.loader import load_variant

from cli_helpers import cli, one_line_error

ROOT = Path(__file__).resolve().parent.parent
JAIL = str(ROOT / "tests" / "data" / "variants" / "jail.yaml")


# --- 27: a request kind no bot was written for, in bulk ----------------------------------------

@pytest.mark.parametrize("strategy", ["cautious", "greedy", "random"])
def test_issue28_bulk_bots_answer_a_plugin_request_kind(strategy: str, capsys: Any) -> None:
    """`simulate` of the jail variant (its `jail` request is no built-in kind): every
    built-in strategy answers it as `choose` does, in the bots' fast decider too."""
    code, out, err = cli(capsys, "simulate", JAIL, "--games", "4", "--players", "2", "--strategies",
                         f"{strategy},{strategy}", "--workers", "1", "--seed", "3")
    assert (code, err) == (0, ""), err
    assert "4 games" in out


def test_issue28_the_fast_decider_asks_the_strategy_of_a_kind_it_has_no_method_for() -> None:
    variant = load_variant(JAIL)
    decider = BotDecider({"Ann": make_strategy("cautious"), "Bob": make_strategy("greedy")})
    game = Game(variant, [("Ann", None), ("Bob", None)], decider, seed=5,
                ruleset=ruleset_for(variant))
    game.setup()
    game.play(max_turns=300)
    assert "jail" not in decider.answers_for("Ann")  # the kind is answered all the same
    assert game.turns_played > 0
