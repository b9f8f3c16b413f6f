"""Issue 39 item 19: a rejected offer is remembered (who offered what to whom, and when), a
plugin is told of it (`em_offer_rejected`), and the bots do not offer the same deal to the
same player again until their cash or estate has changed (R22a)."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from easymoney import bots
from easymoney.bots import BotDecider
from easymoney.engine.actions import WINDOW_BEFORE, EndTurn, Request, Roll
from easymoney.engine.deals import counterparty, deal_of, last_rejection, rejections
from easymoney.engine.game import Game
from easymoney.loading.loader import load_variant
from easymoney.strategies import make_strategy
from stand_in_plugins import stand_in

pytest.importorskip("easymoney_railroads", reason="the railroads example is installed for the tests")

WATCHER = '''"""Counts the rejected offers it is told of."""
from easymoney import hookimpl, StashKey

TOLD = StashKey("watcher.told")


@hookimpl
def em_offer_rejected(game, player, offer):
    game.stash.setdefault(TOLD, []).append((game.turns_played + 1, offer.player.name,
                                            player.name, str(offer)))
'''


def _situation(game: Game, other: str) -> tuple[int, ...]:
    player = game.by_name[other]
    return (player.cash, player.estate_version)


def bot_game(variant: Any, strategies: list[str], seed: int, turns: int = 200
             ) -> tuple[Game, list[tuple[str, tuple[Any, ...], tuple[int, ...], bool]]]:
    """A game of bots, with every loan offered: (who to, the deal, their cash and estate
    when it was offered, whether it was rejected)."""
    names = [f"P{k + 1}" for k in range(len(strategies))]
    game = Game(variant, list(zip(names, strategies)),
                BotDecider({n: make_strategy(s) for n, s in zip(names, strategies)}), seed=seed)
    offers: list[tuple[str, tuple[Any, ...], tuple[int, ...], bool]] = []

    def heard(event: Any) -> None:
        data = event.data
        if event.kind == "loan":  # told before the money moves: the state it was offered in
            offerer, other, rejected = data["player"], data["borrower"], False
        else:
            offerer, other, rejected = data["offerer"], data["player"], True
        deal = ("Lend", offerer, other)
        offers.append((other, deal, _situation(game, other), rejected))

    game.listen(heard, kinds=("loan", "deal_rejected"))
    game.setup()
    game.play(max_turns=turns)
    return game, offers


@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_issue39_item19_bots_do_not_offer_a_rejected_deal_again_while_nothing_changed(strategy):
    variant = load_variant("standard", enable=["railroads"])
    rejected = repeated = 0
    for seed in range(12):
        _, offers = bot_game(variant, [strategy, "random", "cautious"], seed)
        # each deal -> the other party's cash and estate at its last rejection: offered again
        # only once they changed (they may change back: the bots keep the last rejection)
        turned_down: dict[tuple[Any, ...], tuple[int, ...]] = {}
        for other, deal, state, was_rejected in offers:
            if turned_down.get(deal) == state:
                repeated += 1
            if was_rejected:
                rejected += 1
                turned_down[deal] = state
    assert rejected > 0 and repeated == 0


def test_issue39_item19_the_check_fails_without_the_bots_memory(monkeypatch):
    """The test above can fail: without the memory, a random bot offers a loan again to
    whoever turned it down, nothing changed (in the window after the landing, say)."""
    monkeypatch.setattr(bots, "offered_in_vain", lambda game, action: False)
    variant = load_variant("standard", enable=["railroads"])
    repeated = 0
    for seed in range(12):
        _, offers = bot_game(variant, ["random", "random", "cautious"], seed)
        turned_down: dict[tuple[Any, ...], tuple[int, ...]] = {}
        for other, deal, state, was_rejected in offers:
            repeated += turned_down.get(deal) == state
            if was_rejected:
                turned_down[deal] = state
    assert repeated > 0


def test_issue39_item19_a_rejection_is_kept_and_told_to_a_plugin(tmp_path: Path, monkeypatch):
    with stand_in(tmp_path, monkeypatch, {"em_watcher": ("watcher", WATCHER)}):
        module = __import__("em_watcher")
        variant = load_variant("standard", enable=["railroads", "watcher"])
        for seed in range(12):
            game, offers = bot_game(variant, ["random", "random", "random"], seed)
            if any(rejected for *_, rejected in offers):
                break
        told = game.stash.get(module.TOLD, [])
        kept = rejections(game)
        assert told and kept
        # the plugin was told of each rejection the game keeps, the latest of each deal
        latest = {(t[1], t[2]): (k, t) for k, t in enumerate(told)}  # by when last told
        assert [(r.turn, r.offerer, r.player, r.offer) for r in kept] == \
            [t for _, t in sorted(latest.values())]
        last = kept[-1]
        assert last.window in ("window_before", "window_after")
        assert last.words.startswith("lend $") and last.offer.startswith(f"{last.offerer} lends")
        assert last.deal == ("Lend", last.offerer, last.player)
        offer = game.ruleset.registry.get("railroads").obj.Lend(
            game.by_name[last.offerer], game.by_name[last.player], 100)
        assert counterparty(offer).name == last.player and deal_of(offer) == last.deal
        assert last_rejection(game, offer) == last


# --- the random bot picks a kind of action first (issue 39 item 20) ---------------------------

def _rolls_in_a_window(tries: int = 400) -> int:
    """How often a random bot throws in Ann's window before the throw, where it may also lend
    (a loan at either end of its amount)."""
    variant = load_variant("standard", enable=["railroads"])
    names = ["Ann", "Bob", "Cat"]
    game = Game(variant, [(n, "random") for n in names],
                BotDecider({n: make_strategy("random") for n in names}), seed=5)
    game.setup()
    strategy = make_strategy("random")
    request = game.request = Request(WINDOW_BEFORE, game.by_name["Ann"], ())
    rolls = 0
    for _ in range(tries):
        game.stash.pop(bots._WINDOW_USE, None)  # a new window each time
        rolls += type(strategy.before(game, request)).__name__ == "Roll"
    return rolls


def test_issue39_item20_random_picks_a_kind_of_action_first():
    """The throw was one answer in three (it lent in two windows of three); a kind in two now."""
    rolls = _rolls_in_a_window()
    assert 170 < rolls < 230, rolls


def test_issue39_item20_the_kind_check_fails_on_a_uniform_pick(monkeypatch):
    monkeypatch.setattr(bots, "pick_by_kind",
                        lambda game, options: options[int(game.rng.random() * len(options))])
    assert _rolls_in_a_window() < 160


def test_issue39_item20_pick_by_kind_is_uniform_when_each_kind_has_one_action():
    """A draw among actions of distinct kinds is the uniform draw it was: the same games."""
    options: list[Any] = [Roll(None), EndTurn(None)]
    for seed in range(20):
        game, same = SimpleNamespace(rng=random.Random(seed)), random.Random(seed)
        assert bots.pick_by_kind(game, options) is options[int(same.random() * 2)]
