"""Issue 18, hidden global state: how games run is a `Settings` value passed along, never an
environment variable that the engine reads or a simulator writes."""

from __future__ import annotations

import io
import os
import pickle

import pytest

from easymoney import simulate as S
from easymoney.commands._variant_args import INVARIANTS_ENV
from easymoney.engine.game import ruleset_for
from easymoney.engine.settings import Settings
from easymoney.loading.loader import load_variant
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner


def test_issue18_a_simulator_leaves_the_environment_alone() -> None:
    """A `Simulator` set the variable for its games and popped it: the next test saw it gone."""
    arm = S.Arm("standard")
    batch = S.Batch(games=1, players=2, max_turns=5)
    before = dict(os.environ)
    for on in (True, False):
        simulator = S.Simulator(S.Plan((arm,), batch, (arm.load(),), (),
                                       settings=Settings(invariants=on)))
        assert ("invariants" in simulator.rulesets[0].enabled) is on
        assert dict(os.environ) == before


def test_issue18_the_engine_reads_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    standard = load_variant("standard")
    for value in ("1", "0"):
        monkeypatch.setenv(INVARIANTS_ENV, value)
        assert "invariants" not in ruleset_for(standard).enabled
        assert "invariants" in ruleset_for(standard, settings=Settings(invariants=True)).enabled


def test_issue18_a_script_runs_as_its_settings_say(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(INVARIANTS_ENV, "1")
    script = parse("players Ann Bob\nAnn rolls 3 4\n")
    assert "invariants" not in ScriptRunner(script).game.ruleset.enabled
    checked = ScriptRunner(script, settings=Settings(invariants=True, dispatch="pluggy"))
    assert "invariants" in checked.game.ruleset.enabled
    assert checked.game.ruleset.hook.mode == "pluggy"


def test_issue18_settings_cross_to_worker_processes() -> None:
    """A plan goes to `--workers` processes and Dask workers pickled; a trace stays home."""
    settings = Settings(invariants=True, dispatch="pluggy", trace=io.StringIO())
    assert pickle.loads(pickle.dumps(settings)) == Settings(invariants=True, dispatch="pluggy")


def test_issue18_a_dispatch_is_checked() -> None:
    with pytest.raises(ValueError, match="dispatch must be one of fast, pluggy"):
        Settings(dispatch="quick")
