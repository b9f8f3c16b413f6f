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
"""

from __future__ import annotations

import argparse
import gc
import json
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--at-once", type=int, nargs="*", metavar="N",
                        help="the numbers of games held at once to time (default: 10 50 100 "
                             "MAX_GAMES); above MAX_GAMES the store's cap is raised to N")
    args = parser.parse_args()
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
