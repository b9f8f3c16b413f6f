"""Loading a variant: read, resolve `extends` and `modify`, apply overrides, validate, check, build.

Each step lives in its own module of this package; this one is the entry point.
"""

from __future__ import annotations

import copy
import dataclasses
import os
from collections.abc import Iterable
from typing import Any

from ..engine.model import Variant
from ..engine.registry import Registry, discover
from .build import build_variant, resolved_document
from .checks import check_variant, enabled_rules, hook_checks
from .extends import resolve
from .limits import MAX_CARDS, MAX_MONEY, MAX_NAME, MAX_NUMBER, MAX_SPACES
from .origins import COMMAND_LINE, origins_error
from .overrides import apply_overrides, parse_option
from .sources import (BUILTIN_PACKAGE, Confinement, builtin_names, builtin_variants,
                      top_source)
from .validate import validate, variant_schema_cached


def load_variant(ref: str, *, registry: Registry | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), options: Iterable[str | tuple[str, Any]] = (),
                 base_dir: str | None = None, confine: Confinement | None = None) -> Variant:
    """Load, merge, override and check a variant: a built-in name or a YAML file path.

    `enable`/`disable` take plugin ids or rule ids (`four_sides`, `R13`); `options` takes
    `PLUGIN.OPTION=VALUE` strings (or (key, value) pairs), the value read as a YAML 1.2
    scalar; setting an option of a plugin that is off switches it on. Raises VariantError
    (located), PluginError or UsageError.
    """
    registry = registry or discover()
    source = top_source(os.fspath(ref), base_dir, confine)
    doc, origins = resolve(source, registry, confine)
    changes = apply_overrides(doc, origins, registry, enable, disable, options)
    validate(doc, origins, registry)
    rules = enabled_rules(doc, origins, registry)
    check_variant(doc, origins, registry, rules)
    variant = build_variant(doc, rules, source.name if source.builtin else source.display)
    variant = dataclasses.replace(variant, changes=changes, files=origins.files)
    hook_checks(variant, doc, origins, registry)
    return variant


def variant_document(variant: Variant) -> dict[str, Any]:
    """The fully resolved document of a loaded variant (what `easymoney show` prints)."""
    return copy.deepcopy(dict(variant.document))


# the names this module had before its steps moved to modules of their own
__all__ = ["load_variant", "Confinement", "builtin_variants", "builtin_names", "parse_option", "variant_document",
           "MAX_CARDS", "MAX_MONEY", "MAX_NAME", "MAX_NUMBER", "MAX_SPACES", "BUILTIN_PACKAGE",
           "COMMAND_LINE", "origins_error", "resolved_document", "variant_schema_cached"]
