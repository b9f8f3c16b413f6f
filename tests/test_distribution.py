"""What a new user meets first: the distribution's name, its install hints, and a test run that leaves the environment clean."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import easymoney

from repo_files import text_of, tracked_files

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "easymoney-game"




def test_the_distribution_is_easymoney_game_and_the_command_stays_easymoney() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION
    assert project["scripts"] == {"easymoney": "easymoney.cli:main"}
    assert importlib.metadata.version(DISTRIBUTION) == easymoney.__version__
    done = subprocess.run([sys.executable, "-m", "easymoney", "--version"], capture_output=True,
                          text=True, check=True)
    assert done.stdout == f"easymoney {easymoney.__version__}\n"


def test_every_plugin_project_depends_on_the_new_name() -> None:
    projects = sorted(ROOT.glob("examples/plugins/*/pyproject.toml"))
    assert projects
    for path in projects:
        deps = tomllib.loads(path.read_text())["project"].get("dependencies", [])
        names = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0] for d in deps}
        assert DISTRIBUTION in names and "easymoney" not in names, path


def test_no_install_hint_names_the_unrelated_easymoney_distribution() -> None:
    # `pip install easymoney[plot]` or a dependency on "easymoney" fetches someone else's project
    wrong = re.compile(r"pip install\s+['\"]?easymoney(?![-\w])")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in tracked_files() if (text := text_of(p))
             for n, line in enumerate(text.splitlines(), 1) if wrong.search(line)
             and p.name != "test_distribution.py"]
    assert found == []


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("Install and run the tests:", 1)[1].strip().splitlines()[0]
    return block.strip()


def test_the_readme_test_command_installs_no_test_plugin_and_ci_runs_it() -> None:
    command = _readme_test_command()
    assert command == 'python3 -m pip install -e ".[test]" && python3 -m pytest'
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines()


def _user_environment() -> dict[str, str]:
    """This process's environment without the test plugin site: what the user's shell sees."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def test_the_users_environment_has_no_test_plugin() -> None:
    env = _user_environment()
    for args in (["strategies"], ["rules"]):
        done = subprocess.run([sys.executable, "-m", "easymoney", *args], env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert "sample" not in done.stdout and "failed to load" not in done.stdout, (
            f"`easymoney {args[0]}` sees a test plugin: it was installed into this environment "
            f"(pip uninstall easymoney-sample-plugin)")
    code = ("import importlib.metadata as m, sys; "
            "sys.exit(any(m.distribution(n) for n in sys.argv[1:] if n in "
            "{d.metadata['Name'] for d in m.distributions()}))")
    import plugin_site
    # the example plugins (examples/plugins) are the user's to install, as their scripts say
    # (issue 19 case 22): only the project's test plugins must stay out
    names = [plugin_site.distribution_name(p) for p in plugin_site.plugin_projects()
             if p.relative_to(ROOT).parts[0] == "tests"]
    assert names
    assert subprocess.run([sys.executable, "-c", code, *names], env=env).returncode == 0, (
        f"one of {names} is installed in this environment; the tests install them on their own")


def test_every_plugin_project_is_installed_for_the_tests_and_their_subprocesses(
        plugin_site_dir: Path) -> None:
    import plugin_site
    projects = plugin_site.plugin_projects()
    assert {p.parent.name for p in projects} == {"plugins"}
    assert {p.relative_to(ROOT).parts[0] for p in projects} == {"tests", "examples"}
    names = [plugin_site.distribution_name(p) for p in projects]
    for name in names:
        assert Path(str(importlib.metadata.distribution(name).locate_file(""))) == plugin_site_dir
    code = "import importlib.metadata as m, sys; [m.distribution(n) for n in sys.argv[1:]]"
    subprocess.run([sys.executable, "-c", code, *names], check=True)
    done = subprocess.run([sys.executable, "-m", "easymoney", "strategies"], capture_output=True,
                          text=True, check=True)
    assert "sample_passive" in done.stdout


def test_a_new_plugin_project_is_picked_up_with_no_edit(tmp_path: Path) -> None:
    import plugin_site
    root = tmp_path / "repo"
    project = root / "examples" / "plugins" / "tiny"
    project.mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=64"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "easymoney-tiny"\nversion = "1.0"\n'
        '[project.entry-points."easymoney.plugins"]\ntiny = "easymoney_tiny"\n'
        '[tool.setuptools]\npy-modules = ["easymoney_tiny"]\n')
    (project / "easymoney_tiny.py").write_text('"""A tiny rule."""\nPLUGIN_ID = "tiny"\n')
    assert plugin_site.plugin_projects(root) == [project]
    site = tmp_path / "site"
    plugin_site.install(site, plugin_site.plugin_projects(root))
    assert (site / "easymoney_tiny.py").is_file()
    assert list(site.glob("easymoney_tiny-1.0.dist-info/entry_points.txt"))
    assert not list(project.glob("*.egg-info")) and not (project / "build").exists()
