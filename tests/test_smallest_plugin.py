"""The smallest rule of docs/plugins.md (one import, one function), installed as a user installs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"


def _code_blocks(section: str) -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    part = text[text.index(section):]
    part = part[:part.index("\n## ", 1)]
    return re.findall(r"```(?:python|toml)\n(.*?)```", part, flags=re.S)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The docs' tax_holiday plugin, pip-installed into a folder of its own."""
    module, pyproject = _code_blocks("## The smallest rule")
    project = tmp_path_factory.mktemp("tax_holiday")
    (project / "easymoney_tax_holiday.py").write_text(module)
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=64"]\nbuild-backend = "setuptools.build_meta"\n\n'
        + pyproject)
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-build-isolation", "--no-index", "--target", str(target),
                           str(project)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"pip cannot build a local project offline here: {done.stderr[-300:]}")
    return target


def _easymoney(site: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(site)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    return subprocess.run([sys.executable, "-m", "easymoney", *args], input=stdin, env=env,
                          capture_output=True, text=True)


def test_the_smallest_rule_is_listed_and_off_until_named(installed):
    done = _easymoney(installed, "rules")
    assert done.returncode == 0
    assert re.search(r"^tax_holiday: off \(entry point tax_holiday .*\n\s+House rule: nobody pays "
                     r"taxes", done.stdout, re.M)


def test_the_smallest_rule_plays(installed):
    script = ("players Ann Bob\nwith tax_holiday\nAnn rolls 2 4\n"  # 6: Real Estate Tax
              "expect Ann cash 20000\n")
    done = _easymoney(installed, "play", "-", stdin=script)
    assert done.returncode == 0, done.stderr
    assert "a tax holiday" in done.stdout
    without = _easymoney(installed, "play", "-", stdin=script.replace("with tax_holiday\n", ""))
    assert without.returncode == 1  # the tax is paid: the expectation fails
