"""Issue 29, part 4: what a hook handles is read from the annotation of its parameter (traits,
action classes), in every dispatch mode; a listing's narrowings follow from the same
annotation; the earlier speed declarations still work, with a DeprecationWarning."""

from __future__ import annotations

import random
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stand_in_plugins import stand_in
from test_refusal_declarations import CAP, _listed_in_windows, _mortgages, _sells_above_cap

from easymoney import (ActionRange, AuctionedOnLanding, BoughtOnLanding, Builds, ByAnother,
                       Deal, HandsOver, OffGrid, Priced, RaisesMoney, Rented, WindowAction,
                       new_game)
from easymoney.bots import BotDecider
from easymoney.engine.game import Game, ruleset_for
from easymoney.engine.legal import random_action
from easymoney.engine.registry import discover
from easymoney.engine.traits import EVERYTHING, selection
from easymoney.errors import PluginError
from easymoney.loading.loader import load_variant
from easymoney.plugins.auction import Bid
from easymoney.plugins.building import Build
from easymoney.plugins.debts import GoBankrupt
from easymoney.plugins.mortgage import Mortgage
from easymoney.plugins.sales import Sell
from easymoney.strategies import make_strategy

CALLS: list[tuple[str, str]] = []  # (plugin, what its hook was asked about), by the plugins below

PRICE_CAP = textwrap.dedent('''
    """No sale above $100 (a house rule of a test), judged by its annotation's selection."""
    from easymoney import Action, Deal, Refusal, hookimpl
    from easymoney.plugins.sales import Sell
    from test_traits import CALLS

    PLUGIN_ID = "price_cap"

    @hookimpl
    def em_refusals(game, action: {annotation}):
        CALLS.append((PLUGIN_ID, type(action).__name__))
        if getattr(action, "price", 0) > {cap}:
            return [Refusal("-", PLUGIN_ID, "no sale above ${cap}")]
        return None
''')

NO_MORTGAGE = textwrap.dedent('''
    """No mortgage in a window: only to raise money (a house rule of a test)."""
    from easymoney import WINDOW_KINDS, Action, ByAnother, RaisesMoney, Refusal, WindowAction, hookimpl
    from easymoney.plugins.mortgage import Mortgage

    PLUGIN_ID = "no_mortgage"

    @hookimpl
    def em_refusals(game, action: {annotation}):
        if type(action) is Mortgage and game.request is not None \\
                and game.request.kind in WINDOW_KINDS:
            return [Refusal("-", PLUGIN_ID, "no mortgage in a window in this house")]
        return None
''')

LANDING = textwrap.dedent('''
    """Counts landings (a plugin of a test)."""
    from easymoney import Rented, Space, hookimpl
    from test_traits import CALLS

    PLUGIN_ID = "landings"

    @hookimpl
    def em_land(game, player, space: {annotation}, dice):
        CALLS.append((PLUGIN_ID, space.kind))
        return None
''')

EARLIER = textwrap.dedent('''
    """Declares what it handles the way before issue 29 (a plugin of a test)."""
    from easymoney import hookimpl
    from easymoney.plugins.sales import Sell

    PLUGIN_ID = "earlier"
    REFUSES = (Sell,)
    REFUSES_AMOUNTS = ()
    LANDS_ON = ("street",)
    PASSES = ("bonus",)

    @hookimpl
    def em_refusals(game, action):
        return None

    @hookimpl
    def em_land(game, player, space, dice):
        return None

    @hookimpl
    def em_moved(game, player, start, steps):
        return None
''')


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              request: pytest.FixtureRequest) -> Iterator[None]:
    """The plugins above, each with the annotation the test names."""
    cap, mortgage, landing = request.param
    modules = {"price_cap_rule": ("price_cap", PRICE_CAP.format(cap=CAP, annotation=cap)),
               "no_mortgage_rule": ("no_mortgage", NO_MORTGAGE.format(annotation=mortgage)),
               "landings_rule": ("landings", LANDING.format(annotation=landing))}
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    CALLS.clear()
    with stand_in(tmp_path, monkeypatch, modules):
        yield


def _bot_game(dispatch: str, enable: list[str], turns: int = 150) -> Game:
    variant = load_variant("standard", registry=discover(), enable=enable)
    names = ["Ann", "Bob", "Cat"]
    game = Game(variant, names, BotDecider({n: make_strategy("random") for n in names}),
                seed=5, ruleset=ruleset_for(variant, dispatch=dispatch), keep_log=False)
    game.setup()
    game.play(max_turns=turns)
    return game


def test_issue29_traits_select_action_types_by_their_class_attributes() -> None:
    assert issubclass(Bid, HandsOver) and issubclass(Sell, HandsOver | Deal)
    assert issubclass(Sell, Deal) and not issubclass(Bid, Deal)
    assert issubclass(Build, Builds) and issubclass(Build, WindowAction)
    assert issubclass(Mortgage, RaisesMoney) and not issubclass(Bid, RaisesMoney)
    assert issubclass(Bid, Priced) and issubclass(Bid, OffGrid) and not issubclass(Build, Priced)
    assert isinstance(Bid.__new__(Bid), HandsOver) and not isinstance(1, HandsOver)


def test_issue29_an_annotation_selects_what_a_hook_handles() -> None:
    def judge(game: Any, action: ByAnother[WindowAction | RaisesMoney]) -> None: ...
    chosen = selection(judge, "action")
    assert chosen.by_another and chosen.test is not None
    assert chosen.test(Mortgage) and not chosen.test(Bid)
    assert chosen.concerns(Mortgage) == {"player"}  # who acts, whatever the amount

    def of_class(game: Any, action: GoBankrupt) -> None: ...
    assert selection(of_class, "action").test(GoBankrupt)  # type: ignore[misc]
    assert not selection(of_class, "action").test(Mortgage)  # type: ignore[misc]

    def unread(game: Any, action: "NotImportedAtRunTime") -> None: ...  # type: ignore[name-defined] # noqa: F821
    def plain(game: Any, action: Any) -> None: ...
    assert selection(unread, "action") is EVERYTHING  # an annotation for type checkers only
    assert selection(plain, "action") is EVERYTHING

    def rent(game: Any, player: Any, space: Rented, dice: Any) -> None: ...
    def buy(game: Any, player: Any, space: BoughtOnLanding, dice: Any) -> None: ...
    def auction(game: Any, player: Any, space: AuctionedOnLanding, dice: Any) -> None: ...
    kinds = ruleset_for(load_variant("standard")).kinds
    for lands, expected in ((rent, {"street", "utility", "commercial"}), (buy, {"street"}),
                            (auction, {"utility", "commercial"})):
        test = selection(lands, "space").test
        selected = {k for k, v in kinds.items() if test is not None and test(v)}
        # a plugin's kind with the trait too (the railroads example's, when installed)
        assert expected <= selected and not selected & {"bonus", "traffic_light", "legend"}


@pytest.mark.parametrize("installed", [("Sell", "WindowAction", "Rented")], indirect=True)
@pytest.mark.parametrize("dispatch", ["fast", "pluggy"])
def test_issue29_R22_R18_a_hook_is_called_only_with_what_its_annotation_selects(
        installed: None, dispatch: str) -> None:
    game = _bot_game(dispatch, ["price_cap", "no_mortgage", "landings"])
    ann, bob = game.players[:2]
    street = next(s for s in game.spaces if s.kind == "street")
    for action in (Sell(ann, street, bob, 500), Bid(ann, street, 500), Mortgage(ann, street)):
        game.refusals(action)
    judged = {what for plugin, what in CALLS if plugin == "price_cap"}
    landed = {what for plugin, what in CALLS if plugin == "landings"}
    assert judged == {"Sell"}, judged  # in both modes: the annotation binds
    assert landed and landed <= {"street", "utility", "commercial"}, landed


@pytest.mark.parametrize("installed", [("Action", "Action", "Space")], indirect=True)
def test_issue29_R18_a_hook_without_annotation_is_asked_about_everything(installed: None) -> None:
    _bot_game("fast", ["price_cap", "landings"], turns=60)
    judged = {what for plugin, what in CALLS if plugin == "price_cap"}
    landed = {what for plugin, what in CALLS if plugin == "landings"}
    assert "Roll" in judged and "Bid" in judged  # every action the game checks
    assert "street" in landed and len(landed) > 3  # every kind landed on


@pytest.mark.parametrize("installed", [("Sell", "WindowAction", "Rented")], indirect=True)
def test_issue29_R22_R19_a_judge_of_a_class_is_asked_at_both_ends_of_a_range(installed: None) -> None:
    listings = _listed_in_windows()
    assert any(isinstance(f, ActionRange) and f.kind is Sell for legal in listings for f in legal), \
        "the game never offered a sale: the test proves nothing"
    assert _sells_above_cap(listings) == 0
    assert _mortgages(listings) == 0


@pytest.mark.parametrize("installed", [("Deal", "ByAnother[WindowAction]", "Rented")],
                         indirect=True)
def test_issue29_R22_R19_a_listing_takes_the_annotation_at_its_word(installed: None) -> None:
    # Deal concerns whom a deal binds (not its price); ByAnother only others than the asked:
    # both rules above break that, so the listing offers what they would refuse
    listings = _listed_in_windows()
    assert _sells_above_cap(listings) > 0
    assert _mortgages(listings) > 0


@pytest.mark.parametrize("installed", [("Deal", "ByAnother[WindowAction]", "Rented")],
                         indirect=True)
def test_issue29_R22_the_invariants_check_names_a_rule_that_breaks_its_annotation(
        installed: None) -> None:
    state = new_game("standard", ["Ann", "Bob"], 7,
                     enable=["price_cap", "no_mortgage", "invariants"], keep_log=False)
    rng = random.Random(7)
    with pytest.raises(PluginError, match=r"plugin (price_cap|no_mortgage) refused `\w+ (sells|"
                       r"mortgages) .*` \(.*\), which its annotation `action: (Deal|ByAnother"
                       r"\[WindowAction\])` promises it never refuses: .*correct the annotation"):
        for _ in range(3000):
            state.apply(random_action(state.legal_actions(), rng))


def test_issue29_each_earlier_speed_declaration_warns_and_still_narrows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with stand_in(tmp_path, monkeypatch, {"earlier_rule": ("earlier", EARLIER)}):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            registry = discover()
        said = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)
                and str(w.message).startswith("plugin earlier ")]
        for name, instead in (("REFUSES", "annotate em_refusals's `action`"),
                              ("REFUSES_AMOUNTS", "drop it"), ("LANDS_ON", "annotate em_land's "
                                                               "`space`"),
                              ("PASSES", "drop it")):
            assert any(f"it declares {name}: {instead}" in m for m in said), (name, said)
        variant = load_variant("standard", registry=registry, enable=["earlier"])
        hook = ruleset_for(variant).hook
        assert hook.land_for("utility") is not hook.land_for("street")  # LANDS_ON narrows
        assert any(f.__module__ == "earlier_rule" for f, _ in hook._refusers(Sell, False, False, False))
        assert not any(f.__module__ == "earlier_rule" for f, _ in hook._refusers(Bid, False, False, False))
