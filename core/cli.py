"""The `easymoney` command: one sub-command per module of `easymoney.commands`.

A command module names its command by its own name and declares `HELP` and `DESCRIPTION` (the
add_parser texts), optionally `PARSER` (further add_parser keywords, e.g. an epilog) and
`arguments(parser)` (adds its arguments), and `run(args)` (the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__, commands, precompiled
from .errors import EasyMoneyError, UsageError

TRACE_ENV = "EASYMONEY_TRACE"

# Listed in this order in --help; modules not named here follow alphabetically.
COMMAND_ORDER = ("play", "simulate", "compare", "sweep", "analyze", "tune", "variants", "check", "show", "diff", "rules",
                 "schema", "strategies")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, like every other error
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def command_names() -> list[str]:
    """The commands, in the order `--help` lists them (found without importing them)."""
    names = [m.name for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_")]
    return sorted(names, key=lambda n: (COMMAND_ORDER.index(n) if n in COMMAND_ORDER else 99, n))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: of every command, or of the command `only` alone (what
    running one needs: the others' modules are not imported for it)."""
    parser = _Parser(prog="easymoney", description="Play, script and simulate the 1935 board "
                     "game Easy Money and its variants.")
    parser.add_argument("--version", action="version", version=f"easymoney {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in command_names():
        if only is not None and name != only:
            continue
        module = importlib.import_module(f"{commands.__name__}.{name}")
        command = sub.add_parser(name, help=module.HELP, description=module.DESCRIPTION,
                                 **getattr(module, "PARSER", {}))
        if hasattr(module, "arguments"):  # a command that takes no arguments has none
            module.arguments(command)
        command.set_defaults(func=module.run)
    return parser


def trace_requested(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "trace", False)) or os.environ.get(TRACE_ENV, "") not in ("", "0")


class _ClosedInput:
    """Stands for a standard input closed at start (`<&-`): reading it is a usage error, and a
    command that reads nothing runs as usual."""

    closed = True

    def __getattr__(self, name: str) -> NoReturn:
        raise UsageError("standard input is closed: nothing can be read")


def _closed_streams() -> str | None:
    """The error line when standard output was closed at start (`>&-`), else None.

    Python leaves a stream closed at start as None; a closed standard error is made a sink,
    so that nothing else is printed on standard output in its place.
    """
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    if sys.stdin is None:
        sys.stdin = _ClosedInput()  # type: ignore[assignment]
    if sys.stdout is None:
        return UsageError("standard output is closed: nothing can be written").located()
    return None


def _unrecognized(parser: argparse.ArgumentParser, args: argparse.Namespace,
                  extra: list[str]) -> int:
    """Arguments no parser took: an option of another command is named with its command
    (`play x.game --turn 3`); anything else is the command's usage and one line."""
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands: dict[str, argparse.ArgumentParser] = dict(subparsers.choices)
    command = getattr(args, "command", None)
    mine = commands.get(command) if command else None
    flag = next((e.split("=", 1)[0] for e in extra if e.startswith("--")), None)
    owners = [name for name, sub in commands.items()
              if flag is not None and flag in sub._option_string_actions]
    if mine is None:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if owners:
        example = f" (e.g. easymoney {owners[0]} FILE {' '.join(extra[extra.index(flag):][:2])})" \
            if flag in extra else ""
        print(f"error: {command} takes no {flag}: it is an option of "
              f"{' and '.join(f'`easymoney {o}`' for o in owners)}{example}", file=sys.stderr)
        return 2
    mine.error(f"unrecognized arguments: {' '.join(extra)}")


def main(argv: Sequence[str] | None = None) -> int:
    with precompiled.installed():  # the dataclasses the command imports: their code shipped
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    closed = _closed_streams()
    if closed is not None:
        print(closed, file=sys.stderr)
        return 2
    argv = list(sys.argv[1:] if argv is None else argv)
    # a command named first is all that is parsed; anything else (`--help`, a mistake) is
    # parsed, listed and said with every command
    named = argv[0] if argv and argv[0] in command_names() else None
    parser = build_parser(named)
    args, extra = parser.parse_known_args(argv)
    if extra:
        return _unrecognized(build_parser() if named else parser, args, extra)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # a full disk shows here, not as a traceback at exit
        return status
    except EasyMoneyError as exc:
        print(exc.located(), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("easymoney: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`easymoney play x | head`): not an error of ours
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except OSError as exc:  # the output could not be written (`> /dev/full`, a full disk)
        print(f"error: cannot write to standard output: {exc.strerror or exc}"
              if exc.filename is None else f"{exc.filename}: error: {exc.strerror or exc}",
              file=sys.stderr)
        try:  # what is still buffered would fail again at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 2


if __name__ == "__main__":
    sys.exit(main())
