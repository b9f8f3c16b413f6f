"""Hostile input: bad files with their exact messages, the limits, plugins and files that are no way in, I/O errors.

tests/data/bad/ holds one bad variant file (NAME.yaml, run through `easymoney check`) or
script (NAME.game, run through `easymoney play --quiet`) per mistake, and NAME.expected,
the exact standard error it must produce. After changing a message on purpose, rewrite
them all with:

    EASYMONEY_REGEN_BAD=1 pytest tests/test_hostile.py -k bad_input
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import time
import types
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any

import pytest

from easymoney.loading import loader
from easymoney.engine import registry as registry_module
from easymoney.cli import main
from easymoney.errors import EasyMoneyError, ScriptSyntaxError, VariantError
from easymoney.loading.loader import MAX_CARDS, MAX_MONEY, MAX_NUMBER, MAX_SPACES, load_variant
from easymoney.engine.registry import BUILTIN_PLUGINS, Registry, discover
from easymoney.loading.schema import variant_schema
from easymoney.script import parser
from easymoney.script.parser import MAX_SCRIPT_BYTES, parse, parse_bytes, parse_file
from easymoney.loading.yamlload import MAX_BYTES, MAX_DEPTH, MAX_DIGITS, MAX_NODES, load_text

BAD = Path(__file__).parent / "data" / "bad"
REGEN = os.environ.get("EASYMONEY_REGEN_BAD", "") not in ("", "0")
CASES = sorted(p.name for p in BAD.iterdir() if p.suffix in (".yaml", ".game"))


def cli(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """`easymoney ARGS` in this process: (status, stdout, stderr); nothing may escape main."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(args))
    finally:
        sys.stdin = old_stdin
    assert "Traceback" not in err.getvalue()
    return status, out.getvalue(), err.getvalue()


def one_error(err: str, prefix: str) -> str:
    """The single error line (after it: at most the script line and its caret)."""
    lines = err.rstrip("\n").split("\n")
    assert lines[0].startswith(prefix), err
    assert len(lines) in (1, 3), err
    return lines[0]


# --- the corpus of bad inputs: the exact message of each --------------------------------------------

@pytest.mark.parametrize("name", CASES)
def test_bad_input(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    # the messages list the known kinds and rules: the built-in ones, whatever is installed
    monkeypatch.setenv("EASYMONEY_DISABLE_PLUGIN_AUTOLOAD", "1")
    args = ["check", name] if name.endswith(".yaml") else ["play", "--quiet", name]
    status, out, err = cli(*args)
    err = err.replace(f"{BAD}{os.sep}", "")  # a script names its variant file by full path
    expected = BAD / (name.rsplit(".", 1)[0] + (".expected" if name.endswith(".yaml")
                                                  else ".game.expected"))
    if REGEN:
        expected.write_text(err, encoding="utf-8")
    assert status == 2
    assert err == expected.read_text(encoding="utf-8")
    if name.endswith(".yaml"):  # `check` says every error of the file, one a line (issue 28)
        assert all(line.startswith(f"{name}:") and " error: " in line
                   for line in err.splitlines()), err
    else:
        assert err.count("\n") in (1, 3)  # one line; a script error adds its line and a caret


def test_every_bad_input_has_its_message() -> None:
    stems = {n.rsplit(".", 1)[0] + (".expected" if n.endswith(".yaml") else ".game.expected")
             for n in CASES}
    assert stems == {p.name for p in BAD.glob("*.expected")}


# --- limits ---------------------------------------------------------------------------------------

def test_the_limits_have_these_values() -> None:
    assert (MAX_BYTES, MAX_SCRIPT_BYTES) == (1 << 20, 1 << 20)
    assert (MAX_NODES, MAX_DEPTH, MAX_DIGITS) == (100_000, 64, 100)
    assert (MAX_MONEY, MAX_NUMBER, MAX_SPACES, MAX_CARDS) == (10**9, 10**9, 1000, 1000)
    assert (parser.MAX_MONEY, parser.MAX_NAME, parser.MAX_QUOTED, loader.MAX_NAME) == (
        10**9, 100, 4096, 100)


def test_a_variant_file_too_large(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("extends: standard\n" + "#" * MAX_BYTES + "\n", encoding="utf-8")
    status, _, err = cli("check", str(path))
    assert status == 2
    assert err == (f"{path}: error: file too large: found {MAX_BYTES + 19} bytes; expected at "
                   f"most {MAX_BYTES} bytes (1 MiB)\n")


def test_a_script_too_large(tmp_path: Path) -> None:
    text = "players Ann Bob\n" + "# a comment\n" * (MAX_SCRIPT_BYTES // 12 + 1)
    path = tmp_path / "big.game"
    path.write_text(text, encoding="utf-8")
    message = (f"error: script too large: found {len(text)} bytes; expected at most "
               f"{MAX_SCRIPT_BYTES} bytes (1 MiB, the limit on a script)\n")
    assert cli("play", str(path)) == (2, "", f"{path}: {message}")
    unread = message.replace(f"found {len(text)} bytes", f"found more than {MAX_SCRIPT_BYTES} bytes")
    assert cli("play", "-", stdin=text.encode()) == (2, "", f"<stdin>: {unread}")
    with pytest.raises(ScriptSyntaxError, match="script too large"):
        parse(text)
    with pytest.raises(ScriptSyntaxError, match="script too large"):
        parse_bytes(text.encode())


def test_a_script_from_a_device_is_refused() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(ScriptSyntaxError) as info:
        parse_file("/dev/zero")  # it would never end
    assert info.value.message == ("cannot read the script: not a regular file; expected a "
                                  ".game file (or - to read standard input)")


def test_a_script_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    text = "players Ann Bob\n"
    text += "#" * (MAX_SCRIPT_BYTES - len(text) - 1) + "\n"
    assert parse(text).header  # no error


def test_money_up_to_the_limit_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "rich.game"
    path.write_text("players Ann Bob\nexpect Ann cash $1,000,000,000\n", encoding="utf-8")
    status, out, err = cli("play", "--quiet", str(path))
    assert (status, err) == (1, "")  # a failed expectation, not an error
    rich = tmp_path / "rich.yaml"
    rich.write_text("extends: standard\nmoney: {smallest_bill: 10, starting_cash: 20000, "
                    "bank_total: 1000000000}\n", encoding="utf-8")
    assert load_variant(str(rich)).bank_total == MAX_MONEY


def test_money_beyond_the_limit_from_the_command_line() -> None:
    status, _, err = cli("check", "standard", "--option", "auction.first_bid=1000000010")
    assert status == 2
    assert err == ("error: rules.auction.first_bid: too large: found 1000000010; expected at "
                   "most 1,000,000,000 (the limit on amounts of money)\n")
    status, _, err = cli("check", "standard", "--option", "end.max_turns=" + "9" * 5000)
    assert (status, err) == (2, "error: option 'end.max_turns': number too long: found 5000 "
                                "digits; expected at most 100 digits\n")


def test_a_board_too_large(tmp_path: Path) -> None:
    spaces = "".join(f"    - {{name: Lot {k}, kind: legend, receive: 10}}\n"
                     for k in range(MAX_SPACES + 1))
    path = tmp_path / "huge-board.yaml"
    path.write_text("extends: standard\nboard:\n  spaces:\n" + spaces, encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(str(path))
    assert (info.value.line, info.value.col) == (MAX_SPACES + 4, 7)
    assert info.value.message == (f"board.spaces[{MAX_SPACES}]: board too large: found more "
                                  f"than 1,000 spaces; expected at most 1,000 (the limit on a "
                                  f"board)")


def test_nesting_just_within_the_limit_is_read() -> None:
    # the document is level 0: a mapping holding MAX_DEPTH nested lists is read
    deep = "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    assert load_text(deep).data["a"] is not None
    too_deep = "a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n"
    with pytest.raises(VariantError, match=f"nesting too deep: expected at most {MAX_DEPTH}"):
        load_text(too_deep)


# --- plugins and files are not a way in ----------------------------------------------------------

def test_no_python_tag_is_ever_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "owned"
    for tag in ("!!python/object/apply:os.system", "!!python/object/new:os.system",
                "!!python/object/apply:subprocess.call"):
        text = f"extends: standard\nname: {tag} [\"touch {marker}\"]\n"
        with pytest.raises(VariantError) as info:
            load_text(text, "hostile.yaml")
        assert (info.value.line, info.value.col) == (2, 7)
        assert "unsupported tag: found tag:yaml.org,2002:python/" in info.value.message
    assert not marker.exists()


def test_a_rule_is_an_installed_plugin_never_a_module(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "imported"
    (tmp_path / "evil_rule_module.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nPLUGIN_ID = 'evil_rule_module'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for rule in ("evil_rule_module", "os.path", "os", "easymoney.plugins.bank",
                 "easymoney.plugins.invariants:em_setup", str(tmp_path / "evil_rule_module.py")):
        path = tmp_path / "v.yaml"
        path.write_text(f'extends: standard\nrules:\n  "{rule}": true\n', encoding="utf-8")
        status, _, err = cli("check", str(path))
        assert status == 2
        assert err.startswith(f"{path}:3:3: error: rules: unknown rule: found {rule!r}; "
                              f"expected the id of an installed rule plugin"), err
        status, _, err = cli("check", "standard", "--with", rule)
        assert status == 2 and err.startswith(f"error: unknown rule {rule!r}"), err
    assert not marker.exists() and "evil_rule_module" not in sys.modules


def _rules_listing(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "easymoney", "rules"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def _ids(listing: str) -> list[str]:
    return [line.split(":")[0] for line in listing.splitlines()
            if line and not line.startswith(" ") and line.endswith(")")
            and (": on (" in line or ": off (" in line)]


def test_autoload_off_loads_only_the_builtins() -> None:
    env = {**os.environ, "EASYMONEY_DISABLE_PLUGIN_AUTOLOAD": "1"}
    listing = _rules_listing(env)
    assert _ids(listing) == ["core", *BUILTIN_PLUGINS]
    assert "failed to load" not in listing and "entry point" not in listing


def _sample_installed() -> bool:
    try:
        distribution("easymoney-sample-plugin")
    except PackageNotFoundError:
        return False
    return True


needs_sample = pytest.mark.skipif(not _sample_installed(),
                                  reason="pip install -e tests/plugins/sample_plugin")


@needs_sample
def test_broken_plugins_are_one_line_each_and_the_rest_works() -> None:
    status, out, err = cli("rules")
    assert (status, err) == (0, "")
    tail = out.split("\nPlugins that failed to load:\n", 1)[1].splitlines()
    assert [line.split(" (")[0] for line in tail] == ["  plugin sample_badhook",
                                                      "  plugin sample_broken"]
    assert "declares a hook badly" in tail[0] and "'nonsense'" in tail[0]
    assert tail[1].endswith("failed to load: ImportError: this sample plugin is broken on purpose")
    assert "sample_broken" not in discover().plugins and "sample_badhook" not in discover().plugins
    assert cli("check", "standard") == (0, "standard: ok\n", "")


@needs_sample
def test_with_autoload_on_the_sample_rule_is_listed() -> None:
    ids = _ids(_rules_listing(dict(os.environ)))
    assert "sample_rule" in ids and "sample_broken" not in ids


class _FakeEntryPoint:
    def __init__(self, name: str, obj: Any = None, error: BaseException | None = None) -> None:
        self.name, self.obj, self.error, self.dist = name, obj, error, None

    def load(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.obj


def _plugin(pid: str, **attrs: Any) -> types.SimpleNamespace:
    return types.SimpleNamespace(PLUGIN_ID=pid, RULES=(), __doc__=f"{pid}.", **attrs)


def test_hostile_third_party_plugins_are_reported_and_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fakes = [
        _FakeEntryPoint("exits", error=SystemExit(3)),
        _FakeEntryPoint("takes_street", _plugin("takes_street", SPACE_KINDS={
            "street": {"properties": {"price": {"type": "integer"}}}})),
        _FakeEntryPoint("bad_schema", _plugin("bad_schema", OPTIONS={
            "level": {"type": "a kind of its own", "default": 1}})),
        _FakeEntryPoint("bank", _plugin("bank")),
        _FakeEntryPoint("wrong_id", _plugin("other_id")),
        _FakeEntryPoint("good_one", _plugin("good_one", OPTIONS={
            "level": {"type": "integer", "default": 1}})),
    ]
    monkeypatch.setattr(registry_module, "entry_points", lambda group: fakes)
    reg = Registry()
    registry_module._load_builtins(reg)
    registry_module._load_entry_points(reg)
    names = ["bad_schema", "bank", "exits", "takes_street", "wrong_id"]
    errors = {name: [m for m in reg.load_errors if f"entry point {name}" in m] for name in names}
    assert all(len(found) == 1 for found in errors.values()), reg.load_errors
    assert len(reg.load_errors) == len(names)
    errors = {name: found[0] for name, found in errors.items()}
    assert "failed to load: SystemExit: 3" in errors["exits"]
    assert "declares the space kind 'street', which rule 'streets' already declares" \
        in errors["takes_street"]
    assert "option 'level' is not a valid JSON Schema" in errors["bad_schema"]
    assert "declared twice" in errors["bank"]
    assert all("\n" not in message for message in reg.load_errors)
    assert "good_one" in reg.plugins
    variant_schema(reg)  # the schema of every variant still builds
    assert load_variant("standard", registry=reg).name == "standard"


class _SignalledEntryPoint(_FakeEntryPoint):
    """A plugin whose import is under way when the signal comes."""

    def load(self) -> Any:
        os.kill(os.getpid(), self.obj)
        time.sleep(2)  # the handler raises here
        raise AssertionError("no signal came")


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_ctrl_c_or_sigterm_while_a_plugin_loads_stops_the_run(
        monkeypatch: pytest.MonkeyPatch, signame: str) -> None:
    """A plugin's own error, KeyboardInterrupt or SystemExit included, is one load error
    and the others load (tests/test_third_party.py); but the person's Ctrl-C, or SIGTERM
    inside a batch run, arriving while a plugin is imported stops the run (taken for the
    plugin's failure, a run of a million games went on after Ctrl-C)."""
    import signal

    from easymoney.outputs import Terminated, cleanup_on_signals
    signum = getattr(signal, signame)
    monkeypatch.setattr(registry_module, "entry_points",
                        lambda group: [_SignalledEntryPoint("slow_import", signum)])
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    reg = Registry()
    try:
        with pytest.raises(KeyboardInterrupt if signame == "SIGINT" else Terminated), \
                cleanup_on_signals():
            registry_module._load_entry_points(reg)
    finally:
        signal.signal(signal.SIGINT, before)
    assert reg.load_errors == []


# --- I/O -----------------------------------------------------------------------------------------------

def test_missing_files(tmp_path: Path) -> None:
    assert cli("check", str(tmp_path / "nope.yaml")) == (
        2, "", f"{tmp_path / 'nope.yaml'}: error: cannot read: no such file\n")
    status, out, err = cli("play", str(tmp_path / "nope.game"))
    assert (status, out) == (2, "")
    assert err == f"{tmp_path / 'nope.game'}: error: cannot read the script: No such file or directory\n"


def test_directories(tmp_path: Path) -> None:
    folder = tmp_path / "a.yaml"
    folder.mkdir()
    assert cli("check", str(folder)) == (
        2, "", f"{folder}: error: cannot read: is a directory; expected a YAML file\n")
    status, _, err = cli("play", str(tmp_path))
    assert status == 2 and err.startswith(f"{tmp_path}: error: cannot read the script: ")
    assert err.count("\n") == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_unreadable_files(tmp_path: Path) -> None:
    variant, script = tmp_path / "locked.yaml", tmp_path / "locked.game"
    variant.write_text("extends: standard\n", encoding="utf-8")
    script.write_text("players Ann Bob\n", encoding="utf-8")
    variant.chmod(0)
    script.chmod(0)
    try:
        assert cli("check", str(variant)) == (
            2, "", f"{variant}: error: cannot read: Permission denied\n")
        assert cli("play", str(script)) == (
            2, "", f"{script}: error: cannot read the script: Permission denied\n")
    finally:
        variant.chmod(0o644)
        script.chmod(0o644)


def test_unreadable_files_as_any_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same, with the refusal made by hand: root reads a file of mode 000."""
    from easymoney.loading import yamlload

    def refuse(path: Any, *args: Any, **kw: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(path))

    variant, script = tmp_path / "locked.yaml", tmp_path / "locked.game"
    variant.write_text("extends: standard\n", encoding="utf-8")
    script.write_text("players Ann Bob\n", encoding="utf-8")
    monkeypatch.setattr(yamlload, "open", refuse, raising=False)
    monkeypatch.setattr(parser, "open", refuse, raising=False)
    assert cli("check", str(variant)) == (2, "", f"{variant}: error: cannot read: Permission denied\n")
    assert cli("play", str(script)) == (
        2, "", f"{script}: error: cannot read the script: Permission denied\n")


def test_files_that_are_not_utf8(tmp_path: Path) -> None:
    variant, script = tmp_path / "latin1.yaml", tmp_path / "latin1.game"
    variant.write_bytes("extends: standard\nname: Café\n".encode("latin-1"))
    script.write_bytes("players Ann Bob\nexpect \"Café\" owner nobody\n".encode("latin-1"))
    assert cli("check", str(variant)) == (
        2, "", f"{variant}:2:10: error: not UTF-8 text: found byte 0xe9; expected a UTF-8 "
               f"encoded file\n")
    status, out, err = cli("play", str(script))
    assert (status, out) == (2, "")
    assert one_error(err, f"{script}:2:12: error: the script is not UTF-8 text (byte 0xe9)")


SHORT = "players Ann Bob\nseed 4\nautoplay 6 turns\n"


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_record_into_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    script = tmp_path / "short.game"
    script.write_text(SHORT, encoding="utf-8")
    out_path = tmp_path / "missing" / "game.game"
    status, out, err = cli("play", str(script), "--record", str(out_path))
    assert (status, out) == (2, "")  # not even a transcript: the record is checked first
    assert err == (f"error: --record {out_path}: the folder {out_path.parent} does not "
                   f"exist\n")
    assert _listing(tmp_path) == ["short.game"]


def test_record_onto_a_folder(tmp_path: Path) -> None:
    script = tmp_path / "short.game"
    script.write_text(SHORT, encoding="utf-8")
    (tmp_path / "taken").mkdir()
    status, _, err = cli("play", str(script), "--record", str(tmp_path / "taken"))
    assert status == 2 and err.startswith(f"error: --record {tmp_path / 'taken'}: is a folder")
    assert _listing(tmp_path / "taken") == []


def test_a_script_that_fails_leaves_no_record(tmp_path: Path) -> None:
    script = tmp_path / "bad.game"
    script.write_text("players Ann Bob\nAnn rolls 3 4\nBob buys\n", encoding="utf-8")
    status, _, err = cli("play", "--quiet", str(script), "--record", str(tmp_path / "out.game"))
    assert status == 2 and one_error(err, f"{script}:3:1: error: ")
    assert _listing(tmp_path) == ["bad.game"]


def test_a_failed_write_leaves_no_partial_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "short.game"
    script.write_text(SHORT, encoding="utf-8")

    def full_disk(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    from easymoney import outputs  # where every output file is written
    monkeypatch.setattr(outputs.os, "replace", full_disk)
    status, _, err = cli("play", "--quiet", str(script), "--record", str(tmp_path / "out.game"))
    assert (status, err) == (2, f"error: cannot write {tmp_path / 'out.game'}: No space left on "
                                f"device\n")
    assert _listing(tmp_path) == ["short.game"]  # neither the record nor its temporary file


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_record_into_a_read_only_folder(tmp_path: Path) -> None:
    script = tmp_path / "short.game"
    script.write_text(SHORT, encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        status, _, err = cli("play", "--quiet", str(script), "--record", str(locked / "x.game"))
        assert (status, err) == (2, f"error: cannot write {locked / 'x.game'}: Permission denied\n")
        assert _listing(locked) == []
    finally:
        locked.chmod(0o755)


def test_record_into_a_folder_that_refuses_as_any_user(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "short.game"
    script.write_text(SHORT, encoding="utf-8")

    def refuse(*args: Any, **kw: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    from easymoney import outputs  # where every output file is written
    monkeypatch.setattr(outputs.tempfile, "mkstemp", refuse)
    status, _, err = cli("play", "--quiet", str(script), "--record", str(tmp_path / "x.game"))
    assert (status, err) == (2, f"error: cannot write {tmp_path / 'x.game'}: Permission denied\n")
    assert _listing(tmp_path) == ["short.game"]


def test_simulate_json_into_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "games.json"
    status, out, err = cli("simulate", "--games", "1", "--workers", "1", "--json-out", str(target))
    assert (status, out) == (2, "")
    assert err == f"error: --json-out {target}: the folder {target.parent} does not exist\n"
    assert _listing(tmp_path) == []


def test_no_error_escapes_main_as_an_exception(tmp_path: Path) -> None:
    """What an EasyMoneyError says is what the command line prints."""
    path = tmp_path / "v.yaml"
    path.write_text("extends: standard\nname: [1, 2\n", encoding="utf-8")
    with pytest.raises(EasyMoneyError) as info:
        load_variant(str(path))
    status, _, err = cli("check", str(path))
    assert status == 2 and err == info.value.located() + "\n"


def test_record_onto_a_device_is_refused_before_the_game(tmp_path: Path) -> None:
    """Issue 12, item 13: an atomic rename would turn a device into a regular file."""
    import stat
    script = tmp_path / "short.game"
    script.write_text(SHORT, encoding="utf-8")
    device = tmp_path / "fake-null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    status, out, err = cli("play", str(script), "--record", str(device))
    assert (status, out) == (2, "")
    assert "is a character device" in err
    assert stat.S_ISCHR(device.stat().st_mode)
