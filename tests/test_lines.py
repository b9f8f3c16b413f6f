"""Issue 18: one class per line of the language.

An action's class declares the line that says it and prints it; the parsed line (an
`ActionLine`, not yet resolved) prints through the same code as the action it gives. The
base language's lines are statements like a rule's; a plugin adds end reasons and
expectations; a plugin written the earlier way (an `ActionStatement` of its own) still works.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.engine import actions
from easymoney.engine.actions import Action, Request
from easymoney.engine.registry import discover
from easymoney.engine.statements import ActionStatement, Expectation, SetupStatement, lines_of
from easymoney.errors import ScriptSyntaxError
from easymoney.script import ast as A
from easymoney.script.parser import language_for, parse
from easymoney.script.syntax import line_prefix, samples
from easymoney.script.table import _LineContext, new_game

from cli_helpers import cli
from stand_in_plugins import stand_in

ROOT = Path(__file__).resolve().parent.parent
JAIL = str(ROOT / "tests" / "data" / "variants" / "jail.yaml")


def _action_classes() -> list[tuple[str, type[Action]]]:
    """(plugin, class) of every action class with a line: the core's (the turn's) and those
    of every installed plugin, the railroads example and the jail test plugin included."""
    found = [("core", actions.Roll), ("core", actions.EndTurn)]
    for pid, info in discover().plugins.items():
        for cls in lines_of(info.obj):
            if issubclass(cls, Action) and ("core", cls) not in found:
                found.append((pid, cls))
    return found


def test_issue18_every_installed_plugin_is_in_the_sample() -> None:
    plugins = {pid for pid, _ in _action_classes()}
    assert {"core", "streets", "auction", "building", "mortgage", "sales", "debts",
            "exemption", "railroads", "jail"} <= plugins


@pytest.mark.parametrize("pid, cls", _action_classes(),
                         ids=[f"{p}.{c.__name__}" for p, c in _action_classes()])
def test_issue18_a_parsed_line_prints_as_the_action_it_gives(pid: str, cls: type[Action]) -> None:
    """str(parsed line) == str(resolved action), over every sample line of its GRAMMAR."""
    registry = discover()
    rules = list(registry.plugins)
    state = new_game("standard", ["Ann", "Bob"], seed=1)
    game = state.game
    space = game.space("Dover Street")
    kind = cls.ASKED_BY[0] if cls.ASKED_BY else "anything"
    request = Request(kind, game.players[0], (cls,), space=space, least=100)
    read = 0
    for text in samples(line_prefix(cls) + cls.GRAMMAR):
        try:
            (line,) = parse(text + "\n", "<line>", registry=registry, rules=rules).body
        except ScriptSyntaxError:
            continue  # `Ann rolls 3`: the sampler knows no more than the grammar
        assert isinstance(line, A.ActionLine) and line.kind is cls
        action = line.answer(_LineContext(game, text), request)
        assert type(action) is cls, text
        assert str(line) == text  # the line prints as written
        # and as its action does, once a space given by its number is given by its name
        named = A.ActionLine(cls, tuple(
            A.SpaceRef(game.spaces[v.number].name, None)
            if isinstance(v, A.SpaceRef) and v.number is not None else v for v in line.values))
        assert str(named) == str(action), text
        read += 1
    assert read, f"no sample line of {cls.__name__} parses"


def test_issue18_no_line_is_written_twice() -> None:
    """No installed plugin declares an action's line as a class of its own any more."""
    for pid, info in discover().plugins.items():
        for cls in getattr(info.obj, "STATEMENTS", ()) or ():
            assert not issubclass(cls, ActionStatement), (pid, cls)
            assert issubclass(cls, (SetupStatement, Expectation)), (pid, cls)


def test_issue18_the_base_lines_are_statements_like_a_rules() -> None:
    """Each base expectation checks itself; the forms messages list come from the classes."""
    lang = language_for(discover(), ())
    base_forms = [f for cls in A.BASE_LINES if issubclass(cls, Expectation) for f in cls.FORMS]
    assert list(lang.expect_forms[:len(base_forms)]) == base_forms
    assert "`expect hospital MONEY`" in lang.expect_forms  # a rule's, after the base ones
    for cls in A.BASE_LINES:
        assert cls.GRAMMAR and cls.FORMS, cls
        if issubclass(cls, Expectation):
            assert cls.check is not Expectation.check, cls
        if issubclass(cls, SetupStatement):
            assert cls.apply is not SetupStatement.apply, cls
    source = (ROOT / "core" / "script" / "expectations.py").read_text(encoding="utf-8")
    assert not re.search(r"if t is S\.", source)
    parser = (ROOT / "core" / "script" / "parser.py").read_text(encoding="utf-8")
    assert "BASE_EXPECT_FORMS" not in parser


# ---------------------------------------------------------------- end reasons, expectations

JAIL_GAME = f"""\
variant "{JAIL}"
option jail.serves_to_end 1
players Ann Bob
setup Ann at 23
Ann rolls 1 2
Ann serves time
expect Ann served 1
expect Bob served 0
expect game over by jail
"""


def _jail_space() -> int:
    state = new_game(JAIL, ["Ann", "Bob"], seed=0)
    return next(s.index for s in state.game.spaces if s.kind == "jail")


def test_issue18_a_plugin_adds_an_end_reason_and_an_expectation(tmp_path: Path,
                                                                capsys: Any) -> None:
    where = _jail_space()
    script = tmp_path / "jail.game"
    script.write_text(JAIL_GAME.replace("setup Ann at 23", f"setup Ann at {where - 3}"),
                      encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert (code, err) == (0, ""), out
    assert "Expectations: 3 of 3 held" in out
    failing = tmp_path / "failing.game"
    failing.write_text(script.read_text().replace("served 1", "served 2"), encoding="utf-8")
    code, out, _ = cli(capsys, "play", "--quiet", str(failing))
    assert code == 1 and "expect Ann served 2: Ann served time 1 times" in out


def test_issue18_an_unknown_end_reason_is_one_located_error(tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(ScriptSyntaxError) as err:
        parse("players Ann Bob\nexpect game over by bankrupcy\n")
    assert (err.value.line, err.value.col) == (2, 21)
    assert err.value.message == ("expected a reason: bankruptcy, bank or turns, found "
                                 "'bankrupcy' (did you mean 'bankruptcy'?)")
    # the jail's reason is a reason only where the jail is in play
    with pytest.raises(ScriptSyntaxError) as err:
        parse("players Ann Bob\nexpect game over by jail\n")
    assert "found 'jail'" in err.value.message
    script = parse(f'variant "{JAIL}"\nplayers Ann Bob\nexpect game over by jail\n')
    assert str(script.body[0]) == "expect game over by jail"
    with pytest.raises(ScriptSyntaxError) as err:
        parse(f'variant "{JAIL}"\nplayers Ann Bob\nexpect game over by jial\n')
    assert err.value.message == ("expected a reason: bankruptcy, bank, turns or jail, found "
                                 "'jial' (did you mean 'jail'?)")
    bad = tmp_path / "bad.game"
    bad.write_text("players Ann Bob\nexpect game over by money\n", encoding="utf-8")
    code, _, err_text = cli(capsys, "play", str(bad))
    assert code == 2
    assert err_text.splitlines()[0].endswith(
        "bad.game:2:21: error: expected a reason: bankruptcy, bank or turns, found 'money'")


# ---------------------------------------------------------------- the earlier way still works

OLD_STYLE = '''
"""House rule: loans between players, written the earlier way (issue 18: it keeps working).

A copy of the railroads example's loan lines as they were before an action's class
declared its own line: an ActionStatement beside the action, and a setup and an expect line.
"""
from dataclasses import dataclass

from easymoney import (Action, ActionStatement, Expectation, SetupStatement, StashKey,
                       hookimpl)
from easymoney.plugins.turn import WINDOW_KINDS

PLUGIN_ID = "oldloans"
LOANS = StashKey["dict"]("oldloans.loans")


@dataclass(slots=True)
class Loan(Action):
    player: object
    borrower: object
    amount: int
    security: object = None  # a space
    verb = "loan"
    window = True

    def __str__(self):
        against = "" if self.security is None else f' against "{self.security.name}"'
        return f"{self.player} loans {self.borrower} {self.amount}{against}"


@dataclass(frozen=True)
class Loans(ActionStatement):
    GRAMMAR = "NAME _LOANS NAME MONEY [_AGAINST space]"
    WORDS = ("loans", "against")
    FORMS = ("`P loans Q MONEY`", "`P loans Q MONEY against SPACE`")
    player: str
    borrower: str
    amount: int
    security: object = None

    def __str__(self):
        # the space quoted here, as when a parsed space printed as its bare name
        against = "" if self.security is None else f' against "{self.security}"'
        return f"{self.player} loans {self.borrower} {self.amount}{against}"

    def answer(self, script, request):
        if request.kind in WINDOW_KINDS:
            security = None if self.security is None else script.space(self.security, self)
            return Loan(script.player(self.player, self), script.player(self.borrower, self),
                        self.amount, security)
        return None


@dataclass(frozen=True)
class SetupDebt(SetupStatement):
    GRAMMAR = "NAME _DEBT NAME MONEY"
    WORDS = ("debt",)
    FORMS = ("`setup Q debt P MONEY`",)
    borrower: str
    lender: str
    amount: int

    def __str__(self):
        return f"setup {self.borrower} debt {self.lender} {self.amount}"

    def apply(self, script, game):
        key = (script.player(self.lender, self).name, script.player(self.borrower, self).name)
        game.stash.setdefault(LOANS, {})[key] = self.amount


@dataclass(frozen=True)
class ExpectDebt(Expectation):
    GRAMMAR = "NAME _DEBT NAME MONEY"
    WORDS = ("debt",)
    FORMS = ("`expect Q debt P MONEY`",)
    borrower: str
    lender: str
    amount: int

    def __str__(self):
        return f"expect {self.borrower} debt {self.lender} {self.amount}"

    def check(self, script, game):
        key = (script.player(self.lender, self).name, script.player(self.borrower, self).name)
        due = game.stash.get(LOANS, {}).get(key, 0)
        return None if due == self.amount else f"{self.borrower} owes {self.lender} ${due}"


ACTIONS = (Loan,)
STATEMENTS = (Loans, SetupDebt, ExpectDebt)


@hookimpl
def em_apply(game, action):
    if type(action) is not Loan:
        return None
    loans = game.stash.setdefault(LOANS, {})
    key = (action.player.name, action.borrower.name)
    loans[key] = loans.get(key, 0) + action.amount
    game.transfer(action.player, action.borrower, action.amount, "a loan (oldloans)")
    return True
'''


@pytest.fixture
def old_style(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The plugin above installed (found as an entry point) for this test only."""
    with stand_in(tmp_path, monkeypatch, {"em_oldloans": ("oldloans", textwrap.dedent(OLD_STYLE))}):
        yield tmp_path


def test_issue18_a_plugin_written_the_earlier_way_keeps_working(old_style: Path,
                                                                 capsys: Any) -> None:
    registry = discover()
    assert "oldloans" in registry.plugins, registry.load_errors
    script = old_style / "loans.game"
    script.write_text(textwrap.dedent("""\
        with oldloans
        players Ann Bob
        setup Bob debt Ann 100
        Ann rolls 1 2
        Ann buys
        Ann loans Bob 500
        Ann ends turn
        expect Bob debt Ann 600
        """), encoding="utf-8")
    record = old_style / "out.game"
    code, out, err = cli(capsys, "play", "--quiet", str(script), "--record", str(record))
    assert (code, err) == (0, ""), out + err
    assert "Expectations: 1 of 1 held" in out
    assert "\nAnn loans Bob 500\n" in record.read_text(encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(record))
    assert (code, err) == (0, ""), out
    # its line is read as its own statement, which answers for itself
    (stmt,) = parse("Ann loans Bob 500\n", registry=registry, rules=["oldloans"]).body
    assert type(stmt).__name__ == "Loans" and str(stmt) == "Ann loans Bob 500"


def test_issue28_a_plugin_of_the_earlier_way_records_a_space(old_style: Path, capsys: Any) -> None:
    """Its statement quotes the space it read (a SpaceRef, which prints its own quotes)
    itself: the record reads the space back as the line wrote it, and replays."""
    script, record = old_style / "secured.game", old_style / "out.game"
    script.write_text(textwrap.dedent("""\
        with oldloans
        players Ann Bob
        Ann rolls 1 2
        Ann buys
        Ann loans Bob 500 against "Beacon Street"
        Ann loans Bob 100 against 3
        Ann ends turn
        expect Bob debt Ann 600
        """), encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script), "--record", str(record))
    assert (code, err) == (0, ""), err
    assert ('\nAnn loans Bob 500 against "Beacon Street"\nAnn loans Bob 100 against "Beacon '
            'Street"\n') in record.read_text(encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(record))
    assert (code, err) == (0, ""), out + err
