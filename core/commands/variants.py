"""`easymoney variants`: the built-in variants and what each one is."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "variants", help="list the built-in variants",
        description="List the built-in variants with their descriptions. Any of them, or a "
                    "YAML file of your own (see docs/variants.md), can be given to play, "
                    "simulate, check, show, diff and rules.")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..loading.loader import builtin_variants
    found = builtin_variants()
    width = max((len(name) for name, _ in found), default=0)
    for name, description in found:
        print(f"{name:<{width}}  {description}".rstrip())
    return 0
