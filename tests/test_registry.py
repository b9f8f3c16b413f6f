"""Finding plugins: built-in and third party the same way, by the id every listing shows."""

from __future__ import annotations

import os
import subprocess
import sys
import types
import weakref

import pytest

from easymoney.errors import PluginError
from easymoney.engine.registry import (BUILTIN_PLUGINS, Registry, build_manager, discover,
                                       plugin_info)


def test_every_builtin_plugin_is_registered_under_its_id():
    registry = discover()
    for pid in BUILTIN_PLUGINS:
        info = registry.get(pid)
        assert info.id == pid and info.origin == "built-in"
        assert info.summary, f"{pid} has no docstring"


def test_every_rule_of_the_rule_book_has_a_plugin():
    rule_ids = {f"R{n}" for n in range(1, 31)} | {"R15a", "R21a"} - {"R24"}
    implemented = {r for p in discover().plugins.values() for r in p.rules}
    # docs/rulebook.md numbers R1-R30 with R15a and R21a; it has no R24
    assert rule_ids - {"R24"} <= implemented


def test_a_rule_id_resolves_to_its_plugin():
    registry = discover()
    assert registry.resolve("R13") == "four_sides"
    assert registry.resolve("four_sides") == "four_sides"
    assert registry.resolve("R15a") == "hospital"


def test_unknown_rule_suggests_the_close_one():
    with pytest.raises(PluginError) as exc:
        discover().resolve("four_side")
    assert "unknown rule 'four_side' (did you mean 'four_sides'?)" in exc.value.message


def test_third_party_plugin_found_through_the_entry_point():
    registry = discover()
    info = registry.get("sample_rule")
    assert info.origin.startswith("entry point sample_rule (easymoney-sample-plugin")
    assert info.defaults() == {"greeting": "hello"}
    assert registry.get("double_bonus").requires == ("bonus_corner",)


def test_broken_third_party_plugins_are_reported_in_one_line_each():
    errors = discover().load_errors
    assert any(e.startswith("plugin sample_broken (entry point sample_broken") and
               "ImportError: this sample plugin is broken on purpose" in e for e in errors)
    assert any(e.startswith("plugin sample_badhook") and "declares a hook badly" in e
               and "nonsense" in e for e in errors)
    assert all("\n" not in e for e in errors)


def test_autoload_can_be_switched_off():
    env = dict(os.environ, EASYMONEY_DISABLE_PLUGIN_AUTOLOAD="1")
    code = ("from easymoney.engine.registry import discover; r = discover(); "
            "print(sorted(set(r.plugins) - {'core'}) == sorted(__import__('easymoney.engine.registry')"
            ".engine.registry.BUILTIN_PLUGINS), r.load_errors)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "True []"


def test_a_third_party_rule_plays_when_switched_on():
    from easymoney.bots import BotDecider
    from easymoney.strategies import make_strategy
    from easymoney.engine.game import Game
    from easymoney.loading.loader import load_variant
    variant = load_variant("standard", enable=["sample_rule"], options=["sample_rule.greeting=hi"])
    game = Game(variant, ["Ann", "Bob"], BotDecider({n: make_strategy("cautious") for n in
                                                     ("Ann", "Bob")}), seed=1)
    game.setup()
    game.play(max_turns=2)
    assert [game.describe(e) for e in game.log if e.kind == "sample"] == ["hi, Ann", "hi, Bob"]


def test_the_manager_is_built_by_a_function_with_only_enabled_plugins():
    registry = discover()
    pm = build_manager(registry, ["turn", "bank"])
    names = {name for name, _ in pm.list_name_plugin()}
    assert names == {"core", "turn", "bank"}


@pytest.mark.parametrize("name, value", [("PASSES", "bonus"), ("LANDS_ON", ["street", 3]),
                                         ("REFUSES", ("Build",)), ("REFUSES_AMOUNTS", "Bid"),
                                         ("REFUSES_ASKED", (3,)), ("REFUSES_UNLISTED", "Sell")])
def test_a_misdeclared_call_filter_is_refused_with_its_name(name, value):
    plugin = types.SimpleNamespace(PLUGIN_ID="odd", **{name: value})
    with pytest.raises(PluginError, match=f"plugin odd \\(here\\): {name} must be a tuple of"):
        plugin_info(plugin, "here")


def test_issue29_a_check_added_later_is_asked_of_the_plugins_found_before(monkeypatch):
    """The script language adds its check of a plugin's lines when it is imported (the engine
    calls no layer above it); a registry found before that is checked then, as if at load."""
    from easymoney.engine import registry as module
    found = discover()
    registry = Registry(dict(found.plugins), list(found.load_errors))
    monkeypatch.setattr(module, "_discovered", [weakref.ref(registry)])
    monkeypatch.setattr(module, "DECLARATION_CHECKS", [])
    module.add_declaration_check(lambda _, info: [f"plugin {info.id}: refused"] * (info.id in
                                                                                  ("sample_rule", "bank")))
    assert "sample_rule" not in registry.plugins
    assert registry.load_errors[-1] == "plugin sample_rule: refused"
    assert "bank" in registry.plugins  # a built-in rule is not asked
    assert module.DECLARATION_CHECKS  # and every plugin loaded later is
