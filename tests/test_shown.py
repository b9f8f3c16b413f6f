"""Issue 39 item 18: a plugin's own state is shown. The tally test plugin
(tests/plugins/tally_plugin) declares what of its stash a player sees (`SHOWN`: what they
owe the Bank, the turns they ended, a word); every face shows it: the board and the
prompt's status (words), `play --json`'s state, a seat's protocol, the page's state and its
player panel (data), and an agent's observation (a number per fact of money or count)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from easymoney import Shown
from easymoney.board.state import BoardState
from easymoney.board.text import text_board
from easymoney.cli import main
from easymoney.engine.shown import check_shown
from easymoney.view import shown_of
from easymoney.view import decision_view
from easymoney.errors import PluginError
from easymoney.interactive.answers import status_text
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner
from easymoney.seats import decide_message

tally = pytest.importorskip("easymoney_test_tally", reason="the tally test plugin is installed")

ROOT = Path(__file__).resolve().parent.parent
# Ann ends a turn ($100 owed), Bob is in his window after the landing
SCRIPT = "with tally\nplayers Ann Bob\nseed 3\nAnn rolls 1 1\nBob rolls 1 1\n"
ANN = [{"rule": "tally", "name": "owed", "label": "owes the Bank", "value": 100,
        "words": "owes the Bank $100"},
       {"rule": "tally", "name": "turns", "label": "turns ended", "value": 1,
        "words": "turns ended 1"},
       {"rule": "tally", "name": "standing", "label": "standing:", "value": "in debt",
        "words": "standing: in debt"}]


def played(text: str = SCRIPT):
    return ScriptRunner(parse(text)).run().game


def test_issue39_item18_the_state_view_shows_each_players_facts():
    game = played()
    players = decision_view(game)["state"]["players"]
    assert players[0]["shown"] == ANN
    assert [f["value"] for f in players[1]["shown"]] == [0, 0]  # no word while he owes nothing
    # a fact with nothing to show (None) is left out: before any turn only the numbers
    fresh = played("with tally\nplayers Ann Bob\nseed 3\n")
    assert [f["name"] for f in shown_of(fresh, fresh.players[0])] == ["owed", "turns"]
    # and a game without the plugin shows nothing
    assert decision_view(played("players Ann Bob\nseed 3\nAnn rolls 1 1\n"))["state"][
        "players"][0]["shown"] == []


def test_issue39_item18_the_board_and_the_status_say_them_in_words():
    game = played()
    board = text_board(BoardState.of(game, game.turns_played))
    assert "owes the Bank $100; turns ended 1; standing: in debt" in board
    status = status_text(game)
    assert "    owes the Bank $100; turns ended 1; standing: in debt" in status.splitlines()
    plain = played("players Ann Bob\nseed 3\nAnn rolls 1 1\n")
    assert "owes the Bank" not in text_board(BoardState.of(plain, 1))


def test_issue39_item18_play_json_and_the_board_command(tmp_path: Path, capsys):
    script = tmp_path / "g.game"
    script.write_text(SCRIPT)
    assert main(["play", str(script), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]
    assert summary["view"]["state"]["players"][0]["shown"] == ANN
    assert main(["board", str(script)]) == 0
    assert "owes the Bank $100" in capsys.readouterr().out


def test_issue39_item18_a_seats_protocol_state_has_them():
    game = played()
    message = decide_message(game, game.request, [], protocol=2)
    assert message["state"]["players"][0]["shown"] == ANN


def test_issue39_item18_the_page_state_and_its_player_panel(tmp_path: Path):
    pytest.importorskip("starlette", reason="the web extra")
    pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")
    from starlette.testclient import TestClient

    from easymoney.web.app import create_app
    with TestClient(create_app(str(ROOT)), base_url="http://127.0.0.1:8000") as client:
        r = client.post("/api/games", json={"players": "You Bot:greedy", "seed": 3,
                                            "enable": ["tally"], "options": ["end.max_turns=10"]})
        assert r.status_code == 200, r.text
        gid = r.json()["id"]
        view = client.get(f"/api/games/{gid}").json()
        assert [f["name"] for f in view["players"][0]["shown"]] == ["owed", "turns"]
        page = client.get(f"/play/{gid}").text
        script = client.get("/static/app.js").text
    assert 'id="shown"' in page and "function drawShown" in script
    assert "drawShown(view.players)" in script and "drawShown(v.players)" in script


def test_issue39_item18_an_agents_observation_has_a_number_per_fact():
    pytest.importorskip("pettingzoo", reason="the agents extra")
    import easymoney.agents as agents
    env = agents.env("standard", 2, seed=3, enable=["tally"])
    env.reset(seed=3)
    names = env.observation_names()
    assert "shown[Ann].tally.owed" in names and "shown[Bob].tally.turns" in names
    assert not any(n.endswith(".standing") for n in names)  # words are no number
    layout = env.table.layout
    owed, turns = layout.index("shown[Ann].tally.owed"), layout.index("shown[Ann].tally.turns")
    for _ in range(400):  # play until Ann has ended a turn
        game = env.table.state.game
        if tally.turns(game, game.players[0]):
            break
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        env.step(int(mask.nonzero()[0][0]))
    game = env.table.state.game
    ann = game.players[0]
    seen = env.observe(env.agent_selection)["observation"]
    assert seen[owed] == pytest.approx(tally.owed(game, ann) / layout.money)
    assert seen[turns] == pytest.approx(tally.turns(game, ann) / 1000) and seen[turns] > 0


def test_issue39_item18_a_bad_declaration_is_refused_at_load_and_a_bad_read_named():
    for bad in ("owed", [Shown("a b", "x", tally.owed)],
                [Shown("owed", "x", tally.owed), Shown("owed", "y", tally.owed)],
                [Shown("n", "x", tally.owed, money=True, text=True)]):
        with pytest.raises(PluginError, match="plugin debts .*SHOWN"):
            check_shown("debts", "entry point debts", bad)
    game = played()
    broken = Shown("oops", "oops", lambda g, p: 1 / 0)
    from easymoney.view import read_shown
    with pytest.raises(PluginError, match="plugin 'tally' failed reading its SHOWN fact 'oops'"):
        read_shown(game, "tally", broken, game.players[0])
    wrong = Shown("float", "float", lambda g, p: 1.5)
    with pytest.raises(PluginError, match="gave float 1.5 for Ann; expected an int or None"):
        read_shown(game, "tally", wrong, game.players[0])
