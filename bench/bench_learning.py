"""Proof that an agent learns: MaskablePPO trained for a stated number of CPU-minutes on
2-player `standard`, then evaluated on fresh seeds against each built-in bot.

    python bench/bench_learning.py [--cpu-minutes 20] [--eval-games 200] [--eval-max-turns 1000]
                                   [--variant standard] [--seed 0] [--save agent.zip]

Needs the `train` extra (sb3-contrib, torch). Runs examples/agents/train_ppo.py's training
(one torch thread; the budget is this process's CPU time, so a loaded machine takes longer
but trains as much) and its evaluation: `--eval-games` games against `random`, `greedy`
and `cautious`, half as each seat, seeds from 10^9 (no training game's), the agent taking
its most likely legal slot. Prints each win rate with its 95% (Wilson) interval, as each
opponent's games end; a game still going after `--eval-max-turns` turns is not a win.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_example():  # type: ignore[no-untyped-def]
    path = HERE.parent / "examples" / "agents" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--cpu-minutes", type=float, default=20.0)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-max-turns", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="where to save the trained model (a .zip)")
    args = parser.parse_args()
    ppo = load_example()
    model, norm, run = ppo.train(args.variant, args.cpu_minutes, args.seed)
    print(f"{args.variant}, 2 seats, MaskablePPO (compact actions, worth shaping, gamma "
          f"{ppo.GAMMA}): {run['steps']:,.0f} steps in {run['cpu_seconds'] / 60:.1f} CPU-minutes "
          f"({run['steps'] / run['cpu_seconds']:,.0f} steps/CPU-s)", flush=True)
    if args.save:
        model.save(args.save)
        norm.save(args.save + ".norm.pkl")
    for opponent in ppo.OPPONENTS:
        start = time.process_time()
        figures = ppo.evaluate(model, norm, args.variant, opponent, args.eval_games,
                               args.eval_max_turns)
        print(ppo.report(opponent, figures) + f" [{time.process_time() - start:.0f} CPU s]",
              flush=True)


if __name__ == "__main__":
    main()
