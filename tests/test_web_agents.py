"""Issue 40 part 4 on the page: `easymoney serve --agent NAME=FILE` seats a trained agent
(a policy file) that a visitor picks by NAME, never by a path. The file is checked at
start (one line, exit 2); a game it does not fit refuses that seat in one line."""

from __future__ import annotations

import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="numpy (the agents extra) is not installed")
pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")
pytest.importorskip("starlette", reason="the web extra: pip install 'easymoney-game[web]'")

import easymoney.agents as agents  # noqa: E402
from easymoney.agents.policy import save_policy  # noqa: E402
from easymoney.cli import main  # noqa: E402
from processes import serving  # noqa: E402
from web_browser import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def random_policy(path: Path, env: Any, seed: int = 0, hidden: int = 16) -> Path:
    """An MLP of random weights for `env`, saved as a policy file: no training library."""
    rng = np.random.default_rng(seed)
    n, m = env.table.layout.size, env.table.catalogue.size
    save_policy(path, [(rng.normal(0, 0.3, (n, hidden)), rng.normal(0, 0.1, hidden)),
                       (rng.normal(0, 0.3, (hidden, m)), np.zeros(m))], env)
    return path


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory) -> Path:
    return random_policy(tmp_path_factory.mktemp("agent") / "agent.npz", agents.single())


def serve_once(tmp_path: Path, *agent: str) -> int:
    """`easymoney serve --agent ...` in this process: its status (a bad --agent ends it
    before it listens)."""
    return main(["serve", "--port", str(free_port()), "--root", str(tmp_path),
                 *[a for spec in agent for a in ("--agent", spec)]])


def spoilt(kind: str, good: Path, tmp_path: Path) -> Path:
    bad = tmp_path / f"{kind.replace(' ', '-')}.npz"
    if kind == "missing":
        return bad
    if kind == "truncated":
        data = good.read_bytes()
        bad.write_bytes(data[: len(data) // 2])
    elif kind == "not a policy":
        bad.write_text("weights, honest\n")
    elif kind == "another action space":  # a plugin's action this server's standard lacks
        random_policy(bad, agents.single(enable=["tax_choice"]))
    elif kind == "another variant":
        with np.load(good) as data:
            arrays = {k: data[k] for k in data.files}
        header = json.loads(bytes(arrays["header"]).decode())
        header["variant"] = "no-such-variant"
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
        np.savez(bad, **arrays)
    return bad


@pytest.mark.parametrize("kind, words", [
    ("missing", "no such file"), ("truncated", "truncated"), ("not a policy", "not a policy"),
    ("another action space", "another action space"),
    ("another variant", "'no-such-variant' with 2 seats, which this server cannot make")])
def test_issue40_serve_agent_of_a_bad_file_is_one_line_and_exit_2(policy_file, tmp_path, capsys,
                                                                  kind, words):
    bad = spoilt(kind, policy_file, tmp_path)
    status = serve_once(tmp_path, f"trained={bad}")
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"--agent trained={bad}" in err and words in err, err


@pytest.mark.parametrize("spec, words", [
    ("greedy={file}", "already a strategy name"), ("Trained={file}", "NAME=FILE"),
    ("{file}", "NAME=FILE"), ("trained=", "NAME=FILE")])
def test_issue40_serve_agent_name_is_a_word_of_its_own(policy_file, tmp_path, capsys, spec, words):
    status = serve_once(tmp_path, spec.format(file=policy_file))
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and words in err, err
    status = serve_once(tmp_path, f"twin={policy_file}", f"twin={policy_file}")
    err = capsys.readouterr().err
    assert status == 2 and "already another --agent" in err, err


@contextlib.contextmanager
def agent_server(tmp_path: Path, port: int, db: Path, policy: Path) -> Iterator[str]:
    """`easymoney serve --agent trained=POLICY` as a process of its own on 127.0.0.1,
    answering: its base URL; always killed on leaving."""
    with serving(tmp_path, port, "--root", str(ROOT), "--db", str(db),
                 "--agent", f"trained={policy}"):
        yield f"http://127.0.0.1:{port}"


def call(base: str, method: str, path: str, body: dict[str, Any] | None = None
         ) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_issue40_the_page_seats_the_trained_agent_by_its_name(policy_file, tmp_path):
    """A server started with --agent trained=FILE: the page lists "the trained agent
    (trained)"; a game seats it as Bob:trained and it plays; a game of three seats or
    another rule refuses that seat in one line; a path is still refused; the creator of a
    table gives a person's seat to it; its file is never named to the visitor."""
    port, db = free_port(), tmp_path / "tables.db"
    with agent_server(tmp_path, port, db, policy_file) as base:
        status, listed = call(base, "GET", "/api/variants")
        assert listed["agents"] == [{"name": "trained", "label": "the trained agent (trained)",
                                     "variant": "standard", "players": 2}]
        assert str(policy_file) not in json.dumps(listed)

        status, made = call(base, "POST", "/api/games", {"players": "Ann:greedy Bob:trained",
                                                         "watch": True, "seed": 4})
        assert status == 200, made
        view = call(base, "GET", f"/api/games/{made['id']}")[1]
        bob_decided = 0
        for _ in range(120):
            asked = view["asked"]
            status, view = call(base, "POST", f"/api/games/{made['id']}/bot",
                                {"version": view["version"]})
            assert status == 200, view
            bob_decided += asked == "Bob"
            if view["request"] is None:
                break
        assert bob_decided > 5 and view["bots"]["Bob"] == "trained"
        script = urllib.request.urlopen(f"{base}/api/games/{made['id']}/script", timeout=60).read()
        assert b"players Ann:greedy Bob\n" in script and b"the trained agent (trained)" in script
        assert str(policy_file).encode() not in script

        for players, options, words in (
                ("Ann:greedy Bob:trained Cat:random", [], "trained for 2 seats, this game has 3"),
                ("Ann:greedy Bob:trained", ["tax_choice"], "trained on another action space")):
            status, refused = call(base, "POST", "/api/games", {"players": players,
                                                                "enable": options})
            assert status == 422 and refused["error"].count("\n") == 0, refused
            assert "Bob:trained: the trained agent (trained) was " + words in refused["error"]
            assert str(policy_file) not in refused["error"]
        status, refused = call(base, "POST", "/api/games",
                               {"players": f"Ann Bob:policy:{policy_file}"})
        assert status == 422 and "not seated from the page" in refused["error"]
        assert "Bob:trained" in refused["error"]

        # a table: its creator gives Bob's seat (the person left) to the trained agent
        status, table = call(base, "POST", "/api/tables", {"players": "Ann Bob", "sit": "Ann",
                                                          "pace": 0, "seed": 3})
        assert status == 200, table
        creator = dict(p.split("=", 1) for p in table["link"].partition("#")[2].split("&"))["creator"]
        status, given = call(base, "POST", f"/api/tables/{table['id']}/bot",
                             {"creator": creator, "seat": "Bob", "strategy": "trained"})
        assert (status, given) == (200, {"seat": "Bob", "strategy": "trained"})
        status, lobby = call(base, "GET", "/api/tables")
        seats = lobby["open"][0]["seats"]
        assert {"name": "Bob", "bot": "trained", "taken": False} in seats
        status, three = call(base, "POST", "/api/tables", {"players": "Ann Bob Cat", "sit": "Ann",
                                                          "pace": 0})
        creator = dict(p.split("=", 1) for p in three["link"].partition("#")[2].split("&"))["creator"]
        status, refused = call(base, "POST", f"/api/tables/{three['id']}/bot",
                               {"creator": creator, "seat": "Bob", "strategy": "trained"})
        assert status == 422 and "trained for 2 seats, this game has 3" in refused["error"]
        assert call(base, "GET", f"/api/tables/{three['id']}")[1]["seats"][1]["bot"] is None
    # started again on the same file with the same agent: the table is made again
    with agent_server(tmp_path, port, db, policy_file) as base:
        status, again = call(base, "GET", f"/api/tables/{table['id']}")
        assert status == 200, again
        assert {"name": "Bob", "bot": "trained", "taken": False} in again["seats"]
    # without it: the table says in one line which agent the server lacks
    with serving(tmp_path, port, "--root", str(ROOT), "--db", str(db)):
        status, lacking = call(base, "GET", f"/api/tables/{table['id']}")
        assert status == 422 and lacking["error"].count("\n") == 0, lacking
        assert "easymoney serve --agent trained=FILE" in lacking["error"], lacking
