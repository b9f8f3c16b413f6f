"""The package as it is installed (core/ as `easymoney`, plugins/ as `easymoney.plugins`), made of symlinks, for type checkers."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def installed_package(folder: Path) -> Path:
    """`folder/easymoney`, linking to the sources; put `folder` on MYPYPATH."""
    package = folder / "easymoney"
    package.mkdir(parents=True)
    for entry in (ROOT / "core").iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    (package / "plugins").symlink_to(ROOT / "plugins")
    return package
