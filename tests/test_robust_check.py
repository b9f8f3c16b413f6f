"""Issue 19 case 24: `check` warns of spaces that can do nothing, naming them and the rule
to switch on (`auction: false` leaves every utility and commercial building inert)."""

from __future__ import annotations

from cli_helpers import cli


def test_issue19_case24_check_warns_of_spaces_whose_rule_is_off(capsys, tmp_path):
    variant = tmp_path / "quiet.yaml"
    variant.write_text("name: quiet\nextends: standard\nrules:\n  auction: false\n")
    code, out, err = cli(capsys, "check", str(variant))
    assert (code, out) == (0, f"{variant}: ok\n")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{variant}: warning: the rule 'auction' is off, so ")
    assert "spaces do nothing: " in lines[0]
    assert "Waldorf Hotel" in lines[0] and "Milk Route" in lines[0]
    assert lines[0].endswith("(switch it on: --with auction, or `auction: true` under "
                             "`rules`)")


def test_issue19_case24_the_same_from_the_command_line(capsys):
    code, out, err = cli(capsys, "check", "standard", "--without", "auction")
    assert (code, out) == (0, "standard: ok\n")
    assert err.startswith("standard: warning: the rule 'auction' is off, so ")


def test_issue19_case24_a_variant_whose_spaces_all_act_has_no_warning(capsys):
    assert cli(capsys, "check", "standard", "classic-1936") == (
        0, "standard: ok\nclassic-1936: ok\n", "")
