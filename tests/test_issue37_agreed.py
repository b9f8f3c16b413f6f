"""Issue 37: an accepted deal is judged again only when something was applied while its other
party answered (an any-moment action on the way, R16's sale of the card or a plugin's);
otherwise the verdict given before the offer stands, and the rules are not asked twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from easymoney.engine.actions import WINDOW_BEFORE, Request, Roll
from easymoney.engine.deals import AGREE, Accept
from easymoney.engine.decisions import Decisions
from easymoney.engine.game import Game
from easymoney.engine.registry import discover
from easymoney.loading.loader import load_variant
from stand_in_plugins import stand_in

SPLURGE = '''\
"""House rule: at any moment a player may give the Bank all their cash but $1."""
from __future__ import annotations
from dataclasses import dataclass
from easymoney import Action, Player, Refusal

PLUGIN_ID = "splurge"
RULES = ()


@dataclass(slots=True)
class Splurge(Action):
    LINE = "{player} splurges"
    ANY_MOMENT = True
    player: Player

    def refusals(self, game):
        if self.player.cash <= 1:
            return [Refusal("-", PLUGIN_ID, f"{self.player} has nothing to splurge")]
        return []

    def apply(self, game):
        game.transfer(self.player, game.bank, self.player.cash - 1, "a splurge", "splurge")


ACTIONS = (Splurge,)
'''


class _Scripted:
    """Ann offers Bob a street for $100 once; Bob splurges first (or not), then accepts."""

    def __init__(self, offer: Any, splurge: Any) -> None:
        self.offer, self.splurge = offer, splurge
        self.told: list[tuple[Any, list[Any]]] = []

    def decide(self, game: Game, request: Request) -> Any:
        if request.kind == AGREE:
            if self.splurge is not None:
                splurge, self.splurge = self.splurge, None
                return splurge
            return Accept(request.player, request.offer)
        if self.offer is not None:
            offer, self.offer = self.offer, None
            return offer
        return Roll(request.player)

    def refused(self, game: Game, request: Request, action: Any, refusals: list[Any]) -> None:
        self.told.append((action, refusals))

    def choose_card(self, game: Game, player: Any) -> None:
        return None


def _window_of_a_sale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, splurging: bool
                      ) -> tuple[Game, _Scripted, Any, list[Any]]:
    """Ann owns a street and offers it to Bob for $100 in her window; Bob splurges while
    answering when `splurging`. (the game, the decider, the street, the actions judged)"""
    from easymoney.plugins.sales import Sell
    with stand_in(tmp_path, monkeypatch, {"em_splurge": ("splurge", SPLURGE)}):
        variant = load_variant("standard", registry=discover(), enable=["splurge"])
        game = Game(variant, [("Ann", None), ("Bob", None)], _Scripted(None, None), seed=1)
        game.setup()
        ann, bob = game.players
        street = next(s for s in game.spaces if game.kinds[s.kind].builds)
        game.acquire(ann, street)
        splurge = next(k for k in game.any_moment if k.__name__ == "Splurge")(bob)
        decider = _Scripted(Sell(ann, street, bob, 100), splurge if splurging else None)
        game.decisions.decider = decider
        judged: list[Any] = []
        real = Decisions.refusals

        def counting(self: Decisions, action: Any) -> Any:
            judged.append(action)
            return real(self, action)

        monkeypatch.setattr(Decisions, "refusals", counting)
        accepts = (Roll, *(k for k in game.ruleset.action_owner if k.window))
        request = Request(WINDOW_BEFORE, ann, accepts)
        action = game.decisions.ask(request)
        while type(action) is not Roll:  # as the turn does: an agreed sale is carried out
            game.apply(action)
            action = game.decisions.ask(request)
        return game, decider, street, judged


def test_issue37_an_accepted_deal_with_nothing_on_the_way_is_judged_once_R22(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game, decider, street, judged = _window_of_a_sale(tmp_path, monkeypatch, splurging=False)
    ann, bob = game.players
    assert game.owner[street.index] is bob and decider.told == []
    # the offer, judged before Bob was asked, and not again once he accepts
    assert [type(a).__name__ for a in judged if type(a).__name__ == "Sell"] == ["Sell"]


def test_issue37_an_accepted_deal_is_judged_again_after_an_any_moment_action_R22(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game, decider, street, judged = _window_of_a_sale(tmp_path, monkeypatch, splurging=True)
    ann, bob = game.players
    # Bob has $1 left once he accepts: the sale is refused then, and nothing changes hands
    assert bob.cash == 1 and game.owner[street.index] is ann
    [(action, refusals)] = decider.told
    assert type(action).__name__ == "Sell" and [r.rule for r in refusals] == ["R22"]
    assert [type(a).__name__ for a in judged if type(a).__name__ in ("Sell", "Splurge")] \
        == ["Sell", "Splurge", "Sell"]


def test_issue37_a_class_that_says_ANY_MOMENT_needs_no_hook_R16(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One action model: the class's `ANY_MOMENT` makes it an any-moment action of the games
    whose rules have it on (R16's sale says so alone too); em_any_moment_actions is for
    others' types. Before, a class written from the docs without the hook was a TypeError
    the moment it was answered out of turn."""
    from easymoney.engine.legal import legal_actions
    with stand_in(tmp_path, monkeypatch, {"em_splurge": ("splurge", SPLURGE)}):
        registry = discover()
        games = []
        for enable in (["splurge"], []):
            game = Game(load_variant("standard", registry=registry, enable=enable),
                        [("Ann", None), ("Bob", None)], _Scripted(None, None), seed=1)
            game.setup()
            games.append(game)
        on, off = games
        assert sorted(k.__name__ for k in on.any_moment) == ["SellExemption", "Splurge"]
        assert sorted(k.__name__ for k in off.any_moment) == ["SellExemption"]
        ann = on.players[0]
        accepts = (Roll, *(k for k in on.ruleset.action_owner if k.window))
        listed = legal_actions(on, Request(WINDOW_BEFORE, ann, accepts))
        assert "Ann splurges" in [str(a) for a in listed]
