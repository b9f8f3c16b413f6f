"""Issue 39, items 13-17: the plugin API's attacks and gaps of round 5.

13. derived candidates that cannot be listed are refused at load; a stop while listing
    blames the plugin whose candidates are listed;
14. a plugin's `str` field holding a quote or a line break is one error wherever a line is
    written, never a line injected into a script;
15. a plugin's own dice go through `game.chance(...)`, recorded and replayed whatever the seed;
16. `em_worth_adjustments`: rules add to or take from a player's R28 worth, and compose;
17. a `raises_money` action answers a debt by its trait alone (`RAISE`), and the debt's
    words name the ways the rules on offer allow.

The plugins are stand-ins (tests/stand_in_plugins.py), installed for one test only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.errors import PluginError
from easymoney.script.table import new_game

from cli_helpers import cli, one_line_error
from stand_in_plugins import stand_in


# --- 14: a text field that would inject a line -------------------------------------------------

CHATTER = '''
"""House rule: a player may say something in the window."""
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player

PLUGIN_ID = "chatter"
SAID = 'hi"\\nAnn rolls'


@dataclass(slots=True)
class Say(Action):
    LINE = "{player} says {words}"
    ASKED_BY = WINDOW_KINDS
    player: Player
    words: str
    verb = "say"
    window = True

    def apply(self, game):
        pass

    @classmethod
    def candidates(cls, game, request):
        yield cls(request.player, SAID)

    def value(self, game, player):
        return 1 if game.turns_played < 2 else 0


ACTIONS = (Say,)
'''

INJECTED = ("plugin 'chatter' cannot write its action Say as a script line: its field words "
            "is 'hi\"\\nAnn rolls', which a line cannot quote: it holds a double quote; keep "
            "quotes and line breaks out of it (refuse such a value in the action's refusals)")


@pytest.fixture
def chatter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    import sys
    with stand_in(tmp_path, monkeypatch, {"em_chatter": ("chatter", CHATTER)}):
        yield sys.modules.get("em_chatter") or __import__("em_chatter")


def test_a_text_with_a_quote_and_a_line_break_is_refused_wherever_a_line_is_written(
        chatter: Any, tmp_path: Path, capsys: Any) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["chatter"])
    state.apply(chatter.Say(state.player, chatter.SAID))
    for write in (lambda: state.history, state.script):
        with pytest.raises(PluginError) as caught:
            write()
        assert caught.value.message == INJECTED
    # a text a line can quote is written as it is
    chatter.SAID = "hi there"
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["chatter"])
    state.apply(chatter.Say(state.player, "hi there"))
    assert state.history == ['Ann says "hi there"']
    script = tmp_path / "said.game"
    script.write_text(state.script() + "Ann rolls 1 2\n", encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert (code, err) == (0, "")


def test_the_record_gives_the_same_one_line_error(chatter: Any, tmp_path: Path,
                                                  capsys: Any) -> None:
    script, record = tmp_path / "bots.game", tmp_path / "out.game"
    script.write_text("with chatter\nplayers Ann:greedy Bob:greedy\nautoplay 3 turns\n",
                      encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script), "--record", str(record))
    assert one_line_error(err) == "error: cannot record the game: " + INJECTED
    assert code == 2 and not record.exists()
