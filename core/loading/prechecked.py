"""The built-in variants checked against the schema ahead of time, not on every load.

Importing jsonschema and applying the variant schema is most of `easymoney check
variants/standard.yaml`. The package ships `checked-variants.json` (in easymoney.schemas,
written by `python -m easymoney.loading.make_checked`): the fingerprint of the variant schema
of the built-in rules, and the fingerprint of every document of a built-in variant that
schema accepted. A document whose fingerprint is listed there, under the schema in force, is
known to pass it; any other (a user's own file, a built-in one edited or given options, a
schema a third-party plugin widens) is checked fully, its errors located as ever.

A fingerprint is of the values and their types, in order: `1` and `true`, or `"1"` and `1`,
are different documents. `tests/test_schema.py` holds the shipped file to the variants.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from .. import packaged
from ..engine.registry import Registry
from .schema import variant_schema_cached

__all__ = ["CHECKED", "accepted", "fingerprint", "passes_ahead", "recording",
           "schema_fingerprint"]

CHECKED = "checked-variants.json"  # in the package easymoney.schemas
_SCALARS = (str, int, float, bool, type(None))
_recorded: list[str] | None = None  # while writing the file: what the full check accepted


class _NotPlain(Exception):
    """A value no YAML document of ours holds: such a document is checked in full."""


def _tagged(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return ["map", [[_tagged(k), _tagged(v)] for k, v in value.items()]]
    if kind is list:
        return ["list", [_tagged(v) for v in value]]
    if kind in _SCALARS:
        return [kind.__name__, value]
    raise _NotPlain(kind.__name__)


def fingerprint(value: Any) -> str | None:
    """The SHA-256 of a document's values, types and order (None: not a plain document)."""
    try:
        text = json.dumps(_tagged(value), ensure_ascii=False, separators=(",", ":"))
    except (_NotPlain, RecursionError, ValueError):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def schema_fingerprint(registry: Registry) -> str:
    """The fingerprint of the variant schema of `registry`'s rules (kept by the registry)."""
    key = ("variant schema fingerprint",)
    found = registry.cache.get(key)
    if found is None:
        found = registry.cache[key] = fingerprint(variant_schema_cached(registry)) or ""
    return found  # type: ignore[no-any-return]


@lru_cache(maxsize=1)
def _shipped() -> tuple[str, frozenset[str]]:
    try:
        data = json.loads(packaged.read_bytes("easymoney.schemas", CHECKED))
        return str(data["schema"]), frozenset(map(str, data["documents"]))
    except Exception:  # noqa: BLE001 -- absent or damaged: every document is checked in full
        return "", frozenset()


def passes_ahead(doc: Any, registry: Registry) -> bool:
    """Whether `doc` is known to pass `registry`'s variant schema without checking it now."""
    schema, documents = _shipped()
    if _recorded is not None or not documents:
        return False
    found = fingerprint(doc)
    return found in documents and schema_fingerprint(registry) == schema


def accepted(doc: Any) -> None:
    """The full check accepted `doc`: noted while the file is written."""
    if _recorded is not None:
        found = fingerprint(doc)
        if found is not None and found not in _recorded:
            _recorded.append(found)


@contextmanager
def recording() -> Iterator[list[str]]:
    """Every document the schema accepts while in this block (each checked in full)."""
    global _recorded
    _recorded = []
    try:
        yield _recorded
    finally:
        _recorded = None
