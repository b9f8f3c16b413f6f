"""Playing many bot games and summing them up: the engine of `simulate`, `compare` and `sweep`.

A batch plays game 0, 1, ..., N-1 on every arm; game i's seed is `game_seed(master, i)`, so
it does not depend on how the games are shared among processes or machines. Modules:
arms (what to play), games (playing chunks, exact sums), runner (local processes),
cluster (Dask), stats (scipy.stats), report (figures and tables), sweep (grids of
settings), files (output files), progress, plot.

    from easymoney import simulate as S
    batch = S.Batch(games=500, players=4, strategies=("cautious", "greedy"), seed=1)
    result = S.run([S.Arm("standard"), S.parse_spec("standard-four_sides")], batch, workers=2)
    summary = S.compare_summary(result)
"""

from __future__ import annotations

from .arms import (DEFAULT_GAMES, DEFAULT_MAX_TURNS, DEFAULT_PLAYERS, MAX_PLAYERS, SEAT_PREFIX, Arm,
                   Batch, check_batch, default_players, game_seed, iter_strategies, parse_spec,
                   parse_strategies, variant_turn_limit)
from .files import (RowFiles, check_outputs, derived_path, prepare_record_dir, summary_csv,
                    summary_csv_path, table_csv)
from .games import (END_LABELS, END_REASONS, STAT_EVENTS, ArmStats, Chunk, GameRow, PairStats, Plan,
                    SimulationError, Simulator, against_first, metric_names, metric_values)
from .progress import Progress
from .report import compare_summary, compare_text, summarize, summary_text
from .runner import (MAX_CHUNK, InProcess, Processes, Result, chunk_bounds, chunk_size,
                     local_executor, run)
from .stats import (EXACT_MCNEMAR_LIMIT, Z95, holm, mcnemar, mean_interval, normal_p, paired_t,
                    t_test_p, turn_figures, wilson)

__all__ = [
    "DEFAULT_GAMES", "DEFAULT_MAX_TURNS", "DEFAULT_PLAYERS", "MAX_PLAYERS", "SEAT_PREFIX", "Arm",
    "Batch", "check_batch", "default_players", "game_seed", "iter_strategies", "parse_spec",
    "parse_strategies", "variant_turn_limit", "RowFiles", "check_outputs", "derived_path",
    "prepare_record_dir", "summary_csv", "summary_csv_path", "table_csv", "END_LABELS",
    "END_REASONS", "STAT_EVENTS", "ArmStats", "Chunk", "GameRow", "PairStats", "Plan",
    "SimulationError", "Simulator", "against_first", "metric_names", "metric_values", "Progress",
    "compare_summary", "compare_text", "summarize", "summary_text", "InProcess", "Processes",
    "MAX_CHUNK", "Result", "chunk_bounds", "chunk_size", "local_executor", "run",
    "EXACT_MCNEMAR_LIMIT", "Z95",
    "holm", "mcnemar", "mean_interval", "normal_p", "paired_t", "t_test_p", "turn_figures",
    "wilson",
]
