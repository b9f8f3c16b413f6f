"""`easymoney check`: validate variants (built-in names or YAML files), one located error each."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import EasyMoneyError
from ._variant_args import add_variant_args, variant_from_args


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check", help="validate variant files",
        description="Load each VARIANT (a built-in name or a YAML file) with its extends chain, "
                    "the schema and every semantic check. Prints 'VARIANT: ok' for each valid "
                    "one, and for each invalid one its first error as FILE:LINE:COL: error: "
                    "MESSAGE on standard error. Exit status 0 when all are valid, 2 otherwise.")
    parser.add_argument("variants", nargs="+", metavar="VARIANT",
                        help="a built-in variant name or a path to a YAML file")
    add_variant_args(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for ref in args.variants:
        try:
            variant_from_args(ref, args)
        except EasyMoneyError as exc:
            print(exc.located(), file=sys.stderr)
            status = 2
        else:
            print(f"{ref}: ok")
    return status
