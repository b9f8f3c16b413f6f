"""mypy over the package as it is installed (core/ as `easymoney`, plugins/ as `easymoney.plugins`) and the example plugins, with every hook implementation checked against its spec."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from installed_layout import installed_package

ROOT = Path(__file__).resolve().parent.parent
HOOKSPECS = ROOT / "core" / "engine" / "hookspecs.py"
EXAMPLES = sorted(p for p in ROOT.glob("examples/plugins/*/*.py"))
SAMPLE = ROOT / "tests" / "plugins" / "sample_plugin" / "easymoney_sample_plugin" / "__init__.py"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed: pip install 'easymoney-game[test]'")


def _spec_nodes(path: Path) -> list[ast.FunctionDef]:
    """The hook specs of a file: hookspecs.py's functions, and in a rule plugin the
    `@hookspec` functions of the class its HOOKSPECS names (em_auction, em_exempt)."""
    tree = ast.parse(path.read_text("utf-8"))
    if path == HOOKSPECS:
        return [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("em_")]
    return [f for c in tree.body if isinstance(c, ast.ClassDef) for f in c.body
            if isinstance(f, ast.FunctionDef) and f.name.startswith("em_")
            and any("hookspec" in ast.unparse(d) for d in f.decorator_list)]


def _specs() -> dict[str, tuple[dict[str, str], str]]:
    """hook name -> (parameter -> annotation, return annotation), as written in hookspecs.py
    and in the rules that declare hooks of their own."""
    specs = {}
    for path in [HOOKSPECS, *sorted((ROOT / "plugins").glob("*.py"))]:
        text = path.read_text("utf-8")
        for node in _spec_nodes(path):
            params = {}
            for arg in node.args.args:
                assert arg.annotation is not None, f"{path.name}: {node.name}({arg.arg}) is untyped"
                params[arg.arg] = ast.get_source_segment(text, arg.annotation) or ""
            assert node.returns is not None, f"{path.name}: {node.name} has no return type"
            specs[node.name] = (params, ast.get_source_segment(text, node.returns) or "")
    return specs


def _is_hookimpl(decorator: ast.expr) -> bool:
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    return (isinstance(decorator, ast.Name) and decorator.id == "hookimpl") or (
        isinstance(decorator, ast.Attribute) and decorator.attr == "hookimpl")


SELECTED = {("em_refusals", "action"), ("em_narrow", "kind"), ("em_land", "space")}


def _hook_checks(modules: list[tuple[str, Path]]) -> tuple[str, list[str]]:
    """A module that assigns every hook implementation to a protocol made from its spec.

    mypy then checks each implementation's parameter names and types and its return type
    against hookspecs.py (an implementation may take a subset of the parameters, as pluggy
    allows, and return a narrower type). Returns the module's text and the problems found
    without mypy (a parameter the spec does not have).
    """
    specs = _specs()
    lines = ["from __future__ import annotations", "from typing import Any, Protocol",
             "from easymoney import Action, Card, Game, Player, Refusal, Space, Variant"]
    problems = []
    body = []
    for module, path in modules:
        lines.append(f"import {module}")
        tree = ast.parse(path.read_text("utf-8"))
        found: list[tuple[str, ast.FunctionDef]] = []
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                found.append((node.name, node))
            elif isinstance(node, ast.ClassDef):
                found += [(f"{node.name}.{f.name}", f) for f in node.body
                          if isinstance(f, ast.FunctionDef)]
        for qualname, fn in found:
            if fn.name not in specs or not any(_is_hookimpl(d) for d in fn.decorator_list):
                continue
            params, returns = specs[fn.name]
            method = "." in qualname
            names = [a.arg for a in fn.args.args][1 if method else 0:]
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            where = f"{shown}:{fn.lineno}: {qualname}"
            unknown = [n for n in names if n not in params]
            if unknown:
                problems.append(f"{where}: no parameter {', '.join(unknown)} in the spec")
                continue
            proto = "_" + re.sub(r"\W", "_", f"{module}_{qualname}")
            # a judge's `action` (a narrowing's `kind`) or a landing rule's `space` annotated
            # with what it handles (traits, action classes) is called with that only: the
            # engine reads it
            selected = {n for n, a in zip([a.arg for a in fn.args.args], fn.args.args)
                        if (fn.name, n) in SELECTED and a.annotation is not None}
            signature = ", ".join(["self", *(["_self: Any, /"] if method else []),
                                   *(f"{n}: {'Any' if n in selected else params[n]}"
                                     for n in names)])
            body += [f"class {proto}(Protocol):  # {where}",
                     f"    def __call__({signature}) -> {returns}: ...",
                     f"{proto.lower()}_ok: {proto} = {module}.{qualname}"]
    return "\n".join(lines + body) + "\n", problems


def _layout(tmp: Path) -> tuple[Path, list[str]]:
    """The installed layout made of symlinks, the example plugins beside it; their module names."""
    installed_package(tmp)
    extra = tmp / "extra"
    extra.mkdir()
    modules = []
    for path in [*EXAMPLES, SAMPLE]:
        name = path.parent.name if path.name == "__init__.py" else path.stem
        if path.name == "__init__.py":
            (extra / name).symlink_to(path.parent)
        else:
            (extra / path.name).symlink_to(path)
        modules.append((name, path))
    text, problems = _hook_checks([(f"easymoney.plugins.{p.stem}", p)
                                   for p in sorted((ROOT / "plugins").glob("*.py"))
                                   if p.name != "__init__.py"] + modules)
    assert not problems, "\n".join(problems)
    (extra / "_hook_checks.py").write_text(text, "utf-8")
    return extra, [name for name, _ in modules] + ["_hook_checks"]


def test_mypy_is_clean_over_the_package_plugins_and_examples(tmp_path: Path) -> None:
    extra, modules = _layout(tmp_path)
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(tmp_path / ".mypy_cache"), "--no-error-summary",
               "-p", "easymoney", *(a for m in modules for a in ("-m", m))]
    env = {**os.environ, "MYPYPATH": str(extra)}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"mypy found problems:\n{done.stdout}{done.stderr}"


def test_a_hook_implementation_that_breaks_its_spec_is_reported(tmp_path: Path) -> None:
    """The check above can fail: a wrong parameter type, a wider return, an unknown name."""
    plugin = tmp_path / "bad_rule.py"
    plugin.write_text(
        "from __future__ import annotations\n"
        "from easymoney import Game, Player, hookimpl\n"
        "@hookimpl\n"
        "def em_turn_start(game: Game, player: str) -> None:\n"
        "    return None\n"
        "@hookimpl\n"
        "def em_round(game: Game, amount: int) -> str | None:\n"
        "    return None\n", "utf-8")
    text, problems = _hook_checks([("bad_rule", plugin)])
    assert problems == []
    (tmp_path / "_hook_checks.py").write_text(text, "utf-8")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "easymoney").symlink_to(ROOT / "core")
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(tmp_path / ".mypy_cache"), "--follow-imports", "silent",
               "-m", "_hook_checks"]
    env = {**os.environ, "MYPYPATH": f"{tmp_path}{os.pathsep}{package}"}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, done.stdout
    assert "_bad_rule_em_turn_start" in errors[0] and "_bad_rule_em_round" in errors[1], done.stdout

    plugin.write_text("from easymoney import hookimpl\n"
                      "@hookimpl\n"
                      "def em_land(game, player, nonsense):\n"
                      "    return None\n", "utf-8")
    _, problems = _hook_checks([("bad_rule", plugin)])
    assert problems == [f"{plugin}:3: em_land: no parameter nonsense in the spec"]
