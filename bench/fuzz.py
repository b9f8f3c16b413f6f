"""Fuzz `easymoney play` and `easymoney check` with mutated scripts and variant files: every input ends clean.

    python bench/fuzz.py [--seconds 600] [--seed S] [--kinds script,variant] [--out DIR]
    python bench/fuzz.py --seed S --only script:17     # replay one input, print it

Each input is run in this process through `easymoney.cli.main`, under a time guard
(SIGALRM) and a memory check (growth of the peak resident size). Clean means: exit 0 or
1 with nothing on standard error, or exit 2 with one located error line (`FILE:LINE:COL:
error: ...`, or `FILE: error: ...` for a file that cannot be read at all; a script error
adds the line and a caret under the column); never a traceback, never an exception out of
`main`, never a hang. Input i of seed S is the same on every run (its generator is seeded
with both), so a failure is reproduced with `--only KIND:I`. tests/test_fuzz.py runs the
same fuzzers on a fixed seed for about 20 seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import functools
import io
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from easymoney.cli import main as cli_main
from easymoney.timelimit import GameTimeout, time_limit as game_time_limit

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("script", "variant")
HANG_SECONDS = 10.0          # one input running longer than this hangs
MAX_RSS_GROWTH_MB = 300      # one input growing the peak memory more than this leaks
# Every game the fuzzer plays stops by this many turns: `autoplay` plays to the end of the
# game, and a script that switches off every rule that can end one would play forever.
TURN_LIMIT = ["--option", "end.max_turns=150"]

ERROR_LINE = re.compile(r"^(?:(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: )?error: (?P<msg>\S.*)$")
CARET = re.compile(r"^ *\^$")


class Hang(BaseException):
    """Raised by the alarm; a BaseException so that no `except Exception` in the code swallows it."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    try:
        with game_time_limit(seconds):
            yield
    except GameTimeout:
        raise Hang(f"still running after {seconds:g} s") from None


def peak_rss_mb() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return usage / 1024 if sys.platform != "darwin" else usage / (1024 * 1024)


@dataclass
class Run:
    """What one command did."""

    args: list[str]
    status: int | None = None
    out: str = ""
    err: str = ""
    escaped: str | None = None  # the traceback of an exception that left `main`
    seconds: float = 0.0
    rss_growth_mb: float = 0.0


def run_cli(args: list[str], hang_seconds: float = HANG_SECONDS) -> Run:
    """`easymoney ARGS` in this process, its output captured, under the time guard."""
    run = Run(list(args))
    out, err = io.StringIO(), io.StringIO()
    before, start = peak_rss_mb(), time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                time_limit(hang_seconds):
            run.status = cli_main(args)
    except BaseException as exc:  # noqa: BLE001 - anything that leaves main is a finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        run.escaped = "".join(traceback.format_exception(exc))
    run.seconds = time.perf_counter() - start
    run.rss_growth_mb = peak_rss_mb() - before
    run.out, run.err = out.getvalue(), err.getvalue()
    return run


def judge(run: Run, path: str, kind: str, source: bytes | None = None) -> str | None:
    """Why the run is not clean, or None."""
    if run.escaped is not None:
        first = run.escaped.strip().splitlines()[-1]
        return f"an exception left main: {first}\n{run.escaped}"
    if "Traceback" in run.err or "Traceback" in run.out:
        return "a traceback was printed"
    if run.rss_growth_mb > MAX_RSS_GROWTH_MB:
        return f"the peak memory grew by {run.rss_growth_mb:.0f} MB"
    if run.status in (0, 1):
        if run.status == 1 and kind != "script":
            return "exit status 1 from a command that checks no expectation"
        return None if run.err == "" else f"exit {run.status} with standard error {run.err!r}"
    if run.status != 2:
        return f"exit status {run.status!r}"
    lines = run.err.rstrip("\n").split("\n")
    match = ERROR_LINE.match(lines[0])
    if match is None:
        return f"the first line is not an error line: {lines[0][:200]!r}"
    if not run.err.endswith("\n"):
        return "the error does not end with a newline"
    where = match.group("file")
    if where is None and not _command_line_error(match.group("msg")):
        return f"an error without a file: {lines[0][:200]!r}"
    if match.group("line") is None:
        if len(lines) != 1:
            return f"{len(lines)} lines for an error without a line"
        return None
    if kind == "variant":
        # `check` reports every error of the file, each one located line (issue 28)
        for line in lines[1:]:
            if ERROR_LINE.match(line) is None and not re.match(r"^\S.*: and [\d,]+ more errors?$",
                                                                line):
                return f"a line of a variant's errors is not an error line: {line[:200]!r}"
        lines = lines[:1]
    if len(lines) not in (1, 3):
        return f"{len(lines)} lines of error output"
    if len(lines) == 3:
        col = int(match.group("col"))
        if not CARET.match(lines[2]) or len(lines[2]) != col:
            return f"the caret is not under column {col}: {lines[2][:80]!r}"
    elif kind == "script" and where == path:
        return "a script error without its line and caret"
    if where == path and source is not None:
        line = int(match.group("line"))
        count = _line_count(source)
        if not 1 <= line <= max(count, 1):
            return f"line {line} of a file of {count} lines"
    return None


def _command_line_error(message: str) -> bool:
    """Errors about the fuzzer's own command line (the turn limit) name no file."""
    return message.startswith("option 'end.max_turns'") or "'end'" in message


def _line_count(source: bytes) -> int:
    text = source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return text.count(b"\n") + (0 if text.endswith(b"\n") or not text else 1)


# --- inputs --------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def seed_scripts() -> list[tuple[str, str]]:
    """(name, text) of every example script and test script, and a few of our own."""
    found = []
    for folder in (ROOT / "examples", ROOT / "tests" / "data" / "scripts"):
        for path in sorted(folder.glob("*.game")):
            found.append((path.name, path.read_text(encoding="utf-8")))
    found += [
        ("own-autoplay.game", "players Ann:random Bob:greedy Cat\nseed 3\nautoplay\n"
                              "expect game over\n"),
        ("own-setup.game", "variant no-four-sides\nwith R13\noption doubles.after_card forward\n"
                           "players Ann Bob\nsetup Ann cash $1,000\nsetup Ann owns 7 2 houses\n"
                           "setup Bob at \"Waldorf Hotel\"\nsetup exemption Bob\n"
                           "setup hospital 500\nAnn rolls 3 4\nAnn builds on 7\n"
                           "Ann sells 7 to Bob for 900\nexpect refused\nBob rolls 1 1\n"
                           "Bob draws \"Take $500\"\n"),
    ]
    found += legal_scripts()
    return found


def legal_scripts() -> list[tuple[str, str]]:
    """Scripts of games stepped at random through their legal actions (issue 17): deals
    offered and taken, sales, bids of every amount, as the rules allow them."""
    from easymoney import new_game
    from easymoney.engine.legal import random_action
    out = []
    for variant, seed in (("standard", 1), ("no-four-sides", 2), ("classic-1936", 3)):
        state = new_game(variant, ["Ann", "Bob", "Cat"], seed=seed)
        r = random.Random(seed)
        for _ in range(150):
            if state.is_over:
                break
            state.apply(random_action(state.legal_actions(), r))
        out.append((f"legal-{variant}.game", state.script()))
    return out


@functools.lru_cache(maxsize=1)
def seed_variants() -> list[tuple[str, str]]:
    return [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "variants").glob("*.yaml"))]


_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@functools.lru_cache(maxsize=None)
def _seed_document(name: str) -> Any:
    text = dict(seed_variants())[name]
    return yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader


SCRIPT_WORDS = (
    "variant", "with", "without", "option", "players", "seed", "setup", "cash", "at", "owns",
    "houses", "house", "mortgaged", "unmortgaged", "exemption", "hospital", "rolls", "draws",
    "buys", "declines", "bids", "passes", "builds", "on", "mortgages", "redeems", "sells", "to",
    "for", "goes", "bankrupt", "autoplay", "turns", "turn", "expect", "worth", "left", "owner",
    "nobody", "bank", "game", "over", "by", "winner", "refused", "Ann", "Bob", "Cat", "Dan",
    "Zed", "ann", "Ann:greedy", "Bob:random", ":", ":nope", "0", "1", "6", "7", "47", "48",
    "99999", "1000000000", "1000000001", "$1,100", "$1,00", "1,000,000,000,000", "5.5", "$",
    "-3", "1e3", '"Dover Street"', '"Waldorf Hotel"', '"Take $500"', '"Special Exemption"',
    '""', '"', '"unterminated', "#", "R13", "R99", "four_sides", "os.path", "__import__",
    "end.max_turns", "end.on", "doubles.after_card", "forward", "null", "~", "é", "\u200b",
    "\ufeff", "\t", "\x00", "\x0b", "\u2028", "ß", "𝟕",
)


def _tokens(line: str) -> list[str]:
    return re.findall(r'"[^"]*"?|\S+', line)


def mutate_script(text: str, r: random.Random) -> tuple[str | bytes, str]:
    """One to three mutations of a script; (the new text or bytes, what was done)."""
    lines = text.split("\n")
    done: list[str] = []
    for _ in range(r.choice((1, 1, 2, 3))):
        i = r.randrange(len(lines)) if lines else 0
        tokens = _tokens(lines[i]) if lines else []
        op = r.choice(("drop_token", "dup_token", "swap_tokens", "new_token", "drop_line",
                       "dup_line", "swap_lines", "move_line", "repeat_lines", "long_line",
                       "random_bytes", "splice"))
        if op in ("drop_token", "dup_token", "swap_tokens", "new_token") and not tokens:
            op = "new_token"
        if op == "drop_token":
            del tokens[r.randrange(len(tokens))]
        elif op == "dup_token":
            k = r.randrange(len(tokens))
            tokens.insert(k, tokens[k])
        elif op == "swap_tokens":
            a, b = r.randrange(len(tokens)), r.randrange(len(tokens))
            tokens[a], tokens[b] = tokens[b], tokens[a]
        elif op == "new_token":
            tokens.insert(r.randint(0, len(tokens)), r.choice(SCRIPT_WORDS))
        if op in ("drop_token", "dup_token", "swap_tokens", "new_token"):
            if lines:
                lines[i] = " ".join(tokens)
            else:
                lines = [" ".join(tokens)]
        elif op == "drop_line" and lines:
            del lines[i]
        elif op == "dup_line" and lines:
            lines.insert(i, lines[i])
        elif op == "swap_lines" and lines:
            j = r.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "move_line" and lines:
            lines.insert(r.randint(0, len(lines)), lines.pop(i))
        elif op == "repeat_lines" and lines and len(lines[i]) < 1000:
            lines[i:i + 1] = [lines[i]] * r.choice((50, 500, 2000))
        elif op == "long_line" and sum(map(len, lines)) < 1_000_000:
            long = r.choice((
                "# " + "x" * 1_000_000,
                "Ann rolls " + "3" * 1_000_000,
                "players Ann " + "B" * 1_000_000,
                'expect "' + "y" * 1_000_000 + '" owner nobody',
                "setup Ann cash " + "9" * 1_000_000,
                " " * 1_000_000 + "Ann buys",
                "players " + " ".join(f"P{k}" for k in range(20_000)),  # 20,000 tokens: ~1 s
            ))
            lines.insert(i, long)
        elif op == "random_bytes":
            data = "\n".join(lines).encode("utf-8")
            k = r.randint(0, len(data))
            junk = bytes(r.randrange(256) for _ in range(r.randint(1, 8)))
            return data[:k] + junk + data[k:], " ".join(done + [op])
        elif op == "splice":
            other = r.choice(seed_scripts())[1].split("\n")
            k = r.randrange(len(other))
            lines[i:i] = other[k:k + r.randint(1, 5)]
        done.append(op)
    return "\n".join(lines), " ".join(done)


# --- variant mutations ------------------------------------------------------------------------------

BAD_VALUES: tuple[Any, ...] = (
    "text", "", "on", "Dover Street", "x" * 10_000, "../../etc/passwd", [], [1, 2], {}, {"a": 1},
    True, False, None, 1.5, float("nan"), float("inf"), float("-inf"), -1, 0, 1, 7,
    10**9, 10**9 + 1, 10**12, -(10**12), 10**30, 10**150, "os.path", "!!python/object",
)
EXTRA_KEYS = ("extra", "os.path", "__class__", "<<", "rules", "name", "Dover Street", "",
              "easymoney.plugins.bank", "invariants", "count", "cells")


def _containers(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, tuple[Any, ...]]]:
    out = []
    if isinstance(doc, dict):
        out.append((doc, path))
        for k, v in doc.items():
            out += _containers(v, path + (k,))
    elif isinstance(doc, list):
        out.append((doc, path))
        for i, v in enumerate(doc):
            out += _containers(v, path + (i,))
    return out


def _bad(r: random.Random) -> Any:
    return copy.deepcopy(r.choice(BAD_VALUES))  # a fresh copy: the table itself never changes


def mutate_data(doc: Any, r: random.Random) -> str:
    """Change the loaded document in place; what was done."""
    holders = [(c, p) for c, p in _containers(doc) if c]
    if not holders:
        return "nothing"
    container, path = r.choice(holders)
    key = r.choice(list(container)) if isinstance(container, dict) else r.randrange(len(container))
    op = r.choice(("value", "value", "value", "drop", "extra", "dup_item", "kind", "rule"))
    if op == "value":
        container[key] = _bad(r)
    elif op == "drop":
        del container[key]
    elif op == "extra" and isinstance(container, dict):
        container[r.choice(EXTRA_KEYS)] = _bad(r)
    elif op == "dup_item" and isinstance(container, list):
        container.insert(key, container[key])
    elif op == "kind":
        kinds = ("street", "utility", "commercial", "legend", "draw", "bonus", "hospital",
                 "traffic_light", "pay", "take", "advance", "exemption", "nope")
        for c, _ in _containers(doc):
            if isinstance(c, dict) and "kind" in c and r.random() < 0.2:
                c["kind"] = r.choice(kinds)
    elif op == "rule" and isinstance(doc, dict):
        rules = doc.setdefault("rules", {}) if isinstance(doc.get("rules", {}), dict) else {}
        rule = r.choice(("four_sides", "end", "auction", "doubles", "mortgage", "turn", "bank",
                         "invariants", "os.path", "R13", "sample_rule", "double_bonus"))
        rules[rule] = copy.deepcopy(r.choice((True, False, {}, {"max_turns": _bad(r)},
                                              {"first_bid": _bad(r)}, {"on": "never"},
                                              {"nope": 1}, _bad(r))))
    return f"{op} at {'.'.join(map(str, path + (key,)))[:80]}"


def _dump(doc: Any) -> str:
    return yaml.dump(doc, Dumper=_SAFE_DUMPER, sort_keys=False, allow_unicode=True, width=1 << 16)


ALIAS_BOMB = ("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
              "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
              "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
              "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n")


def mutate_variant_text(text: str, r: random.Random) -> tuple[str | bytes, str]:
    """A text-level mutation of a variant file."""
    lines = text.split("\n")
    i = r.randrange(len(lines))
    op = r.choice(("dup_line", "drop_line", "swap_lines", "random_bytes", "non_utf8", "truncate",
                   "tab", "anchor_alias", "alias_bomb", "python_tag", "merge_key", "flow_nesting",
                   "block_nesting", "long_line", "too_large", "empty", "comments_only", "bom",
                   "two_documents", "control_char", "huge_int", "set_tag"))
    if op == "dup_line":
        lines.insert(i, lines[i])
    elif op == "drop_line":
        del lines[i]
    elif op == "swap_lines":
        j = r.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op in ("random_bytes", "non_utf8"):
        data = text.encode("utf-8")
        k = r.randint(0, len(data))
        junk = (bytes(r.randrange(256) for _ in range(r.randint(1, 8))) if op == "random_bytes"
                else r.choice((b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf")))
        return data[:k] + junk + data[k:], op
    elif op == "truncate":
        return text[:r.randint(0, len(text))], op
    elif op == "tab":
        lines[i] = "\t" + lines[i]
    elif op == "anchor_alias":
        m = re.match(r"^(\s*)([A-Za-z_]+): (.+)$", lines[i])
        if m:
            lines[i] = f"{m.group(1)}{m.group(2)}: &anchor {m.group(3)}"
            j = r.randint(i + 1, len(lines))
            lines.insert(j, f"{m.group(1)}{m.group(2)}_again: *anchor")
        else:
            lines.insert(i, "x: *nowhere")
    elif op == "alias_bomb":
        lines.insert(0, ALIAS_BOMB.replace("h: &h", r.choice(("h: &h", "description: &h")))
                     .rstrip("\n"))
    elif op == "python_tag":
        lines.insert(i, r.choice(('name: !!python/object/apply:os.system ["echo owned"]',
                                  "name: !!python/name:os.system",
                                  "description: !!binary aGVsbG8=",
                                  "name: !custom thing")))
    elif op == "merge_key":
        lines[i:i] = ["base: &base {min: 2, max: 4}", "players:", "  <<: *base"]
    elif op == "flow_nesting":
        n = r.choice((10, 63, 64, 65, 200, 999, 1001, 5000, 100_000))
        lines.insert(i, "description: " + "[" * n + "]" * n)
    elif op == "block_nesting":
        n = r.choice((30, 64, 65, 100, 500))
        lines += [("  " * k) + f"k{k}:" for k in range(n)] + ["  " * n + "end"]
    elif op == "long_line":
        lines.insert(i, "description: " + "x" * 1_000_000)
    elif op == "too_large":
        return text + ("# padding\n" * 120_000), op
    elif op == "empty":
        return r.choice(("", "\n", "   \n", "---\n", "...\n", "~\n", "[]\n", "0\n")), op
    elif op == "comments_only":
        return "# nothing but a comment\n", op
    elif op == "bom":
        return "\ufeff" + text, op
    elif op == "two_documents":
        return text + "\n---\nname: second\n", op
    elif op == "control_char":
        k = r.randint(0, len(text))
        return text[:k] + r.choice("\x00\x01\x07\x1b\x7f\x85\ufffe") + text[k:], op
    elif op == "huge_int":
        lines.insert(i, "x: " + "9" * r.choice((20, 101, 4300, 5000, 100_000)))
    elif op == "set_tag":
        lines.insert(i, r.choice(("s: !!set {a, b}", "o: !!omap [a: 1]", "t: !!timestamp 2001-12-14",
                                  "f: !!float 1", "i: !!int x", "b: !!bool maybe")))
    return "\n".join(lines), op


def make_variant(r: random.Random) -> tuple[str | bytes | None, str]:
    """A mutated variant: data-level, text-level, or both; None stands for a directory."""
    name, text = r.choice(seed_variants())
    how = r.random()
    if how < 0.04:
        return None, "a directory"
    if how < 0.08:
        return bytes(r.randrange(256) for _ in range(r.randint(0, 4096))), "a binary file"
    done = []
    if how < 0.7:
        doc = copy.deepcopy(_seed_document(name))
        if r.random() < 0.3 and name != "standard.yaml":
            doc = {"name": "fuzzed", "extends": "standard", **(doc or {})}
        for _ in range(r.choice((1, 1, 2, 3))):
            done.append(mutate_data(doc, r))
        text = _dump(doc)
    data: str | bytes = text
    if how >= 0.4:
        data, op = mutate_variant_text(text, r)
        done.append(op)
    return data, f"{name}: " + "; ".join(done)


# --- the loop ------------------------------------------------------------------------------------

@dataclass
class Finding:
    kind: str
    index: int
    what: str
    problem: str
    args: list[str]
    saved: str | None = None


@dataclass
class Report:
    inputs: dict[str, int] = field(default_factory=lambda: {k: 0 for k in KINDS})
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")


def _write(path: Path, data: str | bytes | None) -> None:
    if data is None:
        path.mkdir()
    elif isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_bytes(data.encode("utf-8", "surrogatepass"))


def one_input(kind: str, seed: int, index: int, workdir: Path
              ) -> tuple[list[tuple[list[str], str, bytes | None]], str]:
    """Write input `index` of `kind`; the commands to run on it, and what it is."""
    r = random.Random(f"{seed}:{kind}:{index}")
    if kind == "script":
        name, text = r.choice(seed_scripts())
        data, what = mutate_script(text, r)
        path = workdir / f"script-{index}.game"
        _write(path, data)
        raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
        return [(["play", str(path), *TURN_LIMIT], str(path), raw)], f"{name}: {what}"
    data, what = make_variant(r)
    path = workdir / f"variant-{index}.yaml"
    _write(path, data)
    raw = None if data is None else data if isinstance(data, bytes) else data.encode(
        "utf-8", "surrogatepass")
    commands: list[tuple[list[str], str, bytes | None]] = [(["check", str(path)], str(path), raw)]
    if r.random() < 0.5:  # play a few turns on it too (refused cleanly when it is invalid)
        game = workdir / f"variant-{index}.game"
        game.write_text(f'variant "{path.name}"\nplayers Ann:random Bob:greedy Cat:cautious\n'
                        f"seed {index}\nautoplay 25 turns\n", encoding="utf-8")
        commands.append((["play", "--quiet", str(game)], str(game), None))
    return commands, what


def fuzz(seed: int, *, workdir: Path, count: int | None = None, seconds: float | None = None,
         kinds: tuple[str, ...] = KINDS, hang_seconds: float = HANG_SECONDS,
         out: Path | None = None, log: Callable[[str], None] | None = None,
         only: tuple[str, int] | None = None) -> Report:
    """Run inputs 0, 1, ... of each kind in turn until `count` of each or `seconds` are done."""
    report = Report()
    deadline = None if seconds is None else time.monotonic() + seconds
    index = 0
    while True:
        for kind in kinds:
            if only is not None and (kind, index) != only:
                continue
            commands, what = one_input(kind, seed, index, workdir)
            report.inputs[kind] += 1
            for args, path, raw in commands:
                run = run_cli(args, hang_seconds)
                table = report.statuses.setdefault(args[0], {})
                table[run.status if run.status is not None else -1] = table.get(
                    run.status if run.status is not None else -1, 0) + 1
                if run.seconds > report.slowest[0]:
                    report.slowest = (run.seconds, f"{kind}:{index} ({what})")
                problem = judge(run, path, "variant" if args[0] == "check" else "script", raw)
                if only is not None and log is not None:
                    log(f"$ easymoney {' '.join(args)}\n-> {run.status}\n{run.err[:2000]}")
                if problem is not None:
                    finding = Finding(kind, index, what, problem, args)
                    if out is not None:
                        out.mkdir(parents=True, exist_ok=True)
                        for p in Path(path).parent.glob(f"{kind}-{index}.*"):
                            target = out / f"seed{seed}-{p.name}"
                            if p.is_dir():
                                target.mkdir(exist_ok=True)
                            else:
                                shutil.copyfile(p, target)
                        finding.saved = str(out)
                    report.findings.append(finding)
                    if log is not None:
                        log(f"FINDING {kind}:{index} ({what}): {problem.splitlines()[0]}")
            for p in workdir.glob(f"{kind}-{index}*"):
                shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
        index += 1
        if only is not None and index > only[1]:
            break
        if count is not None and index >= count:
            break
        if deadline is not None and time.monotonic() >= deadline:
            break
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="default: from the clock")
    parser.add_argument("--kinds", default=",".join(KINDS), help="script,variant")
    parser.add_argument("--hang", type=float, default=HANG_SECONDS,
                        help=f"seconds after which one input hangs (default {HANG_SECONDS:g})")
    parser.add_argument("--out", type=Path, default=None, help="copy failing inputs here")
    parser.add_argument("--only", default=None, metavar="KIND:I", help="run one input, verbosely")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    kinds = tuple(k for k in args.kinds.split(",") if k)
    only = None
    if args.only:
        kind, _, number = args.only.partition(":")
        only = (kind, int(number))
    os.environ.setdefault("EASYMONEY_CHECK_INVARIANTS", "1")
    with tempfile.TemporaryDirectory(prefix="easymoney-fuzz-") as tmp:
        started = time.monotonic()
        report = fuzz(seed, workdir=Path(tmp), seconds=None if only else args.seconds,
                      kinds=kinds, hang_seconds=args.hang, out=args.out, only=only,
                      log=lambda text: print(text, flush=True))
        took = time.monotonic() - started
    print(f"seed {seed}: {sum(report.inputs.values())} inputs ({report.inputs}) in {took:.0f} s; "
          f"exit statuses {report.statuses}; slowest {report.slowest[0]:.2f} s: {report.slowest[1]}")
    for f in report.findings:
        print(f"\n{f.kind}:{f.index} ({f.what})\n  easymoney {' '.join(f.args)}\n  {f.problem}")
    print(f"{len(report.findings)} finding(s)")
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
