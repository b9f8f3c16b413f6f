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


TIP = '''"""A tip to the Bank, ten percent of the tipper's cash, in their window."""
from dataclasses import dataclass
from fractions import Fraction

from easymoney import WINDOW_KINDS, Action, Player, money


@dataclass(slots=True)
class Tip(Action):
    LINE = "{player} tips"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player

    def due(self, game):
        return game.round(Fraction(self.player.cash, 10))

    def describe(self, game=None):  # the amount is computed: shown where a game is at hand
        return "tip the Bank" if game is None else f"tip the Bank {money(self.due(game))}"

    def apply(self, game):
        game.transfer(self.player, game.bank, self.due(game), "a tip")


ACTIONS = (Tip,)
'''


def test_issue39_item20_describe_takes_the_game_and_the_old_signature_still_works(
        tmp_path: Path, monkeypatch) -> None:
    from stand_in_plugins import stand_in

    from easymoney.engine.actions import described
    from easymoney.view import decision_view
    from easymoney.script.parser import parse
    from easymoney.script.runner import ScriptRunner
    with stand_in(tmp_path, monkeypatch, {"em_tip": ("tip", TIP)}):
        game = ScriptRunner(parse("with tip\nplayers Ann Bob\nseed 3\n")).run().game
        labels = {entry["line"]: entry["label"] for entry in decision_view(game)["legal"]}
        assert labels["Ann tips"] == "tip the Bank $2,000"  # 10% of $20,000
        assert labels["Ann rolls"] == "roll"  # a describe(self) of the old signature
        tip = next(a for a in game.ruleset.action_owner if a.__name__ == "Tip")(game.players[0])
        assert described(tip) == "tip the Bank" and described(tip, game) == "tip the Bank $2,000"
        try:
            from easymoney.web.words import control
        except ImportError:  # the web extra
            return
        assert control(0, tip, "Ann", game)["label"] == "Tip the Bank $2,000"
        assert control(0, tip, "Ann")["label"] == "Tip the Bank"


def test_issue39_item20_two_diverging_copies_never_share_a_board_version() -> None:
    """A cache keyed on `board_version` made a listing and its refusals disagree in `mc`'s
    copies: two copies that changed their boards apart kept equal versions."""
    from easymoney.bots import BotDecider
    from easymoney.engine.game import Game
    from easymoney.engine.stepping import copy_game
    from easymoney.loading.loader import load_variant
    variant = load_variant("standard")
    game = Game(variant, ["Ann", "Bob"], BotDecider({}))
    game.setup()
    twin = copy_game(game, BotDecider({}))
    assert twin.board_version == game.board_version  # the same board, the same number
    streets = [s for s in game.spaces if s.kind == "street"]
    game.acquire(game.players[0], streets[0])
    twin.acquire(twin.players[1], streets[1])
    assert twin.board_version != game.board_version
    other = Game(variant, ["Ann", "Bob"], BotDecider({}))
    assert other.board_version not in (game.board_version, twin.board_version)


TOLL = '''"""A toll booth: a kind of space of its own, whose landings it handles."""
from easymoney import OwnKind, SpaceKind, hookimpl

SPACE_KINDS = {"toll": SpaceKind(schema={"properties": {}})}
ASKED = []


@hookimpl
def em_land(game, player, space: OwnKind, dice):
    ASKED.append(space.kind)
'''


@pytest.mark.parametrize("annotated", [True, False])
def test_issue39_item20_a_third_party_em_land_gets_its_own_kinds_by_annotation(
        tmp_path: Path, monkeypatch, annotated: bool) -> None:
    """A built-in rule that declares kinds is asked about landings on its own; a third-party
    one was asked about every landing, with no way to say otherwise: `space: OwnKind`."""
    from types import SimpleNamespace

    from stand_in_plugins import stand_in

    from easymoney.bots import BotDecider
    from easymoney.engine.game import Game
    from easymoney.loading.loader import load_variant
    text = TOLL if annotated else TOLL.replace("space: OwnKind", "space")
    with stand_in(tmp_path, monkeypatch, {"em_toll": ("toll", text)}):
        module = __import__("em_toll")
        game = Game(load_variant("standard", enable=["toll"]), ["Ann", "Bob"], BotDecider({}))
        street = next(s for s in game.spaces if s.kind == "legend")
        game.hook.land_for(street.kind)(game, game.players[0], street, (1, 2))
        game.hook.land_for("toll")(game, game.players[0], SimpleNamespace(kind="toll"), (1, 2))
        assert module.ASKED == (["toll"] if annotated else ["legend", "toll"])


def test_issue39_item20_the_pages_http_api_is_documented() -> None:
    """A test of a plugin's controls without a browser had to read static/app.js: every
    route of the server is in docs/web.md's HTTP API, and so are the view's fields."""
    pytest.importorskip("starlette", reason="the web extra")
    from easymoney.web.app import create_app
    text = (DOCS / "web.md").read_text(encoding="utf-8")
    api = text[text.index("## The HTTP API"):text.index("## Safety")]
    app = create_app(str(ROOT))
    paths = {route.path for route in app.routes if route.path.startswith(("/api", "/ws"))}
    assert len(paths) > 15
    for path in paths:
        written = path.replace("{id}", "ID").replace("{k}", "K")
        assert f" {written}" in api, f"{path} is not in docs/web.md's HTTP API"
    for field in ("version", "controls", "refused", "players", "prompt", "asked", "bot",
                  "least", "most", "step", "amount", "index", "shown"):
        assert f'"{field}"' in api or f"`{field}`" in api, field
