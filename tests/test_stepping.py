"""Issue 17: a game that steps (GameState): apply, refusals that change nothing, undo, clone,
history that replays, deals that ask the other party, and one clear error per mistake."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from easymoney import (ActionRange, EasyMoneyError, GameOverError, NothingToUndo, RefusedAction,
                       new_game)
from easymoney.engine.legal import random_action
from easymoney.errors import ScriptError, ScriptSyntaxError


def _random_game(seed: int, steps: int, players=("Ann", "Bob", "Cat"), **options):
    state = new_game("standard", list(players), seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(random_action(state.legal_actions(), rng))
    return state


def test_a_new_game_waits_for_the_first_throw() -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    assert state.request.kind == "window_before" and state.player.name == "Ann"
    assert [str(a) for a in state.legal_actions()] == ["Ann rolls"]
    state.apply("Ann rolls")
    assert state.history[0].startswith("Ann rolls ") and len(state.history[0].split()) == 4


def test_the_same_seed_and_steps_give_the_same_game() -> None:
    a, b = _random_game(7, 300), _random_game(7, 300)
    assert a.history == b.history and a.game.snapshot() == b.game.snapshot()


def test_R4_the_game_throws_the_dice_unless_they_are_chosen() -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    before = state.game.snapshot()
    with pytest.raises(RefusedAction, match="throws the dice"):
        state.apply("Ann rolls 6 6")
    assert state.game.snapshot() == before and state.steps == 0
    chosen = new_game("standard", ["Ann", "Bob"], seed=3, choose_dice=True)
    chosen.apply("Ann rolls 6 6")
    assert chosen.history[0] == "Ann rolls 6 6"
    assert "chosen" in chosen.script()


def test_a_refused_action_raises_with_its_refusals_and_changes_nothing() -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    state.apply("Ann rolls")
    while state.request.kind != "window_after":
        state.apply(state.legal_actions()[-1])
    before, history = state.game.snapshot(), state.history
    with pytest.raises(RefusedAction) as caught:
        state.apply('Ann builds on "Beacon Street"')  # she owns nothing there
    assert caught.value.refusals and caught.value.refusals[0].rule == "R17"
    with pytest.raises(RefusedAction, match="waits for"):
        state.apply("Bob rolls")  # not Bob's decision
    assert state.game.snapshot() == before and state.history == history


@pytest.mark.parametrize("line, error, words", [
    ("Ann rols", ScriptSyntaxError, "rols"),
    ("Zed rolls", ScriptError, "unknown player 'Zed'"),
    ('Ann builds on "Nowhere Lane"', ScriptError, "unknown space"),
    ("expect Ann cash 100", ScriptError, "one action"),
])
def test_a_malformed_line_is_one_clear_error_and_changes_nothing(line, error, words) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    before = state.game.snapshot()
    with pytest.raises(error) as caught:
        state.apply(line)
    assert words in str(caught.value)
    assert state.game.snapshot() == before


def test_undo_at_the_start_and_apply_after_the_end_are_one_error_each() -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    with pytest.raises(NothingToUndo, match="at its start"):
        state.undo()
    over = _random_game(1, 5000, players=("Ann", "Bob"))
    assert over.is_over and over.outcome is not None and over.legal_actions() == []
    with pytest.raises(GameOverError, match="over"):
        over.apply("Ann rolls")
    assert isinstance(GameOverError("x"), EasyMoneyError)


@pytest.mark.parametrize("every", [1, 8, 64])
def test_undo_steps_back_exactly(every: int) -> None:
    """Whatever the steps between the kept copies (`snapshot_every`: the environments keep
    one every 64), a step back is exact."""
    state = _random_game(4, 200, snapshot_every=every)
    seen = []
    for _ in range(40):
        if state.is_over:
            break
        seen.append((state.game.snapshot(), state.history, state.request.describe()))
        choice = state.legal_actions()[-1]
        state.apply(choice.at(choice.least) if isinstance(choice, ActionRange) else choice)
    while seen:
        state.undo()
        snapshot, history, waits = seen.pop()
        assert state.game.snapshot() == snapshot
        assert state.history == history and state.request.describe() == waits


@pytest.mark.parametrize("every", [8, 64])
def test_a_clone_steps_on_its_own(every: int) -> None:
    state = _random_game(5, 150, snapshot_every=every)
    twin = state.clone()
    assert twin.game.snapshot() == state.game.snapshot() and twin.history == state.history
    before = state.game.snapshot()
    for _ in range(20):
        if twin.is_over:
            break
        choice = twin.legal_actions()[0]
        twin.apply(choice.at(choice.least) if isinstance(choice, ActionRange) else choice)
    assert state.game.snapshot() == before


def test_a_clone_keeps_a_copy_at_the_turn_start_so_that_the_next_clones_replay_one_turn() -> None:
    # an MCTS search clones one state many times: the first clone's replay keeps a copy of
    # the game at the last turn start, shared with the state it was cloned from
    state = _random_game(11, 100, snapshot_every=64)
    turn_start = state._turn_starts[-1]
    assert state._snapshots[-1].steps < turn_start  # no copy there yet: every 64 steps
    first = state.clone()
    assert state._snapshots[-1].steps == turn_start == first._snapshots[-1].steps
    second = state.clone()  # replays from the turn start alone
    assert second._snapshots[-1].steps == turn_start
    lines = []
    for twin in (state, first, second):  # the same moves give the same game on each
        moves = random.Random(4)
        for _ in range(60):
            if twin.is_over:
                break
            twin.apply(random_action(twin.legal_actions(), moves))
        lines.append((twin.history, twin.game.snapshot()))
    assert lines[0] == lines[1] == lines[2]


def test_a_clone_shares_a_stash_value_its_key_says_is_shared_and_copies_the_others() -> None:
    # the traffic light's groups are made once from the board (shared=True); the turn's
    # machinery is the game's own
    from easymoney.engine.stepping import copy_game
    state = _random_game(3, 30)
    game = state.game
    twin = copy_game(game, None)
    shared = [k for k in game.stash if getattr(k, "shared", False)]
    assert {k.name for k in shared} >= {"traffic_light.groups", "bonus_corner.spaces"}
    for key in game.stash:
        if key in shared:
            assert twin.stash[key] is game.stash[key]
        elif game.stash[key] is not None:
            assert twin.stash[key] is not game.stash[key], key


def test_the_history_replays_to_the_same_state(tmp_path: Path) -> None:
    state = _random_game(2, 400)
    expectations = "".join(f"expect {p.name} cash {p.cash}\n" for p in state.game.players
                           if not p.bankrupt)
    script = tmp_path / "stepped.game"
    script.write_text(state.script() + expectations, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(script)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "expectations" not in done.stderr


def test_R22_a_sale_asks_the_buyer_and_a_rejected_one_leaves_no_line() -> None:
    state = new_game("standard", ["Ann", "Bob", "Cat"], seed=3, choose_dice=True)
    state.apply("Ann rolls 1 2")  # Elmwood Avenue? whatever street: buy it
    while state.request.kind != "window_after":
        kinds = [type(a).__name__ for a in state.legal_actions()]
        state.apply(state.legal_actions()[kinds.index("Buy")] if "Buy" in kinds
                    else state.legal_actions()[0])
    assert state.game.players[0].spaces, "Ann bought nothing"
    space = state.game.players[0].spaces[0]
    line = f'Ann sells "{space.name}" to Bob for 100'
    state.apply(line)
    assert state.request.kind == "agree" and state.player.name == "Bob"
    assert {type(a).__name__ for a in state.legal_actions()} >= {"Accept", "Reject"}
    history = state.history
    state.apply(next(a for a in state.legal_actions() if type(a).__name__ == "Reject"))
    assert state.history == history and state.game.owner[space.index].name == "Ann"
    with pytest.raises(RefusedAction, match="R22a offers: Bob rejected"):
        state.apply(line)  # not again in this window (issue 28 case 34)
    line = line.replace("to Bob", "to Cat")
    state.apply(line)
    state.apply(next(a for a in state.legal_actions() if type(a).__name__ == "Accept"))
    assert state.history[-1] == line and state.game.owner[space.index].name == "Cat"


def test_listeners_hear_new_events_not_replayed_ones() -> None:
    state = _random_game(6, 60)
    heard = []
    state.listen(heard.append)
    choice = state.legal_actions()[0]
    state.apply(choice.at(choice.least) if isinstance(choice, ActionRange) else choice)
    count = len(heard)
    assert count
    state.undo()
    state.clone()
    assert len(heard) == count


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R22_the_listing_kept_across_a_rejected_offer_is_the_listing_made_afresh(seed) -> None:
    """After a rejected offer the offerer's listing leaves that deal out (R22a); at every
    step the state's listing equals a listing made from scratch, and offers (rejected at
    once, or after an any-moment step) are taken often."""
    from easymoney.engine.legal import legal_actions
    state = new_game("standard", ["Ann", "Bob", "Cat"], seed=seed)
    rng = random.Random(seed)
    rejected = 0
    for _ in range(1500):
        if state.is_over:
            break
        listed = state.legal_actions()
        assert listed == legal_actions(state.game, state.request)
        offers = [a for a in listed if type(a.kind if isinstance(a, ActionRange) else a).__name__ == "Sell"]
        choice = rng.choice(offers if offers and rng.random() < 0.5 else listed)
        if isinstance(choice, ActionRange):
            choice = choice.at(rng.choice(list(choice.values())))
        rejected += type(choice).__name__ == "Reject"
        state.apply(choice)
    assert rejected > 20


def test_a_step_taken_from_the_listing_is_not_judged_again_and_lands_the_same() -> None:
    """`push(action, listed=True)` (the environments' path) gives the game `apply` gives."""
    judged, listed = new_game("standard", ["Ann", "Bob"], seed=9), new_game("standard", ["Ann", "Bob"], seed=9)
    rng = random.Random(9)
    for _ in range(300):
        if judged.is_over:
            break
        choice = rng.choice(judged.legal_actions())
        if isinstance(choice, ActionRange):
            choice = choice.at(choice.most)
        judged.apply(choice)
        twin = next(a for a in listed.legal_actions() if str(a) == str(choice)
                    or isinstance(a, ActionRange) and str(a.at(a.most)) == str(choice))
        listed.push(twin.at(twin.most) if isinstance(twin, ActionRange) else twin, listed=True)
    assert listed.game.snapshot() == judged.game.snapshot()
    assert listed.history == judged.history


def test_issue29_no_rule_needs_deepcopy() -> None:
    """Issue 29: a copy of a game (the stepping game keeps copies) shares the rule set's
    machinery a rule keeps in its stash (the turn keeps the caller of em_move) and names the
    copy's players in the requests kept there: no rule says how its values are copied."""
    from easymoney.engine.stepping import copy_game
    from easymoney.plugins import turn
    for path in (Path(__file__).resolve().parent.parent / "plugins").glob("*.py"):
        assert "__deepcopy__" not in path.read_text(encoding="utf-8"), path
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    twin = copy_game(state.game, state)
    kept, copied = state.game.stash[turn._TURNS], twin.stash[turn._TURNS]
    assert copied is not kept and copied.move is kept.move
    assert [r.player for r in copied.before] == twin.players != state.game.players
