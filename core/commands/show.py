"""`easymoney show`: a variant fully resolved (extends, modify, overrides) as YAML that `check` accepts, its spaces numbered."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ._variant_args import add_variant_args, variant_from_args

HELP = "print a variant fully resolved, as YAML"
DESCRIPTION = """Print VARIANT with its extends chain merged, its modify applied and the
--with/--without/--option changes made: a complete variant file, every
rule switched on listed with all its options. `easymoney check` accepts
the output, which loads to the same variant. Each board space is followed by
its number as a comment (`# 7`): a script may name a space by it."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", metavar="VARIANT",
                        help="a built-in variant name or a path to a YAML file")
    add_variant_args(parser)


def run(args: argparse.Namespace) -> int:
    from ..loading.loader import variant_document
    from ..loading.yamlload import dump
    variant = variant_from_args(args.variant, args)
    document = variant_document(variant)
    sys.stdout.write(numbered(dump(document), first_numbers(document)))
    return 0


def first_numbers(document: dict[str, Any]) -> list[int]:
    """The number of the first space of each entry of `board.spaces` (`cells: 2` takes two)."""
    numbers, number = [], 0
    for entry in document.get("board", {}).get("spaces", []):
        numbers.append(number)
        number += entry.get("cells", 1) if isinstance(entry, dict) else 1
    return numbers


def numbered(text: str, numbers: list[int]) -> str:
    """Put `  # N` after the line of each entry of `board.spaces`, N from `numbers` in order.

    Each entry is one line: `dump` writes a space as a flow mapping.
    """
    out: list[str] = []
    in_board = in_spaces = False
    entries = iter(numbers)
    for line in text.splitlines(keepends=True):
        if not line.startswith(" "):
            in_board, in_spaces = line.startswith("board:"), False
        elif in_board and line.rstrip("\n") == "  spaces:":
            in_spaces = True
        elif in_spaces and line.startswith("  - "):
            number = next(entries, None)
            if number is not None:
                line = f"{line.rstrip(chr(10))}  # {number}\n"
        elif in_spaces and not line.startswith("    "):
            in_spaces = False
        out.append(line)
    return "".join(out)
