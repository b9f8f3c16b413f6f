"""The variant commands: variants, check, show, diff, rules, schema; in-process, plus the console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from easymoney.cli import main
from easymoney.commands.diff import differences
from easymoney.loading.loader import load_variant
from easymoney.engine.registry import discover
from easymoney.loading.schema import variant_schema

DATA = Path(__file__).parent / "data" / "variants"
BUILTINS = ["classic-1936", "no-four-sides", "reference-card", "standard"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def key(variant):
    """What makes two loaded variants the same game (Space and Card compare by identity)."""
    return (variant.name, variant.description, variant.sources, variant.min_players,
            variant.max_players, variant.smallest_bill, variant.starting_cash,
            variant.bank_total, variant.houses_per_player, variant.houses_per_street,
            dict(variant.sides), {k: dict(v) for k, v in variant.rules.items()},
            [(s.index, s.name, s.kind, s.side, s.data) for s in variant.spaces],
            [(c.text, c.kind, c.data) for c in variant.cards])


def test_variants_lists_the_builtins(capsys):
    status, out, _ = run(capsys, "variants")
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == BUILTINS
    assert lines[3].startswith("standard        Easy Money as this project plays it:")


def test_check_all_shipped_variants(capsys):
    status, out, err = run(capsys, "check", *BUILTINS)
    assert (status, err) == (0, "")
    assert out.splitlines() == [f"{name}: ok" for name in BUILTINS]


def test_check_reports_one_located_line_per_bad_variant(capsys):
    bad = [str(DATA / "on_boolean.yaml"), str(DATA / "essential_off.yaml")]
    status, out, err = run(capsys, "check", "standard", *bad, "standrd")
    assert status == 2
    assert out == "standard: ok\n"
    assert err.splitlines() == [
        f"{bad[0]}:4:15: error: rules.four_sides: wrong type: found 'off'; expected true, false "
        "or a mapping of options; write false (YAML 1.2 booleans are true/false)",
        f"{bad[1]}:5:9: error: rules.turn: rule 'turn' is essential and cannot be switched off: "
        "found false; expected true",
        "error: unknown variant 'standrd': expected a built-in variant (classic-1936, "
        "no-four-sides, reference-card, standard) or a YAML file (did you mean 'standard'?)",
    ]


def test_check_with_overrides(capsys):
    assert run(capsys, "check", "standard", "--without", "R13", "--option",
               "end.max_turns=10")[:2] == (0, "standard: ok\n")
    status, out, err = run(capsys, "check", "standard", "--without", "turn")
    assert (status, out) == (2, "")
    assert err == "error: rule 'turn' is essential and cannot be switched off\n"


@pytest.mark.parametrize("name", BUILTINS)
def test_show_round_trips(capsys, tmp_path, name):
    status, out, _ = run(capsys, "show", name)
    assert status == 0
    path = tmp_path / f"{name}-shown.yaml"
    path.write_text(out)
    assert run(capsys, "check", str(path)) == (0, f"{path}: ok\n", "")
    original, shown = load_variant(name), load_variant(str(path))
    assert key(shown) == key(original)
    assert shown.document == original.document
    assert differences(original, shown) == {}


def test_show_applies_overrides(capsys, tmp_path):
    status, out, _ = run(capsys, "show", "reference-card", "--without", "four_sides",
                         "--option", "end.max_turns=200", "--with", "invariants")
    assert status == 0
    assert out.startswith("name: reference-card\ndescription: ")
    assert "  four_sides: false\n" in out
    assert "  end: {'on': last_player_standing, max_turns: 200}\n" in out
    assert "- {name: Red Traffic Light, kind: traffic_light, fine: 100, cells: 2}  # 41\n" in out
    assert "extends" not in out and "modify" not in out
    path = tmp_path / "shown.yaml"
    path.write_text(out)
    shown = load_variant(str(path))
    assert "four_sides" not in shown.rules and "invariants" in shown.rules
    assert shown.rules["end"] == {"on": "last_player_standing", "max_turns": 200}


def test_show_a_file_with_modify(capsys, tmp_path):
    (tmp_path / "v.yaml").write_text(
        "extends: standard\nmodify:\n  spaces:\n    Dover Street: {price: 800}\n")
    status, out, _ = run(capsys, "show", str(tmp_path / "v.yaml"))
    assert status == 0 and out.startswith("name: v\n")
    assert "- {name: Dover Street, kind: street, price: 800, mortgage: 350," in out


def test_diff_no_differences(capsys):
    assert run(capsys, "diff", "standard", "standard") == (0, "no differences\n", "")


def test_diff_two_builtins(capsys):
    status, out, _ = run(capsys, "diff", "standard", "classic-1936")
    assert status == 0
    lines = out.splitlines()
    assert lines[:4] == ["--- A: standard", "+++ B: classic-1936", "settings:",
                         "  name: 'standard' -> 'classic-1936'"]
    assert "  max_players: 4 -> 6" in lines
    assert lines[-3:] == ["rules:", "  doubles.after_card: 'backward' -> 'forward'",
                          "  mortgage.rent: 'one_house' -> 'none'"]


def test_diff_overrides_apply_to_b(capsys, tmp_path):
    status, out, _ = run(capsys, "diff", "standard", "standard", "--without", "R13",
                         "--option", "end.max_turns=50")
    assert status == 0
    assert out.splitlines()[2:] == ["rules:", "  four_sides: on -> off",
                                    "  end.max_turns: null -> 50"]
    (tmp_path / "v.yaml").write_text(
        "extends: standard\nmodify:\n  spaces:\n    Dover Street: {name: Dover Lane, price: 800}\n"
        "    Milk Route: {score: null}\n  cards:\n    Take $500: {count: 2}\n"
        "    Pay $100: {amount: 110}\n")
    status, out, _ = run(capsys, "diff", "standard", str(tmp_path / "v.yaml"))
    assert out.splitlines()[-5:] == [
        "  #7 Dover Street: name 'Dover Street' -> 'Dover Lane'; price 700 -> 800",
        "  #22 Milk Route: score 1100 -> (none)",
        "cards:",
        "  'Take $500': count 1 -> 2",
        "  'Pay $100': amount 100 -> 110",
    ]


def test_diff_boards_of_different_sizes(tmp_path):
    a = load_variant("standard")
    text = (Path(__file__).parent.parent / "variants" / "standard.yaml").read_text()
    text = text.replace("    - {name: Vernon Avenue",
                        "    - {name: Extra Lot, kind: plain}\n    - {name: Vernon Avenue")
    text = text.replace("{side: 4, first: 37, last: 47}", "{side: 4, first: 37, last: 48}")
    (tmp_path / "big.yaml").write_text(text)
    found = differences(a, load_variant(str(tmp_path / "big.yaml")))
    assert found["sides"] == ["side 4: 37-47 -> 37-48"]
    assert found["spaces"][-2:] == [
        "#47 Vernon Avenue: name 'Vernon Avenue' -> 'Extra Lot'; kind street -> plain; "
        "price 1050 -> (none); mortgage 530 -> (none); rent [110, 420, 1160, 2310, 3680] -> (none)",
        "#48 Vernon Avenue (street): only in B"]


def test_rules_lists_every_plugin(capsys):
    status, out, _ = run(capsys, "rules", "no-four-sides")
    assert status == 0
    assert out.startswith("Rules of variant no-four-sides:\n")  # said once (issue 19)
    assert "\nturn: on (R1, R4, R5, R6; essential; built-in)\n" in out
    assert "\nfour_sides: off (R13; built-in)\n  Four sides (R13)" in out
    assert ("  option doubles.after_card = 'backward'; default 'backward'; one of backward, "
            "forward\n") in out
    assert "  option end.max_turns = null; default null; integer or null >= 1 <= 1000000\n" in out
    for pid in discover().plugins:
        assert f"\n{pid}: " in out
    for message in discover().load_errors:
        assert f"  {message}\n" in out


def test_rules_with_overrides(capsys):
    status, out, _ = run(capsys, "rules", "--option", "end.max_turns=20", "--without", "doubles")
    assert status == 0
    assert "\ndoubles: off (R12; built-in)\n" in out
    assert "  option doubles.after_card = 'backward' (when on); default 'backward'" in out
    assert "  option end.max_turns = 20; default null;" in out


def test_schema_command(capsys):
    status, out, _ = run(capsys, "schema")
    assert status == 0 and json.loads(out) == variant_schema(discover())
    status, out, _ = run(capsys, "schema", "--builtin")
    assert json.loads(out) == variant_schema(discover(autoload=False))


@pytest.mark.parametrize("command", ["variants", "check", "show", "diff", "rules", "schema"])
def test_every_command_has_help(capsys, command):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: easymoney {command}")
    if command not in ("variants", "schema"):
        assert "--with RULE" in out and "--without RULE" in out and "--option KEY=VALUE" in out


def test_console_script():
    script = shutil.which("easymoney", path=str(Path(sys.executable).parent))
    assert script is not None
    bad = str(DATA / "unknown_rule.yaml")
    done = subprocess.run([script, "check", "standard", bad], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == "standard: ok\n"
    assert done.stderr == (f"{bad}:4:3: error: rules: unknown rule: found 'four_side'; expected "
                           "the id of an installed rule plugin (did you mean 'four_sides'?)\n")
