"""Issue 28: what a new user runs into, from the README's plain install to the small words of
the commands' answers."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import cli, one_line_error
from processes import HUNG, easymoney

ROOT = Path(__file__).resolve().parent.parent

# Put first on PYTHONPATH, it makes matplotlib unimportable as it is after the README's plain
# install (`pip install .`): the import fails as a missing module does.
NO_MATPLOTLIB = '''\
import sys


class NoMatplotlib:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "matplotlib":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NoMatplotlib())
'''


def without_matplotlib(folder: Path) -> dict[str, str]:
    """The environment of a child process in which matplotlib cannot be imported."""
    site = folder / "no-matplotlib"
    site.mkdir()
    (site / "sitecustomize.py").write_text(NO_MATPLOTLIB)
    paths = [str(site)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


# --- case 22: `board -o` without matplotlib ---------------------------------------------------

def test_issue28_case22_board_o_without_matplotlib_names_the_plot_extra(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = without_matplotlib(tmp_path)
    with easymoney(tmp_path, "board", "examples/09-building.game", "--turn", "3", "-o",
                   "board.png", env=env) as proc:
        out, err = proc.communicate(timeout=HUNG)
    assert (proc.returncode, out) == (2, "")
    assert err == ("error: -o needs matplotlib, which is not installed: "
                   "pip install 'easymoney-game[plot]'\n")
    assert not (tmp_path / "board.png").exists()


def test_issue28_case22_the_blocker_blocks(tmp_path):
    done = subprocess.run([sys.executable, "-c", "import matplotlib.figure"],
                          env=without_matplotlib(tmp_path), capture_output=True, text=True,
                          timeout=HUNG)
    assert done.returncode == 1 and "No module named 'matplotlib" in done.stderr


# --- case 23: the test run's first line names its seed ----------------------------------------

def tiny_project(folder: Path) -> Path:
    """A project of one test with this project's pytest settings and its tests' conftest (which
    installs no plugin project there: the folder has none)."""
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    (folder / "tests").mkdir()
    for name in ("conftest.py", "plugin_site.py"):
        shutil.copy(ROOT / "tests" / name, folder / "tests" / name)
    (folder / "tests" / "test_one.py").write_text("def test_one():\n    pass\n")
    return folder


def first_line(folder: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=folder,
                          capture_output=True, text=True, timeout=HUNG * 2)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()[0]


def test_issue28_case23_the_first_line_names_the_seed_as_the_readme_says(tmp_path):
    project = tiny_project(tmp_path)
    assert first_line(project, "-p", "randomly", "--randomly-seed=1234") == \
        "Using --randomly-seed=1234"
    chosen = first_line(project)
    assert re.fullmatch(r"Using --randomly-seed=\d+", chosen), chosen
    assert first_line(project, "-p", "randomly", "--randomly-seed=last") == chosen
    # in the files' own order there is no seed to name
    assert not first_line(project, "-p", "no:randomly").startswith("Using")


def test_issue28_case23_the_readme_quotes_the_line_the_run_prints():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "The run's first line names its seed\n(`Using --randomly-seed=1234`)" in readme


# --- case 26: small words ----------------------------------------------------------------------

DOUBLES = str(ROOT / "examples" / "05-doubles-forward.game")  # sets doubles.after_card


def test_issue28_case26_an_option_the_command_line_repeats_is_listed_once(capsys, tmp_path):
    record = tmp_path / "r.game"
    code, out, err = cli(capsys, "play", DOUBLES, "--option", "doubles.after_card=forward",
                         "--record", str(record))
    assert code == 0, err
    assert out.splitlines()[0] == "Game of standard option doubles.after_card=forward with Ann, Bob"
    options = [line for line in record.read_text().splitlines() if line.startswith("option ")]
    assert options == ["option doubles.after_card forward"]
    # the command line's value is the one in force, and the only one said
    script = tmp_path / "g.game"
    script.write_text("option doubles.after_card forward\nplayers Ann Bob\nAnn rolls 1 2\n")
    code, out, err = cli(capsys, "play", str(script), "--option", "doubles.after_card=backward",
                         "--record", str(record))
    assert code == 0, err
    assert out.splitlines()[0] == "Game of standard option doubles.after_card=backward with Ann, Bob"
    options = [line for line in record.read_text().splitlines() if line.startswith("option ")]
    assert options == ["option doubles.after_card backward"]


def test_issue28_case26_diff_shows_descriptions_whole(capsys):
    from easymoney.loading.loader import load_variant
    code, out, err = cli(capsys, "diff", "standard", "classic-1936")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("  description: "))
    end = next(k for k in range(start + 1, len(lines)) if not lines[k].startswith("    "))
    said = " ".join(line.strip() for line in lines[start:end])
    a, b = (load_variant(name).description for name in ("standard", "classic-1936"))
    assert said == f"description: {' '.join(repr(a).split())} -> {' '.join(repr(b).split())}"
    assert all(len(line) <= 79 for line in lines[start:end])


def test_issue28_case26_the_board_says_which_turn_in_its_words(capsys, tmp_path, monkeypatch):
    from prompt_helpers import play_lines
    script = tmp_path / "g.game"
    script.write_text("players Ann Bob\nAnn rolls 3 4\nAnn buys\nBob rolls 1 2\nBob buys\n")
    code, out, err = cli(capsys, "board", str(script), "--turn", "0")
    assert code == 0 and "before the first turn" in out and "after turn 0" not in out
    code, out, err = cli(capsys, "board", str(script), "--turn", "1")
    assert code == 0 and "after turn 1" in out
    # at the prompt the board is the state now, in the turn under way
    status, said = play_lines(monkeypatch, ["board", "rolls", "board", "quit"], "--seed", "3",
                              "--players", "Ann", "Bob:greedy")
    boards = [part.split("Ann> ")[0] for part in said.split("Ann> board\n")[1:]]
    assert [re.findall(r"(?:in|after) turn \d+", board) for board in boards] == \
        [["in turn 1"], ["in turn 3"]]  # the roll ended Ann's turn, and Bob played his


def test_issue28_case26_too_many_players_names_the_flag_not_a_script(capsys):
    code, out, err = cli(capsys, "play", "-i", "--players", "A", "B", "C", "D", "E")
    assert (code, out) == (2, "")
    assert one_line_error(err) == "error: --players: standard is for 2 to 4 players, not 5"


SCHEMA_ERRORS = ("name: two\nextends: standard\nplayers:\n  min: \"2\"\n  max: 4\nmoney:\n"
                 "  starting_cash: -5\n  smalest_bill: 10\n")
CHECK_ERRORS = ("name: sem\nextends: standard\nplayers:\n  min: 5\n  max: 4\nmodify:\n"
                "  spaces:\n    Dover Street: {name: Beacon Street}\n")


def test_issue28_case26_check_reports_every_error_of_a_file_each_located(capsys, tmp_path):
    two = tmp_path / "two.yaml"
    two.write_text(SCHEMA_ERRORS)
    code, out, err = cli(capsys, "check", str(two))
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{two}:4:8: error: players.min: wrong type: found '2'; expected an integer; write 2 "
        "(plain digits)",
        f"{two}:7:3: error: money: missing key 'smallest_bill'; expected the keys "
        "smallest_bill, starting_cash, bank_total",
        f"{two}:7:18: error: money.starting_cash: too small: found -5; expected at least 0",
        f"{two}:8:3: error: money: unknown key: found 'smalest_bill'; expected one of "
        "smallest_bill, starting_cash, bank_total (did you mean 'smallest_bill'?)"]
    sem = tmp_path / "sem.yaml"
    sem.write_text(CHECK_ERRORS)
    code, out, err = cli(capsys, "check", str(sem), str(two), "standard")
    assert (code, out) == (2, "standard: ok\n")
    lines = err.splitlines()
    assert lines[:2] == [
        f"{sem}:4:8: error: players.min: more than players.max: found 5; expected at most 4",
        f'{sem}:8:26: error: modify.spaces["Dover Street"].name: duplicate space name: found '
        "'Beacon Street'; expected a name used once (space 3 has it)"]
    assert len(lines) == 6  # and the four of two.yaml


def test_issue28_case26_check_says_a_hundred_errors_then_how_many_more(capsys, tmp_path):
    many = tmp_path / "many.yaml"
    many.write_text("name: many\nextends: standard\ndeck:\n" + "".join(
        f"  - {{text: c{k}, kind: nosuch}}\n" for k in range(130)))
    code, out, err = cli(capsys, "check", str(many))
    lines = err.splitlines()
    assert (code, out, len(lines)) == (2, "", 101)
    assert lines[99].startswith(f"{many}:103:23: error: deck[99].kind: unknown card kind")
    assert lines[100] == f"{many}: and 30 more errors"


def test_issue28_case26_other_commands_say_the_first_error_alone(capsys, tmp_path):
    two = tmp_path / "two.yaml"
    two.write_text(SCHEMA_ERRORS)
    code, out, err = cli(capsys, "show", str(two))
    assert code == 2
    assert one_line_error(f"error: {err.split(' error: ', 1)[1]}").endswith("(plain digits)")


def test_issue28_case26_a_double_cell_of_a_heat_map_names_each_space_with_its_numbers():
    pytest.importorskip("matplotlib")
    from easymoney.board.draw import heatmap_figure
    from easymoney.board.layout import layout
    from easymoney.loading.loader import load_variant
    variant = load_variant("standard")
    fig = heatmap_figure(variant, [("x", [float(i) for i in range(len(variant.spaces))])])
    texts = {t.get_gid(): t for t in fig.axes[0].texts if t.get_gid()}
    for cell in layout(variant):
        for i, x, y, w, h in cell.parts():
            for what, text in (("name", variant.spaces[i].name), ("number", str(i)),
                               ("value", None)):
                label = texts.get(f"{what}-{i}")
                assert label is not None, f"{what}-{i}"
                if text is not None:
                    assert label.get_text().replace("\n", " ") == text
                lx, ly = label.get_position()
                assert x <= lx <= x + w and y <= ly <= y + h, (what, i)
