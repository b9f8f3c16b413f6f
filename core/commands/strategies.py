"""`easymoney strategies`: the bot strategies that simulate and compare can seat."""

from __future__ import annotations

import argparse

HELP = "list the bot strategies"
DESCRIPTION = """List the strategies --strategies accepts: the built-in
ones and those installed through the entry-point group
easymoney.strategies."""


def run(args: argparse.Namespace) -> int:
    from ..simulate import iter_strategies
    rows = list(iter_strategies())
    name_w = max(len(r[0]) for r in rows)
    origin_w = max(len(r[1]) for r in rows)
    for name, origin, doc in rows:
        print(f"{name:<{name_w}}  {origin:<{origin_w}}  {doc}".rstrip())
    return 0
