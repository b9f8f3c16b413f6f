"""Issue 38 over plain HTTP: what the page is given to show a game people finish: the end
(R27, R28, R29), an offer's starting price and what an answer gives and takes (R22), an
auction at a glance (R11), a typed line's mistake in words, and a plugin installed after
the server started. The browser tests are tests/test_web_page_browser.py."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx: pip install httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from easymoney.engine.actions import ActionRange  # noqa: E402
from easymoney.script.table import new_game  # noqa: E402
from easymoney.web import words  # noqa: E402
from easymoney.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(str(ROOT)), base_url="http://127.0.0.1:8000") as c:
        yield c


def play_until(state, found, limit: int = 4000):
    """Plain moves (a roll, a buy, an end of turn, a pass, an acceptance) until `found(state)`."""
    for _ in range(limit):
        if found(state) or state.request is None:
            return state
        listed = state.legal_actions()
        plain = [a for a in listed if not isinstance(a, ActionRange)]
        pick = next((a for w in ("rolls", "buys", "ends", "passes", "accepts", "pays")
                     for a in plain if w in str(a)), None)
        if pick is None:
            pick = plain[0] if plain else listed[0].at(listed[0].least)
        state.apply(pick)
    return state


def test_issue38_the_end_says_who_won_and_why_with_each_worth_in_its_parts_R27_R28_R29():
    state = play_until(new_game("standard", ["Ann", "Bob"], seed=2, options=["end.max_turns=30"]),
                       lambda s: False)
    end = words.ending(state, "Ann")
    game = state.game
    best = game.standings()[0][0].name
    assert end["winners"] == [best] and end["turns"] == 30 == game.turns_played
    assert end["headline"] == ("You win" if best == "Ann" else f"{best} wins")
    assert "30 turns were played (end.max_turns)" in end["why"] and "R28" in end["why"]
    for row in end["standings"]:  # the parts add up to R28's worth
        assert row["cash"] + sum(s["value"] for s in row["spaces"]) + row["other"] == row["worth"]
        assert row["worth"] == game.worth(game.by_name[row["name"]])
    assert words.ending(new_game("standard", ["Ann", "Bob"], seed=2), "Ann") is None


def test_issue38_an_offer_starts_at_the_printed_price_and_says_where_half_is_R22():
    state = play_until(new_game("standard", ["Ann", "Bob"], seed=1), lambda s: any(
        isinstance(a, ActionRange) and a.at(a.least).describe().startswith("sell")
        for a in s.legal_actions()))
    offers = [a for a in state.legal_actions() if isinstance(a, ActionRange)
              and a.at(a.least).describe().startswith("sell")]
    assert offers
    for k, rng in enumerate(offers):
        c = words.control(k, rng, "Ann", state.game)
        space = rng.at(0).space
        assert c["offer"]["thing"] == space.name and c["offer"]["with"] == "Bob"
        printed = space.price if isinstance(space.price, int) and space.price > 0 else None
        base = printed or c["offer"]["valued"]
        assert c["offer"]["start"] == min(rng.most, base) > 0  # not $0
        assert c["offer"]["low"] == base // 2
    roll = words.control(0, state.legal_actions()[0], "Ann", state.game)
    assert roll.get("offer") is None


def test_issue38_an_answer_to_an_offer_says_what_is_given_and_taken_R22():
    state = play_until(new_game("standard", ["Ann", "Bob"], seed=1), lambda s: any(
        isinstance(a, ActionRange) and a.at(a.least).describe().startswith("sell")
        for a in s.legal_actions()))
    sale = next(a for a in state.legal_actions() if isinstance(a, ActionRange)
                and a.at(a.least).describe().startswith("sell")).at(300)
    state.apply(sale)  # Bob is asked to accept or reject
    accept = next(a for a in state.legal_actions() if str(a) == "Bob accepts")
    deal = words.deal(accept, "Bob")
    assert deal["give"] == ["$300"] and deal["take"] == [sale.space.name]
    assert deal["words"] == f"You would give $300 and take {sale.space.name}"
    assert words.deal(accept, None)["words"].startswith("Bob would give $300")


def test_issue38_an_auction_at_a_glance_the_high_bid_its_bidder_and_the_least_next_R11():
    state = new_game("standard", ["Ann", "Bob", "Cat"], seed=1)
    for _ in range(40):  # auctions until one goes on after a bid
        state = play_until(state, lambda s: words.auction(s) is not None)
        first = words.auction(state)
        assert first is not None and first["least"] >= 100
        bid = next(a for a in state.legal_actions() if isinstance(a, ActionRange))
        state.apply(bid.at(bid.least))
        after = words.auction(state)
        if after is not None:
            break
    assert after["space"] == first["space"] and after["high"] == first["least"]
    assert after["bidder"] == first["asked"] != after["asked"]
    assert after["least"] == first["least"] + 10


def test_issue38_a_typed_line_that_does_not_parse_is_said_in_words(client):
    r = client.post("/api/games", json={"players": "You Bot:greedy", "seed": 3})
    view = client.get(f"/api/games/{r.json()['id']}").json()
    r = client.post(f"/api/games/{view['id']}/act",
                    json={"version": view["version"], "line": 'You buys "Park Avenue"'})
    error = r.json()["error"]
    assert r.status_code == 422 and "<line>" not in error and "1:10" not in error
    assert 'after "You buys", the game expected the end of the line' in error
    assert "Lines it takes now: You rolls" in error
    assert client.get(f"/api/games/{view['id']}").json()["version"] == view["version"]


def test_issue38_a_plugin_installed_after_serve_started_is_said_in_one_line(client, tmp_path,
                                                                            monkeypatch):
    from easymoney.engine.registry import discover
    discover()  # what the server knew when it started
    dist = tmp_path / "reroll_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: reroll-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[easymoney.plugins]\nreroll = reroll_module\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])  # installed now
    for url, body in (("/api/games", {"players": "You Bot:greedy", "enable": ["reroll"]}),
                      ("/api/tables", {"players": "Ann Bot:greedy", "sit": "Ann",
                                       "enable": ["reroll"]})):
        r = client.post(url, json=body)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert "installed after `easymoney serve` started" in error and "start the server again" in error
        assert "\n" not in error.strip()
    r = client.post("/api/games", json={"players": "You Bot:greedy", "enable": ["rerol"]})
    assert r.status_code == 422 and "started again" in r.json()["error"]


def test_issue38_play_again_at_a_table_is_for_a_person_at_it_and_shown_to_every_browser(client):
    r = client.post("/api/tables", json={"players": "Ann:greedy Bob:greedy", "sit": "",
                                         "pace": 0, "options": ["end.max_turns=2"]})
    assert r.status_code == 200, r.text
    old = r.json()["id"]
    creator = r.json()["link"].split("#creator=")[1]
    fresh = {"players": "Ann:greedy Bob:greedy", "sit": "", "pace": 0, "after": old}
    for given in ("", "a guess"):  # a spectator, a wrong credential: refused, nothing made
        r = client.post("/api/tables", json={**fresh, "credential": given})
        assert r.status_code == 403 and "person at that table" in r.json()["error"]
    assert len(client.get("/api/tables").json()["open"]) <= 1
    assert client.get(f"/api/tables/{old}").json()["next"] is None
    r = client.post("/api/tables", json={**fresh, "credential": creator})
    assert r.status_code == 200
    shown = client.get(f"/api/tables/{old}").json()["next"]
    assert shown == {"id": r.json()["id"], "url": f"/table/{r.json()['id']}",
                     "by": "The table's creator"}
