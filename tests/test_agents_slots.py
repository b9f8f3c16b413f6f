"""Issue 40 part 2: every legal answer reachable. Each value of a `Literal` or `bool` field
has its own slot in the agents' catalogue, and over every built-in rule and every plugin
of examples/plugins and tests/plugins, no two legal actions of one state share a slot."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the agents extra (pettingzoo) is not installed")
import numpy as np  # noqa: E402

import easymoney.agents as agents  # noqa: E402
from easymoney.engine.actions import ActionRange  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# the plugins that are broken on purpose (tests/plugins/sample_plugin's load-time errors)
BROKEN = {"sample_broken", "sample_badhook"}
# a plugin whose board is its variant's (a jail space, railroads)
VARIANTS = {"jail": ROOT / "tests" / "data" / "variants" / "jail.yaml",
            "railroads": ROOT / "examples" / "variants" / "railroads.yaml",
            "double_bonus": ROOT / "examples" / "variants" / "double-bonus.yaml"}


def plugin_ids() -> list[str]:
    """Every plugin id of the projects in examples/plugins and tests/plugins."""
    ids = []
    for project in sorted([*ROOT.glob("tests/plugins/*/pyproject.toml"),
                           *ROOT.glob("examples/plugins/*/pyproject.toml")]):
        meta = tomllib.loads(project.read_text(encoding="utf-8"))
        ids += [pid for pid in meta["project"]["entry-points"]["easymoney.plugins"]
                if pid not in BROKEN]
    return ids


def table_of(pid: str | None, players: int = 2):
    if pid is None:  # `standard`: every built-in rule is on
        return agents.env("standard", players, seed=0, state_info=False, actions="standard")
    variant = VARIANTS.get(pid)
    if variant is not None:
        return agents.env(str(variant), players, seed=0, state_info=False, actions="standard")
    return agents.env("standard", players, seed=0, enable=[pid], state_info=False,
                      actions="standard")


def shared_slots(catalogue, legal) -> list[str]:
    """The pairs of distinct legal actions (or ranges) of one listing that meet in a slot."""
    seen: dict[int, object] = {}
    clashes = []
    # an action listed twice is one answer (actions are equal by their fields, unhashable)
    distinct = list({repr(found): found for found in legal}.values())
    places, _ = catalogue.places(distinct)
    assert len(places) == len(distinct), (
        "a legal action with no slot: "
        f"{[str(a) for a in distinct if all(a is not f for _, _, f in places)][:3]}")
    for first, stride, found in places:
        slots = [first] if stride < 0 else [first + k * stride for k in range(catalogue.steps)]
        if type(found) is ActionRange:
            slots = list(dict.fromkeys(slots))
        for slot in slots:
            other = seen.setdefault(slot, found)
            if other is not found:
                clashes.append(f"{other} and {found} at {catalogue.name(slot)}")
    return clashes


@pytest.mark.parametrize("pid", [None, *plugin_ids()])
def test_issue40_no_two_legal_actions_of_a_state_share_a_slot(pid):
    env = table_of(pid, players=3)
    rng = np.random.default_rng(7)
    states = 0
    for seed in range(12):
        if states > 1000:
            break
        env.reset(seed=seed)
        for _, _agent in zip(range(1500), env.agent_iter()):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            state = env.table.state
            assert not (clash := shared_slots(env.catalogue, state.legal_actions())), clash[:3]
            states += 1
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
    assert states > 300


def test_issue40_each_word_of_a_literal_and_each_flag_has_its_own_slot():
    """The tax plugin's `how: Literal["flat", "percent"]` and `early: bool`: four answers,
    four slots, each reachable from the mask and playing its own line."""
    env = agents.env("standard", 2, seed=0, enable=["tax_choice"], actions="standard")
    catalogue = env.catalogue
    names = [n for n in catalogue.names if n.startswith("PayTax")]
    assert names == ["PayTax how=flat early=false", "PayTax how=flat early=true",
                     "PayTax how=percent early=false", "PayTax how=percent early=true"]
    env.reset(seed=0)
    slots = env.table.slots()
    lines = {str(catalogue.action(slots[catalogue.names.index(n)])) for n in names}
    assert lines == {"Ann pays flat tax", "Ann pays flat tax early", "Ann pays percent tax",
                     "Ann pays percent tax early"}
    cash = env.table.state.game.players[0].cash
    env.step(catalogue.names.index("PayTax how=percent early=false"))
    assert env.table.state.history[-1].startswith("Ann pays percent tax")
    assert env.table.state.game.players[0].cash == cash - cash // 100


def test_issue40_a_literal_slot_is_in_the_openspiel_game_too():
    spiel = pytest.importorskip("easymoney.agents.spiel", reason="open_spiel is not installed")
    game = spiel.game("standard", 2, enable="tax_choice")
    state = game.new_initial_state()
    names = {state.action_to_string(0, a) for a in state.legal_actions()}
    assert {"PayTax how=flat early=false", "PayTax how=percent early=true"} <= names
