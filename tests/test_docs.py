"""The documentation is the repository's own: no path outside it, links that resolve, a rule book and a board that match the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from easymoney.engine.registry import discover
from easymoney.loading.loader import load_variant

from repo_files import text_of, tracked_files

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# Written in pieces so that this file does not match itself.
OUTSIDE = re.compile("|".join([r"/" + "work/", r"/" + "home/", r"/" + "root/",
                               r"\bshared/" + "(rules|specs|hooks)", "RULES" + r"\.md",
                               "BOARD" + r"\.md", "original" + "-description"]))
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")
FENCED = re.compile(r"^```.*?^```", re.M | re.S)  # code, where `x[i](y)` is no link




def test_no_tracked_file_names_a_path_outside_the_repository() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in tracked_files()
             if (text := text_of(p)) is not None
             for n, line in enumerate(text.splitlines(), 1) if OUTSIDE.search(line)]
    assert found == []


def test_every_relative_link_in_the_docs_resolves() -> None:
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md")), *sorted(ROOT.glob("examples/**/*.md"))]
    broken = [f"{page.relative_to(ROOT)}: {target}" for page in pages
              for target, _ in LINK.findall(FENCED.sub("", page.read_text(encoding="utf-8")))
              if "://" not in target and not (page.parent / target).exists()]
    assert broken == []


def test_the_rule_book_has_every_rule_id_the_plugins_cite() -> None:
    book = (DOCS / "rulebook.md").read_text(encoding="utf-8")
    cited = {r for info in discover(autoload=False).plugins.values() for r in info.rules}
    assert cited
    headed = set(re.findall(r"^- \*\*(R\d+[a-z]?) ", book, re.M))
    assert cited <= headed, sorted(cited - headed)
    for option in ("doubles.after_card", "mortgage.rent", "end.on", "end.max_turns"):
        assert f"`{option}`" in book, option


def test_the_board_page_numbers_every_space_and_lists_every_card() -> None:
    page = (DOCS / "board.md").read_text(encoding="utf-8")
    board, deck = page.split("## The Give or Take deck", 1)
    variant = load_variant("standard")
    rows = dict(re.findall(r"^\| (\d+) \| [^|]+ \| ([^|]+?) \|", board, re.M))
    assert {int(k): v for k, v in rows.items()} == {s.index: s.name for s in variant.spaces}
    for text in {card.text for card in variant.cards}:
        assert text in deck, text


def test_show_numbers_the_spaces_and_check_accepts_it(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "easymoney", "show", "standard"],
                          capture_output=True, text=True, check=True)
    variant = load_variant("standard")
    firsts = {}
    for space in variant.spaces:
        firsts.setdefault(space.name, space.index)  # the two cells of the light are one entry
    for name, index in firsts.items():
        assert re.search(rf"^  - {{name: {re.escape(name)}, .*  # {index}$", done.stdout, re.M), name
    path = tmp_path / "shown.yaml"
    path.write_text(done.stdout, encoding="utf-8")
    assert load_variant(str(path)).document == variant.document


@pytest.mark.parametrize("name", ["scripts.md", "rules.md", "variants.md"])
def test_the_docs_point_at_the_rule_book_and_board(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    assert "rulebook.md" in text or "board.md" in text


def test_issue29_the_plugin_guide_lists_every_concept_and_teaches_only_the_new_way() -> None:
    """docs/plugins.md opens with every concept an author meets, one a line, numbered, the
    few a rule with one action (an amount, a deal, a bot value) meets marked; the earlier
    ways are taught only in their own section at the end (and named by the hook reference)."""
    from easymoney.commands import _hookdoc as hookdoc
    text = (DOCS / "plugins.md").read_text(encoding="utf-8")
    first = text.index("\n## ")
    assert text[first:].startswith("\n## Every concept an author meets\n")
    section = text[first + 1:text.index("\n## ", first + 1)]
    items = re.findall(r"^(\d+)\. (.*)$", section, re.M)
    assert [int(n) for n, _ in items] == list(range(1, len(items) + 1))
    marked = [line for _, line in items if line.startswith("★ ")]
    assert 0 < len(marked) <= 20 and f"only the {len(marked)} marked" in section
    earlier = text.index("\n## Earlier ways (deprecated)\n")
    taught = text[:earlier]
    taught = taught[:taught.index(hookdoc.BEGIN)] + taught[taught.index(hookdoc.END):]
    for old in ("ActionStatement", "em_apply", "em_amount_step", "REFUSES", "LANDS_ON",
                "PASSES", "game.seen"):
        assert old not in taught, old
        assert old in text[earlier:], old
