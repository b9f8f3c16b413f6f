"""Issue 37: a GameState dropped, or a clone of one, is freed with its game and its greenlet
(the game holds the state weakly, `stepping._Link`: a greenlet's frames are invisible to
the collector), and the states still held are not affected."""

from __future__ import annotations

import gc
import random
import weakref

import greenlet
import pytest

from easymoney import GameState, new_game
from easymoney.engine.game import Game
from easymoney.engine.legal import random_action
from easymoney.engine.stepping import stepping_state


def _step(state: GameState, rng: random.Random, steps: int) -> list:
    """`steps` random steps (fewer if the game ends): the actions taken."""
    taken = []
    for _ in range(steps):
        if state.is_over:
            break
        action = random_action(state.legal_actions(), rng)
        state.apply(action)
        taken.append(action)
    return taken


def _alive(kind: type) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, kind))


def _held(kind: type) -> list:
    """Every object of `kind` alive now, held, so that what another test left behind
    cannot be freed during this one and make a count smaller (seen in CI: 120 == 122)."""
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, kind)]


def _mid_game(seed: int = 5, steps: int = 40) -> GameState:
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed=seed)
    _step(state, random.Random(seed), steps)
    assert not state.is_over
    return state


def test_issue37_a_dropped_clone_is_freed_with_its_greenlet() -> None:
    state = _mid_game()
    held = _held(GameState), _held(greenlet.greenlet)
    states, greenlets = len(held[0]), len(held[1])
    for k in range(100):
        twin = state.clone()
        _step(twin, random.Random(k), 3)
    clone, glet = weakref.ref(twin), weakref.ref(twin._greenlet)
    del twin
    # no cycle holds the state: freed at once, and greenlet ends its greenlet then
    assert clone() is None and glet() is None
    assert _alive(GameState) == states and _alive(greenlet.greenlet) == greenlets


def test_issue37_a_dropped_state_is_freed_and_so_is_its_game() -> None:
    held = _held(Game)
    games = len(held)
    state = _mid_game()
    ref = weakref.ref(state)
    assert stepping_state(state.game) is state
    del state
    assert ref() is None
    assert _alive(Game) == games  # its game and its kept copies too


def test_issue37_a_state_undone_many_times_keeps_one_game_and_one_greenlet() -> None:
    held = _held(greenlet.greenlet), _held(Game)  # what other tests left
    state = _mid_game(steps=60)
    greenlets, games = _alive(greenlet.greenlet), _alive(Game)
    for _ in range(50):
        state.undo()
    assert _alive(GameState) >= 1 and _alive(greenlet.greenlet) == greenlets
    assert _alive(Game) <= games  # the copies kept past the undone steps go with them


def test_issue37_two_thousand_dropped_clones_leave_memory_flat() -> None:
    state = _mid_game()
    for _ in range(100):  # caches warm
        state.clone()
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(2000):
        state.clone()
    gc.collect()
    # a clone kept is hundreds of objects (its game, players, lists, frames): 2,000 kept,
    # hundreds of thousands
    assert len(gc.get_objects()) - before < 1000


def test_issue37_the_source_steps_on_as_before_after_its_clones_are_freed() -> None:
    lone, state = _mid_game(), _mid_game()
    for k in range(20):
        twin = state.clone()
        _step(twin, random.Random(k), 5)
        del twin
    gc.collect()
    taken = _step(state, random.Random(99), 60)
    for action in taken:
        lone.apply(action)
    assert state.history == lone.history
    assert state.request.describe() == lone.request.describe()


def test_issue37_a_clone_kept_while_its_source_is_dropped_keeps_working() -> None:
    state = _mid_game()
    kept, lone = state.clone(), state.clone()
    source = weakref.ref(state)
    del state
    gc.collect()
    assert source() is None
    taken = _step(kept, random.Random(7), 60)
    for action in taken:
        lone.apply(action)
    assert kept.history == lone.history
    assert stepping_state(kept.game) is kept


def test_issue37_undo_after_clone_still_works() -> None:
    state = _mid_game()
    before = state.history
    twin = state.clone()
    _step(twin, random.Random(3), 4)
    del twin
    taken = _step(state, random.Random(4), 4)
    for _ in taken:
        state.undo()
    assert state.history == before
    again = state.clone()
    again.undo()
    state.undo()
    assert again.history == state.history


def test_issue37_an_openspiel_clone_dropped_at_a_card_draw_is_freed() -> None:
    pytest.importorskip("pyspiel")
    from easymoney.agents import spiel
    from easymoney.agents.spiel import ChanceState

    game = spiel.game("standard", 2)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not (state.is_chance_node() and state.game_state.drawing):
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
    held = _held(ChanceState)
    alive = len(held)
    twin = state.clone()
    ref = weakref.ref(twin.game_state)
    del twin
    assert ref() is None and _alive(ChanceState) == alive
    outcome = state.chance_outcomes()[0][0]
    state.apply_action(outcome)  # the source draws on
    assert not state.game_state.drawing
