"""Mutated scripts and variant files through `easymoney.cli.main`: each ends clean, in bounded time and memory.

The fuzzers live in bench/fuzz.py (`python bench/fuzz.py --seconds 600` runs them longer,
on a new seed each time); here they run on fixed seeds, about 20 seconds in all.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_modules import load

fuzz = load("fuzz")

SEED = 20240601
INPUTS = {"script": 300, "variant": 400}  # about 10 seconds each on a 2-core machine


def _report(found: list) -> str:
    return "\n\n".join(f"{f.kind}:{f.index} ({f.what}) - reproduce with `python bench/fuzz.py "
                       f"--seed {SEED} --only {f.kind}:{f.index}`\n  easymoney "
                       f"{' '.join(f.args)}\n  {f.problem}" for f in found)


@pytest.mark.parametrize("kind", sorted(INPUTS))
def test_mutated_inputs_end_clean(kind: str, tmp_path: Path) -> None:
    report = fuzz.fuzz(SEED, workdir=tmp_path, count=INPUTS[kind], kinds=(kind,))
    assert report.inputs[kind] == INPUTS[kind]
    assert report.findings == [], _report(report.findings)
    statuses = {s for table in report.statuses.values() for s in table}
    assert 2 in statuses and 0 in statuses  # the mutations reach both ends


# --- the judge itself: what counts as clean -------------------------------------------------------

def _run(status: int | None, err: str = "", escaped: str | None = None) -> object:
    run = fuzz.Run(["play", "x.game"])
    run.status, run.err, run.escaped = status, err, escaped
    return run


@pytest.mark.parametrize("status, err, clean", [
    (0, "", True),
    (1, "", True),
    (2, "x.game:3:5: error: unknown player 'Zed'\nZed buys\n    ^\n", True),
    (2, "x.game: error: script too large: found 2000000 bytes; expected at most 1048576 "
        "bytes (1 MiB, the limit on a script)\n", True),
    (2, "v.yaml:2:1: error: malformed YAML\n", True),
    (2, "x.game:3:5: error: unknown player 'Zed'\nZed buys\n  ^\n", False),        # caret astray
    (2, "x.game:3:5: error: unknown player 'Zed'\n", False),                       # no line shown
    (2, "x.game:9:1: error: past the end\nZed buys\n^\n", False),                  # no line 9
    (2, "Traceback (most recent call last):\n  File ...\nValueError: x\n", False),
    (2, "error: something without a file\n", False),
    (0, "a warning\n", False),
    (3, "", False),
])
def test_the_judge(status: int, err: str, clean: bool) -> None:
    source = b"players Ann Bob\nAnn rolls 3 4\nZed buys\n"
    verdict = fuzz.judge(_run(status, err), "x.game", "script", source)
    assert (verdict is None) == clean, verdict


def test_an_exception_out_of_main_and_a_hang_are_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(args: list[str]) -> int:
        raise ValueError("a bug")

    monkeypatch.setattr(fuzz, "cli_main", boom)
    run = fuzz.run_cli(["check", "standard"])
    assert run.escaped is not None and "ValueError: a bug" in run.escaped
    assert fuzz.judge(run, "standard", "variant").startswith("an exception left main")

    def forever(args: list[str]) -> int:
        while True:
            pass

    monkeypatch.setattr(fuzz, "cli_main", forever)
    run = fuzz.run_cli(["check", "standard"], hang_seconds=0.2)
    assert "Hang: still running after 0.2 s" in (run.escaped or "")
