"""`python -m easymoney.loading.make_checked [FILE [READ_FILE]]`: write the built-in variants'
documents the variant schema accepts (easymoney.loading.prechecked), and what reading each
built-in variant's text gives (easymoney.loading.yamlload, `read-variants.json`), after a
change to a built-in variant, to what the schema allows or to how YAML is read;
tests/test_schema.py says when."""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any

from ..engine.registry import Registry, discover
from .extends import _RESOLVED
from .loader import load_variant
from .prechecked import CHECKED, recording, schema_fingerprint
from .sources import BUILTIN_PACKAGE, builtin_names
from .yamlload import READ, decode, read_entry, read_key
from .yamlparse import compose


def checked_data(registry: Registry) -> dict[str, Any]:
    """What `checked-variants.json` holds for `registry` and the installed built-in variants."""
    # the chains of built-in files already resolved are kept, their levels not validated again
    _RESOLVED.clear()
    with recording() as documents:
        for name in builtin_names():
            load_variant(name, registry=registry)
    return {"comment": "written by python -m easymoney.loading.make_checked: the built-in "
                       "variants' documents the variant schema accepts",
            "schema": schema_fingerprint(registry), "documents": sorted(documents)}


def read_data() -> dict[str, Any]:
    """What `read-variants.json` holds: each built-in variant's text as PyYAML reads it."""
    texts = {}
    for name in builtin_names():
        text = decode((resources.files(BUILTIN_PACKAGE) / f"{name}.yaml").read_bytes(), name)
        texts[read_key(text.encode("utf-8", "surrogatepass"))] = read_entry(compose(text, name))
    return {"comment": "written by python -m easymoney.loading.make_checked: what reading each "
                       "built-in variant's text gives, by the SHA-256 of the text",
            "texts": dict(sorted(texts.items()))}


def _write(path: str, data: dict[str, Any], indent: int | None) -> dict[str, Any]:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=indent, ensure_ascii=False,
                                separators=None if indent else (",", ":")) + "\n")
    return data


def write_checked(path: str, registry: Registry) -> dict[str, Any]:
    return _write(path, checked_data(registry), 1)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = args[0] if args else str(resources.files("easymoney.schemas").joinpath(CHECKED))
    read = args[1] if len(args) > 1 else str(resources.files("easymoney.schemas").joinpath(READ))
    data = write_checked(target, discover(autoload=False))
    print(f"{target}: {len(data['documents'])} documents of the built-in variants")
    texts = _write(read, read_data(), None)["texts"]
    print(f"{read}: {len(texts)} texts of the built-in variants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
