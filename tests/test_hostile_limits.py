"""Hostile input that once crashed, hung or ran away (issue 12): each bounded, located or refused.

The large hostile files are made here, in tmp_path; the small ones are in tests/data/bad/.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from easymoney.cli import main
from easymoney.errors import ScriptError, VariantError
from easymoney.loading.yamlload import MAX_DEPTH, MAX_TEXT, load_text


def cli(*args: str) -> tuple[int, str, str]:
    """`easymoney ARGS` in this process: (status, stdout, stderr); no traceback may escape."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    assert "Traceback" not in err.getvalue()
    return status, out.getvalue(), err.getvalue()


def run(*args: str, stdout: int | None = subprocess.PIPE, timeout: float = 120,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`easymoney ARGS` in a process of its own (a crash there is a failed test, not ours)."""
    return subprocess.run([sys.executable, "-m", "easymoney", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=timeout, cwd=cwd)


# --- 12: deep nesting is refused before libyaml composes it -----------------------------------

def test_forty_thousand_nested_brackets_are_a_located_error(tmp_path: Path) -> None:
    # PyYAML 6.0.3's libyaml composer recursed into this and died of signal 11
    path = tmp_path / "deep.yaml"
    path.write_text("extends: standard\nname: " + "[" * 40_000 + "\n", encoding="utf-8")
    done = run("check", str(path))
    assert (done.returncode, done.stdout) == (2, ""), done.stderr[-300:]
    col = len("name: ") + MAX_DEPTH + 1  # the first `[` one level too deep
    assert done.stderr == (f"{path}:2:{col}: error: nesting too deep: expected at most "
                           f"{MAX_DEPTH} levels\n")


@pytest.mark.parametrize("text, where", [
    ("a: " + "[" * 40_000, (1, 4 + MAX_DEPTH)),
    ("a: " + "{k: " * 40_000, (1, 4 + 4 * MAX_DEPTH)),
    ("a:\n" + "".join(" " * (2 * k + 2) + f"k{k}:\n" for k in range(200)),
     (MAX_DEPTH + 2, 2 * MAX_DEPTH + 3)),
    ("a: " + "[" * MAX_DEPTH + "x" + "]" * MAX_DEPTH, (1, 4 + MAX_DEPTH)),
])
def test_nesting_is_counted_before_composing(text: str, where: tuple[int, int],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: object) -> None:
        raise AssertionError("composed a document nested too deep")

    from easymoney.loading import yamlload
    monkeypatch.setattr(yamlload._Composer, "get_single_node", never)
    with pytest.raises(VariantError) as info:
        load_text(text, "deep.yaml")
    assert info.value.message == f"nesting too deep: expected at most {MAX_DEPTH} levels"
    assert (info.value.line, info.value.col) == where


def test_a_key_is_no_level_of_its_own() -> None:
    # in a mapping one level too deep the value is refused, where it is, not its key
    text = "a: " + "[" * (MAX_DEPTH - 1) + "{k: v}" + "]" * (MAX_DEPTH - 1) + "\n"
    with pytest.raises(VariantError) as info:
        load_text(text)
    assert (info.value.line, info.value.col) == (1, 3 + MAX_DEPTH + len("{k: "))
    text = text.replace("{k: v}", "{}")
    value = load_text(text).data["a"]
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == {}


def test_a_malformed_document_is_reported_by_the_composer() -> None:
    with pytest.raises(VariantError) as info:
        load_text("a: [1, 2\nb: 3\n", "bad.yaml")
    assert info.value.message.startswith("malformed YAML")


def test_the_pyyaml_in_use_is_one_the_project_accepts() -> None:
    # docs/reliability.md names the versions these tests were run with
    major, minor = (int(part) for part in yaml.__version__.split(".")[:2])
    assert (major, minor) >= (6, 0)


# --- 6: one long string aliased many times ------------------------------------------------------

def _aliased(tmp_path: Path, length: int, copies: int) -> Path:
    path = tmp_path / "aliased.yaml"
    path.write_text(f"extends: standard\nname: aliased\ndescription: &long \"{'x' * length}\"\n"
                    f"sources: [{', '.join(['*long'] * copies)}]\n", encoding="utf-8")
    return path


def test_a_long_string_aliased_many_times_is_refused(tmp_path: Path) -> None:
    path = _aliased(tmp_path, 400_000, 90_000)  # `show` printed this for 66 minutes
    message = (f"{path}:4:10: error: too much text after expanding aliases: more than "
               f"{MAX_TEXT:,} characters (the limit; is one long value aliased many times?)\n")
    for command in ("check", "show"):
        assert cli(command, str(path)) == (2, "", message)


def test_text_up_to_the_limit_after_aliases_is_read(tmp_path: Path) -> None:
    path = _aliased(tmp_path, 100_000, 8)
    status, out, err = cli("show", str(path))
    assert (status, err) == (0, "")
    assert out.count("x" * 100_000) == 9
    path = _aliased(tmp_path, 100_000, MAX_TEXT // 100_000)
    assert cli("check", str(path))[0] == 2


# --- 5: long chains -------------------------------------------------------------------------------

def _chain(folder: Path, length: int, last: str = "extends: standard\n") -> Path:
    for k in range(length - 1):
        (folder / f"v{k}.yaml").write_text(f"extends: v{k + 1}.yaml\n", encoding="utf-8")
    (folder / f"v{length - 1}.yaml").write_text(last, encoding="utf-8")
    return folder / "v0.yaml"


def test_a_chain_of_1200_files_each_extending_the_next_is_read(tmp_path: Path) -> None:
    top = _chain(tmp_path, 1200, "extends: standard\nplayers: {min: 2, max: 3}\n")
    assert cli("check", str(top)) == (0, f"{top}: ok\n", "")
    status, out, _ = cli("show", str(top))
    assert status == 0 and "name: v0\n" in out and "players:\n  min: 2\n  max: 3\n" in out


def test_a_mistake_at_the_end_of_a_long_chain_is_located_there(tmp_path: Path) -> None:
    top = _chain(tmp_path, 1200, "extends: standard\nplayers: {min: 2, max: lots}\n")
    status, out, err = cli("check", str(top))
    assert (status, out) == (2, "")
    assert err.startswith(f"{tmp_path / 'v1199.yaml'}:2:24: error: players.max: wrong "
                          f"type: found 'lots'")
    (tmp_path / "v1199.yaml").write_text("extends: v600.yaml\n", encoding="utf-8")
    status, _, err = cli("check", str(top))
    assert status == 2 and err.startswith(f"{tmp_path / 'v1199.yaml'}:1:10: error: extends: cycle")


# --- 9: a FIFO is no script -----------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_play_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    done = run("play", str(fifo), timeout=60)  # it blocked forever, waiting for a writer
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"{fifo}: error: cannot read the script: not a regular file; "
                           f"expected a .game file (or - to read standard input)\n")
    variant = tmp_path / "variant.fifo"
    os.mkfifo(variant)
    assert cli("check", str(variant)) == (2, "", f"{variant}: error: cannot read: not a regular "
                                                 f"file; expected a YAML file\n")


# --- 10: a full standard output -------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [
    ("check", "standard"), ("schema",), ("show", "standard"),
    ("play", str(EXAMPLES / "01-first-turns.game")),
    ("play", "--json", str(EXAMPLES / "15-autoplay.game")),
    ("simulate", "--games", "2", "--workers", "1"),
    ("simulate", "--games", "4", "--workers", "2"),
])
def test_a_full_standard_output_is_one_line_and_status_2(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        done = run(*args, stdout=full.fileno())
    assert (done.returncode, done.stderr) == (
        2, "error: cannot write to standard output: No space left on device\n")


def _card_chain(folder: Path) -> Path:
    path = folder / "chain.yaml"
    path.write_text("extends: standard\ndeck:\n  - {text: Back to the Stock Exchange, kind: "
                    "advance, to: Stock Exchange, count: 200}\n", encoding="utf-8")
    return path


def test_200_advance_cards_to_a_draw_space_in_play_and_simulate(tmp_path: Path) -> None:
    variant = _card_chain(tmp_path)
    script = tmp_path / "chain.game"
    script.write_text(f'variant "{variant}"\nplayers Ann Bob\nsetup Ann at 9\nAnn rolls 1 2\n'
                      f'expect Ann at 12\n', encoding="utf-8")
    status, out, err = cli("play", str(script))
    assert (status, err) == (0, "")
    assert "Ann lands on Stock Exchange after 10 cards in a row: no more cards this move" in out
    status, out, err = cli("simulate", str(variant), "--games", "3", "--workers", "1",
                           "--seed", "5", "--check-invariants")
    assert (status, err) == (0, "")
    record = tmp_path / "chain-record.game"
    script.write_text(f'variant "{variant}"\nplayers Ann:greedy Bob:random\nseed 8\n'
                      f'autoplay 40 turns\n', encoding="utf-8")
    status, first, err = cli("play", str(script), "--record", str(record))
    assert (status, err) == (0, "") and "cards in a row" in first
    status, again, err = cli("play", str(record))
    assert (status, err) == (0, "")
    assert again.split("\n\n")[0] == first.split("\n\n")[0]  # the same game, event by event


# --- 16: control characters -----------------------------------------------------------------------

def test_no_error_reaches_the_terminal_with_a_raw_control_character() -> None:
    error = ScriptError("unknown card \"\x1b[2J\u202e\"", file="a\x1bb.game", line=1, col=9,
                        source_line="Ann draws \"\x1b[2J\u202e\"")
    text = error.located()
    assert all(ch == "\n" or ch.isprintable() for ch in text), repr(text)
    assert text == ('a\\x1bb.game:1:9: error: unknown card "\\x1b[2J\\u202e"\n'
                    'Ann draws "\u241b[2J\ufffd"\n        ^')


@pytest.mark.parametrize("name", ["Dover\x85Street", "Dover\u2028Street", "\ufeffDover",
                                  "Dover\u202eStreet"])
def test_show_never_prints_a_name_that_does_not_read_back(tmp_path: Path, name: str) -> None:
    path = tmp_path / "v.yaml"
    escaped = name.encode("unicode_escape").decode("ascii")
    path.write_text(f'extends: standard\nmodify:\n  spaces:\n'
                    f'    Dover Street: {{name: "{escaped}"}}\n', encoding="utf-8")
    status, out, err = cli("show", str(path))
    assert (status, out) == (2, "")
    assert err.startswith(f"{path}:4:26: error: modify.spaces[\"Dover Street\"].name: control "
                          f"character: found U+")


def test_show_round_trips_names_with_unusual_printable_characters(tmp_path: Path) -> None:
    names = ["Café # 1", "Lot: A", "- Lot", "O'Brien's", "Lot\u00a0B", "ロット", "Lot 🎲"]
    path = tmp_path / "v.yaml"
    path.write_text("extends: standard\nmodify:\n  spaces:\n" + "".join(
        f"    {old}: {{name: {yaml.safe_dump(new, allow_unicode=True).splitlines()[0]}}}\n"
        for old, new in zip(["Dover Street", "Grove Street", "Union Road", "Tremont Street",
                             "Quincy Street", "Park Avenue", "Summit Avenue"], names)),
        encoding="utf-8")
    status, out, err = cli("show", str(path))
    assert (status, err) == (0, "")
    shown = tmp_path / "shown.yaml"
    shown.write_text(out, encoding="utf-8")
    status, again, err = cli("show", str(shown))
    assert (status, err, again) == (0, "", out)
    for name in names:
        assert name in out


# --- 15: every record replays ---------------------------------------------------------------------

def test_a_record_larger_than_play_reads_is_refused_before_writing(tmp_path: Path) -> None:
    (tmp_path / "rich.yaml").write_text("extends: standard\nmoney: {smallest_bill: 10, "
                                        "starting_cash: 20000, bank_total: 1000000000}\n",
                                        encoding="utf-8")
    script = tmp_path / "long.game"
    script.write_text(f'variant "rich.yaml"\nplayers {"A" * 100}:random {"B" * 100}:random\n'
                      f'without end\nseed 1\nautoplay 2000 turns\n', encoding="utf-8")
    out = tmp_path / "long-record.game"
    status, _, err = cli("play", "--quiet", str(script), "--record", str(out))
    assert status == 2
    assert err.startswith(f"error: cannot write {out}: the record is ")
    assert err.endswith(" bytes; expected at most 1,048,576 bytes (1 MiB, the limit on a "
                        "script that `easymoney play` reads); record fewer turns (autoplay N "
                        "turns) or shorter player names\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.game", "rich.yaml"]


def test_a_record_of_exactly_the_limit_is_written_and_replays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from easymoney.script import record
    script = tmp_path / "short.game"
    script.write_text("players Ann:greedy Bob:greedy\nseed 4\nautoplay 30 turns\n",
                      encoding="utf-8")
    out = tmp_path / "short-record.game"
    assert cli("play", "--quiet", str(script), "--record", str(out))[0] == 0
    size = len(out.read_bytes())
    out.unlink()
    monkeypatch.setattr(record, "MAX_SCRIPT_BYTES", size)
    assert cli("play", "--quiet", str(script), "--record", str(out))[0] == 0
    assert cli("play", "--quiet", str(out))[0] == 0
    out.unlink()
    monkeypatch.setattr(record, "MAX_SCRIPT_BYTES", size - 1)
    status, _, err = cli("play", "--quiet", str(script), "--record", str(out))
    assert status == 2 and f"the record is {size:,} bytes" in err and not out.exists()


def test_the_record_limit_is_the_script_limit() -> None:
    from easymoney.script import parser, record
    assert record.MAX_SCRIPT_BYTES == parser.MAX_SCRIPT_BYTES


@pytest.mark.parametrize("folder", ['say "hi"', "two\nlines"])
def test_a_variant_path_a_script_cannot_write_is_refused_before_the_run(
        tmp_path: Path, folder: str) -> None:
    where = tmp_path / folder
    where.mkdir()
    (where / "v.yaml").write_text("extends: standard\n", encoding="utf-8")
    script = where / "s.game"
    script.write_text('variant "v.yaml"\nplayers Ann:greedy Bob:greedy\nseed 2\n'
                      'autoplay 5 turns\n', encoding="utf-8")
    out = tmp_path / "out.game"
    status, stdout, err = cli("play", str(script), "--record", str(out))
    assert (status, stdout) == (2, "")  # not even a transcript: refused before the game
    shown = repr(f"{folder}/v.yaml")
    assert err.startswith(f"error: cannot record the game: the variant path {shown} cannot be "
                          f"written in a game script: it holds a ")
    assert not out.exists()
    assert cli("play", "--quiet", str(script))[0] == 0  # without --record it plays
