"""The core's layers are visible and acyclic: each folder imports only from the layers below it.

    errors, words, timelimit (no layer), packaged, entrypoints, precompiled
    engine                   the state, actions, hooks and their dispatch, and the turn's
                             vocabulary: Roll, EndTurn and the window requests (issue 18)
    view                     the one outward view of a decision point, for every face
                             (issue 37: no work of the engine's)
    loading                  variants, YAML, the schema
    script, bots, seats,     the script language; the built-in strategies; programs at seats;
    search, strategies       the searching bot; the strategies by name (above bots, search
                             and seats, which ask it for none: issue 29)
    board, simulate, agents  drawing the board; running batches of games; learning agents
    interactive, web         playing at the prompt; in a browser (easymoney serve)
    commands                 the command line

The rules (easymoney.plugins) are no layer of the core: they stand on the engine (through
the public API, `from easymoney import ...`) beside a third party's plugin, and no module
of the core imports one; the registry loads them by name when a game is made, as it loads
an entry point. The turn is the core's (the `turn` rule plays it): its actions and requests
live in easymoney.engine.actions, and easymoney.plugins.turn only re-exports them.

Imports inside functions (made when a command runs) and under `if TYPE_CHECKING:` are
not edges of the graph: only the module-level ones, which run at import time, are. Issue 29
counts the imports inside functions too, part by part: they make no circle, and the engine
makes none to a layer above it (a layer above hands the engine what it needs instead, as the
script does its check of a plugin's lines: easymoney.engine.registry.DECLARATION_CHECKS).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYER = {"errors": 0, "words": 0, "timelimit": 0, "packaged": 0, "entrypoints": 0, "precompiled": 0,
         "engine": 1,
         "view": 2, "loading": 3,
         "script": 4, "bots": 4, "seats": 4, "search": 4, "strategies": 4, "board": 5, "simulate": 5, "agents": 5,
         "outputs": 5, "interactive": 6, "web": 6, "commands": 7,
         "cli": 7, "__main__": 8, "__init__": 9}


def _exports() -> dict[str, str]:
    """`easymoney`'s lazily loaded names -> the module defining each."""
    import easymoney
    return dict(easymoney._EXPORTS)


EXPORTS = _exports()


def module_files() -> dict[str, Path]:
    found = {}
    for base, package in ((ROOT / "core", "easymoney"), (ROOT / "plugins", "easymoney.plugins")):
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def _imports(path: Path, name: str, is_package: bool, *, in_functions: bool = False) -> set[str]:
    """The easymoney modules `name` imports: at module level only, or also inside functions
    and classes (`in_functions`); never under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.orelse:
                walk(sub)
            return
        if (isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                and not in_functions):
            return
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("easymoney"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "easymoney":  # the public API: where each name really lives
                out.update(EXPORTS.get(a.name, "easymoney") for a in node.names)
            elif target.startswith("easymoney"):
                out.add(target)
                out.update(f"{target}.{a.name}" for a in node.names)
        for sub in ast.iter_child_nodes(node):
            walk(sub)

    walk(tree)
    return out


def graph(*, in_functions: bool = False) -> dict[str, set[str]]:
    files = module_files()
    edges = {}
    for name, path in files.items():
        found = _imports(path, name, path.name == "__init__.py", in_functions=in_functions)
        edges[name] = {m for m in found if m in files and m != name}
    return edges


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return LAYER["__init__"]
    return LAYER[parts[1]]


def is_rule(module: str) -> bool:
    return module.startswith("easymoney.plugins")


def test_no_module_of_the_core_imports_a_higher_layer():
    wrong = [(a, b) for a, targets in graph().items() for b in targets
             if not is_rule(a) and not is_rule(b) and layer(b) > layer(a)
             and not b == "easymoney"]
    assert wrong == []


def test_no_module_of_the_core_imports_a_rule():
    """Issue 18: the rules are not a layer of the core; nothing in it imports one."""
    wrong = [(a, b) for a, targets in graph().items() for b in targets
             if not is_rule(a) and is_rule(b)]
    assert wrong == []


def test_the_rules_stand_on_the_engine_only():
    """Issue 18: a built-in rule imports what a third party's may: the engine (through
    `easymoney`), errors, words, and other rules; never the script, loading or any layer
    above the engine."""
    below = {"errors", "words", "engine"}
    wrong = [(a, b) for a, targets in graph().items() if is_rule(a) for b in targets
             if not is_rule(b) and b != "easymoney" and b.split(".")[1] not in below]
    assert wrong == []


def test_the_turn_is_the_cores():
    """Issue 18: Roll, EndTurn and the window requests are defined by the engine; the `turn`
    rule plays the turn with them and still offers them to plugins that import them there."""
    import easymoney
    from easymoney.engine import actions
    from easymoney.plugins import turn
    for name in ("Roll", "EndTurn", "WINDOW_BEFORE", "WINDOW_AFTER", "WINDOW_KINDS"):
        assert getattr(turn, name) is getattr(actions, name) is getattr(easymoney, name)
        assert EXPORTS[name] == "easymoney.engine.actions"
    assert actions.Roll.__module__ == actions.EndTurn.__module__ == "easymoney.engine.actions"


def test_the_core_has_no_import_circle():
    edges = graph()
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        seen[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if seen.get(nxt) == 1:
                raise AssertionError("import circle: " + " -> ".join(stack[stack.index(nxt):] + [nxt]))
            if nxt not in seen:
                visit(nxt)
        stack.pop()
        seen[node] = 2

    for node in sorted(edges):
        if node not in seen:
            visit(node)


def test_the_engine_imports_no_rule():
    for module, targets in graph().items():
        if module.startswith("easymoney.engine"):
            assert not any(t.startswith("easymoney.plugins") for t in targets), module


def test_the_graph_is_read():
    edges = graph()
    assert "easymoney.engine.actions" in edges["easymoney.engine.game"]
    assert "easymoney.engine.statements" in edges["easymoney.plugins.hospital"]  # via easymoney
    assert "easymoney.plugins.debts" in edges["easymoney.plugins.mortgage"]
    assert "easymoney.engine.legal" in edges["easymoney.bots"]
    assert len(edges) > 60


def test_the_bots_script_and_records_import_no_rule():
    """Issue 17: the bots, the script runner and the recorder find the action types they
    need among the installed rules' (by what they are), so a rule's class is never imported
    by the core outside the rules."""
    for module, targets in graph().items():
        if module.startswith(("easymoney.bots", "easymoney.script", "easymoney.engine")):
            assert not any(t.startswith("easymoney.plugins") for t in targets), module


def test_the_prompt_imports_no_rule():
    """Issue 17: the prompt lists, completes and describes what the installed rules make
    legal; no module of easymoney.interactive imports a rule (easymoney.plugins)."""
    for module, targets in graph().items():
        if module.startswith("easymoney.interactive"):
            assert not any(t.startswith("easymoney.plugins") for t in targets), module
    for path in (ROOT / "core" / "interactive").glob("*.py"):
        assert "plugins" not in "\n".join(
            line for line in path.read_text(encoding="utf-8").splitlines()
            if line.lstrip().startswith(("import ", "from "))), path


def part(module: str) -> str:
    """The layer's part a module belongs to: `easymoney.engine.game` -> `engine`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _circle(edges: dict[str, set[str]]) -> list[str]:
    """A circle of `edges`, as the nodes walked round it back to the first; [] if none."""
    seen: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        seen[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if seen.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in seen and (found := visit(nxt)):
                return found
        stack.pop()
        seen[node] = 2
        return []

    for node in sorted(edges):
        if node not in seen and (found := visit(node)):
            return found
    return []


def test_issue29_no_import_circles():
    """Issue 29: a house without circles. Counting the imports made inside functions too
    (when a command runs), the parts of the core call each other in one direction only:
    the engine never calls the script, the strategies' names table stands above the bots,
    the search and the seats, and the outputs and the records do not import each other."""
    parts: dict[str, set[str]] = {}
    via: dict[tuple[str, str], str] = {}
    for module, targets in graph(in_functions=True).items():
        for target in targets:
            a, b = part(module), part(target)
            if a != b:
                parts.setdefault(a, set()).add(b)
                via.setdefault((a, b), f"{module} imports {target}")
    circle = _circle(parts)
    assert circle == [], "import circle: " + " -> ".join(circle) + "\n" + "\n".join(
        via[a, b] for a, b in zip(circle, circle[1:]))


def test_issue29_the_engine_calls_no_higher_layer():
    """Issue 29: not even inside a function does the engine import a layer above it."""
    wrong = [(a, b) for a, targets in graph(in_functions=True).items()
             if a.startswith("easymoney.engine") for b in targets
             if not is_rule(b) and layer(b) > layer(a)]
    assert wrong == []


def test_issue29_the_parser_imported_after_discovery_checks_the_plugins_found() -> None:
    """A registry found before the script layer is imported is checked when it is: the
    check runs once the parser module is whole (it ran half-way, and a plugin's lines met a
    NameError, in whatever order the tests ran)."""
    import os
    import subprocess
    import sys
    code = ("from easymoney.engine.registry import discover\n"
            "found = discover()\n"
            "assert 'swap' in found.plugins, sorted(found.plugins)\n"
            "import easymoney.script.parser\n"
            "print('swap' in found.plugins, len(found.load_errors))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "True", done.stdout


def test_issue37_no_import_circle_inside_a_part():
    """Issue 37 item 6: the modules of one part (the engine's among themselves, the
    simulation's, ...) import each other in one direction only, counting the imports made
    inside functions too: what two modules share lives in a lower one."""
    inside: dict[str, set[str]] = {}
    for module, targets in graph(in_functions=True).items():
        if not is_rule(module):
            inside[module] = {t for t in targets if part(t) == part(module) and not is_rule(t)
                              and not module.startswith(t + ".")}  # a package's own __init__
    circle = _circle(inside)
    assert circle == [], "import circle inside a part: " + " -> ".join(circle)
