"""The script grammar's parse tables, built once and shipped, not built on every run.

Building lark's LALR tables for the language of the built-in rules is a fifth of a short
`easymoney play`. Those tables are saved in the package (`parse.tables`, written by
`python -m easymoney.script.make_tables`) under a key: the SHA-256 of the grammar's text, the
parser's options and lark's version. `lark_for(grammar)` loads them when the key is the one
of `grammar`, and builds the tables otherwise: a language with a third-party plugin's lines,
another lark, a stale, absent or damaged file. A file that cannot be used is never an error,
only slower; `tests/test_startup.py` holds the shipped file to the grammar.

Every parser parses with `lark_runtime` (lark's LALR parsing, written beside the tables by
the same command): importing lark itself, its grammar loader and Earley parsers, was a
tenth of a short `easymoney play`, and is left to the tables that must be built (lark
builds them, and the runtime loads what lark saved), so that a script's tree, tokens and
errors are always of one set of classes.
"""

from __future__ import annotations

import hashlib
import io
from typing import Any

from .. import packaged
from . import lark_runtime
from .lark_runtime import Lark

__all__ = ["OPTIONS", "RUNTIME", "TABLES", "grammar_key", "lark_for", "shipped_key",
           "write_tables"]

# how every script parser is made: shipped tables are those of exactly these options
OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True,
                           "maybe_placeholders": True, "start": "start"}
TABLES = "parse.tables"  # in the package easymoney.script
RUNTIME = "lark_runtime.py"  # beside it: the module that parses with them
_MAGIC = b"easymoney parse tables 1 "  # then the key, then a newline, then lark's saved form


def grammar_key(grammar: str, version: str = lark_runtime.__version__) -> str:
    """What the tables of `grammar` depend on: its text, the options and the version of the
    lark that saved them (by default the runtime's: the tables it can load)."""
    options = ",".join(f"{k}={v!r}" for k, v in sorted(OPTIONS.items()))
    return hashlib.sha256(f"{grammar}\0{options}\0lark {version}".encode()).hexdigest()


def _read() -> bytes | None:
    try:
        return packaged.read_bytes("easymoney.script", TABLES)
    except (OSError, ValueError):  # absent, unreadable: built instead
        return None


def _split(data: bytes | None) -> tuple[str, bytes] | None:
    """(key, saved parser) of a tables file, None when it is not one."""
    if data is None or not data.startswith(_MAGIC):
        return None
    head, newline, rest = data.partition(b"\n")
    if not newline:
        return None
    return head[len(_MAGIC):].decode("ascii", "replace"), rest


def shipped_key() -> str | None:
    """The key the shipped tables were written for (None: there are none, or not readable)."""
    found = _split(_read())
    return found[0] if found else None


def _build(grammar: str) -> tuple[str, bytes]:
    """lark's version and the saved form of the parser it builds for `grammar` (may raise:
    a plugin's statements that do not fit)."""
    import lark  # only here: a run with the shipped tables never needs it

    out = io.BytesIO()
    lark.Lark(grammar, **OPTIONS).save(out)
    return lark.__version__, out.getvalue()


def lark_for(grammar: str) -> Lark:
    """The parser of `grammar`: the shipped tables when they are this grammar's, else built.

    Building may raise (a plugin's statements that do not fit: the caller says so)."""
    found = _split(_read())
    if found is not None and found[0] == grammar_key(grammar):
        try:
            return Lark.load(io.BytesIO(found[1]))
        except Exception:  # noqa: BLE001 -- damaged: built below instead
            pass
    version, saved = _build(grammar)
    try:
        return Lark.load(io.BytesIO(saved))
    except Exception as exc:  # a lark whose saved form the runtime cannot read
        raise RuntimeError(f"the installed lark {version} saves parsers that easymoney's "
                           f"lark_runtime ({lark_runtime.__version__}) cannot read: "
                           f"{type(exc).__name__}: {exc}; install lark "
                           f"{lark_runtime.__version__}") from None


def write_tables(grammar: str, path: str) -> str:
    """Build the tables of `grammar` and write them to `path`; return their key."""
    version, saved = _build(grammar)
    key = grammar_key(grammar, version)
    with open(path, "wb") as handle:
        handle.write(_MAGIC + key.encode("ascii") + b"\n" + saved)
    return key
