"""Issue 40 part 1: the environment's defaults are the settings the learning figure is
measured with (examples/agents/train_ppo.py's ENV_OPTIONS): a learner that starts from
`single()` or `gymnasium.make("easymoney/Standard-v1")` with no option gets them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")
import gymnasium  # noqa: E402

import easymoney.agents as agents  # noqa: E402
from easymoney.engine.actions import WINDOW_KINDS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "agents" / "train_ppo.py"


def example_options() -> dict[str, object]:
    """train_ppo.py's ENV_OPTIONS, read from its source (it needs torch to import), its
    GAMMA put in."""
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    names: dict[str, object] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else \
            node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id in ("GAMMA", "ENV_OPTIONS"):
            names[target.id] = node.value
    options = names["ENV_OPTIONS"]
    assert isinstance(options, ast.Dict)
    gamma = ast.literal_eval(names["GAMMA"])
    out = {}
    for key, value in zip(options.keys, options.values):
        name = ast.literal_eval(key)
        if isinstance(value, ast.Name) and value.id == "GAMMA":
            out[name] = gamma
        elif name != "max_turns":  # set past the example's own end rule (end.max_turns)
            out[name] = ast.literal_eval(value)
    return out


def settings(table) -> dict[str, object]:
    return {"actions": table.actions, "raise_in_windows": table.raise_in_windows,
            "shaping": table.shaping, "gamma": table.gamma, "lone_windows": table.lone_windows}


@pytest.mark.parametrize("make", [
    lambda: agents.single(),
    lambda: agents.env(),
    lambda: gymnasium.make("easymoney/Standard-v1").unwrapped,
])
def test_issue40_the_defaults_are_the_learning_examples_settings(make):
    wanted = example_options()
    assert set(wanted) == {"actions", "raise_in_windows", "shaping", "gamma", "lone_windows"}
    assert settings(make().table) == wanted


def test_issue40_the_old_settings_are_options():
    env = agents.single(actions="standard", raise_in_windows=True, shaping=None, gamma=1.0,
                        lone_windows="ask")
    assert settings(env.table) == {"actions": "standard", "raise_in_windows": True,
                                   "shaping": None, "gamma": 1.0, "lone_windows": "ask"}
    assert env.action_space.n == 1215


def test_issue40_a_default_window_offers_no_mortgage_and_a_debt_still_does_R19_R25():
    """The default mask leaves the Bank's mortgage out of a window (raise_in_windows=False);
    the rules themselves still allow it there (the listing has it)."""
    env = agents.env("standard", 2, seed=3, state_info=False)
    mortgage_slots = {k for k, n in enumerate(env.catalogue.names) if n.startswith("Mortgage")}
    env.reset(seed=3)
    windows = allowed = 0
    for _agent in env.agent_iter(20000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        request = env.table.state.request
        legal = set(obs["action_mask"].nonzero()[0].tolist())
        if request.kind in WINDOW_KINDS:
            windows += 1
            assert not legal & mortgage_slots
            allowed += any(type(a).__name__ == "Mortgage"
                           for a in env.table.state.legal_actions())
        env.step(min(legal))
    assert windows > 50 and allowed > 0
