"""Issue 32, parts 3-4 over HTTP and WebSocket (starlette's TestClient): tables with a secret
credential per person's seat, a lobby, each change pushed to every browser, and every table
kept in SQLite and made again exactly by a server started again on the same file."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx: pip install httpx")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from easymoney.web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1:8000"
PLAIN = ("rolls", "ends turn", "declines", "passes", "rejects", "begin the next turn")


@contextlib.contextmanager
def serving(db: Path | None) -> Iterator[TestClient]:
    with TestClient(create_app(str(ROOT), db=str(db) if db else None), base_url=BASE) as c:
        yield c


def fragment(link: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in link.partition("#")[2].split("&"))


def open_table(c: TestClient, players: str = "Ann Bob Bot:greedy", **more: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"players": players, "sit": players.split()[0], "pace": 0,
                                    "seed": 3, **more})
    assert r.status_code == 200, r.json()
    return r.json()


def join(c: TestClient, table: str, seat: str) -> str:
    r = c.post(f"/api/tables/{table}/join", json={"seat": seat})
    assert r.status_code == 200, r.json()
    return fragment(r.json()["link"])["seat"]


def seen(c: TestClient, table: str, credential: str | None = None, since: int = -1) -> dict:
    """The table as a browser with `credential` gets it on opening its socket."""
    with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"since": since, "lines": 0, "credential": credential}))
        return ws.receive_json()


def settled(c: TestClient, table: str, credential: str | None = None) -> dict:
    """The table once its bots have decided (pace 0), as `credential`'s browser sees it."""
    for _ in range(500):
        view = seen(c, table, credential)
        if not view["bot"] or view["request"] is None:
            return view
        time.sleep(0.01)
    raise AssertionError("the bots did not decide")


def move(view: dict[str, Any]) -> dict[str, Any]:
    """A plain control of the view (a roll, an end of turn, a pass), as a request's body."""
    controls = view["controls"]
    pick = next((k for k in controls if k["kind"] == "action" and
                 any(w in k["text"] for w in PLAIN)), controls[0])
    body = {"version": view["version"], "index": pick["index"]}
    if pick["kind"] == "range":
        body["amount"] = pick["least"]
    return body


def play(c: TestClient, table: str, credentials: dict[str, str], steps: int) -> dict:
    """`steps` moves of the people, each by the seat asked, the bots deciding between."""
    view = settled(c, table)
    for _ in range(steps):
        if view["request"] is None:
            break
        mine = settled(c, table, credentials[view["asked"]])
        r = c.post(f"/api/tables/{table}/act",
                   json={**move(mine), "credential": credentials[view["asked"]]})
        assert r.status_code == 200, r.json()
        view = settled(c, table)
    return view


def test_issue32_each_seat_acts_only_by_its_own_credential(tmp_path):
    with serving(None) as c:
        t = open_table(c)
        ann = fragment(t["link"])["seat"]
        creator = fragment(t["link"])["creator"]
        bob = join(c, t["id"], "Bob")
        view = settled(c, t["id"], ann)
        assert view["me"] == "Ann" and view["asked"] == "Ann" and view["controls"]
        body = move(view)
        # Bob's credential, the creator's, a wrong one and none: 403, and nothing changes
        for given in (bob, creator, ann[:-1] + ("A" if ann[-1] != "A" else "B"), ""):
            r = c.post(f"/api/tables/{t['id']}/act", json={**body, "credential": given})
            assert r.status_code == 403 and "\n" not in r.json()["error"], r.json()
        r = c.post(f"/api/tables/{t['id']}/act", json={**body})
        assert r.status_code == 403
        assert settled(c, t["id"])["steps"] == view["steps"]
        # a spectator's browser and Bob's get no controls while Ann is asked
        assert seen(c, t["id"])["controls"] == [] and seen(c, t["id"])["me"] is None
        assert seen(c, t["id"], bob)["controls"] == [] and seen(c, t["id"], bob)["me"] == "Bob"
        # a wrong credential over the socket is told so, and watches
        with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}") as ws:
            ws.send_text(json.dumps({"since": -1, "lines": 0, "credential": "x" * 32}))
            assert "acts for no seat" in ws.receive_json()["unknown_credential"]
            assert ws.receive_json()["me"] is None
        # a line typed for another seat is refused too
        r = c.post(f"/api/tables/{t['id']}/act",
                   json={"line": "Bob rolls", "version": view["version"], "credential": ann})
        assert r.status_code in (403, 422) and settled(c, t["id"])["steps"] == view["steps"]
        assert c.post(f"/api/tables/{t['id']}/act",
                      json={**body, "credential": ann}).status_code == 200


def test_issue32_a_move_for_a_stale_version_is_409_and_changes_nothing():
    with serving(None) as c:
        t = open_table(c, "Ann Bot:greedy")
        ann = fragment(t["link"])["seat"]
        view = settled(c, t["id"], ann)
        body = {**move(view), "credential": ann}
        assert c.post(f"/api/tables/{t['id']}/act", json=body).status_code == 200
        after = settled(c, t["id"], ann)
        r = c.post(f"/api/tables/{t['id']}/act", json=body)  # the same click again
        assert r.status_code == 409 and "out of date" in r.json()["error"]
        assert settled(c, t["id"], ann)["steps"] == after["steps"]


def test_issue32_the_lobby_lists_open_tables_and_a_seat_is_taken_once():
    with serving(None) as c:
        t = open_table(c, "Ann Bob Cat Bot:cautious")
        lobby = c.get("/api/tables").json()
        [entry] = [e for e in lobby["open"] if e["id"] == t["id"]]
        assert [(s["name"], s["bot"], s["taken"]) for s in entry["seats"]] == [
            ("Ann", None, True), ("Bob", None, False), ("Cat", None, False),
            ("Bot", "cautious", False)]
        join(c, t["id"], "Bob")
        r = c.post(f"/api/tables/{t['id']}/join", json={"seat": "Bob"})
        assert r.status_code == 409 and "taken" in r.json()["error"]
        assert c.post(f"/api/tables/{t['id']}/join", json={"seat": "Bot"}).status_code == 422
        assert c.post(f"/api/tables/{t['id']}/join", json={"seat": "Zed"}).status_code == 404
        assert c.post("/api/tables/nosuch/join", json={"seat": "Bob"}).status_code == 404
        [entry] = [e for e in c.get("/api/tables").json()["open"] if e["id"] == t["id"]]
        assert [s["taken"] for s in entry["seats"]] == [True, True, False, False]
        # no credential in the lobby, a spectator's view or the script
        text = c.get("/api/tables").text + json.dumps(seen(c, t["id"])) + \
            c.get(f"/api/tables/{t['id']}/script").text
        assert fragment(t["link"])["seat"] not in text and fragment(t["link"])["creator"] not in text


@pytest.mark.parametrize("body, words", [
    ({"pace": 99999}, "pace"), ({"sit": "Bot"}, "sit"),
    ({"players": 'Ann Bob:exec:"python x.py"'}, "program"),
    ({"variant": "../../etc/passwd"}, "not allowed"), ({"pace": "²"}, "pace")])
def test_issue32_a_table_opened_with_bad_input_is_one_line_and_kept_nowhere(tmp_path, body, words):
    with serving(tmp_path / "t.db") as c:
        r = c.post("/api/tables", json={"players": "Ann Bot:greedy", "sit": "Ann", **body})
        assert r.status_code in (400, 422) and words in r.json()["error"], r.json()
        assert "\n" not in r.json()["error"] and "Traceback" not in r.text
        assert c.get("/api/tables").json() == {"open": [], "finished": []}


def test_issue32_the_creator_gives_a_seat_whose_person_left_to_a_bot(tmp_path):
    db = tmp_path / "tables.db"
    with serving(db) as c:
        t = open_table(c)
        ann, creator = fragment(t["link"])["seat"], fragment(t["link"])["creator"]
        bob = join(c, t["id"], "Bob")
        view = play(c, t["id"], {"Ann": ann, "Bob": bob}, 6)
        # only the creator's credential may: Ann's seat credential may not
        for given in (ann, bob, ""):
            r = c.post(f"/api/tables/{t['id']}/bot",
                       json={"creator": given, "seat": "Bob", "strategy": "random"})
            assert r.status_code == 403, r.json()
        r = c.post(f"/api/tables/{t['id']}/bot",
                   json={"creator": creator, "seat": "Bob", "strategy": 'exec:"sh"'})
        assert r.status_code == 422
        r = c.post(f"/api/tables/{t['id']}/bot",
                   json={"creator": creator, "seat": "Bob", "strategy": "random"})
        assert r.status_code == 200, r.json()
        assert "acts for no seat" in seen(c, t["id"], bob)["unknown_credential"]
        view = play(c, t["id"], {"Ann": ann}, 8)
        bots = [s for s in view["seats"] if s["name"] == "Bob"]
        assert bots == [{"name": "Bob", "bot": "random", "taken": False}]
        script = c.get(f"/api/tables/{t['id']}/script").text
    # made again on a new server: Bob a person before the change and a random bot after
    with serving(db) as c:
        assert c.get(f"/api/tables/{t['id']}/script").text == script
        assert seen(c, t["id"], ann)["me"] == "Ann"


def test_issue32_a_restart_loses_no_table_and_every_link_still_works(tmp_path):
    db = tmp_path / "tables.db"
    with serving(db) as c:
        t = open_table(c, "Ann Rex:random Gus:greedy", seed=11)
        ann = fragment(t["link"])["seat"]
        done = open_table(c, "Cat Bot:greedy", options=["end.max_turns=2"])
        cat = fragment(done["link"])["seat"]
        play(c, t["id"], {"Ann": ann}, 25)
        end = play(c, done["id"], {"Cat": cat}, 200)
        assert end["request"] is None
        before = settled(c, t["id"], ann)
        script = c.get(f"/api/tables/{t['id']}/script").text
        finished = c.get(f"/api/tables/{done['id']}/script").text
    # the file keeps each credential's SHA-256 only
    with sqlite3.connect(db) as raw:
        dump = "\n".join(raw.iterdump())
    assert ann not in dump and fragment(t["link"])["creator"] not in dump
    with serving(db) as c:
        after = seen(c, t["id"], ann)
        for key in ("svg", "request", "controls", "standings", "steps", "version", "stamp"):
            assert after[key] == before[key], key
        assert c.get(f"/api/tables/{t['id']}/script").text == script
        lobby = c.get("/api/tables").json()
        assert [e["id"] for e in lobby["open"]] == [t["id"]]
        assert [e["id"] for e in lobby["finished"]] == [done["id"]]
        over = lobby["finished"][0]["over"]  # who won (R28), then why (R27)
        assert "max_turns" in over and over.split(" (")[0].endswith(("won", "shared the win"))
        assert c.get(f"/api/tables/{done['id']}/script").text == finished
        # a browser that had the table before the restart gets nothing new until it changes
        with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}") as ws:
            ws.send_text(json.dumps({"since": before["stamp"], "lines": before["lines"],
                                     "credential": ann}))
            r = c.post(f"/api/tables/{t['id']}/act", json={**move(after), "credential": ann})
            assert r.status_code == 200, r.json()
            pushed = ws.receive_json()
            assert pushed["version"] > before["version"] and pushed["transcript"]
    # the finished game replays at the terminal
    game = tmp_path / "finished.game"
    game.write_text(finished)
    out = subprocess.run([sys.executable, "-m", "easymoney", "play", str(game)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr


def test_issue38_item9_a_board_is_drawn_once_a_step_for_every_browser_at_the_table(monkeypatch):
    """Two seats' browsers and four spectators' over several steps: each version of the
    table is drawn once, and every browser is sent that same drawing (a seat's own line
    is marked by its page, static/app.js)."""
    from collections import defaultdict

    import easymoney.web.tables as tables_module
    with serving(None) as c:
        t = open_table(c)
        table = c.app.state.tables.items[t["id"]]
        drawn: list[int] = []  # the table's version at each drawing
        real = tables_module.board_svg

        def counted(board: Any, **options: Any) -> str:
            drawn.append(table.played.version)
            return real(board, **options)
        monkeypatch.setattr(tables_module, "board_svg", counted)
        creds = {"Ann": fragment(t["link"])["seat"], "Bob": join(c, t["id"], "Bob")}
        svgs: dict[int, set[str]] = defaultdict(set)  # version -> the drawings browsers got
        with contextlib.ExitStack() as stack:
            sockets, held = {}, {}
            for who in ["Ann", "Bob", *(f"spectator {k}" for k in range(4))]:
                ws = stack.enter_context(c.websocket_connect(
                    f"ws://127.0.0.1:8000/ws/tables/{t['id']}"))
                ws.send_text(json.dumps({"since": -1, "lines": 0, "credential": creds.get(who)}))
                sockets[who], held[who] = ws, ws.receive_json()
                svgs[held[who]["version"]].add(held[who]["svg"])

            def drain(stamp: int) -> None:  # every browser holds the table at `stamp`
                for who, ws in sockets.items():
                    while held[who]["stamp"] < stamp:
                        held[who] = ws.receive_json()
                        svgs[held[who]["version"]].add(held[who]["svg"])
            for _ in range(8):
                view = settled(c, t["id"])
                drain(view["stamp"])
                if view["request"] is None:
                    break
                asked = view["asked"]
                r = c.post(f"/api/tables/{t['id']}/act",
                           json={**move(held[asked]), "credential": creds[asked]})
                assert r.status_code == 200, r.json()
            drain(settled(c, t["id"])["stamp"])
    assert len(svgs) >= 8, sorted(svgs)  # the browsers saw several steps
    assert sorted(drawn) == sorted(set(drawn)), drawn  # no version drawn twice
    assert all(len(given) == 1 for given in svgs.values())  # one drawing for all
    assert not any("(you)" in svg for given in svgs.values() for svg in given)


def test_issue38_item9_the_lobby_says_each_change_it_shows():
    """The lobby's answer is kept between requests: a seat taken, a seat given to a bot, a
    table opened and a game's end each show in the next one."""
    with serving(None) as c:
        t = open_table(c, "Ann Bob Cat", options=["end.max_turns=1"])
        creator = fragment(t["link"])["creator"]

        def entry() -> tuple[str, dict[str, Any]]:
            lobby = c.get("/api/tables").json()
            for where in ("open", "finished"):
                for e in lobby[where]:
                    if e["id"] == t["id"]:
                        return where, e
            raise AssertionError(lobby)
        assert [s["taken"] for s in entry()[1]["seats"]] == [True, False, False]
        assert c.get("/api/tables").text == c.get("/api/tables").text
        bob = join(c, t["id"], "Bob")
        assert [s["taken"] for s in entry()[1]["seats"]] == [True, True, False]
        r = c.post(f"/api/tables/{t['id']}/bot", json={"creator": creator, "seat": "Cat",
                                                       "strategy": "greedy"})
        assert r.status_code == 200, r.json()
        assert entry()[1]["seats"][2]["bot"] == "greedy"
        other = open_table(c, "Dan Bot:greedy")
        assert other["id"] in [e["id"] for e in c.get("/api/tables").json()["open"]]
        end = play(c, t["id"], {"Ann": fragment(t["link"])["seat"], "Bob": bob}, 200)
        assert end["request"] is None
        where, finished = entry()
        assert where == "finished", finished
        assert finished["over"].split(" (")[0].endswith(("won", "shared the win")), finished


def test_issue32_a_socket_from_another_site_or_without_a_hello_is_closed():
    with serving(None) as c:
        t = open_table(c)
        for foreign in ({"Origin": "http://evil.example"}, {"Host": "evil.example:8000"}):
            with pytest.raises(WebSocketDisconnect):
                with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}",
                                         headers=foreign) as ws:
                    ws.receive_json()
        with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}") as ws:
            ws.send_text("[1, 2")
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
        with c.websocket_connect("ws://127.0.0.1:8000/ws/tables/nosuch") as ws:
            ws.send_text(json.dumps({"since": -1}))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404


def test_issue32_serve_db_that_is_not_a_tables_file_is_one_line_and_exit_2(tmp_path, capsys):
    from easymoney.cli import main
    from web_browser import free_port
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database\n")
    assert main(["serve", "--port", str(free_port()), "--root", str(tmp_path),
                 "--db", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--db" in err and "notes.txt" in err, err
    assert bad.read_text() == "not a database\n"
