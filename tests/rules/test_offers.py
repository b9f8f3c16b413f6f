"""The `offers` plugin (R22a): a deal the other player rejected is not offered again by the
same player in the same window, at any price; another window, another deal, may be."""

from __future__ import annotations

from typing import Any

import pytest

from easymoney import ActionRange, RefusedAction, new_game

SALE = 'Ann sells "Dover Street" to Bob for 500'


def _kind(found: Any) -> str:
    return type(found.template if isinstance(found, ActionRange) else found).__name__


def _ann_owns_dover_street(**options: Any) -> Any:
    """A game of Ann and Bob in Ann's window after she bought Dover Street (space 7)."""
    state = new_game("standard", ["Ann", "Bob"], seed=3, choose_dice=True, **options)
    state.apply("Ann rolls 3 4")
    state.apply("Ann buys")
    assert state.request.kind == "window_after" and state.player.name == "Ann"
    return state


def _answer(state: Any, verb: str) -> None:
    """`Bob rejects` (or accepts): an answer the script language states no line for."""
    state.apply(next(a for a in state.legal_actions() if str(a).endswith(f" {verb}")))


def _rejected(state: Any, line: str, by: str = "Bob") -> None:
    state.apply(line)
    assert state.request.kind == "agree" and state.player.name == by
    _answer(state, "rejects")
    assert state.player.name == "Ann"


def _sales(state: Any) -> list[str]:
    return [str(found) for found in state.legal_actions() if _kind(found) == "Sell"]


def test_R22a_a_rejected_sale_is_refused_again_in_the_same_window_at_any_price():
    state = _ann_owns_dover_street()
    _rejected(state, SALE)
    before = (state.game.snapshot(), state.history)
    for line in (SALE, 'Ann sells "Dover Street" to Bob for 900', 'Ann sells "Dover Street" to Bob for 0'):
        with pytest.raises(RefusedAction) as info:
            state.apply(line)
        price = line.rsplit(" ", 1)[1]
        assert info.value.message == (
            f"Ann cannot sell Dover Street to Bob for ${price}: R22a offers: Bob rejected "
            "Ann's offer to sell Dover Street to Bob for $500 in this window: offer another "
            "deal, or this one in another window")
        assert (state.game.snapshot(), state.history) == before  # refused: nothing changed
    assert _sales(state) == []  # and the legal actions leave it out


def test_R22a_the_same_deal_may_be_offered_in_the_next_window():
    state = _ann_owns_dover_street()
    _rejected(state, SALE)
    while not (state.request.kind == "window_before" and state.player.name == "Ann"):
        # Bob's turn, passing whatever he is asked
        legal = [a for a in state.legal_actions() if not isinstance(a, ActionRange)]
        state.apply(next((a for a in legal if str(a).endswith((" declines", " passes",
                                                               " ends turn"))), legal[0]))
    assert [sale.split(" (")[0] for sale in _sales(state)] == [
        'Ann sells "Dover Street" to Bob for N']
    state.apply(SALE)
    assert state.request.kind == "agree"


def test_R22a_another_deal_of_the_same_player_is_offered_as_before():
    state = new_game("standard", ["Ann", "Bob", "Cat"], seed=3, choose_dice=True)
    state.apply("Ann rolls 3 4")
    state.apply("Ann buys")
    _rejected(state, SALE)
    # the same space to another buyer is another deal
    assert _sales(state) == ['Ann sells "Dover Street" to Cat for N (N from 0 to 20000 in '
                             "steps of 10)"]
    state.apply('Ann sells "Dover Street" to Cat for 500')
    assert state.request.kind == "agree" and state.player.name == "Cat"


def test_R22a_a_plugins_deal_is_refused_again_too():
    """Any deal (an action with a `counterparty`): the railroads example's loans."""
    pytest.importorskip("easymoney_railroads")
    state = new_game("standard", ["Ann", "Bob"], seed=3, enable=["railroads"])
    _rejected(state, "Ann lends Bob 500")
    with pytest.raises(RefusedAction, match="R22a offers: Bob rejected Ann's offer to lend"):
        state.apply("Ann lends Bob 800")
    assert [str(found) for found in state.legal_actions()] == ["Ann rolls"]


def test_R22a_off_a_rejected_deal_may_be_offered_again_at_once():
    state = _ann_owns_dover_street(disable=["offers"])
    _rejected(state, SALE)
    state.apply(SALE)
    assert state.request.kind == "agree"


def test_R22a_undo_and_copies_keep_what_was_rejected():
    state = _ann_owns_dover_street()
    _rejected(state, SALE)
    twin = state.clone()
    with pytest.raises(RefusedAction, match="R22a"):
        twin.apply(SALE)
    state.undo()  # back to Bob's answer: taking it back forgets the rejection
    assert state.request.kind == "agree"
    _answer(state, "rejects")
    with pytest.raises(RefusedAction, match="R22a"):
        state.apply(SALE)
