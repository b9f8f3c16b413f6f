"""`python -m easymoney.script.make_tables [FILE]`: write the parse tables of the built-in
script language that the package ships (easymoney.script.tables), after a change to
grammar.lark, to a built-in rule's lines or to lark; tests/test_startup.py says when."""

from __future__ import annotations

import sys
from pathlib import Path

from ..engine.registry import discover
from .parser import builtin_grammar_text
from .tables import TABLES, write_tables


def builtin_grammar() -> str:
    """The grammar of the language of the built-in rules (what the shipped tables are for)."""
    return builtin_grammar_text(discover(autoload=False))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = args[0] if args else str(Path(__file__).with_name(TABLES))
    key = write_tables(builtin_grammar(), target)
    print(f"{target}: the parse tables of the built-in script language ({key[:12]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
