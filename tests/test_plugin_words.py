"""A plugin's words bind only where the plugin is on (issue 18; issue 19, case 9).

Third-party plugins are written here as modules in a temporary folder and found through
a stand-in for their entry points, as `easymoney` finds an installed one.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.cli import main
from easymoney.engine.registry import discover
from easymoney.errors import ScriptSyntaxError
from easymoney.script.parser import parse

from stand_in_plugins import stand_in

ROOT = Path(__file__).resolve().parent.parent


def _plugin(summary: str, base: str, name: str, grammar: str, words: str, fields: str,
            body: str = "") -> str:
    """The module of a plugin adding one statement."""
    return textwrap.dedent(f'''
        """House rule: {summary}."""
        from dataclasses import dataclass
        from easymoney import {base}

        @dataclass(frozen=True)
        class {name}({base}):
            GRAMMAR = {grammar!r}
            WORDS = {words}
        ''') + "".join(f"    {line}\n" for line in (fields + body).splitlines()) + \
        f"\nSTATEMENTS = ({name},)\n"


PLUGINS = {
    # a free-parking pot whose expectation reads `expect pot 0`: its keyword is `pot`
    "em_words_pot": _plugin("a pot in the middle of the table", "Expectation", "ExpectPot",
                            "_POT MONEY", '("pot",)', "amount: int\n", """
def __str__(self) -> str:
    return f"expect pot {self.amount}"

def check(self, script, game):
    return None if self.amount == 0 else "the pot holds $0"
"""),
    # a line that takes the place of `Ann rolls 3 4`
    "em_words_shadow": _plugin("a throw of one's own", "ActionStatement", "Throws",
                               "NAME _ROLLS INT INT", '("rolls",)',
                               "player: str\nfirst: int\nsecond: int\n"),
    # a GRAMMAR holding a line break and a directive that would hide every `expect` line
    "em_words_sneaky": _plugin("quiet expectations", "Expectation", "Quiet",
                               "_QUIET MONEY\n%ignore /expect[^\\n]*/", '("quiet",)',
                               "amount: int\n"),
}
IDS = {"em_words_pot": "pot", "em_words_shadow": "shadow", "em_words_sneaky": "sneaky"}


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The three plugins above installed (found as entry points) for this test only."""
    with stand_in(tmp_path, monkeypatch, {m: (IDS[m], text) for m, text in PLUGINS.items()}):
        yield tmp_path


def _play(tmp_path: Path, text: str, *flags: str) -> int:
    script = tmp_path / "g.game"
    script.write_text(textwrap.dedent(text), encoding="utf-8")
    return main(["play", "--quiet", *flags, str(script)])


def test_issue19_case9_statements_beyond_their_own_line_are_refused_at_load(installed: Path,
                                                                            capsys: Any) -> None:
    registry = discover()
    assert "pot" in registry.plugins
    assert "shadow" not in registry.plugins and "sneaky" not in registry.plugins
    errors = "\n".join(registry.load_errors)
    assert ("plugin shadow (entry point shadow): its statement Throws ('NAME _ROLLS INT INT') "
            "shadows the built-in line `Ann rolls") in errors
    assert ("plugin sneaky (entry point sneaky): statement Quiet: GRAMMAR must be one line "
            "(its own statement)") in errors
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    listed = out[out.index("Plugins that failed to load:"):]
    assert "plugin shadow (entry point shadow)" in listed and "plugin sneaky" in listed


def test_issue19_case9_scripts_play_alike_with_such_plugins_installed(installed: Path,
                                                                      capsys: Any) -> None:
    assert main(["play", "--quiet", str(ROOT / "examples" / "01-first-turns.game")]) == 0
    # an expectation that fails is still seen: no plugin can hide `expect` lines
    assert _play(installed, "players Ann Bob\nAnn rolls 3 4\nexpect Ann cash 1\n") == 1


def test_issue18_an_off_plugins_keyword_is_a_player_name(installed: Path, capsys: Any) -> None:
    assert _play(installed, """\
        players pot Bob
        pot rolls 3 4
        expect pot cash 20000
        """) == 0
    assert "Expectations: 1 of 1 held" in capsys.readouterr().out
    with pytest.raises(ScriptSyntaxError, match="'pot' is a keyword and cannot be a player name"):
        parse("with pot\nplayers pot Bob\n")


def test_issue18_a_plugins_line_binds_where_it_is_on(installed: Path, capsys: Any) -> None:
    on = "with pot\nplayers Ann Bob\nexpect pot 0\nAnn rolls 3 4\n"
    assert _play(installed, on) == 0
    assert _play(installed, on.replace("with pot\n", ""), "--with", "pot") == 0
    with pytest.raises(ScriptSyntaxError) as info:
        parse(on.replace("with pot\n", ""), "g.game")
    assert (info.value.line, info.value.message) == (
        2, "'expect pot 0' is a line of the rule 'pot', which is off in this game (switch it "
           "on with `with pot`)")


def test_issue18_completion_offers_the_verbs_of_the_rules_in_play() -> None:
    """Completion once came from the last parsed script's language (before any, only
    `rolls`); now it comes from the game's own legal lines, whatever was parsed before."""
    from easymoney import new_game
    from easymoney.interactive.answers import completions
    state = new_game("standard", ["Ann", "Bob"], seed=3)
    assert "rolls" in completions(state, [], "")
    state.apply("Ann rolls")
    while state.request.kind not in ("buy", "bid", "window_after"):
        state.apply(state.legal_actions()[0])
    offered = set(completions(state, [], ""))
    assert offered & {"buys", "bids", "ends"}, offered
