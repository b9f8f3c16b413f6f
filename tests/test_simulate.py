"""`easymoney simulate`, `compare` and `strategies`: determinism, the figures, the files, the errors."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import statistics
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from easymoney import simulate as S
from easymoney.cli import main
from easymoney.errors import UsageError
from easymoney.loading.loader import builtin_names

from cli_helpers import cli, one_line_error

STRATEGIES = ["cautious", "greedy", "random"]
MIXED = "cautious,greedy,random"




# --- determinism ---------------------------------------------------------------------------------

def test_output_and_files_do_not_depend_on_the_workers(tmp_path, capsys):
    outputs = []
    for workers in ("1", "2"):
        d = tmp_path / f"w{workers}"
        d.mkdir()
        code, out, err = cli(capsys, "simulate", "--games", "8", "--strategies", MIXED,
                             "--max-turns", "250", "--seed", "11", "--workers", workers,
                             "--json-out", str(d / "g.json"), "--csv-out", str(d / "g.csv"))
        assert code == 0, err
        assert err == (f"wrote 8 games and the summary to {d / 'g.json'}\n"  # no progress bar
                       f"wrote 8 games to {d / 'g.csv'}, and the summary table to "
                       f"{d / 'g-summary.csv'}\n")
        outputs.append((out, (d / "g.json").read_text(), (d / "g.csv").read_text(),
                        (d / "g-summary.csv").read_text()))
    assert outputs[0] == outputs[1]


def test_game_seeds_are_derived_from_the_master_seed_and_the_index_only():
    seeds = [S.game_seed(7, i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert seeds == [S.game_seed(7, i) for i in range(100)]
    assert S.game_seed(7, 3) != S.game_seed(8, 3)
    assert S.game_seed(0, 0) == 2771514704  # a change here changes every published figure


def test_chunks_merge_to_the_same_sums_as_one_pass():
    batch = S.Batch(games=6, players=3, strategies=("greedy", "random"), seed=2, max_turns=150)
    one = S.run([S.Arm("standard")], batch, workers=1)
    arm = S.Arm("standard")
    sim = S.Simulator(S.Plan((arm,), batch, (arm.load(),), ()))
    parts = [sim.chunk(0, 1), sim.chunk(1, 4), sim.chunk(4, 6)]
    merged = sim.new_stats(0)
    for part in reversed(parts):  # exact sums: any order gives the same
        merged.merge(part.stats[0])
    assert vars(merged) == vars(one.stats[0])


# --- every strategy on every shipped variant ------------------------------------------------------

@pytest.mark.parametrize("variant", builtin_names())
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_ends_its_games_on_every_variant(variant, strategy):
    batch = S.Batch(games=2, players=4, strategies=(strategy,), seed=5, max_turns=1000)
    rows: list[S.GameRow] = []
    result = S.run([S.Arm(variant)], batch, workers=1, on_rows=rows.extend)
    stats = result.stats[0]
    assert stats.games == 2 and [r.game for r in rows] == [1, 2]
    assert sum(stats.ended.values()) == 2
    for row in rows:
        assert row.end in S.END_REASONS
        assert 1 <= row.turns <= 1000
        assert (row.end == "turns") == (row.turns == 1000)
        assert all(w >= 0 for w in row.worths)
        assert row.winners, "every game has a winner or leader"
    assert sum(stats.seat_wins) == 2


# --- the summary's figures -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """Three games with every strategy at the table, and their per-game rows."""
    d = tmp_path_factory.mktemp("tiny")
    code = main(["simulate", "--games", "3", "--strategies", MIXED, "--seed", "3",
                 "--max-turns", "400", "--workers", "1", "--json-out", str(d / "t.json"),
                 "--csv-out", str(d / "t.csv")])
    assert code == 0
    return d, json.loads((d / "t.json").read_text())


def test_summary_counts_add_up(tiny):
    _, doc = tiny
    rows, s = doc["games"], doc["summary"]
    assert s["games"] == len(rows) == 3
    assert sum(e["games"] for e in s["ended"].values()) == 3
    assert math.isclose(sum(e["percent"] for e in s["ended"].values()), 100.0)
    for reason, e in s["ended"].items():
        assert e["games"] == sum(1 for r in rows if r["end"] == reason)
    turns = [r["turns"] for r in rows]
    assert s["player_turns"] == sum(turns)
    assert math.isclose(s["turns"]["mean"], statistics.mean(turns))
    assert s["turns"]["median"] == statistics.median(turns)
    assert s["turns"]["p90"] == sorted(turns)[math.ceil(0.9 * len(turns)) - 1]
    assert (s["turns"]["min"], s["turns"]["max"]) == (min(turns), max(turns))
    assert sum(c for _, c in s["turns"]["histogram"]) == 3


def test_summary_wins_count_shared_wins_as_fractions(tiny):
    _, doc = tiny
    rows, wins = doc["games"], doc["summary"]["wins"]
    expected = {seat["seat"]: Fraction(0) for seat in rows[0]["seats"]}
    for r in rows:
        for w in r["winners"]:
            expected[w] += Fraction(1, len(r["winners"]))
    for seat in wins["by_seat"]:
        assert math.isclose(seat["wins"], float(expected[seat["seat"]]))
        lo, hi = seat["ci95"]
        assert 0 <= lo <= seat["rate"] <= hi <= 1
    assert math.isclose(sum(s["wins"] for s in wins["by_strategy"]),
                        sum(s["wins"] for s in wins["by_seat"]))
    assert [s["strategy"] for s in wins["by_strategy"]] == STRATEGIES
    assert "1/k" in wins["note"]
    for i, seat in enumerate(wins["by_seat"]):
        mean = statistics.mean(r["seats"][i]["worth"] for r in rows)
        assert math.isclose(seat["mean_worth"], mean)


def test_summary_spaces_are_all_there_with_their_return(tiny):
    _, doc = tiny
    s = doc["summary"]
    spaces = s["spaces"]
    assert [sp["index"] for sp in spaces] == list(range(48))
    assert sum(sp["landings"] for sp in spaces) == s["landings"] > 0
    assert math.isclose(sum(sp["landing_share"] for sp in spaces), 1.0)
    assert sum(sp["rent"] for sp in spaces) > 0
    for sp in spaces:
        if sp["paid"]:
            assert math.isclose(sp["return"], sp["rent"] / sp["paid"])
        else:
            assert sp["return"] is None
        assert isinstance(sp["rent"], int) and isinstance(sp["paid"], int)


def test_csv_has_one_row_per_game_and_a_summary_beside_it(tiny):
    d, doc = tiny
    with open(d / "t.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert list(table[0]) == ["game", "seed", "turns", "end", "winners", "bank",
                              "P1_strategy", "P1_worth", "P2_strategy", "P2_worth",
                              "P3_strategy", "P3_worth", "P4_strategy", "P4_worth"]
    assert [int(r["game"]) for r in table] == [1, 2, 3]
    for row, game in zip(table, doc["games"]):
        assert int(row["seed"]) == game["seed"] == S.game_seed(3, game["game"] - 1)
        assert int(row["turns"]) == game["turns"]
        assert row["winners"].split() == game["winners"]
        assert [row["P1_strategy"], row["P2_strategy"], row["P3_strategy"],
                row["P4_strategy"]] == ["cautious", "greedy", "random", "cautious"]
    with open(d / "t-summary.csv", newline="") as f:
        summary = dict(csv.reader(f))
    assert summary["key"] == "value"
    assert int(summary["games"]) == 3
    assert summary["wins.by_seat.P1.strategy"] == "cautious"
    assert "spaces.47.landings" in summary
    assert not [p for p in d.iterdir() if p.name.startswith(".easymoney-")]  # no temp file left
    umask = os.umask(0)
    os.umask(umask)
    assert (d / "t.csv").stat().st_mode & 0o777 == 0o666 & ~umask


def test_json_shape(tiny):
    _, doc = tiny
    assert list(doc) == ["games", "summary"]
    game = doc["games"][0]
    assert set(game) == {"game", "seed", "turns", "end", "winners", "bank", "seats"}
    assert set(game["seats"][0]) == {"seat", "strategy", "worth"}
    assert {"games", "player_turns", "ended", "turns", "wins", "spaces", "seats",
            "landings"} <= set(doc["summary"])


def test_the_printed_summary(capsys):
    code, out, err = cli(capsys, "simulate", "no-four-sides", "--games", "4", "--players", "3",
                         "--strategies", "greedy", "--workers", "1", "--max-turns", "300")
    assert code == 0, err
    assert out.startswith("4 games of no-four-sides, 3 players, seed 0")
    for text in ("How the games ended", "bankruptcy", "bank broken", "turn limit",
                 "Turns per game: mean", "median", "90th percentile", "95% Wilson",
                 "counts 1/k", "by strategy", "Spaces: the 10 that earned the most rent",
                 "return"):
        assert text in out


# --- compare and SPECs --------------------------------------------------------------------------

def test_compare_of_two_identical_arms_finds_no_difference(capsys):
    batch = S.Batch(games=6, players=4, strategies=("cautious", "greedy"), max_turns=200)
    summary = S.compare_summary(S.run([S.Arm("standard"), S.parse_spec("no-four-sides+four_sides")],
                                      batch, workers=2))
    (diff,) = summary["differences"]
    assert diff["games"] == 6
    for name, test in diff["tests"].items():
        assert test["mean"] == 0 and test["p"] == 1.0 and not test["significant"], name
    code, out, err = cli(capsys, "compare", "standard", "standard", "--games", "3",
                         "--max-turns", "100", "--workers", "1")
    assert code == 0, err
    assert "mean turns" in out and "% won by P1 (cautious)" in out
    assert " *" not in out.split("\n\n")[1]


def test_compare_pairs_the_games_of_each_arm():
    batch = S.Batch(games=5, players=2, strategies=("greedy",), seed=1, max_turns=300)
    arms = [S.Arm("standard"), S.parse_spec("standard-four_sides")]
    result = S.run(arms, batch, workers=1)
    rows = [[], []]
    for a in range(2):
        S.run([arms[a]], batch, workers=1, on_rows=rows[a].extend)
    pair = result.pairs[0]
    diffs = [b.turns - a.turns for a, b in zip(*rows)]
    assert pair.n == 5
    assert pair.sum[0] == sum(diffs) and pair.sq[0] == sum(d * d for d in diffs)
    summary = S.compare_summary(result)
    assert math.isclose(summary["differences"][0]["tests"]["turns"]["mean"], sum(diffs) / 5)


@pytest.mark.parametrize("spec, expected", [
    ("standard", ("standard", (), (), ())),
    ("no-four-sides", ("no-four-sides", (), (), ())),
    ("classic-1936", ("classic-1936", (), (), ())),
    ("standard-four_sides", ("standard", (), ("four_sides",), ())),
    ("no-four-sides+four_sides", ("no-four-sides", ("four_sides",), (), ())),
    ("standard@doubles.after_card=forward", ("standard", (), (), ("doubles.after_card=forward",))),
    ("classic-1936-R13+R13@end.on=last_player_standing@end.max_turns=50",
     ("classic-1936", ("R13",), ("R13",), ("end.on=last_player_standing", "end.max_turns=50"))),
])
def test_spec_parsing(spec, expected):
    arm = S.parse_spec(spec)
    assert (arm.variant, arm.enable, arm.disable, arm.options) == expected
    assert arm.name == spec


def test_spec_with_a_file_whose_name_has_dashes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("my-house-rules.yaml").write_text("name: mine\nextends: standard\n")
    arm = S.parse_spec("my-house-rules.yaml-four_sides")
    assert (arm.variant, arm.disable) == ("my-house-rules.yaml", ("four_sides",))
    assert arm.load().name == "mine" and "four_sides" not in arm.load().rules


@pytest.mark.parametrize("spec, message", [
    ("standrad-four_sides", "does not start with a variant"),
    ("standard-four_side", "unknown rule 'four_side' (did you mean 'four_sides'?)"),
    ("standard+nonsense", "unknown rule 'nonsense'"),
    ("standard*x", "cannot read '*x' after 'standard'"),
    ("standard@doubles.after_card", "cannot read '@doubles.after_card'"),
])
def test_bad_specs_are_usage_errors(spec, message):
    with pytest.raises(UsageError) as info:
        S.parse_spec(spec)
    assert message in str(info.value)


def test_bad_spec_suggests_the_variant(capsys):
    code, _, err = cli(capsys, "compare", "standard", "standrad-four_sides", "--games", "1")
    assert code == 2
    assert "(did you mean 'standard'?)" in one_line_error(err)
    code, _, err = cli(capsys, "compare", "standard", "standard@doubles.after_card=sideways",
                       "--games", "1")
    assert code == 2 and "doubles.after_card" in one_line_error(err)


# --- records ---------------------------------------------------------------------------------------

def test_recorded_games_replay_with_their_expectations(tmp_path, capsys):
    rec = tmp_path / "rec"
    code, _, err = cli(capsys, "simulate", "standard-four_sides", "--games", "3", "--players", "3",
                       "--strategies", MIXED, "--max-turns", "300", "--workers", "2",
                       "--record-dir", str(rec), "--option", "doubles.after_card=forward")
    assert code == 0, err
    files = sorted(p.name for p in rec.iterdir())
    assert files == ["game-00001.game", "game-00002.game", "game-00003.game"]
    text = (rec / "game-00001.game").read_text()
    assert "without four_sides" in text and "option doubles.after_card forward" in text
    assert f"seed {S.game_seed(0, 0)}" in text
    texts = [(rec / name).read_text() for name in files]
    assert any("expect game over by bankruptcy" in t for t in texts)  # ended by the rules
    assert any("expect game over" not in t for t in texts)  # cut by --max-turns
    for name in files:
        assert main(["play", str(rec / name), "--quiet"]) == 0
        out, _ = capsys.readouterr()
        assert "expectation failed" not in out


@pytest.mark.parametrize("cut", [[], ["--max-turns", "30"]])
def test_issue28_case31_records_of_games_with_an_mc_seat_replay(tmp_path, capsys, cut):
    """A game with an `mc` seat is stepped (a GameState), and its record used to hold its
    card draws only, which do not replay: the record is the stepping game's history."""
    rec = tmp_path / "rec"
    code, _, err = cli(capsys, "simulate", "--games", "2", "--players", "2", "--strategies",
                       "cautious,mc", "--workers", "1", "--record-dir", str(rec), *cut)
    assert code == 0, err
    for name in ("game-00001.game", "game-00002.game"):
        text = (rec / name).read_text()
        assert "P1 rolls" in text and "P2 rolls" in text
        assert main(["play", str(rec / name), "--quiet"]) == 0, name
        out, err = capsys.readouterr()
        assert "expectation failed" not in out and err == ""
    if not cut:
        assert "expect game over by" in (rec / "game-00001.game").read_text()


def test_recorded_game_of_a_variant_file_names_it_relative_to_the_record(tmp_path, capsys):
    variant = tmp_path / "rules" / "my-rules.yaml"
    variant.parent.mkdir()
    variant.write_text("name: mine\nextends: standard\nrules:\n  four_sides: false\n")
    rec = tmp_path / "out"
    code, _, err = cli(capsys, "simulate", str(variant), "--games", "1", "--players", "2",
                       "--strategies", "greedy", "--max-turns", "120", "--workers", "1",
                       "--record-dir", str(rec))
    assert code == 0, err
    assert 'variant "../rules/my-rules.yaml"' in (rec / "game-00001.game").read_text()
    assert main(["play", str(rec / "game-00001.game"), "--quiet"]) == 0


# --- what was written where ----------------------------------------------------------------------

BRIEF = ("--games", "3", "--players", "2", "--max-turns", "40", "--workers", "1")


@pytest.mark.parametrize("command, arms, tables", [
    (["simulate"], 1, ["summary"]),
    (["compare", "standard", "no-four-sides"], 2, ["summary"]),
    (["sweep", "--vary", "four_sides=on,off"], 2, ["summary", "effects"]),
])
def test_issue28_case26_each_file_written_is_named_on_standard_error(tmp_path, capsys, command,
                                                                      arms, tables):
    """--csv-out, --json-out and --record-dir used to write without a word: one line each
    on standard error says what went where (the summary is alone on standard output)."""
    games = tmp_path / "games.csv"
    code, out, err = cli(capsys, *command, *BRIEF, "--csv-out", str(games), "--json-out",
                         str(tmp_path / "games.json"), "--record-dir", str(tmp_path / "rec"))
    assert code == 0, err
    plays = 3 * arms
    beside = " and ".join(str(tmp_path / f"games-{t}.csv") for t in tables)
    folders = f" (arm-1 to arm-{arms}, a folder an arm)" if arms > 1 else ""
    assert err.splitlines() == [
        f"wrote {plays} games and the summary to {tmp_path / 'games.json'}",
        f"wrote {plays} games to {games}, and the {' and '.join(tables)} "
        f"table{'s' if len(tables) > 1 else ''} to {beside}",
        f"wrote {plays} games as game scripts to {tmp_path / 'rec'}{folders}"]
    assert "wrote" not in out


def test_issue28_case26_a_plot_is_named_on_standard_error(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    code, out, err = cli(capsys, "simulate", *BRIEF, "--plot", str(tmp_path / "p.svg"))
    assert (code, err) == (0, f"wrote the figures to {tmp_path / 'p.svg'}\n")


# --- clean errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["simulate", "--strategies", "cautious,greddy"], "unknown strategy 'greddy' (did you mean 'greedy'?)"),
    (["simulate", "--strategies", "cautious,"], "--strategies"),
    (["simulate", "--json-out", "no/such/folder/x.json"], "does not exist"),
    (["simulate", "--csv-out", "no/such/folder/x.csv"], "does not exist"),
    (["simulate", "--record-dir", "no/such/folder/rec"], "does not exist"),
    (["simulate", "--players", "5"], "standard is played by 2 to 4 players"),
    (["simulate", "--games", "0"], "at least 1 game"),
    (["simulate", "--workers", "0"], "--workers 0"),
    (["simulate", "--without", "foursides"], "did you mean 'four_sides'?"),
    (["compare", "standard", "--games", "1"], "at least two SPECs"),
    (["compare", "standard", "standard-four_side"], "did you mean 'four_sides'?"),
])
def test_clean_errors(capsys, argv, message):
    code, out, err = cli(capsys, *argv)
    assert code == 2
    assert message in one_line_error(err)
    assert out == ""


def test_plot_without_matplotlib_says_how_to_install_it(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = cli(capsys, "simulate", "--games", "1", "--plot", str(tmp_path / "p.png"))
    assert code == 2
    assert "pip install 'easymoney-game[plot]'" in one_line_error(err)
    assert not (tmp_path / "p.png").exists()


def test_plot_is_a_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    code, _, err = cli(capsys, "simulate", "--games", "2", "--max-turns", "100", "--workers", "1",
                       "--plot", str(tmp_path / "p.png"))
    assert code == 0, err
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- strategies, progress, statistics -------------------------------------------------------------

def test_strategies_lists_name_origin_and_description(capsys):
    code, out, _ = cli(capsys, "strategies")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    for name in STRATEGIES:
        assert "built-in" in lines[name]
    assert "Keeps a cash reserve" in lines["cautious"]


def test_progress_bar_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    pipe, tty = io.StringIO(), Tty()
    for stream in (pipe, tty):
        bar = S.Progress(10, stream)
        bar(5, 1, 2)
        bar(10, 2, 2)
        bar.close()
    assert pipe.getvalue() == ""
    assert "1/2 chunks, 5/10 games" in tty.getvalue() and "left" in tty.getvalue()


def test_wilson_interval():
    lo, hi = S.wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-4) and math.isclose(hi, 0.7634, abs_tol=1e-4)
    assert S.wilson(0, 10)[0] == 0.0
    assert math.isclose(S.wilson(10, 10)[1], 1.0)


def test_paired_t_and_mcnemar():
    assert math.isclose(S.t_test_p(2.228138852, 10), 0.05, abs_tol=1e-6)
    assert math.isclose(S.t_test_p(1.959963985, 10 ** 7), 0.05, abs_tol=1e-6)
    diffs = [3, -1, 4, 1, 5]
    t = S.paired_t(5, sum(diffs), sum(d * d for d in diffs))
    assert math.isclose(t["t"], statistics.mean(diffs) / (statistics.stdev(diffs) / math.sqrt(5)))
    # b = 10 games won only in the first arm, c = 20 only in the second
    m = S.mcnemar(100, 20 - 10, 20 + 10)
    assert math.isclose(m["z"], 10 / math.sqrt(30))
    assert math.isclose(m["p"], 0.09874, abs_tol=1e-5)  # exact binomial, two-sided
    m = S.mcnemar(100, 20 - 10, 20 + 10, fractional=True)
    assert math.isclose(m["p"], 0.0679, abs_tol=1e-4)  # normal form
    assert S.mcnemar(100, 0, 0)["p"] == 1.0
    assert S.mcnemar(10, 1, 1)["p"] == 1.0  # one discordant game proves nothing


# --- one meaning per flag, the variant's limits, Holm ------------------------------------------------

def test_holm_adjustment():
    assert S.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert S.holm([0.5, 0.9]) == [1.0, 1.0]
    assert S.holm([]) == []


def test_compare_adjusts_its_p_values_for_the_tests_of_the_table():
    """The issue's case: seat P3's p = 0.019 alone is not significant among the table's tests."""
    batch = S.Batch(games=400, players=4, strategies=("greedy",))
    summary = S.compare_summary(S.run([S.Arm("standard"), S.Arm("no-four-sides")], batch,
                                      workers=2))
    p3 = summary["differences"][0]["tests"]["seat:P3"]
    assert p3["p"] == pytest.approx(0.0187, abs=1e-3)
    assert p3["p_holm"] > 0.05 and not p3["significant"]
    assert summary["tests"]["adjustment"] == "Holm"
    assert "Holm-adjusted" in S.compare_text(summary)


def test_the_reports_say_the_variants_own_turn_limit(capsys):
    code, out, err = cli(capsys, "simulate", "--games", "2", "--workers", "1",
                         "--option", "end.max_turns=400")
    assert code == 0, err
    assert "at most 400 turns a game" in out.splitlines()[0]
    code, out, err = cli(capsys, "compare", "standard@end.max_turns=400", "no-four-sides",
                         "--games", "2", "--workers", "1", "--max-turns", "300")
    assert code == 0, err
    assert "at most 300 turns a game" in out.splitlines()[0]
    code, out, err = cli(capsys, "compare", "standard@end.max_turns=50", "no-four-sides",
                         "--games", "2", "--workers", "1", "--max-turns", "300")
    assert "at most 50 to 300 turns a game (by arm)" in out.splitlines()[0]


def test_players_default_to_what_the_variant_allows(tmp_path, capsys):
    trio = tmp_path / "trio.yaml"
    trio.write_text("name: trio\nextends: standard\nplayers:\n  min: 2\n  max: 3\n")
    code, out, err = cli(capsys, "simulate", str(trio), "--games", "2", "--workers", "1",
                         "--max-turns", "50")
    assert code == 0, err
    assert "3 players" in out.splitlines()[0]
    code, _, err = cli(capsys, "compare", str(trio), "standard", "--games", "1",
                       "--max-turns", "20", "--workers", "1")
    assert code == 0, err


def test_every_batch_command_has_the_same_flags_and_defaults():
    from easymoney.cli import build_parser
    parser = build_parser()
    variant = {"simulate": [], "compare": ["standard", "standard"],
               "sweep": ["--vary", "four_sides=on,off"]}
    parsed = {name: parser.parse_args([name, *extra]) for name, extra in variant.items()}
    from easymoney.commands import simulate as command
    assert command.HELP_GAMES == f"{S.DEFAULT_GAMES:,}"  # what --help says is what runs
    assert command.HELP_PLAYERS == f"{S.DEFAULT_PLAYERS:,}"
    assert command.HELP_MAX_TURNS == f"{S.DEFAULT_MAX_TURNS:,}"
    for name, args in parsed.items():
        assert args.games is None, name  # DEFAULT_GAMES when the command runs
        assert args.players is None and args.max_turns is None, name
        for flag in ("json", "csv", "json_out", "csv_out", "record_dir", "plot", "cluster",
                     "workers", "with_rules", "without_rules", "options", "check_invariants"):
            assert hasattr(args, flag), (name, flag)
        assert args.json is False and args.csv is False


def test_json_is_a_switch_and_files_have_their_own_flags(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "simulate", "--json", "no-four-sides", "--games", "3",
                         "--workers", "1", "--max-turns", "60")
    assert code == 0, err
    assert json.loads(out)["variant"] == "no-four-sides"
    assert list(tmp_path.iterdir()) == []  # no file called no-four-sides
    code, out, err = cli(capsys, "simulate", "--json", "out.json", "--games", "1")
    assert code == 2 and "--json-out FILE" in one_line_error(err)
    code, out, err = cli(capsys, "simulate", "--csv", "--games", "3", "--workers", "1",
                         "--max-turns", "60")
    assert code == 0 and out.startswith("key,value\n")


def test_compare_takes_rule_flags_files_and_records(tmp_path, capsys):
    code, out, err = cli(capsys, "compare", "standard", "standard-four_sides", "--games", "3",
                         "--players", "2", "--strategies", "greedy", "--max-turns", "80",
                         "--workers", "2", "--option", "doubles.after_card=forward",
                         "--json-out", str(tmp_path / "c.json"), "--csv-out", str(tmp_path / "c.csv"),
                         "--record-dir", str(tmp_path / "rec"), "--csv")
    assert code == 0, err
    table = list(csv.DictReader(io.StringIO(out)))
    assert {r["arm"] for r in table} == {"standard", "standard-four_sides"}
    assert {r["p_holm"] for r in table if r["arm"] == "standard"} == {""}
    doc = json.loads((tmp_path / "c.json").read_text())
    assert [(g["arm"], g["game"]) for g in doc["games"]] == [
        (a, i) for i in (1, 2, 3) for a in ("standard", "standard-four_sides")]
    assert doc["summary"]["arms"][0]["rules"]["options"] == ["doubles.after_card=forward"]
    assert (tmp_path / "c-summary.csv").read_text() == out
    assert sorted(p.name for p in (tmp_path / "rec").iterdir()) == ["arm-1", "arm-2"]
    text = (tmp_path / "rec" / "arm-2" / "game-00003.game").read_text()
    assert "without four_sides" in text and "option doubles.after_card forward" in text
    assert main(["play", str(tmp_path / "rec" / "arm-2" / "game-00003.game"), "--quiet"]) == 0


def test_compare_plot_is_a_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    code, _, err = cli(capsys, "compare", "standard", "no-four-sides", "--games", "2",
                       "--max-turns", "60", "--workers", "1", "--plot", str(tmp_path / "c.png"))
    assert code == 0, err
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_plot_has_the_variant_and_per_space_values():
    from easymoney.simulate.plot import space_panels
    batch = S.Batch(games=2, players=2, strategies=("greedy",), max_turns=60)
    result = S.run([S.Arm("standard")], batch, workers=1)
    summary = S.summarize(result)
    panels = space_panels(summary)
    assert [title for title, _ in panels] == ["landings (% of all)", "rent earned per game ($)"]
    assert all(len(values) == len(result.variants[0].spaces) for _, values in panels)


def test_plot_draws_the_landings_and_rents_on_the_board(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from easymoney.board import draw
    from easymoney.simulate.plot import plot_summary
    batch = S.Batch(games=2, players=2, strategies=("greedy",), max_turns=60)
    result = S.run([S.Arm("standard")], batch, workers=1)
    summary = S.summarize(result)
    drawn = []
    real = draw.heatmap_figure
    monkeypatch.setattr(draw, "heatmap_figure",
                        lambda variant, panels, *more, **options: drawn.append((variant, panels))
                        or real(variant, panels, *more, **options))
    plot_summary(summary, str(tmp_path / "p.png"), result.variants[0])
    (variant, panels), = drawn
    assert variant is result.variants[0] and [t for t, _ in panels][0] == "landings (% of all)"
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
