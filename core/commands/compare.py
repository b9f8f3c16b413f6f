"""`easymoney compare SPEC SPEC ...`: the same games under several rule sets, side by side."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import UsageError
from ._variant_args import invariants_switch
from .simulate import add_batch_args, batch_from_args


def register(sub: Any) -> None:
    p = sub.add_parser(
        "compare", help="play the same games under several rule sets and compare them",
        description="Play N games on each SPEC with the same seeds (common random numbers) and "
                    "print the figures side by side, with each arm's difference against the "
                    "first and whether it is significant at 95%. A SPEC is a variant name or "
                    "file followed by any of +RULE (switch on), -RULE (switch off) and "
                    "@RULE.OPTION=VALUE, e.g. standard-four_sides or "
                    "standard@doubles.after_card=forward. See docs/simulation.md.")
    p.add_argument("specs", nargs="+", metavar="SPEC", help="the arms; the first is the baseline")
    add_batch_args(p, games=1000)
    p.set_defaults(func=run)


@invariants_switch
def run(args: argparse.Namespace) -> int:
    from .. import simulate as S
    if len(args.specs) < 2:
        raise UsageError("compare needs at least two SPECs, e.g. `easymoney compare standard "
                         "no-four-sides`")
    arms = [S.parse_spec(spec) for spec in args.specs]
    batch = batch_from_args(args)
    progress = S.Progress(batch.games)
    try:
        result = S.run(arms, batch, workers=args.workers, progress=progress)
    finally:
        progress.close()
    sys.stdout.write(S.compare_text(S.compare_summary(result)))
    return 0
