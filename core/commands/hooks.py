"""`easymoney hooks`: the hooks a rule plugin can implement, in the order a game fires them, and the objects they receive."""

from __future__ import annotations

import argparse
import sys

HELP = "list the hooks a rule plugin can implement"
DESCRIPTION = """List every hook a rule plugin can implement, in the order
a game fires them, with its signature, what it is for and
the built-in rules implementing it in the order they run.
--markdown prints the full reference of docs/plugins.md;
--api the reference of the objects a hook receives
(docs/api.md)."""


def arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--markdown", action="store_true",
                      help="the full reference, as Markdown (what docs/plugins.md holds)")
    what.add_argument("--api", action="store_true",
                      help="the reference of Game, Player, Space, ... as Markdown (what "
                           "docs/api.md holds)")


def run(args: argparse.Namespace) -> int:
    if args.api:
        from . import _apidoc as apidoc
        sys.stdout.write(apidoc.markdown())
        return 0
    from . import _hookdoc as hookdoc
    sys.stdout.write(hookdoc.markdown() if args.markdown else hookdoc.text())
    return 0
