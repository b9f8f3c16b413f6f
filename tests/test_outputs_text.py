"""What the batch commands print (issue 19, cases 25 and 27): a progress bar that fits the
terminal and redraws itself, counts written alike, headings that say a thing once."""

from __future__ import annotations

import io
import os
import re
import shutil

import pytest

from easymoney import simulate as S

from cli_helpers import cli


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


# --- case 25: the progress bar -------------------------------------------------------------------

@pytest.mark.parametrize("columns", [80, 60, 40, 20])
def test_issue19_case25_the_progress_bar_fits_the_terminal_and_redraws(columns, monkeypatch):
    monkeypatch.setattr(shutil, "get_terminal_size",
                        lambda fallback=(80, 24): os.terminal_size((columns, 24)))
    tty = Tty()
    bar = S.Progress(1_000_000_000, tty)
    for done, chunk in ((0, 0), (1_000, 1), (500_000_000, 400), (1_000_000_000, 800)):
        bar(done, chunk, 800)
    bar.close()
    text = tty.getvalue()
    assert "\n" not in text  # one line, drawn over and over
    updates = text.split("\r")
    assert updates[0] == "" and len(updates) >= 5
    for update in updates[1:]:
        shown = update.replace("\033[K", "")
        assert len(shown) < columns, shown  # never the last column: no wrap, no scroll
    if columns >= 60:
        assert "1,000,000,000/1,000,000,000 games" in text


def test_issue19_case25_a_shorter_update_leaves_nothing_of_the_longer_one(monkeypatch):
    monkeypatch.setattr(shutil, "get_terminal_size",
                        lambda fallback=(80, 24): os.terminal_size((80, 24)))
    tty = Tty()
    bar = S.Progress(100, tty)
    bar(50, 10, 20)
    bar(60)
    last = tty.getvalue().split("\r")[-1]
    assert last.endswith("\033[K")  # the rest of the line cleared


def test_issue28_case25_on_a_pipe_a_progress_line_every_30_seconds():
    """A long run with standard error on a pipe or a file (a CI log) said nothing for
    minutes: a plain line every 30 seconds says how far it is; a short run says nothing."""
    now = [0.0]
    pipe = io.StringIO()
    bar = S.Progress(1_000, pipe, clock=lambda: now[0])
    for at, done in ((1, 50), (29.9, 100), (30, 120), (45, 180), (59.9, 230), (61, 250),
                     (200, 990)):
        now[0] = at
        bar(done, done // 10, 100)
    bar.close()
    assert pipe.getvalue().splitlines() == [
        "easymoney: 120/1,000 games, 0:30 elapsed, about 3:40 left",
        "easymoney: 250/1,000 games, 1:01 elapsed, about 3:03 left",
        "easymoney: 990/1,000 games, 3:20 elapsed, about 0:02 left"]
    quick = io.StringIO()
    bar = S.Progress(10, quick, clock=lambda: now[0])
    bar(10)
    bar.close()
    assert quick.getvalue() == ""


# --- case 27: polish --------------------------------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def test_issue19_case27_the_rules_heading_names_the_variant_once(capsys, tmp_path):
    code, out, _ = cli(capsys, "rules")
    assert code == 0 and out.splitlines()[0] == "Rules of variant standard:"
    mine = tmp_path / "mine.yaml"
    mine.write_text("name: mine\nextends: standard\n")
    code, out, _ = cli(capsys, "rules", str(mine))
    assert code == 0 and out.splitlines()[0] == f"Rules of variant mine ({mine}):"


def _unseparated(text: str) -> list[str]:
    """Whole numbers of four digits or more written without a thousands separator (a seed
    is a name, not a count: left out)."""
    text = re.sub(r"seed \d+", "seed", text)
    return re.findall(r"(?<![\d,.])\d{4,}(?![\d,])", text)


@pytest.fixture(scope="module")
def result():
    batch = S.Batch(games=4, players=2, strategies=("greedy", "cautious"), max_turns=60)
    return S.run([S.Arm("standard"), S.Arm("standard", disable=("four_sides",))], batch,
                 workers=1, contrasts=None)


def _large(summary: dict) -> dict:
    """The summary as if its run had been large: counts past a thousand."""
    summary["games"] = 1267
    summary["players"] = 1000
    for arm in summary.get("arms", [summary]):
        arm["games"], arm["players"] = 1267, 1000
        arm["ended"]["bankruptcy"]["games"] = 1015
        arm["wins"]["shared_games"] = 1234
        arm["wins"]["games_without_winner"] = 1100
    return summary


def test_issue19_case27_simulate_and_compare_write_every_count_alike(result):
    text = S.summary_text(_large(S.summarize(result)))
    assert _unseparated(text) == [], text
    assert "1,015 games" in text and "1,267 games" in text and "1,000 players" in text
    text = S.compare_text(_large(S.compare_summary(result)))
    assert _unseparated(text) == [], text
    assert "1,000 players" in text


def test_issue19_case27_sweep_writes_every_count_alike(capsys):
    code, out, err = cli(capsys, "sweep", "--vary", "four_sides=on,off", "-n", "2",
                         "--max-turns", "40", "--workers", "1", "--json")
    assert code == 0, err
    import json
    from easymoney.simulate import sweep as W
    summary = json.loads(out)
    summary["games"], summary["players"] = 1267, 1000
    text = W.sweep_text(summary)
    assert _unseparated(text) == [], text
    assert "1,267 games" in text and "1,000 players" in text


def test_issue19_case27_the_docs_name_every_example_and_say_1_game():
    last = sorted(p.name for p in (ROOT / "examples").glob("[0-9][0-9]-*.game"))[-1]
    assert last in (ROOT / "docs" / "scripts.md").read_text()
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert not re.search(r"(?<![\d,.])1 (games|players|turns|houses)\b", page.read_text()), page
