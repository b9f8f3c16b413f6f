"""Proof that an agent learns: MaskablePPO trained for a stated number of CPU-minutes on
2-player `standard`, then evaluated on fresh seeds against each built-in bot.

    python bench/bench_learning.py [--cpu-minutes 20] [--eval-games 200] [--eval-turns 1000]
                                   [--variant standard] [--seed 0] [--save agent.zip]
                                   [--eval-workers 1] [--load agent.zip]
                                   [--env example|defaults] [--settings example|common]

Needs the `train` extra (sb3-contrib, torch). Runs examples/agents/train_ppo.py's training
(one torch thread; the budget is this process's CPU time, so a loaded machine takes longer
but trains as much) and its evaluation: `--eval-games` games against `random`, `greedy`
and `cautious`, half as each seat, seeds from 10^9 (no training game's), the agent taking
its most likely legal slot. Prints each win rate with its 95% (Wilson) interval, as each
opponent's games end. Every game ends by the rules: a bankruptcy, or after `--eval-turns`
player-turns the `end` rule's turn limit (R28: the richer seat wins), as `easymoney
simulate` ends its games at 1,000 turns. `--eval-workers 3` evaluates the three bots in
three processes (the training's figure is CPU time, so that does not change it);
`--load` evaluates a model saved by `--save` without training again.

`--env defaults` trains and evaluates on `easymoney.agents.single()` with no environment
option (the turn limit `end.max_turns` is a rule option of the variant, not an environment
option), `--env example` (the default) with the example's ENV_OPTIONS; `--settings common`
uses MaskablePPO's common settings (MLP 256x256, n_steps 2048, batch 256, 5 epochs, gamma
0.995, entropy 0.01, no observation normaliser), `--settings example` the example's tuned
ones. The header says which.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from easymoney.simulate.runner import end_with_parent

HERE = Path(__file__).resolve().parent


def load_example():  # type: ignore[no-untyped-def]
    path = HERE.parent / "examples" / "agents" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def evaluate_saved(path: str, variant: str, opponent: str, games: int,
                   turns: int, env: str) -> tuple[dict[str, Any], float]:
    """The evaluation against one bot of the model saved at `path`, and its CPU seconds."""
    ppo = load_example()
    model, norm = ppo.load(path, variant)
    start = time.process_time()
    figures = ppo.evaluate(model, norm, variant, opponent, games, turns, env)
    return figures, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--cpu-minutes", type=float, default=20.0)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-turns", type=int, default=1000)
    parser.add_argument("--eval-workers", type=int, default=1)
    parser.add_argument("--load", help="a model saved by --save: evaluate it, no training")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="where to save the trained model (a .zip)")
    ppo = load_example()
    ppo.add_choices(parser)
    args = parser.parse_args()
    path = args.load
    print(ppo.describe(args.variant, args.env, args.settings) + f", seed {args.seed}", flush=True)
    if path is None:
        model, norm, run = ppo.train(args.variant, args.cpu_minutes, args.seed, 0, args.env,
                                     args.settings)
        print(f"  {run['steps']:,.0f} steps in {run['cpu_seconds'] / 60:.1f} CPU-minutes "
              f"({run['steps'] / run['cpu_seconds']:,.0f} steps/CPU-s)", flush=True)
        path = args.save or str(Path(tempfile.mkdtemp()) / "agent.zip")
        model.save(path)
        norm.save(path + ".norm.pkl")
    # spawn: a forked child would inherit torch's threads mid-state; each evaluation process
    # ends once the script is gone (killed), instead of playing its games for nobody
    with ProcessPoolExecutor(max(1, args.eval_workers), mp_context=get_context("spawn"),
                             initializer=end_with_parent, initargs=(os.getpid(),)) as pool:
        runs = [(o, pool.submit(evaluate_saved, path, args.variant, o, args.eval_games,
                                args.eval_turns, args.env)) for o in ppo.OPPONENTS]
        for opponent, run_ in runs:
            figures, seconds = run_.result()
            print(ppo.report(opponent, figures) + f" [{seconds:.0f} CPU s]", flush=True)


if __name__ == "__main__":
    main()
