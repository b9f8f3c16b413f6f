"""`easymoney hooks`: the hooks a rule plugin can implement, in the order a game fires them."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("hooks", help="list the hooks a rule plugin can implement",
                       description="List every hook a rule plugin can implement, in the order "
                                   "a game fires them, with its signature and what it is for. "
                                   "--markdown prints the full reference of docs/plugins.md.")
    p.add_argument("--markdown", action="store_true",
                   help="the full reference, as Markdown (what docs/plugins.md holds)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..engine import hookdoc
    sys.stdout.write(hookdoc.markdown() if args.markdown else hookdoc.text())
    return 0
