"""easymoney.entrypoints: the entry points importlib.metadata finds, without importing
it when no distribution declares the group (issue 37 item 5), and never a stale answer."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from easymoney import entrypoints
from easymoney.entrypoints import declared, entry_points

def _stdlib_find_distributions(*args: Any, **kwargs: Any) -> Any:
    """What Python's PathFinder.find_distributions does (3.11 to 3.13)."""
    from importlib.metadata import MetadataPathFinder
    return MetadataPathFinder.find_distributions(*args, **kwargs)


@pytest.fixture(autouse=True)
def _plain_finders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's own finder of distributions only, so that both sides see the same. A library
    another test imported may have put another in its place (the importlib_metadata
    backport adds its own and takes PathFinder's away): `declared` then leaves everything
    to importlib.metadata (test_a_finder_of_its_own_is_asked_through_importlib_metadata)."""
    from importlib.machinery import PathFinder
    plain = [f for f in sys.meta_path
             if f is PathFinder or getattr(f, "find_distributions", None) is None]
    monkeypatch.setattr(sys, "meta_path", plain if PathFinder in plain else [*plain, PathFinder])
    if getattr(PathFinder, "find_distributions", None) is None:
        monkeypatch.setattr(PathFinder, "find_distributions",
                            staticmethod(_stdlib_find_distributions), raising=False)


GROUPS = ("easymoney.plugins", "easymoney.strategies", "easymoney.strategy_kinds",
          "console_scripts", "pytest11", "easymoney.nobody_declares_this")


def _shown(found: list[object]) -> list[tuple[object, ...]]:
    return [(ep.name, ep.value, ep.group, getattr(getattr(ep, "dist", None), "name", None))  # type: ignore[attr-defined]
            for ep in found]


def _metadata(group: str) -> list[tuple[object, ...]]:
    return _shown(list(importlib.metadata.entry_points(group=group)))


@pytest.mark.parametrize("group", GROUPS)
def test_the_same_entry_points_as_importlib_metadata(group: str) -> None:
    assert _shown(entry_points(group)) == _metadata(group)
    assert declared(group) == bool(_metadata(group))


def _distribution(site: Path, name: str, entry_points_txt: str | None) -> Path:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
                                   encoding="utf-8")
    if entry_points_txt is not None:
        (info / "entry_points.txt").write_text(entry_points_txt, encoding="utf-8")
    return info


GROUP = "easymoney.test_entry_points"


def test_a_distribution_installed_then_removed_is_seen_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    assert entry_points(GROUP) == [] and not declared(GROUP)
    info = _distribution(tmp_path, "easymoney_ep_probe", f"[{GROUP}]\nprobe = json:dumps\n")
    assert declared(GROUP)
    assert _shown(entry_points(GROUP)) == _metadata(GROUP) == [
        ("probe", "json:dumps", GROUP, "easymoney_ep_probe")]
    assert entry_points(GROUP)[0].load() is json.dumps
    (info / "entry_points.txt").unlink()
    (info / "METADATA").unlink()
    info.rmdir()
    assert entry_points(GROUP) == [] == _metadata(GROUP) and not declared(GROUP)


def test_the_first_distribution_of_a_name_hides_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _distribution(first, "easymoney_ep_probe", "[console_scripts]\nx = json:dumps\n")
    _distribution(second, "Easymoney.EP_probe", f"[{GROUP}]\nprobe = json:dumps\n")
    monkeypatch.syspath_prepend(str(second))
    monkeypatch.syspath_prepend(str(first))
    assert _metadata(GROUP) == [] and not declared(GROUP) and entry_points(GROUP) == []
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(first)])
    assert declared(GROUP) and _shown(entry_points(GROUP)) == _metadata(GROUP) != []


@pytest.mark.parametrize("text", ["[other]\nno equals sign here\n", b"[other]\nx = \xff\n"])
def test_what_importlib_metadata_cannot_read_it_says_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str | bytes) -> None:
    info = _distribution(tmp_path, "easymoney_ep_broken", None)
    target = info / "entry_points.txt"
    if isinstance(text, bytes):
        target.write_bytes(text)
    else:
        target.write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))

    def outcome(find: Any) -> tuple[object, ...]:
        try:
            return ("found", _shown(list(find())))
        except Exception as exc:  # noqa: BLE001 -- what each raises is compared
            return ("raised", type(exc), str(exc))

    theirs = outcome(lambda: importlib.metadata.entry_points(group=GROUP))
    assert outcome(lambda: entry_points(GROUP)) == theirs


def test_a_finder_of_its_own_is_asked_through_importlib_metadata(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        @staticmethod
        def find_spec(*args: object) -> None:
            return None

        @staticmethod
        def find_distributions(*args: object) -> list[object]:
            return [importlib.metadata.PathDistribution(Path("/nonexistent/x-1.0.dist-info"))]

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    with pytest.raises(entrypoints._Unusual):
        declared(GROUP)
    assert entry_points(GROUP) == []


def test_a_short_command_without_plugins_imports_no_importlib_metadata() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # no test plugin site
    code = ("import sys; from easymoney.cli import main; main(sys.argv[1:]); "
            "print('importlib.metadata' in sys.modules)")
    root = Path(__file__).resolve().parent.parent
    for args in (["check", "variants/standard.yaml"], ["play", "examples/01-first-turns.game"]):
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, cwd=root, env=env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == "False", args
