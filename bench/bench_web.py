"""`easymoney serve`: click to board, memory after finished games, games held at once.

    python bench/bench_web.py                 # all three figures (a few minutes)
    python bench/bench_web.py --skip-browser  # without Chromium: memory and games at once
    python bench/bench_web.py --skip-browser --games 0 --at-once 1000  # past the cap

1. Click to board: a whole game against a `greedy` bot played by clicks in headless
   Chromium (end.max_turns=30); for each click, the time from the click to the board drawn
   again (measured in the page: `performance.now()` at the click, again once the new SVG
   is in place). Median and worst.
2. Memory: the server's resident memory (VmRSS) before and after 100 whole bot games
   played through its HTTP interface (and after 100 more): finished games beyond
   MAX_FINISHED are dropped, so it must not grow with them.
3. Games at once: N games started and each stepped a little; then the time of one step
   of one game (a request answered, the board drawn), median and 95th percentile, for N
   up to the server's MAX_GAMES.

Tables (issue 32), `python bench/bench_web.py --tables`, against `easymoney serve --db` in a
process of its own, each browser a WebSocket client (the websocket-client package, which
selenium brings):

4. Click to every browser at the table: Ann and Bob (two seats' sockets) and a spectator
   against a greedy bot, a whole game (end.max_turns=30, the bot's pace 0); for each move a
   person makes, the time from sending it to the last of the three sockets holding the new
   table (parsed). Median and worst.
5. One table of 4 seats playing, then 100 (four bots, a decision every 1 s at each table,
   a spectator's socket at each, `--spectators K` for more): the answer time of a page
   (the lobby's list, a table's state, the first page), median and 95th percentile, the
   pages asked in turn while they play; the server's memory (VmRSS) and its CPU time
   (a share of one core, and a step's).
6. A restart in the middle of those 100 tables (SIGTERM, then the server started again on
   the same file): tables lost (fewer steps than a spectator saw before the stop, or
   gone), and the time until every table is served again.

    python bench/bench_web.py --tables                 # 4-6 with 100 tables
    python bench/bench_web.py --tables 20 --parts pages --rounds 20
    python bench/bench_web.py --tables --against ../base:../venv-base/bin/python

`--against TREE:PYTHON` makes the same figures first for the server of another tree (an
older commit's worktree, PYTHON a virtual environment where it is installed editable), in
the same run, so that both meet the machine's load of the moment. The spectators' sockets
read only the numbers the figures need from each message, and skip websocket-client's
UTF-8 check (pure Python, most of the client's time): on two shared cores a client that
decodes every message takes the server's CPU and makes its pages look slow.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import web_browser  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as answer:
        return json.loads(answer.read())


def whole_bot_game(base: str, seed: int, turns: int) -> None:
    gid = post(base, "/api/games", {"players": "Ann:greedy Bob:cautious", "seed": seed,
                                    "options": [f"end.max_turns={turns}"], "watch": True})["id"]
    view = {"request": True, "lines": 0, "version": 0}
    while view["request"] is not None:
        view = post(base, f"/api/games/{gid}/bot", {"since": view["lines"],
                                                     "version": view["version"]})


def clicks(base: str) -> None:
    with web_browser.browser() as driver:
        n = web_browser.play_by_clicks(driver, base, options="end.max_turns=30")
        t = driver.execute_script("return window.__timings")
    print(f"click to board drawn again, {n} clicks of a whole game: median "
          f"{statistics.median(t):.1f} ms, worst {max(t):.1f} ms")


def memory(base: str, games: int, turns: int) -> None:
    gc.collect()
    before = rss_mb()
    for seed in range(games):
        whole_bot_game(base, seed, turns)
    gc.collect()
    after = rss_mb()
    for seed in range(games, 2 * games):
        whole_bot_game(base, seed, turns)
    gc.collect()
    print(f"server memory (VmRSS): {before:.0f} MB at start, {after:.0f} MB after {games} "
          f"finished games of {turns} turns, {rss_mb():.0f} MB after {2 * games}")


def at_once(base: str, app: Any, counts: list[int]) -> None:
    store = app.state.store
    for n in counts:
        with store.lock:
            store.items.clear()
        versions = {}  # game id -> the version of its last view
        for seed in range(n):
            gid = post(base, "/api/games", {"players": "Ann:greedy Bob:cautious", "seed": seed,
                                            "watch": True})["id"]
            versions[gid] = 0
            for _ in range(10):
                versions[gid] = post(base, f"/api/games/{gid}/bot",
                                     {"version": versions[gid]})["version"]
        ids = list(versions)
        times = []
        for k in range(100):
            gid = ids[k % n]
            t0 = time.perf_counter()
            versions[gid] = post(base, f"/api/games/{gid}/bot",
                                 {"since": 10**9, "version": versions[gid]})["version"]
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(f"{n:4d} games held ({len(store.items)} in the store), {rss_mb():.0f} MB: one step "
              f"answered in {statistics.median(times):.1f} ms median, "
              f"{times[int(len(times) * 0.95)]:.1f} ms 95th percentile")


# --- tables (issue 32) ---------------------------------------------------------------------------
class Served:
    """`easymoney serve --db DB` as a process of its own, to be stopped and started again:
    run by `python` (whose easymoney is the one served) with `root` as its folder."""

    def __init__(self, db: str, port: int, python: str = sys.executable,
                 root: Path = ROOT) -> None:
        self.db, self.port, self.python, self.root = db, port, python, root
        self.base = f"http://127.0.0.1:{port}"
        self.proc: Any = None

    def start(self) -> float:
        """Start it; the seconds until it answers."""
        import subprocess
        t0 = time.perf_counter()
        self.proc = subprocess.Popen([self.python, "-m", "easymoney", "serve", "--port",
                                      str(self.port), "--db", self.db, "--root", str(self.root)],
                                     stdout=subprocess.DEVNULL)
        while True:
            try:
                with urllib.request.urlopen(self.base + "/api/variants", timeout=5):
                    return time.perf_counter() - t0
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("easymoney serve did not start") from None
                time.sleep(0.02)

    def stop(self) -> None:
        import signal
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(60)

    def _status(self, field: str) -> str:
        with open(f"/proc/{self.proc.pid}/{field}") as fh:
            return fh.read()

    def rss_mb(self) -> float:
        for line in self._status("status").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user and system, all its threads)."""
        fields = self._status("stat").rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Browser:
    """A browser at a table: a WebSocket client in a thread, noting when it first held each
    version of the table. A spectator of many tables (`light`) reads only the two numbers
    the figures need from each message, so that the client's own work (a hundred of them
    share this process and the server's two cores) stays small beside the server's."""

    STAMPS = re.compile(r'"(version|steps)":(\d+)')

    def __init__(self, base: str, table: str, credential: str | None = None,
                 light: bool = False) -> None:
        import threading

        import websocket
        self.light = light
        self.seen: dict[int, float] = {}
        self.view: dict[str, Any] = {}
        self.ws = websocket.create_connection(  # the server's text is UTF-8: json says so
            base.replace("http", "ws") + f"/ws/tables/{table}", origin=base,
            skip_utf8_validation=True)
        self.ws.send(json.dumps({"since": -1, "lines": 0, "credential": credential}))
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        try:
            while True:
                text = self.ws.recv()
                view = ({k: int(v) for k, v in self.STAMPS.findall(text)} if self.light
                        else json.loads(text))
                at = time.perf_counter()
                with self.changed:
                    if "version" in view:
                        self.seen.setdefault(view["version"], at)
                        self.view = view
                    self.changed.notify_all()
        except Exception:  # closed
            return

    def wait(self, done: Any, timeout: float = 60) -> dict[str, Any]:
        with self.changed:
            if not self.changed.wait_for(lambda: self.view and done(self.view), timeout):
                raise RuntimeError("the table did not change")
            return self.view

    def first_at(self, version: int) -> float:
        """When it first held version `version` or a later one."""
        with self.changed:
            return min(t for v, t in self.seen.items() if v >= version)

    def close(self) -> None:
        self.ws.close()


def _secret(link: str, key: str) -> str:
    return dict(p.split("=", 1) for p in link.partition("#")[2].split("&"))[key]


def table_clicks(served: Served) -> None:
    base = served.base
    t = post(base, "/api/tables", {"players": "Ann Bob Bot:greedy", "sit": "Ann", "pace": 0,
                                   "seed": 7, "options": ["end.max_turns=30"]})
    creds = {"Ann": _secret(t["link"], "seat"),
             "Bob": _secret(post(base, f"/api/tables/{t['id']}/join", {"seat": "Bob"})["link"], "seat")}
    seats = {name: Browser(base, t["id"], c) for name, c in creds.items()}
    watcher = Browser(base, t["id"])
    everyone = [*seats.values(), watcher]
    times = []
    try:
        view = watcher.wait(lambda v: True)
        while True:
            view = watcher.wait(lambda v: v["request"] is None or not v["bot"])
            if view["request"] is None:
                break
            me = seats[view["asked"]]
            mine = me.wait(lambda v, k=view["version"]: v["version"] >= k and v["controls"])
            controls = mine["controls"]
            pick = next((c for c in controls if c["kind"] == "action" and any(
                w in c["text"] for w in ("rolls", "ends turn", "declines", "passes"))), controls[0])
            body = {"credential": creds[view["asked"]], "version": mine["version"],
                    "index": pick["index"]}
            if pick["kind"] == "range":
                body["amount"] = pick["least"]
            t0 = time.perf_counter()
            post(base, f"/api/tables/{t['id']}/act", body)
            for b in everyone:
                b.wait(lambda v, k=mine["version"]: v["version"] > k)
            times.append((max(b.first_at(mine["version"] + 1) for b in everyone) - t0) * 1000)
    finally:
        for b in everyone:
            b.close()
    print(f"click to every browser at the table (2 seats and a spectator) holding the new "
          f"table, {len(times)} moves of a whole game: median {statistics.median(times):.1f} ms, "
          f"worst {max(times):.1f} ms")


def page_times(base: str, pages: dict[str, str], label: str, rounds: int) -> None:
    """Each page asked `rounds` times, in turn (so that each meets the same load)."""
    times: dict[str, list[float]] = {what: [] for what in pages}
    for _ in range(rounds):
        for what, path in pages.items():
            t0 = time.perf_counter()
            with urllib.request.urlopen(base + path) as answer:
                answer.read()
            times[what].append((time.perf_counter() - t0) * 1000)
            time.sleep(0.05)
    for what, taken in times.items():
        taken.sort()
        print(f"{label}: {what} answered in {statistics.median(taken):.1f} ms median, "
              f"{taken[int(len(taken) * 0.95)]:.1f} ms 95th percentile")


FOUR_BOTS = "Ann:greedy Bob:cautious Cat:random Dan:greedy"


def tables_at_once(served: Served, count: int, rounds: int, settle: float, spectators: int
                   ) -> tuple[list[str], list[Browser]]:
    """One table of 4 bots playing, then `count`, each with `spectators` spectators' sockets:
    the pages' answer times while they play, the server's memory and its CPU time a step."""
    base = served.base
    ids: list[str] = []
    watchers: list[Browser] = []  # the first spectator of each table
    others: list[Browser] = []
    for n in sorted({1, count}):
        for seed in range(len(ids), n):
            ids.append(post(base, "/api/tables", {"players": FOUR_BOTS, "sit": "", "pace": 1000,
                                                  "seed": seed})["id"])
            watchers.append(Browser(base, ids[-1], light=True))
            others += [Browser(base, ids[-1], light=True) for _ in range(spectators - 1)]
        time.sleep(settle)  # every table steps a while
        pages = {"the lobby's list": "/api/tables", "a table's state": f"/api/tables/{ids[0]}",
                 "the first page": "/"}
        label = f"{n} table{'s' if n > 1 else ''} of 4 seats playing" + (
            f" ({spectators} spectators at each)" if spectators > 1 else "")
        before, cpu = sum(w.view.get("steps", 0) for w in watchers), served.cpu_seconds()
        t0 = time.perf_counter()
        page_times(base, pages, label, rounds)
        steps = sum(w.view.get("steps", 0) for w in watchers) - before
        cpu, wall = served.cpu_seconds() - cpu, time.perf_counter() - t0
        print(f"{label}: server memory (VmRSS) {served.rss_mb():.0f} MB; {steps:,} steps "
              f"played while the pages were asked for ({steps / wall:.0f} a second), the "
              f"server's CPU {cpu / wall:.0%} of one core ({cpu * 1000 / max(1, steps):.2f} ms "
              "a step, all its work counted, the pages' too)")
    for b in others:
        b.close()
    return ids, watchers


def tables_restart(served: Served, ids: list[str], watchers: list[Browser]) -> None:
    served.stop()
    seen = {tid: w.view.get("steps", 0) for tid, w in zip(ids, watchers)}
    for w in watchers:
        w.close()
    up = served.start()
    t0 = time.perf_counter()
    lost = 0
    for tid in ids:
        try:
            with urllib.request.urlopen(f"{served.base}/api/tables/{tid}") as answer:
                view = json.loads(answer.read())
            lost += view["steps"] < seen[tid]
        except OSError:
            lost += 1
    again = time.perf_counter() - t0
    print(f"a restart in the middle of {len(ids)} tables: {lost} tables lost; the server "
          f"answered {up:.2f} s after starting, and served all {len(ids)} tables again "
          f"(each made again from its decisions) {again:.2f} s later")


PARTS = ("clicks", "pages", "restart")


def server_of(against: str) -> tuple[str, Path]:
    """TREE:PYTHON as `--against` takes it, checked: PYTHON's easymoney is TREE's."""
    import subprocess
    tree, _, python = against.rpartition(":")
    try:
        where = subprocess.run([python, "-c", "import easymoney; print(easymoney.__file__)"],
                               capture_output=True, text=True, check=False).stdout.strip()
    except OSError:  # no such program
        where = ""
    if not tree or not where or not Path(where).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"--against {against}: {python or 'PYTHON'} does not import easymoney "
                         f"from {tree or 'TREE'} (found {where or 'none'})")
    return python, Path(tree)


def commit_of(tree: Path) -> str:
    import subprocess
    return subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=False).stdout.strip() or "?"


def tables(count: int, parts: list[str], rounds: int, settle: float, spectators: int,
           python: str = sys.executable, tree: Path = ROOT) -> None:
    import tempfile
    print(f"-- the server of {tree} at {commit_of(tree)}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        served = Served(os.path.join(folder, "tables.db"), web_browser.free_port(), python, tree)
        served.start()
        try:
            if "clicks" in parts:
                table_clicks(served)
            if "pages" in parts or "restart" in parts:
                ids, watchers = tables_at_once(served, count, rounds, settle, spectators)
                if "restart" in parts:
                    tables_restart(served, ids, watchers)
                else:
                    for w in watchers:
                        w.close()
        finally:
            served.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--at-once", type=int, nargs="*", metavar="N",
                        help="the numbers of games held at once to time (default: 10 50 100 "
                             "MAX_GAMES); above MAX_GAMES the store's cap is raised to N")
    parser.add_argument("--tables", type=int, nargs="?", const=100, metavar="N",
                        help="the tables' figures instead (4-6), with N tables at once "
                             "(default 100)")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"the tables' figures to make, of {','.join(PARTS)} (default all)")
    parser.add_argument("--rounds", type=int, default=60,
                        help="each page asked this many times with 1 and with N tables "
                             "(default 60)")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="seconds the tables play before the pages are asked for")
    parser.add_argument("--spectators", type=int, default=1, metavar="K",
                        help="spectators' sockets at each of the N tables (default 1)")
    parser.add_argument("--against", metavar="TREE:PYTHON",
                        help="the tables' figures of another tree's server too, first, in "
                             "the same run: PYTHON's easymoney must be TREE's (a virtual "
                             "environment with TREE installed editable)")
    args = parser.parse_args()
    if args.tables is not None and args.tables < 1:
        parser.error(f"--tables {args.tables}: at least 1 table")
    if args.tables:
        parts = [p for p in args.parts.split(",") if p]
        if not parts or not set(parts) <= set(PARTS):
            parser.error(f"--parts {args.parts}: name some of {','.join(PARTS)}")
        if args.rounds < 1 or args.settle < 0 or args.spectators < 1:
            parser.error("--rounds and --spectators: at least 1; --settle: 0 seconds or more")
        figures = (args.tables, parts, args.rounds, args.settle, args.spectators)
        if args.against:
            tables(*figures, *server_of(args.against))
        tables(*figures)
        return 0
    with web_browser.serving(str(ROOT)) as (base, app):
        if not args.skip_browser:
            if web_browser.find_browser() is None:
                print(web_browser.NO_BROWSER)
            else:
                clicks(base)
        if args.games:
            memory(base, args.games, args.turns)
        from easymoney.web.games import MAX_GAMES
        counts = args.at_once or [10, 50, 100, MAX_GAMES]
        app.state.store.max_games = max(MAX_GAMES, *counts)
        at_once(base, app, counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
