"""`easymoney sweep`: the grid, common random numbers, the effects against the first value, files and errors."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest

from easymoney import simulate as S
from easymoney.simulate import sweep as W

from cli_helpers import cli, one_line_error

ARGS = ["--games", "6", "--players", "3", "--strategies", "cautious,greedy", "--max-turns", "150",
        "--seed", "4"]


def test_the_grid_is_every_combination_the_last_setting_fastest():
    grid = W.Grid(S.Arm("standard"), (W.parse_vary("doubles.after_card=backward,forward"),
                                      W.parse_vary("four_sides=on,off"),
                                      W.parse_vary("end.max_turns=100,200,300")))
    arms = grid.arms()
    assert len(arms) == 12
    assert arms[0].label == "doubles.after_card=backward four_sides=on end.max_turns=100"
    assert arms[1].options == ("doubles.after_card=backward", "end.max_turns=200")
    assert arms[3].disable == ("four_sides",) and arms[0].enable == ("four_sides",)
    effects = grid.effects()
    assert [(d, k, len(c)) for d, k, c in effects] == [(0, 1, 6), (1, 1, 6), (2, 1, 4), (2, 2, 4)]
    for d, k, contrast in effects:  # each pair differs in setting d alone
        for base, arm in contrast:
            a, b = grid.combos[base], grid.combos[arm]
            assert a[d] == 0 and b[d] == k
            assert a[:d] + a[d + 1:] == b[:d] + b[d + 1:]


def test_cells_play_the_same_games_as_compare(capsys):
    """Common random numbers: a cell is the arm compare plays with the same settings."""
    code, out, err = cli(capsys, "sweep", "standard", "--vary", "four_sides=on,off", *ARGS,
                         "--workers", "2", "--json")
    assert code == 0, err
    sweep = json.loads(out)
    code, out, err = cli(capsys, "compare", "standard+four_sides", "standard-four_sides", *ARGS,
                         "--workers", "1", "--json")
    assert code == 0, err
    compare = json.loads(out)
    for cell, arm in zip(sweep["cells"], compare["arms"]):
        assert cell["figures"]["turns"]["value"] == arm["turns"]["mean"]
        assert cell["figures"]["seat:P1"]["value"] == arm["wins"]["by_seat"][0]["rate"]
    (effect,) = sweep["effects"]
    for metric, test in effect["tests"].items():
        theirs = compare["differences"][0]["tests"][metric]
        assert (test["mean"], test["p"]) == (theirs["mean"], theirs["p"]), metric


def test_an_effect_is_the_per_game_difference_averaged_over_the_other_settings():
    grid = W.Grid(S.Arm("standard"), (W.parse_vary("four_sides=on,off"),
                                      W.parse_vary("doubles.after_card=backward,forward")))
    batch = S.Batch(games=5, players=2, strategies=("greedy",), seed=2, max_turns=120)
    rows: list[S.GameRow] = []
    result = S.run(grid.arms(), batch, workers=1, contrasts=[c for _, _, c in grid.effects()],
                   on_rows=rows.extend)
    turns = {(r.arm, r.game): r.turns for r in rows}
    (_, _, contrast), pair = grid.effects()[0], result.pairs[0]
    diffs = [Fraction(sum(turns[(a, g)] - turns[(b, g)] for b, a in contrast), len(contrast))
             for g in range(1, 6)]
    assert pair.n == 5
    assert pair.sum[0] == sum(diffs) and pair.sq[0] == sum(d * d for d in diffs)
    summary = W.sweep_summary(result, grid)
    assert summary["effects"][0]["tests"]["turns"]["mean"] == pytest.approx(float(sum(diffs) / 5))
    assert summary["tests"]["adjustment"] == "Holm"


def test_sweep_prints_cells_and_effects_and_writes_files(tmp_path, capsys):
    code, out, err = cli(capsys, "sweep", "no-four-sides", "--vary", "end.max_turns=60,90",
                         "--vary", "doubles.after_card=backward,forward", *ARGS, "--workers", "1",
                         "--csv-out", str(tmp_path / "s.csv"), "--json-out", str(tmp_path / "s.json"))
    assert code == 0, err
    assert out.startswith("6 games in each of 4 cells (2 x 2) of no-four-sides")
    assert "at most 60 to 90 turns a game (by arm)" in out.splitlines()[0]
    assert "Holm-adjusted" in out
    assert any(line.split()[:4] == ["end.max_turns", "90", "vs", "60"] for line in out.splitlines())
    with open(tmp_path / "s-summary.csv", newline="") as f:
        cells = list(csv.DictReader(f))
    assert [(c["end.max_turns"], c["doubles.after_card"]) for c in cells] == [
        ("60", "backward"), ("60", "forward"), ("90", "backward"), ("90", "forward")]
    assert float(cells[0]["turns_ci95_low"]) <= float(cells[0]["turns"]) <= float(cells[0]["turns_ci95_high"])
    with open(tmp_path / "s-effects.csv", newline="") as f:
        effects = list(csv.DictReader(f))
    assert {(e["setting"], e["value"], e["against"]) for e in effects} == {
        ("end.max_turns", "90", "60"), ("doubles.after_card", "forward", "backward")}
    with open(tmp_path / "s.csv", newline="") as f:
        games = list(csv.DictReader(f))
    assert len(games) == 24 and list(games[0])[:3] == ["cell", "end.max_turns", "doubles.after_card"]
    doc = json.loads((tmp_path / "s.json").read_text())
    assert len(doc["games"]) == 24 and len(doc["summary"]["cells"]) == 4
    code, out, err = cli(capsys, "sweep", "no-four-sides", "--vary", "end.max_turns=60,90",
                         "--vary", "doubles.after_card=backward,forward", *ARGS, "--workers", "2",
                         "--csv")
    assert code == 0 and out == (tmp_path / "s-summary.csv").read_text()


def test_sweep_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    code, _, err = cli(capsys, "sweep", "--vary", "four_sides=on,off", "--vary",
                       "end.max_turns=40,80", *ARGS, "--workers", "1", "--plot", str(tmp_path / "s.png"))
    assert code == 0, err
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, message", [
    ([], "at least one --vary"),
    (["--vary", "four_sides"], "expected RULE.OPTION=V1,V2"),
    (["--vary", "four_sides="], "expected values separated by commas"),
    (["--vary", "four_sides=on,maybe"], "on or off, not 'maybe'"),
    (["--vary", "four_sides=on,true"], "given twice"),
    (["--vary", "foursides=on,off"], "did you mean 'four_sides'?"),
    (["--vary", "end.max_turns=1,2", "--vary", "end.max_turns=3"], "given twice"),
    (["--vary", "end.max_turns=0,100"], "end.max_turns"),
    (["--vary", "end.max_turns=" + ",".join(map(str, range(1, 70, 2))),
      "--vary", "doubles.after_card=backward,forward", "--vary", "four_sides=on,off",
      "--vary", "end.on=first_bankruptcy,last_player_standing", "--vary", "auction=on,off"],
     "at most 512 cells"),
])
def test_bad_sweeps_are_one_line(capsys, argv, message):
    code, out, err = cli(capsys, "sweep", *argv, "--games", "1")
    assert (code, out) == (2, "")
    assert message in one_line_error(err)
