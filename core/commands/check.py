"""`easymoney check`: validate variants (built-in names or YAML files), every error located."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..errors import EasyMoneyError
from ..words import count
from ._variant_args import add_variant_args, variant_from_args

if TYPE_CHECKING:
    from ..engine.model import Variant

MAX_ERRORS = 100  # of one file: a file wrong throughout says the first hundred, and how many more


HELP = "validate variant files"
DESCRIPTION = """Load each VARIANT (a built-in name or a YAML file) with its extends chain,
the schema and every semantic check. Prints 'VARIANT: ok' for each valid
one, and for each invalid one every error found, one a line, as
FILE:LINE:COL: error: MESSAGE on standard error (the schema's errors
first: the other checks need a file the schema accepts). Exit status 0
when all are valid, 2 otherwise."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variants", nargs="+", metavar="VARIANT",
                        help="a built-in variant name or a path to a YAML file")
    add_variant_args(parser)


def run(args: argparse.Namespace) -> int:
    from ..engine.registry import discover
    if any(info.origin != "built-in" for info in discover().plugins.values()):
        # the script layer checks a third-party plugin's lines (asked of those loaded when
        # imported); the built-in rules' need no check, nor the lark it costs
        from ..script import parser  # noqa: F401
    status = 0
    for ref in args.variants:
        try:
            variant = variant_from_args(ref, args)
        except EasyMoneyError as exc:
            found = in_reading_order([exc, *exc.also])
            for error in found[:MAX_ERRORS]:
                print(error.located(), file=sys.stderr)
            if len(found) > MAX_ERRORS:
                print(f"{ref}: and {count(len(found) - MAX_ERRORS, 'more error')}",
                      file=sys.stderr)
            status = 2
        else:
            print(f"{ref}: ok", flush=True)  # before its warnings, on a terminal
            for warning in inert_spaces(variant):
                print(f"{ref}: warning: {warning}", file=sys.stderr)
    return status


def in_reading_order(errors: list[EasyMoneyError]) -> list[EasyMoneyError]:
    """The errors by where they are: file by file (in the order first met), line, column."""
    files = list(dict.fromkeys(error.file for error in errors))
    return sorted(errors, key=lambda e: (files.index(e.file), e.line or 0, e.col or 0))


def inert_spaces(variant: Variant) -> list[str]:
    """A warning for each rule that is off while the board has spaces of a kind it declares:
    nothing happens on those (no auction, no purchase, no rent), though the variant is valid."""
    from ..engine.registry import discover
    declared_by = {kind: pid for kind, (pid, _) in discover().space_kinds().items()}
    idle: dict[str, list[str]] = {}
    for space in variant.spaces:
        pid = declared_by.get(space.kind)
        if pid is not None and pid not in variant.rules:
            idle.setdefault(pid, []).append(space.name)
    return [f"the rule {pid!r} is off, so {count(len(names), 'space')} do nothing: "
            f"{', '.join(dict.fromkeys(names))} (switch it on: --with {pid}, or `{pid}: true` "
            f"under `rules`)" for pid, names in idle.items()]
