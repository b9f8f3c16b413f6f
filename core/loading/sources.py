"""Where a variant is read from: the built-in variants, files, and the base an `extends` names."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NoReturn

from .. import packaged
from ..errors import UsageError, did_you_mean
from .yamlload import Loaded, decode, load_file, load_text

BUILTIN_PACKAGE = "easymoney.variants"


def builtin_names() -> list[str]:
    """The names of the variants shipped in `easymoney.variants`, sorted."""
    return sorted(name[:-5] for name in packaged.names(BUILTIN_PACKAGE) if name.endswith(".yaml"))


@lru_cache(maxsize=None)
def builtin_loaded(name: str) -> Loaded:
    display = f"easymoney/variants/{name}.yaml"
    return load_text(decode(packaged.read_bytes(BUILTIN_PACKAGE, f"{name}.yaml"), display),
                     display)


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
        # the name the person gave it: an upload is kept under a name of the server's
        base = os.path.basename(self.display if not self.builtin else self.name)
        return base.rsplit(".", 1)[0] if not self.builtin and "." in base else base

    def load(self) -> Loaded:
        if self.builtin:
            return builtin_loaded(self.name)
        return load_file(self.name, self.display)


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or os.sep in ref or ref.lower().endswith((".yaml", ".yml"))


@dataclass(frozen=True)
class Confinement:
    """Where the files of a variant may come from when whoever names them is not trusted
    with this machine's files (a page of `easymoney serve`).

    `root`: the one folder files are read from, by paths relative to it (no `..`, no
    absolute path, no link, no hidden file, a `.yaml` or `.yml` name); None: built-in
    variants only, as an uploaded variant extends. `top`: the first file, already chosen by
    the server (an upload), shown in errors as `display`. `folder`: where, relative to the
    root, a script's `variant "FILE"` line is read from (the script's own folder).
    """

    root: str | None
    top: str | None = None
    display: str | None = None
    folder: str = ""

    def source(self, relative: str) -> Source:
        """The file `relative` (to the root) of an `extends` chain or of a request."""
        if self.root is None:
            raise UsageError(f"{relative!r}: an uploaded variant may extend the "
                             f"built-in variants only ({', '.join(builtin_names())})")
        path = path_under(self.root, relative, suffixes=VARIANT_SUFFIXES)
        return Source(False, path, os.path.normpath(relative))

    def relative(self, source: Source) -> str:
        """The folder of `source`, relative to the root, that its `extends` is read from."""
        assert self.root is not None and not source.builtin
        return os.path.relpath(os.path.dirname(source.name), os.path.realpath(self.root))


VARIANT_SUFFIXES = (".yaml", ".yml")


def path_under(root: str, relative: str, *, suffixes: tuple[str, ...] = ()) -> str:
    """The real path of the file `relative` under `root`: refused (UsageError) if it is
    absolute, climbs out (`..`), goes through a link, names a hidden file or folder, or
    does not end in one of `suffixes`. The message never names `root` itself."""
    if not relative or relative.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", relative) \
            or "\x00" in relative:
        raise UsageError(f"{relative!r}: name a file under the server's folder, relative to it")
    parts = relative.replace("\\", "/").split("/")
    if ".." in parts:
        raise UsageError(f"{relative!r}: '..' is not allowed: only files under the server's folder")
    if any(part.startswith(".") and part != "." for part in parts):
        raise UsageError(f"{relative!r}: hidden files and folders are not read")
    if suffixes and not relative.lower().endswith(suffixes):
        raise UsageError(f"{relative!r}: expected a file ending in {' or '.join(suffixes)}")
    path = root
    for part in parts:
        if part in ("", "."):
            continue
        path = os.path.join(path, part)
        if os.path.islink(path):
            raise UsageError(f"{relative!r}: links are not followed")
    real, top = os.path.realpath(path), os.path.realpath(root)
    if os.path.commonpath([real, top]) != top:
        raise UsageError(f"{relative!r}: outside the server's folder")
    if not os.path.isfile(real):
        raise UsageError(f"{relative!r}: no such file under the server's folder")
    return real


def top_source(ref: str, base_dir: str | None, confine: Confinement | None = None) -> Source:
    if ref in builtin_names() and not _looks_like_path(ref):
        return Source(True, ref, f"easymoney/variants/{ref}.yaml")
    if confine is not None:  # a name is a built-in name or nothing: no file of the cwd
        if confine.top is not None:
            return Source(False, confine.top, confine.display or "upload.yaml")
        if not _looks_like_path(ref):
            _unknown(ref)
        return confine.source(ref)
    path = ref if base_dir is None or os.path.isabs(ref) else os.path.join(base_dir, ref)
    if _looks_like_path(ref) or os.path.exists(path):
        return Source(False, path, os.path.normpath(path) if base_dir else ref)
    _unknown(ref)


def _unknown(ref: str) -> NoReturn:
    names = builtin_names()
    raise UsageError(f"unknown variant {ref!r}: expected a built-in variant ({', '.join(names)}) "
                     f"or a YAML file{did_you_mean(ref, names)}")


def base_source(value: str, current: Source, confine: Confinement | None = None
                ) -> Source | None:
    if value in builtin_names() and not _looks_like_path(value):
        return Source(True, value, f"easymoney/variants/{value}.yaml")
    if current.builtin:
        return None
    if confine is not None:  # every file of the chain passes the check the first one did
        folder = "" if confine.root is None else confine.relative(current)
        return confine.source(value if folder in ("", ".") else f"{folder}/{value}"
                              if not value.startswith(("/", "\\")) else value)
    path = value if os.path.isabs(value) else os.path.join(os.path.dirname(current.name), value)
    if not os.path.exists(path):
        return None
    display = value if os.path.isabs(value) else os.path.normpath(
        os.path.join(os.path.dirname(current.display), value))
    return Source(False, path, display)

