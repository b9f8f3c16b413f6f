"""REFUSES_AMOUNTS, REFUSES_ASKED and REFUSES_UNLISTED: a rule's promise narrows what a listing of the legal
actions asks it, and a rule that promises nothing is asked everywhere (issue 20's speed)."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from stand_in_plugins import stand_in

from easymoney import ActionRange, new_game
from easymoney.engine.legal import random_action
from easymoney.errors import PluginError, RefusedAction

CAP = 100  # the price cap of the stand-in rule below

PRICE_CAP = textwrap.dedent('''
    """No sale above $100 (a house rule of a test)."""
    from easymoney import Refusal, hookimpl
    from easymoney.plugins.sales import Sell

    PLUGIN_ID = "price_cap"
    REFUSES = (Sell,)
    {declared}

    @hookimpl
    def em_refusals(game, action):
        if action.price > {cap}:
            return [Refusal("-", PLUGIN_ID, "no sale above ${cap}")]
        return None
''')

NO_MORTGAGE = textwrap.dedent('''
    """No mortgage in a window: only to raise money (a house rule of a test)."""
    from easymoney import WINDOW_KINDS, Refusal, hookimpl
    from easymoney.plugins.mortgage import Mortgage

    PLUGIN_ID = "no_mortgage"
    REFUSES = (Mortgage,)
    {declared}

    @hookimpl
    def em_refusals(game, action):
        if game.request is not None and game.request.kind in WINDOW_KINDS:
            return [Refusal("-", PLUGIN_ID, "no mortgage in a window in this house")]
        return None
''')


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[None]:
    declared = request.param
    modules = {"price_cap_rule": ("price_cap", PRICE_CAP.format(cap=CAP, declared=declared)),
               "no_mortgage_rule": ("no_mortgage", NO_MORTGAGE.format(declared=declared))}
    with stand_in(tmp_path, monkeypatch, modules):
        yield


def _listed_in_windows(steps: int = 3000) -> list[list[object]]:
    """The listings of the asked player's windows over a game played at random."""
    state = new_game("standard", ["Ann", "Bob"], 7, enable=["price_cap", "no_mortgage"],
                     keep_log=False)
    rng = random.Random(7)
    out = []
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        if state.request.kind.startswith("window"):  # type: ignore[union-attr]
            out.append(legal)
        assert legal, state.request.describe()  # type: ignore[union-attr]
        try:
            state.apply(random_action(legal, rng))
        except RefusedAction:  # a listed action the rules refuse: only a broken promise
            break
    return out


def _sells_above_cap(listings: list[list[object]]) -> int:
    return sum(1 for legal in listings for found in legal
               if isinstance(found, ActionRange) and found.kind.__name__ == "Sell"
               and found.most > CAP)


def _mortgages(listings: list[list[object]]) -> int:
    return sum(1 for legal in listings for found in legal if type(found).__name__ == "Mortgage")


@pytest.mark.parametrize("installed", [""], indirect=True)
def test_R22_a_rule_that_promises_nothing_is_asked_at_both_ends_of_a_range(installed: None) -> None:
    listings = _listed_in_windows()
    assert any(isinstance(f, ActionRange) and f.kind.__name__ == "Sell" for legal in listings
               for f in legal), "the game never offered a sale: the test proves nothing"
    assert _sells_above_cap(listings) == 0
    assert _mortgages(listings) == 0


@pytest.mark.parametrize("installed", ["REFUSES_AMOUNTS = ()\nREFUSES_ASKED = ()"], indirect=True)
def test_R22_R19_a_rule_is_taken_at_its_word(installed: None) -> None:
    # the rules above break their promises: the listing trusts them, so it offers what they
    # would refuse; what shows that the promises are what narrows the listing's questions
    listings = _listed_in_windows()
    assert _sells_above_cap(listings) > 0
    assert _mortgages(listings) > 0


@pytest.mark.parametrize("installed", ["REFUSES_UNLISTED = lambda kind: True"], indirect=True)
def test_R22_R19_a_rule_that_refuses_only_unlisted_actions_is_not_asked_about_candidates(
        installed: None) -> None:
    # both rules above refuse candidates that Sell and Mortgage list: declaring that they
    # never do leaves them out of the listing's questions, so the listing offers them
    listings = _listed_in_windows()
    assert _sells_above_cap(listings) > 0
    assert _mortgages(listings) > 0


@pytest.mark.parametrize("installed", ["REFUSES_UNLISTED = lambda kind: True",
                                       "REFUSES_AMOUNTS = ()\nREFUSES_ASKED = ()"], indirect=True)
def test_R22_the_invariants_check_names_a_rule_that_breaks_its_declaration(
        installed: None, request: pytest.FixtureRequest) -> None:
    declared = request.node.callspec.params["installed"]
    state = new_game("standard", ["Ann", "Bob"], 7, enable=["price_cap", "no_mortgage", "invariants"],
                     keep_log=False)
    rng = random.Random(7)
    # the declaration, translated at load, is an annotation naming it (easymoney.engine.earlier)
    broken = "REFUSES_UNLISTED" if "UNLISTED" in declared else "REFUSES_ASKED"
    with pytest.raises(PluginError, match=r"plugin (price_cap|no_mortgage) refused `\w+ (sells|"
                       rf"mortgages) .*` \(.*\), which its annotation `action: [^`]*{broken}[^`]*` "
                       r"promises it never refuses"):
        for _ in range(3000):
            state.apply(random_action(state.legal_actions(), rng))


@pytest.mark.parametrize("variant", ["standard", "reference-card", "classic-1936", "no-four-sides"])
def test_the_shipped_rules_keep_their_declarations_over_random_games(variant: str) -> None:
    # the invariants check asks every rule a declaration leaves out of a listing: a shipped
    # rule that refused a listed candidate would raise PluginError here
    listed = 0
    for seed in range(3):
        state = new_game(variant, ["Ann", "Bob", "Cy"], seed, enable=["invariants"], keep_log=False)
        rng = random.Random(seed)
        for _ in range(1500):
            if state.is_over:
                break
            legal = state.legal_actions()
            listed += len(legal)
            state.apply(random_action(legal, rng))
    assert listed > 3000
