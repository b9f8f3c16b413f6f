"""The example scripts: each runs with every expectation held and prints its golden transcript.

The transcripts live in tests/golden/NAME.txt; `python tests/regen_golden.py` rewrites
them after an intended change (then review `git diff tests/golden`).
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import pytest

from easymoney.engine.registry import BUILTIN_PLUGINS, discover

sys.path.insert(0, str(Path(__file__).resolve().parent))
import regen_golden  # noqa: E402  (the one place that knows how an example is played)

EXAMPLES = regen_golden.example_paths()
NAME = re.compile(r"^(\d\d)-[a-z0-9]+(-[a-z0-9]+)*\.game$")


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_there_are_ten_examples_at_least_and_the_first_one_the_readme_runs():
    assert len(EXAMPLES) >= 10
    assert EXAMPLES[0].name == "01-first-turns.game"


def test_examples_are_numbered_in_reading_order():
    numbers = []
    for path in EXAMPLES:
        match = NAME.match(path.name)
        assert match, f"{path.name}: name it NN-words.game"
        numbers.append(int(match.group(1)))
    assert numbers == list(range(1, len(EXAMPLES) + 1))


@pytest.mark.parametrize("path", EXAMPLES, ids=_ids(EXAMPLES))
def test_example_explains_itself_and_is_a_test(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith(f"# {path.name[:2]} - "), "start with '# NN - what it shows'"
    header = [line for line in lines[:6] if line.startswith("#")]
    assert len(header) >= 3, "explain what the example shows and why, in its first lines"
    assert any(re.match(r"^\s*expect\b", line) for line in lines), "an example checks itself"


def test_every_rule_of_the_rule_book_is_shown_by_an_example():
    registry = discover()
    rule_ids = {rule for pid in BUILTIN_PLUGINS if pid in registry.plugins
                for rule in registry.plugins[pid].rules}
    assert {"R1", "R15a", "R21a", "R30"} <= rule_ids
    tagged: set[str] = set()
    for path in EXAMPLES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if "#" in line:
                tagged.update(re.findall(r"\b(R\d+[a-z]?)\b", line[line.index("#"):]))
    assert sorted(rule_ids - tagged, key=lambda r: (int(re.sub(r"\D", "", r)), r)) == []


def test_every_example_has_a_golden_transcript_and_no_golden_is_stale():
    golden = {p.name for p in regen_golden.GOLDEN.glob("*.txt")}
    assert golden == {regen_golden.golden_path(p).name for p in EXAMPLES}, \
        "run `python tests/regen_golden.py`"


@pytest.mark.parametrize("path", EXAMPLES, ids=_ids(EXAMPLES))
def test_example_plays_its_golden_transcript(path: Path):
    status, out, err = regen_golden.play(path)
    assert err == ""
    assert status == 0, out[-3000:]
    assert "expectation failed" not in out
    golden = regen_golden.golden_path(path)
    expected = golden.read_text(encoding="utf-8") if golden.exists() else ""
    if out != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), out.splitlines(keepends=True),
            fromfile=f"tests/golden/{golden.name}", tofile=f"easymoney play {path.name}", n=2))
        pytest.fail(f"the transcript of {path.name} differs from its golden file; if the change "
                    f"is intended, run `python tests/regen_golden.py`\n{diff}", pytrace=False)
