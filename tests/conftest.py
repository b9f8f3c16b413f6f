"""The whole suite runs with the `invariants` plugin on: every game checks its bookkeeping after every event."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

INVARIANTS_ENV = "EASYMONEY_CHECK_INVARIANTS"


def pytest_configure(config: pytest.Config) -> None:
    # At start-up, before any test module is imported or any game built (`ruleset_for`
    # reads the variable when a game is built); subprocesses inherit it.
    os.environ[INVARIANTS_ENV] = "1"


@pytest.fixture(autouse=True, scope="session")
def invariants_on() -> Iterator[None]:
    """Keep the variable set for the session (a test that changes it must restore it)."""
    os.environ[INVARIANTS_ENV] = "1"
    yield
