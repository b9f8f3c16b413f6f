"""Issue 30: learning agents that learn: episodes that end (part 1), an observation that
says what is asked (part 2), rewards a learner can use (part 3), a compact action space
(part 4) and the ecosystem's conventions (part 5)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")

import easymoney.agents as agents  # noqa: E402
from easymoney.engine.actions import WINDOW_KINDS  # noqa: E402
from easymoney.errors import EasyMoneyError, UsageError  # noqa: E402


def play_policy(env, seed: int, pick: int) -> int:
    """Every seat takes its `pick`-th legal slot (0 first, -1 last) until every seat is
    done; the steps taken (the test fails if the episode does not end)."""
    env.reset(seed=seed)
    taken = 0
    for _ in env.agent_iter(10 * env.table.max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[pick]))
        taken += 1
    assert env.agents == [], f"seed {seed}: the episode did not end"
    return taken


@pytest.mark.parametrize("pick", [0, -1])
def test_issue30_deterministic_policies_end_every_episode(pick):
    env = agents.env("standard", 2, seed=0, state_info=False)
    for seed in range(3):
        play_policy(env, seed, pick)
        table = env.table
        # ended by the game or its turn limit, never by the step limit (the last resort)
        assert table.state.is_over or table.state.game.turns_played >= table.max_turns


def test_issue30_max_steps_truncates_in_steps():
    env = agents.env("standard", 2, seed=0, max_steps=40, state_info=False)
    taken = play_policy(env, 0, 0)
    assert taken == 40 and env.table.state.outcome is None
    env.reset(seed=0)
    assert not env.truncations["Ann"]  # a new episode counts its steps from 0


def window_owner_actions(env) -> list[str]:
    """The names of the slots the window's owner may take now."""
    return [env.catalogue.name(int(s)).split()[0] for s in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])]


def test_issue30_a_window_closes_after_its_bounded_actions():
    """With `window_actions=2`, after two mortgages only the roll is left in the window."""
    env = agents.env("standard", 2, seed=0, window_actions=2, state_info=False)
    env.reset(seed=0)
    state = env.table.state
    game = state.game
    ann = game.players[0]
    for space in game.spaces[1:4]:  # Ann owns three spaces: three mortgages could be taken
        game.change_owner(space, ann)
    state._legal = None
    cat = env.catalogue
    for _ in range(2):
        assert state.request.kind in WINDOW_KINDS and env.agent_selection == "Ann"
        names = window_owner_actions(env)
        assert "Mortgage" in names and "Roll" in names
        slot = next(int(s) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
                    if cat.name(int(s)).startswith("Mortgage"))
        env.step(slot)
    assert window_owner_actions(env) == ["Roll"]
    env.step(int(np.flatnonzero(env.observe("Ann")["action_mask"])[0]))  # the roll
    assert env.table._window_actions == 0  # the window closed: the next one counts anew


def test_issue30_a_rejected_offer_is_not_offered_again_without_the_offers_rule():
    """Without R22a (`offers` off) the environment leaves a rejected deal out of the mask
    for the rest of the window, at every price."""
    env = agents.env("standard", 2, seed=0, disable=["offers"], state_info=False)
    assert env.table.drop_rejected
    env.reset(seed=0)
    game = env.table.state.game
    game.change_owner(game.spaces[1], game.players[0])
    env.table.state._legal = None
    cat = env.catalogue
    sells = [int(s) for s in np.flatnonzero(env.observe("Ann")["action_mask"])
             if cat.name(int(s)).startswith("Sell space=1 ")]
    assert sells
    env.step(sells[-1])
    assert env.agent_selection == "Bob"
    reject = next(int(s) for s in np.flatnonzero(env.observe("Bob")["action_mask"])
                  if cat.name(int(s)) == "Reject")
    env.step(reject)
    assert env.agent_selection == "Ann"
    left = {cat.name(int(s)) for s in np.flatnonzero(env.observe("Ann")["action_mask"])}
    assert not any(n.startswith("Sell space=1 ") for n in left)
    assert agents.env("standard", 2, seed=0).table.drop_rejected is False  # R22a does it


@pytest.mark.parametrize("option, value", [("max_steps", 0), ("max_steps", "many"),
                                            ("window_actions", -1), ("max_turns", 1.5),
                                            ("window_actions", True)])
def test_issue30_an_out_of_range_option_is_one_error(option, value):
    for make in (agents.env, agents.single):
        with pytest.raises(UsageError, match=option) as caught:
            make("standard", seed=0, **{option: value})
        assert "\n" not in str(caught.value) and isinstance(caught.value, EasyMoneyError)
