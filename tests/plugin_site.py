"""Install the plugin projects the tests need into a directory of their own, never into the user's environment."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Every folder here holding a pyproject.toml is a plugin project the tests install.
PROJECT_GLOBS = ("tests/plugins/*/pyproject.toml", "examples/plugins/*/pyproject.toml")
# Left behind by earlier builds in the source tree; copying them would install stale files.
_BUILD_LEFTOVERS = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")


class PluginSiteError(RuntimeError):
    """A plugin project that pip could not install: the tests cannot run without it."""


def plugin_projects(root: Path = ROOT) -> list[Path]:
    """The plugin project folders under tests/plugins/ and examples/plugins/, sorted."""
    return sorted(p.parent for pattern in PROJECT_GLOBS for p in root.glob(pattern))


def distribution_name(project: Path) -> str:
    return tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]


def install(site: Path, projects: list[Path] | None = None) -> list[Path]:
    """pip-install every project into `site` in one call, offline, and return the projects.

    Each project is copied first, so that the build (pip builds in the source folder) leaves
    nothing in the repository and old build folders there cannot leak into the install.
    """
    projects = plugin_projects() if projects is None else projects
    sources = site.parent / f"{site.name}-sources"
    shutil.rmtree(sources, ignore_errors=True)
    copies = []
    for number, project in enumerate(projects):
        copy = sources / f"{number:02d}-{project.name}"
        shutil.copytree(project, copy, ignore=_BUILD_LEFTOVERS)
        copies.append(str(copy))
    if copies:
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
                   "--no-build-isolation", "--no-index", "--disable-pip-version-check",
                   "--target", str(site), *copies]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise PluginSiteError(f"installing the test plugins failed ({' '.join(command)}):\n"
                                  f"{done.stdout}{done.stderr}")
    shutil.rmtree(sources, ignore_errors=True)
    return projects


def activate(site: Path) -> None:
    """Make `site` seen first by this process and by every subprocess it starts."""
    path = str(site)
    if path not in sys.path:
        sys.path.insert(0, path)
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != path]
    os.environ["PYTHONPATH"] = os.pathsep.join([path, *parts])
    forget_discoveries()


def deactivate(site: Path) -> None:
    path = str(site)
    while path in sys.path:
        sys.path.remove(path)
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != path]
    if parts:
        os.environ["PYTHONPATH"] = os.pathsep.join(parts)
    else:
        os.environ.pop("PYTHONPATH", None)
    forget_discoveries()


def forget_discoveries() -> None:
    """Drop what was found through entry points before the site was (de)activated."""
    import importlib

    importlib.invalidate_caches()
    from easymoney import strategies
    from easymoney.engine import registry
    registry._discover.cache_clear()
    strategies.available_strategies.cache_clear()


@contextlib.contextmanager
def temporary_site() -> Iterator[Path]:
    """Every plugin project installed in a fresh directory, active while the block runs."""
    site = Path(tempfile.mkdtemp(prefix="easymoney-plugin-site-"))
    try:
        install(site)
        activate(site)
        try:
            yield site
        finally:
            deactivate(site)
    finally:
        shutil.rmtree(site, ignore_errors=True)
