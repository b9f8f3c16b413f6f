"""The agents' environments with the options they had before issue 40 made the learning
settings the defaults: for tests of the whole catalogue, the unshaped rewards and the
windows' own mask."""

from __future__ import annotations

from typing import Any

import easymoney.agents as agents

CLASSIC = {"actions": "standard", "raise_in_windows": True, "shaping": None, "gamma": 1.0}


def classic_env(*args: Any, **options: Any) -> Any:
    return agents.env(*args, **{**CLASSIC, **options})


def classic_single(*args: Any, **options: Any) -> Any:
    return agents.single(*args, **{**CLASSIC, **options})
