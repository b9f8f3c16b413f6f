"""Issue 37, part 2: the rules that cross actions narrow what a type lists (`em_narrow`).

R3 narrows every action that hands one space over: nobody with no house left is given a
space, so a listing makes no sale to them at all. A third party's rule narrows a type it
selects by its annotation (`kind: type[...]`), and the candidates derived from a class's
fields skip what it narrows away. Under the invariants check, a narrowing that hides what
the rules allow is one PluginError naming the plugin and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from easymoney import ActionRange, new_game
from easymoney.engine.legal import legal_actions, random_action, refused_candidates, unnarrowed
from easymoney.engine.registry import discover
from easymoney.errors import PluginError
from stand_in_plugins import stand_in
from test_action_story import GIFT


def _listing(game):  # made now, not the state's kept one: the tests change the game
    return legal_actions(game, game.request)


def _unnarrowed(game):
    with unnarrowed(game):
        return _listing(game)


def _buyers(listing):
    return [found.template.buyer.name for found in listing
            if isinstance(found, ActionRange) and found.kind.__name__ == "Sell"]


def test_issue37_r3_narrows_the_sales_to_a_player_with_no_house_left() -> None:
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed=3)
    game = state.game
    ann, bob, cy = game.players
    game.acquire(ann, game.space("Dover Street"))
    game.acquire(ann, game.space("Beacon Street"))
    assert _buyers(_listing(game)) == ["Bob", "Cy", "Bob", "Cy"]
    bob.houses_left = 0  # R3: Bob can mark no space he is given
    sell = type(next(f for f in _listing(game) if isinstance(f, ActionRange)).template)
    assert game.narrowed(sell, "buyer") == (bob,)
    assert game.narrowed(sell, "price") == ()
    listed = _listing(game)
    assert _buyers(listed) == ["Cy", "Cy"]
    # the same listing as with no narrowing, where R3 refuses each sale to Bob instead
    assert listed == _unnarrowed(game)
    # and what a person is told they may not do still names those sales, with R3's words
    told = [(str(action), refusals[0].rule) for action, refusals in refused_candidates(game)]
    assert ('Ann sells "Dover Street" to Bob for 0', "R3") in told


def test_issue37_r3_narrows_nothing_where_an_owned_space_carries_no_house() -> None:
    """A space taken over with no house on it needs none (R3): where the board has one,
    a player with no house left may still be given it, and nothing is narrowed."""
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    game = state.game
    ann, bob = game.players
    game.acquire(ann, game.space("Dover Street"), houses=0)
    bob.houses_left = 0
    sell = next(f for f in _listing(game) if isinstance(f, ActionRange)).kind
    assert game.narrowed(sell, "buyer") == ()
    assert _buyers(_listing(game)) == ["Bob"]


def test_issue37_the_listing_with_r3s_narrowing_is_the_listing_without_it() -> None:
    """Random games of every seat count under the invariants check, which makes every
    listing again without narrowing and compares: none differs."""
    for seats in (2, 3, 4):
        state = new_game("standard", [f"P{i}" for i in range(seats)], seed=seats,
                         enable=["invariants"])
        assert state.game.ruleset.narrow_audit
        rng = random.Random(seats)
        for _ in range(800):
            if state.is_over:
                break
            state.apply(random_action(state.legal_actions(), rng))


# a third party's rule: no gift to a player who owns nothing (a derived type's player
# field, narrowed by the rule that judges it, and asked about that type only); the gift is
# test_action_story's, whose candidates are derived from its fields
LANDED = '''\
"""House rule: gifts go to players who own something."""
from easymoney import Refusal, hookimpl
from gifts import Give

ASKED = []  # the types em_narrow is asked about

@hookimpl
def em_refusals(game, action: Give):
    if not action.friend.spaces:
        return [Refusal("-", "landed", f"{action.friend} owns nothing")]
    return None

@hookimpl
def em_narrow(game, kind: type[Give]):
    ASKED.append(kind.__name__)
    return {"friend": [p for p in game.players if not p.spaces]}
'''

# the same rule, narrowing too much: Bob owns a space and is narrowed away all the same
GREEDY = LANDED.replace("if not p.spaces]", "if p.name == 'Bob']")


@contextmanager
def gifts_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, landed: str,
               seed: int) -> Iterator[Any]:
    """A game of Ann, Bob and Cy with the gifts, `landed` as the rule judging them, and
    the invariants check, at Ann's first window."""
    with stand_in(tmp_path, monkeypatch, {"gifts": ("gifts", GIFT),
                                          "landed": ("landed", landed)}):
        discover()
        yield new_game("standard", ["Ann", "Bob", "Cy"], seed=seed,
                       enable=["gifts", "landed", "invariants"]).game


def test_issue37_a_third_partys_rule_narrows_a_derived_type_it_selects(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with gifts_game(tmp_path, monkeypatch, LANDED, seed=3) as game:
        import landed
        game.acquire(game.players[2], game.space("Dover Street"))
        gifts = [found for found in _listing(game)
                 if isinstance(found, ActionRange) and found.kind.__name__ == "Give"]
        assert [g.template.friend.name for g in gifts] == ["Cy"]
        assert set(landed.ASKED) == {"Give"}  # never about the other types
        assert _listing(game) == _unnarrowed(game)


def test_issue37_a_narrowing_that_hides_what_the_rules_allow_is_one_error_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with gifts_game(tmp_path, monkeypatch, GREEDY, seed=5) as game:
        game.acquire(game.players[1], game.space("Dover Street"))
        snapshot = game.snapshot()
        with pytest.raises(PluginError, match=r"^error: plugin 'landed' narrows away `Ann gives "
                           r"Bob N \(N from .*`, which the rules allow: em_narrow and "
                           r"em_refusals disagree \(game seed 5, turn 1, Ann's turn\)$") as raised:
            _listing(game)
        assert "\n" not in str(raised.value)
        assert game.snapshot() == snapshot
        # without the check, the narrowing is taken at its word: Bob is left out
        game.ruleset.narrow_audit = False
        assert [f.template.friend.name for f in _listing(game)
                if isinstance(f, ActionRange) and f.kind.__name__ == "Give"] == []


@pytest.mark.parametrize(("answer", "said"), [
    ('["friend"]', r"em_narrow answered \['friend'\] about Give"),
    ('{"frend": []}', r"em_narrow named the field 'frend' \(did you mean 'friend'\?\) about Give"),
    ('{"friend": 3}', r"em_narrow answered 3 for 'friend' about Give"),
])
def test_issue37_an_em_narrow_answer_that_is_none_is_one_error_naming_the_plugin(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str, said: str) -> None:
    rule = LANDED.replace('{"friend": [p for p in game.players if not p.spaces]}', answer)
    with gifts_game(tmp_path, monkeypatch, rule, seed=2) as game:
        snapshot = game.snapshot()
        with pytest.raises(PluginError, match=r"^error: plugin 'landed': " + said +
                           r", where it answers a dict of a field \(player, friend, amount\) "
                           r"to the values refused in it, or None \(game seed 2\)$"):
            _listing(game)
        assert game.snapshot() == snapshot
