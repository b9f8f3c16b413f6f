"""Issue 20, part 1: the PettingZoo environment, its action catalogue and mask, and the
single-seat Gymnasium wrapper (easymoney.agents)."""

from __future__ import annotations

import re
import shutil
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import easymoney.agents as agents  # noqa: E402
from agent_helpers import classic_env, classic_single  # noqa: E402
from easymoney.agents.table import ActionNotInMask  # noqa: E402
from easymoney.errors import EasyMoneyError, GameOverError, UsageError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RAILROADS = str(ROOT / "examples" / "variants" / "railroads.yaml")
JAIL = str(ROOT / "tests" / "data" / "variants" / "jail.yaml")
SHIPPED = ["standard", "reference-card", "classic-1936", "no-four-sides"]


def play_random(env, steps: int, seed: int = 0, each=None) -> list[str]:
    """`steps` steps of random legal slots from `seed`; `each()` before every step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _, agent in zip(range(steps), env.agent_iter()):
        if each is not None:
            each()
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return env.table.state.history


@pytest.mark.parametrize("variant", SHIPPED + [RAILROADS, JAIL])
def test_issue20_api_test_passes(variant):
    env = classic_env(variant, 2, seed=3, max_turns=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=150)


def test_issue20_api_test_with_three_seats_and_bankruptcies():
    env = classic_env("standard", ["Ann", "Bob", "Cy"], seed=5, max_turns=300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=400)


@pytest.mark.parametrize("variant", ["standard", RAILROADS, JAIL])
def test_issue20_the_mask_is_exactly_the_legal_actions(variant):
    """Every legal slot's action is legal; every listed action (a range: both ends) has a
    slot; a plugin's actions (the railroads' Lend, with its amount) among them."""
    env = classic_env(variant, 3, seed=2, max_turns=80, state_info=False)
    rng = np.random.default_rng(1)
    cat = env.catalogue
    checked = 0
    seen: set[str] = set()
    for seed in range(6):
        env.reset(seed=seed)
        checked += check_masks(env, cat, rng, seen)
    assert checked > 150
    if variant == RAILROADS:
        assert "Lend" in seen


def check_masks(env, cat, rng, seen: set[str]) -> int:
    checked = 0
    for agent in env.agent_iter(600):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        state = env.table.state
        legal = np.flatnonzero(obs["action_mask"])
        slots = env.table.slots()
        assert sorted(slots) == list(legal)
        for slot in legal:
            assert state.is_legal(cat.action(slots[int(slot)])), cat.name(int(slot))
        covered = {str(cat.action(e)) for e in slots.values()}
        seen.update(cat.name(int(slot)).split()[0] for slot in legal)
        for found in env.table.offered():  # the listing less a closed window's deals (issue 30)
            ends = [found.at(found.least), found.at(found.most)] if hasattr(found, "at") else [found]
            assert all(str(a) in covered for a in ends), found
        checked += 1
        env.step(int(legal[rng.integers(len(legal))]))
    return checked


def test_issue20_a_plugins_actions_join_the_catalogue():
    names = set(n.split()[0] for n in classic_env("standard", 2, seed=0).catalogue.names)
    assert "Lend" not in names and "PayBail" not in names
    assert {"Roll", "Bid", "Sell", "Accept", "Reject"} <= names
    assert len(classic_env("standard", 2, seed=0).catalogue) == 1215  # as docs/agents.md counts
    rail = classic_env(RAILROADS, 2, seed=0).catalogue
    assert any(n.startswith("Lend borrower=") or n.startswith("Lend ") for n in rail.names)
    jail = set(n.split()[0] for n in classic_env(JAIL, 2, seed=0).catalogue.names)
    assert {"PayBail", "ServeTime"} <= jail


def test_issue20_the_jail_request_is_asked_of_its_agent():
    """A plugin's request kind selects its player and is one-hot in the observation."""
    env = classic_env(JAIL, 2, seed=0, max_turns=400)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    layout = env.table.layout
    assert "jail" in layout.kinds
    seen = False
    for agent in env.agent_iter(40_000):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:  # a game with no one sent to jail: the next one
                env.reset()
            continue
        request = env.table.state.request
        assert agent == request.player.name
        if request.kind == "jail":
            seen = True
            assert info["state"]["asked"]["kind"] == "jail"
            assert obs["observation"][-1 - len(layout.kinds) + layout.kinds.index("jail")] == 1
            names = [env.catalogue.name(int(s)) for s in np.flatnonzero(obs["action_mask"])]
            assert set(names) >= {"PayBail", "ServeTime"}
            break
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert seen


def test_issue20_seeds_are_reproducible():
    a = play_random(classic_env("standard", 2, max_turns=200), 400, seed=7)
    b = play_random(classic_env("standard", 2, max_turns=200), 400, seed=7)
    c = play_random(classic_env("standard", 2, max_turns=200), 400, seed=8)
    assert a == b and a != c


def test_issue20_truncation_at_the_turn_limit():
    env = classic_env("standard", 2, seed=1, max_turns=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter(2000):
        obs, reward, term, trunc, _ = env.last()
        if trunc:
            assert env.table.state.game.turns_played >= 3 and reward == 0
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert env.agents == [] and env.table.state.outcome is None


def test_issue20_rewards_at_the_end():
    env = classic_env("standard", 2, seed=4, max_turns=5000, state_info=False)
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    final = {}
    for agent in env.agent_iter(200000):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        assert reward == 0
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    outcome = env.table.state.outcome
    assert outcome is not None
    for seat, reward in final.items():
        assert reward == (1 / len(outcome.winners) if seat in outcome.winners else -1)


def test_issue20_observation_and_state_dict():
    env = classic_env("standard", ["Ann", "Bob"], seed=0)
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    assert obs["observation"].dtype == np.float32
    assert obs["observation"].shape == env.observation_space("Ann")["observation"].shape
    facts = info["state"]
    assert facts["me"] == "Ann" and facts["asked"]["player"] == "Ann"
    money = env.table.layout.money  # cash is scaled by the money in the game (issue 30)
    assert [p["cash"] for p in facts["players"]] == [round(float(v) * money)
                                                     for v in obs["observation"][[1, 6]]]
    assert not env.observe("Bob")["action_mask"].any()


def test_issue20_render_ansi_is_the_text_board():
    from easymoney.board.state import BoardState
    from easymoney.board.text import text_board
    env = classic_env("standard", 2, seed=0, render_mode="ansi")
    env.reset(seed=0)
    game = env.table.state.game
    assert env.render() == text_board(BoardState.of(game, game.turns_played))


def test_issue20_an_action_outside_the_mask_is_one_error_and_changes_nothing():
    env = classic_env("standard", 2, seed=0)
    env.reset(seed=0)
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.table.state.game.snapshot()
    with pytest.raises(ActionNotInMask, match=r"is not legal now: the game waits for Ann"):
        env.step(bad)
    with pytest.raises(ActionNotInMask, match=r"which is no slot"):
        env.step(10**6)
    assert issubclass(ActionNotInMask, EasyMoneyError)
    assert env.table.state.game.snapshot() == before and env.agent_selection == "Ann"


def test_issue20_an_observation_of_a_finished_game_is_one_error():
    env = classic_env("standard", 2, seed=1, max_turns=2)
    with pytest.raises(GameOverError, match="reset"):
        env.observe("Ann")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter(5000):
        obs, _, term, trunc, _ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(legal[rng.integers(len(legal))]))
    assert env.agents == []
    with pytest.raises(GameOverError, match=r"Ann has left the game .*reset\(\) starts another"):
        env.observe("Ann")
    with pytest.raises(UsageError, match="no seat 'Zed'"):
        env.observe("Zed")


def test_issue20_bad_setup_is_one_error():
    with pytest.raises(EasyMoneyError, match="nosuch"):
        classic_env("nosuch", 2)
    with pytest.raises(UsageError, match="render_mode"):
        classic_env("standard", 2, render_mode="human")
    with pytest.raises(UsageError, match="no seat 'Zed'"):
        classic_single("standard", seat="Zed")


def test_issue20_single_seat_passes_the_gymnasium_checker():
    env = classic_single("standard", seat="Ann", opponents="cautious", seed=3,
                        illegal="penalty", render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=False)


def test_issue20_single_seat_plays_against_bots():
    env = classic_single("standard", seat="Bob", opponents="greedy", seed=2, max_turns=400)
    obs, info = env.reset(seed=2)
    assert info["state"]["asked"]["player"] == "Bob"
    rng = np.random.default_rng(0)
    steps, done = 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == list(np.flatnonzero(env.action_masks()))
        obs, reward, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        done = term or trunc
        steps += 1
    assert reward in (-1.0, 0.0, 1.0, 0.5) and steps > 1
    with pytest.raises(GameOverError, match=r"reset\(\) starts another"):
        env.step(0)


def test_issue20_single_seat_refuses_an_action_outside_the_mask():
    env = classic_single("standard", seed=0, illegal="raise")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ActionNotInMask):
        env.step(bad)
    penalised = classic_single("standard", seed=0, illegal="penalty", penalty=-0.5)
    obs, _ = penalised.reset(seed=0)
    before = penalised.table.state.history
    obs2, reward, term, trunc, _ = penalised.step(bad)
    assert reward == -0.5 and not term and penalised.table.state.history == before
    with pytest.raises(ActionNotInMask, match="which is no slot"):  # no slot at all (issue 30)
        penalised.step(None)
    assert penalised.table.state.history == before


def test_issue20_the_random_agent_of_the_docs_runs():
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(# a random masked agent.*?)```", text, re.S)
    assert block, "docs/agents.md lost its random agent"
    code = block.group(1)
    assert len(code.strip().splitlines()) <= 12
    scope: dict[str, object] = {}
    exec(compile(code, "docs/agents.md", "exec"), scope)


def test_issue20_the_bench_prints_steps_a_second():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_agents.py"), "--steps", "300"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert re.search(r"random masked agent.* [\d,]+ steps/s", done.stdout)
    assert "the engine listing legal actions" in done.stdout
    alone = re.search(r"the agent choosing .*: [\d.]+s .*the environment alone: [\d,]+ steps/s",
                      done.stdout)
    assert alone is not None


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_issue20_the_instructions_of_an_environment_step_are_counted():
    """bench/instructions.py: valgrind's count (over one game: under valgrind the import of
    the agents' libraries alone takes a minute) and the steps its --env runs play."""
    import subprocess
    import sys
    script = str(ROOT / "bench" / "instructions.py")
    done = subprocess.run([sys.executable, script, "--games", "1"], capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    found = re.search(r"1 games: ([\d,]+) player-turns, ([\d,]+) instructions a player-turn",
                      done.stdout)
    assert found is not None, done.stdout
    assert int(found.group(2).replace(",", "")) > 10_000  # a turn is far more than a few calls
    played = subprocess.run([sys.executable, script, "--play-env", "40", "--warmup", "10"],
                            capture_output=True, text=True, timeout=120, check=False)
    assert played.returncode == 0, played.stderr
    # the steps counted, as the count divides by them, then the game's steps they took
    # (the lone windows the environment took itself among them: issue 37)
    steps, game_steps = played.stdout.split()[-2:]
    assert steps == "40" and int(game_steps) >= 40


@pytest.mark.parametrize("variant", ["standard", RAILROADS])
def test_issue37_the_kept_estates_are_the_estates_now(variant):
    """The equity shaping keeps each player's equity less cash while the board stays (and
    the turn, on a board with a third party's kind of space, whose value may read more):
    at every step it is what it is computed afresh."""
    env = agents.env(variant, 2, seed=3, state_info=False)
    table = env.table
    assert table._estate_by_turn is (variant == RAILROADS)

    def check() -> None:
        players = table.state.game.players
        assert table._estates() == [table.equity(p) - p.cash for p in players]
    play_random(env, 1500, seed=3, each=check)
