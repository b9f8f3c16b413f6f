"""Issues 17 and 19 at the prompt: deals, dice, passing, undo, save and the prompt's polish."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from prompt_helpers import play_lines

from easymoney.interactive.session import DEFAULT_PLAYERS

ANN_BOB = ("--seed", "3", "--players", "Ann", "Bob:cautious", "--choose-dice")


def test_a_sale_to_a_bot_asks_the_bot_which_rejects_it(monkeypatch):
    """Issue 17: the other party of a sale is asked; a cautious bot will not pay $20,000."""
    status, said = play_lines(monkeypatch, ["rolls 3 4", "buys",
                                            'sells "Dover Street" to Bob for 20000', "status",
                                            "quit"], *ANN_BOB)
    assert "Bob rejects Ann's offer to sell Dover Street to Bob for $20,000" in said
    assert "Bob (cautious bot): cash $20,000" in said


def test_a_person_never_types_another_seats_line(monkeypatch):
    """Issue 17: `Bob sells exemption to Ann for 0` typed by Ann is refused, clearly."""
    status, said = play_lines(monkeypatch, ["Bob sells exemption to Ann for 0", "quit"], *ANN_BOB)
    assert ("refused: it is Ann's decision now, and only Ann's lines are typed here: Bob (a "
            "bot: its strategy decides) answers for itself") in said


def test_an_offer_to_a_person_is_asked_at_the_prompt(monkeypatch):
    """Issue 17: a sale to a person waits for them to accept or reject it."""
    status, said = play_lines(monkeypatch, ["rolls 3 4", "buys",
                                            'sells "Dover Street" to Cat for 800', "?",
                                            "accepts", "status", "quit"],
                              "--seed", "3", "--players", "Ann", "Cat", "--choose-dice")
    assert "the game waits for Cat to accept or reject: Ann offers to sell Dover Street" in said
    assert "Cat may answer:\n  accepts\n  rejects\n" in said
    assert "Cat: cash $19,200" in said and "owns Dover Street" in said


def test_dice_come_from_the_game_unless_chosen(monkeypatch, tmp_path):
    """Issue 17: `rolls 3 4` is refused without --choose-dice, with how to choose them; with
    it, the transcript and a saved game say so."""
    status, said = play_lines(monkeypatch, ["rolls 3 4", "quit"], "--seed", "3",
                              "--players", "Ann", "Bob:greedy")
    assert "refused: Ann cannot roll" in said and "--choose-dice" in said
    saved = tmp_path / "chosen.game"
    status, said = play_lines(monkeypatch, ["rolls 3 4", f"save {saved}", "quit"], *ANN_BOB)
    assert "You choose your dice" in said
    text = saved.read_text()
    assert "# the dice were chosen by the players (--choose-dice)" in text
    assert "Ann rolls 3 4" in text
    assert _replays(saved)


def _replays(path: Path) -> bool:
    done = subprocess.run([sys.executable, "-m", "easymoney", "play", str(path)],
                          capture_output=True, text=True, cwd=path.parent)
    return done.returncode == 0 and "Traceback" not in done.stderr


def test_the_turn_ends_by_itself_when_nothing_else_may_be_done(monkeypatch):
    """Issue 17: `ends turn`, when it is all that is left, is not typed."""
    status, said = play_lines(monkeypatch, ["rolls", "declines", "passes", "quit"],
                              "--seed", "3", "--players", "Ann", "Bob:greedy")
    assert "Ann ends turn (by itself: nothing else may be done now)" in said
    assert "Turn 2: Bob" in said


def test_auto_on_passes_the_windows_the_person_has_not_asked_to_act_in(monkeypatch):
    """Issue 17: with `auto on` (or --auto-pass) the roll and the turn's end are not asked;
    `act` asks at the next window."""
    status, said = play_lines(monkeypatch, ["auto on", "buys", "act", "ends turn", "quit"],
                              "--seed", "3", "--players", "Ann", "Bob:greedy")
    assert "Ann rolls (auto:" in said
    assert "Ann> ends turn" in said  # asked, since `act` was typed
    status, flag = play_lines(monkeypatch, ["quit"], "--seed", "3", "--players",
                              "Ann", "Bob:greedy", "--auto-pass")
    assert flag.count("Ann rolls (auto:") == 2  # two windows passed before the first question


def test_undo_steps_back_over_the_bots_moves_and_never_fails_on_long_input(monkeypatch):
    """Issue 19 case 6: long typed lines never make `undo` fail (no script is replayed)."""
    comment = " # " + "x" * 60_000
    lines = ["rolls 3 4", "buys" + comment] + ["status" + comment] * 20
    lines += ["ends turn" + comment, "undo", "undo", "status", "quit"]
    status, said = play_lines(monkeypatch, lines, *ANN_BOB)
    assert status == 0
    assert "Taking back `Ann ends turn`" in said and "Taking back `Ann buys`" in said
    assert said.rsplit("Ann> status", 1)[1].startswith("\nAnn: cash $20,000")


def test_save_refuses_the_script_being_played_and_standard_output(monkeypatch, tmp_path):
    """Issue 19 case 3."""
    script = tmp_path / "in.game"
    script.write_text("players Ann Bob\nseed 1\nAnn rolls 3 4\n")
    status, said = play_lines(monkeypatch, [f"save {script}", "save -", "quit"], str(script))
    assert "would overwrite the script being played" in said
    assert "save -: a game is saved to a file, not to standard output" in said
    assert script.read_text() == "players Ann Bob\nseed 1\nAnn rolls 3 4\n"
    assert not (Path.cwd() / "-").exists()


def test_nothing_typed_ends_the_game(monkeypatch):
    """Issue 19 case 7: `history ²` and a 5,000-digit `history N` get the usage."""
    status, said = play_lines(monkeypatch, ["history ²", "history " + "9" * 5000, "history x",
                                            "rolls", "quit"],
                              "--seed", "3", "--players", "Ann", "Bob:greedy")
    assert status == 0
    assert said.count("usage: history [N | all]") == 3
    assert "unknown action" not in said and "Ann rolls" in said


def test_no_raw_escape_reaches_the_terminal(monkeypatch, tmp_path):
    """Issue 19 case 17: echoes, refusals, undo's and save's words show control characters."""
    target = tmp_path / "a\x1b[2Jb.game"
    status, said = play_lines(monkeypatch, ["buys \x1b[31mred", "Ann\x1b[2J rolls",
                                            f"save {target}", "quit"],
                              "--seed", "3", "--players", "Ann", "Bob:greedy")
    assert "\x1b" not in said


def test_hot_seat_auctions_say_who_bids(monkeypatch):
    """Issue 19 case 21: each new request to a person says who is asked and their cash."""
    status, said = play_lines(monkeypatch, ["rolls 3 4", "declines", "bids 100", "passes",
                                            "quit"],
                              "--seed", "3", "--players", "Ann", "Cat", "--choose-dice")
    assert "the game waits for Cat to bid" in said and "Cat has $20,000" in said


def test_polish_the_default_seat_reads_and_the_leaver_is_named(monkeypatch):
    """Issue 19 case 27: no `You has`; Ann leaves, not You; the board's turn."""
    assert DEFAULT_PLAYERS[0] == "Pat"
    status, said = play_lines(monkeypatch, ["board", "quit"], "--seed", "3")
    assert "Pat has $20,000" in said and "You has" not in said
    assert "in turn 1" in said  # issue 28 case 26: the state now, not "after turn 0"
    status, said = play_lines(monkeypatch, ["quit"], "--seed", "3", "--players", "Ann", "Bob")
    assert "Ann leaves the game in turn 1." in said and "You leave" not in said


def test_piped_play_needs_no_prompt_toolkit(monkeypatch):
    """Issue 19 case 27: prompt_toolkit is needed at a terminal only."""
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "prompt_toolkit" else real(name, *a))
    status, said = play_lines(monkeypatch, ["rolls", "quit"], "--seed", "3", "--players", "Ann",
                              "Bob")
    assert status == 0 and "Ann rolls" in said


def test_a_closed_output_ends_quietly():
    """Issue 19 case 27: `play -i ... | head` exits quietly."""
    done = subprocess.run(f"yes status | {sys.executable} -m easymoney play -i --seed 3 "
                          "--players Ann Bob:greedy | head -3", shell=True, capture_output=True,
                          text=True, timeout=120)
    assert "Traceback" not in done.stderr and "failed" not in done.stderr, done.stderr


def test_a_bots_offer_asks_the_person(monkeypatch):
    """Issue 17: a bot that offers a person a deal waits for the person's answer."""
    from easymoney import ActionRange, legal_actions
    from easymoney.strategies import make_strategy
    from easymoney.script import runner

    class Offering:
        """Greedy, but offers Ann its first space for the least it may ask."""

        def __init__(self) -> None:
            self.inner, self.offered = make_strategy("greedy"), False

        def decide(self, game, request):
            for found in legal_actions(game, request) if not self.offered else ():
                field = found.kind.counterparty if isinstance(found, ActionRange) else None
                if field and getattr(found.template, field).name == "Ann":
                    self.offered = True
                    return found.at(found.least)
            return self.inner.decide(game, request)

    monkeypatch.setattr(runner, "make_strategy", lambda name: Offering())
    said_before = {"n": 0}

    def pick(said: str) -> str:
        said_before["n"] += 1
        last = said.rsplit("the game waits for ", 1)[-1]
        if said_before["n"] > 300 or "Ann> accepts" in said:
            return ""
        if last.startswith("Ann to accept or reject"):
            return "accepts"
        listed = said.rsplit("\n", 2)[-2].startswith("  ")  # a listing just said
        return listing(said)[0] if listed else "?"

    from prompt_helpers import listing, play_fed
    status, said = play_fed(monkeypatch, pick, "--seed", "3", "--players", "Ann", "Bob:greedy")
    assert "the game waits for Ann to accept or reject: Bob offers to sell" in said
    assert "Ann> accepts" in said and "refused" not in said


def test_a_script_is_replayed_into_the_game_with_its_expectations(monkeypatch):
    """Item 7: `play FILE -i` reads each line with the script runner and applies it; the
    last expectations wait while the bots drive the game, as `play` does."""
    root = Path(__file__).resolve().parent.parent
    for name, held in (("01-first-turns", "23 of 23"), ("12-house-rules", "6 of 6"),
                       ("15-autoplay", "1 of 1")):
        status, said = play_lines(monkeypatch, ["quit"], str(root / "examples" / f"{name}.game"))
        assert status == 0 and f"Expectations: {held} held" in said, name


FOUR_SIDES = ('players Ann Bob:greedy\nseed 3\nsetup Ann owns "Arlington Avenue"\n'
              'setup Ann owns "Grove Street"\nsetup Ann owns "Lincoln Street"\n'
              'setup Ann owns "Union Road"\n')


def test_issue28_case24_a_window_asked_for_with_act_stays_open_until_passed(monkeypatch,
                                                                             tmp_path):
    """Issue 28 case 24: with `auto on`, the window `act` asks for takes every action the
    person types (two builds) and closes only when they pass it; the next is passed again."""
    script = tmp_path / "four.game"
    script.write_text(FOUR_SIDES)
    status, said = play_lines(monkeypatch, ["act", "auto on", 'builds on "Arlington Avenue"',
                                            'builds on "Arlington Avenue"', "rolls", "quit"],
                              str(script))
    assert status == 0
    assert "Ann builds 1 house on Arlington Avenue for $600: 3 now" in said
    assert "Ann> rolls" in said and "Ann rolls (auto:" not in said.split("Ann> rolls")[0]
    after = said.split("Ann> rolls", 1)[1]
    assert "Ann ends turn (auto:" in after  # passed: the window asked for was closed by the roll


def test_issue28_case24_an_undone_window_stays_open_until_passed(monkeypatch, tmp_path):
    """The window `undo` steps back to is asked, and stays open for a second action."""
    script = tmp_path / "four.game"
    script.write_text(FOUR_SIDES)
    status, said = play_lines(monkeypatch, ["act", "auto on", 'builds on "Arlington Avenue"',
                                            "undo", 'builds on "Grove Street"',
                                            'builds on "Lincoln Street"', "status", "quit"],
                              str(script))
    assert status == 0
    assert "Ann builds 1 house on Lincoln Street for $850: 2 now" in said
    assert "Arlington Avenue (1 house), Grove Street (2 houses), Lincoln Street (2 houses)" in said


def test_issue28_case34_a_rejected_offer_is_refused_at_the_prompt_in_the_same_window(monkeypatch):
    """R22a: after Bob's rejection, the same sale (at any price) is refused with its rule and
    left out of `?`; it may be offered again in the next window."""
    offer = 'sells "Dover Street" to Bob for 20000'
    status, said = play_lines(monkeypatch, ["rolls 3 4", "buys", offer, offer,
                                            'sells "Dover Street" to Bob for 100', "?", "quit"],
                              *ANN_BOB)
    assert said.count("Bob rejects Ann's offer to sell Dover Street to Bob for $20,000") == 1
    assert ("refused: Ann cannot sell Dover Street to Bob for $100: R22a offers: Bob rejected "
            "Ann's offer to sell Dover Street to Bob for $20,000 in this window: offer another "
            "deal, or this one in another window") in said
    assert "sells" not in said.rsplit("Ann may answer:", 1)[1]
