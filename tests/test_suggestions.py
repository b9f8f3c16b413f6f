"""Suggestions for an unknown rule: what provides a plugin that is not installed, and no rule id that is only a different number."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from easymoney.engine.registry import AUTOLOAD_ENV, discover
from easymoney.errors import EasyMoneyError, PluginError, did_you_mean
from easymoney.loading.loader import load_variant


def _resolve_error(rule: str) -> str:
    with pytest.raises(PluginError) as exc:
        discover(autoload=False).resolve(rule)
    return exc.value.message


def test_a_known_plugin_that_is_not_installed_says_what_provides_it() -> None:
    message = _resolve_error("double_bonus")
    assert "doubles" not in message
    assert message.startswith("unknown rule 'double_bonus' (not installed: ")
    assert "easymoney-double-bonus" in message and "examples/plugins/double_bonus" in message


def test_every_example_plugin_is_known_by_what_provides_it() -> None:
    import plugin_site
    from easymoney.errors import KNOWN_PLUGINS
    for project in plugin_site.plugin_projects():
        if project.parent.parent.name != "examples":
            continue
        meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
        for pid in meta["project"]["entry-points"]["easymoney.plugins"]:
            assert plugin_site.distribution_name(project) in KNOWN_PLUGINS[pid]
            assert f"examples/plugins/{project.name}" in KNOWN_PLUGINS[pid]


def test_an_unknown_rule_with_no_close_id_points_at_the_listing() -> None:
    assert _resolve_error("nonsense") == ("unknown rule 'nonsense' (not an installed plugin; "
                                          "`easymoney rules` lists those installed)")
    with pytest.raises(PluginError) as exc:
        discover(autoload=False).get("nonsense")
    assert "`easymoney rules` lists those installed" in exc.value.message


def test_a_rule_id_is_never_suggested_for_another_number() -> None:
    assert "R9'" not in _resolve_error("R99")
    assert "`easymoney rules` lists those installed" in _resolve_error("R99")
    assert "R15a" not in _resolve_error("R16a")
    assert did_you_mean("R99", ["R9", "R19"]) == ""
    assert did_you_mean("four_side", ["four_sides"]) == " (did you mean 'four_sides'?)"
    assert did_you_mean("Take $5000", ["Take $500"]) == " (did you mean 'Take $500'?)"


def test_a_typo_still_gets_the_close_id() -> None:
    assert _resolve_error("four_side") == "unknown rule 'four_side' (did you mean 'four_sides'?)"


def test_a_variant_naming_a_plugin_that_is_not_installed(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AUTOLOAD_ENV, "1")
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: standard\nrules:\n  double_bonus: {multiplier: 3}\n")
    with pytest.raises(EasyMoneyError) as exc:
        load_variant(str(path))
    message = exc.value.located()
    assert message.startswith(f"{path}:4:3: error: rules: unknown rule: found 'double_bonus'; ")
    assert "doubles" not in message and "easymoney-double-bonus" in message


def test_the_command_line_says_so_too(tmp_path: Path) -> None:
    import os
    env = dict(os.environ, **{AUTOLOAD_ENV: "1"})
    script = tmp_path / "house.game"
    script.write_text("players Ann Bob\nwith double_bonus\n")
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(script)], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "not installed" in done.stderr and "doubles" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "easymoney", "check", "standard", "--without",
                           "R99"], env=env, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == ("error: unknown rule 'R99' (not an installed plugin; "
                           "`easymoney rules` lists those installed)\n")


