"""How a refusal names its rule, and which `expect refused X` it answers (issue 18)."""

from __future__ import annotations

import pytest

from easymoney import Refusal
from easymoney.errors import ScriptError
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner

FOUR_SIDES = """\
players Ann Bob
seed 7
Ann rolls 3 4
Ann buys
Bob rolls 2 3
Bob declines
Bob passes
Ann bids 600
expect refused {expected}
Ann passes
"""


def test_issue_18_a_refusal_prints_its_rule_and_plugin():
    assert str(Refusal("R13", "four_sides", "no")) == "R13 four_sides: no"


@pytest.mark.parametrize("rule", ["-", "", "loans"])
def test_issue_18_a_house_rule_with_no_rule_id_prints_its_plugin_id(rule):
    assert str(Refusal(rule, "loans", "a loan is made to another player")) == \
        "loans: a loan is made to another player"


def test_issue_18_a_refusal_by_no_rule_prints_its_reason():
    assert str(Refusal("-", "-", "no rule in play allows it")) == "no rule in play allows it"


@pytest.fixture
def r13_by_another_plugin(monkeypatch):
    """R13's refusals issued by another plugin, `trade` (a trade between players that
    enforces R13 too): `expect refused four_sides` still names them, since `four_sides` is
    the plugin that implements R13."""
    from easymoney.plugins import four_sides
    monkeypatch.setattr(four_sides, "Refusal",
                        lambda rule, plugin, reason: Refusal(rule, "trade", reason))


@pytest.mark.parametrize("dispatch", ["fast", "pluggy"])
@pytest.mark.parametrize("expected", ["R13", "four_sides"])
def test_issue_18_expect_refused_names_the_rule_its_plugin_or_the_rule_s_plugin(
        r13_by_another_plugin, expected, dispatch):
    result = ScriptRunner(parse(FOUR_SIDES.format(expected=expected)), dispatch=dispatch).run()
    assert result.failures == []


def test_issue_18_expect_refused_another_rule_still_fails(r13_by_another_plugin):
    with pytest.raises(ScriptError) as info:
        ScriptRunner(parse(FOUR_SIDES.format(expected="doubles"))).run()
    assert "expected a refusal by doubles, but line 8 was refused by R13 trade" in str(info.value)
