"""Issue 37, part 3: a window is asked only when its seat has an action in it besides
closing it. The learning environments, the OpenSpiel game and the programs at a seat take
a window whose one legal action closes it (a throw the game makes, the end of the turn)
themselves; the record keeps its lines, and `lone_windows="ask"` asks it as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="numpy (the agents extra) is not installed")
pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")

import gymnasium  # noqa: E402

import easymoney.agents as agents  # noqa: E402
from easymoney.engine.actions import WINDOW_BEFORE, WINDOW_KINDS, EndTurn, Request, Roll  # noqa: E402
from easymoney.engine.legal import lone_closing  # noqa: E402
from easymoney.errors import EasyMoneyError, UsageError  # noqa: E402
from easymoney.script.parser import parse  # noqa: E402
from easymoney.script.runner import ScriptRunner  # noqa: E402
from easymoney.script.table import new_game  # noqa: E402

from stand_in_plugins import stand_in  # noqa: E402

CLOSING = {"Roll", "EndTurn"}


def lone_slot(table) -> bool:
    """Whether the table's seat is asked a window whose one legal slot closes it."""
    request = table.state.request
    names = [table.catalogue.name(k) for k in np.flatnonzero(table.mask())]
    return request is not None and request.kind in WINDOW_KINDS and len(names) == 1 \
        and names[0] in CLOSING


def first_slot_episode(env, seed: int, limit: int = 4000) -> tuple[int, dict[str, float], int]:
    """Every seat takes its first legal slot (a dead seat its closing step): (the live
    steps, each seat's sum of rewards, the lone windows it was asked)."""
    env.reset(seed=seed)
    taken, lone = 0, 0
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        lone += lone_slot(env.table)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        taken += 1
    return taken, total, lone


def replays(state) -> None:
    """The game's script, run by the script runner, gives the same game (its dice are the
    script's: the random generator's state is the runner's own)."""
    result = ScriptRunner(parse(state.script())).run()
    assert result.failures == []
    replayed, played = result.game.snapshot(), state.game.snapshot()
    assert {**replayed, "rng": None} == {**played, "rng": None}


def test_issue37_lone_closing_names_a_throw_or_the_end_of_a_turn_alone():
    state = new_game("standard", ["Ann", "Bob"], 0)
    ann = state.game.players[0]
    request = state.request
    assert request.kind == WINDOW_BEFORE and state.legal_actions() == [Roll(ann)]
    assert lone_closing(request, state.legal_actions()) == Roll(ann)
    assert lone_closing(request, [Roll(ann, (3, 4))]) is None  # dice chosen: a choice
    assert lone_closing(request, []) is None and lone_closing(None, [Roll(ann)]) is None
    after = Request("window_after", ann, (EndTurn,))
    assert lone_closing(after, [EndTurn(ann)]) == EndTurn(ann)
    assert lone_closing(Request("buy", ann, ()), [EndTurn(ann)]) is None  # no window


@pytest.mark.parametrize("players", [2, 3])
def test_issue37_the_aec_env_asks_no_lone_window_and_plays_the_same_game(players):
    """A first-legal-slot policy plays the same game either way (a lone window's one slot
    is the first): fewer steps, the same record, the same sum of rewards for every seat
    (each skipped step is shaped and settled as an asked one, summed until the seat acts)."""
    runs = {}
    for lone in ("ask", "skip"):
        env = agents.env("standard", players, seed=2, max_turns=60, lone_windows=lone,
                         state_info=False)
        runs[lone] = (*first_slot_episode(env, 2), env.table.state)
    (asked, asked_total, asked_lone, played), (taken, total, lone, state) = \
        runs["ask"], runs["skip"]
    assert asked_lone > 0 and lone == 0
    assert state.history == played.history and taken < asked
    assert asked - taken == asked_lone  # each lone window, a step the agents no longer take
    lines = state.history
    assert any(" rolls " in line for line in lines) and any(line.endswith(" ends turn")
                                                            for line in lines)
    for agent, value in asked_total.items():
        assert total[agent] == pytest.approx(value)
    replays(state)


def test_issue37_the_aec_env_settles_a_seat_out_in_a_skipped_step():
    """A game whose seats go bankrupt (and end) inside lone windows taken by the table: each
    dead seat still takes its closing step, and the episode ends."""
    env = agents.env("standard", 3, seed=0, state_info=True)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(30000):
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert not lone_slot(env.table)
            assert info["state"]["legal"] == np.flatnonzero(obs["action_mask"]).tolist()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        assert env.agents == []


def test_issue37_the_single_seat_env_asks_no_lone_window_and_its_rewards_add_up():
    """Gymnasium: the same game for a first-legal-slot agent either way; undiscounted, the
    rewards of the steps add up to the same sum (the shaping telescopes over the windows the
    environment took inside a step, as over the bots' moves)."""
    runs = {}
    for lone in ("ask", "skip"):
        env = agents.single("standard", opponents="greedy", seed=4, max_turns=80, gamma=1.0,
                            lone_windows=lone)
        obs, _ = env.reset(seed=4)
        steps, total, asked_lone, done = 0, 0.0, 0, False
        while not done:
            asked_lone += lone_slot(env.table)
            obs, reward, term, trunc, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            total += reward
            steps += 1
            done = term or trunc
        runs[lone] = (steps, total, asked_lone, env.table.state)
    (asked, asked_total, asked_lone, played), (taken, total, lone, state) = \
        runs["ask"], runs["skip"]
    assert asked_lone > 0 and lone == 0 and taken == asked - asked_lone
    assert state.history == played.history
    assert total == pytest.approx(asked_total)
    replays(state)


def test_issue37_gymnasium_make_takes_the_option():
    env = gymnasium.make("easymoney/Standard-v1", lone_windows="ask").unwrapped
    env.reset(seed=0)
    assert env.table.lone_windows == "ask" and lone_slot(env.table)  # Ann's first throw
    env = gymnasium.make("easymoney/Standard-v1").unwrapped
    env.reset(seed=0)
    assert env.table.lone_windows == "skip" and not lone_slot(env.table)
    assert env.table.state.history[0].startswith("Ann rolls ")


@pytest.mark.parametrize("make", [agents.env, agents.single])
@pytest.mark.parametrize("value", ["sometimes", True, None])
def test_issue37_a_bad_lone_windows_is_one_error(make, value):
    with pytest.raises(UsageError, match="lone_windows") as caught:
        make("standard", seed=0, lone_windows=value)
    assert "\n" not in str(caught.value) and isinstance(caught.value, EasyMoneyError)


def test_issue37_an_illegal_slot_still_raises_and_changes_nothing():
    env = agents.env("standard", 2, seed=0)
    env.reset(seed=0)
    state = env.table.state
    before, steps = state.game.snapshot(), state.steps
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(agents.ActionNotInMask, match="is not legal now") as caught:
        env.step(illegal)
    assert "\n" not in str(caught.value)
    assert state.game.snapshot() == before and state.steps == steps


def test_issue37_a_policy_trained_either_way_loads_and_plays(tmp_path: Path):
    from easymoney.agents.policy import Policy, save_policy
    from easymoney.strategies import make_strategy
    for lone in ("ask", "skip"):
        env = agents.single(lone_windows=lone)
        rng = np.random.default_rng(0)
        n, m = env.table.layout.size, env.table.catalogue.size
        path = tmp_path / f"{lone}.npz"
        save_policy(path, [(rng.normal(0, 0.3, (n, m)), np.zeros(m))], env)
        assert Policy(str(path)).header["lone_windows"] == lone
        state = new_game("standard", ["Ann", "Bob"], 5, keep_log=False)
        bots = {"Ann": make_strategy(f"policy:{path}"), "Bob": make_strategy("random")}
        while not state.is_over and state.game.turns_played < 40:
            state.apply(bots[state.request.player.name].decide(state.game, state.request))
        assert state.game.turns_played >= 40 or state.is_over


# --- OpenSpiel ---------------------------------------------------------------------------------

def spiel_episode(lone: str, seed: int) -> tuple[Any, int, int]:
    """A first-legal-move game, chance drawn from `seed`: (the state, the decisions, the
    lone windows among them)."""
    spiel = pytest.importorskip("easymoney.agents.spiel", reason="open_spiel is not installed")
    game = spiel.game("standard", 2, max_turns=60, lone_windows=lone)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    decisions = lone_ones = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
            continue
        legal = state.legal_actions()
        request = state.game_state.request
        lone_ones += (request.kind in WINDOW_KINDS and len(legal) == 1
                      and state.action_to_string(legal[0]) in CLOSING)
        state.apply_action(legal[0])
        decisions += 1
    return state, decisions, lone_ones


def test_issue37_openspiel_takes_a_lone_window_and_keeps_its_dice_a_chance_node():
    (asked, asked_decisions, asked_lone), (state, decisions, lone) = \
        spiel_episode("ask", 1), spiel_episode("skip", 1)
    assert asked_lone > 0 and lone == 0 and decisions == asked_decisions - asked_lone
    assert state.game_state.history == asked.game_state.history  # the same game
    assert state.returns() == asked.returns()
    assert len(state.history()) < len(asked.history())
    replays(state.game_state)
    game = state.get_game()
    assert game.get_parameters()["lone_windows"] == "skip"
    start = game.new_initial_state()  # Ann's lone throw: the game starts at its dice
    assert start.is_chance_node() and start.history() == [] and start.move_number() == 0


def test_issue37_openspiel_states_replay_from_their_history_and_serialise():
    spiel = pytest.importorskip("easymoney.agents.spiel", reason="open_spiel is not installed")
    game = spiel.game("standard", 2)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            move = int(outcomes[rng.choice(len(outcomes), p=probs)])
        else:
            legal = state.legal_actions()
            move = int(legal[rng.integers(len(legal))])
        state.apply_action(move)
    replayed = game.new_initial_state()
    for move in state.history():
        replayed.apply_action(move)
    back = game.deserialize_state(state.serialize())
    twin = state.clone()
    for other in (replayed, back, twin):
        assert other.game_state.history == state.game_state.history
        assert other.current_player() == state.current_player()
        assert other.history() == state.history()
        assert other.legal_actions() == state.legal_actions()
        assert other.play.skipped == state.play.skipped > 0


def test_issue37_openspiel_counts_the_lone_windows_towards_max_steps():
    """`max_steps` cuts the game where it would cut it if the lone windows were asked."""
    ends = []
    for lone in ("ask", "skip"):
        spiel = pytest.importorskip("easymoney.agents.spiel")
        state = spiel.game("standard", 2, max_steps=60, lone_windows=lone).new_initial_state()
        while not state.is_terminal():
            legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            state.apply_action(legal[0])
        assert state.play.steps == 60 and len(state.history()) <= 60
        ends.append(state.game_state.history)
    assert ends[0] == ends[1]


def test_issue37_a_bad_openspiel_lone_windows_is_one_error():
    spiel = pytest.importorskip("easymoney.agents.spiel", reason="open_spiel is not installed")
    with pytest.raises(spiel.SpielParameterError, match="lone_windows") as caught:
        spiel.game("standard", 2, lone_windows="never")
    assert "\n" not in str(caught.value)


# --- a plugin's window that no throw or end of turn closes ---------------------------------

READY = '''
"""House rule: before each turn's window, its player says they are ready."""
from dataclasses import dataclass
from easymoney import WINDOW_BEFORE, Answer, Player, Request, hookimpl

PLUGIN_ID = "ready"


@dataclass(slots=True)
class Ready(Answer):
    LINE = "{player} is ready"
    player: Player
    verb = "get ready"

    def apply(self, game):
        pass


ACTIONS = (Ready,)


@hookimpl
def em_turn_start(game, player):
    game.ask(Request(WINDOW_BEFORE, player, (Ready,)))
'''


@pytest.fixture
def ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with stand_in(tmp_path, monkeypatch, {"em_ready": ("ready", READY)}):
        yield


def test_issue37_a_plugins_window_with_one_other_action_is_still_asked(ready: None):
    env = agents.env("standard", 2, seed=0, enable=["ready"], state_info=False)
    env.reset(seed=0)
    names = [env.catalogue.name(int(k))
             for k in np.flatnonzero(env.observe(env.agent_selection)["action_mask"])]
    assert env.table.state.request.kind == WINDOW_BEFORE and names == ["Ready"]
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.table.state.history[:2] == ["Ann is ready", env.table.state.history[1]]
    assert env.table.state.history[1].startswith("Ann rolls ")  # the lone throw: taken
    spiel = pytest.importorskip("easymoney.agents.spiel", reason="open_spiel is not installed")
    state = spiel.game("standard", 2, enable="ready").new_initial_state()
    assert not state.is_chance_node() and state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["Ready"]


# --- programs at a seat ------------------------------------------------------------------------

TEE = ("import json, sys\n"
       "log = open(%r, 'a')\n"
       "for line in sys.stdin:\n"
       "    log.write(line); log.flush()\n"
       "    m = json.loads(line)\n"
       "    if m['type'] == 'hello': print(json.dumps({'ready': True}), flush=True)\n"
       "    elif m['type'] == 'decide': print(json.dumps({'index': 0, 'amount': "
       "m['actions'][0].get('least')}), flush=True)\n"
       "    elif m['type'] == 'bye': break\n")


def test_issue37_a_program_is_not_asked_a_lone_window(tmp_path: Path):
    """The program answers the first line each time: it buys, and is asked its windows
    when they offer more than closing them; the record has every throw and end of its
    turns, and replays."""
    import sys

    from easymoney import seats
    from easymoney.strategies import make_strategy
    log = tmp_path / "heard.jsonl"
    program = tmp_path / "tee.py"
    program.write_text(TEE % str(log), encoding="utf-8")
    strategy = make_strategy(f'exec:"{sys.executable} {program}"')
    state = new_game("standard", ["Ann", "Bob"], 3, keep_log=False)
    bots = {"Ann": strategy, "Bob": make_strategy("cautious")}
    try:
        while not state.is_over and state.game.turns_played < 40:
            request = state.request
            state.apply(bots[request.player.name].decide(state.game, request))
    finally:
        seats.close_strategies([strategy])
    heard = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    decides = [m for m in heard if m["type"] == "decide"]
    windows = [m for m in decides if m["request"]["kind"] in WINDOW_KINDS]
    assert windows and all(len(m["actions"]) > 1 for m in windows)
    rolls = [line for line in state.history if line.startswith("Ann rolls ")]
    ends = [line for line in state.history if line == "Ann ends turn"]
    assert len(rolls) >= 19 and len(ends) >= 19 and len(windows) < len(rolls) + len(ends)
    replays(state)
