"""Issue 29, part 5: one outward view of a decision point (easymoney.view).

Every surface that shows the game outside (a program at a seat, `play --json`, an agent's
facts) builds from `decision_view`: each field is spelt once, and reading an answer back
is `read_choice`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from easymoney import ActionRange, new_game
from easymoney.engine.actions import Request
from easymoney.engine.legal import is_listed
from easymoney.view import ChoiceError, LongNumber, decision_view, parse_answer, read_choice

BUILT_IN_KINDS = {"window_before", "window_after", "buy", "bid", "raise", "agree"}
STATE = {"turn", "turns_played", "current", "players", "owners", "houses", "mortgaged", "pots",
         "pot_titles", "bank", "kept_cards", "deck", "discard", "outcome"}
PLAYER = {"name", "cash", "position", "bankrupt", "worth", "houses_left", "spaces", "mortgaged",
          "cards", "shown"}
REQUEST = {"kind", "player", "words", "space", "high_bid", "high_bidder", "least", "amount",
           "creditor", "next_player", "offer", "data"}
ACTION = {"line", "type", "fields", "label", "counterparty", "price"}
RANGE = ACTION | {"amount_field", "least", "most", "step"}


def random_step(state: Any, rng: random.Random) -> None:
    """One random legal move (bench/bench_legal.py's), a range at either end or between."""
    choice = rng.choice(state.legal_actions())
    if isinstance(choice, ActionRange):
        choice = choice.at(rng.choice([choice.least, choice.most, choice.least + choice.step
                                       * rng.randrange(len(choice))]))
    state.apply(choice)


def decisions(seed: int, steps: int = 600, enable: tuple[str, ...] = ()) -> Iterator[Any]:
    """The stepping state at each decision of a random game."""
    state = new_game("standard", ["Ann", "Bob", "Cy"], seed, enable=list(enable))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            return
        yield state
        random_step(state, rng)


def check_fields(view: dict[str, Any]) -> None:
    assert set(view) == {"state", "request", "legal", "me"}
    state, request = view["state"], view["request"]
    assert set(state) == STATE
    for player in state["players"]:
        assert set(player) == PLAYER
    assert set(request) == REQUEST
    for k, entry in enumerate(view["legal"]):
        assert entry["index"] == k
        assert set(entry) - {"index"} == (RANGE if "least" in entry else ACTION)
        if "least" in entry:
            assert "N" in entry["line"] and entry["fields"][entry["amount_field"]] is None
    assert json.loads(json.dumps(view)) == view  # JSON values only, keys strings


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_field_is_present_for_each_request_kind(seed: int) -> None:
    seen: set[str] = set()
    for state in decisions(seed):
        view = decision_view(state.game)
        check_fields(view)
        request = view["request"]
        seen.add(request["kind"])
        if request["kind"] in ("buy", "bid"):
            space = state.request.space
            assert request["space"] == {"number": space.index, "name": space.name}
        if request["kind"] == "bid":
            assert request["least"] == state.request.least > 0
        if request["kind"] == "raise":
            assert request["amount"] > 0 and request["creditor"] is not None
        if request["kind"] == "agree":
            offer = request["offer"]
            assert offer["line"] == str(state.request.offer)
            assert offer["counterparty"] == request["player"]
            assert isinstance(offer["price"], int)
        if request["kind"] == "window_after":
            assert "next_player" in request
    assert seen == BUILT_IN_KINDS


def test_the_state_says_what_the_game_holds() -> None:
    state = next(s for s in decisions(2, 400) if s.game.turns_played > 20)
    game, view = state.game, decision_view(state.game)["state"]
    assert view["turn"] == game.turns_played + 1 and view["current"] == game.current.name
    for p, shown in zip(game.players, view["players"]):
        assert (shown["name"], shown["cash"], shown["position"]) == (p.name, p.cash, p.position)
        assert shown["spaces"] == [s.index for s in p.spaces]
        assert all(view["owners"][str(n)] == p.name for n in shown["spaces"])
    assert view["kept_cards"] == {"Special Exemption": None} or \
        set(view["kept_cards"]) == {"Special Exemption"}
    assert view["deck"] == len(game.deck)


@pytest.mark.parametrize("seed", [0, 2])
def test_reading_back_every_listed_choice_gives_an_action_the_rules_allow(seed: int) -> None:
    for k, state in enumerate(decisions(seed, 300)):
        if k % 5:
            continue
        game = state.game
        view = decision_view(game)
        for entry, found in zip(view["legal"], view.listed):
            answers: list[Any] = [{"index": entry["index"]}]
            if "least" in entry:
                answers = [{"index": entry["index"], "amount": a}
                           for a in (entry["least"], entry["most"])]
                head, _, tail = entry["line"].rpartition("N")  # the last N: a name may hold one
                answers.append(f"{head}${entry['most']:,}{tail}")
            else:
                answers.append(entry["line"])
                answers.append({"line": entry["line"]})
            for answer in answers:
                action = read_choice(view, answer)
                assert is_listed(view.listed, action)
                assert game.refusals(action) == [], (answer, action)
                assert read_choice(view.listed, answer) == action


BAD = [
    ({"index": -1}, "illegal"), ({"index": 99}, "illegal"), ({"index": True}, "illegal"),
    ({"index": "0"}, "illegal"), ({"index": LongNumber("9" * 5000)}, "illegal"),
    ({"line": "Zed rolls"}, "illegal"), ({"line": 3}, "garbage"), ({"amount": 3}, "garbage"),
    ([0], "garbage"), (None, "garbage"),
]


@pytest.mark.parametrize("answer, problem", BAD)
def test_a_bad_answer_is_refused_in_one_line_and_changes_nothing(answer: Any, problem: str) -> None:
    state = next(s for s in decisions(0) if s.request.kind == "bid")
    before = state.game.snapshot()
    view = decision_view(state.game)
    with pytest.raises(ChoiceError) as info:
        read_choice(view, answer)
    assert info.value.problem == problem and "\n" not in info.value.message
    assert len(info.value.message) < 300
    assert state.game.snapshot() == before


def test_an_amount_off_the_range_is_refused() -> None:
    state = next(s for s in decisions(0) if s.request.kind == "bid")
    view = decision_view(state.game)
    bid = next(e for e in view["legal"] if "least" in e)
    for amount in (bid["least"] - bid["step"], bid["most"] + bid["step"], bid["least"] + 1, None):
        with pytest.raises(ChoiceError, match="is not from"):
            read_choice(view, {"index": bid["index"], "amount": amount})


def test_parse_answer_keeps_long_numbers_unread_and_refuses_garbage() -> None:
    assert isinstance(parse_answer('{"index": %s}' % ("9" * 5000))["index"], LongNumber)
    for line in ("", "[]", '{"amount": 1}', "[" * 100_000):
        with pytest.raises(ChoiceError) as info:
            parse_answer(line)
        assert info.value.problem == "garbage"


def test_a_plugins_request_data_shows_in_the_view() -> None:
    state = next(decisions(0))
    game = state.game
    ann, space = game.players[0], game.spaces[3]
    asked = Request("wager", ann, (), space=space,
                    data={"fine": 500, "cell": space, "guards": (game.players[1],)})
    view = decision_view(game, asked, [])
    assert view["request"]["kind"] == "wager" and view["request"]["player"] == "Ann"
    assert view["request"]["data"] == {"fine": 500,
                                       "cell": {"number": 3, "name": space.name},
                                       "guards": ["Bob"]}


def test_for_a_player_not_asked_the_listing_is_their_any_moment_actions() -> None:
    state = next(s for s in decisions(2, 600)
                 if s.game.players[1].held and s.request.player is not s.game.players[1])
    bob = state.game.players[1]
    view = decision_view(state.game, for_player=bob)
    assert view["me"] == "Bob"
    assert view["legal"] and all(e["fields"]["player"] == "Bob" for e in view["legal"])


shares = pytest.importorskip("easymoney_test_shares",
                             reason="the shares test plugin is installed for the tests")


def test_a_plugins_actions_show_with_their_fields() -> None:
    seen: dict[str, dict[str, Any]] = {}
    for seed in range(4):
        for state in decisions(seed, 400, enable=("shares",)):
            view = decision_view(state.game)
            check_fields(view)
            for entry in view["legal"]:
                if entry["type"] in ("CashShares", "PocketDividend"):
                    seen[entry["type"]] = entry
                    action = read_choice(view, {"index": entry["index"],
                                                "amount": entry.get("least")})
                    assert state.game.refusals(action) == []
    cash = seen["CashShares"]
    assert cash["line"].endswith(" cashes N shares") and cash["amount_field"] == "count"
    assert set(cash["fields"]) == {"player", "count"} and cash["label"] == "cash N shares"
    assert seen["PocketDividend"]["label"] == "pocket a dividend"


def test_a_view_changed_by_its_reader_leaves_the_next_view_as_the_game_is() -> None:
    """The board part is kept between views of one game (an agent's facts make one a
    step): each view has its own copies, and another game never gets its board."""
    state = next(s for s in decisions(2, 400) if s.game.turns_played > 20)
    first = decision_view(state.game)["state"]
    expected = json.loads(json.dumps(first))
    first["owners"].clear()
    first["houses"]["0"] = 9
    first["mortgaged"].append(0)
    first["players"][0]["spaces"].append(0)
    first["players"][0]["mortgaged"].append(0)
    assert decision_view(state.game)["state"] == expected
    fresh = new_game("standard", ["Ann", "Bob", "Cy"], 2).game
    assert decision_view(fresh)["state"]["owners"] == {}
