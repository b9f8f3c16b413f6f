"""Issue 19 cases 4 and 5: a game at the prompt left by a signal writes a record that replays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from prompt_helpers import listing, play_fed

from easymoney.interactive import session as S

pexpect = pytest.importorskip("pexpect")


def _replays(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "easymoney", "play", str(path)],
                          capture_output=True, text=True, cwd=path.parent, timeout=120)


@pytest.mark.parametrize("signum, status", [(signal.SIGHUP, 129), (signal.SIGTERM, 143)])
def test_a_hang_up_or_sigterm_writes_the_record_as_ctrl_c_does(tmp_path, signum, status):
    """Issue 19 case 4: the terminal closing (SIGHUP) or SIGTERM leaves the game with its
    record written."""
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "easymoney", "play", "-i", "--seed", "3",
                                           "--players", "Ann", "Bob:greedy", "--choose-dice",
                                           "--record", "out.game"],
                          env=env, encoding="utf-8", timeout=30, cwd=str(tmp_path))
    try:
        child.expect("Ann>")
        child.expect(r"\x1b\[\?25h")
        child.send("rolls 3 4\r")
        child.expect("waits for Ann to buy")
        child.expect("Ann>")
        child.expect(r"\x1b\[\?25h")
        child.kill(signum)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == status or child.signalstatus is None
        assert child.exitstatus == status
        record = tmp_path / "out.game"
        assert "Ann rolls 3 4" in record.read_text()
        assert _replays(record).returncode == 0
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_a_record_written_on_ctrl_c_in_the_middle_of_a_step_replays(monkeypatch, tmp_path):
    """Issue 19 case 5: Ctrl-C while a bot's throw is under way (its line written, its dice
    not yet thrown): the record ends with the last complete decision, and replays."""
    from easymoney.engine.stepping import GameState
    sent: list[object] = []
    switch = GameState._switch

    def interrupted(self: GameState, action) -> None:
        if not sent and action is not None and str(action) == "Bob rolls":
            sent.append(action)
            os.kill(os.getpid(), signal.SIGINT)  # arrives before the dice are thrown
        switch(self, action)

    monkeypatch.setattr(GameState, "_switch", interrupted)
    record = tmp_path / "cut.game"
    answers = {"n": 0}

    def pick(said: str) -> str:
        answers["n"] += 1
        if answers["n"] > 200:
            return ""
        return "?" if answers["n"] % 2 else listing(said)[0]

    status, said = play_fed(monkeypatch, pick, "--seed", "4", "--players", "Ann", "Bob:greedy",
                            "--record", str(record))
    assert sent and status == 130
    assert "Interrupted: Ann leaves the game" in said
    text = record.read_text()
    assert not text.rstrip().endswith("Bob rolls"), text[-200:]
    done = _replays(record)
    assert done.returncode == 0, done.stderr
