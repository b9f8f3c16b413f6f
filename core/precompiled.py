"""Code the package makes from source text at import time, compiled ahead of time.

Making a dataclass compiles its generated methods (`__init__`, `__repr__`, `__eq__`,
`__hash__`, a frozen class's `__setattr__` and `__delattr__`) from their source text, one
`exec` each: on Python 3.11, for the package's classes, a fifth of a short `easymoney
play`'s CPU, as much again as all the rest its imports do. The package ships that code
compiled (`compiled-code.marshal`, written by `python -m easymoney.precompiled`), keyed by
the source text and for one bytecode version (importlib's MAGIC_NUMBER), as Python's own
`.pyc` files are. While the command line runs (`installed()`), dataclasses' `exec` runs the
shipped code of a text it knows and compiles any other as ever; an action's printer
(easymoney.engine.lines) takes its code the same way (`code_of`).

The same text compiles to the same code, so only the time changes. A class changed since the
file was written, another Python, `python -O`, an absent or damaged file: that text is
compiled, as before. tests/test_startup.py holds the file to the package.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import sys
from collections.abc import Iterator
from types import CodeType
from typing import Any

from . import packaged

__all__ = ["FILE", "code_of", "installed", "recorded"]

FILE = "compiled-code.marshal"  # in the package easymoney
_MAGIC = b"easymoney compiled code 1 "  # then importlib's MAGIC_NUMBER, then marshal's data
_shipped: dict[str, CodeType] | None = None
_recording: dict[str, CodeType] | None = None  # while the file is written: what is compiled


def _magic() -> bytes:
    from importlib.util import MAGIC_NUMBER
    return _MAGIC + MAGIC_NUMBER


def _known() -> dict[str, CodeType]:
    """The shipped code by source text (empty: none that this Python can run)."""
    global _shipped
    if _shipped is None:
        _shipped = {}
        if not sys.flags.optimize:  # the file is compiled as plain `python` compiles
            try:
                data = packaged.read_bytes(__name__.rpartition(".")[0], FILE)
                magic = _magic()
                if data.startswith(magic):
                    found = marshal.loads(data[len(magic):])
                    if isinstance(found, dict):
                        _shipped = found
            except (OSError, ValueError, EOFError, TypeError):  # absent, damaged: compiled
                pass
    return _shipped


def code_of(source: str) -> CodeType:
    """The code of module-level `source` as `exec(source)` compiles it: shipped, or compiled."""
    code = _known().get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        if _recording is not None:
            _recording[source] = code
    return code


def _exec(source: Any, globals: Any = None, locals: Any = None, /, **kwargs: Any) -> None:
    """dataclasses' `exec` while installed: a text runs as code_of compiles it."""
    if isinstance(source, str):  # compiled as dataclasses' exec compiles it: no __future__
        source = code_of(source) if _recording is None or _ours(globals) else \
            compile(source, "<string>", "exec", dont_inherit=True)
    builtins.exec(source, globals, locals, **kwargs)


def _ours(scope: Any) -> bool:
    """Whether a dataclass's methods are made for a class of the package (its module's scope)."""
    return isinstance(scope, dict) and str(scope.get("__name__", "")).startswith("easymoney.")


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """dataclasses' `exec` takes the shipped code while the block runs (nested: once)."""
    if "exec" in vars(dataclasses):  # installed already, or someone else's
        yield
        return
    setattr(dataclasses, "exec", _exec)  # its global `exec` comes before the builtin one
    try:
        yield
    finally:
        delattr(dataclasses, "exec")


def recorded(modules: list[str]) -> dict[str, CodeType]:
    """The code the package's own dataclasses and printers compile while `modules` are
    imported (in a process that has imported none of them yet)."""
    global _recording, _shipped
    _recording, _shipped = {}, {}
    try:
        with installed():
            for name in modules:
                try:
                    __import__(name)
                except Exception:  # noqa: BLE001 -- an optional dependency absent: its classes compile
                    continue
        return _recording
    finally:
        _recording, _shipped = None, None


def modules() -> list[str]:
    """Every module of the package and its rules, found by their files (nothing imported)."""
    import importlib.util
    import os

    rules = importlib.util.find_spec(__name__.rpartition(".")[0] + ".plugins")
    assert rules is not None and rules.submodule_search_locations is not None
    out = []
    for base, package in ((os.path.dirname(__file__), "easymoney"),
                          (list(rules.submodule_search_locations)[0], "easymoney.plugins")):
        for folder, dirs, files in sorted(os.walk(base)):
            dirs[:] = sorted(d for d in dirs if os.path.isfile(os.path.join(folder, d, "__init__.py")))
            parts = os.path.relpath(folder, base).split(os.sep)
            prefix = ".".join([package, *(p for p in parts if p != ".")])
            out += [prefix if f == "__init__.py" else f"{prefix}.{f[:-3]}"
                    for f in sorted(files) if f.endswith(".py") and f != "__main__.py"]
    return list(dict.fromkeys(out))


def main() -> int:
    """Write the file: the code of every module of the package, imported afresh."""
    import os

    from easymoney import precompiled  # the module the package uses, not this __main__

    code = precompiled.recorded(precompiled.modules())
    path = os.path.join(os.path.dirname(precompiled.__file__), FILE)
    with open(path, "wb") as handle:
        handle.write(_magic() + marshal.dumps(dict(sorted(code.items()))))
    print(f"{path}: the code of {len(code)} texts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
