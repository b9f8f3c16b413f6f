"""`easymoney play --record OUT`: the game just played, written as a complete script that replays it.

The record spells out every throw, card and decision, then `expect` lines for every
player's final cash and the winners; `easymoney play OUT` must print the same transcript
without depending on the seed. Two kinds of lines may differ, as the specification
allows: the notes of refusals the original script expected (a record holds no refused
line) and the count of expectations (the record has its own).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from easymoney.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.game"))
NOT_REPLAYED = re.compile(r"^(line \d+: refused as expected: .*|Expectations: \d+ of \d+ held)$")


@pytest.fixture
def run(capsys):
    """run(*argv) -> (status, stdout, stderr) of `easymoney *argv`."""

    def _run(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        status = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return status, out, err

    return _run


def comparable(transcript: str) -> list[str]:
    return [line for line in transcript.splitlines() if not NOT_REPLAYED.match(line)]


def round_trip(run, script: Path, record: Path, *options: str) -> tuple[str, str, str]:
    """Play `script` with --record, replay the record; (original, replay, record text)."""
    status, original, err = run("play", script, "--record", record, *options)
    assert err == "" and status == 0, err + original
    status, replay, err = run("play", record)
    assert err == "", err
    text = record.read_text(encoding="utf-8")
    expects = len(re.findall(r"^expect ", text, re.M))
    assert status == 0, replay
    assert f"Expectations: {expects} of {expects} held" in replay
    return original, replay, text


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_replays_from_its_record(run, tmp_path, example):
    original, replay, _ = round_trip(run, example, tmp_path / "record.game")
    assert comparable(replay) == comparable(original)


def test_a_record_spells_out_every_throw_card_and_decision(run, tmp_path):
    script = write(tmp_path / "g.game", """\
        players Ann Bob
        seed 4
        Ann rolls 6 6                 # the top card of the seeded shuffle
        Bob rolls                     # dice from the seed
        """)
    original, replay, text = round_trip(run, script, tmp_path / "r.game")
    assert comparable(replay) == comparable(original)
    body = [line for line in text.splitlines() if line and not line.startswith(("#", "expect"))]
    assert body[:4] == ["variant standard", "players Ann Bob", "seed 4", "Ann rolls 6 6"]
    assert re.fullmatch(r'Ann draws ".+"', body[4])
    assert re.fullmatch(r"Bob rolls [1-6] [1-6]", body[5])
    assert "expect Ann cash " in text and "expect Bob cash " in text and "expect winner " in text


def test_a_record_keeps_the_header_switches_options_setup_and_command_line_changes(run, tmp_path):
    script = write(tmp_path / "g.game", """\
        without four_sides
        option mortgage.rent none
        players Ann Bob
        setup Ann owns "Dover Street" 2 houses
        setup exemption Bob
        setup hospital 500
        Ann mortgages 7
        Ann rolls 2 2                 # forward (--option below): Airdale Bus Line, then a card
        Ann bids 100
        Bob passes
        Ann draws "Take $100"
        Bob rolls 4 3                 # Dover Street, mortgaged: no rent (mortgage.rent none)
        """)
    original, replay, text = round_trip(run, script, tmp_path / "r.game",
                                        "--option", "doubles.after_card=forward")
    assert comparable(replay) == comparable(original)
    for line in ("without four_sides", "option mortgage.rent none",
                 "option doubles.after_card forward", 'setup Ann owns "Dover Street" 2 houses',
                 "setup exemption Bob", "setup hospital 500"):
        assert f"\n{line}\n" in text


def test_a_bot_game_replays_from_its_record(run, tmp_path):
    script = write(tmp_path / "bots.game", """\
        players Ann:greedy Bob:random
        seed 11
        autoplay
        expect game over
        """)
    original, replay, text = round_trip(run, script, tmp_path / "r.game")
    assert comparable(replay) == comparable(original)
    assert "autoplay" not in text and "players Ann Bob\n" in text
    assert "\nexpect game over by bankruptcy\n" in text or "\nexpect game over by bank\n" in text


def test_a_record_replays_the_same_game_whatever_its_seed(run, tmp_path):
    script = write(tmp_path / "bots.game", """\
        players Ann:cautious Bob:greedy Cat:random
        seed 23
        autoplay
        """)
    record = tmp_path / "r.game"
    original, replay, text = round_trip(run, script, record)
    assert "\nseed 23\n" in text
    record.write_text(text.replace("\nseed 23\n", "\nseed 999\n"), encoding="utf-8")
    status, reseeded, err = run("play", record)
    assert (status, err) == (0, "")
    assert comparable(reseeded) == comparable(original)


def test_a_record_of_autoplay_for_n_turns_stops_at_the_same_place(run, tmp_path):
    script = write(tmp_path / "g.game", "players Ann Bob:greedy\nseed 5\nautoplay 6 turns\n")
    original, replay, _ = round_trip(run, script, tmp_path / "r.game")
    assert comparable(replay) == comparable(original)


def test_a_record_of_a_game_on_a_variant_file_finds_it_from_the_records_folder(
        run, tmp_path, monkeypatch):
    write(tmp_path / "rules" / "house.yaml", """\
        name: house
        extends: standard
        rules:
          four_sides: false
        """)
    script = write(tmp_path / "games" / "g.game", """\
        variant "../rules/house.yaml"
        players Ann Bob
        Ann rolls 3 4
        Ann buys
        Ann builds on 7
        """)
    record = tmp_path / "records" / "deep" / "r.game"
    record.parent.mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "games")
    original, _, text = round_trip(run, script, record)
    assert 'variant "../../rules/house.yaml"\n' in text
    monkeypatch.chdir(ROOT)  # and from anywhere else
    status, replay, err = run("play", record)
    assert (status, err) == (0, "")
    assert comparable(replay) == comparable(original)
    assert replay.startswith("Game of house with Ann, Bob")


def test_a_record_of_a_game_the_script_stopped_stops_at_the_same_place(run, tmp_path):
    script = write(tmp_path / "g.game", "players Ann Bob\nAnn rolls 1 2\n")  # Ann must decide
    original, replay, _ = round_trip(run, script, tmp_path / "r.game")
    assert comparable(replay) == comparable(original)
    assert "The game stopped in turn 1" in replay


def test_recording_into_a_folder_that_does_not_exist_is_one_clean_error(run, tmp_path):
    script = write(tmp_path / "g.game", "players Ann Bob\nAnn rolls 1 2\n")
    out_path = tmp_path / "missing" / "r.game"
    status, out, err = run("play", script, "--record", out_path)
    assert status == 2
    assert out == ""
    assert err == (f"error: --record {out_path}: the folder {out_path.parent} does not "
                   f"exist\n")
    assert not out_path.parent.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.game"]


def test_a_script_that_fails_writes_no_record(run, tmp_path):
    script = write(tmp_path / "g.game", "players Ann Bob\nAnn rolls 1 2\nBob rolls 1 2\n")
    record = tmp_path / "r.game"
    status, _, err = run("play", script, "--record", record)
    assert status == 2 and "the game waits for Ann" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.game"]
