"""Start-up: `easymoney --version` and `--help` import no engine, loader, script parser, schema library or simulation."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

# What a listing of the commands does not need: each command imports these inside its `run`.
HEAVY = ("easymoney.engine", "easymoney.loading", "easymoney.script", "easymoney.simulate",
         "easymoney.bots", "easymoney.plugins", "jsonschema", "lark", "yaml", "pluggy",
         "multiprocessing")

_PROBE = """
import json, sys
from easymoney.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print(json.dumps(sorted(sys.modules)))
"""


def _imported_after(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True,
                          check=True)
    modules = json.loads(done.stdout.splitlines()[-1])
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["play", "--help"],
                                  ["simulate", "--help"], ["compare", "--help"],
                                  ["sweep", "--help"], ["analyze", "--help"],
                                  ["tune", "--help"]])
def test_listing_the_commands_imports_nothing_heavy(args: list[str]) -> None:
    assert _imported_after(*args) == []


def test_a_command_imports_what_it_needs_when_it_runs() -> None:
    assert "easymoney.loading.loader" in _imported_after("check", "standard")
    assert "easymoney.simulate" not in _imported_after("check", "standard")


def test_running_a_command_imports_no_other_commands_module() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE, "check", "standard"],
                          capture_output=True, text=True, check=True)
    modules = json.loads(done.stdout.splitlines()[-1])
    assert [m for m in modules if m.startswith("easymoney.commands.")] == [
        "easymoney.commands._variant_args", "easymoney.commands.check"]


def test_every_command_is_listed_and_its_help_works() -> None:
    done = subprocess.run([sys.executable, "-m", "easymoney", "--help"], capture_output=True,
                          text=True, check=True)
    for name in ("play", "simulate", "compare", "sweep", "variants", "check", "show", "diff", "rules",
                 "schema", "strategies"):
        assert re.search(rf"^    {name}\s", done.stdout, re.M), name


# ---------------------------------------------------------------- the shipped parse tables

from pathlib import Path  # noqa: E402

from lark import Lark, Token  # noqa: E402
from lark.exceptions import UnexpectedInput  # noqa: E402

from easymoney.script import lark_runtime, tables  # noqa: E402
from easymoney.script.make_tables import builtin_grammar, runtime_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _leaves(tree: object) -> list[object]:
    """A tree's tokens in order, whichever lark's classes it is of (lark's or the runtime's)."""
    out: list[object] = []
    for child in getattr(tree, "children", ()):
        out += _leaves(child) if hasattr(child, "children") else [child]
    return out


def _shape(parser: object, text: str) -> object:
    """What a parser makes of a text: the tree and every token's place, or where it fails."""
    try:
        tree = parser.parse(text)  # type: ignore[attr-defined]
    except (UnexpectedInput, lark_runtime.UnexpectedInput) as err:
        return ("refused", err.line, err.column, sorted(getattr(err, "expected", None) or ()))
    tokens = [(t.type, str(t), t.line, t.column) for t in _leaves(tree)
              if isinstance(t, (Token, lark_runtime.Token))]
    return tree.pretty(), tokens


def test_the_shipped_parse_tables_are_those_of_the_grammar() -> None:
    # stale tables would only be slower (built instead), but they must never be shipped
    assert tables.shipped_key() == tables.grammar_key(builtin_grammar()), (
        "core/script/parse.tables is stale: run `python -m easymoney.script.make_tables`")


def test_the_shipped_tables_parse_every_example_as_built_ones_do() -> None:
    grammar = builtin_grammar()
    shipped, built = tables.lark_for(grammar), Lark(grammar, **tables.OPTIONS)
    texts = [p.read_text(encoding="utf-8") for p in sorted(ROOT.glob("examples/*.game"))]
    texts += ["Ann rols 3 4\n", "expect Ann cash $1,00\n", "players Ann Ann\nAnn buys 4\n"]
    assert len(texts) > 10
    for text in texts:
        assert _shape(shipped, text) == _shape(built, text)
    assert [t.name for t in shipped.terminals] == [t.name for t in built.terminals]


def _count_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    builds: list[str] = []
    real = tables._build

    def counting(grammar: str) -> tuple[str, bytes]:
        builds.append(grammar)
        return real(grammar)

    monkeypatch.setattr(tables, "_build", counting)
    return builds


def test_the_builtin_language_is_loaded_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    builds = _count_builds(monkeypatch)
    parser = tables.lark_for(builtin_grammar())
    assert builds == []
    assert parser.parse("Ann rolls 3 4\n").children


@pytest.mark.parametrize("damage", ["absent", "stale", "damaged", "not tables", "no newline"])
def test_unusable_tables_are_built_instead(monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    grammar = builtin_grammar()
    key = tables.grammar_key(grammar).encode()
    data = {"absent": None, "stale": tables._MAGIC + b"0" * 64 + b"\n" + b"\x80\x05junk",
            "damaged": tables._MAGIC + key + b"\n" + b"\x80\x05 not a pickle at all",
            "not tables": b"\x00\x01\x02", "no newline": tables._MAGIC + key}[damage]
    monkeypatch.setattr(tables, "_read", lambda: data)
    builds = _count_builds(monkeypatch)
    parser = tables.lark_for(grammar)
    assert builds == [grammar]
    assert _shape(parser, "Ann rolls 3 4\n") == _shape(Lark(grammar, **tables.OPTIONS),
                                                       "Ann rolls 3 4\n")
    assert isinstance(parser, lark_runtime.Lark)  # lark built it, the runtime parses with it


def test_a_script_is_parsed_without_importing_lark() -> None:
    # lark builds tables only, and the built-in rules' are shipped: as a user runs it, with
    # no test plugin site (its rules' lines make a language of their own, built by lark)
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONPATH" and not k.startswith("EASYMONEY_")}
    done = subprocess.run([sys.executable, "-c", _PROBE, "play", "examples/01-first-turns.game"],
                          capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    modules = json.loads(done.stdout.splitlines()[-1])
    assert "easymoney.script.lark_runtime" in modules
    assert [m for m in modules if m == "lark" or m.startswith("lark.")] == []


def test_the_shipped_runtime_is_the_installed_lark_s() -> None:
    shipped = (ROOT / "core" / "script" / tables.RUNTIME).read_text(encoding="utf-8")
    assert shipped == runtime_text(), (
        "core/script/lark_runtime.py is stale: run `python -m easymoney.script.make_tables`")


def _played_the_same_without(shipped_file_gone: str) -> None:
    """A script plays as ever after `shipped_file_gone` (code) has the package lose a file
    it ships: slower, the same transcript."""
    script = ROOT / "examples" / "01-first-turns.game"
    code = (f"import sys; {shipped_file_gone}; "
            "from easymoney.cli import main; sys.exit(main(sys.argv[1:]))")
    without = subprocess.run([sys.executable, "-c", code, "play", str(script)],
                             capture_output=True, text=True)
    shipped = subprocess.run([sys.executable, "-m", "easymoney", "play", str(script)],
                             capture_output=True, text=True)
    assert without.returncode == shipped.returncode == 0, without.stderr
    assert without.stdout == shipped.stdout and without.stderr == shipped.stderr == ""


def test_a_script_is_played_the_same_without_the_tables() -> None:
    _played_the_same_without("from easymoney.script import tables; tables._read = lambda: None")


def test_the_tables_command_writes_what_is_shipped(tmp_path: Path) -> None:
    target = tmp_path / "parse.tables"
    done = subprocess.run([sys.executable, "-m", "easymoney.script.make_tables", str(target)],
                          capture_output=True, text=True, check=True)
    assert str(target) in done.stdout
    shipped = (ROOT / "core" / "script" / tables.TABLES).read_bytes()
    assert target.read_bytes().partition(b"\n")[0] == shipped.partition(b"\n")[0]
    runtime = tmp_path / tables.RUNTIME  # and beside it, the module that reads them
    assert str(runtime) in done.stdout
    assert runtime.read_text(encoding="utf-8") == runtime_text()


# ---------------------------------------------------------------- each piece once a process

_COUNT = """
import sys
from easymoney.engine import registry
from easymoney.loading import loader
calls = {"load_variant": 0, "build_manager": 0}
def counted(name, real):
    def wrapper(*args, **kwargs):
        calls[name] += 1
        return real(*args, **kwargs)
    return wrapper
loader.load_variant = counted("load_variant", loader.load_variant)
registry.build_manager = counted("build_manager", registry.build_manager)
from easymoney.cli import main
status = main(sys.argv[1:])
print(calls["load_variant"], calls["build_manager"], status)
"""


@pytest.mark.parametrize("args", [["play", "examples/01-first-turns.game"],
                                  ["play", "examples/12-house-rules.game", "--with", "doubles"],
                                  ["check", "variants/standard.yaml"]])
def test_a_variant_is_loaded_and_its_manager_made_once(args: list[str]) -> None:
    # as a user runs it: the tests' invariants check is a rule more, with a manager of its own
    env = {k: v for k, v in os.environ.items() if k != "EASYMONEY_CHECK_INVARIANTS"}
    done = subprocess.run([sys.executable, "-c", _COUNT, *args], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "1 1 0"


# ---------------------------------------------------------------- the dataclasses' code, shipped

_RECORD = """
import json
from easymoney import precompiled
print(json.dumps(sorted(precompiled.recorded(precompiled.modules()))))
"""


def _shipped_code() -> dict[str, object]:
    import marshal

    from easymoney import packaged, precompiled
    data = packaged.read_bytes("easymoney", precompiled.FILE)
    magic = precompiled._magic()
    assert data.startswith(magic), "core/compiled-code.marshal is of another Python"
    return marshal.loads(data[len(magic):])  # type: ignore[no-any-return]


def test_the_shipped_code_is_that_of_every_dataclass_and_printer_of_the_package() -> None:
    # a text missing would only be compiled (slower), but the shipped file must be current
    done = subprocess.run([sys.executable, "-c", _RECORD], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    now = json.loads(done.stdout.splitlines()[-1])
    assert len(now) > 300
    missing = [text for text in now if text not in _shipped_code()]
    assert missing == [], ("core/compiled-code.marshal is stale: run "
                           f"`python -m easymoney.precompiled` ({len(missing)} texts)")


def test_the_shipped_code_is_what_compiling_the_text_makes() -> None:
    for text, code in _shipped_code().items():
        assert compile(text, "<string>", "exec", dont_inherit=True) == code, text


def test_a_script_is_played_the_same_without_the_shipped_code() -> None:
    _played_the_same_without("from easymoney import precompiled; precompiled._shipped = {}")


def test_the_command_line_gives_dataclasses_their_exec_back() -> None:
    import dataclasses

    from easymoney.cli import main
    assert main(["play", str(ROOT / "examples" / "01-first-turns.game")]) == 0
    assert "exec" not in vars(dataclasses)
