"""Session set-up: the `invariants` plugin on for every command run, and the test plugins installed where only the tests see them.

Games built in the tests' own process check the invariants when their settings say so
(`Settings(invariants=True)`, as tests/rules/conftest.py does): the engine reads no
environment variable.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import plugin_site

INVARIANTS_ENV = "EASYMONEY_CHECK_INVARIANTS"
_SITE_KEY = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    # The command line reads it (in this process through `main`, and in subprocesses,
    # which inherit it): every command a test runs checks the invariants.
    os.environ[INVARIANTS_ENV] = "1"
    # The plugin projects are installed here rather than in the fixture because collection
    # already asks for them (skip conditions read their metadata), and so do the tests of
    # examples/plugins/*/tests, which this folder's fixtures do not reach.
    site = Path(tempfile.mkdtemp(prefix="easymoney-plugin-site-"))
    try:
        plugin_site.install(site)
    except plugin_site.PluginSiteError as exc:
        shutil.rmtree(site, ignore_errors=True)
        raise pytest.UsageError(str(exc)) from None
    plugin_site.activate(site)
    config.stash[_SITE_KEY] = site


@pytest.hookimpl(trylast=True)  # after pytest-randomly has settled the seed (`last`, or drawn)
def pytest_sessionstart(session: pytest.Session) -> None:
    """The run's first line names pytest-randomly's seed, as the README says: pytest-randomly
    puts it in the header, which `-q` (the project's addopts) leaves out."""
    config = session.config
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if (reporter is None or not config.pluginmanager.has_plugin("randomly")
            or (config.get_verbosity() >= 0 and not config.getoption("no_header"))):
        return  # no random order, or the header says it
    reporter.write_line(f"Using --randomly-seed={config.getoption('randomly_seed')}")


def pytest_unconfigure(config: pytest.Config) -> None:
    site = config.stash.get(_SITE_KEY, None)
    if site is not None:
        plugin_site.deactivate(site)
        shutil.rmtree(site, ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def invariants_on() -> Iterator[None]:
    """Keep the variable set for the session (a test that changes it must restore it)."""
    os.environ[INVARIANTS_ENV] = "1"
    yield


@pytest.fixture(autouse=True, scope="session")
def plugin_site_dir(pytestconfig: pytest.Config) -> Iterator[Path]:
    """The directory holding every plugin project of tests/plugins/ and examples/plugins/.

    It is first on `sys.path` and on `PYTHONPATH` (for subprocesses), and the plugin and
    strategy discovery caches were cleared when it was put there.
    """
    site = pytestconfig.stash[_SITE_KEY]
    plugin_site.activate(site)  # again, in case a test removed it
    yield site
