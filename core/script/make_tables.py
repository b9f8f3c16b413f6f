"""`python -m easymoney.script.make_tables [FILE]`: write the parse tables of the built-in
script language that the package ships (easymoney.script.tables), and beside them the
module that parses with them (lark_runtime.py), after a change to grammar.lark, to a
built-in rule's lines or to lark; tests/test_startup.py says when."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

from ..engine.registry import discover
from .parser import builtin_grammar_text
from .tables import RUNTIME, TABLES, write_tables

# lark's files whose `standalone` sections make the runtime, in lark's own order
# (lark.tools.standalone.EXTRACT_STANDALONE_FILES but the Python indenter, no script's)
_RUNTIME_FILES = ("tools/standalone.py", "exceptions.py", "utils.py", "tree.py", "visitors.py",
                  "grammar.py", "lexer.py", "common.py", "parse_tree_builder.py",
                  "parsers/lalr_analysis.py", "parsers/lalr_parser_state.py",
                  "parsers/lalr_parser.py", "parsers/lalr_interactive_parser.py",
                  "parser_frontends.py", "lark.py")


def builtin_grammar() -> str:
    """The grammar of the language of the built-in rules (what the shipped tables are for)."""
    return builtin_grammar_text(discover(autoload=False))


def runtime_text() -> str:
    """The source of lark_runtime.py: the installed lark's LALR parsing, as lark's
    stand-alone tool cuts it out (with its licence), and no grammar of its own."""
    import lark
    from lark.tools import standalone

    out = io.StringIO()
    out.write("# mypy: ignore-errors\n")  # lark's code, as lark writes it
    out.write(f'"""lark {lark.__version__}\'s LALR parsing, cut out of lark by its stand-alone tool '
              "(lark.tools.standalone):\nthe parser, the contextual lexer, Tree, Token, "
              "Transformer and the exceptions, without\nlark's grammar loader and Earley "
              "parsers, which a parse with tables never needs.\n\nWritten by `python -m "
              "easymoney.script.make_tables`: do not edit.\n\"\"\"\n")
    out.write(f'__version__ = "{lark.__version__}"\n\nimport pickle  # Lark.load\n')
    for i, name in enumerate(_RUNTIME_FILES):
        with open(os.path.join(os.path.dirname(lark.__file__), name), encoding="utf-8") as f:
            code = standalone.extract_sections(f)["standalone"]
        # as the tool does: the files but its own lose their docstrings and comments
        out.write(standalone.strip_docstrings(iter(code.splitlines(True)).__next__) if i else code)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = args[0] if args else str(Path(__file__).with_name(TABLES))
    key = write_tables(builtin_grammar(), target)
    runtime = Path(target).with_name(RUNTIME)
    runtime.write_text(runtime_text(), encoding="utf-8")
    print(f"{target}: the parse tables of the built-in script language ({key[:12]})")
    print(f"{runtime}: the parser that reads them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
