"""Issue 39, items 1 to 8: the tables, `--db` and `serve` attacked. A table's dice cannot be
foreseen by its players; a second server on one file, a write that fails, a foreign or damaged
file, a strategy that is not one seat's, a port that is not a number, a line printed before
the socket listens and a request that never ends each end in one line, and no table is lost."""

from __future__ import annotations

import contextlib
import socket
import time
import json
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


@contextlib.contextmanager
def serving(db: Path | None = None, port: int | None = 8000) -> Iterator[TestClient]:
    with TestClient(create_app(str(ROOT), db=str(db) if db else None, port=port),
                    base_url=BASE) as c:
        yield c


def fragment(link: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in link.partition("#")[2].split("&"))


def open_table(c: TestClient, players: str = "Ann Bob Bot:greedy", **more: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"players": players, "sit": players.split()[0], "pace": 0,
                                    **more})
    assert r.status_code == 200, r.json()
    return r.json()


# --- item 6: a port that is not a number -----------------------------------------------------

@pytest.mark.parametrize("header, value", [
    ("host", "127.0.0.1:²"), ("host", "[::1]:²"),
    ("origin", "http://127.0.0.1:²"), ("origin", "http://127.0.0.1:8000²"),
    ("host", "127.0.0.1:99999999999999999999999")])
def test_issue39_item6_a_port_that_is_not_a_number_is_the_guards_one_line(header, value):
    # sent as uvicorn reads a header (latin-1): "²" is a digit to str.isdigit(), not to int()
    with serving() as c:
        t = open_table(c)
        r = c.get("/api/tables", headers={header: value.encode("latin-1")})
        assert r.status_code == (400 if header == "host" else 403), r.text
        assert "\n" not in r.json()["error"] and "Traceback" not in r.text
        with pytest.raises(WebSocketDisconnect) as closed:
            with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}",
                                     headers={header: value.encode("latin-1")}) as ws:
                ws.receive_json()
        assert closed.value.code == 1008


# --- a real `easymoney serve`, spoken to over raw sockets --------------------------------------

@contextlib.contextmanager
def served(tmp_path: Path, *more: str) -> Iterator[tuple[int, Any]]:
    """`easymoney serve` on a free port, once it has said where it is: (port, the process)."""
    from processes import easymoney
    from web_browser import free_port
    port = free_port()
    with easymoney(tmp_path, "serve", "--port", str(port), "--root", str(tmp_path),
                   *more) as proc:
        line = proc.stdout.readline()
        assert f"open http://127.0.0.1:{port}/" in line, (line, proc.stderr.read())
        yield port, proc
        proc.terminate()
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err


def raw(port: int, data: bytes, timeout: float = 10) -> bytes:
    """What the server answers to `data` sent as it is, until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
        return got


def test_issue39_item6_a_port_that_is_not_a_number_over_http_and_a_tables_socket(tmp_path):
    with served(tmp_path) as (port, _):
        for host, origin in ((b"127.0.0.1:\xb2", b""), (b"[::1]:\xb3", b""),
                             (f"127.0.0.1:{port}".encode(), b"Origin: http://127.0.0.1:\xb2\r\n")):
            answer = raw(port, b"GET /api/tables HTTP/1.1\r\nHost: " + host + b"\r\n" + origin +
                         b"Connection: close\r\n\r\n")
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.split()[1] == (b"403" if origin else b"400"), answer
            assert json.loads(body)["error"].count("\n") == 0
            answer = raw(port, b"GET /ws/tables/x HTTP/1.1\r\nHost: " + host + b"\r\n" + origin +
                         b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13"
                         b"\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            assert answer.split()[1] in (b"400", b"403"), answer
        assert b" 200 " in raw(port, f"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                     "Connection: close\r\n\r\n".encode())


# --- item 7: `open http://...` once the socket accepts ----------------------------------------

def test_issue39_item7_serve_says_where_it_is_once_it_listens(tmp_path):
    for _ in range(3):
        with served(tmp_path) as (port, _):
            # at once, on reading the line: every connection is taken and answered
            for _ in range(5):
                answer = raw(port, f"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                   "Connection: close\r\n\r\n".encode())
                assert answer.startswith(b"HTTP/1.1 200"), answer


# --- item 8: a request that never ends, and too many connections -------------------------------

def test_issue39_item8_a_request_whose_headers_never_end_is_closed(tmp_path):
    from easymoney.web.serving import REQUEST_SECONDS
    with served(tmp_path) as (port, _):
        slow = []
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port), timeout=REQUEST_SECONDS + 10)
            s.sendall(f"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            slow.append(s)
        started = time.monotonic()
        try:
            # a header line now and then, never the blank line that ends them
            while time.monotonic() - started < REQUEST_SECONDS - 2:
                for s in slow:
                    s.sendall(b"X-More: 1\r\n")
                time.sleep(1)
            # meanwhile the server answers others
            assert raw(port, f"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                             "Connection: close\r\n\r\n".encode()).startswith(b"HTTP/1.1 200")
            for s in slow:
                got = b""
                with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                    while chunk := s.recv(65536):
                        got += chunk
                assert got.startswith(b"HTTP/1.1 408"), got
                assert time.monotonic() - started < REQUEST_SECONDS + 5
        finally:
            for s in slow:
                s.close()


def _post(port: int, path: str, body: dict[str, Any]) -> bytes:
    data = json.dumps(body).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
            ).encode() + data


def test_issue39_item8_connections_are_bounded():
    """Past MAX_CONNECTIONS (3 here), a new connection is 503 and closed; one closed frees a
    place; an idle one goes after the deadline (1 s here), and a table's socket stays."""
    import threading

    from easymoney.web import serving
    from web_browser import free_port
    port = free_port()
    server = serving.server(create_app(str(ROOT), port=port), "127.0.0.1", port,
                            request_seconds=1.0, max_connections=3)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline
            time.sleep(0.02)
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
        time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as over:
            assert over.recv(100).startswith(b"HTTP/1.1 503")
        ask = f"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        held.pop().close()
        time.sleep(0.2)
        assert raw(port, ask.encode()).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        for s in held:  # said nothing: closed after the deadline, 408
            assert s.recv(100).startswith(b"HTTP/1.1 408")
            s.close()
        assert time.monotonic() - started < 3
        # a table's socket is no unfinished request: it stays open past the deadline
        import websocket
        base = f"http://127.0.0.1:{port}"
        t = json.loads(raw(port, _post(port, "/api/tables", {
            "players": "Ann Bob", "sit": "Ann", "pace": 0})).partition(b"\r\n\r\n")[2])
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws/tables/{t['id']}",
                                         origin=base, timeout=10)
        try:
            ws.send(json.dumps({"since": -1, "lines": 0, "credential": fragment(t["link"])["seat"]}))
            view = json.loads(ws.recv())
            time.sleep(2.5)
            answer = raw(port, _post(port, f"/api/tables/{t['id']}/act", {
                "version": view["version"], "index": view["controls"][0]["index"],
                "credential": fragment(t["link"])["seat"]}))
            assert answer.startswith(b"HTTP/1.1 200"), answer
            assert json.loads(ws.recv())["version"] > view["version"]
        finally:
            ws.close()
    finally:
        server.should_exit = True
        thread.join(30)


# --- item 5: "Give to a bot" takes one seat's strategy ------------------------------------------

@pytest.mark.parametrize("strategy", ["greedy Zed", "greedy\tZed", "greedy\nZed:random", "greedy ",
                                      " ", ":greedy", "nosuch", 'exec:"true"', "mc:rollouts=100000"])
def test_issue39_item5_give_to_a_bot_refuses_what_is_not_one_seats_strategy(tmp_path, strategy):
    db = tmp_path / "tables.db"
    with serving(db) as c:
        t = open_table(c, "Ann Bob Bot:greedy")
        creator = fragment(t["link"])["creator"]
        before = c.get(f"/api/tables/{t['id']}").json()
        r = c.post(f"/api/tables/{t['id']}/bot",
                   json={"creator": creator, "seat": "Bob", "strategy": strategy})
        if strategy.strip() in ("", "greedy"):  # as the form sends it, or nothing: greedy
            assert r.status_code == 200, r.json()
            return
        assert r.status_code == 422, r.json()
        assert "\n" not in r.json()["error"] and "strategy" in r.json()["error"], r.json()
        after = c.get(f"/api/tables/{t['id']}").json()
        assert after["seats"] == before["seats"] and after["stamp"] == before["stamp"]
    with serving(db) as c:  # made again as it was: three seats, Bob still a person's
        view = c.get(f"/api/tables/{t['id']}").json()
        assert [s["name"] for s in view["seats"]] == ["Ann", "Bob", "Bot"]
        assert view["seats"][1]["bot"] is None


# --- item 4: a foreign or damaged file ------------------------------------------------------------

def _serve_exit(tmp_path: Path, db: Path) -> tuple[int, str, str]:
    import subprocess
    import sys
    from web_browser import free_port
    out = subprocess.run([sys.executable, "-m", "easymoney", "serve", "--port", str(free_port()),
                          "--root", str(tmp_path), "--db", str(db)],
                         capture_output=True, text=True, timeout=60)
    return out.returncode, out.stdout, out.stderr


@pytest.mark.parametrize("schema", [
    "CREATE TABLE tables (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO tables VALUES (1, 'oak')",
    "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')",
    "CREATE TABLE tables (id TEXT PRIMARY KEY, params TEXT NOT NULL, seats TEXT NOT NULL, "
    "creator TEXT NOT NULL, pace REAL NOT NULL, created REAL NOT NULL, changes INTEGER NOT NULL, "
    "over TEXT); CREATE TABLE decisions (table_id TEXT, k INTEGER, line TEXT); "
    "CREATE TABLE photos (jpeg BLOB)"],
    ids=["its-own-tables", "other-tables", "ours-and-more"])
def test_issue39_item4_another_programs_sqlite_file_is_one_line_and_exit_2(tmp_path, schema):
    import sqlite3
    db = tmp_path / "shop.sqlite"
    with sqlite3.connect(db) as raw_db:
        raw_db.executescript(schema)
    before = db.read_bytes()
    code, out, err = _serve_exit(tmp_path, db)
    assert code == 2 and out == "", (out, err)
    assert err.count("\n") == 1 and "shop.sqlite" in err and "another program" in err, err
    assert db.read_bytes() == before  # not a byte written to it
    assert not (tmp_path / "shop.sqlite-wal").exists()


def test_issue39_item4_a_damaged_row_is_one_warning_and_every_other_table_is_served(tmp_path):
    import sqlite3
    db = tmp_path / "tables.db"
    with serving(db) as c:
        good = [open_table(c)["id"] for _ in range(2)]
        bad = [open_table(c)["id"] for _ in range(3)]
    with sqlite3.connect(db) as raw_db:
        raw_db.execute("UPDATE tables SET params = '{\"variant\": ' WHERE id = ?", (bad[0],))
        raw_db.execute("UPDATE tables SET seats = '[1, 2]' WHERE id = ?", (bad[1],))
        raw_db.execute("UPDATE tables SET params = '{\"variant\": \"standard\"}' WHERE id = ?",
                       (bad[2],))
    with serving(db) as c:
        assert sorted(e["id"] for e in c.get("/api/tables").json()["open"]) == sorted(good)
        for tid in good:
            assert c.get(f"/api/tables/{tid}").status_code == 200
        assert c.get(f"/api/tables/{bad[0]}").status_code == 404
    # `serve` says which, in one warning line, and serves (killed once it has said so)
    from processes import easymoney
    from web_browser import free_port
    with easymoney(tmp_path, "serve", "--port", str(free_port()), "--root", str(tmp_path),
                   "--db", str(db)) as proc:
        assert "open http://" in proc.stdout.readline()
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert err.count("\n") == 1 and err.startswith("warning: ") and "3 table(s)" in err, err
    assert all(tid in err for tid in bad) and "tables.db" in err
    with sqlite3.connect(db) as raw_db:  # nothing of them lost
        assert raw_db.execute("SELECT count(*) FROM tables").fetchone()[0] == 5


def test_issue39_item4_a_tables_file_made_before_the_mark_is_still_ours(tmp_path):
    import sqlite3

    from easymoney.web.kept import SCHEMA
    db = tmp_path / "tables.db"
    with serving(db) as c:
        t = open_table(c)
    with sqlite3.connect(db) as raw_db:
        raw_db.execute("PRAGMA application_id = 0")  # as an earlier easymoney left it
    with serving(db) as c:
        assert c.get(f"/api/tables/{t['id']}").status_code == 200
    empty = tmp_path / "empty.db"
    with sqlite3.connect(empty) as raw_db:
        raw_db.executescript(SCHEMA)
    with serving(empty) as c:
        assert c.get("/api/tables").json()["open"] == []


# --- item 2: two servers on one --db ---------------------------------------------------------------

def test_issue39_item2_a_second_server_on_a_file_in_use_is_one_line_naming_the_first(tmp_path):
    import signal
    import urllib.request
    db = tmp_path / "tables.db"
    with served(tmp_path, "--db", str(db)) as (port, first):
        body = json.dumps({"players": "Ann Bot:greedy", "sit": "Ann", "pace": 0}).encode()
        ask = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", body,
                                     {"Content-Type": "application/json"})
        with urllib.request.urlopen(ask, timeout=30) as answer:
            made = json.load(answer)["id"]
        code, out, err = _serve_exit(tmp_path, db)
        assert code == 2 and out == "", (out, err)
        assert err.count("\n") == 1 and "tables.db" in err and "in use" in err, err
        assert f"pid {first.pid}" in err and f"http://127.0.0.1:{port}/" in err, err
        # a killed server's lock blocks nobody: the next one serves the file, every table in it
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        with served(tmp_path, "--db", str(db)) as (again, _):
            url = f"http://127.0.0.1:{again}/api/tables"
            with urllib.request.urlopen(url, timeout=30) as answer:
                assert [t["id"] for t in json.load(answer)["open"]] == [made]


def test_issue39_item2_one_file_in_one_process_twice_and_free_again_once_closed(tmp_path):
    from easymoney.errors import UsageError
    from easymoney.web.kept import Kept
    db = tmp_path / "sub" / "tables.db"
    first = Kept(str(db), "pid 1, http://127.0.0.1:1/")
    with pytest.raises(UsageError, match=r"in use by another easymoney server \(pid 1, http"):
        Kept(str(db))
    first.close()
    assert not (tmp_path / "sub" / "tables.db.lock").exists() and not db.exists()
    Kept(str(db)).close()


# --- item 3: a write that fails ---------------------------------------------------------------------

FULL_DISK = r'''
import json, resource, sys
from starlette.testclient import TestClient
from easymoney.web.app import create_app

root, db = sys.argv[1], sys.argv[2]
PLAIN = ("rolls", "ends turn", "declines", "passes", "begin the next turn")

def mine(c, tid, cred):
    with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"since": -1, "lines": 0, "credential": cred}))
        return ws.receive_json()

def step(c, tid, creds):
    view = c.get(f"/api/tables/{tid}").json()
    me = mine(c, tid, creds[view["asked"]])
    pick = next((k for k in me["controls"] if k["kind"] == "action" and
                 any(w in k["text"] for w in PLAIN)), me["controls"][0])
    body = {"version": me["version"], "index": pick["index"], "credential": creds[view["asked"]]}
    if pick["kind"] == "range":
        body["amount"] = pick["least"]
    return c.post(f"/api/tables/{tid}/act", json=body)

def frag(link):
    return dict(p.split("=", 1) for p in link.partition("#")[2].split("&"))

out = {}
with TestClient(create_app(root, db=db), base_url="http://127.0.0.1:8000") as c:
    t = c.post("/api/tables", json={"players": "Ann Bob Cat", "sit": "Ann", "pace": 0}).json()
    creds = {"Ann": frag(t["link"])["seat"],
             "Bob": frag(c.post(f"/api/tables/{t['id']}/join", json={"seat": "Bob"}).json()["link"])["seat"]}
    creds["Cat"] = creds["Ann"]
    while True:  # until Cat is asked: Ann and Bob move, Cat's seat is free
        view = c.get(f"/api/tables/{t['id']}").json()
        if view["asked"] == "Cat" or view["steps"] > 40:
            break
        assert step(c, t["id"], creds).status_code == 200
    while c.get(f"/api/tables/{t['id']}").json()["asked"] != "Ann":
        creds["Cat"] = frag(c.post(f"/api/tables/{t['id']}/join", json={"seat": "Cat"}).json()["link"])["seat"] \
            if "Cat" not in out else creds["Cat"]
        out["Cat"] = True
        assert step(c, t["id"], creds).status_code == 200
    out["before"] = c.get(f"/api/tables/{t['id']}").json()
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, hard))  # a full disk, as `ulimit -f 1`
    failed = step(c, t["id"], creds)
    out["move"] = [failed.status_code, failed.json()]
    out["again"] = [step(c, t["id"], creds).status_code]
    out["look"] = c.get(f"/api/tables/{t['id']}").json()
    out["socket"] = mine(c, t["id"], creds["Ann"])
    opened = c.post("/api/tables", json={"players": "Dan Eve", "pace": 0})
    out["open"] = [opened.status_code, opened.json()]
    out["lobby"] = c.get("/api/tables").json()
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # room again
    out["after"] = [step(c, t["id"], creds).status_code]
    out["moved"] = c.get(f"/api/tables/{t['id']}").json()
out["id"] = t["id"]
print(json.dumps(out))
'''


def test_issue39_item3_a_write_that_fails_is_one_line_and_the_table_stays_as_it_was(tmp_path):
    import sqlite3
    import subprocess
    import sys
    db = tmp_path / "tables.db"
    run = subprocess.run([sys.executable, "-c", FULL_DISK, str(ROOT), str(db)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    status, answer = out["move"]
    assert status == 503 and "\n" not in answer["error"], answer
    assert "not made" in answer["error"] and "try again" in answer["error"], answer
    assert str(tmp_path) not in answer["error"]  # no path of the server's at the page
    assert out["again"] == [503]
    before = out["before"]
    for look in (out["look"], out["socket"]):  # a spectator's look and Ann's own
        for key in ("version", "steps", "request", "asked", "stamp", "standings", "svg"):
            assert look[key] == before[key], key
    assert out["socket"]["controls"]  # Ann is still asked, and may try again
    assert out["open"][0] == 503 and "not opened" in out["open"][1]["error"]
    assert [e["id"] for e in out["lobby"]["open"]] == [out["id"]]
    assert out["after"] == [200] and out["moved"]["version"] > before["version"]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    # nothing written before is lost: a server started again on the file serves the table
    with sqlite3.connect(db) as raw_db:
        assert raw_db.execute("SELECT count(*) FROM tables").fetchone()[0] == 1
    with serving(db) as c:
        again = c.get(f"/api/tables/{out['id']}").json()
        for key in ("version", "steps", "request", "svg", "standings"):
            assert again[key] == out["moved"][key], key


class FailingConnection:
    """An SQLite connection whose writes of decisions fail while `failing` (a full disk)."""

    def __init__(self, db: Any) -> None:
        self.db, self.failing = db, True

    def execute(self, sql: str, *args: Any) -> Any:
        if self.failing and sql.startswith("INSERT INTO decisions"):
            import sqlite3
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_issue39_item3_a_bots_step_not_written_is_tried_again_and_the_table_answers(
        tmp_path, monkeypatch):
    from easymoney.web import tables
    monkeypatch.setattr(tables, "WRITE_RETRY_SECONDS", 0.05)
    db = tmp_path / "tables.db"
    with serving(db) as c:
        t = open_table(c, "Ann Bot:greedy")
        kept = c.app.state.tables.kept
        failing = kept.db = FailingConnection(kept.db)
        ann = fragment(t["link"])["seat"]
        with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}") as ws:
            ws.send_text(json.dumps({"since": -1, "lines": 0, "credential": ann}))
            view = ws.receive_json()
            pick = view["controls"][0]
            r = c.post(f"/api/tables/{t['id']}/act",
                       json={"version": view["version"], "index": pick["index"], "credential": ann})
            assert r.status_code == 503 and "not made" in r.json()["error"]
        for _ in range(5):
            look = c.get(f"/api/tables/{t['id']}")
            assert look.status_code == 200 and look.json()["version"] == view["version"]
        failing.failing = False
        r = c.post(f"/api/tables/{t['id']}/act",
                   json={"version": view["version"], "index": pick["index"], "credential": ann})
        assert r.status_code == 200, r.json()
        moved = c.get(f"/api/tables/{t['id']}").json()
        # a bot's step that is not written is taken again once the file takes it
        failing.failing = True
        b = c.post("/api/tables", json={"players": "Bot:greedy Ann", "sit": "Ann", "pace": 200})
        assert b.status_code == 200, b.json()
        b = b.json()["id"]
        time.sleep(0.6)  # its first steps fail, again and again
        look = c.get(f"/api/tables/{b}").json()
        assert look["steps"] == 0 and look["asked"] == "Bot" and look["note"] is None
        failing.failing = False
        for _ in range(500):
            look = c.get(f"/api/tables/{b}").json()
            if look["asked"] == "Ann" or look["request"] is None:
                break
            time.sleep(0.02)
        assert look["asked"] == "Ann" and look["steps"] > 0
    with serving(db) as c:  # the file holds every step shown
        for tid, shown in ((t["id"], moved), (b, look)):
            again = c.get(f"/api/tables/{tid}").json()
            assert again["version"] == shown["version"] and again["svg"] == shown["svg"]


# --- item 1: a table's dice cannot be foreseen ------------------------------------------------------

def _finish(c: TestClient, tid: str, creds: dict[str, str]) -> dict[str, Any]:
    """The people's plain moves until the game is over (the bots deciding between)."""
    plain = ("rolls", "ends turn", "declines", "passes", "rejects", "begin the next turn")
    for _ in range(400):
        view = c.get(f"/api/tables/{tid}").json()
        if view["request"] is None:
            return view
        if view["bot"] or view["asked"] not in creds:
            time.sleep(0.01)
            continue
        with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{tid}") as ws:
            ws.send_text(json.dumps({"since": -1, "lines": 0, "credential": creds[view["asked"]]}))
            mine = ws.receive_json()
        if not mine["controls"]:
            continue
        pick = next((k for k in mine["controls"] if k["kind"] == "action" and
                     any(w in k["text"] for w in plain)), mine["controls"][0])
        body = {"version": mine["version"], "index": pick["index"],
                "credential": creds[view["asked"]]}
        if pick["kind"] == "range":
            body["amount"] = pick["least"]
        c.post(f"/api/tables/{tid}/act", json=body)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("given", [{}, {"seed": ""}, {"seed": None}])
def test_issue39_item1_a_tables_seed_is_the_servers_secret_until_the_game_is_over(tmp_path, given):
    import sqlite3
    db = tmp_path / "tables.db"
    with serving(db) as c:
        tables = [open_table(c, "Ann Bot:greedy", options=["end.max_turns=2"], **given)
                  for _ in range(2)]
        with sqlite3.connect(db) as raw_db:
            seeds = {tid: json.loads(p)["seed"] for tid, p in
                     raw_db.execute("SELECT id, params FROM tables")}
        assert len(set(seeds.values())) == 2 and not set(seeds.values()) & {0, 1}
        t = tables[0]
        seed = str(seeds[t["id"]])
        ann = fragment(t["link"])["seat"]
        looks = [c.get(f"/api/tables/{t['id']}").text, c.get("/api/tables").text]
        for credential in (ann, None):
            with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}") as ws:
                ws.send_text(json.dumps({"since": -1, "lines": 0, "credential": credential}))
                looks.append(ws.receive_text())
        for look in looks:
            assert seed not in look, look[:300]
        view = json.loads(looks[0])
        assert "seed" not in view["params"] and view["seeded"] is None
        r = c.get(f"/api/tables/{t['id']}/script")
        assert r.status_code == 403 and "secret seed" in r.json()["error"], r.text
        assert "\n" not in r.json()["error"]
        end = _finish(c, t["id"], {"Ann": ann})
        # over: the seed is shown, with the saved script, which replays the same game
        assert end["params"]["seed"] == seeds[t["id"]]
        script = c.get(f"/api/tables/{t['id']}/script")
        assert script.status_code == 200 and f"seed {seed}" in script.text, script.text[:400]
    with serving(db) as c:  # made again from the kept secret: the same game
        again = c.get(f"/api/tables/{t['id']}").json()
        assert again["svg"] == end["svg"] and again["params"]["seed"] == seeds[t["id"]]


def test_issue39_item1_a_table_seeded_on_purpose_says_so_to_every_seat(tmp_path):
    db = tmp_path / "tables.db"
    with serving(db) as c:
        t = open_table(c, "Ann Bob Bot:greedy", seed=5)
        ann = fragment(t["link"])["seat"]
        bob = fragment(c.post(f"/api/tables/{t['id']}/join", json={"seat": "Bob"}).json()["link"])["seat"]
        for credential in (ann, bob, None):
            with c.websocket_connect(f"ws://127.0.0.1:8000/ws/tables/{t['id']}") as ws:
                ws.send_text(json.dumps({"since": -1, "lines": 0, "credential": credential}))
                view = ws.receive_json()
            assert "chose its seed (5)" in view["seeded"] and view["params"]["seed"] == 5
            assert "chose its seed (5)" in view["transcript"][0]
        assert c.get(f"/api/tables/{t['id']}/script").status_code == 200
    with serving(db) as c:  # said again by a server started again on the file
        assert "chose its seed (5)" in c.get(f"/api/tables/{t['id']}").json()["transcript"][0]
