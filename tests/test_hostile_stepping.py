"""Issue 28, what a hostile tester found in the stepping game and the learning environment:
seeds and names a script could not write, what is not an action, a line the prompt takes
and the stepping game did not, and a mask kept after a deal made it untrue. Each is one
clear error that changes nothing, or it works."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy
import pytest

from easymoney import agents
from easymoney.engine.deals import Accept
from easymoney.engine.legal import concrete
from easymoney.errors import EasyMoneyError, RefusedAction, ScriptSyntaxError, UsageError
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner
from easymoney.script.table import new_game

ROOT = Path(__file__).resolve().parent.parent


# --- 18: the environments' seeds ------------------------------------------------------------

@pytest.mark.parametrize("make", [lambda: agents.env("standard", 2),
                                  lambda: agents.single("standard")], ids=["aec", "single"])
def test_issue28_an_integral_seed_is_an_int(make: Any) -> None:
    env, twin = make(), make()
    env.reset(seed=numpy.int64(3))
    twin.reset(seed=3)
    assert env.table.seed == 3 and type(env.table.seed) is int
    assert env.table.state.history == twin.table.state.history
    env.reset()  # the one after it
    assert env.table.seed == 4


@pytest.mark.parametrize("make", [lambda: agents.env("standard", 2),
                                  lambda: agents.single("standard")], ids=["aec", "single"])
@pytest.mark.parametrize("seed", ["abc", 1.5, True, -1, 10**31])
def test_issue28_a_refused_seed_changes_nothing(make: Any, seed: Any) -> None:
    env = make()
    env.reset(seed=7)
    state = env.table.state
    with pytest.raises(UsageError, match=r"^error: seed: (expected a whole number as the seed, "
                                         r"found|number too large)"):
        env.reset(seed=seed)
    assert env.table.state is state and env.table.seed == 7
    env.reset()  # every later reset works, and goes on from the last good seed
    assert env.table.seed == 8


# --- 19: new_game refuses what the script language refuses -----------------------------------

@pytest.mark.parametrize("players, message, line", [
    (["Ann", "Ann"], "player 'Ann' is listed twice", "players Ann Ann"),
    (["Ann", "seed"], "'seed' is a keyword and cannot be a player name", "players Ann seed"),
    (["Ann", "nobody"], "'nobody' is a keyword and cannot be a player name", "players nobody"),
    (["Ann", "_x"], "expected a player name, found '_x'", "players _x"),
    (["Ann", "Bob Cy"], "expected a player name, found 'Bob Cy'", None),  # two names to it
    (["Ann", 7], "expected a player name, found '7'", "players 7"),
    (["Ann", "A" * 101], "name too long: found ", "players " + "A" * 101),
])
def test_issue28_new_game_refuses_the_names_a_script_refuses(players: list[Any], message: str,
                                                             line: str | None) -> None:
    with pytest.raises(UsageError) as caught:
        new_game("standard", players)
    assert caught.value.message.startswith(f"players: {message}"), caught.value.message
    if line is not None:  # the script language's own words for the same name
        with pytest.raises(EasyMoneyError) as parsed:
            parse(line + "\n")
        assert parsed.value.message.startswith(message), parsed.value.message


@pytest.mark.parametrize("seed, found", [
    (None, "expected a whole number as the seed, found None"),
    ("abc", "expected a whole number as the seed, found 'abc' (a str)"),
    ("3", "expected a whole number as the seed, found '3' (a str)"),
    (1.5, "expected a whole number as the seed, found 1.5 (a float)"),
    (True, "expected a whole number as the seed, found True (a bool)"),
    (-1, "expected a whole number as the seed, found '-1'"),
    (10**31, "number too large: found '100000000000...' (32 digits)"),
])
def test_issue28_new_game_refuses_a_seed_a_script_cannot_write(seed: Any, found: str) -> None:
    with pytest.raises(UsageError) as caught:
        new_game("standard", ["Ann", "Bob"], seed=seed)
    assert caught.value.message.startswith(f"seed: {found}"), caught.value.message


@pytest.mark.parametrize("seed", [0, 5, numpy.int64(9), 10**30 - 1])
def test_issue28_a_new_game_script_replays(seed: Any) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=seed)
    for _ in range(40):
        state.apply(concrete(state.legal_actions())[-1])
    result = ScriptRunner(parse(state.script())).run()
    assert result.failures == []
    assert f"\nseed {int(seed)}\n" in state.script()


def test_issue28_apply_and_legal_actions_refuse_what_is_no_action_or_player() -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=1)
    before = state.game.snapshot()
    for bad, words in ((None, r"not None"), (3, r"not 3 \(an int\)")):
        with pytest.raises(UsageError, match=rf"^error: apply takes an Action or a line of the "
                                             rf"script language, {words}$"):
            state.apply(bad)  # type: ignore[arg-type]
        with pytest.raises(UsageError, match=rf"^error: refusals takes an Action, {words}$"):
            state.refusals(bad)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^error: unknown player 'Zed'; the players are Ann, Bob$"):
        state.legal_actions("Zed")
    with pytest.raises(UsageError, match=r"unknown player 'Anm' \(did you mean 'Ann'\?\)"):
        state.legal_actions("Anm")
    assert state.game.snapshot() == before and state.steps == 0
    # a player of a copy is that seat's player here
    assert state.legal_actions(state.clone().game.players[1]) == state.legal_actions("Bob")


# --- 32: the lines the prompt takes are the lines the stepping game reads ------------------------

def _an_offer_to_bob(price: int = 100) -> tuple[Any, str]:
    """A game where Bob is asked to agree to Ann's sale of her first space, and its line."""
    state = new_game("standard", ["Ann", "Bob"], seed=3, choose_dice=True)
    for step in ("Ann rolls 1 2", "Ann buys"):  # the street on space 3
        state.apply(step)
    line = f'Ann sells "{state.game.spaces[3].name}" to Bob for {price}'
    state.apply(line)
    assert state.request.kind == "agree" and state.player.name == "Bob"
    return state, line


@pytest.mark.parametrize("answer", ["Bob rejects", "Bob   accepts"])
def test_issue28_apply_reads_an_answer_to_an_offer(answer: str) -> None:
    state, line = _an_offer_to_bob()
    history = state.history
    state.apply(answer)
    owner = state.game.owner[state.game.players[0 if "rejects" in answer else 1].spaces[0].index]
    assert owner.name == ("Ann" if "rejects" in answer else "Bob")
    assert state.history == (history if "rejects" in answer else [*history, line])
    assert ScriptRunner(parse(state.script())).run().failures == []


def test_issue28_the_prompt_and_apply_refuse_an_answer_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Ann rejects` where nothing is offered: the same words from both."""
    from prompt_helpers import play_lines
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    with pytest.raises(ScriptSyntaxError) as caught:
        state.apply("Ann rejects")
    code, said = play_lines(monkeypatch, ["rejects"], "--players", "Ann", "Bob", "--seed", "3")
    assert f"not understood: {caught.value.message}" in said, said


# --- 29: a listing is true when it is given, after any-moment deals too -------------------------

RAILROADS = str(ROOT / "examples" / "variants" / "railroads.yaml")


def _slot(table: Any, prefix: str, k: int | None = None) -> int:
    """The legal slot of the catalogue name starting with `prefix` (at amount index `k`)."""
    found = [slot for slot, (_, amount) in table.slots().items()
             if table.catalogue.name(slot).startswith(prefix) and k in (None, amount)]
    assert found, f"no legal {prefix}: {[table.catalogue.name(s) for s in table.slots()]}"
    return found[0]


def test_issue28_an_offer_a_deal_made_refused_cannot_be_accepted() -> None:
    """Ann offers Bob a loan (the railroads rule: the lender pays); while Bob is asked, he
    sells Ann the Special Exemption card (R16) for all her cash: the loan is refused now,
    and Accept is no longer in the mask; Reject is, and the game goes on."""
    env = agents.env(RAILROADS, 2, seed=1, state_info=False)
    env.reset(seed=1)
    table = env.table
    game = table.state.game
    ann, bob = game.players
    card = next(c for c in game.deck if c.kind == "exemption")
    game.deck.remove(card)  # Bob holds the card: the deal that may be made at any moment
    bob.held.append(card)
    env.step(_slot(table, "Lend", 2))  # $10,000
    assert table.state.request.kind == "agree" and table.is_legal(_slot(table, "Accept"))
    env.step(_slot(table, "SellExemption", 4))  # for $20,000
    env.step(_slot(table, "Accept"))  # Ann buys the card
    assert ann.cash == 0 and table.state.request.describe().startswith("Bob to accept or reject")
    names = [table.catalogue.name(s) for s in table.slots()]
    assert names == ["Reject"], names
    offer = table.state.request.offer
    accept = Accept(bob, offer)
    assert [str(r) for r in table.state.refusals(accept)] == ["railroads: Ann has only $0"]
    with pytest.raises(RefusedAction, match="Ann has only"):
        table.state.apply(accept)
    env.step(_slot(table, "Reject"))
    assert table.state.request.kind == "window_before" and table.state.player is ann
    for _ in range(200):  # and the environment goes on
        if table.state.is_over:
            break
        env.step(min(table.slots()))
