"""`easymoney rules`: every installed rule plugin, whether a variant switches it on, and its options."""

from __future__ import annotations

import argparse
from typing import Any

from ._variant_args import add_variant_args, variant_from_args

HELP = "list the installed rules and their options"
DESCRIPTION = """List every installed rule plugin: its id (what --with and --without take),
the rule ids of the rule book (docs/rulebook.md) it implements (also accepted), whether VARIANT
switches it on, whether it is essential, where it comes from (built-in or
an entry point), its summary, and its options with their values in VARIANT
and their defaults. Third-party plugins that failed to load are listed
last."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", nargs="?", default="standard", metavar="VARIANT",
                        help="a built-in variant name or a path to a YAML file (default: standard)")
    add_variant_args(parser)


def _choices(schema: dict[str, Any]) -> str:
    from ..loading.yamlload import show_value
    if "enum" in schema:
        return "one of " + ", ".join(str(v) if isinstance(v, str) else show_value(v)
                                     for v in schema["enum"])
    kinds = schema.get("type")
    text = " or ".join(kinds) if isinstance(kinds, list) else str(kinds or "any value")
    bounds = [f">= {schema['minimum']}"] if "minimum" in schema else []
    bounds += [f"<= {schema['maximum']}"] if "maximum" in schema else []
    return text + (f" {' '.join(bounds)}" if bounds else "")


def run(args: argparse.Namespace) -> int:
    from ..engine.registry import discover
    from ..loading.yamlload import show_value
    from ..script import parser  # noqa: F401 -- its check of a plugin's lines is asked at load
    registry = discover()
    variant = variant_from_args(args.variant, args)
    # a built-in variant's origin is its name: said once
    where = f" ({variant.origin})" if variant.origin != variant.name else ""
    print(f"Rules of variant {variant.name}{where}:")
    for pid, info in registry.plugins.items():
        on = pid in variant.rules
        facts = [", ".join(info.rules)] if info.rules else []
        facts += ["essential"] if info.essential else []
        facts += [f"requires {', '.join(info.requires)}"] if info.requires else []
        facts.append(info.origin)
        print(f"\n{pid}: {'on' if on else 'off'} ({'; '.join(facts)})")
        if info.summary:
            print(f"  {info.summary}")
        values = variant.rules.get(pid, {})
        for name, schema in info.options.items():
            default = show_value(schema.get("default"))
            value = show_value(values.get(name, schema.get("default")))
            shown = value if on else f"{value} (when on)"
            print(f"  option {pid}.{name} = {shown}; default {default}; {_choices(dict(schema))}")
            if schema.get("description"):
                print(f"    {' '.join(str(schema['description']).split())}")
    if registry.load_errors:
        print("\nPlugins that failed to load:")
        for message in registry.load_errors:
            print(f"  {message}")
    return 0
