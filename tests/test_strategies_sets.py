"""compare and sweep --strategies-sets (issue 20, part 4): the same question under several
strategy mixes, and where an effect changes sign or significance between them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli_helpers import cli, one_line_error
from easymoney.simulate.mixes import change_line, changes

ARGS = ("--games", "12", "--players", "2", "--max-turns", "120", "--workers", "1")


def _summary(mean: float, significant: bool) -> dict[str, Any]:
    test = {"mean": mean, "significant": significant}
    return {"differences": [{"arm": "B", "against": "A",
                             "tests": {"turns": test, "strategy:x": test}}]}


def test_issue20_changes_name_sign_and_significance() -> None:
    runs = [("cautious", _summary(-40.0, True)), ("greedy", _summary(-10.0, False)),
            ("mc", _summary(+5.0, False))]
    lines = [change_line(c) for c in changes(runs)]
    assert lines == [
        "the effect of B (against A) on turns changes sign between mixes mc and cautious "
        "(significant under cautious)",
        "the effect of B (against A) on turns is significant under cautious but not under greedy"]
    same = [("cautious", _summary(-40.0, True)), ("greedy", _summary(-30.0, True))]
    assert changes(same) == []


def test_issue20_compare_strategies_sets_prints_each_mix_then_the_effects(capsys: Any) -> None:
    specs = ("standard", "standard-four_sides")
    code, out, err = cli(capsys, "compare", *specs, *ARGS, "--strategies-sets", "cautious",
                         "greedy")
    assert code == 0, err
    for mix in ("cautious", "greedy"):
        code, alone, err = cli(capsys, "compare", *specs, *ARGS, "--strategies", mix)
        assert code == 0, err
        assert f"=== strategies {mix} ===\n{alone}" in out  # each mix as compare prints it
    tail = out.split("Does the answer depend on the bots?")[1]
    assert "standard-four_sides (against standard)" in tail and "turns" in tail
    assert "strategy:" not in tail
    assert ("changes sign between mixes" in tail or "is significant under" in tail
            or "keeps its sign and its significance under every mix" in tail)


def test_issue20_sweep_strategies_sets_json(capsys: Any) -> None:
    code, out, err = cli(capsys, "sweep", "standard", "--vary", "four_sides=on,off", *ARGS,
                         "--strategies-sets", "cautious", "cautious,greedy", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert [s["strategies"] for s in doc["strategies_sets"]] == ["cautious", "cautious,greedy"]
    assert doc["strategies_sets"][1]["summary"]["effects"][0]["setting"] == "four_sides"
    for change in doc["changes"]:
        assert change["change"] in ("sign", "significance") and change["text"]


def test_issue20_without_the_flag_compare_is_unchanged(capsys: Any) -> None:
    code, out, err = cli(capsys, "compare", "standard", "standard-four_sides", *ARGS)
    assert code == 0, err
    assert "===" not in out and "depend on the bots" not in out


@pytest.mark.parametrize("extra, message", [
    (("--strategies-sets", "cautious"), "at least two mixes"),
    (("--strategies-sets", "cautious", "sneaky"), "unknown strategy 'sneaky'"),
    (("--strategies-sets", "cautious", "greedy", "--csv-out", "x.csv"), "--csv-out"),
])
def test_issue20_bad_strategies_sets_are_one_line(capsys: Any, extra: tuple[str, ...],
                                                  message: str) -> None:
    code, _, err = cli(capsys, "compare", "standard", "standard-four_sides", *ARGS, *extra)
    assert code == 2 and message in one_line_error(err)


COMMANDS = [("compare", "standard", "standard-four_sides"),
            ("sweep", "standard", "--vary", "four_sides=on,off")]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("mix, message", [
    ("cautious,,greedy", "error: --strategies-sets mix 'cautious,,greedy': expected names "
                         "separated by commas"),
    ("cautious,sneaky", "error: --strategies-sets mix 'cautious,sneaky': unknown strategy "
                        "'sneaky'"),
])
def test_issue28_case20_a_bad_mix_is_named_as_a_mix_of_strategies_sets(
        capsys: Any, command: tuple[str, ...], mix: str, message: str) -> None:
    """A bad mix used to be reported as `--strategies '...'`, a flag not given."""
    code, out, err = cli(capsys, *command, *ARGS, "--strategies-sets", "cautious", mix)
    assert (code, out) == (2, "")
    assert one_line_error(err).startswith(message), err


@pytest.mark.parametrize("command", COMMANDS)
def test_issue28_case20_strategies_beside_strategies_sets_is_refused(
        capsys: Any, command: tuple[str, ...]) -> None:
    """--strategies given beside --strategies-sets used to be dropped without a word."""
    code, out, err = cli(capsys, *command, *ARGS, "--strategies", "greedy",
                         "--strategies-sets", "cautious", "random")
    assert (code, out) == (2, "")
    line = one_line_error(err)
    assert line.startswith("error: --strategies with --strategies-sets:"), line
    assert line.endswith("(e.g. --strategies-sets greedy cautious random)"), line
