"""The options every command that takes a variant accepts: --with, --without, --option."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.model import Variant
    from ..engine.settings import Settings

INVARIANTS_ENV = "EASYMONEY_CHECK_INVARIANTS"


def add_variant_args(parser: argparse.ArgumentParser) -> None:
    """Add `--with RULE`, `--without RULE` and `--option KEY=VALUE` (each repeatable)."""
    group = parser.add_argument_group("rules", "Change the variant's rules for this run; RULE is "
                                      "a plugin id or a rule id (four_sides or R13); see "
                                      "`easymoney rules`.")
    group.add_argument("--with", dest="with_rules", action="append", default=[], metavar="RULE",
                       help="switch a rule on (repeatable)")
    group.add_argument("--without", dest="without_rules", action="append", default=[],
                       metavar="RULE", help="switch a rule off (repeatable)")
    group.add_argument("--option", dest="options", action="append", default=[],
                       metavar="KEY=VALUE",
                       help="set a rule option, e.g. doubles.after_card=forward or "
                            "end.max_turns=200; switches its rule on (repeatable)")


def variant_from_args(ref: str, args: argparse.Namespace, base_dir: str | None = None) -> Variant:
    """Load variant `ref` (a built-in name or a path) with the command line's rule changes."""
    from ..loading.loader import load_variant  # here, not at import: `--help` needs no loader
    return load_variant(ref, enable=getattr(args, "with_rules", None) or (),
                        disable=getattr(args, "without_rules", None) or (),
                        options=getattr(args, "options", None) or (), base_dir=base_dir)


def add_invariants_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check-invariants", action="store_true",
                        help="check the game's bookkeeping after every event and stop at the "
                             "first breach (also EASYMONEY_CHECK_INVARIANTS=1)")


def add_dispatch_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dispatch", choices=("fast", "pluggy"), default="fast",
                        help="how the engine calls hooks: its fast relay (default) or pluggy "
                             "itself; the results are the same, only the speed differs")


def env_on(name: str) -> bool:
    """An environment switch of the command line: set, and neither empty nor 0."""
    return os.environ.get(name, "") not in ("", "0")


def add_game_timeout_arg(parser: argparse.ArgumentParser) -> None:
    from ..timelimit import DEFAULT_GAME_TIMEOUT, seconds_arg
    parser.add_argument("--game-timeout", type=seconds_arg, default=DEFAULT_GAME_TIMEOUT,
                        metavar="SECONDS",
                        help=f"stop a game that runs longer (a rule's hook that never returns), "
                             f"naming the plugin and the game (default {DEFAULT_GAME_TIMEOUT:g}; "
                             f"0 for no limit)")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """How this command runs its games: `--check-invariants` (or EASYMONEY_CHECK_INVARIANTS=1),
    `--dispatch`, `--trace` (or EASYMONEY_TRACE=1). The only place these variables are read:
    below the command line, the settings are passed along."""
    from ..cli import trace_requested
    from ..engine.settings import Settings
    return Settings(invariants=bool(getattr(args, "check_invariants", False))
                    or env_on(INVARIANTS_ENV),
                    dispatch=getattr(args, "dispatch", None) or "fast",
                    trace=sys.stderr if trace_requested(args) else None)
