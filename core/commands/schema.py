"""`easymoney schema`: the JSON Schema of variant files for the installed rule plugins."""

from __future__ import annotations

import argparse
import sys

HELP = "print the JSON Schema of variant files"
DESCRIPTION = """Print the JSON Schema (Draft 2020-12) of a variant file for the rule
plugins installed here: the space kinds, card kinds and rule options
they declare. For editors and other tools; `easymoney check` applies it
and more. --builtin prints the schema for the built-in rules only (the
shipped schemas/variant.schema.json)."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--builtin", action="store_true",
                        help="only the built-in rules, ignoring third-party plugins")


def run(args: argparse.Namespace) -> int:
    from ..engine.registry import discover
    from ..loading.schema import dumps, variant_schema
    registry = discover(autoload=False) if args.builtin else discover()
    sys.stdout.write(dumps(variant_schema(registry)))
    return 0
