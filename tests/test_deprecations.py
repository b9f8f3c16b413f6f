"""Issue 29, part 7: a plugin written an earlier way keeps working for one release, and its
loading says once, in a DeprecationWarning, what to write instead (docs/plugins.md,
"Earlier ways (deprecated)"); a plugin written the new way, or saying a line with the
GRAMMAR escape hatch, loads silently."""

from __future__ import annotations

import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.engine.registry import discover
from cli_helpers import cli
from stand_in_plugins import stand_in
from test_action_story import GIFT

# the line said by a class of its own beside the action (before issue 29)
OLD_LINE = '''\
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, ActionStatement, Player

@dataclass(slots=True)
class Tip(Action):
    player: Player
    amount: int
    verb = "tip"
    window = True

    def apply(self, game):
        game.transfer(self.player, game.bank, self.amount, "a tip")

@dataclass(frozen=True)
class Tips(ActionStatement):
    GRAMMAR = "NAME _TIPS MONEY"
    WORDS = ("tips",)
    FORMS = ("`P tips MONEY`",)
    player: str
    amount: int

    def __str__(self):
        return f"{self.player} tips {self.amount}"

    def answer(self, script, request):
        if request.kind in WINDOW_KINDS:
            return Tip(script.player(self.player, self), self.amount)
        return None

ACTIONS = (Tip,)
STATEMENTS = (Tips,)
'''

# the effect in a hook of the rule's instead of the action's apply
OLD_APPLY = '''\
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Money, Player, hookimpl

@dataclass(slots=True)
class Donate(Action):
    LINE = "{player} donates {amount}"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player
    amount: Money

ACTIONS = (Donate,)

@hookimpl
def em_apply(game, action):
    if type(action) is not Donate:
        return None
    game.transfer(action.player, game.bank, action.amount, "a donation")
    return True
'''

# an amount's grid said by a hook instead of the annotation `Money`
OLD_STEP = '''\
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, ActionRange, Player, Refusal, hookimpl

@dataclass(slots=True)
class Wager(Action):
    LINE = "{player} wagers {amount}"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player
    amount: int

    def refusals(self, game):
        if self.amount % 100 or not 0 < self.amount <= self.player.cash:
            return [Refusal("-", "oldstep", "a wager is in hundreds, up to your cash")]
        return []

    def apply(self, game):
        game.transfer(self.player, game.bank, self.amount, "a wager")

    @classmethod
    def candidates(cls, game, request):
        if request.kind in WINDOW_KINDS:
            yield ActionRange(cls(request.player, 100), "amount", 100, request.player.cash, 100)

ACTIONS = (Wager,)

@hookimpl
def em_amount_step(game, action):
    return 100 if type(action) is Wager else None
'''

# the escape hatch, not deprecated: a GRAMMAR with its __str__
GRAMMAR = '''\
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player

@dataclass(slots=True)
class Hum(Action):
    GRAMMAR = "NAME _HUMS"
    WORDS = ("hums",)
    FORMS = ("`P hums`",)
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player

    def __str__(self):
        return f"{self.player} hums"

    def apply(self, game):
        game.transfer(self.player, game.bank, 10, "a hum")

ACTIONS = (Hum,)
'''

PLUGINS = {"em_oldline": ("oldline", OLD_LINE), "em_oldapply": ("oldapply", OLD_APPLY),
           "em_oldstep": ("oldstep", OLD_STEP), "em_grammar": ("grammar", GRAMMAR),
           "em_gifts": ("gifts", GIFT)}  # the new way: line, checks, effect, value in one class


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The plugins above found as entry points, discovery made afresh (it is cached)."""
    with stand_in(tmp_path, monkeypatch, PLUGINS):
        yield tmp_path


def _load() -> list[str]:
    """The DeprecationWarnings discovery says, naming a plugin of this file."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry = discover()
    assert {pid for pid, _ in PLUGINS.values()} <= set(registry.plugins), registry.load_errors
    ours = tuple(f"plugin {pid} " for pid, _ in PLUGINS.values())
    return [str(w.message) for w in caught
            if issubclass(w.category, DeprecationWarning) and str(w.message).startswith(ours)]


@pytest.mark.parametrize("pid, match, line, cash", [
    ("oldline", r"plugin oldline .*: its line class Tips is an ActionStatement: declare LINE on "
                r"the action class .*docs/plugins\.md", "Ann tips 100", 900),
    ("oldapply", r"plugin oldapply .*: it implements em_apply: define apply\(self, game\) on the "
                 r"action class .*docs/plugins\.md", "Ann donates 200", 800),
    ("oldstep", r"plugin oldstep .*: it implements em_amount_step: annotate the amount Money "
                r".*docs/plugins\.md", "Ann wagers 300", 700),
])
def test_issue29_each_earlier_way_warns_at_load_and_still_plays(
        installed: Path, capsys: Any, pid: str, match: str, line: str, cash: int) -> None:
    with warnings.catch_warnings(record=True):  # the other plugins' warnings, said too
        with pytest.warns(DeprecationWarning, match=match):
            discover()
    script = installed / f"{pid}.game"
    script.write_text(textwrap.dedent(f"""\
        with {pid}
        players Ann Bob
        setup Ann cash 1000
        {line}
        expect Ann cash {cash}
        """), encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert (code, err) == (0, ""), out + err
    assert "Expectations: 1 of 1 held" in out


def test_issue29_each_earlier_way_is_said_once_per_plugin(installed: Path) -> None:
    said = _load()
    assert sorted(m.split()[1] for m in said) == ["oldapply", "oldline", "oldstep"], said
    assert all("\n" not in m for m in said)
    assert _load() == []  # discovery is made once: not said again at each game


def test_issue29_the_new_way_and_a_grammar_load_with_no_warning(installed: Path,
                                                                capsys: Any) -> None:
    said = _load()
    assert not [m for m in said if m.startswith(("plugin gifts ", "plugin grammar "))], said
    script = installed / "new.game"
    script.write_text(textwrap.dedent("""\
        with gifts
        with grammar
        players Ann Bob
        setup Ann cash 1000
        Ann gives Bob 300
        Ann hums
        expect Ann cash 690
        """), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # playing says nothing either
        code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert (code, err) == (0, ""), out + err
    assert "Expectations: 1 of 1 held" in out


def test_issue37_an_earlier_plugin_is_translated_at_load_into_the_new_form(installed: Path) -> None:
    """One compatibility module at the edge (easymoney.engine.earlier): the engine registers
    the plugin in the new form. em_apply became the action's own `apply`, em_amount_step the
    step of its ranges, and neither hook is registered (the core no longer declares them)."""
    from easymoney import Action
    from easymoney.engine.game import Game
    from easymoney.engine.legal import legal_actions
    from easymoney.engine.registry import manager_for
    from easymoney.loading.loader import load_variant
    from easymoney.bots import BotDecider
    with warnings.catch_warnings(record=True):
        registry = discover()
    old_apply, old_step = registry.plugins["oldapply"], registry.plugins["oldstep"]
    for info in (old_apply, old_step):
        assert info.earlier is not None and info.obj is not info.earlier
        assert not hasattr(info.obj, "em_apply") and not hasattr(info.obj, "em_amount_step")
    donate, wager = old_apply.obj.Donate, old_step.obj.Wager
    assert donate.apply is not Action.apply  # the translation's
    pm = manager_for(registry, ["oldapply", "oldstep"])
    assert not hasattr(pm.hook, "em_apply") and not hasattr(pm.hook, "em_amount_step")
    assert registry.plugins["gifts"].earlier is None  # the new way: registered as it is
    # the wager's ranges are on its old grid, whatever the candidates said
    variant = load_variant("standard", registry=registry, enable=["oldstep"])
    game = Game(variant, ["Ann", "Bob"], BotDecider({}), seed=1)
    game.setup()
    game.players[0].cash = 1050
    from easymoney import Request
    request = Request("window_before", game.players[0], (wager,))
    ranges = [a for a in legal_actions(game, request, kinds=(wager,)) if hasattr(a, "step")]
    assert [(r.least, r.most, r.step) for r in ranges] == [(100, 1000, 100)]


def test_issue37_the_engine_paths_name_no_earlier_way() -> None:
    """The earlier ways' names live in the compatibility module alone (and the registry's
    call of it, the docstring of the hooks): no path of the engine branches on them."""
    root = Path(__file__).resolve().parent.parent / "core" / "engine"
    names = ("REFUSES", "LANDS_ON", "PASSES", "em_apply", "em_amount_step")
    wrong = [f"{path.name}: {name}" for path in sorted(root.glob("*.py"))
             if path.name not in ("earlier.py", "hookspecs.py")
             for name in names if name in path.read_text(encoding="utf-8")]
    assert wrong == []
