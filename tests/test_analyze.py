"""Issue 31, part 1: `easymoney analyze VARIANT`, a variant's profile from bot games.

Tiny budgets: a profile of 30 games and a ladder of a few games a rung.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import cli, one_line_error
from easymoney.cli import main

SMALL = ("--games", "30", "--ladder-games", "4", "--ladder-mc-games", "1",
         "--ladder-mc", "mc:rollouts=2,horizon=2")


@lru_cache(maxsize=None)
def _profile(*argv: str) -> dict[str, Any]:
    """The JSON profile of `easymoney analyze ARGV` (run once per argv for the module)."""
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["analyze", *argv, "--json"]) == 0
    return json.loads(out.getvalue())


def _interval(figure: dict[str, Any], key: str = "mean") -> None:
    lo, hi = figure["ci95"]
    assert lo <= figure[key] <= hi, figure


def test_every_figure_has_its_interval() -> None:
    p = _profile("standard", *SMALL, "--workers", "1")
    turns = p["length"]["turns"]
    _interval(turns)
    lo, hi = turns["median_ci95"]
    assert lo <= turns["median"] <= hi
    _interval(p["length"]["minutes"])
    assert p["seconds_per_turn"] == 20
    assert p["length"]["minutes"]["mean"] == pytest.approx(turns["mean"] * 20 / 60)
    assert set(p["ended"]) >= {"bankruptcy", "bank", "turns"}
    for e in p["ended"].values():
        _interval(e, "percent")
    for s in p["wins"]["by_seat"]:
        lo, hi = s["advantage_ci95"]
        assert lo <= s["advantage"] <= hi
    _interval(p["margin"]["dollars"])
    _interval(p["margin"]["share"])
    for key in ("changes", "decided_turn", "decided_share"):
        _interval(p["lead"][key])
    _interval(p["comebacks"], "percent")
    kinds = {f["kind"] for f in p["flows"]}
    assert {"rent", "purchase", "tax", "card"} <= kinds and "setup" not in kinds
    for f in p["flows"]:
        _interval(f["per_game"])
    status = {r["rule"]: r["status"] for r in p["rules"]}
    assert status["rent"] == "fired" and status["four_sides"] == "refused"
    for r in p["rules"]:
        _interval(r, "percent")
        lo, hi = r["refused_ci95"]
        assert lo <= r["refused_percent"] <= hi
    assert p["spaces"] and all(s["ci95"] is not None for s in p["spaces"] if s["paid"])
    for s in p["spaces"]:
        if s["return"] is not None:
            _interval(s, "return")
    rungs = [(r["first"], r["second"]) for r in p["ladder"]]
    assert rungs == [("random", "cautious"), ("cautious", "greedy"),
                     ("greedy", "mc:rollouts=2,horizon=2")]
    for r in p["ladder"]:
        assert r["games"] == (8 if r["first"] != "greedy" else 2)  # both seat orders
        _interval(r["arms"][0], "share")
    assert set(p["notes"]) >= {"lead_changes", "decided", "comeback", "rules", "margin"}


def test_the_workers_do_not_change_the_profile() -> None:
    one = _profile("standard", *SMALL, "--workers", "1")
    two = _profile("standard", *SMALL, "--workers", "2")
    assert json.dumps(one) == json.dumps(two)


def test_r14_give_or_take_fires_by_acting_and_r13_four_sides_by_refusing() -> None:
    """give_or_take emits no event of its own on a normal draw: it fires because a card is
    drawn while its em_land runs; four_sides acts by refusing (R13), never by an event."""
    p = _profile("standard", *SMALL, "--workers", "1")
    rules = {r["rule"]: r for r in p["rules"]}
    give = rules["give_or_take"]
    assert give["status"] == "fired" and give["percent"] > 50
    assert give["events_per_game"] < 1  # chain_stops, its one event, is rare
    sides = rules["four_sides"]
    assert sides["fired_games"] == 0 and sides["refused_games"] > 0
    assert sides["refusals_per_game"] > 0
    # without the rule, nothing of it is counted: it is not in play
    off = _profile("standard-four_sides", *SMALL, "--workers", "1")
    assert "four_sides" not in {r["rule"] for r in off["rules"]}


def test_analyze_on_a_local_cluster_is_the_local_result() -> None:
    pytest.importorskip("distributed")
    local = _profile("standard", *SMALL, "--workers", "1")
    remote = _profile("standard", *SMALL, "--cluster", "local:2")
    assert json.dumps(local) == json.dumps(remote)


def test_against_pairs_each_figure_and_the_winner_is_known_sooner_without_four_sides() -> None:
    p = _profile("standard", *SMALL, "--workers", "2", "--against", "standard-four_sides")
    first, second = p["profiles"]
    assert (first["arm"], second["arm"]) == ("standard", "standard-four_sides")
    diffs = {d["metric"]: d for d in p["differences"]}
    assert {"turns", "lead_changes", "decided_turn", "decided_share", "comeback", "margin",
            "ended:bank", "seat:P1", "flow:rent"} <= set(diffs)
    for d in p["differences"]:
        assert {"p", "p_holm", "significant", "ci95"} <= set(d)
    # without four sides a game is short, its lead changes hands less and is settled sooner
    for metric in ("turns", "lead_changes", "decided_turn"):
        assert diffs[metric]["mean"] < 0 and diffs[metric]["significant"], diffs[metric]
    assert all("differences" in rung for rung in p["ladder"])


def test_the_text_names_every_section(capsys: Any) -> None:
    code, out, _ = cli(capsys, "analyze", "standard", *SMALL, "--workers", "1",
                       "--seconds-per-turn", "30")
    assert code == 0
    for words in ("player-turns", "table minutes", "at 30 s a player-turn", "How games end",
                  "advantage", "winner's margin", "lead changes a game", "leads for good",
                  "comebacks", "Money flows", "Rules' activity", "Return on price",
                  "Skill ladder"):
        assert words in out, words


def test_the_html_report_is_self_contained(capsys: Any, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page, data = tmp_path / "p.html", tmp_path / "p.json"
    code, _, err = cli(capsys, "analyze", "standard", "--games", "20", "--ladder-games", "2",
                       "--ladder-mc-games", "0", "--workers", "1", "--html", str(page),
                       "--json-out", str(data))
    assert code == 0
    text = page.read_text(encoding="utf-8")
    assert len(re.findall(r'<img [^>]*src="data:image/png;base64,[A-Za-z0-9+/=]+"', text)) >= 5
    assert not re.search(r"(?:href|src)=\"(?!data:)", text)
    assert "http://" not in text and "https://" not in text
    assert json.loads(data.read_text(encoding="utf-8"))["games"] == 20
    assert f"wrote the HTML report to {page}" in err


@pytest.mark.parametrize("argv, message", [
    (["nosuch"], "does not start with a variant"),
    (["standard", "--without", "nosuch"], "unknown rule 'nosuch'"),
    (["standard", "--against", "stdx"], "does not start with a variant"),
    (["standard", "--seconds-per-turn", "0"], "--seconds-per-turn 0"),
    (["standard", "--ladder-games", "-1"], "--ladder-games -1"),
    (["standard", "--ladder-mc", "bogus"], "unknown strategy 'bogus'"),
    (["standard", "--ladder-mc", "mc,greedy"], "expected one strategy"),
    (["standard", "--games", "0"], "--games 0"),
    (["standard", "--workers", "0"], "--workers 0"),
])
def test_bad_input_is_one_line_before_any_game(capsys: Any, argv: list[str], message: str) -> None:
    code, out, err = cli(capsys, "analyze", *argv)
    assert code == 2
    assert message in one_line_error(err)
    assert out == ""


def test_html_without_matplotlib_says_how_to_install_it(capsys: Any, monkeypatch: Any,
                                                         tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = cli(capsys, "analyze", "--games", "1", "--html", str(tmp_path / "p.html"))
    assert code == 2
    assert "pip install 'easymoney-game[plot]'" in one_line_error(err)
    assert not (tmp_path / "p.html").exists()


def test_the_help_defaults_are_the_code_s() -> None:
    from easymoney.commands import analyze
    from easymoney.simulate import profile_report
    assert analyze.HELP_SECONDS == profile_report.DEFAULT_SECONDS_PER_TURN


def test_a_game_s_figures_by_definition() -> None:
    from easymoney.simulate.profile import game_figures
    # P2 leads after turns 1-2, P1 takes the lead at 3 (a tie at 4 keeps it), P1 wins
    turns = [1, 2, 3, 4, 5, 8]
    marks = [(100, 200, 50), (90, 210, 60), (300, 200, 40), (200, 200, 10), (260, 250, 5),
             (400, 100, 0)]
    changes, decided, comeback, margin = game_figures(turns, marks, [0], 8)
    assert (changes, decided, comeback, margin) == (1, 3, 0, 300)
    # the winner last after the first quarter (turn 3 > 8/4): a comeback
    marks2 = [(100, 200, 150), (90, 210, 160), (10, 200, 40), (200, 100, 10), (260, 250, 5),
              (400, 100, 0)]
    assert game_figures(turns, marks2, [0], 8)[2] == 1
    assert game_figures(turns, marks, [0, 1], 8)[1:] == (8, 0, 0)  # a shared win


def test_r13_a_rule_that_only_refuses_is_drawn_refusing_as_the_text_says_it(
        monkeypatch: Any) -> None:
    """Issue 38 item 8: the html chart drew four_sides at 0% while the text said it refused
    in every game; the chart draws each rule's refusals beside its actions."""
    pytest.importorskip("matplotlib")
    from easymoney.simulate import profile_html
    p = _profile("standard", *SMALL, "--workers", "1")
    drawn: dict[str, Any] = {}

    def points(title: str, unit: str, series: Any, **kw: Any) -> Any:
        drawn[title] = series
        return None
    monkeypatch.setattr(profile_html, "_points", points)
    monkeypatch.setattr(profile_html, "_distributions", lambda profiles: None)
    monkeypatch.setattr(profile_html, "_png", lambda fig: "")
    profile_html.plots(p)
    series = dict(drawn["Games in which the rule acted or refused"])
    sides = {r["rule"]: r for r in p["rules"]}["four_sides"]
    acted = {label: value for label, value, *_ in series["acted"]}
    refused = {label: value for label, value, *_ in series["refused"]}
    assert acted["four_sides"] == 0 and refused["four_sides"] == sides["refused_percent"] > 0
