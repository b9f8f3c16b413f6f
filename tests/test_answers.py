"""Issue 37 item 4: the one-word answers share one small base class, `Answer`."""

from __future__ import annotations

from dataclasses import dataclass

from easymoney import Answer, EndTurn, Player, Request, Space, request_kind
from easymoney.engine.deals import Accept, Reject
from easymoney.plugins.auction import Pass
from easymoney.plugins.debts import GoBankrupt
from easymoney.plugins.streets import Buy, Decline
from easymoney.script.table import new_game

TOLL = request_kind("test_answers.toll", lambda r: f"{r.player} to waive the toll of {r.space}")


@dataclass(slots=True)
class Waive(Answer):
    """`P waives` (docs/plugins.md's example)."""

    LINE = "{player} waives"
    ASKED_BY = (TOLL,)
    player: Player
    space: Space
    verb = "waive"


def test_issue37_the_one_word_answers_are_answers():
    answers = (Buy, Decline, Pass, EndTurn, GoBankrupt, Accept, Reject)
    assert all(issubclass(kind, Answer) for kind in answers)
    # only what leaves out what its own refusals refuse writes candidates: the cash for a
    # purchase (R9), an offer refused since it was made (R22a)
    assert [k.__name__ for k in answers if "candidates" in vars(k)] == ["Buy", "Accept"]


def test_issue37_an_answer_is_listed_once_with_the_requests_fields():
    game = new_game("standard", ["Ann", "Bob"], seed=1).game
    ann = game.players[0]
    bridge = game.spaces[3]
    assert list(Waive.candidates(game, Request(TOLL, ann, (Waive,), space=bridge))) == \
        [Waive(ann, bridge)]
    assert list(Waive.candidates(game, Request(TOLL, ann, (Waive,)))) == []  # no space
    assert list(Waive.candidates(game, Request("window_after", ann, (Waive,), space=bridge))) == []
    assert list(EndTurn.candidates(game, Request("window_after", ann, (EndTurn,)))) == [EndTurn(ann)]


# --- issue 37 item 1: a built-in rule is written as docs/plugins.md teaches ------------------

EARLIER_WAYS = ("ActionStatement", "em_apply", "em_amount_step", "REFUSES", "LANDS_ON",
                "PASSES", "moved_lines")


def _builtin_sources() -> dict[str, str]:
    from pathlib import Path

    from easymoney.engine.registry import BUILTIN_PLUGINS
    root = Path(__file__).resolve().parent.parent / "plugins"
    return {pid: (root / f"{pid}.py").read_text(encoding="utf-8") for pid in BUILTIN_PLUGINS}


def test_issue37_no_built_in_rule_takes_an_earlier_way_or_guards_an_event():
    """No built-in rule uses a deprecated way (docs/plugins.md, "Earlier ways"), keeps a
    tombstone for a name that is gone (a module `__getattr__`), or asks `game.seen` before
    it emits: `game.emit` builds nothing nobody sees."""
    import ast
    sources = _builtin_sources()
    assert len(sources) > 20
    wrong = []
    for pid, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            name = (node.id if isinstance(node, ast.Name) else node.attr
                    if isinstance(node, ast.Attribute) else node.name
                    if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else None)
            if name is not None and (name in EARLIER_WAYS or name.startswith("REFUSES")
                                     or name == "seen" or name == "__getattr__"):
                wrong.append(f"{pid}:{node.lineno} {name}")
    assert wrong == []
