"""Third-party plugins for one test: modules written to a folder and found through a
stand-in for their entry points, as `easymoney` finds an installed one."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from easymoney.engine import registry as registry_module


@contextlib.contextmanager
def stand_in(folder: Path, monkeypatch: pytest.MonkeyPatch,
             modules: dict[str, tuple[str, str]]) -> Iterator[Path]:
    """`modules` (module name -> (plugin id, source)) installed for the block only; the
    registry found before and after it is the real one."""
    for module, (_, text) in modules.items():
        (folder / f"{module}.py").write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    real = registry_module.entry_points
    points = [EntryPoint(pid, module, "easymoney.plugins") for module, (pid, _) in modules.items()]
    monkeypatch.setattr(registry_module, "entry_points",
                        lambda group: points + list(real(group=group)))
    registry_module._discover.cache_clear()
    try:
        yield folder
    finally:
        monkeypatch.undo()
        registry_module._discover.cache_clear()
        for module in modules:
            sys.modules.pop(module, None)
