"""The double_bonus house rule, driven through real games."""

from __future__ import annotations

import textwrap

from easymoney.cli import main
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner


def play(text, **kw):
    runner = ScriptRunner(parse(textwrap.dedent(text)), **kw)
    return runner.run()


def test_exact_landing_pays_the_bonus_twice_by_default():
    result = play("""
        players Ann Bob
        with double_bonus
        setup Ann at 43
        Ann rolls 1 4           # 48 spaces: 43 + 5 = space 0, the Bonus Corner
        expect Ann cash 25000   # 20,000 + 2,500 (R7) + 2,500 (double_bonus)
    """)
    assert result.failures == [] and result.checked == 1


def test_multiplier_option_and_passing_pays_once():
    result = play("""
        players Ann Bob
        with double_bonus
        option double_bonus.multiplier 3
        setup Ann at 43
        Ann rolls 1 4
        expect Ann cash 27500
        Bob rolls 2 1           # Bob lands on Beacon Street and leaves it
        Bob declines
        Bob passes
        Ann passes
        Ann rolls 1 2           # 0 + 3: Beacon Street again, no bonus
        Ann declines
        Ann passes
        Bob passes
        expect Ann cash 27500
    """)
    assert result.failures == []


def test_passing_without_landing_pays_once():
    result = play("""
        players Ann Bob
        with double_bonus
        setup Ann at 43
        Ann rolls 1 5           # 43 + 6 = space 1: passes the Bonus Corner
        Ann declines
        Ann passes
        Bob passes
        expect Ann cash 22500
    """)
    assert result.failures == []


def test_off_unless_switched_on():
    result = play("""
        players Ann Bob
        setup Ann at 43
        Ann rolls 1 4
        expect Ann cash 22500
    """)
    assert result.failures == []


def test_listed_by_the_rules_command(capsys):
    assert main(["rules", "standard"]) == 0
    out = capsys.readouterr().out
    assert "double_bonus" in out


def test_switched_on_from_a_variant_file(capsys):
    from pathlib import Path
    variant = Path(__file__).parents[4] / "examples" / "variants" / "double-bonus.yaml"
    assert main(["check", str(variant)]) == 0
    assert main(["show", str(variant)]) == 0
    assert "double_bonus: {multiplier: 3}" in capsys.readouterr().out
