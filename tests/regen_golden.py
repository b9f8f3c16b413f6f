"""Rewrite the golden transcripts: `python tests/regen_golden.py` (from anywhere).

Every `examples/*.game` is played in-process exactly as `tests/test_examples.py` plays
it (`easymoney play examples/NAME.game`, from the repository's root) and its standard
output is written to `tests/golden/NAME.txt`; golden files of examples that no longer
exist are removed. An example that does not exit with status 0 (a failed expectation,
an error) gets no new golden file: fix it first. The plugin projects of tests/plugins/
and examples/plugins/ are installed for the run into a temporary directory, as the tests
install them (tests/plugin_site.py). Review the changes with `git diff tests/golden`
before committing them.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"


def example_paths() -> list[Path]:
    """The example scripts, in reading order."""
    return sorted(EXAMPLES.glob("*.game"))


def golden_path(example: Path) -> Path:
    return GOLDEN / f"{example.stem}.txt"


def play(example: Path) -> tuple[int, str, str]:
    """(exit status, standard output, standard error) of `easymoney play` on an example."""
    from easymoney.cli import main

    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["play", example.relative_to(ROOT).as_posix()])
    finally:
        os.chdir(cwd)
    return status, out.getvalue(), err.getvalue()


def regenerate() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    failed = 0
    wanted = set()
    for example in example_paths():
        target = golden_path(example)
        wanted.add(target.name)
        status, out, err = play(example)
        if status != 0:
            failed += 1
            print(f"{example.relative_to(ROOT)}: exit status {status}; golden file not "
                  f"written\n{err}{out[-2000:]}", file=sys.stderr)
            continue
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old != out:
            target.write_text(out, encoding="utf-8", newline="\n")
            print(f"{'updated' if old is not None else 'created'} {target.relative_to(ROOT)}")
    for stale in sorted(GOLDEN.glob("*.txt")):
        if stale.name not in wanted:
            stale.unlink()
            print(f"removed {stale.relative_to(ROOT)} (no example of that name)")
    return 1 if failed else 0


if __name__ == "__main__":
    import plugin_site  # next to this file: examples may use the example plugins

    with plugin_site.temporary_site():
        status = regenerate()
    sys.exit(status)
