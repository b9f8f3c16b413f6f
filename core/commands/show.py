"""`easymoney show`: a variant fully resolved (extends, modify, overrides) as YAML that `check` accepts."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ._variant_args import add_variant_args, variant_from_args


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "show", help="print a variant fully resolved, as YAML",
        description="Print VARIANT with its extends chain merged, its modify applied and the "
                    "--with/--without/--option changes made: a complete variant file, every "
                    "rule switched on listed with all its options. `easymoney check` accepts "
                    "the output, which loads to the same variant.")
    parser.add_argument("variant", metavar="VARIANT",
                        help="a built-in variant name or a path to a YAML file")
    add_variant_args(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..loading.loader import variant_document
    from ..loading.yamlload import dump
    variant = variant_from_args(args.variant, args)
    sys.stdout.write(dump(variant_document(variant)))
    return 0
