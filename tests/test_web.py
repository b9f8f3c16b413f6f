"""Issue 21 (`easymoney serve`) over plain HTTP: games, controls, 4xx for garbage, paths
kept under the server's folder, names escaped, uploads under the command line's limits,
expiry of finished and idle games. The browser tests are tests/test_web_browser.py."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx: pip install httpx")

import warnings  # noqa: E402

with warnings.catch_warnings():  # newer starlettes ask for httpx2; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from easymoney.web.app import create_app  # noqa: E402
from easymoney.web.games import Store  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHORT = ["end.max_turns=10"]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(str(ROOT)), base_url="http://127.0.0.1:8000") as c:
        yield c


def new(client: TestClient, players: str = "You Bot:greedy", **more: object) -> dict:
    r = client.post("/api/games", json={"players": players, "seed": 3, "options": SHORT, **more})
    assert r.status_code == 200, r.text
    return client.get(f"/api/games/{r.json()['id']}").json()


def send(client: TestClient, view: dict, what: str = "act", **body: object):
    """POST to the game's `what` (act, bot, undo) from the page that drew `view`."""
    return client.post(f"/api/games/{view['id']}/{what}", json={"version": view["version"], **body})


def test_issue21_a_new_game_lists_the_legal_actions_of_the_person_as_controls(client):
    view = new(client)
    assert view["asked"] == "You" and not view["bot"]
    assert [c["text"] for c in view["controls"]][0] == "You rolls"
    assert "<svg" in view["svg"] and 'data-player="You"' in view["svg"]
    assert view["transcript"][0].startswith("Game of standard")


def test_issue21_a_whole_game_by_controls_and_bot_steps(client):
    view = new(client)
    gid = view["id"]
    for _ in range(2000):
        if view["request"] is None:
            break
        if view["bot"]:
            view = send(client, view, "bot").json()
            continue
        c = view["controls"][0]
        body = {"index": c["index"]} if c["kind"] == "action" else {"index": c["index"],
                                                                      "amount": c["least"]}
        r = send(client, view, **body)
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["request"] is None and "max_turns" in (view["over"] or "") + "max_turns"
    script = client.get(f"/api/games/{gid}/script")
    assert script.headers["content-disposition"].startswith("attachment")
    assert "players You Bot" in script.text


def test_issue21_a_refused_typed_line_shows_its_refusal_and_changes_nothing(client):
    view = new(client)
    r = send(client, view, line="You bids 300")
    assert r.status_code == 422 and r.json()["error"]
    r = send(client, view, line="You rolls like @@")
    # issue 38 item 6: in words, not the parser's `<line>:1:11: error: expected ...`
    error = r.json()["error"]
    assert r.status_code == 422 and "<line>" not in error and "cannot be read" in error
    assert 'after "You rolls"' in error and "Lines it takes now: You rolls" in error
    assert client.get(f"/api/games/{view['id']}").json()["steps"] == view["steps"]
    r = send(client, view, line="You rolls")
    assert r.status_code == 200 and r.json()["steps"] == view["steps"] + 1


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"index": "x"}',
                                  b'{"index": 99}', b'{"index": -1}', b'{"line": 5}',
                                  b'{"index": 0, "amount": "lots"}', b"{}",
                                  b'{"line": "' + b"x" * 5000 + b'"}'])
def test_issue21_garbage_gets_a_4xx_and_changes_no_game(client, body):
    view = new(client)
    if body.startswith(b'{"'):  # from the page that drew the game: only the garbage is wrong
        body = b'{"version": %d, ' % view["version"] + body[1:]
    r = client.post(f"/api/games/{view['id']}/act", content=body,
                    headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    after = client.get(f"/api/games/{view['id']}").json()
    assert after["steps"] == view["steps"] and after["history"] == view["history"]


def test_issue21_an_amount_off_its_range_is_refused(client):
    view = new(client, players="You Bot:greedy")
    gid = view["id"]
    send(client, view, line="You rolls")
    for _ in range(200):  # to a request with an amount (a bid, a raise)
        view = client.get(f"/api/games/{gid}").json()
        ranges = [c for c in view["controls"] if c["kind"] == "range"]
        if ranges or view["request"] is None:
            break
        if view["bot"]:
            send(client, view, "bot")
        else:
            send(client, view, index=view["controls"][-1]["index"])
    if not ranges:
        pytest.skip("no amount asked in this game")
    r = ranges[0]
    for bad in (r["most"] + r["step"], r["least"] - r["step"]):
        assert send(client, view, index=r["index"], amount=bad).status_code == 422
    assert client.get(f"/api/games/{gid}").json()["steps"] == view["steps"]


def test_issue21_unknown_games_and_pages_are_404(client):
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games/nope/act", json={"line": "x"}).status_code == 404
    assert client.get("/api/replays/nope").status_code == 404
    assert client.get("/nothing/here").status_code == 404


def test_issue21_undo_goes_back_to_the_persons_last_decision(client):
    view = new(client)
    first = send(client, view, line="You rolls").json()
    while first["request"] and not first["bot"] and first["asked"] == "You" and \
            not first["controls"][0]["text"].startswith("You ends"):
        first = send(client, first, index=first["controls"][-1]["index"]).json()
    back = send(client, first, "undo").json()
    assert back["asked"] == "You" and back["steps"] < first["steps"]
    assert len(back["transcript"]) == back["lines"]


def test_issue21_a_game_is_made_again_from_its_history(client):
    view = new(client, players="Ann:greedy Bob:cautious", watch=True)
    for _ in range(60):
        view = send(client, view, "bot").json()
    # the game's decisions, a deal's answers included (issue 28, case 4)
    again = client.post("/api/games/rebuild", json={"params": view["params"],
                                                    "decisions": view["decisions"]}).json()
    twin = client.get(f"/api/games/{again['id']}").json()
    assert twin["history"] == view["history"] and twin["svg"] == view["svg"]


@pytest.mark.parametrize("path", ["../README.md", "/etc/passwd", "examples/../../x.game",
                                  "C:/x.game", "examples/nothing.game", ""])
def test_issue21_no_file_outside_the_servers_folder(client, path):
    r = client.post("/api/replays", json={"path": path})
    assert 400 <= r.status_code < 500
    r = client.post("/api/games", json={"variant": path or "a/b.yaml", "players": "A B"})
    assert 400 <= r.status_code < 500


def test_issue21_a_link_under_the_folder_is_not_followed(tmp_path):
    outside = tmp_path / "outside.game"
    outside.write_text("players Ann Bob\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "in.game").symlink_to(outside)
    (root / "sub").symlink_to(tmp_path, target_is_directory=True)
    with TestClient(create_app(str(root)), base_url="http://127.0.0.1:8000") as c:
        for path in ("in.game", "sub/outside.game"):
            r = c.post("/api/replays", json={"path": path})
            assert r.status_code == 422 and "link" in r.json()["error"]


def test_issue21_static_files_stay_in_their_folder(client):
    for url in ("/static/../games.py", "/static/%2e%2e/games.py", "/static/..%2fapp.py"):
        r = client.get(url)
        assert r.status_code == 404 or "Starlette" not in r.text


def test_issue21_a_space_named_script_is_text(client, tmp_path):
    variant = ("name: tricky\nextends: standard\nmodify:\n  spaces:\n"
               "    Dover Street: {name: \"<script>alert(1)</script>\"}\n")
    r = client.post("/api/games", data={"players": "<b>x</b>", "seed": "1"},
                    files={"variant_file": ("v.yaml", variant, "application/x-yaml")})
    assert r.status_code == 422  # a player name must be a word
    r = client.post("/api/games", data={"players": "Ann Bob", "seed": "1"},
                    files={"variant_file": ("v.yaml", variant, "application/x-yaml")})
    assert r.status_code == 200, r.text
    svg = client.get(f"/api/games/{r.json()['id']}").json()["svg"]
    assert "<script>" not in svg and "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_issue21_an_uploaded_variant_goes_through_the_limits(client):
    deep = "name: deep\nextends: standard\nx: " + "[" * 100 + "]" * 100 + "\n"
    r = client.post("/api/games", data={"players": "Ann Bob"},
                    files={"variant_file": ("v.yaml", deep, "application/x-yaml")})
    assert r.status_code == 422 and "nesting too deep" in r.json()["error"]
    big = "#" * ((1 << 20) + 70000)
    r = client.post("/api/games", data={"players": "Ann Bob"},
                    files={"variant_file": ("v.yaml", big, "application/x-yaml")})
    assert r.status_code == 400
    bad = "name: bad\nextends: nowhere\n"
    r = client.post("/api/games", data={"players": "Ann Bob"},
                    files={"variant_file": ("v.yaml", bad, "application/x-yaml")})
    assert r.status_code == 422 and r.json()["error"]
    assert os.listdir(client.app.state.store.uploads) == []  # nothing kept of a refused one


def test_issue21_an_uploaded_script_over_the_limit_is_refused(client):
    r = client.post("/api/replays", files={"file": ("x.game", "#" * ((1 << 20) + 10), "text/plain")})
    assert r.status_code == 200  # opened, with its error shown where the board would be
    rep = client.get(f"/api/replays/{r.json()['id']}").json()
    assert "1 MiB" in rep["error"] and rep["error"].startswith("x.game")


def test_issue21_a_script_with_an_error_shows_it_located(client):
    r = client.post("/api/replays", files={"file": ("bad.game", "players Ann Bob\nAnn rolls 3 4\n"
                                                                "Ann flies\n", "text/plain")})
    assert r.status_code == 200
    rep = client.get(f"/api/replays/{r.json()['id']}").json()
    assert re.match(r"bad\.game:3:\d+: ", rep["error"]), rep["error"]
    assert rep["frames"] == []  # it does not parse: no game, no board
    r = client.post("/api/replays", files={"file": ("late.game", "players Ann Bob\nAnn rolls 3 4\n"
                                                                 "Ann rolls 1 1\n", "text/plain")})
    rep = client.get(f"/api/replays/{r.json()['id']}").json()
    assert re.match(r"late\.game:3:\d+: ", rep["error"]), rep["error"]
    assert len(rep["frames"]) > 1  # the board where it stopped


def test_issue21_stepping_09_building_to_turn_3_is_easymoney_board_turn_3(client):
    from easymoney.board.state import BoardState  # noqa: F401
    import argparse
    from easymoney.commands.board import script_state
    from easymoney.web.svg import board_svg
    r = client.post("/api/replays", json={"path": "examples/09-building.game"}).json()
    rep = client.get(f"/api/replays/{r['id']}").json()
    assert rep["error"] is None
    k = max(i for i, (turn, _) in enumerate(rep["frames"]) if turn <= 3)
    frame = client.get(f"/api/replays/{r['id']}/frame/{k}").json()
    args = argparse.Namespace(turn=3, with_rules=[], without_rules=[], options=[])
    expected = script_state(str(ROOT / "examples/09-building.game"), args)
    assert frame["svg"] == board_svg(expected)
    assert client.get(f"/api/replays/{r['id']}/frame/{len(rep['frames'])}").status_code == 404


def test_issue21_a_plugins_kinds_and_actions_show_with_no_web_code(client):
    r = client.post("/api/games", json={"variant": "examples/variants/railroads.yaml",
                                        "players": "Ann Bob", "seed": 2})
    assert r.status_code == 200, r.text
    svg = client.get(f"/api/games/{r.json()['id']}").json()["svg"]
    assert 'data-kind="railroad"' in svg and "Reading Railroad" in svg
    r = client.post("/api/games", json={"variant": "tests/data/variants/jail.yaml",
                                        "players": "Ann Bob", "seed": 2})
    assert r.status_code == 200, r.text


def test_issue21_finished_and_idle_games_expire():
    store = Store(max_games=50, max_finished=3, idle=60)
    from easymoney.web.games import start_game
    params = {"variant": "standard", "players": "Ann:greedy Bob:greedy", "seed": 1,
              "enable": [], "disable": [], "options": ["end.max_turns=2"]}
    try:
        for seed in range(8):
            g = start_game(store, {**params, "seed": seed}, watch=True)
            while g.bot_step():
                pass
            store.add(g)
        assert len(store.items) == 3
        live = start_game(store, params, watch=True)
        store.add(live)
        store.sweep(now=live.touched + 61)
        assert len(store.items) == 0
        for seed in range(60):
            store.add(start_game(store, {**params, "seed": seed}))
        assert len(store.items) == 50
    finally:
        store.close()


def test_issue21_serve_says_where_to_point_the_browser(monkeypatch, capsys, tmp_path):
    import uvicorn
    from easymoney.cli import main
    from web_browser import free_port
    seen = {}
    # the line is said once the server listens (issue 39 item 7): its `listening` call
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: (
        seen.setdefault("host", self.config.host), self.listening()))
    port = free_port()  # the command listens on it before it says so
    # a folder of its own: the tables' file it keeps is not the repository's
    assert main(["serve", "--port", str(port), "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and f"http://127.0.0.1:{port}/" in out and seen["host"] == "127.0.0.1"
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--root", "/no/such/dir"]) == 2


def test_issue21_a_scripts_variant_file_is_read_from_its_folder_and_only_under_the_root(client):
    r = client.post("/api/replays", json={"path": "examples/16-railroads.game"}).json()
    rep = client.get(f"/api/replays/{r['id']}").json()
    assert rep["error"] is None and len(rep["frames"]) > 10
    for text in ('variant "../../../etc/passwd"\n', 'variant "/etc/hostname"\n'):
        r = client.post("/api/replays", files={"file": ("up.game", text + "players Ann Bob\n",
                                                        "text/plain")})
        assert r.status_code == 422  # nothing to step through: one line (issue 28, case 2)
        error = r.json()["error"]
        assert error.startswith("up.game:1:") and "server's folder" in error


def test_issue21_a_script_of_endless_events_keeps_a_bounded_number_of_boards(monkeypatch):
    from easymoney.web import games
    monkeypatch.setattr(games, "MAX_FRAMES", 50)
    kept, error = games.replay_script(
        "long.game", b"players Ann:greedy Bob:greedy\nautoplay\n", str(ROOT))
    assert len(kept.frames) == 50 and "more than 50 events" in error


@pytest.mark.parametrize("url", ["/api/games", "/api/replays", "/api/games/rebuild"])
@pytest.mark.parametrize("content_type, data", [
    ("multipart/form-data; boundary=xx", b"garbage"), ("multipart/form-data", b"--x\r\n"),
    ("application/x-www-form-urlencoded", b"a=b"), ("text/plain", b"\xff\xfe")])
def test_issue21_garbage_bodies_start_nothing(client, url, content_type, data):
    r = client.post(url, content=data, headers={"content-type": content_type})
    assert 400 <= r.status_code < 500
    assert client.app.state.store.items == {}


def test_issue21_a_history_that_does_not_replay_makes_no_game(client):
    r = client.post("/api/games/rebuild", json={"params": {"players": "A B"},
                                                "decisions": ["A flies"]})
    assert r.status_code == 422 and not client.app.state.store.items
    r = client.post("/api/games/rebuild", json={"params": {"players": "A B"},
                                                "decisions": ["A rolls"] * 20_001})
    assert r.status_code == 400


# --- issue 28: what a hostile tester found -----------------------------------------------------

@pytest.mark.parametrize("number", ["²", "--5", "-", "٣", "1_000", "+3", "1e3", "0x10"])
def test_issue28_case8_a_number_field_that_is_not_digits_is_one_400_line(client, number):
    r = client.post("/api/games", json={"players": "You Bot:greedy", "seed": number})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert "\n" not in error and error.startswith("seed: a whole number")
    r = client.post("/api/games", data={"players": "You Bot:greedy", "seed": number},
                    files={"variant_file": ("", b"", "application/x-yaml")})
    assert r.status_code == 400 and r.json()["error"].startswith("seed:"), r.text
    view = new(client)
    r = send(client, view, index=number)
    assert r.status_code == 400 and r.json()["error"].startswith("index:"), r.text
    assert client.get(f"/api/games/{view['id']}").json()["steps"] == view["steps"]
    assert client.get(f"/api/games/{view['id']}", params={"since": number}).status_code == 400


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"a":' * 100_000, b"[" * 5000 + b"]" * 5000],
                         ids=["open-lists", "open-objects", "closed-lists"])
def test_issue28_case8_a_deeply_nested_json_body_is_one_400_line(client, body):
    for url in ("/api/games", "/api/games/rebuild"):
        r = client.post(url, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert "\n" not in r.json()["error"] and "JSON" in r.json()["error"]
    assert client.app.state.store.items == {}


def test_issue28_case11_the_boards_title_names_each_pot_once(client):
    svg = new(client)["svg"]
    pots = re.findall(r'class="centre">([^<]*pot[^<]*)<', svg)
    assert pots and all(p.count("pot") == 1 for p in pots), pots
    assert any(p.startswith("Hospital pot: $") for p in pots), pots


def test_issue28_case3_a_repeated_click_is_out_of_date_and_changes_nothing(client):
    view = new(client)
    gid = view["id"]
    assert [c["text"] for c in view["controls"]] == ["You rolls"]
    rolled = send(client, view, index=0)
    assert rolled.status_code == 200 and rolled.json()["steps"] == 1
    again = send(client, view, index=0)
    assert again.status_code == 409, again.text
    error = again.json()["error"]
    assert "\n" not in error and "the page is out of date" in error
    after = client.get(f"/api/games/{gid}").json()
    assert after["history"] == rolled.json()["history"]
    assert not any("ends turn" in line for line in after["history"])
    r = send(client, view, line="You ends turn")
    assert r.status_code == 409 and client.get(f"/api/games/{gid}").json()["steps"] == 1


def test_issue28_case3_a_page_drawn_before_an_undo_is_out_of_date_at_the_same_step(client):
    view = new(client)
    gid = view["id"]
    rolled = send(client, view, index=0).json()
    back = send(client, rolled, "undo").json()
    again = send(client, back, index=0).json()
    assert again["steps"] == rolled["steps"]  # the same step count, drawn from another state
    assert send(client, rolled, index=0).status_code == 409
    assert send(client, rolled, "undo").status_code == 409
    assert client.get(f"/api/games/{gid}").json()["history"] == again["history"]


def test_issue28_case3_a_control_is_taken_only_with_the_state_it_was_listed_for(client):
    view = new(client)
    gid = view["id"]
    for body in ({"index": 0}, {"line": "You rolls"}, {"index": 0, "version": "x"}):
        r = client.post(f"/api/games/{gid}/act", json=body)
        assert r.status_code == 400 and "version" in r.json()["error"], r.text
    assert client.get(f"/api/games/{gid}").json()["steps"] == 0


def test_issue28_case3_a_stale_bot_step_takes_no_step(client):
    view = new(client, players="Ann:greedy Bob:greedy", watch=True)
    gid = view["id"]
    first = send(client, view, "bot")
    assert first.status_code == 200 and first.json()["steps"] == 1
    assert send(client, view, "bot").status_code == 409
    assert client.get(f"/api/games/{gid}").json()["steps"] == 1


PLAIN = ("rolls", "ends turn", "declines", "passes")


def _move(client: TestClient, view: dict, words: tuple[str, ...] = PLAIN) -> dict:
    """Take the person's first control that says one of `words` (else the first control;
    an amount at its least)."""
    controls = view["controls"]
    pick = next((c for word in words for c in controls if word in c["text"]), controls[0])
    extra = {"amount": pick["least"]} if pick["kind"] == "range" else {}
    return send(client, view, index=pick["index"], **extra).json()


def _play_until(client: TestClient, view: dict, done, turns: int = 600,
                words: tuple[str, ...] = PLAIN) -> dict:
    """Play the person's moves that say `words` (and step the bots) until `done(view)`."""
    for _ in range(turns):
        if done(view) or view["request"] is None:
            return view
        view = send(client, view, "bot").json() if view["bot"] else _move(client, view, words)
    return view


def _bot_holds_the_card(client: TestClient) -> dict:
    """A game of You and a greedy Bot where Bot holds the Special Exemption card (R16)."""
    r = client.post("/api/games", json={"players": "You Bot:greedy", "seed": 13,
                                        "options": ["end.max_turns=30"]})
    view = client.get(f"/api/games/{r.json()['id']}").json()
    view = _play_until(client, view, lambda v: "Special Exemption card: Bot" in v["svg"]
                       and not v["bot"])
    assert "Special Exemption card: Bot" in view["svg"] and view["asked"] == "You"
    return view


def test_issue28_case5_a_line_whose_actor_is_a_bot_is_refused_at_the_page(client):
    view = _bot_holds_the_card(client)
    for line in ("Bot sells exemption to You for 0", "Bot goes bankrupt"):
        r = send(client, view, line=line)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert "\n" not in error and "Bot is played by a bot (greedy)" in error and "You" in error
        after = client.get(f"/api/games/{view['id']}").json()
        assert after["history"] == view["history"] and after["version"] == view["version"]
        assert after["request"] == view["request"]
    assert "Special Exemption card: Bot" in client.get(f"/api/games/{view['id']}").json()["svg"]


# a bot that thinks as long as a test says: seated by its name, "slow"
class _Thinking:
    started: Any = None
    release: Any = None
    seconds = 0.0  # how long each decision takes, unless released sooner


def _slow_strategy(monkeypatch: pytest.MonkeyPatch) -> type[_Thinking]:
    import threading
    import time

    from easymoney import bots, strategies

    class Slow(bots.Greedy):
        name = "slow"

        def decide(self, game: Any, request: Any) -> Any:
            _Thinking.started.set()
            deadline = time.monotonic() + _Thinking.seconds
            while time.monotonic() < deadline and not _Thinking.release.is_set():
                time.sleep(0.01)  # Python between the naps: a time limit can stop it here
            return super().decide(game, request)

    _Thinking.started, _Thinking.release = threading.Event(), threading.Event()
    monkeypatch.setitem(strategies.available_strategies(), "slow", (Slow, "a test's"))
    return _Thinking


def _post(base: str, path: str, body: dict, timeout: float = 30) -> tuple[int, dict]:
    import json
    import urllib.error
    import urllib.request
    req = urllib.request.Request(base + path, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_issue28_case6_a_bot_thinking_long_stalls_its_own_game_only(monkeypatch):
    import threading
    import time

    import web_browser
    thinking = _slow_strategy(monkeypatch)
    thinking.seconds = 20
    with web_browser.serving(str(ROOT)) as (base, _):
        _, slow = _post(base, "/api/games", {"players": "Ann:slow Bob:greedy", "watch": True})
        _, other = _post(base, "/api/games", {"players": "Cat:greedy Dan:greedy", "watch": True})
        stepped: list = []
        step = threading.Thread(target=lambda: stepped.append(
            _post(base, f"/api/games/{slow['id']}/bot", {"version": 0})))
        step.start()
        try:
            assert thinking.started.wait(10)
            t0 = time.monotonic()
            status, view = _post(base, f"/api/games/{other['id']}/bot", {"version": 0},
                                 timeout=5)  # answered while the other game's bot thinks
            assert status == 200 and view["steps"] == 1
            assert time.monotonic() - t0 < 5
            assert not stepped  # still thinking
        finally:
            thinking.release.set()
            step.join(30)
        assert stepped and stepped[0][0] == 200 and stepped[0][1]["steps"] == 1


def test_issue28_case6_a_bot_step_past_its_time_limit_is_stopped_and_changes_nothing(
        client, monkeypatch):
    from easymoney.web import games
    thinking = _slow_strategy(monkeypatch)
    thinking.seconds = 5
    monkeypatch.setattr(games, "BOT_STEP_SECONDS", 0.5)
    view = new(client, players="Ann:slow Bob:greedy", watch=True)
    r = send(client, view, "bot")
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert "\n" not in error and "Ann" in error and "0.5 s" in error
    after = client.get(f"/api/games/{view['id']}").json()
    assert after["steps"] == 0 and after["version"] == view["version"]
    assert after["history"] == view["history"]


@pytest.mark.parametrize("seat, words", [
    ("mc:rollouts=1000000", "rollouts"), ("mc:horizon=100000", "horizon"),
    ("mc:amounts=100000", "amounts"), ("mc:rollouts=100000,horizon=100000", "rollouts")])
def test_issue28_case6_the_page_caps_a_searching_bots_budget(client, seat, words):
    from easymoney.web.games import MC_LIMITS
    for url, body in (("/api/games", {"players": f"You Bot:{seat}"}),
                      ("/api/games", {"players": f"Ann:{seat} Bob:greedy", "watch": True}),
                      ("/api/games/rebuild", {"params": {"players": f"You Bot:{seat}"},
                                              "decisions": []})):
        r = client.post(url, json=body)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert "\n" not in error and f"{words} at most {MC_LIMITS[words]}" in error
    assert client.app.state.store.items == {}  # (a script's `Ann:mc` takes no options)
    assert send(client, new(client, players=f"You Bot:mc:rollouts={MC_LIMITS['rollouts']}"),
                "act", index=0).status_code == 200  # at the cap: seated


def test_issue28_case6_a_script_stepped_through_runs_for_a_bounded_time(client, monkeypatch):
    from easymoney.web import games
    thinking = _slow_strategy(monkeypatch)
    thinking.seconds = 0.05
    monkeypatch.setattr(games, "REPLAY_SECONDS", 1.0)
    script = "players Ann:slow Bob:greedy\noption end.max_turns 40\nautoplay 40 turns\n"
    r = client.post("/api/replays", files={"file": ("slow.game", script, "text/plain")})
    assert r.status_code == 200, r.text
    rep = client.get(f"/api/replays/{r.json()['id']}").json()
    assert rep["error"] is not None and "1 s" in rep["error"], rep["error"]
    assert rep["error"].startswith("slow.game: ") and "\n" not in rep["error"]
    assert len(rep["frames"]) > 1  # the boards of the events before it was stopped


def _made_again(client: TestClient, view: dict) -> dict:
    """The game made again from what the page keeps of it (as after the server dropped it)."""
    r = client.post("/api/games/rebuild", json={"params": view["params"], "watch": view["watch"],
                                                "decisions": view["decisions"]})
    assert r.status_code == 200, r.text
    return client.get(f"/api/games/{r.json()['id']}").json()


def _same_game(twin: dict, view: dict) -> None:
    for key in ("history", "svg", "request", "controls", "steps", "standings", "decisions"):
        assert twin[key] == view[key], key


def test_issue28_case4_a_game_whose_random_bot_drew_from_its_generator_is_made_again(client):
    view = new(client, players="Ann:random Bob:greedy", watch=True)
    for _ in range(80):
        view = send(client, view, "bot").json()
    _same_game(_made_again(client, view), view)
    played = new(client, players="You Bot:random")
    played = _play_until(client, played, lambda v: v["steps"] > 60)
    _same_game(_made_again(client, played), played)


def test_issue28_case4_a_game_after_a_bot_accepted_a_deal_is_made_again(client):
    view = new(client, players="You Bot:greedy", options=["end.max_turns=20"])
    sold = False
    for _ in range(400):
        if view["request"] is None or sold and not view["bot"]:
            break
        if view["bot"]:
            view = send(client, view, "bot").json()
            continue
        sale = any("sells" in c["text"] and "to Bot" in c["text"] for c in view["controls"])
        sold = sold or sale  # the first sale offered to Bot, at its least price
        view = _move(client, view, ("to Bot",) if sale else ("buys", *PLAIN))
    assert any(" sells " in line and " to Bot " in line for line in view["history"])
    assert "Bot accepts" in view["decisions"]
    _same_game(_made_again(client, view), view)


def test_issue28_case4_an_offer_rejected_is_made_again(client):
    view = new(client, players="You Ann Bot:greedy", options=["end.max_turns=20"])
    offered = False
    for _ in range(600):
        if view["request"] is None or offered and view["asked"] == "You" and not view["bot"]:
            break
        if view["bot"]:
            view = send(client, view, "bot").json()
            continue
        texts = [c["text"] for c in view["controls"]]
        offered = offered or "Ann rejects" in texts
        sale = not offered and any(t.startswith("You sells") and "to Ann" in t for t in texts)
        view = _move(client, view, ("Ann rejects",) if "Ann rejects" in texts else
                     ("to Ann",) if sale else ("buys", *PLAIN))
    assert "Ann rejects" in view["decisions"]  # a step no line of the history shows
    _same_game(_made_again(client, view), view)


def test_issue28_case4_a_game_after_an_undo_is_made_again(client):
    view = _play_until(client, new(client, players="You Bot:random"), lambda v: v["steps"] > 20)
    view = send(client, view, "undo").json()
    _same_game(_made_again(client, view), view)


def test_issue28_case4_decisions_that_do_not_replay_make_no_game(client):
    view = new(client, players="Ann:random Bob:greedy", watch=True)
    for _ in range(10):
        view = send(client, view, "bot").json()
    for k, wrong in ((3, "Ann goes bankrupt"), (0, "Bob rolls")):
        decisions = list(view["decisions"])
        decisions[k] = wrong
        r = client.post("/api/games/rebuild", json={"params": view["params"],
                                                    "decisions": decisions})
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert "\n" not in error and f"decision {k + 1}" in error and wrong in error
    played = _bot_holds_the_card(client)
    r = client.post("/api/games/rebuild", json={  # a person's turn taken by a bot's line
        "params": played["params"],
        "decisions": [*played["decisions"], "Bot sells exemption to You for 0"]})
    assert r.status_code == 422 and "played by a bot" in r.json()["error"], r.text
    ids = set(client.app.state.store.items)
    for bad in ({"params": view["params"]}, {"params": view["params"], "decisions": "x"},
                {"params": view["params"], "decisions": [1]}):
        assert client.post("/api/games/rebuild", json=bad).status_code == 400
    assert set(client.app.state.store.items) == ids


def _large_board(root: Path, spaces: int = 990, turns: int = 100) -> str:
    """A variant of `spaces` spaces (the standard board, then plain lots) under `root`, and a
    script of bots on it: the script's path under the root."""
    import json

    import yaml
    standard = yaml.safe_load((ROOT / "variants" / "standard.yaml").read_text())["board"]
    lots = [{"name": f"Lot {k}", "kind": "legend", "receive": 10}
            for k in range(spaces - len(standard["spaces"]))]
    (root / "large.yaml").write_text(
        "name: large\nextends: standard\nboard:\n  sides: " + json.dumps(standard["sides"])
        + "\n  spaces:\n" + "".join(f"    - {json.dumps(s)}\n"
                                    for s in standard["spaces"] + lots))
    (root / "short.game").write_text(f'variant "large.yaml"\nplayers Ann:greedy Bob:greedy\n'
                                     f"option end.max_turns {turns}\nautoplay\n")
    return "short.game"


def test_issue28_case7_boards_of_a_script_on_a_large_board_are_bounded_in_bytes(
        tmp_path, monkeypatch):
    import gc
    import tracemalloc

    from easymoney.web import games
    script = _large_board(tmp_path)
    budget, total = 3 << 19, 4 << 20  # one script's boards stop at 1.5 MiB; two are held
    # (raising=False: the code before the byte limits had no such names, and kept it all)
    monkeypatch.setattr(games, "MAX_REPLAY_BYTES", budget, raising=False)
    monkeypatch.setattr(games, "MAX_REPLAYS_BYTES", total, raising=False)
    with TestClient(create_app(str(tmp_path)), base_url="http://127.0.0.1:8000") as client:
        client.post("/api/replays", json={"path": script})  # what the first one imports
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            answers = [client.post("/api/replays", json={"path": script}) for _ in range(4)]
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert all(r.status_code == 200 for r in answers)
        # beside the scripts held, the rules' own caches keep a few boards' spaces (the
        # mortgage rule's kinds of each of the last 16 boards): 0.6 MiB a board this large
        assert held < total + (3 << 20), f"{held / 2**20:.1f} MiB held"
        kept = [r.json()["id"] for r in answers if client.get(f"/api/replays/{r.json()['id']}")
                .status_code == 200]
        assert kept == [r.json()["id"] for r in answers[-2:]]  # the oldest went first
        rep = client.get(f"/api/replays/{kept[-1]}").json()
        assert rep["error"] is not None and "1.5 MiB" in rep["error"], rep["error"]
        assert rep["error"].startswith("short.game: ") and "\n" not in rep["error"]
        assert len(rep["frames"]) > 100  # the boards of the first events, a step at a time
        assert client.get(f"/api/replays/{kept[-1]}/frame/{len(rep['frames']) - 1}").status_code == 200


HOUSE = ("name: house\nextends: standard\n"
         "money: {smallest_bill: 10, starting_cash: 25000, bank_total: 300000}\n")


def test_issue28_case10_a_saved_game_of_an_uploaded_variant_replays_beside_its_file(client,
                                                                                    tmp_path):
    import subprocess
    import sys
    r = client.post("/api/games", data={"players": "You Bot:greedy", "seed": "4",
                                        "options": "end.max_turns=6"},
                    files={"variant_file": ("house.yaml", HOUSE, "application/x-yaml")})
    assert r.status_code == 200, r.text
    view = _play_until(client, client.get(f"/api/games/{r.json()['id']}").json(),
                       lambda v: v["request"] is None)
    assert view["request"] is None
    saved = client.get(f"/api/games/{view['id']}/script").text
    lines = saved.splitlines()
    at = lines.index('variant "house.yaml"')
    assert any(line.startswith("#") and "house.yaml" in line and "beside" in line
               for line in lines[:at]), saved  # what the script needs to replay
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "saved.game").write_text(saved)
    alone = subprocess.run([sys.executable, "-m", "easymoney", "play", "saved.game"],
                           cwd=folder, capture_output=True, text=True, timeout=120)
    assert alone.returncode == 2 and "house.yaml" in alone.stderr  # the file is not beside it
    assert "easymoney-web-" not in alone.stderr and "/tmp" not in saved
    (folder / "house.yaml").write_text(HOUSE)
    for cwd in (folder, tmp_path):  # read beside the script, wherever it is played from
        done = subprocess.run([sys.executable, "-m", "easymoney", "play",
                               str(folder / "saved.game")], cwd=cwd, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        seen = _third_person(client, view)
        assert done.stdout.splitlines()[:len(seen)] == seen


def test_issue28_case11_the_page_says_why_an_answer_is_missing(client):
    r = client.post("/api/games", json={"players": "You Bot:greedy", "seed": 1,
                                        "options": ["end.max_turns=30"]})
    view = client.get(f"/api/games/{r.json()['id']}").json()
    view = _play_until(client, view, lambda v: (v["request"] or "").startswith("You to buy")
                       and not any("buys" in c["text"] for c in v["controls"]),
                       words=("buys", *PLAIN))
    assert view["request"] == "You to buy Highland Avenue or decline"
    assert [c["text"] for c in view["controls"]] == ["You declines"]
    refused = view["refused"]
    assert [r["rules"] for r in refused] == [["R13"]], refused
    words = refused[0]["words"]
    assert words.startswith("You cannot buy Highland Avenue: R13 four_sides: You owns "), words
    bot = new(client, players="Ann:greedy Bob:greedy", watch=True)
    assert bot["refused"] == []  # a bot's request: nothing to explain to a person
    rolls = new(client)
    assert rolls["refused"] == [] and [c["text"] for c in rolls["controls"]] == ["You rolls"]


def _third_person(client, view):
    """The game's transcript as the terminal words it (the page's speaks to its person,
    `You roll`: issue 32): what a replay of its saved script prints."""
    played = client.app.state.store.items[view["id"]]
    game = played.state.game
    assert view["transcript"] == played.worded(game.log)
    return [t for t in map(game.describe, game.log) if t is not None]


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_issue28_case26_a_saved_game_keeps_its_bots_and_replays_the_same(client, tmp_path, bot):
    import subprocess
    import sys
    view = new(client, players=f"You Bot:{bot}", options=["end.max_turns=12"])
    view = _play_until(client, view, lambda v: v["steps"] > 25 and not v["bot"])
    assert view["request"] is not None  # a game saved in the middle
    saved = client.get(f"/api/games/{view['id']}/script").text
    assert f"players You Bot:{bot}" in saved.splitlines()
    path = tmp_path / "saved.game"
    path.write_text(saved)
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    seen = _third_person(client, view)
    assert lines[:len(seen)] == seen  # the same game


def test_issue28_case26_a_bot_whose_options_a_script_cannot_give_is_named_in_a_comment(client):
    view = new(client, players="You Bot:mc:rollouts=8,horizon=2 Cat:greedy")
    saved = client.get(f"/api/games/{view['id']}/script").text.splitlines()
    assert "players You Bot Cat:greedy" in saved
    assert any(line.startswith("#") and "Bot" in line and "mc:rollouts=8,horizon=2" in line
               for line in saved), saved
