"""`python -m easymoney.loading.make_checked [FILE]`: write the built-in variants' documents the
variant schema accepts (easymoney.loading.prechecked), after a change to a built-in variant or
to what the schema allows; tests/test_schema.py says when."""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any

from ..engine.registry import Registry, discover
from .extends import _RESOLVED
from .loader import load_variant
from .prechecked import CHECKED, recording, schema_fingerprint
from .sources import builtin_names


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


def write_checked(path: str, registry: Registry) -> dict[str, Any]:
    data = checked_data(registry)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=1) + "\n")
    return data


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = args[0] if args else str(resources.files("easymoney.schemas").joinpath(CHECKED))
    data = write_checked(target, discover(autoload=False))
    print(f"{target}: {len(data['documents'])} documents of the built-in variants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
