"""Issue 37 part 3: a debt the payer can afford is a plain transfer (R23, R27); the debt
rules' `em_collect` is entered only for a shortfall (tests/rules/test_debts.py), and a house
rule's is asked always."""

from __future__ import annotations

from typing import Any

import pytest

from easymoney import new_game


def _entered(game: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = game.hook.em_collect

    def watched(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[4] if len(args) > 4 else kwargs.get("reason", ""))
        return real(*args, **kwargs)
    monkeypatch.setattr(game.hook, "em_collect", watched)  # the rule set's relay, restored
    return calls


def test_r23_an_affordable_debt_is_paid_without_the_debt_rules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game("standard", ["Ann", "Bob"], seed=1).game
    ann, bob = game.players
    assert game.ruleset.plain_payments
    calls = _entered(game, monkeypatch)
    assert game.collect(ann, bob, 700, "rent", "rent") == 700
    assert (ann.cash, bob.cash, calls) == (20000 - 700, 20000 + 700, [])
    assert game.collect(game.bank, ann, 100, "a bonus", "bonus") == 100 and calls == []


def test_a_house_rule_answering_em_collect_is_asked_for_every_debt() -> None:
    game = new_game("standard", ["Ann", "Bob"], seed=1, enable=["holiday"]).game
    assert not game.ruleset.plain_payments
