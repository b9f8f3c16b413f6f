"""`easymoney play --interactive`: played through a real pseudo-terminal (pexpect), as a person would."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from processes import default_signals

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("prompt_toolkit")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
ASKS = r"waits for Ann to (roll|buy|bid|build|raise)"


def spawn(*args: str, cwd: Path | None = None) -> "pexpect.spawn":
    # no cursor-position requests: a pseudo-terminal without a terminal behind it never answers
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
    return pexpect.spawn(sys.executable, ["-m", "easymoney", "play", "--interactive", *args],
                         env=env, encoding="utf-8", timeout=30, dimensions=(60, 200),
                         cwd=str(cwd) if cwd else None,
                         # Ctrl-C reaches it even when pytest runs in the background, where
                         # SIGINT is ignored and exec keeps that (issue 19 case 26)
                         preexec_fn=default_signals)


def plain(text: str) -> str:
    return ANSI.sub("", text)


def prompt(child: "pexpect.spawn", name: str | None = "Ann") -> None:
    """Wait for the prompt (None: anyone's), drawn to its end (the cursor shown again):
    typing before that could be lost while the terminal is switched to raw mode."""
    child.expect(r"\w*>" if name is None else re.escape(name) + ">")
    child.expect(re.escape("\x1b[?25h"))


def answer(child: "pexpect.spawn", line: str) -> None:
    prompt(child)
    child.send(line + "\r")


def complete(child: "pexpect.spawn", start: str) -> None:
    """Type `start`, then Tab (the terminal redraws only what changed: the completed word
    is seen in what the game then says)."""
    child.send(start)
    time.sleep(0.5)
    child.send("\t")
    time.sleep(0.5)


def leave(child: "pexpect.spawn", name: str | None = "Ann") -> int:
    """Ctrl-D at the next prompt; the exit status."""
    prompt(child, name)
    child.sendcontrol("d")
    return finish(child)


def finish(child: "pexpect.spawn") -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_a_whole_short_game_against_two_bots():
    child = spawn("--seed", "11", "--players", "Ann", "Bob:greedy", "Cat:cautious",
                  "--option", "end.max_turns=9")
    seen = ""
    for _ in range(200):
        i = child.expect([ASKS, "Game over"])
        seen += plain(child.before)
        if i == 1:
            break
        kind = child.match.group(1)
        answer(child, {"roll": "rolls", "buy": "buys", "bid": "passes", "build": "ends turn",
                       "raise": "goes bankrupt"}[kind])
    else:
        pytest.fail("the game never ended")
    child.expect("The game is over")
    seen += plain(child.before)
    prompt(child, "")
    child.send("status\r")
    child.expect("Cat \\(cautious bot\\): cash")
    assert leave(child, "") == 0
    # the bots' moves are shown as the transcript shows them
    assert "Turn 2: Bob" in seen and "Bob rolls" in seen and "Turn 3: Cat" in seen
    assert "Ann rolls" in seen
    assert "Traceback" not in seen


def test_a_refused_answer_is_explained_and_asked_again_and_changes_nothing():
    child = spawn("--seed", "3", "--players", "Ann", "Bob:greedy", "--choose-dice")
    answer(child, "?")
    child.expect("Ann may answer:")
    child.expect("rolls ")
    answer(child, "buys")  # the game waits for a roll
    child.expect("refused: Ann buys: the game waits for Ann to roll")
    child.expect("Nothing changed")
    answer(child, "rolls 3 4")
    answer(child, "buys")
    child.expect("Ann buys Dover Street")
    answer(child, 'builds on "Waldorf Hotel"')  # a rule says no: named with its rule
    child.expect("refused: Ann cannot build a house on Waldorf Hotel: R17 building")
    answer(child, "status")
    child.expect("Ann: cash \\$19,300")
    assert leave(child) == 0


def test_tab_completes_statement_words_space_names_and_player_names():
    """Issue 17: Tab completes the legal lines word by word (verbs, spaces, players)."""
    child = spawn("--seed", "3", "--players", "Ann", "Bob:greedy", "--choose-dice")
    answer(child, "rolls 3 4")
    child.expect("waits for Ann to buy")
    prompt(child)
    complete(child, "bu")  # a statement word
    child.send("\r")
    child.expect("Ann buys Dover Street")
    child.expect("waits for Ann to build")
    prompt(child)
    complete(child, 'sells "Dov')  # a space name
    complete(child, " to B")                  # a player name
    child.send(" for 20000\r")
    child.expect("Bob rejects Ann's offer to sell Dover Street to Bob for \\$20,000")
    assert leave(child) == 0


def test_save_writes_a_script_that_play_replays_to_the_same_transcript(tmp_path):
    child = spawn("--seed", "5", "--players", "Ann", "Bob:greedy", "Cat:random", cwd=tmp_path)
    child.logfile_read = shown = io.StringIO()
    for _ in range(40):
        i = child.expect([ASKS, "Turn 5: "])
        if i == 1:
            break
        kind = child.match.group(1)
        answer(child, {"roll": "rolls", "buy": "buys", "bid": "passes", "build": "ends turn",
                       "raise": "goes bankrupt"}[kind])
    answer(child, "save saved.game")
    child.expect("Saved the game to saved.game")
    assert leave(child) == 0
    replay = subprocess.run([sys.executable, "-m", "easymoney", "play", "saved.game"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert replay.returncode == 0, replay.stderr
    events = replay.stdout.split("\nThe script ends here")[0].splitlines()
    said = iter(plain(shown.getvalue()).split("\n"))
    assert all(line in said for line in events)  # in the same order, each once
    assert "Turn 3: Cat" in events and "Turn 5: Bob" in events


def test_undo_takes_back_the_last_decision_and_keeps_the_dice():
    child = spawn("--seed", "1", "--players", "Ann", "Bob:greedy")
    answer(child, "rolls")  # random dice: 3 + 4 with this seed, to Dover Street
    child.expect(r"Ann rolls (\d) \+ (\d)")
    dice = child.match.group(0)
    answer(child, "buys")
    child.expect("Ann buys")
    answer(child, "ends turn")
    child.expect("Turn 3: Ann")
    answer(child, "undo")
    child.expect("Taking back `Ann ends turn`")
    answer(child, "undo")
    child.expect("Taking back `Ann buys`")
    child.expect("waits for Ann to buy")
    answer(child, "status")
    child.expect(r"Ann: cash \$20,000")
    answer(child, "history 3")
    child.expect(re.escape(dice))  # the throw already seen stays as it was
    child.send("declines\r")
    child.expect("Ann declines")
    assert leave(child) == 0


def test_ctrl_c_ends_the_game_cleanly_and_writes_the_record(tmp_path):
    child = spawn("--seed", "3", "--players", "Ann", "Bob:greedy", "--record", "out.game",
                  "--choose-dice", cwd=tmp_path)
    answer(child, "rolls 3 4")
    child.expect("waits for Ann to buy")
    prompt(child)
    child.sendcontrol("c")
    child.expect("Interrupted: Ann leaves the game in turn 1")
    child.expect(pexpect.EOF)
    assert "Traceback" not in child.before
    child.close()
    assert child.exitstatus == 130
    assert "Ann rolls 3 4" in (tmp_path / "out.game").read_text()


def test_a_script_is_played_first_then_the_prompt_goes_on_from_where_it_ends(tmp_path):
    script = tmp_path / "start.game"
    script.write_text("players Ann Bob\nseed 1\nAnn rolls 3 4\n")
    child = spawn(str(script))
    child.expect("Ann moves to Dover Street")
    child.expect("waits for Ann to buy Dover Street or decline")
    answer(child, "buys")
    child.expect("Ann buys Dover Street")
    answer(child, "ends turn")
    child.expect("waits for Bob to roll")  # Bob has no strategy: a person too
    prompt(child, "Bob")
    child.send("rolls\r")
    child.expect("Bob rolls \\d \\+ \\d")
    assert leave(child, None) == 0


# --- without a terminal: the same session reads plain lines (in-process, quick) -------------

def play_piped(monkeypatch, capsys, lines: str, *argv: str) -> tuple[int, str, str]:
    import io as _io
    from easymoney.cli import main
    monkeypatch.setattr(sys, "stdin", _io.StringIO(lines))
    status = main(["play", "--interactive", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("argv, message", [
    (["--variant", "nosuch"], "error: --variant: unknown variant 'nosuch'"),
    (["--players", "Ann", "1x"], "error: --players: expected a player name or the end of the "
                                 "line, found '1x'"),
    (["--players", "Ann", "Bob:nosuch"], "error: --players: unknown strategy 'nosuch'"),
    (["--json"], "error: --interactive plays at the prompt: it takes no --json or --quiet"),
])
def test_a_bad_new_game_is_one_error_naming_the_option(monkeypatch, capsys, argv, message):
    status, out, err = play_piped(monkeypatch, capsys, "quit\n", *argv)
    assert status == 2 and err.startswith(message) and len(err.splitlines()) == 1
    assert out == "" or out.startswith('{"event": "error"')  # with --json, in JSON too


def test_piped_answers_play_the_game_and_refusals_change_nothing(monkeypatch, capsys):
    status, out, err = play_piped(monkeypatch, capsys,
                                  "rolls 3 4\nbids 100\nbuys\nstatus\nquit\n",
                                  "--seed", "3", "--players", "Ann", "Bob:greedy",
                                  "--choose-dice")
    assert status == 0 and err == ""
    assert ("Ann> bids 100\nrefused: Ann bids 100: the game waits for Ann to buy Dover Street "
            "or decline\n") in out
    assert "Ann buys Dover Street for $700" in out
    assert "Ann: cash $19,300, worth $20,000 (rank 1), on 7 Dover Street" in out
    assert out.rstrip().endswith("Leader: Ann") or "Leaders:" in out
