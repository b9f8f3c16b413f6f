"""Helpers for the rule tests: play a short game script, expect a refusal, snapshot the state."""

from __future__ import annotations

import re
from importlib import resources
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

from easymoney.engine.settings import Settings
from easymoney.errors import EasyMoneyError
from easymoney.script.parser import parse
from easymoney.script.runner import RunResult, ScriptRunner

EXPECT = re.compile(r"^\s*expect\b")
# every rule test's game checks its bookkeeping after each event
CHECKED = Settings(invariants=True)


def _script(text: str, players: str | None) -> str:
    """Add `players Ann Bob` when the script names no players."""
    if players is None and not re.search(r"^\s*players\b", text, re.M):
        players = "Ann Bob"
    return (f"players {players}\n" if players else "") + text


def runner(text: str, *, players: str | None = None, enable: Sequence[str] = (),
           disable: Sequence[str] = (), options: Sequence[str] = ()) -> ScriptRunner:
    return ScriptRunner(parse(_script(text, players)), enable=enable, disable=disable,
                        options=options, settings=CHECKED)


def play(text: str, *, players: str | None = None, enable: Sequence[str] = (),
         disable: Sequence[str] = (), options: Sequence[str] = ()) -> RunResult:
    """Run a script (players default to `Ann Bob`); every `expect` line must be reached and hold."""
    result = runner(text, players=players, enable=enable, disable=disable,
                    options=options).run()
    assert [f"line {n.line}: {n.text}: {n.message}" for n in result.failures] == []
    expected = sum(1 for line in text.splitlines() if EXPECT.match(line))
    assert result.checked == expected
    return result


def fails(text: str, *words: str, players: str | None = None, enable: Sequence[str] = (),
          disable: Sequence[str] = (), options: Sequence[str] = ()) -> EasyMoneyError:
    """Run a script that must stop with an EasyMoneyError whose message holds every word."""
    with pytest.raises(EasyMoneyError) as info:
        runner(text, players=players, enable=enable, disable=disable, options=options).run()
    message = info.value.message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return info.value


def state(game: Any) -> dict[str, Any]:
    """Everything a refused action must leave unchanged: the game's state and its events."""
    return {**game.snapshot(), "events": [e.kind for e in game.log if e.kind != "stopped"]}


class WatchingRunner(ScriptRunner):
    """A ScriptRunner that keeps the state the game was in each time it asked for a line."""

    waiting: dict[str, Any] | None = None

    def decide(self, game: Any, request: Any) -> Any:
        self.waiting = state(game)
        return super().decide(game, request)


def refused(text: str, rule: str, plugin: str, *words: str, players: str | None = None,
            enable: Sequence[str] = (), disable: Sequence[str] = (),
            options: Sequence[str] = ()) -> str:
    """The script's last action line must be refused by `rule`/`plugin`, changing nothing.

    The message must name the rule and plugin (`R13 four_sides:`) and hold `words` (the
    player and the space); the state after the refusal must be the state in which the
    game asked for that line. Returns the message.
    """
    watcher = WatchingRunner(parse(_script(text, players)), enable=enable, disable=disable,
                             options=options, settings=CHECKED)
    with pytest.raises(EasyMoneyError) as info:
        watcher.run()
    message = info.value.message
    assert f"{rule} {plugin}:" in message, message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    last = text.rstrip().splitlines()[-1].split("#")[0].strip()
    assert info.value.line == len(_script(text, players).rstrip().splitlines()), message
    assert info.value.source_line is not None and info.value.source_line.strip().startswith(last)
    assert watcher.waiting is not None and state(watcher.game) == watcher.waiting
    return message


STANDARD = resources.files("easymoney.variants") / "standard.yaml"


def standard_deck() -> list[dict[str, Any]]:
    """The deck entries of `standard` (YAML 1.1 reads them right: no `on` key among them)."""
    return yaml.safe_load(STANDARD.read_text(encoding="utf-8"))["deck"]


def custom_variant(directory: Path, name: str, **sections: Any) -> str:
    """A variant file extending `standard` with these top-level sections; its `variant` line."""
    doc = {"name": name, "extends": "standard", **sections}
    path = directory / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return f'variant "{path}"\n'
