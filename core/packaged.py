"""The files shipped inside easymoney's packages (the variants, the schemas, the grammar and
its tables), read as `importlib.resources.files(package)` reads them.

A package installed as a folder (the usual case, editable or not) is read from that folder
directly: importing importlib.resources (with tempfile, zipfile, ...) is a few milliseconds
of every short command (issue 37 item 5). Any other package (in a zip, a loader of its own)
is read through importlib.resources itself.
"""

from __future__ import annotations

import importlib
import os
from importlib.machinery import SourceFileLoader, SourcelessFileLoader
from typing import Any

__all__ = ["folder", "names", "read_bytes", "read_text"]


def folder(package: str) -> str | None:
    """The folder `package` is read from, or None when importlib.resources must read it."""
    spec = importlib.import_module(package).__spec__
    loader = getattr(spec, "loader", None)
    origin = getattr(spec, "origin", None)
    # the loaders whose resources importlib.resources reads from the folder of their file
    if type(loader) not in (SourceFileLoader, SourcelessFileLoader) or not origin:
        return None
    return os.path.dirname(origin)


def _files(package: str) -> Any:
    from importlib import resources
    return resources.files(package)


def read_bytes(package: str, name: str) -> bytes:
    """The bytes of the file `name` of `package` (OSError as importlib.resources raises it)."""
    where = folder(package)
    if where is None:
        return _files(package).joinpath(name).read_bytes()  # type: ignore[no-any-return]
    with open(os.path.join(where, name), "rb") as handle:
        return handle.read()


def read_text(package: str, name: str, encoding: str = "utf-8") -> str:
    """The text of the file `name` of `package`, decoded as importlib.resources decodes it."""
    where = folder(package)
    if where is None:
        return _files(package).joinpath(name).read_text(encoding)  # type: ignore[no-any-return]
    with open(os.path.join(where, name), encoding=encoding) as handle:
        return handle.read()


def names(package: str) -> list[str]:
    """The names of the files and folders of `package`, in the order the system lists them."""
    where = folder(package)
    if where is None:
        return [child.name for child in _files(package).iterdir()]
    return os.listdir(where)
