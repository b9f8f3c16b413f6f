"""Train a masked PPO agent (sb3-contrib's MaskablePPO) on one CPU core, then evaluate it.

    pip install 'easymoney-game[train]'       # sb3-contrib, torch (CPU is enough)
    python examples/agents/train_ppo.py [--cpu-minutes 20] [--variant standard]
                                        [--eval-games 200] [--save agent.zip]
                                        [--export agent.npz]
                                        [--env example|defaults] [--settings example|common]

The agent is one seat of a 2-player game against the built-in bots (easymoney.agents.single),
half its games as the first seat, half as the second, its opponents drawn from `random`,
`greedy` and `cautious` (one training environment each per seat). What makes it learn:

- actions="compact": a bid or a sale at a fraction of the space's value, so that most
  masked slots are game moves rather than deals;
- raise_in_windows=False: no mortgage in a window, only to pay a debt (as the built-in
  bots play): a mortgage's cost (rent not earned, the interest on redeeming) shows many
  steps later, and agents that could mortgage at will mortgaged and redeemed every turn;
- shaping="equity": potential-based shaping from the equity share (R28 worth, a mortgaged
  space counted at its value less its mortgage value), with PPO's own gamma: it keeps the
  best policy (the terminal +1/-1 is still what is maximised), and a redemption is not a
  large reward that a policy chases by mortgaging first;
- lone_windows="skip": a window whose only move closes it (the throw, the end of the turn)
  is taken by the environment, not asked: no step of the agent's is a choice of one;
- the observation in [0, 1], normalised further by a running mean (VecNormalize).

`--env defaults` trains on single() with no environment option (the turn limit
`end.max_turns` is the variant's rule option, not the environment's), and `--settings
common` with MaskablePPO's common settings (gamma 0.995, n_steps 2048, 5 epochs, no
VecNormalize): how a researcher starting from the environment as made would train.

Training stops after `--cpu-minutes` of this process's CPU time (one torch thread), then
plays `--eval-games` fresh games (seeds no training game used) against each bot, the
agent choosing its most likely legal slot, and prints each win rate with its 95% (Wilson)
interval. docs/agents.md describes it; bench/bench_learning.py runs it for its figures.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

import easymoney.agents
from easymoney.simulate.stats import wilson

OPPONENTS = ("random", "greedy", "cautious")
SEATS = ("Ann", "Bob")
# PPO's discount, and the shaping's (the same gamma keeps the best policy): close to 1, as a
# discount per step lets a seat that expects to lose gain by stalling, its -1 put off
GAMMA = 0.999
# Games end by the rules at a turn limit (the `end` rule's `end.max_turns`, R28: the richer
# seat wins), as `easymoney simulate` ends them at 1,000 turns: a win is a win by the rules,
# not a truncation. Training games are shorter, so that a result comes back sooner.
TRAIN_TURNS = 400
EVAL_TURNS = 1000
EVAL_SEED = 10**9      # evaluation seeds start here; training seeds are far below
# the environment's own cut (truncation) lies past every game's turn limit, so that it never
# comes first, and scales the observation's turn count the same in training and evaluation
ENV_OPTIONS: dict[str, Any] = {"actions": "compact", "raise_in_windows": False,
                               "shaping": "equity", "gamma": GAMMA, "lone_windows": "skip",
                               "max_turns": EVAL_TURNS + 1}
# `env`: "example" gives single() the options above; "defaults" gives it none, only the
# variant's rule option `end.max_turns` (a rule of the game, not an environment option), as
# a learner who starts from single() as made would (issue 40's figure)
ENVS = ("example", "defaults")
# `settings`: the example's tuned MaskablePPO, or common settings of the library as a
# researcher starts with them (issue 40's reporter): the observation is already in [0, 1],
# so `common` does not normalise it further
SETTINGS: dict[str, dict[str, Any]] = {
    "example": {"gamma": GAMMA, "gae_lambda": 0.95, "n_steps": 256, "batch_size": 256,
                "n_epochs": 4, "learning_rate": 3e-4, "ent_coef": 0.01},
    "common": {"gamma": 0.995, "gae_lambda": 0.95, "n_steps": 2048, "batch_size": 256,
               "n_epochs": 5, "learning_rate": 3e-4, "ent_coef": 0.01},
}
NORMALISE_OBS = {"example": True, "common": False}


class BoxObservation(gymnasium.ObservationWrapper):  # type: ignore[misc]
    """The observation vector alone (a Box, as MaskablePPO's MLP takes it); the mask is
    `action_masks()`, which MaskablePPO asks the environment for."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks().astype(bool)


def make_env(variant: str, seat: str, opponent: str, seed: int, turns: int,
             env: str = "example", **options: Any) -> BoxObservation:
    """The agent's seat of a game that ends by the rules after `turns` player-turns, with
    the example's environment options (`env="example"`) or none (`"defaults"`)."""
    given = {**ENV_OPTIONS, **options} if env == "example" else {}
    made = easymoney.agents.single(variant, seat=seat, opponents=opponent, players=list(SEATS),
                                   seed=seed, options=[f"end.max_turns={turns}"], **given)
    return BoxObservation(made)


class CpuBudget(BaseCallback):  # type: ignore[misc]
    """Stops training once this process has used `seconds` of CPU time since it started."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.start = time.process_time()

    def _on_step(self) -> bool:
        return time.process_time() - self.start < self.seconds


def train(variant: str = "standard", cpu_minutes: float = 20.0, seed: int = 0,
          verbose: int = 0, env: str = "example",
          settings: str = "example") -> tuple[MaskablePPO, VecNormalize, dict[str, float]]:
    """A MaskablePPO agent trained for `cpu_minutes` of CPU time on one thread, on the
    environment `env` (ENVS) with the hyper-parameters `settings` (SETTINGS): (the model,
    its observation normaliser, figures of the run)."""
    if env not in ENVS or settings not in SETTINGS:
        raise ValueError(f"env {env!r} or settings {settings!r}: env one of {', '.join(ENVS)}, "
                         f"settings one of {', '.join(SETTINGS)}")
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    makers = [(lambda s=seat, o=opponent, k=k: make_env(variant, s, o, seed * 1_000_000 + k * 100_000,
                                                         TRAIN_TURNS, env))
              for k, (seat, opponent) in enumerate((s, o) for s in SEATS for o in OPPONENTS)]
    hyper = SETTINGS[settings]
    # a VecNormalize that leaves the observation as it is under `common`, so that saving,
    # loading, evaluating and exporting read one kind of model
    venv = VecNormalize(DummyVecEnv(makers), norm_obs=NORMALISE_OBS[settings], norm_reward=False,
                        gamma=hyper["gamma"])
    model = MaskablePPO("MlpPolicy", venv, **hyper, policy_kwargs={"net_arch": [256, 256]},
                        seed=seed, verbose=verbose, device="cpu")
    start = time.process_time()
    model.learn(total_timesteps=10**10, callback=CpuBudget(cpu_minutes * 60))
    took = time.process_time() - start
    venv.training = False
    return model, venv, {"cpu_seconds": took, "steps": float(model.num_timesteps)}


def play(model: MaskablePPO, norm: VecNormalize, variant: str, seat: str, opponent: str,
         seed: int, turns: int = EVAL_TURNS, env_kind: str = "example") -> tuple[str, str]:
    """One evaluation game from `seed`, ending by the rules after `turns` player-turns at
    the latest: its result for the agent ('win', 'tie', 'loss', or 'truncated' should the
    environment cut it: not a win) and how it ended (the outcome's reason). On the
    defaults the environment's own cut is its default 1,000 turns; the game's end rule
    comes first at the same count."""
    env = make_env(variant, seat, opponent, seed, turns, env_kind,
                   max_turns=max(turns, EVAL_TURNS) + 1)
    obs, _ = env.reset(seed=seed)
    while True:
        action, _ = model.predict(norm.normalize_obs(obs[None])[0], deterministic=True,
                                  action_masks=env.action_masks())
        obs, _, terminated, truncated, _ = env.step(int(action))
        if truncated:
            return "truncated", "truncated"
        if terminated:
            outcome = env.unwrapped.table.state.outcome
            winners = outcome.winners if outcome is not None else ()
            how = outcome.reason if outcome is not None else "over"
            return ("loss" if seat not in winners else "win" if len(winners) == 1 else "tie"), how


def evaluate(model: MaskablePPO, norm: VecNormalize, variant: str, opponent: str,
             games: int, turns: int = EVAL_TURNS, env: str = "example") -> dict[str, Any]:
    """`games` fresh games against `opponent`, half as each seat: counts, how the games
    ended, and the win rate with its 95% interval."""
    counts = {"win": 0, "tie": 0, "loss": 0, "truncated": 0}
    endings: dict[str, int] = {}
    for k in range(games):
        result, how = play(model, norm, variant, SEATS[k % 2], opponent, EVAL_SEED + k, turns,
                           env)
        counts[result] += 1
        endings[how] = endings.get(how, 0) + 1
    low, high = wilson(counts["win"], games)
    return {**counts, "games": games, "rate": counts["win"] / games, "low": low, "high": high,
            "endings": endings}


def report(opponent: str, f: dict[str, Any]) -> str:
    ended = ", ".join(f"{n} by {how}" for how, n in sorted(f["endings"].items()))
    return (f"  vs {opponent:9} won {f['win']}/{f['games']} = {f['rate']:.0%} "
            f"(95% interval {f['low']:.0%} to {f['high']:.0%}; {f['tie']} tied, {f['loss']} lost, "
            f"{f['truncated']} truncated; ended {ended})")


def load(path: str, variant: str = "standard") -> tuple[MaskablePPO, VecNormalize]:
    """A model saved by `--save PATH`, with its observation normaliser."""
    torch.set_num_threads(1)
    model = MaskablePPO.load(path, device="cpu")
    dummy = DummyVecEnv([lambda: make_env(variant, SEATS[0], OPPONENTS[0], 0, TRAIN_TURNS)])
    norm = VecNormalize.load(path + ".norm.pkl", dummy)
    norm.training = False
    return model, norm


def export(model: MaskablePPO, norm: VecNormalize, path: str, variant: str = "standard",
           env_kind: str = "example") -> None:
    """The trained policy as a `policy:FILE` strategy file (easymoney.agents.policy): the
    actor's layers (mlp_extractor.policy_net, then action_net) as numpy arrays, the
    normaliser's running mean and variance, and the header of the environment it was
    trained on. Playing it needs numpy alone (`easymoney simulate --strategies
    policy:agent.npz,greedy`)."""
    from easymoney.agents.policy import save_policy
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    layers = [(m.weight.detach().cpu().numpy().T, m.bias.detach().cpu().numpy()) for m in linears]
    activation = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}[model.policy.activation_fn]
    env = make_env(variant, SEATS[0], OPPONENTS[0], 0, TRAIN_TURNS, env_kind).env
    rms = norm.obs_rms if norm.norm_obs else None  # `common` settings: no normaliser
    save_policy(path, layers, env, activation=activation,
                obs_mean=None if rms is None else rms.mean,
                obs_var=None if rms is None else rms.var, clip=float(norm.clip_obs))


def add_choices(parser: argparse.ArgumentParser) -> None:
    """--env and --settings, for this script and bench/bench_learning.py."""
    parser.add_argument("--env", choices=ENVS, default="example",
                        help="the example's environment options, or single()'s defaults "
                             "(no option but the rule option end.max_turns)")
    parser.add_argument("--settings", choices=tuple(SETTINGS), default="example",
                        help="the example's tuned MaskablePPO, or common settings (MLP 256x256, "
                             "n_steps 2048, batch 256, 5 epochs, gamma 0.995, no VecNormalize)")


def describe(variant: str, env: str, settings: str) -> str:
    """What was trained, for a report's header."""
    hyper = SETTINGS[settings]
    options = ", ".join(f"{k}={v}" for k, v in ENV_OPTIONS.items()) if env == "example" else \
        "no option (single()'s defaults)"
    return (f"{variant}, 2 seats, env {env} ({options}; end.max_turns={TRAIN_TURNS} in "
            f"training), MaskablePPO settings {settings} (gamma {hyper['gamma']}, n_steps "
            f"{hyper['n_steps']} x {len(SEATS) * len(OPPONENTS)} envs, batch {hyper['batch_size']}, "
            f"{hyper['n_epochs']} epochs, ent_coef {hyper['ent_coef']}, observation "
            f"{'normalised by VecNormalize' if NORMALISE_OBS[settings] else 'as it is'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--cpu-minutes", type=float, default=20.0)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="where to save the model (a .zip) and its normaliser")
    parser.add_argument("--export", help="where to write the policy as a policy:FILE strategy "
                        "(.npz, played with numpy alone)")
    parser.add_argument("--load", help="evaluate a model saved with --save instead of training")
    parser.add_argument("--opponents", default=",".join(OPPONENTS),
                        help="the bots to evaluate against, by name (default: %(default)s)")
    add_choices(parser)
    args = parser.parse_args()
    if args.load:
        model, norm = load(args.load, args.variant)
    else:
        model, norm, run = train(args.variant, args.cpu_minutes, args.seed, 0, args.env,
                                 args.settings)
        print(describe(args.variant, args.env, args.settings))
        print(f"trained {run['steps']:,.0f} steps in {run['cpu_seconds'] / 60:.1f} CPU-minutes")
    if args.save and not args.load:
        model.save(args.save)
        norm.save(args.save + ".norm.pkl")
    if args.export:
        export(model, norm, args.export, args.variant, args.env)
        print(f"exported the policy to {args.export}: play it as policy:{args.export}")
    for opponent in args.opponents.split(","):
        print(report(opponent, evaluate(model, norm, args.variant, opponent, args.eval_games,
                                        env=args.env)), flush=True)


if __name__ == "__main__":
    main()
