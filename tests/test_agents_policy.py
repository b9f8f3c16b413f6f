"""Issue 40 part 4: a trained agent is a strategy. `policy:FILE` (a saved policy, numpy's
.npz with a JSON header) plays in `simulate`; a file that is not a policy, is truncated,
or was trained on another seat count or action space is one EasyMoneyError line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="numpy (the agents extra) is not installed")

import easymoney.agents as agents  # noqa: E402
from easymoney.agents.policy import Policy, PolicyError, PolicyStrategy, save_policy  # noqa: E402
from easymoney.script.table import new_game  # noqa: E402
from easymoney.strategies import make_strategy  # noqa: E402


def random_policy(path: Path, env, seed: int = 0, hidden: int = 16) -> Path:
    """An MLP of hand-drawn weights for `env`: no training library needed."""
    rng = np.random.default_rng(seed)
    n, m = env.table.layout.size, env.table.catalogue.size
    save_policy(path, [(rng.normal(0, 0.3, (n, hidden)), rng.normal(0, 0.1, hidden)),
                       (rng.normal(0, 0.3, (hidden, m)), np.zeros(m))], env,
                obs_mean=np.full(n, 0.1), obs_var=np.full(n, 0.05))
    return path


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory) -> Path:
    return random_policy(tmp_path_factory.mktemp("policy") / "agent.npz", agents.single())


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "easymoney", "simulate", *args],
                          capture_output=True, text=True, timeout=300)


def test_issue40_a_policy_plays_a_whole_game_with_numpy_alone(policy_file):
    strategy = make_strategy(f"policy:{policy_file}")
    assert isinstance(strategy, PolicyStrategy)
    histories = []
    for _ in range(2):
        state = new_game("standard", ["Ann", "Bob"], 5, keep_log=False)
        bots = {"Ann": make_strategy(f"policy:{policy_file}"), "Bob": make_strategy("random")}
        while not state.is_over and state.game.turns_played < 300:
            request = state.request
            state.apply(bots[request.player.name].decide(state.game, request))
        histories.append(state.history)
    assert histories[0] == histories[1] and len(histories[0]) > 100  # deterministic


def test_issue40_a_policy_seat_plays_in_simulate(policy_file):
    done = simulate("--games", "2", "--players", "2", "--seed", "3",
                    "--strategies", f"policy:{policy_file},random")
    assert done.returncode == 0, done.stderr
    assert "policy:" in done.stdout


def test_issue40_a_policy_of_another_seat_count_is_one_line(policy_file):
    done = simulate("--games", "1", "--players", "3", "--strategies", f"policy:{policy_file}")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(policy_file) in lines[0] and "2 seats" in lines[0]


@pytest.mark.parametrize("extra", [("--players", "3"), ("no-four-sides",)])
def test_issue40_a_policy_of_another_game_is_refused_before_any_game(policy_file, extra):
    """The variant and seat count a policy was trained on are checked before the first
    game is played: nothing is printed of a game, and the one line says what differs."""
    done = simulate("--games", "3", *extra, "--strategies", f"policy:{policy_file}")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and str(policy_file) in done.stderr
    assert ("2 seats" if "--players" in extra else "trained on variant 'standard'") in done.stderr


def test_issue40_a_policy_of_another_action_space_is_one_line(tmp_path):
    path = random_policy(tmp_path / "tax.npz", agents.single(enable=["tax_choice"]))
    state = new_game("standard", ["Ann", "Bob"], 1, keep_log=False)
    with pytest.raises(PolicyError, match="another action space") as caught:
        make_strategy(f"policy:{path}").decide(state.game, state.request)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


@pytest.mark.parametrize("spoil", ["truncated", "text", "empty", "no header", "missing"])
def test_issue40_a_file_that_is_no_policy_is_one_line_before_any_game(policy_file, tmp_path, spoil):
    bad = tmp_path / "bad.npz"
    data = policy_file.read_bytes()
    if spoil == "truncated":
        bad.write_bytes(data[: len(data) // 2])
    elif spoil == "text":
        bad.write_text("not a policy\n")
    elif spoil == "empty":
        bad.write_bytes(b"")
    elif spoil == "no header":
        np.savez(bad, W0=np.zeros((2, 2)), b0=np.zeros(2))
    with pytest.raises(PolicyError) as caught:
        Policy(str(bad))
    assert "\n" not in str(caught.value) and str(bad) in str(caught.value)
    done = simulate("--games", "1", "--players", "2", "--strategies", f"policy:{bad}")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["compare", "standard", "standard"],
                                     ["sweep", "standard", "--vary", "auction.increment=10,20"]])
def test_issue40_a_policy_seat_plays_in_compare_and_sweep(policy_file, command):
    done = subprocess.run([sys.executable, "-m", "easymoney", *command, "--games", "2",
                           "--players", "2", "--strategies", f"policy:{policy_file},random"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_issue40_a_policy_has_its_line_on_the_analyze_ladder(policy_file):
    done = subprocess.run([sys.executable, "-m", "easymoney", "analyze", "standard",
                           "--players", "2", "--games", "2", "--ladder-games", "1",
                           "--ladder-mc", f"policy:{policy_file}", "--ladder-mc-games", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"greedy vs policy:{policy_file} (2 games)" in done.stdout


def test_issue40_the_page_does_not_open_a_policy_path_it_is_given(policy_file):
    """A seat of the page naming policy:FILE would read a file of the server's choosing
    by the visitor's path: refused in one line, as a program's seat is."""
    from easymoney.errors import UsageError
    from easymoney.web.games import parse_seats
    with pytest.raises(UsageError, match="not seated from the page") as caught:
        parse_seats(f"Ann Bob:policy:{policy_file}")
    assert "\n" not in str(caught.value)


def test_issue40_a_policy_plays_a_scripts_seat_and_at_the_prompt(policy_file, tmp_path):
    """`players Ann:greedy Bob:policy:FILE` (a path, or one in quotes) in a script, and
    `play -i --players Ann Bob:policy:FILE`: the trained agent answers for Bob."""
    spaced = tmp_path / "my agent.npz"
    spaced.write_bytes(policy_file.read_bytes())
    for seat in (f"Bob:policy:{policy_file}", f'Bob:policy:"{spaced}"'):
        game = tmp_path / "agent.game"
        game.write_text(f"players Ann:greedy {seat}\nseed 1\nautoplay 6 turns\n")
        done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(game)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "Turn 6" in done.stdout
    answers = "Ann rolls\nAnn declines\nAnn passes\nquit\n"
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", "-i", "--seed", "2",
                           "--players", "Ann", f"Bob:policy:{policy_file}"], input=answers,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Bob bids" in done.stdout or "Bob passes" in done.stdout


def test_issue40_a_scripts_policy_seat_of_a_missing_file_is_one_located_error(tmp_path):
    game = tmp_path / "agent.game"
    game.write_text(f"players Ann Bob:policy:{tmp_path / 'none.npz'}\nseed 1\n")
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(game)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"{game}:1:") and "no such file" in first and "^" in done.stderr


@pytest.mark.parametrize("settings", ["example", "common"])
def test_issue40_train_ppo_export_plays_as_the_model_does_and_in_simulate(tmp_path, settings):
    """examples/agents/train_ppo.py's --export after a tiny training: the numpy forward pass
    of the file chooses the slot the trained model chooses (with the example's observation
    normaliser and without one), and the file plays a seat of `easymoney simulate`."""
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    pytest.importorskip("sb3_contrib", reason="the train extra (sb3-contrib) is not installed")
    import importlib.util
    path = Path(__file__).resolve().parent.parent / "examples" / "agents" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo_export", path)
    ppo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ppo)
    model, norm, _ = ppo.train("standard", cpu_minutes=0.01, seed=1, env="defaults",
                               settings=settings)
    exported = tmp_path / "agent.npz"
    ppo.export(model, norm, str(exported), "standard", "defaults")
    policy = Policy(str(exported))
    assert (policy.mean is not None) == (settings == "example")
    env = ppo.make_env("standard", "Ann", "random", 5, 400, "defaults")
    obs, _ = env.reset(seed=5)
    for _ in range(60):
        mask = env.action_masks()
        chosen, _ = model.predict(norm.normalize_obs(obs[None])[0], deterministic=True,
                                  action_masks=mask)
        logits = policy.logits(obs)
        logits[~mask] = -np.inf
        assert int(np.argmax(logits)) == int(chosen)
        obs, _, terminated, truncated, _ = env.step(int(chosen))
        if terminated or truncated:
            break
    done = simulate("--games", "1", "--players", "2", "--seed", "3", "--max-turns", "60",
                    "--strategies", f"policy:{exported},random")
    assert done.returncode == 0, done.stderr
    assert f"policy:{exported}" in done.stdout
