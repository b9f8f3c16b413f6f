"""Issue 30, part 6: the game of any variant as an OpenSpiel game (easymoney.agents.spiel):
dice and cards as chance nodes (R4, R21), the catalogue's slots as its actions, OpenSpiel's
own checks and its MCTS bot."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the agents extra (open_spiel) is not installed")
import numpy as np  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

import easymoney.agents.spiel as spiel  # noqa: E402
from easymoney.agents.table import ActionNotInMask  # noqa: E402
from easymoney.errors import EasyMoneyError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
JAIL = str(ROOT / "tests" / "data" / "variants" / "jail.yaml")


def random_move(state, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        return rng.choices(outcomes, probs)[0]
    return rng.choice(state.legal_actions())


def play_until(state, done, rng: random.Random, limit: int = 3000):
    for _ in range(limit):
        if done(state) or state.is_terminal():
            return state
        state.apply_action(random_move(state, rng))
    return state


def test_issue30_the_game_is_registered_with_its_parameters():
    game = pyspiel.load_game("easymoney")
    assert "easymoney" in pyspiel.registered_names()
    params = game.get_parameters()
    assert params["variant"] == "standard" and params["players"] == 2
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 1215  # the catalogue's slots (docs/agents.md)
    assert game.max_game_length() == spiel.DEFAULTS["max_steps"]
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    three = pyspiel.load_game("easymoney(players=3,disable=four_sides,max_steps=500)")
    assert three.num_players() == 3 and three.max_game_length() == 500
    assert three.get_parameters()["disable"] == "four_sides"


def test_issue30_a_throw_is_a_chance_node_of_36_outcomes_R4():
    asked = spiel.game("standard", 2, lone_windows="ask").new_initial_state()
    assert asked.current_player() == 0
    roll = [a for a in asked.legal_actions() if asked.action_to_string(a) == "Roll"]
    assert roll == asked.legal_actions()  # the first decision: only the throw
    asked.apply_action(roll[0])
    assert asked.is_chance_node()
    # by default that lone throw is no decision (issue 37): the game starts at its dice
    game = spiel.game("standard", 2)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.history() == []
    assert state.game_state.game.players[0].position == 0
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    three_four = next(a for a, _ in outcomes if state.action_to_string(a) == "dice 3 4")
    state.apply_action(three_four)
    assert not state.is_chance_node()
    assert state.game_state.history[0] == "Ann rolls 3 4"
    assert state.game_state.game.players[0].position == 7


def test_issue30_a_card_draw_is_a_chance_node_of_the_draw_pile_R21():
    game = spiel.game("standard", 2)
    state = play_until(game.new_initial_state(),
                       lambda s: s.is_chance_node() and s.game_state.drawing, random.Random(3))
    assert state.is_chance_node() and state.game_state.drawing
    deck = [c.text for c in state.game_state.game.deck]
    outcomes = state.chance_outcomes()
    names = {state.action_to_string(a): p for a, p in outcomes}
    assert names == {f'card "{t}"': pytest.approx(deck.count(t) / len(deck)) for t in set(deck)}
    # a card that is not on top of the shuffled pile: chance's outcome decides, not the deck
    pick = next(a for a, _ in outcomes if state.action_to_string(a) != f'card "{deck[-1]}"')
    text = state.action_to_string(pick)[len('card "'):-1]
    state.apply_action(pick)
    drawn = [line for line in state.game_state.history if " draws " in line]
    assert drawn[-1].endswith(f'draws "{text}"')
    rest = [c.text for c in state.game_state.game.deck]
    if len(rest) == len(deck) - 1:  # (unless the pile ran out and was reshuffled since)
        deck.remove(text)
        assert sorted(rest) == sorted(deck)


def test_issue30_openspiel_random_sim_test_passes_on_standard():
    game = spiel.game("standard", 2, max_steps=120)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_issue30_openspiel_random_sim_test_passes_on_a_plugin_variant():
    game = spiel.game(JAIL, 3, max_steps=100)
    assert any(n.startswith("PayBail") for n in game.spec.catalogue.names)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("variant", ["standard", JAIL])
def test_issue30_the_mcts_bot_plays_a_whole_game(variant):
    """OpenSpiel's own MCTS (random rollouts) at a tiny budget, to the game's end: the
    variant's end.max_turns (R28's worth then names the winner)."""
    game = spiel.game(variant, 2, options="end.max_turns=4")
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
            decisions += 1
    assert decisions > 4 and state.game_state.is_over
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.5, 0.5])


def test_issue30_same_moves_same_game_and_clones_are_independent():
    game = spiel.game("standard", 2)
    a = play_until(game.new_initial_state(), lambda s: len(s.history()) >= 150, random.Random(5))
    b = game.new_initial_state()
    for move in a.history():
        b.apply_action(move)
    assert a.game_state.history == b.game_state.history
    assert a.observation_tensor(a.current_player()) == b.observation_tensor(b.current_player())
    twin = a.clone()
    before = a.game_state.history
    play_until(twin, lambda s: len(s.history()) >= 250, random.Random(6))
    assert a.game_state.history == before and len(twin.history()) > len(a.history())
    assert twin.game_state.history[:len(before)] == before


def test_issue30_observation_is_the_agents_layout_and_strings_are_given():
    game = spiel.game("standard", 2)
    state = play_until(game.new_initial_state(), lambda s: len(s.history()) >= 40,
                       random.Random(2))
    while state.is_chance_node():
        state.apply_action(random_move(state, random.Random(1)))
    layout = game.spec.layout
    player = state.current_player()
    tensor = np.array(state.observation_tensor(player), np.float32)
    assert tensor.shape == (layout.size,)
    gs = state.game_state
    assert np.array_equal(tensor, layout.vector(gs.game, player, gs.request))
    view = json.loads(state.observation_string(player))
    assert view["me"] == ["Ann", "Bob"][player] and view["request"]["player"] in ("Ann", "Bob")
    assert state.information_state_string(player).split(": ")[1].split() == \
        [str(m) for m in state.history()]
    # perfect information: the information state holds this state alone
    assert state.resample_from_infostate(player, None).history() == state.history()


def test_issue30_serialised_state_reads_back():
    game = spiel.game("standard", 2)
    state = play_until(game.new_initial_state(), lambda s: len(s.history()) >= 60,
                       random.Random(8))
    back = game.deserialize_state(state.serialize())
    assert back.history() == state.history()
    assert back.game_state.history == state.game_state.history


def test_issue30_max_steps_cuts_the_game_short_with_returns_zero():
    game = spiel.game("standard", 2, max_steps=30, limit_returns="zero")
    state = play_until(game.new_initial_state(), lambda s: False, random.Random(4))
    assert state.is_terminal() and len(state.history()) <= 30
    if not state.game_state.is_over:
        assert state.returns() == [0.0, 0.0] and "cut short" in str(state)


@pytest.mark.parametrize("players", [2, 3])
def test_issue40_a_game_cut_at_its_turn_limit_returns_the_shares_of_worth_R28(players):
    """The default returns at the limit: (n * share - 1) / (n - 1) of each seat's share of
    the worth, adding up to 0, each within [-1, 1], the richer seat the higher."""
    game = spiel.game("standard", players, max_turns=3)
    for seed in range(6):
        state = play_until(game.new_initial_state(), lambda s: False, random.Random(seed))
        if state.game_state.is_over:
            continue  # ended by the rules: +1 and -1 as before
        played = state.game_state.game
        assert played.turns_played == 3
        returns = state.returns()
        worth = [0 if p.bankrupt else max(0, played.worth(p)) for p in played.players]
        shares = [w / sum(worth) for w in worth]
        assert returns == pytest.approx([(players * s - 1) / (players - 1) for s in shares])
        assert sum(returns) == pytest.approx(0.0) and all(-1 <= r <= 1 for r in returns)
        richest = max(range(players), key=worth.__getitem__)
        assert returns[richest] == max(returns)
        break
    else:
        pytest.fail("every game ended by the rules within 3 turns")


def test_issue40_rollout_evaluator_values_a_leaf_by_sensible_play_R28():
    """spiel.RolloutEvaluator plays `turns` turns with the strategy at every seat, then
    values the position by the shares of worth; it leaves the state it is given as it was."""
    game = spiel.game("standard", 2)
    state = play_until(game.new_initial_state(), lambda s: len(s.history()) >= 40
                       and not s.is_chance_node(), random.Random(2))
    before = (state.history(), state.game_state.history)
    evaluator = spiel.RolloutEvaluator(turns=3, rollouts=2, random_state=np.random.RandomState(1))
    value = evaluator.evaluate(state)
    assert value.shape == (2,) and value.sum() == pytest.approx(0.0)
    assert (state.history(), state.game_state.history) == before
    prior = evaluator.prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)


@pytest.mark.parametrize("make, words", [
    (lambda: spiel.game("standard", 2, limit_returns="half"), "limit_returns: 'worth' or 'zero'"),
    (lambda: spiel.RolloutEvaluator(turns=0), "RolloutEvaluator turns"),
    (lambda: spiel.RolloutEvaluator(rollouts=10**6), "RolloutEvaluator rollouts"),
    (lambda: spiel.RolloutEvaluator(turns=2.5), "RolloutEvaluator turns"),
    (lambda: spiel.RolloutEvaluator(strategy="greedie"), "unknown strategy 'greedie'"),
])
def test_issue40_bad_limit_returns_or_evaluator_settings_are_one_line(make, words):
    with pytest.raises(EasyMoneyError) as caught:
        make()
    assert words in caught.value.message and "\n" not in caught.value.message


def test_issue40_mcts_with_the_rollout_evaluator_beats_random_in_a_short_game():
    """The docs' settings at a tiny budget: the search's seat ends no worse than random's
    in most of a few short games (a real test of the signal: with returns 0 at the limit
    and random rollouts it has none)."""
    game = spiel.game("standard", 2, max_turns=12)
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, random_state=rng,
                       evaluator=spiel.RolloutEvaluator(turns=3, random_state=rng))
    won = 0
    for number in range(4):
        seat = number % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(legal)))
        returns = state.returns()
        won += returns[seat] > returns[1 - seat]
    assert won >= 3


def test_issue30_an_illegal_move_is_one_error_and_changes_nothing():
    for lone in ("ask", "skip"):  # the first decision the throw, or a later one (issue 37)
        game = spiel.game("standard", 2, lone_windows=lone)
        state = play_until(game.new_initial_state(), lambda s: not s.is_chance_node(),
                           random.Random(0))
        history, legal = state.history(), state.legal_actions()
        illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
        for move in (illegal, game.num_distinct_actions() + 5, -3):
            with pytest.raises(ActionNotInMask) as caught:
                state.apply_action(move)
            assert "\n" not in str(caught.value) and "legal moves" in str(caught.value)
            assert state.history() == history and state.legal_actions() == legal
        state = play_until(state, lambda s: s.is_chance_node() and not s.game_state.drawing,
                           random.Random(0))
        history = state.history()
        with pytest.raises(ActionNotInMask):
            state.apply_action(99)  # no such throw
        assert state.history() == history and state.is_chance_node()


@pytest.mark.parametrize("params, words", [
    ({"variant": "nope"}, "unknown variant 'nope'"),
    ({"enable": "nosuchrule"}, "unknown rule 'nosuchrule'"),
    ({"options": "end.max_turns=x"}, "end.max_turns"),
    ({"colour": 1}, "parameter 'colour' is unknown"),
    ({"players": "x"}, "players: expected a whole number"),
    ({"players": 0}, "players: expected a whole number from 1"),
    ({"seed": -1}, "seed"),
    ({"max_steps": 0}, "max_steps"),
    ({"enable": 3}, "enable: expected text"),
])
def test_issue30_a_bad_parameter_is_one_error(params, words):
    with pytest.raises(EasyMoneyError) as caught:
        spiel.game(**params)
    message = caught.value.message
    assert words in message and "\n" not in message


def test_issue30_load_game_reports_the_games_own_errors():
    with pytest.raises(EasyMoneyError, match="unknown variant"):
        pyspiel.load_game("easymoney", {"variant": "nope"})
    spiel.game("standard", 2)  # and a good game is made after a bad one


def test_issue30_the_example_of_the_docs_runs():
    """docs/openspiel.md's MCTS example, at a tiny budget and a short game."""
    text = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    small = block.replace("max_simulations=20", "max_simulations=2") \
        .replace("max_turns=100", "max_turns=4")
    assert small != block and "MCTSBot" in small and "RolloutEvaluator" in small
    printed: list = []
    scope: dict = {"print": lambda *args: printed.append(args)}
    exec(compile(small, "docs/openspiel.md", "exec"), scope)
    state = scope["state"]
    assert state.is_terminal()
    assert state.game_state.is_over or state.game_state.game.turns_played == 4
    turns = [args[0] for args in printed[:-1]]  # a line a turn, then the returns
    assert turns == [f"turn {k}:" for k in range(1, len(turns) + 1)] and turns


def test_issue30_a_copy_at_a_card_draw_draws_its_own_card_R21():
    """A clone made while chance is to choose a card replays the steps since the kept copy
    (a chosen card is a step) and waits for its own card."""
    game = spiel.game("standard", 2)
    state = play_until(game.new_initial_state(),
                       lambda s: s.is_chance_node() and s.game_state.drawing, random.Random(3))
    outcomes = [a for a, _ in state.chance_outcomes()]
    assert len(outcomes) >= 2
    twin = state.clone()
    assert twin.is_chance_node() and twin.game_state.drawing
    assert twin.chance_outcomes() == state.chance_outcomes()
    first = state.action_to_string(outcomes[0])[len("card "):]
    state.apply_action(outcomes[0])
    twin.apply_action(outcomes[-1])
    mine, theirs = (next(line for line in reversed(s.game_state.history) if " draws " in line)
                    for s in (state, twin))
    assert mine != theirs
    assert mine.endswith(first)
    # and a copy of the copy, after the draw, is the same game
    again = twin.clone()
    assert again.game_state.history == twin.game_state.history
