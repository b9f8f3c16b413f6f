"""The generated references (issue 18): the hooks' built-in order, the objects a hook
receives (docs/api.md), and the public API as mypy --strict sees it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from installed_layout import installed_package

from easymoney.commands import _apidoc as apidoc, _hookdoc as hookdoc

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _between(text: str, begin: str, end: str) -> str:
    return text[text.index(begin):text.index(end) + len(end)] + "\n"


def test_issue_18_hook_reference_says_which_built_ins_run_first():
    text = hookdoc.markdown()
    move = text[text.index("### `em_move`"):text.index("### `em_moved`")]
    assert "Built-in implementations, in the order they run: `doubles` (tryfirst)." in move
    bankrupt = text[text.index("### `em_bankrupt`"):text.index("### `em_worth`")]
    assert "`end` (trylast)" in bankrupt
    assert "tryfirst" in text[:text.index("### ")]  # how a plugin's own implementation is placed
    assert "built-in, in order: doubles (tryfirst)" in hookdoc.text()


def test_issue_18_api_reference_in_the_docs_is_the_generated_one():
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    assert _between(text, apidoc.BEGIN, apidoc.END) == apidoc.markdown(), \
        "docs/api.md is stale: regenerate it with `easymoney hooks --api`"


def test_issue_18_api_reference_covers_what_authors_had_to_guess():
    text = apidoc.markdown()
    for name in ("Game", "Player", "Space", "Card", "Variant", "ScriptContext", "Request",
                 "Action", "Refusal", "SpaceKind", "CardKind", "StashKey"):
        assert f"### `{name}`" in text, name
    for found in ("`cards: tuple[Card, ...]`", "`side: int | None`",
                  "`change_owner(space: Space, buyer: Player) -> None`",
                  "`move(player: Player, steps: int, dice: tuple[int, int], land: bool = True) -> Space`"):
        assert found in text, found


def test_issue_18_every_documented_class_is_exported():
    import easymoney
    for cls in apidoc.classes():
        assert getattr(easymoney, cls.__name__) is cls


def test_issue_18_hooks_api_prints_the_reference():
    done = subprocess.run([sys.executable, "-m", "easymoney", "hooks", "--api"],
                          capture_output=True, text=True, check=True)
    assert done.stdout == apidoc.markdown()


def _smallest_plugin() -> str:
    text = (DOCS / "plugins.md").read_text(encoding="utf-8")
    part = text[text.index("## The smallest rule"):]
    return part[part.index("```python\n") + len("```python\n"):part.index("```", part.index("```python\n") + 3)]


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_issue_18_mypy_strict_accepts_the_public_api(tmp_path: Path) -> None:
    """`from easymoney import hookimpl` is an explicit export: the railroads example and the
    docs' smallest plugin pass `mypy --strict` (the package as installed: core/ as easymoney)."""
    package = installed_package(tmp_path / "pkg")
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "easymoney_railroads.py").symlink_to(
        ROOT / "examples" / "plugins" / "railroads" / "easymoney_railroads.py")
    (extra / "easymoney_tax_holiday.py").write_text(_smallest_plugin(), "utf-8")
    command = [sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
               "--cache-dir", str(tmp_path / ".mypy_cache"), "--follow-imports", "silent",
               "-m", "easymoney_railroads", "-m", "easymoney_tax_holiday"]
    env = {**os.environ, "MYPYPATH": f"{extra}{os.pathsep}{package.parent}"}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"mypy --strict found problems:\n{done.stdout}{done.stderr}"


def test_issue_18_all_names_every_export():
    import easymoney
    assert sorted(easymoney.__all__) == sorted(["__version__", *easymoney._EXPORTS])


def test_issue39_item20_every_public_name_has_an_entry_with_words_in_the_api_reference():
    """docs/api.md lacked ActionRange, request_kind, money, Expectation, SetupStatement,
    PlayerName, SpaceRef, WINDOW_KINDS, Accept and Reject: every name of `easymoney.__all__`
    has an entry now (a section of its own or a line of "Every other name"), with words."""
    import easymoney
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    detailed = {cls.__name__ for cls in apidoc.classes()}
    others = {name: words for name, _, words in apidoc.other_names()}
    for name in easymoney.__all__:
        if name.startswith("__"):
            continue
        assert name in detailed or name in others, f"{name} has no entry in docs/api.md"
        if name in detailed:
            assert f"### `{name}`" in text, name
            assert apidoc._doc(getattr(easymoney, name)), f"{name} has no docstring"
        else:
            assert others[name], f"{name}'s entry in docs/api.md has no words"
            assert f"- `{name}" in text or f"- `class {name}" in text, name
    for name in ("ActionRange", "request_kind", "money", "Expectation", "SetupStatement",
                 "PlayerName", "SpaceRef", "WINDOW_KINDS", "Accept", "Reject"):
        assert name in detailed or name in others, name


def test_issue39_item20_a_name_without_words_fails_the_reference(monkeypatch):
    """The check above can fail: a public constant with no comment has an entry without words."""
    import easymoney
    monkeypatch.setattr(easymoney, "__all__", [*easymoney.__all__, "MAX_DIGITS"])
    monkeypatch.setitem(easymoney._EXPORTS, "MAX_DIGITS", "easymoney.view")
    monkeypatch.setattr(easymoney, "MAX_DIGITS", 30, raising=False)
    words = {name: w for name, _, w in apidoc.other_names()}
    assert words["MAX_DIGITS"].startswith("digits of an amount")  # a comment is its words
    monkeypatch.setitem(easymoney._EXPORTS, "MAX_DIGITS", "easymoney.engine.actions")
    assert {name: w for name, _, w in apidoc.other_names()}["MAX_DIGITS"] == ""
