"""Issue 39 item 20: what the docs say of the code is true (the dispatch of `play`, the
deprecated filters, the random bot, the state a plugin's cache may key on, the page's API)."""

from __future__ import annotations

from pathlib import Path

import pytest

from easymoney.cli import main
from easymoney.engine import dispatch

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_issue39_item20_play_takes_dispatch_pluggy(tmp_path: Path, capsys, monkeypatch) -> None:
    """plugins.md says `--dispatch pluggy` is there for debugging a game: `play` takes it."""
    modes: list[str] = []
    made = dispatch.HookRelay.__init__

    def spy(self, pm, mode, *args, **kwargs):
        modes.append(mode)
        made(self, pm, mode, *args, **kwargs)

    monkeypatch.setattr(dispatch.HookRelay, "__init__", spy)
    script = tmp_path / "g.game"
    script.write_text("players Ann Bob\nseed 3\nAnn rolls 3 4\nexpect Ann at 7\n")
    assert main(["play", str(script), "--dispatch", "pluggy"]) == 0
    out = capsys.readouterr().out
    assert "1 of 1 held" in out and "pluggy" in modes
    with pytest.raises(SystemExit) as stopped:
        main(["play", str(script), "--dispatch", "other"])
    assert stopped.value.code == 2
    assert "--dispatch" in capsys.readouterr().err


def test_issue39_item20_agents_doc_recommends_no_deprecated_filter() -> None:
    text = (DOCS / "agents.md").read_text(encoding="utf-8")
    for deprecated in ("REFUSES_UNLISTED", "REFUSES_AMOUNTS", "REFUSES_ASKED", "LANDS_ON"):
        assert deprecated not in text, deprecated
