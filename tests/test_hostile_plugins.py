"""Issue 28, what a hostile tester found in plugins: a plugin's own code that misbehaves
(candidates that raise or list what is not theirs, a line that cannot be printed), a
plugin that is installed but off, a request kind no
bot was written for, and hook calls by keyword. Each is one line naming the plugin, in
every command and path that meets it, and a game the plugin does not play in never
calls it.

Case 21, a plugin written the earlier way whose line names a space, is tested with that
plugin, in tests/test_lines.py.

The misbehaving plugins are stand-ins (tests/stand_in_plugins.py): installed for one test
only, as `easymoney` finds an installed one, so that no other test meets them.
"""

from __future__ import annotations

import random
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.actions import EndTurn
from easymoney.engine.game import Game, ruleset_for
from easymoney.engine.legal import random_action
from easymoney.errors import PluginError, ScriptSyntaxError, UsageError
from easymoney.loading.loader import load_variant
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner
from easymoney.script.table import new_game

from cli_helpers import cli, one_line_error
from prompt_helpers import play_lines
from stand_in_plugins import stand_in

ROOT = Path(__file__).resolve().parent.parent
JAIL = str(ROOT / "tests" / "data" / "variants" / "jail.yaml")


# --- 27: a request kind no bot was written for, in bulk ----------------------------------------

@pytest.mark.parametrize("strategy", ["cautious", "greedy", "random"])
def test_issue28_bulk_bots_answer_a_plugin_request_kind(strategy: str, capsys: Any) -> None:
    """`simulate` of the jail variant (its `jail` request is no built-in kind): every
    built-in strategy answers it as `choose` does, in the bots' fast decider too."""
    code, out, err = cli(capsys, "simulate", JAIL, "--games", "4", "--players", "2", "--strategies",
                         f"{strategy},{strategy}", "--workers", "1", "--seed", "3")
    assert (code, err) == (0, ""), err
    assert "4 games" in out


def test_issue28_the_fast_decider_asks_the_strategy_of_a_kind_it_has_no_method_for() -> None:
    variant = load_variant(JAIL)
    decider = BotDecider({"Ann": make_strategy("cautious"), "Bob": make_strategy("greedy")})
    game = Game(variant, [("Ann", None), ("Bob", None)], decider, seed=5,
                ruleset=ruleset_for(variant))
    game.setup()
    game.play(max_turns=300)
    assert "jail" not in decider.answers_for("Ann")  # the kind is answered all the same
    assert game.turns_played > 0


# --- the stand-in plugins of the cases below ------------------------------------------------

_WINDOW_PLUGIN = '''
"""House rule: a shout in the window, at a price."""
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, ActionRange, EndTurn, Player, hookimpl

PLUGIN_ID = PID
CALLS = []  # the calls of its code a game makes
HEAD


@dataclass(slots=True)
class Shout(Action):
    GRAMMAR = "NAME _SHOUTS MONEY"
    WORDS = ("shouts",)
    FORMS = ("`P shouts MONEY`",)
    ASKED_BY = WINDOW_KINDS
    player: Player
    amount: int
    verb = "shout"
    window = True

    def __str__(self):
        return LINE

    @classmethod
    def candidates(cls, game, request):
        CANDIDATES


ACTIONS = (Shout,)


@hookimpl
def em_apply(game, action):
    if type(action) is Shout:
        game.transfer(action.player, game.bank, action.amount, "a shout")
        return True
    return None
TAIL
'''


def _window_plugin(pid: str, candidates: str, *, head: str = "", tail: str = "",
                   line: str = 'f"{self.player} shouts {self.amount}"') -> str:
    """A plugin with one window action `P shouts MONEY`: its `candidates` is the code
    `candidates`, its `__str__` returns `line`; `head` and `tail` are more of the module."""
    body = textwrap.indent(textwrap.dedent(candidates), " " * 8).strip()
    return (_WINDOW_PLUGIN.replace("PID", repr(pid)).replace("HEAD", textwrap.dedent(head))
            .replace("LINE", line).replace("CANDIDATES", body)
            .replace("TAIL", textwrap.dedent(tail)))


# A window action whose listing reads its own option: where the plugin is off the option is
# None, and the listing would fail.
TRIPWIRE = _window_plugin("tripwire", """\
    CALLS.append("candidates")
    most = game.option("tripwire.most") + 0   # None where the plugin is off
    yield ActionRange(cls(request.player, 1), "amount", 1, most, 1)
    """, head="""\
    OPTIONS = {"most": {"type": "integer", "minimum": 1, "default": 5}}
    """, tail="""\

    @hookimpl
    def em_turn_start(game, player):
        CALLS.append("em_turn_start")
    """)


# candidates that raise, that yield what is no action, that yield another type's action
CRASHY = _window_plugin("crashy", "return [1 // 0]\n")
STRAY = _window_plugin("stray", "yield None\n")
FOREIGN = _window_plugin("foreign", "yield EndTurn(request.player)\n")


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """The stand-ins above installed (off until named) for this test; their modules by id."""
    import sys
    modules = {"em_tripwire": ("tripwire", TRIPWIRE), "em_crashy": ("crashy", CRASHY),
               "em_stray": ("stray", STRAY), "em_foreign": ("foreign", FOREIGN)}
    with stand_in(tmp_path, monkeypatch, modules):
        from easymoney.engine.registry import discover
        registry = discover()
        assert set(registry.plugins) >= {pid for pid, _ in modules.values()}, registry.load_errors
        yield {pid: sys.modules[module] for module, (pid, _) in modules.items()}


# --- 28: a plugin installed but off is inert -----------------------------------------------

def test_issue28_an_off_plugin_is_never_called(plugins: dict[str, Any], capsys: Any) -> None:
    calls = plugins["tripwire"].CALLS
    state = new_game("standard", ["Ann", "Bob"], seed=4)
    rng = random.Random(4)
    for _ in range(300):  # windows, purchases, auctions: every listing of a game
        if state.is_over:
            break
        legal = state.legal_actions()
        assert not any(getattr(a, "kind", type(a)).__name__ == "Shout" for a in legal)
        state.apply(random_action(legal, rng))
    code, out, err = cli(capsys, "simulate", "--games", "3", "--players", "3", "--strategies",
                         "cautious,random,greedy", "--workers", "1")
    assert (code, err) == (0, ""), err
    assert calls == []
    # its words are not the language's: `tips` is refused as any unknown action
    with pytest.raises(ScriptSyntaxError, match="unknown action 'shouts'"):
        state.apply("Ann shouts 3")


def test_issue28_an_off_plugin_is_called_once_it_is_on(plugins: dict[str, Any]) -> None:
    """The same plugin, named: its candidates are listed (the test above can fail)."""
    state = new_game("standard", ["Ann", "Bob"], seed=4, enable=["tripwire"])
    assert any(getattr(a, "kind", None) is plugins["tripwire"].Shout for a in state.legal_actions())
    assert "candidates" in plugins["tripwire"].CALLS and "em_turn_start" in plugins["tripwire"].CALLS


# --- 16: a type's candidates are the plugin's code ----------------------------------------

LISTINGS = [("crashy", r"failed listing the candidates of its action type Shout: "
                       r"ZeroDivisionError: integer division or modulo by zero"),
            ("stray", r"listed None among the candidates of its action type Shout, which "
                      r"lists only Shout actions and ActionRanges of them"),
            ("foreign", r"listed an EndTurn among the candidates of its action type Shout")]


@pytest.mark.parametrize("pid, words", LISTINGS, ids=[p for p, _ in LISTINGS])
def test_issue28_bad_candidates_in_the_stepping_game(plugins: dict[str, Any], pid: str,
                                                     words: str) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=3, enable=[pid])
    before = state.game.snapshot()
    for attempt in (state.legal_actions, lambda: state.apply("Ann rolls")):
        with pytest.raises(PluginError) as caught:
            attempt()
        message = caught.value.message
        assert "\n" not in message and re.match(rf"plugin '{pid}' {words}", message), message
        assert message.endswith("(game seed 3, turn 1, Ann's turn)"), message
    assert state.game.snapshot() == before and state.steps == 0


@pytest.mark.parametrize("pid, words", LISTINGS, ids=[p for p, _ in LISTINGS])
def test_issue28_bad_candidates_at_the_prompt(plugins: dict[str, Any], pid: str, words: str,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: Any) -> None:
    code, said = play_lines(monkeypatch, ["?", "Ann rolls"], "--players", "Ann", "Bob",
                            "--with", pid, "--seed", "3")
    err = capsys.readouterr().err
    assert "Traceback" not in said + err
    assert re.search(rf"plugin '{pid}' {words}", said + err), said + err


@pytest.mark.parametrize("strategies", ["cautious,greedy", "random,random", "mc,cautious"])
@pytest.mark.parametrize("pid, words", LISTINGS, ids=[p for p, _ in LISTINGS])
def test_issue28_bad_candidates_in_simulate(plugins: dict[str, Any], pid: str, words: str,
                                            strategies: str, capsys: Any) -> None:
    """Every bot meets the listing (a window's extras, mc's search): the plugin and its type
    are named, never the `turn` rule that asked."""
    code, out, err = cli(capsys, "simulate", "--games", "1", "--players", "2", "--strategies",
                         strategies, "--with", pid, "--workers", "1", "--seed", "3")
    line = one_line_error(err)
    assert code != 0 and re.search(rf"plugin '{pid}' {words}", line), line


# --- 30: a hook called by keyword, the same in both dispatch modes -----------------------------

# A house rule calling other rules' hooks by keyword (pluggy's convention), by position, and
# both mixed: each answer is kept to compare.
CALLER = '''
"""House rule: asks the other rules, by keyword, what a player is worth."""
from easymoney import StashKey, hookimpl

PLUGIN_ID = "asker"
HEARD = StashKey("asker.heard")


@hookimpl(trylast=True)
def em_turn_end(game, player):
    heard = game.stash.setdefault(HEARD, [])
    heard.append((game.hook.em_worth(game=game, player=player), game.hook.em_worth(game, player),
                  game.hook.em_worth(game, player=player)))
    heard.append((game.hook.em_round(game=game, amount=155), game.hook.em_round(game, 155)))
    space = game.spaces[player.position]
    heard.append((game.hook.em_space_value(space=space, game=game),
                  game.hook.em_space_value(game, space)))
'''


@pytest.mark.parametrize("dispatch", ["fast", "pluggy"])
def test_issue28_a_hook_called_by_keyword(dispatch: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with stand_in(tmp_path, monkeypatch, {"em_asker": ("asker", CALLER)}):
        import em_asker
        result = ScriptRunner(parse("with asker\nplayers Ann Bob\nAnn rolls 1 2\nAnn buys\n"
                                    "Ann ends turn\nBob rolls 3 3\nautoplay 4 turns\n"),
                              dispatch=dispatch).run()
        assert result.failures == []
        heard = result.game.stash[em_asker.HEARD]
    assert len(heard) >= 9 and all(len(set(answers)) == 1 for answers in heard), heard
    assert heard[0][0] == 20000  # Ann's cash less the street's price, and the street (R28)
    game = new_game("standard", ["Ann", "Bob"], seed=1).game
    hook = ruleset_for(game.variant, dispatch=dispatch).hook
    action = EndTurn(game.players[0])
    # every kind of caller: many implementations (collect, first), one, none, a notification
    assert hook.em_refusals(game=game, action=action) == hook.em_refusals(game, action)
    assert hook.em_collect(game=game, debtor=game.bank, creditor=game.players[1], amount=0,
                           reason="nothing", kind="other") == 0
    hook.em_turn_start(game=game, player=game.players[0])
    # a call the spec does not fit is a TypeError naming the argument, in both modes
    for wrong, name in ((dict(game=game), "'player'"),
                        (dict(game=game, player=game.players[0], who=1), "'who'")):
        with pytest.raises(TypeError, match=name):
            hook.em_worth(**wrong)


# --- 33: an action's line that cannot be written -----------------------------------------------

MUTE = _window_plugin("mute", "yield cls(request.player, 5)\n", line="1 // 0")


def test_issue28_an_action_that_cannot_be_written_is_one_line(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: Any) -> None:
    with stand_in(tmp_path, monkeypatch, {"em_mute": ("mute", MUTE)}):
        script, record = tmp_path / "mute.game", tmp_path / "out.game"
        script.write_text("with mute\nplayers Ann Bob\nAnn shouts 5\nAnn rolls 1 2\n",
                          encoding="utf-8")
        code, out, err = cli(capsys, "play", "--quiet", str(script))
        assert (code, err) == (0, ""), err  # it plays: only its line cannot be written
        code, out, err = cli(capsys, "play", "--quiet", str(script), "--record", str(record))
        assert one_line_error(err) == (
            "error: cannot record the game: plugin 'mute' failed writing its action Shout as "
            "a line (its __str__): ZeroDivisionError: integer division or modulo by zero")
        assert code != 0 and not record.exists()
        state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["mute"])
        state.apply(state.game.ruleset.registry.plugins["mute"].obj.Shout(state.player, 5))
        with pytest.raises(PluginError, match=r"^error: plugin 'mute' failed writing its "
                                             r"action Shout as a line \(its __str__\)"):
            state.script()
