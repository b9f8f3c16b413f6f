"""What reading YAML shares and needs no YAML library for: the limits, the YAML 1.2 core
schema's scalars, a document's values with their places (`Loaded`), and a text's lines.

easymoney.loading.yamlparse reads a text with PyYAML into a `Loaded`;
easymoney.loading.yamlload is what the loader calls (and may read a built-in variant's text
without PyYAML at all: issue 37 item 5).
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import VariantError

MAX_BYTES = 1 << 20          # 1 MiB: no variant file comes near it
MAX_NODES = 100_000          # values after expanding aliases (an "alias bomb" stops here)
MAX_TEXT = 4 * MAX_BYTES     # characters of keys and scalars after expanding aliases: one long
                             # string aliased many times is few values but endless output
MAX_DEPTH = 64               # nesting of mappings and sequences
MAX_DIGITS = 100             # digits of one integer (Python refuses to read 4,300 and more)

Path = tuple[Any, ...]       # keys (str) and indices (int) from the document root

STR = "tag:yaml.org,2002:str"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
BOOL = "tag:yaml.org,2002:bool"
NULL = "tag:yaml.org,2002:null"
SEQ = "tag:yaml.org,2002:seq"
MAP = "tag:yaml.org,2002:map"

# The YAML 1.2 core schema, integers restricted to plain decimals.
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|false)$", re.IGNORECASE)
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
# What YAML 1.1 (and so many people) read as booleans; here they are plain strings.
YAML11_BOOLEANS = {"on": True, "off": False, "yes": True, "no": False, "y": True, "n": False}


def resolve_scalar(text: str) -> str:
    """The tag of a plain (unquoted) scalar under the YAML 1.2 core schema."""
    if _NULL.match(text):
        return NULL
    if _BOOL.match(text):
        return BOOL
    if _INT.match(text):
        return INT
    if _FLOAT.match(text):
        return FLOAT
    return STR


def _float(text: str) -> float:
    low = text.lower()
    if low.endswith(".inf"):
        return -math.inf if low.startswith("-") else math.inf
    if low == ".nan":
        return math.nan
    return float(text)


def format_path(path: Path) -> str:
    """`board.spaces[3].rent`, `modify.spaces["Dover Street"].price`; `(top level)` for ()."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", part):
            out += ("." if out else "") + part
        else:
            out += '["' + part.replace('"', '\\"') + '"]'
    return out or "(top level)"


@dataclass
class Loaded:
    """A YAML document as plain data, with the (line, col) of every value and mapping key (1-based)."""

    data: Any
    file: str
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: Path) -> tuple[int, int]:
        """Where the value at `path` is, or the nearest enclosing value that exists."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (1, 1))

    def key_position(self, path: Path) -> tuple[int, int]:
        """Where the key of the mapping entry at `path` is (its value's position for list items)."""
        path = tuple(path)
        return self.key_positions.get(path) or self.position(path)


def _error(message: str, file: str, line: int | None = None, col: int | None = None) -> VariantError:
    return VariantError(message, file=file, line=line, col=col)


_BREAK = re.compile(r"\r\n|\r|\n")
_NON_SPACE = re.compile(r"\S")


class _Lines:
    """A text's lines as an editor counts them (a line ends at \\n, \\r\\n or \\r, not at the
    U+0085 or U+2028 that YAML 1.1 also breaks at), and where a character index falls."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _BREAK.split(text)
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]
        if len(self.lines) > 1 and self.lines[-1] == "":  # a final break opens no line
            self.lines.pop()
            self.starts.pop()

    def at(self, index: int) -> tuple[int, int]:
        """1-based (line, col) of a character index; past the end: the end of the last line."""
        i = max(bisect.bisect_right(self.starts, index) - 1, 0)
        width = len(self.lines[i])
        return i + 1, min(index - self.starts[i], width) + 1

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""
