"""Issue 39 item 12: bad options and actions in the agents' forms (PettingZoo `env()`,
Gymnasium `single()` and `gymnasium.make`, OpenSpiel `spiel.game` and `pyspiel.load_game`)
are one EasyMoneyError line each; a NumPy integer is an integer."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")
import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import easymoney.agents as agents  # noqa: E402
from easymoney.agents.table import MAX_AMOUNT_STEPS, ActionNotInMask  # noqa: E402
from easymoney.errors import EasyMoneyError  # noqa: E402

FORMS = {
    "pettingzoo": lambda **kw: agents.env("standard", **kw),
    "gymnasium": lambda **kw: agents.single("standard", **kw),
    "gymnasium.make": lambda **kw: gymnasium.make(agents.gym_id("standard"), **kw),
}


def spiel_form(**kw):
    spiel = pytest.importorskip("easymoney.agents.spiel", reason="open_spiel is not installed")
    return spiel.game("standard", **kw)


def load_game_form(**kw):
    pytest.importorskip("easymoney.agents.spiel", reason="open_spiel is not installed")
    import pyspiel
    return pyspiel.load_game("easymoney", kw)


ALL_FORMS = {**FORMS, "openspiel": spiel_form, "pyspiel.load_game": load_game_form}


def one_line(caught: pytest.ExceptionInfo[EasyMoneyError]) -> str:
    message = str(caught.value)
    assert "\n" not in message
    return message


# pyspiel.load_game's own binding converts its parameters before the game sees them (a
# NumPy integer is its TypeError); spiel.game, the documented form, takes them
@pytest.mark.parametrize("form", [f for f in ALL_FORMS if f != "pyspiel.load_game"])
def test_issue39_a_numpy_integer_is_a_seat_count(form):
    made = ALL_FORMS[form](players=np.int64(3))
    seats = made.num_players() if hasattr(made, "num_players") else len(
        made.unwrapped.table.seats if hasattr(made, "unwrapped") else made.possible_agents)
    assert seats == 3


@pytest.mark.parametrize("form", FORMS)
def test_issue39_numpy_integers_are_every_whole_number_option(form):
    made = FORMS[form](players=np.int32(2), amount_steps=np.int64(3), max_turns=np.int16(50),
                       max_steps=np.uint32(900), window_actions=np.int8(4))
    table = made.unwrapped.table if hasattr(made, "unwrapped") else made.table
    assert (table.catalogue.steps, table.max_turns, table.max_steps, table.window_actions) \
        == (3, 50, 900, 4)
    assert all(type(v) is int for v in (table.catalogue.steps, table.max_turns))


@pytest.mark.parametrize("form", ALL_FORMS)
@pytest.mark.parametrize("value", [10**6, 10**9, MAX_AMOUNT_STEPS + 1])
def test_issue39_amount_steps_is_bounded_in_one_line(form, value):
    with pytest.raises(EasyMoneyError) as caught:
        ALL_FORMS[form](amount_steps=value)
    message = one_line(caught)
    assert "amount_steps" in message and f"{MAX_AMOUNT_STEPS}" in message


@pytest.mark.parametrize("form", ALL_FORMS)
def test_issue39_the_bound_itself_is_allowed(form):
    made = ALL_FORMS[form](amount_steps=MAX_AMOUNT_STEPS)
    assert made is not None


@pytest.mark.parametrize("form", ALL_FORMS)
@pytest.mark.parametrize("option, value, words", [
    ("players", 10**9, "players"),
    ("players", 0, "players"),
    ("players", "3", "players"),
    ("players", np.float64(2.0), "players"),
    ("amount_steps", 0, "amount_steps"),
    ("amount_steps", True, "amount_steps"),
    ("max_steps", -1, "max_steps"),
    ("max_turns", 1.5, "max_turns"),
])
def test_issue39_an_option_out_of_range_is_one_line_in_every_form(form, option, value, words):
    if form == "pyspiel.load_game" and type(value) is not int:
        pytest.skip("load_game's binding checks a parameter's type itself (SpielError)")
    with pytest.raises(EasyMoneyError) as caught:
        ALL_FORMS[form](**{option: value})
    assert words in one_line(caught)


BAD_ACTIONS = [float("inf"), float("-inf"), float("nan"), 10**30, -10**30, "abc", None, 1.5]


@pytest.mark.parametrize("form", [("pettingzoo", None), ("gymnasium", "raise"),
                                  ("gymnasium", "penalty")])
@pytest.mark.parametrize("action", BAD_ACTIONS)
def test_issue39_an_action_that_is_no_slot_is_not_in_the_mask(action, form):
    name, illegal = form
    env = FORMS[name](seed=0, **({} if illegal is None else {"illegal": illegal}))
    env.reset(seed=0)
    before = env.table.state.game.snapshot()
    with pytest.raises(ActionNotInMask, match="is not legal now") as caught:
        env.step(action)
    one_line(caught)
    assert env.table.state.game.snapshot() == before


@pytest.mark.parametrize("action", [float("inf"), float("nan"), "abc", None, 1.5])
def test_issue39_an_action_that_is_no_slot_is_not_in_the_mask_openspiel(action):
    state = spiel_form().new_initial_state()
    while state.is_chance_node():  # Ann's lone throw is the state's (issue 37): its dice
        state.apply_action(state.chance_outcomes()[0][0])
    history, legal = state.history(), state.legal_actions()
    with pytest.raises(ActionNotInMask, match="is not legal now") as caught:
        state.apply_action(action)
    one_line(caught)
    assert state.history() == history and state.legal_actions() == legal
    state.apply_action(np.int64(legal[0]))  # a numpy integer is a move
    assert state.history() == [*history, legal[0]]
