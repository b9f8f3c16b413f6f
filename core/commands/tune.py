"""`easymoney tune VARIANT --vary KEY=RANGE ... --target FIGURE<=VALUE ...`: search the options."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from contextlib import ExitStack
from typing import Any

from ..errors import UsageError
from ._variant_args import add_variant_args, settings_from_args
from .analyze import add_seconds_per_turn
from .simulate import add_play_args, add_spec_arg, batch_from_args, cluster_from_args

HELP_TRIALS = 40
HELP_BATCH_GAMES = 100
HELP_BATCHES = "2..6"
HELP_RECHECK = 1000
HELP_KEEP = 3

HELP = "search a variant's options and rule switches for the game you want"
DESCRIPTION = """Search over options (numbers, choices) and rules switched on or off
toward targets on a variant's profile, with Optuna: e.g. easymoney tune
standard --vary four_sides=on,off --vary end.on=first_bankruptcy,last_player_standing
--vary auction.first_bid=0..500 --target 'turns in 60..150' --target
seat_advantage<=3. Every candidate plays batches of games on the same seeds; one whose
95% interval already misses a target is dropped, one that meets them all gets more
games. The study is kept in an SQLite file (--study, default VARIANT.tune.db here):
stopped with Ctrl-C or SIGTERM, the same command resumes it, losing no finished
candidate. The best variants (or the Pareto front, --pareto) are written as YAML files
(extends: VARIANT), each re-measured on fresh seeds beside the original with compare's
paired tests. Figures: turns, turns_mean, minutes, seat_advantage, ended_bankruptcy,
ended_bank, ended_turns, lead_changes, decided_share, margin_share, comebacks. The
result is the same for a --seed whatever the workers or cluster. See docs/tuning.md."""


def arguments(parser: argparse.ArgumentParser) -> None:
    add_spec_arg(parser)
    s = parser.add_argument_group("search")
    s.add_argument("--vary", action="append", default=[], metavar="KEY=RANGE",
                   help="a setting to search: RULE=on,off, RULE.OPTION=V1,V2,... or "
                        "RULE.OPTION=LOW..HIGH[:STEP] (repeatable; the rules. and options. "
                        "prefixes are allowed)")
    s.add_argument("--target", action="append", default=[], metavar="FIGURE<=VALUE",
                   help="a target: FIGURE<=VALUE, FIGURE>=VALUE or 'FIGURE in LOW..HIGH' "
                        "(repeatable)")
    s.add_argument("--trials", type=int, default=HELP_TRIALS, metavar="N",
                   help=f"candidates to finish in the study, counting those of a run resumed "
                        f"(default {HELP_TRIALS})")
    s.add_argument("--batches", default=HELP_BATCHES, metavar="FEWEST..MOST",
                   help=f"batches of --games games a candidate plays: the fewest, and the "
                        f"most for one that meets every target (default {HELP_BATCHES})")
    s.add_argument("--pareto", action="store_true",
                   help="one objective per target (they compete): hand back the Pareto front "
                        "instead of the best by the sum of misses")
    s.add_argument("--study", metavar="FILE",
                   help="the study's SQLite file, resumed when it exists (default "
                        "VARIANT.tune.db in the current folder)")
    add_seconds_per_turn(s)
    out = parser.add_argument_group("what it hands back")
    out.add_argument("--out", metavar="DIR",
                     help="the folder of the variant files and report.json (default "
                          "VARIANT-tuned in the current folder)")
    out.add_argument("--keep", type=int, default=HELP_KEEP, metavar="K",
                     help=f"variants handed back at most (default {HELP_KEEP})")
    out.add_argument("--recheck-games", type=int, default=HELP_RECHECK, metavar="N",
                     help=f"games on fresh seeds re-measuring each variant handed back beside "
                          f"the original (default {HELP_RECHECK}; 0: none)")
    out.add_argument("--json", action="store_true", help="print the report as JSON")
    add_play_args(parser)
    for action in parser._actions:  # --games means a batch's games here
        if action.dest == "games":
            action.help = f"games a batch (default {HELP_BATCH_GAMES}); see --batches"
    add_variant_args(parser)


def _batches(text: str) -> tuple[int, int]:
    lo, dots, hi = text.partition("..")
    try:
        fewest, most = (int(lo), int(hi)) if dots else (int(text), int(text))
    except ValueError:
        raise UsageError(f"--batches {text!r}: expected FEWEST..MOST, e.g. 2..6") from None
    return fewest, most


def _check(args: argparse.Namespace) -> None:
    if not args.vary:
        raise UsageError("tune needs at least one --vary, e.g. --vary four_sides=on,off")
    if not args.target:
        raise UsageError("tune needs at least one --target, e.g. --target 'turns in 60..150'")
    for flag, value, least in (("--trials", args.trials, 1), ("--keep", args.keep, 1),
                               ("--recheck-games", args.recheck_games, 0),
                               ("--seconds-per-turn", args.seconds_per_turn, 1)):
        if value < least:
            raise UsageError(f"{flag} {value}: expected at least {least}")


def _check_extremes(base: Any, domains: list[Any]) -> None:
    """Load the variant at each end of each setting, the others at their first value:
    a setting the loader refuses (an option its variant cannot take) is named now."""
    from ..errors import EasyMoneyError
    from ..simulate.tune import candidate_arm
    first = {d.key: (d.choices[0] if d.choices else d.low) for d in domains}
    for d in domains:
        for value in (d.choices if d.choices else (d.low, d.high)):
            try:
                candidate_arm(base, domains, {**first, d.key: value}).load()
            except EasyMoneyError as exc:
                raise UsageError(f"--vary {d.key}={d.text(value)}: {exc.message}") from None


def run(args: argparse.Namespace) -> int:
    from .. import simulate as S
    from ..outputs import Terminated, cleanup_on_signals
    from ..simulate import tune as T
    from ..simulate import tune_report as R
    from ..simulate import tune_study as U
    from ..simulate.profile import PROFILE_METRICS
    _check(args)
    if args.games is None:
        args.games = HELP_BATCH_GAMES
    fewest, most = _batches(args.batches)
    budget = T.Budget(args.games, fewest, most)
    budget.check()
    base = S.parse_spec(args.variant, enable=args.with_rules, disable=args.without_rules,
                        options=args.options)
    batch, variants = batch_from_args(args, [base])
    domains = [T.parse_domain(text, variants[0].smallest_bill) for text in args.vary]
    T.check_domains(domains)
    targets = [T.parse_target(text) for text in args.target]
    _check_extremes(base, domains)
    U.require_optuna()
    study_path = args.study or U.default_study_path(base.variant)
    stem = U.default_study_path(base.variant)[:-len(".tune.db")]
    folder = args.out or f"{stem}-tuned"
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"--out {folder}: a file, not a folder")
    profile = PROFILE_METRICS if T.needs_profile(targets) else ()
    setup = {"players": batch.players, "strategies": list(batch.strategies), "seed": batch.seed,
             "max_turns": batch.max_turns, "games": budget.games,
             "batches": [budget.fewest, budget.most], "seconds_per_turn": args.seconds_per_turn,
             "arm": [list(base.enable), list(base.disable), list(base.options)]}
    sig = U.signature(base.name, domains, targets, setup, args.pareto)
    cluster = cluster_from_args(args)
    started = time.monotonic()
    with cleanup_on_signals(), ExitStack() as stack:
        stack.enter_context(U.holding(study_path))  # one run at a time on a study file
        study = U.open_study(study_path, sig, len(targets) if args.pareto else 1)
        executor = stack.enter_context(cluster) if cluster is not None else None
        common: dict[str, Any] = {"workers": args.workers, "executor": executor,
                                  "settings": settings_from_args(args),
                                  "game_timeout": args.game_timeout, "profile": profile}

        def run_batch(arm: Any, b: Any) -> Any:
            return S.run([arm], b, **common).stats[0]

        def evaluate(params: dict[str, Any], report: Any, incumbent: float | None) -> Any:
            arm = T.candidate_arm(base, domains, params)
            return T.evaluate(arm, batch, budget, targets, args.seconds_per_turn, run_batch,
                              after_batch=report, pareto=args.pareto, incumbent=incumbent)

        def said(n: int, params: dict[str, Any], ev: Any, state: str) -> None:
            if ev is None:  # a candidate asked again: its games would be the same
                print(f"tune: candidate {n + 1}/{args.trials}: {T.describe_params(domains, params)}: "
                      f"{state}, not played again", file=sys.stderr)
                return
            shown = ", ".join(f"{k} {v[0]:,.1f}" for k, v in ev.figures.items())
            how = f"dropped: misses {ev.pruned_by}" if state == "pruned" else (
                "meets every target" if ev.meets(targets) else "misses a target")
            print(f"tune: candidate {n + 1}/{args.trials} ({ev.games:,} games): "
                  f"{T.describe_params(domains, params)}: {shown}; {how}", file=sys.stderr)

        try:
            U.run_trials(study, args.trials, batch.seed, domains, targets, args.pareto,
                         evaluate, said)
        except (KeyboardInterrupt, Terminated):
            print(f"easymoney: the study in {study_path} keeps "
                  f"{len(U.finished(study))} finished candidates: the same command resumes it",
                  file=sys.stderr)
            raise
        search_seconds = time.monotonic() - started
        done, size = len(U.finished(study)), U.space_size(domains)
        exhausted = done < args.trials and size <= len(U.distinct(study))
        if exhausted:  # asked for more candidates than the space holds
            print(f"tune: the search space holds {int(size)} candidate(s), and every one has "
                  f"been played: stopping at {done} of {args.trials} (widen a --vary range or "
                  f"vary another setting for more)", file=sys.stderr)
        chosen = R.picks(study, targets, args.pareto, args.keep)
        handed = R.hand_back(study, chosen, base, variants[0], domains, folder,
                             os.path.basename(stem))
        if args.recheck_games:
            recheck = {**common, "profile": profile}

            def run_arms(arms: list[Any], b: Any) -> Any:
                return S.run(arms, b, **recheck)
            R.remeasure(handed, base, batch, args.recheck_games, targets,
                        args.seconds_per_turn, run_arms)
    report = {"variant": base.name, "seed": batch.seed, "study": study_path,
              "players": batch.players, "strategies": list(batch.strategies),
              "search": {**R.search_summary(study, domains, targets, args.pareto),
                         "exhausted": exhausted, "space_size": size if size != float("inf") else None},
              "search_seconds": round(search_seconds, 1),
              "variants": handed, "folder": folder}
    from ..outputs import write_atomically
    write_atomically(os.path.join(folder, "report.json"), json.dumps(report, indent=2) + "\n")
    if args.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write(R.tune_text(report))
    written = sum(1 for h in handed if h["file"] is not None)
    print(f"wrote {written} variant file(s) and report.json to {folder}", file=sys.stderr)
    return 0
