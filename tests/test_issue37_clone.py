"""Issue 37: a copy of a game is cheap (`stepping.copy_game`): a stash value is shared, copied
by its key's `copy`, or deep-copied (a plugin that says nothing keeps working); a clone and
its source stay independent whatever kind of value a rule keeps."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from easymoney import new_game
from easymoney.engine.game import Game, Player
from easymoney.engine.legal import random_action
from easymoney.engine.stash import StashKey
from easymoney.engine.stepping import NEVER_ASKED, copy_game
from stand_in_plugins import stand_in

KEEPER = '''"""Keeps one stash value of each kind, changed every turn."""
from easymoney import StashKey, hookimpl

COPIED = []  # (value, memo) of every call of OWN's copy


def _copy(value, memo):
    COPIED.append((value, memo))
    return dict(value)


class Tally:  # a plugin's own class, no copy method: deep-copied
    def __init__(self):
        self.turns = []
        self.last = None


BOARD = StashKey("keeper.board", shared=True)     # made at em_setup, never changed
OWN = StashKey("keeper.own", copy=_copy)          # copied by its own function
DEEP = StashKey("keeper.deep")                    # deep-copied


@hookimpl
def em_setup(game):
    game.stash[BOARD] = tuple(game.spaces)
    game.stash[OWN] = {}
    game.stash[DEEP] = Tally()


@hookimpl
def em_turn_end(game, player):
    own = game.stash[OWN]
    own[player.index] = own.get(player.index, 0) + 1
    tally = game.stash[DEEP]
    tally.turns.append(player.name)
    tally.last = player
'''


@pytest.fixture
def keeper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    with stand_in(tmp_path, monkeypatch, {"em_keeper": ("keeper", KEEPER)}):
        import em_keeper
        yield em_keeper


def _kept(game: Game, keeper) -> tuple:
    """The keeper's values as plain data, and whether the players they name are the game's."""
    tally = game.stash[keeper.DEEP]
    last = tally.last
    return (dict(game.stash[keeper.OWN]), list(tally.turns),
            None if last is None else (last.name, last is game.players[last.index]))


def _step(state, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(random_action(state.legal_actions(), rng))


def test_issue37_a_stash_value_is_shared_copied_by_its_key_or_deep_copied(keeper) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=4, enable=["keeper"])
    _step(state, random.Random(4), 60)
    game = state.game
    keeper.COPIED.clear()
    twin = copy_game(game, NEVER_ASKED)
    # shared: the same object
    assert twin.stash[keeper.BOARD] is game.stash[keeper.BOARD]
    # its key's copy, once, with a memo mapping the game's players to the copy's
    (value, memo), = keeper.COPIED
    assert value is game.stash[keeper.OWN]
    assert all(memo[id(p)] is q for p, q in zip(game.players, twin.players))
    assert twin.stash[keeper.OWN] == value and twin.stash[keeper.OWN] is not value
    # a plugin's value with no copy of its own: deep-copied, naming the copy's players
    tally, copied = game.stash[keeper.DEEP], twin.stash[keeper.DEEP]
    assert copied is not tally and type(copied) is type(tally)
    assert copied.turns == tally.turns and copied.turns is not tally.turns
    assert copied.last is twin.players[tally.last.index] and copied.last is not tally.last


def test_issue37_a_clone_and_its_source_stay_independent_for_every_kind_of_value(keeper) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=5, enable=["keeper"])
    rng = random.Random(5)
    for _ in range(6):
        _step(state, rng, 37)
        if state.is_over:
            break
        twin = state.clone()
        assert _kept(twin.game, keeper) == _kept(state.game, keeper)
        assert twin.game.snapshot() == state.game.snapshot()
        at_clone = _kept(twin.game, keeper)
        # the source plays on: the clone is as it was; then the clone takes the same steps
        before = state.steps
        _step(state, random.Random(before), 40)
        assert _kept(twin.game, keeper) == at_clone
        for action, _ in state._steps[before:]:  # the same steps, the same dice
            twin.push(action)
        assert _kept(twin.game, keeper) == _kept(state.game, keeper)
        assert twin.game.snapshot() == state.game.snapshot()
        # and steps on the clone leave the source as it is
        kept = _kept(state.game, keeper)
        _step(twin, random.Random(99), 30)
        assert _kept(state.game, keeper) == kept


def test_issue37_a_copy_sets_every_slot_of_the_game_and_its_players() -> None:
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed=2)
    _step(state, random.Random(2), 80)
    game = state.game
    twin = copy_game(game, NEVER_ASKED)
    for name in Game.__slots__:
        if name in ("__dict__", "_by_space_name"):
            continue
        assert hasattr(twin, name) == hasattr(game, name), name
    slots = [n for cls in Player.__mro__ for n in getattr(cls, "__slots__", ())]
    for old, new in zip(game.players, twin.players):
        assert new is not old
        for name in slots:
            value = getattr(old, name)
            assert getattr(new, name) == value, name
            if isinstance(value, list):
                assert getattr(new, name) is not value, name
    assert twin.snapshot() == game.snapshot()
    assert [twin.players[p.index] if p else None for p in game.owner] == twin.owner


def test_issue37_spaces_and_cards_are_shared_by_deepcopy() -> None:
    """What never changes is shared by a copy: a plugin's value holding a space keeps it."""
    import copy
    state = new_game("standard", ["Ann", "Bob"], seed=1)
    space, card = state.game.spaces[3], state.game.variant.cards[0]
    assert copy.deepcopy([space, card]) == [space, card]
    assert copy.deepcopy(space) is space and copy.deepcopy(card) is card


def test_issue37_a_key_says_shared_copy_or_neither() -> None:
    plain = StashKey("t.plain")
    assert plain.copy is None and not plain.shared
    assert StashKey("t.own", copy=dict).copy is dict


def test_issue37_a_replayed_step_is_not_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone replays the steps since the kept copy without asking the rules again: each
    was judged when it was taken (a deal's acceptance is judged again, as the game does)."""
    from easymoney.engine.decisions import Decisions
    from easymoney.engine.stepping import rebind
    state = new_game("standard", ["Ann", "Bob"], seed=8, snapshot_every=64)
    rng = random.Random(8)
    judged: list[object] = []
    real = Decisions.refusals

    def counting(self, action):
        judged.append(action)
        return real(self, action)

    checked = 0
    for _ in range(400):
        if state.is_over:
            break
        state.apply(random_action(state.legal_actions(), rng))
        since = state._steps[state._snapshots[-1].steps:]
        if any(type(a).__name__ == "Accept" for a, _ in since):
            continue
        monkeypatch.setattr(Decisions, "refusals", counting)
        twin = state.clone()
        monkeypatch.setattr(Decisions, "refusals", real)
        assert judged == [] and twin.game.snapshot() == state.game.snapshot()
        assert [rebind(a, state.game.players) for a, _ in twin._steps] == \
            [a for a, _ in state._steps]
        checked += len(since)
    assert checked > 100


def test_issue37_a_copied_request_has_every_slot_of_the_original():
    """Request.__deepcopy__ writes its slots by name in one statement: none left out, none
    out of order (the players of the copy, the same kind, types and amounts)."""
    import copy

    from easymoney import Request
    from easymoney.engine.game import Account, Player
    ann, bob = Player("Ann", 0), Player("Bob", 1)
    pot = Account("the pot", 5)
    ann2, bob2 = Player("Ann", 0), Player("Bob", 1)
    request = Request("bid", ann, (int,), space="Dover Street", high_bid=30, high_bidder=bob,
                      least=40, amount=7, creditor=pot, next_player=bob, offer=None,
                      data={"k": [1]})
    twin = copy.deepcopy(request, {id(ann): ann2, id(bob): bob2})
    assert [getattr(twin, n) for n in Request.__slots__] == [
        "bid", ann2, (int,), "Dover Street", 30, bob2, 40, 7, twin.creditor, bob2, None,
        {"k": [1]}]
    assert twin.creditor is not pot and twin.creditor.cash == 5  # not in the memo: copied
    assert twin.data is not request.data
