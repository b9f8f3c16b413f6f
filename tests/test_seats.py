"""Programs at a seat (issue 20, part 2): `exec:` strategies speak JSON lines (docs/seats.md)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney import seats
from easymoney.strategies import available_strategies, make_strategy
from easymoney.engine.actions import ActionRange
from easymoney.engine.game import Game
from easymoney.errors import UsageError
from easymoney.loading.loader import load_variant

from cli_helpers import cli, one_line_error
from processes import running, wait_for

ROOT = Path(__file__).resolve().parent.parent
RANDOM_AGENT = ROOT / "examples" / "agents" / "random_agent.py"
BAD_AGENT = Path(__file__).resolve().parent / "data" / "seats" / "bad_agent.py"
PY = sys.executable


def seat(path: Path, *args: str, options: str = "") -> str:
    command = " ".join([PY, str(path), *args])
    return f'exec:"{command}"{options}'


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Every program a test starts; each must have been waited for, and is killed regardless."""
    procs: list[subprocess.Popen[bytes]] = []
    real = seats.Program.__init__

    def record(self: seats.Program, spec: seats.SeatSpec) -> None:
        real(self, spec)
        procs.append(self.proc)

    monkeypatch.setattr(seats.Program, "__init__", record)
    monkeypatch.setattr(seats, "_STARTED", set())
    try:
        yield procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def all_reaped(procs: list[subprocess.Popen[bytes]]) -> bool:
    return bool(procs) and all(p.returncode is not None for p in procs)


def script(tmp_path: Path, players: str, seed: int = 4) -> str:
    path = tmp_path / "seats.game"
    path.write_text(f"variant standard\nplayers {players}\nseed {seed}\nautoplay\n", encoding="utf-8")
    return str(path)


# --- the spec ------------------------------------------------------------------------------

def test_spec_parses_the_command_and_its_options() -> None:
    spec = seats.parse_spec('exec:"python my bot.py --fast":timeout=2.5:on_error=resign',
                            available_strategies())
    assert spec.argv == ("python", "my", "bot.py", "--fast")
    assert (spec.timeout, spec.on_error) == (2.5, "resign")
    bare = seats.parse_spec("exec:./bot", available_strategies())
    assert bare.argv == ("./bot",) and bare.timeout == seats.DEFAULT_TIMEOUT
    assert bare.on_error == seats.DEFAULT_FALLBACK


@pytest.mark.parametrize("text, words", [
    ('exec:"python x', "expected exec:"),
    ('exec:""', "the command is empty"),
    ('exec:"python x.py":timeout=0', "timeout='0'"),
    ('exec:"python x.py":timeout=soon', "timeout='soon'"),
    ('exec:"python x.py":on_error=cautios', "did you mean 'cautious'"),
    ('exec:"python x.py":tmeout=2', "did you mean 'timeout'"),
    ("exec:\"python 'x.py\"", "does not split"),
])
def test_a_malformed_seat_spec_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(UsageError, match="seat ") as info:
        seats.parse_spec(text, available_strategies())
    assert words in info.value.message


def test_strategies_split_on_commas_outside_quotes() -> None:
    assert seats.split_strategies('cautious,exec:"a b,c":timeout=1,greedy') == [
        "cautious", 'exec:"a b,c":timeout=1', "greedy"]


# --- a whole game with the example agent ------------------------------------------------------

def test_random_agent_plays_a_whole_game_from_a_script(tmp_path: Path, capsys: Any,
                                                      started: list[Any]) -> None:
    """Issue 20 case: `players Ann:exec:... Bob:cautious` plays the example agent to the end."""
    code, out, err = cli(capsys, "play", script(tmp_path, f"Ann:{seat(RANDOM_AGENT)} Bob:cautious"))
    assert code == 0, err
    assert "Game over" in out and "seat_failed" not in out and "program" not in out
    assert all_reaped(started)  # the start-up check's program and the game's


def test_random_agent_plays_in_simulate_with_workers(capsys: Any, started: list[Any]) -> None:
    """Issue 20 case: simulate --workers starts the program in the workers; the batch ends."""
    spec = seat(RANDOM_AGENT)
    code, out, err = cli(capsys, "simulate", "--games", "4", "--players", "2", "--workers", "2",
                         "--strategies", f"{spec},cautious")
    assert code == 0, err
    assert f"P1 {spec}" in out and "failed" not in out
    assert all_reaped(started)


def test_random_agent_plays_in_compare_and_sweep(capsys: Any, started: list[Any]) -> None:
    spec = seat(RANDOM_AGENT)
    code, out, err = cli(capsys, "compare", "standard", "standard@end.max_turns=50", "--games", "2",
                         "--players", "2", "--strategies", f"cautious,{spec}")
    assert code == 0, err
    code, out, err = cli(capsys, "sweep", "standard", "--vary", "end.max_turns=40,60",
                         "--games", "2", "--players", "2", "--strategies", f"{spec},greedy")
    assert code == 0, err
    assert all_reaped(started)


def test_the_program_hears_the_protocol(tmp_path: Path, started: list[Any]) -> None:
    """The hello names protocol 1, the seat and the players; each decision carries the state,
    the request and the legal actions as script lines (ranges with least, most and step)."""
    log = tmp_path / "heard.jsonl"
    agent = tmp_path / "tee_agent.py"
    agent.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello': print(json.dumps({'ready': True}), flush=True)\n"
        "    elif m['type'] == 'decide': print(json.dumps({'line': m['actions'][-1]['line'].replace('N', str(m['actions'][-1].get('least')))}), flush=True)\n",
        encoding="utf-8")
    strategy = make_strategy(seat(agent))
    game = Game(load_variant("standard"), [("Ann", strategy.name), ("Bob", "cautious")],
                _Decider({"Ann": strategy, "Bob": make_strategy("cautious")}), seed=3)
    try:
        game.setup()
        game.play(max_turns=30)
    finally:
        seats.close_strategies([strategy])
    heard = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    hellos = [m for m in heard if m["type"] == "hello" and not m.get("check")]
    assert hellos[0]["protocol"] == 1 and hellos[0]["seat"] == "Ann"
    assert hellos[0]["players"] == ["Ann", "Bob"] and hellos[0]["variant"] == "standard"
    decides = [m for m in heard if m["type"] == "decide"]
    assert decides and all(m["request"]["player"] == "Ann" for m in decides)
    first = decides[0]
    assert first["request"]["kind"] in ("window_before", "window_after", "buy", "bid", "raise")
    # a window whose one legal line closes it (the throw, the end of the turn) is not sent
    # (issue 37): this program, which answers the last line (it declines, passes), owns
    # nothing and is never asked a window
    assert all(len(m["actions"]) > 1 for m in decides if m["request"]["kind"].startswith("window"))
    assert {"cash", "position", "cards"} <= first["state"]["players"][0].keys()
    assert {"owners", "houses", "mortgaged", "pots", "turn"} <= first["state"].keys()
    ranges = [a for m in decides for a in m["actions"] if "least" in a]
    assert ranges and all("N" in a["line"] and a["step"] >= 1 for a in ranges)
    assert heard[-1]["type"] == "bye"
    assert all_reaped(started)


def test_issue28_case25_the_protocol_lists_each_request_kind_and_its_lines() -> None:
    """docs/seats.md named two lines (`Ann bids N`, `Ann passes`), and a program that looked
    for `buys "..."` never bought (a buy line names no space): its table of requests has a
    row for each kind the built-in rules ask, and shows each built-in action's line."""
    from easymoney.engine import actions
    from easymoney.engine.deals import ANSWERS
    from easymoney.engine.game import ruleset_for
    from easymoney.loading.loader import builtin_names
    text = (ROOT / "docs" / "seats.md").read_text(encoding="utf-8")
    table = text.split("### The lines of each request", 1)[1].split("\n#", 1)[0]
    types = {t for name in builtin_names() for t in ruleset_for(load_variant(name)).action_owner
             if t.__module__.startswith("easymoney.")} | set(ANSWERS)
    kinds = [k for k, words in actions._REQUEST_WORDS.items()  # the built-in rules are loaded
             if words.__module__.startswith("easymoney.")]
    assert {"window_before", "window_after", "buy", "bid", "raise", "agree"} <= set(kinds)
    missing = [k for k in kinds if f"| `{k}` |" not in table]
    lines = [f"`P1 {t.WORDS[0] if t.WORDS else t.verb + 's'}" for t in types]
    missing += [line for line in lines if line not in table]
    assert missing == []
    assert "`P1 buys`" in table and "names no space" in table


def test_issue28_case25_seat_examples_say_how_many_players_and_games() -> None:
    """The docs' examples of a program at a seat read as two-player games, but `--players`
    defaults to 4 (strategies cycle: `exec:...,cautious` seats the program twice), and the
    README tour's line played 1,000 games, minutes with no word on a pipe: every example
    that seats a program in simulate, compare or sweep says --players, and the tour's says
    --games."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "examples" / "agents").glob("*.py"))]
    examples = [(page.name, line.strip()) for page in pages
                for line in page.read_text(encoding="utf-8").splitlines()
                if "exec:" in line and re.search(r"easymoney (simulate|compare|sweep) ", line)]
    assert len(examples) >= 4
    assert [e for e in examples if "--players " not in e[1]] == []
    tour = [line for page, line in examples if page == "README.md"]
    assert tour and all("--games " in line for line in tour)


class _Decider:
    def __init__(self, strategies: dict[str, Any]) -> None:
        self.strategies = strategies

    def decide(self, game: Any, request: Any) -> Any:
        return self.strategies[request.player.name].decide(game, request)

    def refused(self, game: Any, request: Any, action: Any, refusals: Any) -> None:
        raise AssertionError(f"{action} refused: {refusals}")

    def choose_card(self, game: Any, player: Any) -> None:
        return None


# --- programs that fail ---------------------------------------------------------------------

@pytest.mark.parametrize("mode, problem", [
    ("slow", "timeout"), ("crash", "crash"), ("garbage", "garbage"), ("illegal", "illegal"),
    ("badindex", "illegal"),
])
def test_a_failing_program_is_named_and_its_seat_falls_back(tmp_path: Path, capsys: Any,
                                                            started: list[Any], mode: str,
                                                            problem: str) -> None:
    """Issue 20 case: slow, crashing, garbage and illegal answers are named in the transcript,
    the program is stopped, and the seat plays its fallback (cautious) to the end."""
    spec = seat(BAD_AGENT, mode, options=":timeout=0.5")
    code, out, err = cli(capsys, "play", script(tmp_path, f"Ann:{spec} Bob:cautious"))
    assert code == 0, err
    said = [line for line in out.splitlines() if "program" in line]
    assert len(said) == 1, out
    assert said[0].startswith(f"Ann's program {spec} failed ({problem}: ")
    assert said[0].endswith("Ann plays cautious from here")
    assert "Game over" in out
    assert all_reaped(started)


def test_a_crash_says_what_the_program_said(tmp_path: Path, capsys: Any, started: list[Any]) -> None:
    code, out, err = cli(capsys, "play", script(tmp_path, f"Ann:{seat(BAD_AGENT, 'crash')} Bob:cautious"))
    assert code == 0, err
    assert "exited with status 3 (boom)" in out


@pytest.mark.parametrize("mode", ["huge", "hugeindex"])
def test_issue28_case14_a_5000_digit_amount_is_illegal_and_the_batch_goes_on(
        capsys: Any, started: list[Any], mode: str) -> None:
    """An amount of 5,000 digits (past what int() reads) in a line or beside an index used to
    end the batch, blaming the auction rule: it is `illegal`, the seat plays its fallback."""
    spec = seat(BAD_AGENT, mode)
    code, out, err = cli(capsys, "simulate", "--games", "2", "--players", "2", "--workers", "1",
                         "--strategies", f"{spec},cautious")
    assert code == 0, err
    assert f"  P1 {spec}: illegal in 2 games" in out
    assert all_reaped(started)


DIGITS = "9" * 5000  # past the 4,300 digits int() reads from text


@pytest.mark.parametrize("form, problem, words", [
    ("line", "illegal", "an amount of 5,000 digits"),
    ("index and amount", "illegal", "an amount of 5,000 digits"),
    ("index", "illegal", "an index of 5,000 digits"),
    ("nested", "garbage", "nested too deep"),
])
def test_issue28_case14_an_answer_past_what_python_reads_is_a_seat_failure(
        form: str, problem: str, words: str) -> None:
    """Numbers int() will not read and JSON nested past the recursion limit are the
    program's failure, not an exception out of the rule that asked; the answer is not
    echoed whole."""
    legal, i, found = first_range()
    answer = {"line": json.dumps({"line": found.line("N").replace("N", DIGITS)}),
              "index and amount": '{"index": %d, "amount": %s}' % (i, DIGITS),
              "index": '{"index": %s}' % DIGITS,
              "nested": "[" * 100_000 + "]" * 100_000}[form]
    with pytest.raises(seats.SeatFailure) as info:
        seats.read_answer(answer, legal)
    assert info.value.problem == problem and words in info.value.detail, info.value.detail
    assert len(str(info.value)) < 300


def big_board(folder: Path) -> Path:
    """The standard variant with 900 more spaces: its hello is more than a pipe holds."""
    text = (ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8")
    head, deck, tail = text.partition("deck:\n")
    lots = "".join(f"    - {{name: Empty Lot Number {k}, kind: plain}}\n" for k in range(900))
    path = folder / "big.yaml"
    path.write_text(head.replace("name: standard", "name: big") + lots + deck + tail,
                    encoding="utf-8")
    return path


def test_issue28_case13_a_seat_program_that_never_reads_times_out(
        tmp_path: Path, capsys: Any, started: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A program that answers the start-up check but never reads used to block the batch for
    ever on a hello bigger than the pipe (`timeout=` never fired): writing is bounded by the
    same deadline, and a program that does not take its input is a `timeout`."""
    monkeypatch.setattr(seats, "HELLO_TIMEOUT", 1.0)  # the wait for a hello, shortened
    spec = seat(BAD_AGENT, "deaf", options=":timeout=1")
    begun = time.monotonic()
    # --game-timeout: without the fix the game stops there instead of hanging the test
    code, out, err = cli(capsys, "simulate", str(big_board(tmp_path)), "--games", "1",
                         "--players", "2", "--workers", "1", "--max-turns", "30",
                         "--game-timeout", "30", "--strategies", f"{spec},cautious")
    assert code == 0, err
    assert f"  P1 {spec}: timeout in 1 game" in out
    assert time.monotonic() - begun < 20
    assert all_reaped(started)


def test_issue28_case13_a_message_the_program_does_not_take_is_a_timeout(
        started: list[Any]) -> None:
    program = seats.Program(seats.parse_spec(seat(BAD_AGENT, "deaf", options=":timeout=0.5"),
                                             available_strategies()))
    try:
        assert program.read(5) == '{"ready": true}'
        begun = time.monotonic()
        with pytest.raises(seats.SeatFailure) as info:
            program.ask({"type": "decide", "padding": "x" * (1 << 20)}, 0.5)
        assert info.value.problem == "timeout" and "did not take its input" in info.value.detail
        assert time.monotonic() - begun < 3
    finally:
        program.close(polite=True)  # bye is written within a deadline too: it returns
    assert all_reaped(started)


def test_issue28_case13_a_program_that_closes_its_output_and_stays_is_a_crash(
        tmp_path: Path, capsys: Any, started: list[Any]) -> None:
    """A program that closed its output but did not exit was waited for without a limit."""
    spec = seat(BAD_AGENT, "shut", options=":timeout=1")
    begun = time.monotonic()
    code, out, err = cli(capsys, "simulate", "--games", "1", "--players", "2", "--workers", "1",
                         "--max-turns", "30", "--game-timeout", "30",
                         "--strategies", f"{spec},cautious")
    assert code == 0, err
    assert f"  P1 {spec}: crash in 1 game" in out
    assert time.monotonic() - begun < 20
    assert all_reaped(started)


def test_issue28_case15_what_a_seat_program_starts_ends_with_it(
        tmp_path: Path, capsys: Any, started: list[Any]) -> None:
    """A program's own children used to outlive the game and the batch: each program runs in
    a process group of its own, and the group is ended with it."""
    pids = tmp_path / "pids"
    spec = seat(BAD_AGENT, "spawn", str(pids))
    code, out, err = cli(capsys, "simulate", "--games", "2", "--players", "2", "--workers", "1",
                         "--max-turns", "20", "--strategies", f"{spec},cautious")
    assert code == 0, err
    assert "failed" not in out
    spawned = [int(line) for line in pids.read_text().split()]
    assert len(spawned) == 3  # the start-up check's program, and one a game
    try:
        wait_for(lambda: not any(running(pid) for pid in spawned), "the programs' children",
                 timeout=10)
    finally:
        for pid in spawned:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert all_reaped(started)


def test_on_error_resign_gives_up_the_game(tmp_path: Path, capsys: Any, started: list[Any]) -> None:
    """on_error=resign: the seat passes, declines, ends its turns and goes bankrupt when it owes."""
    spec = seat(BAD_AGENT, "garbage", options=":on_error=resign")
    code, out, err = cli(capsys, "play", script(tmp_path, f"Ann:{spec} Bob:cautious"))
    assert code == 0, err
    assert "Ann plays resign from here" in out
    assert "Ann buys" not in out and "Ann bids" not in out
    assert "Winner: Bob" in out
    assert all_reaped(started)


def test_failures_are_counted_in_the_results_and_the_batch_goes_on(capsys: Any,
                                                                   started: list[Any]) -> None:
    spec = seat(BAD_AGENT, "illegal")
    code, out, err = cli(capsys, "simulate", "--games", "3", "--players", "2",
                         "--strategies", f"{spec},cautious")
    assert code == 0, err
    assert "Seat programs that failed:" in out
    assert f"  P1 {spec}: illegal in 3 games" in out
    code, out, err = cli(capsys, "simulate", "--games", "2", "--players", "2", "--json",
                         "--strategies", f"{spec},cautious")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["seat_failures"] == [{"seat": "P1", "strategy": spec, "problem": "illegal",
                                         "games": 2}]
    assert all_reaped(started)


def test_results_without_programs_name_no_failures(capsys: Any) -> None:
    code, out, err = cli(capsys, "simulate", "--games", "2", "--players", "2", "--json")
    assert code == 0, err
    assert "seat_failures" not in json.loads(out)


# --- programs that cannot start -------------------------------------------------------------

def test_a_missing_program_file_is_one_error_before_any_game(tmp_path: Path, capsys: Any,
                                                            started: list[Any]) -> None:
    out_dir = tmp_path / "records"
    code, out, err = cli(capsys, "simulate", "--games", "2", "--record-dir", str(out_dir),
                         "--strategies", seat(tmp_path / "missing.py"))
    assert code == 2
    line = one_line_error(err)
    assert "the program did not answer the hello" in line and "missing.py" in line
    assert not out_dir.exists() and out == ""
    assert all_reaped(started)


NODE_MISSING_MODULE = """node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/opt/bot/nothere.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
"""
PYTHON_TRACEBACK_THEN_A_WORD = """starting bot 1.0
Traceback (most recent call last):
  File "/opt/bot/bot.py", line 3, in <module>
    import ErrorHandlers
ModuleNotFoundError: No module named 'ErrorHandlers'
bot 1.0 stopped
"""


@pytest.mark.parametrize("said, quoted", [
    (NODE_MISSING_MODULE, "(Error: Cannot find module '/opt/bot/nothere.js')"),
    (PYTHON_TRACEBACK_THEN_A_WORD, "(ModuleNotFoundError: No module named 'ErrorHandlers')"),
    ("just one line\n", "(just one line)"),
])
def test_issue28_case25_a_program_that_fails_at_start_is_quoted_by_its_error(
        tmp_path: Path, capsys: Any, started: list[Any], said: str, quoted: str) -> None:
    """A program that fails at start used to be quoted by its last line of standard error
    (node's version banner): the error line is quoted, a traceback's last line, else the
    first line that looks like an error, else the last line."""
    failing = tmp_path / "failing.py"
    failing.write_text(f"import sys\nsys.stderr.write({said!r})\nsys.exit(1)\n",
                       encoding="utf-8")
    code, out, err = cli(capsys, "simulate", "--games", "1", "--strategies", seat(failing))
    assert code == 2
    line = one_line_error(err)
    assert line.endswith(f"the program exited with status 1 {quoted}"), line
    assert all_reaped(started)


def test_a_missing_program_is_one_error(capsys: Any) -> None:
    code, out, err = cli(capsys, "simulate", "--games", "2", "--strategies", "exec:no-such-agent-here")
    assert code == 2
    assert "cannot start 'no-such-agent-here'" in one_line_error(err)


def test_a_bad_seat_in_a_script_is_located(tmp_path: Path, capsys: Any) -> None:
    path = script(tmp_path, 'Ann:exec:"python x.py":speed=9 Bob')
    code, out, err = cli(capsys, "play", path)
    assert code == 2
    assert err.startswith(f"{path}:2:") and "unknown option 'speed'" in err
    assert len(err.strip().splitlines()) <= 3  # the located line, the line quoted, a caret


def first_range() -> tuple[list[Any], int, ActionRange]:
    """The legal actions at the first decision of a seeded game that has an amount, the
    index of its first range, and the range."""
    from easymoney import new_game
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    while not any(isinstance(a, ActionRange) for a in state.legal_actions()):
        state.apply(state.legal_actions()[-1])
    legal = state.legal_actions()
    i, found = next((i, a) for i, a in enumerate(legal) if isinstance(a, ActionRange))
    assert isinstance(found, ActionRange)
    return legal, i, found


def test_a_range_is_answered_by_line_or_by_index() -> None:
    legal, i, found = first_range()
    amount = found.least + found.step
    by_line = seats.read_answer(json.dumps({"line": found.line("N").replace("N", str(amount))}), legal)
    by_index = seats.read_answer(json.dumps({"index": i, "amount": amount}), legal)
    assert by_line == by_index == found.at(amount)
    with pytest.raises(seats.SeatFailure, match="illegal"):
        seats.read_answer(json.dumps({"index": i, "amount": found.least + 1}), legal)


def test_a_program_plays_at_the_prompt(monkeypatch: pytest.MonkeyPatch, started: list[Any]) -> None:
    """Issue 20 case: `play --interactive` asks a program seat through its strategy, and
    closes the program when the session ends."""
    from prompt_helpers import play_lines
    status, said = play_lines(monkeypatch, ["quit"], "--players", f"Ann:{seat(RANDOM_AGENT)}",
                              "Pat", "--seed", "3")
    assert status == 0, said
    assert "Turn 1: Ann" in said and "Ann rolls" in said and "program" not in said
    assert all_reaped(started)


# --- protocol 2: the engine's one view of a decision (issue 29, part 5) ----------------------

RANDOM_AGENT_V2 = ROOT / "examples" / "agents" / "random_agent_v2.py"
RECORDER = """
import json, sys
heard = open(sys.argv[1], "a")
for line in sys.stdin:
    message = json.loads(line)
    heard.write(line)
    heard.flush()
    if message["type"] == "hello":
        print(json.dumps({"ready": True, "protocol": %s}), flush=True)
    elif message["type"] == "decide":
        listed = message.get("legal") or message["actions"]
        first = listed[0]
        print(json.dumps({"index": 0, "amount": first.get("least")}), flush=True)
"""


def recorder(tmp_path: Path, protocol: int) -> tuple[str, Path]:
    program, heard = tmp_path / f"recorder{protocol}.py", tmp_path / f"heard{protocol}.jsonl"
    program.write_text(RECORDER % protocol, encoding="utf-8")
    return seat(program, str(heard)), heard


def test_protocol_2_agent_plays_a_whole_game_from_a_script(tmp_path: Path, capsys: Any,
                                                          started: list[Any]) -> None:
    code, out, err = cli(capsys, "play", script(tmp_path, f"Ann:{seat(RANDOM_AGENT_V2)} Bob:cautious"))
    assert code == 0, err
    assert "Game over" in out and "seat_failed" not in out and "program" not in out
    assert all_reaped(started)


def test_a_program_choosing_protocol_2_hears_the_view_and_answers_by_index(
        tmp_path: Path, capsys: Any, started: list[Any]) -> None:
    from easymoney import new_game
    from easymoney.view import decision_view
    spec, heard = recorder(tmp_path, 2)
    code, out, err = cli(capsys, "simulate", "--games", "1", "--players", "2", "--workers", "1",
                         "--max-turns", "30", "--strategies", f"{spec},cautious")
    assert code == 0 and "failed" not in out, (out, err)
    messages = [json.loads(line) for line in heard.read_text(encoding="utf-8").splitlines()]
    hellos = [m for m in messages if m["type"] == "hello"]
    assert hellos and all(h["protocols"] == [1, 2] and h["protocol"] == 1 for h in hellos)
    decides = [m for m in messages if m["type"] == "decide"]
    assert decides
    kinds = set()
    for m in decides:
        assert set(m) == {"type", "state", "request", "legal", "me"} and m["me"] == "P1"
        kinds.add(m["request"]["kind"])
    # the fields are the view's, each spelt as decision_view spells it
    view = json.loads(json.dumps(decision_view(new_game("standard", ["P1", "P2"], 1).game)))
    assert set(decides[0]["state"]) == set(view["state"])
    assert set(decides[0]["request"]) == set(view["request"])
    # a one-word answer's fields (the view's first is the throw's): the first decision
    # heard is no lone window now (issue 37), and may list a range first
    one_word = next(e for m in decides for e in m["legal"] if "least" not in e)
    assert set(one_word) == set(view["legal"][0])
    assert "window_before" in kinds


def test_a_program_that_chooses_no_version_hears_protocol_1(tmp_path: Path, capsys: Any,
                                                          started: list[Any]) -> None:
    spec, heard = recorder(tmp_path, 1)
    code, out, err = cli(capsys, "simulate", "--games", "1", "--players", "2", "--workers", "1",
                         "--max-turns", "5", "--strategies", f"{spec},cautious")
    assert code == 0 and "failed" not in out, (out, err)
    decide = next(json.loads(line) for line in heard.read_text(encoding="utf-8").splitlines()
                  if json.loads(line)["type"] == "decide")
    assert set(decide) == {"type", "request", "state", "actions"}
    assert isinstance(decide["state"]["owners"], list)


def test_a_program_choosing_a_protocol_not_offered_fails_the_start_up_check(
        tmp_path: Path, capsys: Any, started: list[Any]) -> None:
    spec, _ = recorder(tmp_path, 3)
    code, out, err = cli(capsys, "simulate", "--games", "1", "--players", "2",
                         "--strategies", f"{spec},cautious")
    assert code == 2
    line = one_line_error(err)
    assert "did not answer the hello" in line and '"protocol": one of 1, 2' in line, line
