"""Issue 28, cases 1 and 2: the page is no door into the machine. It starts no program a
request names, answers only requests for its own address from its own pages, and reads no
file outside its root, however the request or a file names it; no answer quotes a file the
person did not send or shows a path of the server's."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx: pip install httpx")

import warnings  # noqa: E402

with warnings.catch_warnings():  # newer starlettes ask for httpx2; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from easymoney.web.app import create_app  # noqa: E402

SECRET = "SECRET-LINE-never-to-be-shown"
BASE = "http://127.0.0.1:8000"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Path]]:
    """A server whose root is `root`, started in a folder holding secrets, beside more."""
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("id_rsa", "secret.yaml", "secret.game"):
        (outside / name).write_text(f"{SECRET}: [\n")
    root = tmp_path / "root"
    (root / "variants").mkdir(parents=True)
    (root / "variants" / "mine.yaml").write_text("name: mine\nextends: standard\n")
    (root / ".hidden.yaml").write_text(f"{SECRET}: [\n")
    monkeypatch.chdir(outside)  # a bare name was looked up in the server's current folder
    with TestClient(create_app(str(root), port=8000), base_url=BASE) as client:
        yield client, root


def _no_secret(response, root: Path | None = None, *, paths: bool = True) -> None:
    """No secret and no path of the server's (`paths=False`: the request itself wrote one)."""
    text = response.text
    assert SECRET not in text, text
    assert "easymoney-web-" not in text, text
    if paths:
        assert "/tmp" not in text, text
    if root is not None:
        assert str(root) not in text and os.path.realpath(root) not in text, text


def _marker(tmp_path: Path) -> tuple[str, Path]:
    marker = tmp_path / "program-ran"
    return f'exec:"touch {marker}"', marker


# --- case 1: no program is started from the page ----------------------------------------------

def test_issue28_case1_the_play_form_refuses_a_seat_played_by_a_program(site, tmp_path):
    client, _ = site
    seat, marker = _marker(tmp_path)
    for body in ({"players": f"You Bot:{seat}"}, {"players": f"Bot:{seat} You", "watch": True}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert "\n" not in error and "program" in error and "exec:" in error
    r = client.post("/api/games", data={"players": f"You Bot:{seat}"},
                    files={"variant_file": ("", b"", "application/x-yaml")})  # the page's form
    assert r.status_code == 422
    r = client.post("/api/games/rebuild", json={"params": {"players": f"You Bot:{seat}"},
                                                "decisions": []})
    assert r.status_code == 422
    assert not marker.exists() and client.app.state.store.items == {}


def test_issue28_case1_a_script_stepped_through_seats_no_program(site, tmp_path):
    client, root = site
    seat, marker = _marker(tmp_path)
    script = f"players Ann:{seat} Bob:greedy\nautoplay 2 turns\n"
    r = client.post("/api/replays", files={"file": ("up.game", script, "text/plain")})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error.startswith("up.game:1:") and "program" in error
    (root / "seated.game").write_text(script)
    r = client.post("/api/replays", json={"path": "seated.game"})
    assert r.status_code == 422 and "program" in r.json()["error"]
    assert not marker.exists() and client.app.state.store.items == {}


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                                  "127.0.0.1:9999", ""])
def test_issue28_case1_a_request_for_another_host_is_refused(site, host):
    client, _ = site
    r = client.post("/api/games", json={"players": "You Bot:greedy"}, headers={"host": host})
    assert r.status_code == 400 and "host" in r.json()["error"]
    r = client.get("/api/variants", headers={"host": host})
    assert r.status_code == 400
    assert client.app.state.store.items == {}


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "null",
                                    "https://127.0.0.1:8000.evil.example"])
def test_issue28_case1_a_page_of_another_site_is_refused(site, origin):
    client, _ = site
    r = client.post("/api/games", json={"players": "You Bot:greedy"}, headers={"origin": origin})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = client.post("/api/games", data={"players": "You Bot:greedy"}, headers={"origin": origin},
                    files={"variant_file": ("", b"", "application/x-yaml")})
    assert r.status_code == 403
    r = client.post("/api/games", json={"players": "You Bot:greedy"},
                    headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    assert client.app.state.store.items == {}


def test_issue28_case1_the_pages_own_requests_are_answered(site):
    client, _ = site
    for host, origin in (("127.0.0.1:8000", BASE), ("localhost:8000", "http://localhost:8000")):
        r = client.post("/api/games", json={"players": "You Bot:greedy"},
                        headers={"host": host, "origin": origin, "sec-fetch-site": "same-origin"})
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_issue28_case1_json_sent_as_something_else_is_refused(site, content_type):
    client, _ = site
    body = json.dumps({"players": "You Bot:greedy"}).encode()
    headers = {"content-type": content_type} if content_type else {}
    r = client.post("/api/games", content=body, headers=headers)
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    assert client.app.state.store.items == {}


def test_issue28_case1_the_serving_address_and_names_given_are_answered(tmp_path):
    with TestClient(create_app(str(tmp_path), hosts=["board.lan"], port=8080),
                    base_url="http://board.lan:8080") as client:
        assert client.get("/api/variants").status_code == 200
        assert client.get("/api/variants", headers={"host": "board.lan:8000"}).status_code == 400
        assert client.get("/api/variants", headers={"host": "127.0.0.1:8080"}).status_code == 400


# --- case 2: no file outside the root ---------------------------------------------------------

@pytest.mark.parametrize("extends", ["/tmp/../{outside}/secret.yaml", "{outside}/secret.yaml",
                                     "../outside/secret.yaml", "../../outside/secret.yaml",
                                     "variants/mine.yaml", "id_rsa"])
def test_issue28_case2_an_upload_extends_built_in_variants_only(site, tmp_path, extends):
    client, root = site
    text = f"name: up\nextends: {extends.format(outside=tmp_path / 'outside')}\n"
    r = client.post("/api/games", data={"players": "Ann Bob"},
                    files={"variant_file": ("up.yaml", text, "application/x-yaml")})
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("up.yaml:2:"), r.text
    _no_secret(r, root, paths="outside" not in extends)
    assert os.listdir(client.app.state.store.uploads) == []


@pytest.mark.parametrize("extends", ["{outside}/secret.yaml", "../../outside/secret.yaml",
                                     "../outside/secret.yaml", "link.yaml", "../.hidden.yaml",
                                     "id_rsa"])
def test_issue28_case2_a_variant_under_the_root_extends_nothing_outside_it(site, tmp_path,
                                                                          extends):
    client, root = site
    (root / "variants" / "link.yaml").symlink_to(tmp_path / "outside" / "secret.yaml")
    (root / "variants" / "bad.yaml").write_text(
        f"name: bad\nextends: {extends.format(outside=tmp_path / 'outside')}\n")
    r = client.post("/api/games", json={"players": "Ann Bob", "variant": "variants/bad.yaml"})
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("variants/bad.yaml:2:"), r.text
    written = "{outside}" not in extends  # else the file names a path itself
    _no_secret(r, root, paths=written)
    (root / "in.game").write_text('variant "variants/bad.yaml"\nplayers Ann Bob\n')
    r = client.post("/api/replays", json={"path": "in.game"})
    assert r.status_code == 422 and r.json()["error"].startswith("variants/bad.yaml:2:")
    _no_secret(r, root, paths=written)


def test_issue28_case2_a_chain_under_the_root_is_read(site):
    client, root = site
    (root / "variants" / "top.yaml").write_text("name: top\nextends: mine.yaml\n")
    r = client.post("/api/games", json={"players": "Ann Bob", "variant": "variants/top.yaml"})
    assert r.status_code == 200, r.text
    view = client.get(f"/api/games/{r.json()['id']}")
    assert view.json()["params"]["variant"] == "variants/top.yaml"
    _no_secret(view, root)


@pytest.mark.parametrize("name", ["id_rsa", "secret", "secret.yaml", ".hidden.yaml",
                                  "./.hidden.yaml", "variants/../../outside/secret.yaml"])
def test_issue28_case2_a_bare_name_is_a_built_in_name_or_nothing(site, name):
    client, root = site
    for url, body in (("/api/games", {"players": "Ann Bob", "variant": name}),
                      ("/api/games/rebuild", {"params": {"players": "Ann Bob", "variant": name},
                                              "decisions": []})):
        r = client.post(url, json=body)
        assert 400 <= r.status_code < 500, r.text
        _no_secret(r, root)
    assert client.app.state.store.items == {}


@pytest.mark.parametrize("line", ['variant "{outside}/secret.yaml"', 'variant "../outside/secret.yaml"',
                                  'variant ".hidden.yaml"', "variant id_rsa",
                                  'variant "id_rsa"'])
def test_issue28_case2_a_scripts_variant_line_reads_nothing_outside(site, tmp_path, line):
    client, root = site
    text = line.format(outside=tmp_path / "outside") + "\nplayers Ann Bob\n"
    r = client.post("/api/replays", files={"file": ("up.game", text, "text/plain")})
    assert r.status_code == 422 and r.json()["error"].startswith("up.game:1:"), r.text
    _no_secret(r, root, paths="{outside}" not in line)


def test_issue28_case2_a_script_path_is_a_game_file_under_the_root(site):
    client, root = site
    for path in ("../outside/secret.game", ".hidden.yaml", "variants/mine.yaml"):
        r = client.post("/api/replays", json={"path": path})
        assert 400 <= r.status_code < 500
        _no_secret(r, root)


def test_issue28_case2_no_answer_shows_a_server_path(site):
    client, root = site
    r = client.post("/api/games", json={"players": "Ann Bob", "variant": "variants/mine.yaml"})
    view = client.get(f"/api/games/{r.json()['id']}")
    assert view.json()["params"]["variant"] == "variants/mine.yaml"
    _no_secret(view, root)
    r = client.post("/api/games", data={"players": "Ann Bob"},
                    files={"variant_file": ("house.yaml", "name: house\nextends: standard\n",
                                            "application/x-yaml")})
    assert r.status_code == 200, r.text
    view = client.get(f"/api/games/{r.json()['id']}")
    assert view.json()["params"]["variant"] == "house.yaml"
    _no_secret(view, root)
    script = client.get(f"/api/games/{r.json()['id']}/script")
    assert 'variant "house.yaml"' in script.text
    _no_secret(script, root)
    bad = "name: bad\nextends: standard\nmoney: {start: -5}\n"
    r = client.post("/api/games", data={"players": "Ann Bob"},
                    files={"variant_file": ("mine.yaml", bad, "application/x-yaml")})
    assert r.status_code == 422 and r.json()["error"].startswith("mine.yaml:")
    _no_secret(r, root)


def test_issue28_case2_an_error_in_a_file_under_the_root_quotes_no_line_of_it(site):
    client, root = site
    (root / "variants" / "broken.yaml").write_text(f"name: broken\nextends: standard\n"
                                                   f"players: {{min: 2, max: 4}}\n"
                                                   f"money: [{SECRET}\n")
    r = client.post("/api/games", json={"players": "Ann Bob", "variant": "variants/broken.yaml"})
    assert r.status_code == 422 and r.json()["error"].startswith("variants/broken.yaml:")
    _no_secret(r, root)


def test_issue28_case1_easymoney_serve_refuses_foreign_hosts_and_origins(tmp_path):
    """The command itself, over a socket: its own address answered, a rebinding name and a
    page of another site refused, a seat program refused."""
    import http.client

    from processes import wait_for
    from web_browser import free_port
    port = free_port()
    seat, marker = _marker(tmp_path)

    def ask(method: str, body: dict | None = None, **headers: str) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, "/api/games" if body is not None else "/api/variants", data,
                         {"Content-Type": "application/json", **headers})
            answer = conn.getresponse()
            return answer.status, answer.read().decode()
        finally:
            conn.close()

    with _serving(tmp_path, port) as proc:  # (its temporary folder under tmp_path)
        def up() -> bool:
            try:
                return ask("GET")[0] == 200
            except OSError:
                return proc.poll() is not None
        wait_for(up, "easymoney serve to answer")
        assert proc.poll() is None
        assert ask("GET", Host="evil.example:%d" % port)[0] == 400
        assert ask("GET", Host="localhost:%d" % port)[0] == 200
        status, text = ask("POST", {"players": "You Bot:greedy"}, Origin="http://evil.example")
        assert status == 403 and "another site" in text
        status, text = ask("POST", {"players": f"You Bot:{seat}"})
        assert status == 422 and "program" in text
        assert ask("POST", {"players": "You Bot:greedy"},
                   Origin=f"http://127.0.0.1:{port}")[0] == 200
    assert not marker.exists()


def test_issue28_case1_a_searching_bots_policy_starts_no_program(site, tmp_path):
    """`mc:policy=exec:PROGRAM` plays its playouts by a program: a program all the same. (A
    script's players line cannot give mc options: its `Ann:mc` is the default search.)"""
    client, root = site
    marker = tmp_path / "policy-ran"
    program = tmp_path / "policy.sh"
    program.write_text(f"#!/bin/sh\ntouch {marker}\n")
    program.chmod(0o755)
    seat = f"mc:policy=exec:{program}"
    for url, body in (("/api/games", {"players": f"You Bot:{seat}"}),
                      ("/api/games", {"players": f"Ann:{seat} Bob:greedy", "watch": True}),
                      ("/api/games/rebuild", {"params": {"players": f"You Bot:{seat}"},
                                              "decisions": []})):
        r = client.post(url, json=body)
        assert r.status_code == 422 and "not started" in r.json()["error"], r.text
        assert not marker.exists()
    assert not marker.exists() and client.app.state.store.items == {}


# --- case 9: the command's own ends -------------------------------------------------------------

def _serving(tmp_path: Path, port: int):
    """`easymoney serve` on `port`, its temporary folders under tmp_path/tmp."""
    from processes import easymoney
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    return easymoney(tmp_path, "serve", "--port", str(port), "--root", str(tmp_path),
                     env={**os.environ, "TMPDIR": str(tmp)})


def _ask(port: int, path: str, **kw) -> int:
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST" if "body" in kw else "GET", path, kw.get("body"), kw.get("headers", {}))
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.mark.parametrize("signame", ["SIGHUP", "SIGTERM", "SIGINT"])
def test_issue28_case9_a_signal_to_serve_leaves_no_uploaded_variant_behind(tmp_path, signame):
    import signal

    from processes import wait_for
    from web_browser import free_port
    port = free_port()
    boundary = "xxBOUNDARYxx"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"players\"\r\n\r\nAnn Bob\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"variant_file\"; "
            f"filename=\"house.yaml\"\r\nContent-Type: application/x-yaml\r\n\r\n"
            f"name: house\nextends: standard\n\r\n--{boundary}--\r\n").encode()
    with _serving(tmp_path, port) as proc:
        def up() -> bool:
            try:
                return _ask(port, "/api/variants") == 200
            except OSError:
                return proc.poll() is not None
        wait_for(up, "easymoney serve to answer")
        assert _ask(port, "/api/games", body=body, headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}"}) == 200
        folders = list((tmp_path / "tmp").glob("easymoney-web-*"))
        assert len(folders) == 1 and list(folders[0].iterdir())  # the uploaded variant
        proc.send_signal(getattr(signal, signame))
        out, err = proc.communicate(timeout=30)
    assert list((tmp_path / "tmp").glob("easymoney-web-*")) == [], err
    assert "Traceback" not in err, err


def test_issue28_case9_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with _serving(tmp_path, port) as proc:
            out, err = proc.communicate(timeout=60)
        assert proc.returncode == 2, (out, err)
        assert out == ""  # no "open http://..." for a server that never listened
        assert err.count("\n") == 1 and f"{port}" in err and "in use" in err, err
        assert err.startswith("error: ")
    assert list((tmp_path / "tmp").glob("easymoney-web-*")) == []


# --- case 12: an uploaded variant's errors name it as it was sent ------------------------------

NO_HOSPITAL = ("name: house\nextends: standard\nmodify:\n  spaces:\n"
               "    City Hospital: {kind: legend, receive: 10}\n")
TWO = "name: house\nextends: standard\nplayers: {min: 2, max: 2}\n"


@pytest.mark.parametrize("text, fields, starts, words", [
    ("name: house\nextends: standard\nmoney: {start: -5}\n", {}, "house.yaml:3:", "money"),
    (NO_HOSPITAL, {}, "house.yaml:", "no space of kind 'hospital'"),  # a rule's own check
    (TWO, {"players": "You Ann Bot:greedy"}, "error: house is for 2 to 2", "3 given"),
    (TWO, {"options": "nope.key=1"}, "", "nope"),
    (TWO, {"enable": "R99"}, "", "R99"),
    ("name: house\nextends: standard\n", {"players": "You Bot:mc:rollouts=100000"}, "error: ",
     "rollouts at most"),
], ids=["schema", "hook-check", "player-count", "option", "rule", "seat"])
def test_issue28_case12_an_uploaded_variants_error_names_it_as_sent(site, text, fields, starts,
                                                                     words):
    client, root = site
    form = {"players": "You Bot:greedy", **fields}
    r = client.post("/api/games", data=form,
                    files={"variant_file": ("house.yaml", text, "application/x-yaml")})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error.startswith(starts) and words in error, error
    _no_secret(r, root)
    assert os.listdir(client.app.state.store.uploads) == []
