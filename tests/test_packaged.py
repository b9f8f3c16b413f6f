"""easymoney.packaged: the shipped files read as importlib.resources reads them (issue 37
item 5: without importing it for a package installed as a folder)."""

from __future__ import annotations

from importlib import resources

import pytest

from easymoney import packaged

PACKAGES = ("easymoney.variants", "easymoney.schemas", "easymoney.script")


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("through_resources", [False, True])
def test_the_files_are_those_importlib_resources_reads(
        package: str, through_resources: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if through_resources:  # a package in a zip, or with a loader of its own
        monkeypatch.setattr(packaged, "folder", lambda package: None)
    else:
        assert packaged.folder(package) is not None
    files = resources.files(package)
    assert sorted(packaged.names(package)) == sorted(p.name for p in files.iterdir())
    for name in packaged.names(package):
        if files.joinpath(name).is_file() and not name.endswith((".pyc", ".so")):
            assert packaged.read_bytes(package, name) == files.joinpath(name).read_bytes()
    text = next(n for n in packaged.names(package) if n.endswith((".yaml", ".json", ".lark")))
    assert packaged.read_text(package, text) == files.joinpath(text).read_text("utf-8")


@pytest.mark.parametrize("through_resources", [False, True])
def test_a_missing_file_raises_as_importlib_resources_does(
        through_resources: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if through_resources:
        monkeypatch.setattr(packaged, "folder", lambda package: None)
    with pytest.raises(FileNotFoundError):
        resources.files("easymoney.schemas").joinpath("absent.json").read_bytes()
    with pytest.raises(FileNotFoundError):
        packaged.read_bytes("easymoney.schemas", "absent.json")
