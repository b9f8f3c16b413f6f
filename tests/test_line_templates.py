"""Issue 29, part 1: a line said once. `LINE = "{player} lends {borrower} {amount}"` gives a
class its grammar, keywords, forms, fields and str(), so what a line prints it reads back;
a LINE that names a field the class lacks, or a type a line cannot read, or that takes a
built-in line's place, is refused at load in one line naming the plugin and the class."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.engine.actions import Action
from easymoney.engine.lines import LineError, compile_line
from easymoney.engine.registry import discover
from easymoney.script.parser import language_for, parse
from easymoney.script.syntax import samples
from stand_in_plugins import stand_in


def _line_classes() -> list[type]:
    registry = discover()
    lang = language_for(registry, tuple(registry.plugins))
    return [cls for cls in dict.fromkeys(lang.statements.values()) if cls.__dict__.get("LINE")]


def test_issue29_built_in_lines_are_said_once_and_read_back_as_themselves() -> None:
    classes = _line_classes()
    assert len(classes) >= 20  # the rules' lines and the base language's
    registry = discover()
    rules = tuple(registry.plugins)
    for cls in classes:
        assert cls._LINE_PROBLEM is None, cls._LINE_PROBLEM
        prefix = cls.line_prefix_words()
        for body in samples(cls.GRAMMAR):
            line = prefix + body
            script = parse("players Ann Bob\n" + line + "\n", rules=rules)
            (stmt,) = [s for s in (*script.header, *script.body)
                       if type(s) is cls or getattr(s, "kind", None) is cls]
            printed = str(stmt)
            # the canonical line; a later word of `(houses | house)` is read, printed first
            assert printed == line or printed.replace(" houses", " house") == line, printed
            again = parse("players Ann Bob\n" + printed + "\n", rules=rules)
            assert str([*again.header, *again.body][-1]) == printed


def test_issue29_a_template_gives_grammar_words_forms_and_fields() -> None:
    from dataclasses import dataclass
    from easymoney.engine.lines import Money

    @dataclass(slots=True)
    class Lend(Action):
        LINE = "{player} lends {borrower} [{amount}] now"
        player: Player  # noqa: F821 - a template reads annotations by name
        borrower: Player  # noqa: F821
        amount: Money = 100

    assert Lend.GRAMMAR == "NAME _LENDS NAME [MONEY] _NOW"
    assert Lend.WORDS == ("lends", "now")
    assert Lend.FORMS == ("`P lends Q now`", "`P lends Q MONEY now`")
    assert Lend.FIELDS == ("player", "borrower", "amount")


@pytest.mark.parametrize("line, fields, message", [
    ("{player} lends {nobody}", "player: Player\n", "names {nobody}, which is not a field"),
    ("{player} lends {pet}", "player: Player\npet: dict\n", "of type dict, which a line cannot read"),
    ("{player} lends [{amount}]", "player: Player\namount: int\n", "needs a default"),
    ("{player} LENDS", "player: Player\n", "found 'LENDS'"),
    ("{player} lends [{amount}", "player: Player\namount: int = 1\n", "'[' is not closed"),
])
def test_issue29_a_bad_template_is_a_line_naming_the_class(line: str, fields: str,
                                                          message: str) -> None:
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent(f"""
        from __future__ import annotations
        from dataclasses import dataclass
        from easymoney import Action
        @dataclass(slots=True)
        class Lend(Action):
            LINE = {line!r}
        """) + textwrap.indent(fields, "    "), namespace)
    problem = namespace["Lend"]._LINE_PROBLEM
    assert problem is not None and problem.startswith("Lend") and message in problem, problem
    with pytest.raises(LineError):
        compile_line(namespace["Lend"], line)


_BAD = '''\
"""A plugin whose action's LINE {what}."""
from __future__ import annotations
from dataclasses import dataclass
from easymoney import Action, Player

@dataclass(slots=True)
class Wave(Action):
    LINE = {line!r}
    player: Player

ACTIONS = (Wave,)
'''


@pytest.fixture
def bad_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    modules = {
        "em_line_missing": ("missing", _BAD.format(what="names a field it lacks",
                                                   line="{player} waves at {friend}")),
        "em_line_shadow": ("shadowing", _BAD.format(what="takes a built-in line's place",
                                                    line="{player} buys")),
        "em_line_good": ("waving", _BAD.format(what="is fine", line="{player} waves")),
    }
    with stand_in(tmp_path, monkeypatch, modules):
        yield tmp_path


def test_issue29_a_plugin_with_a_bad_line_is_refused_at_load(bad_plugins: Path,
                                                             capsys: Any) -> None:
    registry = discover()
    assert "waving" in registry.plugins
    assert "missing" not in registry.plugins and "shadowing" not in registry.plugins
    errors = registry.load_errors
    missing = next(e for e in errors if "plugin missing" in e)
    assert "Wave.LINE names {friend}, which is not a field of Wave" in missing
    assert "\n" not in missing
    shadow = next(e for e in errors if "plugin shadowing" in e)
    assert "stmt_streets_buy" in shadow or "shadows the built-in line `Ann buys`" in shadow
    stmt = parse("with waving\nplayers Ann Bob\nAnn waves\n").body[0]
    assert str(stmt) == "Ann waves" and stmt.kind.__name__ == "Wave"
