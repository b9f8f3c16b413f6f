"""Strict YAML reading: YAML 1.2 scalars, no duplicate keys, bounded size, every value's position kept.

The text of a built-in variant, as shipped, is read without PyYAML: the package holds what
reading it gives (`read-variants.json` in easymoney.schemas, written by `python -m
easymoney.loading.make_checked` with the checked documents), keyed by the SHA-256 of the
text. Any other text (a user's file, a built-in one edited) is read by
easymoney.loading.yamlparse, its errors located as ever. Importing PyYAML and reading the
standard variant with it is a tenth of `easymoney check` (issue 37 item 5).
"""

from __future__ import annotations

import math
import os
import stat
from functools import lru_cache
from typing import Any

from .. import packaged
from .yamltext import (BOOL, FLOAT, INT, MAP, MAX_BYTES, MAX_DEPTH, MAX_DIGITS, MAX_NODES,
                       MAX_TEXT, NULL, SEQ, STR, YAML11_BOOLEANS, Loaded, Path, _error, _float,
                       format_path, resolve_scalar)

__all__ = ["BOOL", "FLOAT", "INT", "MAP", "MAX_BYTES", "MAX_DEPTH", "MAX_DIGITS", "MAX_NODES",
           "MAX_TEXT", "NULL", "READ", "SEQ", "STR", "YAML11_BOOLEANS", "Loaded", "Path",
           "decode", "dump", "format_path", "load_file", "load_text", "parse_scalar",
           "read_ahead", "read_entry", "read_key", "read_text", "resolve_scalar", "show_value"]


READ = "read-variants.json"  # in the package easymoney.schemas


def parse_scalar(text: str) -> Any:
    """A value typed on a command line, read as a plain YAML 1.2 scalar: `200` -> 200, `on` -> 'on'."""
    text = text.strip()
    tag = resolve_scalar(text)
    if tag == NULL:
        return None
    if tag == BOOL:
        return text.lower() == "true"
    if tag == INT:
        digits = len(text.lstrip("+-"))
        if digits > MAX_DIGITS:
            raise ValueError(f"number too long: found {digits} digits; expected at most "
                             f"{MAX_DIGITS} digits")
        return int(text)
    if tag == FLOAT:
        return _float(text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def show_value(value: Any, limit: int = 60) -> str:
    """A value as an error message quotes it: 'text', 12, true, null, [1, 2], {a: 1}."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    elif isinstance(value, str):
        text = repr(value)
    elif isinstance(value, float):
        text = {math.inf: ".inf", -math.inf: "-.inf"}.get(value, ".nan" if value != value else repr(value))
    elif isinstance(value, list):
        text = "[" + ", ".join(show_value(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {show_value(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = repr(value)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


def read_text(path: str, display: str | None = None) -> str:
    """The text of a file: at most MAX_BYTES, UTF-8; each failure a one-line VariantError."""
    shown = display or path
    if os.path.isdir(path):
        raise _error("cannot read: is a directory; expected a YAML file", shown)
    if not os.path.exists(path):
        raise _error("cannot read: no such file", shown)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # a FIFO or a device could block or never end
            raise _error("cannot read: not a regular file; expected a YAML file", shown)
        size = info.st_size
        if size > MAX_BYTES:
            raise _error(f"file too large: found {size} bytes; expected at most {MAX_BYTES} "
                         f"bytes (1 MiB)", shown)
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _error(f"cannot read: {exc.strerror or exc}", shown) from None
    if len(raw) > MAX_BYTES:
        raise _error(f"file too large: expected at most {MAX_BYTES} bytes (1 MiB)", shown)
    return decode(raw, shown)


def decode(raw: bytes, file: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise _error(f"not UTF-8 text: found byte 0x{raw[exc.start]:02x}; expected a UTF-8 "
                     f"encoded file", file, line, col) from None
    return text[1:] if text.startswith("\ufeff") else text


def load_file(path: str, display: str | None = None) -> Loaded:
    """Read and load a YAML file (see `load_text`)."""
    shown = display or path
    return load_text(read_text(path, shown), shown)


def load_text(text: str, file: str = "<string>") -> Loaded:
    """Load one YAML document strictly. Raises VariantError located in `file`."""
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_BYTES:
        raise _error(f"file too large: expected at most {MAX_BYTES} bytes (1 MiB)", file)
    found = read_ahead(raw, file)
    if found is not None:
        return found
    from .yamlparse import compose
    return compose(text, file)


def read_key(raw: bytes) -> str:
    """What `read-variants.json` knows a text by: the SHA-256 of its UTF-8 bytes."""
    import hashlib
    return hashlib.sha256(raw).hexdigest()


def read_entry(loaded: Loaded) -> dict[str, Any]:
    """What `read-variants.json` holds of a text: its values and their places, in order."""
    return {"data": loaded.data,
            "positions": [[list(path), *at] for path, at in loaded.positions.items()],
            "keys": [[list(path), *at] for path, at in loaded.key_positions.items()]}


@lru_cache(maxsize=1)
def _shipped() -> bytes:
    try:
        return packaged.read_bytes("easymoney.schemas", READ)
    except Exception:  # noqa: BLE001 -- absent: every text is read by PyYAML
        return b""


def read_ahead(raw: bytes, file: str) -> Loaded | None:
    """The text whose UTF-8 bytes are `raw` as reading it gives, if the package holds it
    (values of their own each time: a caller may change them)."""
    import json
    shipped = _shipped()
    key = read_key(raw)
    if key.encode() not in shipped:
        return None
    try:
        entry = json.loads(shipped)["texts"][key]
        return Loaded(entry["data"], file, _places(entry["positions"]), _places(entry["keys"]))
    except Exception:  # noqa: BLE001 -- damaged: the text is read by PyYAML
        return None


def _places(rows: list[list[Any]]) -> dict[Path, tuple[int, int]]:
    return {tuple(path): (line, col) for path, line, col in rows}


def dump(data: Any) -> str:
    """Plain data as YAML that `load_text` reads back equal, in the data's own key order."""
    from .yamlparse import dump as dump_
    return dump_(data)


def __getattr__(name: str) -> Any:
    """The PyYAML side's names (`_Composer`, ...), imported when first asked for."""
    if name.startswith("_") and not name.startswith("__"):
        from . import yamlparse
        if hasattr(yamlparse, name):
            return getattr(yamlparse, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
