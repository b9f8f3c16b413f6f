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
5. 100 tables of 4 seats held at once, each stepping (four bots, a decision every 1 s at
   each table, a spectator's socket at each): the server's memory (VmRSS), and the answer
   time of a page (the lobby's list, a table's state, the first page) while they play.
6. A restart in the middle of those 100 tables (SIGTERM, then the server started again on
   the same file): tables lost (fewer steps than a spectator saw before the stop, or
   gone), and the time until every table is served again.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
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
    """`easymoney serve --db DB` as a process of its own, to be stopped and started again."""

    def __init__(self, db: str, port: int) -> None:
        self.db, self.port = db, port
        self.base = f"http://127.0.0.1:{port}"
        self.proc: Any = None

    def start(self) -> float:
        """Start it; the seconds until it answers."""
        import subprocess
        t0 = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, "-m", "easymoney", "serve", "--port",
                                      str(self.port), "--db", self.db, "--root", str(ROOT)],
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

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")


class Browser:
    """A browser at a table: a WebSocket client in a thread, noting when it first held each
    version of the table."""

    def __init__(self, base: str, table: str, credential: str | None = None) -> None:
        import threading

        import websocket
        self.seen: dict[int, float] = {}
        self.view: dict[str, Any] = {}
        self.ws = websocket.create_connection(
            base.replace("http", "ws") + f"/ws/tables/{table}", origin=base)
        self.ws.send(json.dumps({"since": -1, "lines": 0, "credential": credential}))
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        try:
            while True:
                view = json.loads(self.ws.recv())
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


def page_times(base: str, pages: dict[str, str], label: str) -> None:
    for what, path in pages.items():
        times = []
        for _ in range(40):
            t0 = time.perf_counter()
            with urllib.request.urlopen(base + path) as answer:
                answer.read()
            times.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.05)
        times.sort()
        print(f"{label}: {what} answered in {statistics.median(times):.1f} ms median, "
              f"{times[int(len(times) * 0.95)]:.1f} ms 95th percentile")


def tables_at_once(served: Served, count: int) -> tuple[list[str], list[Browser]]:
    base = served.base
    first = post(base, "/api/tables", {"players": "Ann Bob", "sit": "Ann", "seed": 1})["id"]
    pages = {"the lobby's list": "/api/tables", "a table's state": f"/api/tables/{first}",
             "the first page": "/"}
    page_times(base, pages, "1 table, nothing stepping (for comparison)")
    ids = [post(base, "/api/tables", {"players": "Ann:greedy Bob:cautious Cat:random Dan:greedy",
                                      "sit": "", "pace": 1000, "seed": seed})["id"]
           for seed in range(count)]
    watchers = [Browser(base, tid) for tid in ids]
    time.sleep(10)  # every table steps a while
    before = sum(w.view.get("steps", 0) for w in watchers)
    page_times(base, pages, f"{count} tables of 4 seats stepping")
    steps = sum(w.view.get("steps", 0) for w in watchers)
    print(f"{count} tables of 4 seats stepping: server memory (VmRSS) {served.rss_mb():.0f} MB; "
          f"{steps - before:,} steps played at them while the pages were asked for, "
          f"{steps:,} in all")
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


def tables(count: int) -> None:
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        served = Served(os.path.join(folder, "tables.db"), web_browser.free_port())
        served.start()
        try:
            table_clicks(served)
            ids, watchers = tables_at_once(served, count)
            tables_restart(served, ids, watchers)
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
    args = parser.parse_args()
    if args.tables:
        tables(args.tables)
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
