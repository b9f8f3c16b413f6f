"""The benchmark scripts run and print their figures (their speed is not tested: see bench/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from easymoney.commands._variant_args import INVARIANTS_ENV

BENCH = Path(__file__).resolve().parent.parent / "bench"


def run(script: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != INVARIANTS_ENV}  # the engine alone
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=300, check=False, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bench_turns_prints_both_rates_and_the_speed_up():
    out = run("bench_turns.py", "--games", "4", "--workers", "2", "--max-turns", "60")
    assert re.search(r"^1 process +4 games +[\d,]+ player-turns .* player-turns/s .* games/s$",
                     out, re.M)
    assert re.search(r"^2 workers +4 games", out, re.M)
    assert re.search(r"^speed-up +[\d.]+x with 2 workers$", out, re.M)


def test_turn_profile_counts_the_same_bytecodes_on_every_run():
    first = run("turn_profile.py", "--games", "1", "--top", "5")
    assert re.search(r"[\d,]+ bytecodes a player-turn", first)
    assert "decisions.py:ask" in first
    assert run("turn_profile.py", "--games", "1", "--top", "5") == first


def test_bench_plugins_prints_a_ratio_for_each_rule():
    out = run("bench_plugins.py", "--games", "1", "--repeat", "1", "--max-turns", "30")
    assert re.search(r"^ratio +loan: [\d.]+x as fast as without it$", out, re.M)
    assert re.search(r"^ratio +holiday: [\d.]+x as fast as without it$", out, re.M)


def test_issue38_item9_bench_web_tables_prints_each_page_with_one_table_and_n():
    root = BENCH.parent
    out = run("bench_web.py", "--tables", "2", "--parts", "pages,restart", "--rounds", "3",
              "--settle", "1", "--against", f"{root}:{sys.executable}")
    assert out.count("-- the server of ") == 2, out
    for n in ("1 table", "2 tables"):
        for page in ("the lobby's list", "a table's state", "the first page"):
            assert len(re.findall(rf"^{n} of 4 seats playing: {page} answered in [\d.]+ ms "
                                  r"median, [\d.]+ ms 95th percentile$", out, re.M)) == 2, out
        assert len(re.findall(rf"^{n} of 4 seats playing: server memory \(VmRSS\) \d+ MB; "
                              r".* the server's CPU \d+% of one core", out, re.M)) == 2, out
    assert out.count("a restart in the middle of 2 tables: 0 tables lost") == 2, out
