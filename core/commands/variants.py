"""`easymoney variants`: the built-in variants and what each one is."""

from __future__ import annotations

import argparse

HELP = "list the built-in variants"
DESCRIPTION = """List the built-in variants with their descriptions. Any of them, or a
YAML file of your own (see docs/variants.md), can be given to play,
simulate, check, show, diff and rules."""


def run(args: argparse.Namespace) -> int:
    from ..loading.loader import builtin_variants
    found = builtin_variants()
    width = max((len(name) for name, _ in found), default=0)
    for name, description in found:
        print(f"{name:<{width}}  {description}".rstrip())
    return 0
