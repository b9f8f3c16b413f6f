"""Meta-tests keep the hook surface honest: every hook is documented, ordered, and fired by a game."""

from __future__ import annotations

import inspect

import pytest

from easymoney.commands import _hookdoc as hookdoc
from easymoney.engine import hookspecs
from easymoney.bots import BotDecider
from easymoney.strategies import make_strategy
from easymoney.engine.game import Game
from easymoney.loading.loader import load_variant

# every hook: the core's, and those the built-in rules declare (HOOKSPECS: em_auction, ...)
SPECS = {name: fn for name, (fn, _) in hookdoc.specs().items()}
HOOK_NAMES = tuple(SPECS)


def test_every_hook_is_documented():
    for name in HOOK_NAMES:
        doc = inspect.getdoc(SPECS[name]) or ""
        assert len(doc) > 40, f"{name} needs a docstring saying when it fires and what it returns"


def test_every_hook_is_typed():
    for name in HOOK_NAMES:
        sig = inspect.signature(SPECS[name])
        assert sig.return_annotation is not inspect.Signature.empty, name
        for param in sig.parameters.values():
            assert param.annotation is not inspect.Parameter.empty, f"{name}({param.name})"


def test_the_turn_hook_lists_what_it_fires():
    doc = inspect.getdoc(hookspecs.em_play_turn)
    for fired in ("em_turn_start", "em_move", "em_moved", "em_land", "em_turn_end",
                  "em_refusals"):
        assert fired in doc


def test_issue37_the_hooks_of_before_are_no_hooks_of_the_core():
    """em_apply and em_amount_step are translated at load (easymoney.engine.earlier): the
    engine knows only an action's own `apply` and the `Money` grid."""
    assert not {"em_apply", "em_amount_step"} & set(HOOK_NAMES)


def test_plugin_docs_list_every_hook():
    from pathlib import Path
    text = (Path(__file__).parent.parent / "docs" / "plugins.md").read_text(encoding="utf-8")
    for name in HOOK_NAMES:
        assert f"`{name}`" in text, f"docs/plugins.md does not describe {name}"


def _probe(seen: set[str]) -> object:
    """A plugin implementing every hook first (tryfirst), noting each call and answering None."""
    probe = type("Probe", (), {"PLUGIN_ID": "probe", "RULES": ()})()
    for name in HOOK_NAMES:
        args = list(inspect.signature(SPECS[name]).parameters)

        def impl(*a, _name=name, **kw):
            seen.add(_name)
        impl.__signature__ = inspect.Signature(  # pluggy reads the argument names
            [inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in args])
        setattr(probe, name, hookspecs.hookimpl(tryfirst=True)(impl))
    return probe


@pytest.fixture(scope="module")
def fired():
    """Names of the hooks fired while bot games on every shipped variant are played."""
    from easymoney.engine.game import RuleSet
    from easymoney.engine.registry import Registry, discover, plugin_info
    seen: set[str] = set()
    registry = Registry(plugins=dict(discover().plugins))
    registry.add(plugin_info(_probe(seen), "test"))
    for name in ("standard", "reference-card", "classic-1936", "no-four-sides"):
        variant = load_variant(name)
        ruleset = RuleSet(registry, (*variant.rules, "probe"))
        for seed in range(6):
            for strategy in ("cautious", "random"):
                names = ["Ann", "Bob", "Cat"]
                game = Game(variant, names, BotDecider({n: make_strategy(strategy)
                                                        for n in names}),
                            seed=seed, ruleset=ruleset, keep_log=False)
                game.setup()
                game.play(max_turns=250)
        _step_randomly(variant, ruleset)
    return seen


def _step_randomly(variant, ruleset, steps=400):
    """A stepping game answered at random from its legal actions (amounts fire
    em_money_step), deals offered to a bot (em_action_value)."""
    import random

    from easymoney import GameState
    from easymoney.engine.legal import random_action
    rng = random.Random(0)
    greedy = make_strategy("greedy")
    state = GameState(Game(variant, ["Ann", "Bob", "Cat"], BotDecider({}), seed=1,
                           ruleset=ruleset))
    for _ in range(steps):
        if state.is_over:
            break
        if state.request.kind == "agree":
            state.apply(greedy.decide(state.game, state.request))
            continue
        state.apply(random_action(state.legal_actions(), rng))


def test_every_hook_is_fired_by_a_game(fired):
    # em_check_variant is fired by the loader, checked below
    missing = set(HOOK_NAMES) - fired - {"em_check_variant"}
    assert not missing, f"hooks never fired by a game: {sorted(missing)}"


def test_check_variant_hook_is_fired_by_the_loader():
    from dataclasses import replace

    import easymoney.loading.loader as loader
    from easymoney.engine.registry import Registry, discover
    calls = []
    registry = Registry(plugins=dict(discover().plugins))
    probe = type("Probe", (), {
        "PLUGIN_ID": "turn",
        "em_check_variant": staticmethod(
            hookspecs.hookimpl(lambda variant: calls.append(variant.name))),
    })
    registry.plugins["turn"] = replace(registry.plugins["turn"], obj=probe)
    loader.load_variant("standard", registry=registry)
    assert calls == ["standard"]


def test_the_hook_reference_in_the_docs_is_the_generated_one():
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "plugins.md").read_text(encoding="utf-8")
    start, end = text.index(hookdoc.BEGIN), text.index(hookdoc.END) + len(hookdoc.END)
    assert text[start:end] + "\n" == hookdoc.markdown(), \
        "docs/plugins.md's hook reference is stale: regenerate it with `easymoney hooks --markdown`"
    assert hookdoc.hook_names() == list(HOOK_NAMES)
    assert {"em_auction", "em_exempt"} <= set(HOOK_NAMES) - set(vars(hookspecs))


def test_em_setup_runs_last_registered_first_as_its_spec_says():
    import pluggy

    from easymoney.engine.registry import _new_manager
    impl = pluggy.HookimplMarker("easymoney")
    order = []

    class First:
        @impl
        def em_setup(self, game):
            order.append("first registered")

    class Second:
        @impl
        def em_setup(self, game):
            order.append("second registered")

    pm = _new_manager()
    pm.register(First())
    pm.register(Second())
    pm.hook.em_setup(game=None)
    assert order == ["second registered", "first registered"]
    assert "the last registered first" in inspect.getdoc(hookspecs.em_setup)
