"""Issue 17 at the prompt: `?` lists what is legal now, Tab completes it, help names it."""

from __future__ import annotations

import random
import re

from prompt_helpers import listing, play_fed, play_lines

from easymoney import new_game
from easymoney.interactive.answers import answer_lines, completions, describe_wait, help_text

RAILROADS = "examples/variants/railroads.yaml"


def test_a_whole_game_answered_only_from_the_listing_has_no_refused_answer(monkeypatch):
    """Issue 17 proof: every answer taken from `?` is taken (standard, seed 11, Ann against
    Bob:greedy): 0 refused."""
    rng = random.Random(5)
    count = {"answers": 0, "list": 1}

    def pick(said: str) -> str:
        if "The game is over" in said[-400:] or count["answers"] > 20000:
            return ""
        count["list"] ^= 1
        if count["list"] == 0:
            return "?"
        count["answers"] += 1
        return rng.choice(listing(said))

    status, said = play_fed(monkeypatch, pick, "--seed", "11", "--players", "Ann",
                            "Bob:greedy")
    assert status == 0
    assert "Game over in turn" in said
    assert "refused:" not in said and "not understood" not in said
    assert count["answers"] > 20
    # amounts are listed as ranges
    assert re.search(r"\n  sells \"[^\"]+\" to Bob for N \(N from 0 to [\d,]+ in steps of 10\)",
                     said)


def test_the_listing_is_the_legal_actions_without_the_players_name():
    state = new_game("standard", ["Ann", "Bob"], seed=11)
    assert answer_lines(state) == ["rolls"]
    state.apply("Ann rolls")
    assert answer_lines(state) == ["buys  (buy Elmwood Avenue for $1,400)",
                                   "declines  (decline Elmwood Avenue)"]
    state.apply("Ann declines")
    lines = answer_lines(state)
    assert lines[0].startswith("bids N (N from ") and lines[0].endswith(" in steps of 10)")
    assert "passes  (pass on Elmwood Avenue)" in lines


def test_at_a_buy_request_the_listing_names_the_street_and_its_price_R9(monkeypatch):
    """Issue 39 item 21: `?` at a buy says what `buys` buys and for how much."""
    status, said = play_lines(monkeypatch, ["Ann rolls", "?", "declines", "quit"],
                              "--seed", "11", "--players", "Ann", "Bob")
    listed = said.split("Ann may answer:\n", 1)[1]
    assert listed.startswith("  buys  (buy Elmwood Avenue for $1,400)\n"
                             "  declines  (decline Elmwood Avenue)\n")


def test_tab_completes_whole_lines_from_the_legal_actions():
    state = new_game("standard", ["Ann", "Bob"], seed=11)
    state.apply("Ann rolls")
    state.apply("Ann buys")  # Elmwood Avenue
    assert completions(state, [], "s") == ["status", "save", "sells"]
    assert completions(state, ["sells"], "") == ['"Elmwood Avenue"']
    assert completions(state, ["Ann", "sells", '"Elmwood Avenue"'], "") == ["to"]
    assert completions(state, ["sells", '"Elmwood Avenue"', "to"], "") == ["Bob"]
    assert completions(state, ["sells", '"Elmwood Avenue"', "to", "Bob", "for"], "") == \
        ["0", "20000"]
    assert completions(state, [], "e") == ["ends"]
    assert completions(state, ["ends"], "") == ["turn"]
    assert completions(state, ["builds"], "") == []  # not legal: nothing to complete


def test_a_plugins_line_is_listed_completed_and_named_in_help_and_the_waiting_line():
    """Issue 17: the railroads example's `lends` (a plugin's action) at the prompt."""
    state = new_game(RAILROADS, ["Ann", "Bob"], seed=2)
    assert any(line.startswith("lends Bob N (N from ") for line in answer_lines(state))
    assert completions(state, [], "le") == ["lends"]
    assert completions(state, ["lends"], "") == ["Bob"]
    assert completions(state, ["lends", "Bob"], "")[0] == "10"
    assert "lends Bob N" in help_text(state)
    assert "may roll or lend now" in describe_wait(state, state.request)


def test_a_loan_typed_at_the_prompt_asks_the_borrower(monkeypatch):
    status, said = play_lines(monkeypatch, ["lends Bob 500", "quit"], "--variant", RAILROADS,
                              "--seed", "2", "--players", "Ann", "Bob:greedy")
    assert status == 0
    assert re.search(r"Bob (accepts|rejects)|Ann lends Bob \$500", said), said[-800:]


def test_help_lists_no_line_by_hand(monkeypatch):
    status, said = play_lines(monkeypatch, ["help", "quit"], "--seed", "11", "--players",
                              "Ann", "Bob:greedy")
    assert "What Ann may answer now (also `?`):\n  rolls\nCommands:" in said
    assert "builds" not in said and "bankrupt" not in said
