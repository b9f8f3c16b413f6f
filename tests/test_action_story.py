"""Issue 29, parts 2 and 3: an action is the whole story of the action (its line, its own
checks, its effect, its value to a bot, in one class), its candidates are derived from its
fields where it writes none, and a Money field is R30's with no code of the plugin's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney import new_game
from easymoney.engine.registry import discover
from cli_helpers import cli
from easymoney.errors import PluginError, RefusedAction
from stand_in_plugins import stand_in

# the docs' one-word action (docs/plugins.md, "The smallest action"): 15 lines
BAIL = '''\
"""House rule: a player may pay $50 bail to the Bank in their window."""
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player, Refusal

@dataclass(slots=True)
class PayBail(Action):
    LINE = "{player} pays bail"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player

    def refusals(self, game):
        return [] if self.player.cash >= 50 else [Refusal("-", "bail", "bail is $50")]

    def apply(self, game):
        game.transfer(self.player, game.bank, 50, "bail")

ACTIONS = (PayBail,)
'''

# a gift of money to another player: a player field and an amount, both derived; its value
GIFT = '''\
"""House rule: a player may give another money in their window."""
from __future__ import annotations
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Money, Player, Refusal

@dataclass(slots=True)
class Give(Action):
    LINE = "{player} gives {friend} {amount}"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player
    friend: Player
    amount: Money

    def refusals(self, game):
        if self.friend is self.player:
            return [Refusal("-", "gifts", "a gift is to another player")]
        if not 0 < self.amount <= self.player.cash:
            return [Refusal("-", "gifts", f"{self.player} cannot give that")]
        return []

    def apply(self, game):
        game.transfer(self.player, self.friend, self.amount, "a gift")

    def value(self, game, player):
        return -self.amount if player is self.player else None

ACTIONS = (Give,)
'''

# an action whose field cannot be enumerated: refused at load, naming the plugin and field
OPAQUE = '''\
"""A rule whose action takes a dictionary."""
from __future__ import annotations
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player

@dataclass(slots=True)
class Wish(Action):
    LINE = "{player} wishes"
    ASKED_BY = WINDOW_KINDS
    player: Player
    wishes: dict

ACTIONS = (Wish,)
'''


def _kind(listed: object) -> str:
    return type(getattr(listed, "template", listed)).__name__


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with stand_in(tmp_path, monkeypatch, {"em_bail": ("bail", BAIL), "em_gifts": ("gifts", GIFT),
                                          "em_opaque": ("opaque", OPAQUE)}):
        yield tmp_path


def test_issue29_the_one_word_action_of_the_docs_is_15_lines_and_plays(installed: Path) -> None:
    assert len([line for line in BAIL.splitlines() if line.strip()]) <= 15
    docs = (Path(__file__).parent.parent / "docs" / "plugins.md").read_text(encoding="utf-8")
    assert BAIL in docs  # the docs show this very plugin
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["bail"])
    listed = [str(a) for a in state.legal_actions()]
    assert "Ann pays bail" in listed  # derived: no candidates written
    before = state.game.players[0].cash
    state.apply("Ann pays bail")
    assert state.game.players[0].cash == before - 50
    assert "Ann pays bail" in state.script()


def test_issue29_an_actions_own_check_refuses_and_changes_nothing(installed: Path) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["bail"])
    state.game.players[0].cash = 40
    assert "Ann pays bail" not in [str(a) for a in state.legal_actions()]
    snapshot = state.game.snapshot()
    with pytest.raises(RefusedAction, match="bail: bail is \\$50"):
        state.apply("Ann pays bail")
    assert state.game.snapshot() == snapshot


def test_issue29_derived_candidates_enumerate_players_and_an_amount_on_r30s_grid(
        installed: Path) -> None:
    state = new_game("standard", ["Ann", "Bob", "Cat"], seed=1, enable=["gifts"])
    gifts = [a for a in state.legal_actions() if _kind(a) == "Give"]
    assert sorted(g.template.friend.name for g in gifts) == ["Bob", "Cat"]  # type: ignore[union-attr]
    cash = state.game.players[0].cash
    assert all(g.least == 10 and g.most == cash // 10 * 10 and g.step == 10 for g in gifts)  # type: ignore[union-attr]
    with pytest.raises(RefusedAction, match="R30"):  # the plugin wrote no rounding
        state.apply("Ann gives Bob 15")
    state.apply("Ann gives Bob 20")
    assert state.game.players[1].cash == cash + 20


def test_issue29_an_action_nobody_could_be_offered_is_refused_at_load(installed: Path) -> None:
    registry = discover()
    assert "bail" in registry.plugins and "gifts" in registry.plugins
    assert "opaque" not in registry.plugins
    (error,) = [e for e in registry.load_errors if "plugin opaque" in e]
    assert "Wish.wishes" in error and "cannot be enumerated" in error and "\n" not in error


def test_issue29_bots_value_an_action_by_its_own_value(installed: Path) -> None:
    from easymoney.bots import action_value
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["gifts"])
    game = state.game
    ann, bob = game.players
    gift = next(a for a in state.legal_actions() if _kind(a) == "Give").at(100)  # type: ignore[union-attr]
    assert action_value(game, ann, gift) == -100 and action_value(game, bob, gift) is None


# an action whose own check, or effect, fails: the plugin's code, named as a hook is
CRASHY = '''\
"""A rule whose action's own code fails."""
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player

@dataclass(slots=True)
class Wave(Action):
    LINE = "{player} waves"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player

    def refusals(self, game):
        return [] if game.option("crashy.where") != "refusals" else 1 / 0

    def apply(self, game):
        raise RuntimeError("the wave broke")

ACTIONS = (Wave,)
OPTIONS = {"where": {"enum": ["refusals", "apply"], "default": "refusals"}}
'''


@pytest.mark.parametrize("where, failure", [("refusals", "ZeroDivisionError: division by zero"),
                                            ("apply", "RuntimeError: the wave broke")])
def test_issue29_an_actions_own_code_that_raises_is_one_line_naming_the_class(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, where: str,
        failure: str) -> None:
    with stand_in(tmp_path, monkeypatch, {"em_crashy": ("crashy", CRASHY)}):
        script = tmp_path / "wave.game"
        script.write_text(f"with crashy\noption crashy.where {where}\nplayers Ann Bob\nseed 7\n"
                          f"Ann waves\n", encoding="utf-8")
        code, _, err = cli(capsys, "play", str(script))
        assert code == 2
        assert err.strip() == (f"error: plugin 'crashy' failed in Wave.{where}: {failure} (game "
                               f"seed 7, turn 1, Ann's turn)"), err
        if where == "refusals":  # every listing asks it: a bot's game, and the stepping game
            code, _, err = cli(capsys, "simulate", "standard", "--with", "crashy", "--games", "1",
                               "--players", "2", "--seed", "5")
            assert code != 0 and "plugin 'crashy' failed in Wave.refusals: " + failure in err
            assert len(err.strip().splitlines()) == 1, err
            state = new_game("standard", ["Ann", "Bob"], seed=3, enable=["crashy"])
            with pytest.raises(PluginError, match=r"plugin 'crashy' failed in Wave\.refusals: "
                                                  r"ZeroDivisionError.*game seed 3"):
                state.legal_actions()


# a plugin whose candidates list amounts that its own refusals refuse (issue 37, bad input)
LIAR = '''
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, ActionRange, Money, Player, Refusal

@dataclass(slots=True)
class Shout(Action):
    LINE = "{player} shouts {amount}"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player
    amount: Money

    @classmethod
    def candidates(cls, game, request):
        if request.kind in WINDOW_KINDS:
            yield ActionRange(cls(request.player, 10), "amount", 10, 100, 10)

    def refusals(self, game):
        return [Refusal("-", "liar", "at most 50")] if self.amount > 50 else []

    def apply(self, game):
        game.transfer(self.player, game.bank, self.amount, "a shout")

ACTIONS = (Shout,)
'''


def test_issue37_a_plugin_listing_what_it_refuses_is_one_line_and_nothing_is_applied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whichever face takes the listed action (a line applied, an environment's listed step,
    an agent's slot), the plugin's candidates and its own refusals disagreeing is one
    PluginError naming the plugin, the class and the seed, and the game is as it was."""
    from easymoney import ActionRange
    from easymoney.errors import PluginError
    with stand_in(tmp_path, monkeypatch, {"em_liar": ("liar", LIAR)}):
        discover()
        state = new_game("standard", ["Ann", "Bob"], seed=3, enable=["liar"])
        (shouts,) = [a for a in state.legal_actions()
                     if isinstance(a, ActionRange) and a.kind.__name__ == "Shout"]
        snapshot, lines = state.game.snapshot(), state.script()
        cash = state.game.players[0].cash
        for take in (state.apply, lambda a: state.push(a, listed=True)):
            with pytest.raises(PluginError, match=r"plugin 'liar' lists `Ann shouts 100` among the "
                               r"candidates of its action type Shout, which its own refusals "
                               r"refuse .*\(game seed 3, turn 1"):
                take(shouts.at(100))
            assert state.game.snapshot() == snapshot and state.script() == lines
        state.push(shouts.at(50), listed=True)  # what its refusals allow is taken
        assert state.game.players[0].cash == cash - 50
