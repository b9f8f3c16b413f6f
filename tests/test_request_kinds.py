"""Issue 29: a rule with a request kind of its own, written from docs/plugins.md alone (the
insurance fixture, tests/plugins/insurance_plugin), is asked and answered everywhere: a
script and its record, the stepping game, every built-in bot in bulk, and the agents."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import cli
from easymoney import new_game
from easymoney.errors import RefusedAction

insurance = pytest.importorskip("easymoney_test_insurance",
                                reason="the insurance test plugin is installed for the tests")

CROSSING = """\
with insurance
players Ann Bob
seed 1
setup Ann at 38
Ann {answer}
Ann rolls 3 4
Ann declines
expect Ann cash {cash}
"""


@pytest.mark.parametrize("answer, cash", [("insures", 19_900), ("declines insurance", 19_900)])
def test_r8_r16_an_insured_player_crosses_the_light_unfined(tmp_path: Path, capsys: Any,
                                                            answer: str, cash: int) -> None:
    """Insured: the $100 premium, no fine. Declined: the $100 fine (R8), no premium."""
    script, record = tmp_path / "cross.game", tmp_path / "out.game"
    script.write_text(CROSSING.format(answer=answer, cash=cash), encoding="utf-8")
    code, out, err = cli(capsys, "play", str(script), "--record", str(record))
    assert (code, err) == (0, ""), out + err
    assert ("is insured (insurance)" in out) == (answer == "insures"), out
    assert f"\nAnn {answer}\n" in record.read_text(encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(record))
    assert (code, err) == (0, ""), out + err


def test_insurance_its_own_check_refuses_and_changes_nothing() -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["insurance"],
                     options=["insurance.premium=30000"])
    assert state.request.kind == "insure"
    assert [str(a) for a in state.legal_actions()] == ["Ann declines insurance"]
    before = state.game.snapshot()
    with pytest.raises(RefusedAction, match=r"insurance: Ann cannot pay the \$30,000 premium"):
        state.apply("Ann insures")
    assert state.game.snapshot() == before


@pytest.mark.parametrize("strategies", ["cautious,greedy", "random,mc"])
def test_every_bot_answers_a_request_kind_it_does_not_know(capsys: Any, strategies: str) -> None:
    code, out, err = cli(capsys, "simulate", "standard", "--with", "insurance", "--games", "2",
                         "--players", "2", "--strategies", strategies, "--seed", "4",
                         "--option", "end.max_turns=60", "--workers", "1")
    assert (code, err.strip()) == (0, ""), err


def test_an_agent_is_offered_the_answers_of_a_request_kind_of_a_plugin() -> None:
    """The environment's action space has slots for the plugin's answers, and its mask
    offers both whenever the game asks `insure` (a random masked agent plays on)."""
    pytest.importorskip("pettingzoo")
    import easymoney.agents
    env = easymoney.agents.env("standard", 2, seed=0, enable=["insurance"])
    env.reset(seed=0)
    rng = random.Random(0)
    asked = 0
    for _ in range(400):
        obs, _, done, cut, _ = env.last()
        if done or cut:
            break
        table = env.unwrapped.table
        if table.state.request.kind == "insure":
            asked += 1
            offered = sorted(type(action).__name__ for action, _ in table.slots().values())
            can_pay = table.state.request.player.cash >= 100  # the premium
            assert offered == ["DeclineInsurance", "Insure"][:2 if can_pay else 1], offered
        env.step(rng.choice([i for i, on in enumerate(obs["action_mask"]) if on]))
    assert asked >= 2
