"""Running the `easymoney` command in the test's own process, for the batch-command tests."""

from __future__ import annotations

from typing import Any

from easymoney.cli import main


def cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `easymoney ARGV`."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    """The one line of an error (a traceback or a second line fails the test)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]
