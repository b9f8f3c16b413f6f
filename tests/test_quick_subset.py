"""The README's quick run: `python -m pytest -m "not slow"` leaves out the slowest files (issue 39 item 22)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLOW_FILES = ("test_web_browser.py", "test_web_board_browser.py", "test_web_tables_browser.py",
              "test_cluster.py", "test_robust_cluster.py", "test_agents_learning.py", "test_tune.py")


def module_marks(path: Path) -> list[str]:
    """The marks of `pytestmark = pytest.mark.X` at the module's top level."""
    marks = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                  for t in node.targets)
                and isinstance(node.value, ast.Attribute)):
            marks.append(node.value.attr)
    return marks


def test_the_slow_marker_is_registered() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    markers = options["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.split(":")[0] == "slow" for m in markers)


def test_the_slowest_files_are_marked_slow() -> None:
    unmarked = [name for name in SLOW_FILES if "slow" not in module_marks(ROOT / "tests" / name)]
    assert unmarked == []


def test_the_readme_says_how_long_and_how_to_run_the_quick_subset() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "about 7 minutes on two cores" in readme
    assert 'python3 -m pytest -m "not slow"' in readme
