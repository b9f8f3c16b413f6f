"""Where a variant is read from: the built-in variants, files, and the base an `extends` names."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..errors import UsageError, did_you_mean
from .yamlload import Loaded, decode, load_file, load_text

BUILTIN_PACKAGE = "easymoney.variants"


def builtin_names() -> list[str]:
    """The names of the variants shipped in `easymoney.variants`, sorted."""
    return sorted(p.name[:-5] for p in resources.files(BUILTIN_PACKAGE).iterdir()
                  if p.name.endswith(".yaml"))


@lru_cache(maxsize=None)
def builtin_loaded(name: str) -> Loaded:
    resource = resources.files(BUILTIN_PACKAGE) / f"{name}.yaml"
    display = f"easymoney/variants/{name}.yaml"
    return load_text(decode(resource.read_bytes(), display), display)


def builtin_variants() -> list[tuple[str, str]]:
    """Each built-in variant's name and one-line description."""
    result = []
    for name in builtin_names():
        seen: set[str] = set()
        description, probe = "", name
        while probe in builtin_names() and probe not in seen:
            seen.add(probe)
            data = builtin_loaded(probe).data
            if not isinstance(data, dict):
                break
            if isinstance(data.get("description"), str):
                description = " ".join(data["description"].split())
                break
            extends = data.get("extends")
            probe = extends if isinstance(extends, str) else ""
        result.append((name, description))
    return result


@dataclass(frozen=True)
class Source:
    builtin: bool
    name: str      # the built-in name, or the path to open
    display: str   # how errors name the file

    @property
    def key(self) -> str:
        return f"builtin:{self.name}" if self.builtin else os.path.realpath(self.name)

    @property
    def stem(self) -> str:
        base = os.path.basename(self.name)
        return base.rsplit(".", 1)[0] if not self.builtin and "." in base else base

    def load(self) -> Loaded:
        if self.builtin:
            return builtin_loaded(self.name)
        return load_file(self.name, self.display)


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or os.sep in ref or ref.lower().endswith((".yaml", ".yml"))


def top_source(ref: str, base_dir: str | None) -> Source:
    if ref in builtin_names() and not _looks_like_path(ref):
        return Source(True, ref, f"easymoney/variants/{ref}.yaml")
    path = ref if base_dir is None or os.path.isabs(ref) else os.path.join(base_dir, ref)
    if _looks_like_path(ref) or os.path.exists(path):
        return Source(False, path, os.path.normpath(path) if base_dir else ref)
    names = builtin_names()
    raise UsageError(f"unknown variant {ref!r}: expected a built-in variant ({', '.join(names)}) "
                     f"or a YAML file{did_you_mean(ref, names)}")


def base_source(value: str, current: Source) -> Source | None:
    if value in builtin_names() and not _looks_like_path(value):
        return Source(True, value, f"easymoney/variants/{value}.yaml")
    if current.builtin:
        return None
    path = value if os.path.isabs(value) else os.path.join(os.path.dirname(current.name), value)
    if not os.path.exists(path):
        return None
    display = value if os.path.isabs(value) else os.path.normpath(
        os.path.join(os.path.dirname(current.display), value))
    return Source(False, path, display)

