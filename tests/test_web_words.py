"""Issue 32, part 2: plain words for a person at the page (easymoney.web.words and the
viewer option of Game.describe and refusal_message)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from easymoney.engine.actions import ActionRange
from easymoney.engine.events import Event
from easymoney.script.table import new_game
from easymoney.web import words
from easymoney.web.games import Played, parse_seats
from easymoney.words import second_person

# what the issue found at the page: the seat's name used as a third person
THIRD_PERSON_YOU = re.compile(r"\bYou(?:'s| (?:has|is|pays|rolls|moves|owns|buys|bids|"
                              r"passes|declines|draws|receives|owes|wins|sells|builds))\b")


@pytest.mark.parametrize("text, name, expected", [
    ("You owns Jefferson Road on side 2 and has no street on sides 3, 4", "You",
     "You own Jefferson Road on side 2 and have no street on sides 3, 4"),
    ("Bot rejects You's offer to sell Dover Street", "You",
     "Bot rejects your offer to sell Dover Street"),
    ("Bob pays Ann $50: rent", "Ann", "Bob pays you $50: rent"),
    ("Ann passes on Beacon Street", "Ann", "You pass on Beacon Street"),
    ("it is Bot's turn: Ann may build only in their own turn", "Ann",
     "it is Bot's turn: you may build only in your own turn"),
    ("Annie has $5", "Ann", "Annie has $5"),  # a name is found whole only
    ("Bob has $5", None, "Bob has $5"),
])
def test_issue32_part2_second_person_names_the_reader_you(text, name, expected):
    assert second_person(text, name) == expected


def _game(players: str = "You Bot:greedy", seed: int = 1, turns: int = 30) -> Played:
    seats = parse_seats(players)
    state = new_game("standard", players.split(), seed=seed, options=[f"end.max_turns={turns}"])
    return Played("t", state, seats, {})


PLAIN = ("rolls", "ends turn", "declines", "passes")


def _step(played: Played, prefer: tuple[str, ...] = PLAIN) -> None:
    """One step: the bot's, else the person's first control saying one of `prefer`."""
    if played.bot_to_move():
        played.bot_step()
        return
    listed = played.state.legal_actions()
    controls = played.controls()
    pick = next((c for word in prefer for c in controls if word in c["text"]), controls[0])
    action = listed[pick["index"]]
    played.take(action.at(action.least) if isinstance(action, ActionRange) else action)


def _until(played: Played, done: Any, prefer: tuple[str, ...] = PLAIN, steps: int = 3000) -> None:
    for _ in range(steps):
        if done(played) or played.state.request is None:
            return
        _step(played, prefer)
    raise AssertionError("never reached")


def test_issue32_part2_controls_are_labelled_from_the_actions_descriptions():
    played = _game()
    assert [(c["text"], c["label"]) for c in played.controls()] == [("You rolls", "Roll")]
    _until(played, lambda p: any(c["text"] == "You buys" for c in p.controls()))
    buy = next(c for c in played.controls() if c["text"] == "You buys")
    space = played.state.request.space
    assert buy["label"] == f"Buy {space.name} for ${space.price:,}", buy
    decline = next(c for c in played.controls() if c["text"] == "You declines")
    assert decline["label"] == f"Decline {space.name}"
    # a bid: the slider's label, and the words around the amount the button says
    _until(played, lambda p: any(c["kind"] == "range" and "bids" in c["text"]
                                 for c in p.controls()), prefer=("declines", *PLAIN))
    bid = next(c for c in played.controls() if "bids" in c["text"])
    asked = played.state.request.space.name
    assert bid["label"] == f"Bid on {asked}" and bid["words"] == ["Bid ", f" on {asked}"]
    assert {"index", "kind", "text", "least", "most", "step"} <= set(bid)
    passing = next(c for c in played.controls() if "passes" in c["text"])
    assert passing["label"] == f"Pass on {asked}"


def test_issue32_part2_an_offer_to_another_player_is_said_as_one():
    played = _game(seed=4)
    _until(played, lambda p: any("sells" in c["text"] for c in p.controls()),
           prefer=("buys", *PLAIN))
    sale = next(c for c in played.controls() if "sells" in c["text"])
    assert re.fullmatch(r"Offer to sell .+ to Bot", sale["label"]), sale
    assert sale["words"][0].startswith("Offer to sell ") and sale["words"][0].endswith(" for ")


def test_issue32_part2_a_missing_answer_says_the_rule_that_keeps_it_out_to_you():
    # the game of test_web's case 11: R13 keeps the buy of Highland Avenue out
    played = _game()
    _until(played, lambda p: p.state.request is not None and p.state.request.kind == "buy"
           and p.state.request.space.name == "Highland Avenue"
           and not any("buys" in c["text"] for c in p.controls()), prefer=("buys", *PLAIN))
    refused = played.refused()
    assert [r["rules"] for r in refused] == [["R13"]]
    reason = refused[0]["reason"]
    assert reason.startswith("You may not buy Highland Avenue: R13, you own "), reason
    assert re.search(r"and have no street on sides [\d, ]+$", reason), reason
    assert refused[0]["words"].startswith("You cannot buy Highland Avenue: R13 four_sides: You owns")
    assert played.controls(me="Bot") == [] and played.refused(me="Bot") == []


def test_issue32_part2_events_are_worded_for_the_viewer_and_for_a_spectator():
    played = _game(players="You Bot:greedy Cat:greedy", seed=4, turns=40)
    _until(played, lambda p: False, prefer=("buys", "builds", *PLAIN))
    game = played.state.game
    turns = words.transcript_by_turn(played.state, "You")
    mine = [line for group in turns for line in group["lines"]]
    assert not [line for line in mine if THIRD_PERSON_YOU.search(line)]
    assert any(line.startswith("You roll ") for line in mine)
    assert any(re.match(r"You (move|pay|buy|receive)", line) for line in mine)
    # a spectator reads every seat in the third person: the transcript the terminal prints
    seen = [line for group in words.transcript_by_turn(played.state) for line in group["lines"]]
    assert seen == [t for t in map(game.describe, game.log) if t is not None]
    assert [g["turn"] for g in turns] == list(range(0, 41))
    assert words.transcript_by_turn(played.state, "You", since=38) == turns[-3:]
    assert all(g["lines"][0] == f"Turn {g['turn']}: {g['player']}".replace(": You", ": you")
               for g in turns[1:])


def test_issue32_part2_a_rejected_offer_is_your_offer():
    game = _game().state.game
    rejected = Event("deal_rejected", {"player": "Bot", "offerer": "You",
                                       "deal": "sell Dover Street to Bot for $500"})
    assert game.describe(rejected) == "Bot rejects You's offer to sell Dover Street to Bot for $500"
    assert game.describe(rejected, "You") == "Bot rejects your offer to sell Dover Street to Bot for $500"
    assert game.describe(rejected, "Bot") == "You reject You's offer to sell Dover Street to Bot for $500"
    debt = Event("debt", {"player": "You", "amount": 50, "creditor": "Bot", "reason": "rent",
                          "cash": 3})
    assert game.describe(debt, "You") == "You owe $50 to Bot (rent) and have $3: must raise money"
    move = Event("move", {"player": "You", "start": 3, "end": 0, "steps": -3, "space": "Go"})
    assert game.describe(move, "You") == "You move back to Go (0)"


def test_issue32_part2_standings_give_cash_worth_and_holdings():
    played = _game(seed=4)
    _until(played, lambda p: p.state.game.turns_played >= 12, prefer=("buys", *PLAIN))
    rows = words.standings(played.state, "You")
    game = played.state.game
    assert [r["name"] for r in rows] == ["You", "Bot"] and [r["you"] for r in rows] == [True, False]
    for row, player in zip(rows, game.players):
        assert row["cash"] == player.cash and row["worth"] == game.worth(player)  # R28
        assert [s["index"] for s in row["spaces"]] == [s.index for s in player.spaces]
        assert all(s["name"] == game.variant.spaces[s["index"]].name for s in row["spaces"])
    assert any(row["spaces"] for row in rows)


def test_issue32_part2_the_last_throw_and_the_path_of_the_man():
    played = _game()
    assert words.motion(played.state) is None  # nothing thrown yet
    start = played.state.game.players[0].position
    _step(played)  # You rolls
    thrown = words.motion(played.state)
    assert thrown is not None and thrown["player"] == "You"
    total = sum(thrown["dice"])
    end = played.state.game.players[0].position
    n = len(played.state.game.variant.spaces)
    path = thrown["path"]
    assert path[0] == start and path[-1] == end and len(path) >= total + 1
    assert path[:total + 1] == [(start + k) % n for k in range(total + 1)]
    assert words.prompt(played.state, "You").startswith("Your turn to ")
    assert words.prompt(played.state, None).startswith("Waiting for You to ")


@pytest.mark.parametrize("players, watch, reader", [
    ("You Bot:greedy", False, "You"),       # the page's own game: it speaks to the person
    ("You Bot:greedy", True, None),         # watched: everyone in the third person
    ("Ann Bob Bot:greedy", False, None),    # two people at one page: neither is "you"
])
def test_issue32_part2_the_pages_transcript_speaks_to_its_one_person(players, watch, reader):
    from easymoney.web.games import Store, start_game
    params = {"variant": "standard", "players": players, "seed": 3, "enable": [],
              "disable": [], "options": ["end.max_turns=6"]}
    played = start_game(Store(), params, watch=watch, addressed=True)
    _until(played, lambda p: False)
    game = played.state.game
    assert played.reader == reader
    assert played.transcript == [t for t in (game.describe(e, reader) for e in game.log) if t]
    if reader is not None:
        assert any(t.startswith("You roll ") for t in played.transcript)
        assert not [t for t in played.transcript if THIRD_PERSON_YOU.search(t)]
    # a table's game is everyone's: it is never addressed
    assert start_game(Store(), params, watch=watch).reader is None
