"""Issue 19 case 22: a script whose variant needs a rule that is not installed says so, even
when a line of that rule's own (`Bob lends Ann 1000`) does not parse without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from easymoney.engine.registry import AUTOLOAD_ENV

ROOT = Path(__file__).resolve().parent.parent


def test_issue19_case22_the_missing_plugin_wins_over_its_unknown_line() -> None:
    env = dict(os.environ, **{AUTOLOAD_ENV: "1"})  # the installed plugins are not loaded
    done = subprocess.run([sys.executable, "-m", "easymoney", "play",
                           str(ROOT / "examples" / "16-railroads.game")], env=env,
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert "unknown action" not in done.stderr
    assert "not installed: the distribution easymoney-railroads provides it" in done.stderr
    assert "Traceback" not in done.stderr


def test_issue19_case22_a_plain_syntax_error_stays_one(tmp_path: Path) -> None:
    script = tmp_path / "typo.game"
    script.write_text("players Ann Bob\nAnn rols 3 4\n")
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(script)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith(f"{script}:2:5: error: ")
