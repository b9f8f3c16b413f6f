"""`easymoney play`: every statement of the game-script language, its options, exit statuses and errors.

The contract is docs/scripts.md; each test plays a short script
through the command line, in-process (`easymoney.cli.main`), and reads what it prints.
"""

from __future__ import annotations

import io
import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from easymoney.cli import main

SPEC_EXAMPLE = """\
# Four sides: a second street on side 1 must wait.
variant standard
players Ann Bob
seed 7

Ann rolls 3 4            # 7 = Dover Street, side 1
Ann buys
expect Ann cash $19,300
expect "Dover Street" owner Ann
Bob rolls 2 3            # 5 = Chestnut Road, also side 1
Bob declines             # to auction: Bob bids first, then Ann
Bob passes
Ann bids 600             # refused: Ann already owns a street on side 1
expect refused R13
Ann passes               # nobody bid: Chestnut Road stays unowned
expect "Chestnut Road" owner nobody
"""


class Played:
    """What one `easymoney play` printed."""

    def __init__(self, status: int, out: str, err: str, path: Path) -> None:
        self.status, self.out, self.err, self.path = status, out, err, path

    @property
    def events(self) -> list[dict]:
        return [json.loads(line) for line in self.out.splitlines()]

    def error(self) -> tuple[int, int, str, str, str]:
        """(line, column, message, quoted line, caret line) of the one error printed."""
        assert "Traceback" not in self.err
        lines = self.err.splitlines()
        match = re.fullmatch(rf"{re.escape(str(self.path))}:(\d+):(\d+): error: (.*)", lines[0])
        assert match, self.err
        assert len(lines) == 3, self.err
        return int(match.group(1)), int(match.group(2)), match.group(3), lines[1], lines[2]


@pytest.fixture
def play(tmp_path, capsys, monkeypatch):
    """play(script_text, *options, name=..., stdin=None) -> Played."""

    def run(text: str, *options: str, name: str = "game.game", stdin: str | None = None,
            path: Path | None = None) -> Played:
        if path is None:
            path = tmp_path / name
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        argv = ["play", str(path), *options]
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
            argv[1] = "-"
        capsys.readouterr()
        status = main(argv)
        out, err = capsys.readouterr()
        return Played(status, out, err, path if stdin is None else Path("<stdin>"))

    return run


def ok(played: Played) -> Played:
    assert played.err == "", played.err
    assert played.status == 0, played.out
    return played


# ---------------------------------------------------------------- the specification's example

def test_the_specifications_example_runs_and_every_expectation_holds(play):
    p = ok(play(SPEC_EXAMPLE))
    assert "Expectations: 4 of 4 held" in p.out
    assert "Ann buys Dover Street for $700" in p.out
    assert ("line 13: refused as expected: Ann cannot bid $600 on Chestnut Road: R13 "
            "four_sides: Ann owns Dover Street on side 1 and has no street on sides 2, 3, 4"
            in p.out)
    assert "Nobody bids on Chestnut Road: it stays unowned" in p.out


def test_the_transcript_lists_events_then_standings_and_expectations(play):
    p = ok(play(SPEC_EXAMPLE))
    lines = p.out.splitlines()
    assert lines[:4] == ["Game of standard with Ann, Bob",
                         "the Bank pays Ann $20,000: starting cash (R2)",
                         "the Bank pays Bob $20,000: starting cash (R2)",
                         "Turn 1: Ann"]
    assert "Ann rolls 3 + 4 = 7" in lines and "Ann moves to Dover Street (7)" in lines
    assert "Ann pays the Bank $700: buying Dover Street (R9)" in lines  # payer and payee
    tail = lines[lines.index("Standings:") - 1:]
    assert tail == ["The game stopped in turn 2 (the script ends here)", "Standings:",
                    "  1. Ann  cash   $19,300  worth   $20,000",
                    "  1. Bob  cash   $20,000  worth   $20,000",
                    "Leaders: Ann, Bob", "Expectations: 4 of 4 held"]


# ---------------------------------------------------------------- header statements

def test_variant_by_name(play):
    p = ok(play("""\
        variant no-four-sides
        players Ann Bob
        Ann rolls 3 4
        Ann buys
        Bob rolls 1 1
        Bob draws "Take $100"
        Ann rolls 1 3
        Ann buys                  # a second street on side 1: R13 is off
        expect "Fairmount Road" owner Ann
        """))
    assert p.out.startswith("Game of no-four-sides with Ann, Bob\n")


def test_variant_by_path_is_relative_to_the_script_not_to_the_working_folder(
        play, tmp_path, monkeypatch):
    folder = tmp_path / "games" / "rules"
    folder.mkdir(parents=True)
    (folder / "house.yaml").write_text("name: house\nextends: standard\n"
                                       "rules:\n  four_sides: false\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    p = ok(play("""\
        variant "rules/house.yaml"
        players Ann Bob
        Ann rolls 3 4
        Ann buys
        Ann builds on "Dover Street"   # R13 is off in this variant
        expect "Dover Street" houses 2
        """, name="games/g.game"))
    assert p.out.startswith("Game of house with Ann, Bob\n")


@pytest.mark.parametrize("switch", ["without four_sides", "without R13"])
def test_without_a_rule_by_plugin_id_or_rule_id(play, switch):
    ok(play(f"""\
        {switch}
        players Ann Bob
        setup Ann owns "Dover Street"
        Ann builds on "Dover Street"
        expect "Dover Street" houses 2
        """))


@pytest.mark.parametrize("switch", ["with four_sides", "with R13"])
def test_with_a_rule_by_plugin_id_or_rule_id(play, switch):
    ok(play(f"""\
        variant no-four-sides
        {switch}
        players Ann Bob
        setup Ann owns "Dover Street"
        Ann builds on "Dover Street"
        expect refused R13
        """))


def test_the_last_switch_of_a_rule_wins(play):
    ok(play("""\
        without four_sides
        with R13
        players Ann Bob
        setup Ann owns 7
        Ann builds on 7
        expect refused four_sides
        """))


def test_option_sets_a_rule_option(play):
    p = ok(play("""\
        option doubles.after_card forward
        players Ann Bob
        Ann rolls 2 2                 # forward 4 first, then the card
        Ann bids 100
        Bob passes
        Ann draws "Take $100"
        expect Ann at 4
        expect "Airdale Bus Line" owner Ann
        """))
    assert p.out.index("Ann moves to Airdale Bus Line") < p.out.index('Ann draws "Take $100"')


def test_option_value_may_be_quoted(play):
    ok(play("""\
        option end.max_turns "2"
        players Ann Bob:cautious
        Ann rolls 2 4
        Bob rolls 2 4
        expect game over by turns
        """))


def test_players_play_in_the_order_listed(play):
    p = ok(play("""\
        players Cat Ann Bob
        expect turn Cat
        Cat rolls 2 4
        Ann rolls 2 4
        Bob rolls 2 4
        expect turn Bob
        """))
    turns = re.findall(r"^Turn \d+: (\w+)$", p.out, re.M)
    assert turns == ["Cat", "Ann", "Bob"]


def test_seed_fixes_unscripted_dice_and_the_shuffle(play):
    script = "players Ann Bob\nseed {}\nAnn rolls\nAnn declines\nAnn passes\nBob passes\n"

    def first_throw(seed: int) -> str:
        p = play(script.format(seed) + "Bob rolls\n")
        return re.findall(r"^(?:Ann|Bob) rolls .*$", p.out, re.M)[0]

    assert first_throw(3) == first_throw(3)
    assert len({first_throw(seed) for seed in range(8)}) > 1


def test_seed_defaults_to_zero(play):
    rolls = "players Ann Bob\n{}Ann rolls 1 1\n"
    a = play(rolls.format(""))
    b = play(rolls.format("seed 0\n"))
    assert a.out == b.out and a.status == b.status


def test_setup_cash_both_ways_keeps_money_conserved(play):
    ok(play("""\
        players Ann Bob
        setup Ann cash $25,000
        setup Bob cash 100
        expect Ann cash 25000
        expect Bob cash 100
        expect bank $274,900
        """))


def test_setup_at(play):
    ok(play("""\
        players Ann Bob
        setup Ann at "Bingo Game"
        setup Bob at 47
        expect Ann at 36
        expect Bob at "Vernon Avenue"
        Ann rolls 5 6              # 36 + 11 = 47: across the light: a fine (R8)
        expect Ann cash $19,900
        """))


def test_setup_owns_every_form(play):
    ok(play("""\
        players Ann Bob
        setup Ann owns "Dover Street"
        setup Ann owns 9 3 houses
        setup Ann owns "Waldorf Hotel" mortgaged
        setup Bob owns "Park Avenue" 5 houses mortgaged
        setup Bob owns 1 1 house
        expect 7 owner Ann
        expect 7 houses 1
        expect 7 unmortgaged
        expect "Elmwood Avenue" houses 3
        expect 8 mortgaged
        expect 33 houses 5
        expect 33 mortgaged
        expect Ann houses left 11
        expect Bob houses left 10
        expect Ann cash 20000         # no money changes hands
        expect bank 260000
        expect Ann worth 24900        # 20,000 + 700 + 3 x 1,400; the mortgaged hotel counts 0
        """))


def test_setup_exemption_and_hospital(play):
    ok(play("""\
        players Ann Bob
        setup exemption Bob
        setup hospital $1,500
        expect exemption Bob
        expect hospital 1500
        expect bank 258500
        """))


@pytest.mark.parametrize("line, words", [
    ("setup Ann owns 0", "Bonus Corner is a bonus space"),
    ("setup Ann owns 4 2 houses", "Airdale Bus Line can carry 1 to 1 house, not 2"),
    ("setup Ann owns 7 6 houses", "Dover Street can carry 1 to 5 houses, not 6"),
    ("setup Ann owns 4 mortgaged", "cannot be mortgaged (R19)"),
    ("setup Ann cash 400000", "the Bank has only $260,000"),
    ("setup Dan at 3", "unknown player 'Dan'; the players are Ann, Bob"),
    ("setup Ann at 48", "no space number 48: the board has spaces 0 to 47"),
])
def test_setup_that_cannot_be_done_is_an_error_at_its_line(play, line, words):
    p = play(f"players Ann Bob\n{line}\nAnn rolls 1 2\n")
    assert p.status == 2
    n, col, message, quoted, caret = p.error()
    assert (n, col, quoted, caret) == (2, 1, line, "^")
    assert words in message


# ---------------------------------------------------------------- actions

def test_rolls_with_and_without_dice(play):
    p = ok(play("""\
        players Ann Bob
        seed 5
        Ann rolls 1 2
        Ann declines
        Ann passes
        Bob passes
        Bob rolls
        """))
    assert "Ann rolls 1 + 2 = 3" in p.out
    assert re.search(r"^Bob rolls \d \+ \d = \d+$", p.out, re.M)


def test_draws_names_the_card_wherever_it_is_in_the_pile(play):
    for card in ("Take $500", "Pay $1,000", "Birthday"):
        p = ok(play(f'players Ann Bob\nAnn rolls 6 6\nAnn draws "{card}"\n'))
        assert f'Ann draws "{card}"' in p.out


def test_without_a_draws_line_the_top_card_is_drawn(play):
    a = ok(play("players Ann Bob\nseed 11\nAnn rolls 6 6\n"))
    b = ok(play("players Ann Bob\nseed 11\nAnn rolls 6 6\n"))
    assert a.out == b.out
    assert re.search(r'^Ann draws ".+"$', a.out, re.M)


def test_buys_declines_bids_passes(play):
    ok(play("""\
        players Ann Bob
        Ann rolls 1 2
        Ann buys
        Bob rolls 2 3
        Bob declines
        Bob bids 200
        Ann passes
        expect "Beacon Street" owner Ann
        expect "Chestnut Road" owner Bob
        expect Bob cash 19800
        """))


def test_builds_one_and_n_mortgages_redeems(play):
    ok(play("""\
        without four_sides
        players Ann Bob
        setup Ann owns 7
        Ann builds on 7
        Ann builds 2 on "Dover Street"
        expect 7 houses 4
        Ann mortgages 7
        expect Ann cash 18250       # 20,000 - 3 x 700 + 350
        Ann redeems 7               # 350 + 35 = 385: $390 (R30)
        expect Ann cash 17860
        """))


def test_sells_a_space_and_the_exemption(play):
    ok(play("""\
        players Ann Bob
        setup Ann owns "Waldorf Hotel"
        setup exemption Ann
        Ann sells "Waldorf Hotel" to Bob for 2500
        Ann sells exemption to Bob for $1,000
        expect "Waldorf Hotel" owner Bob
        expect exemption Bob
        expect Ann cash 23500
        """))


def test_the_exemption_is_sold_at_any_moment_by_any_holder(play):
    ok(play("""\
        players Ann Bob Cat
        setup exemption Cat
        Ann rolls 1 3                 # Airdale Bus Line: an auction in Ann's turn
        Ann bids 100
        Cat sells exemption to Bob for 50
        Bob passes
        Cat passes
        expect exemption Bob
        """))


def test_a_debtor_who_owns_nothing_is_asked_then_goes_bankrupt_and_the_game_ends(play):
    p = ok(play("""\
        players Ann Bob
        setup Ann cash 100
        Ann rolls 2 4                 # Real Estate Tax: $1,000; Ann owns nothing
        Ann goes bankrupt             # still asked (R25)
        expect Ann bankrupt
        expect game over by bankruptcy
        expect winner Bob
        """))
    assert "Ann goes bankrupt" in p.out


def test_raising_money_takes_the_debtors_lines_then_goes_bankrupt(play):
    ok(play("""\
        players Ann Bob
        setup Ann cash 100
        setup Ann owns "Dover Street"
        Ann rolls 2 4                 # $1,000 tax
        Ann goes bankrupt             # not yet: Dover Street can be mortgaged (R26)
        expect refused R26
        Ann mortgages "Dover Street"
        Ann goes bankrupt
        expect Ann bankrupt
        expect bank 280000            # all the money but Bob's
        """))


def test_autoplay_to_the_end(play):
    p = ok(play("""\
        players Ann:cautious Bob:greedy Cat:random
        seed 23
        autoplay
        expect game over
        """))
    assert "Game over in turn" in p.out


def test_autoplay_n_turns_then_stops_where_it_is(play):
    p = ok(play("""\
        players Ann Bob
        seed 4
        Ann rolls 2 4
        autoplay 5 turns
        expect turn Bob               # five turns, Ann's first among them: Bob's 6th waits
        """))
    turns = re.findall(r"^Turn (\d+): ", p.out, re.M)
    assert turns[-1] == "6"
    assert "The script ends here; the game stops where it is" in p.out


def test_autoplay_uses_cautious_for_players_without_a_strategy(play):
    ok(play("players Ann Bob\nseed 23\noption end.max_turns 30\nautoplay\n"
            "expect game over by turns\n"))


def test_only_expect_lines_may_follow_autoplay(play):
    p = play("players Ann Bob\nautoplay\nAnn rolls 1 2\n")
    assert p.status == 2
    assert "only `expect` lines may follow `autoplay`" in p.error()[2]


# ---------------------------------------------------------------- turns and windows

def test_a_line_of_the_next_player_ends_the_turn_even_a_window_action(play):
    ok(play("""\
        players Ann Bob
        setup Bob owns 1
        Ann rolls 2 4
        Bob mortgages 1               # Ann's turn ends; Bob mortgages before his throw
        expect turn Bob
        Bob rolls 2 4
        """))


def test_a_window_line_by_another_player_is_refused_by_r5(play):
    p = play("""\
        players Ann Bob Cat
        setup Cat owns 1
        Ann rolls 2 4
        Cat mortgages 1               # Bob plays next, not Cat
        """)
    assert p.status == 2
    assert p.error()[2] == ("Cat cannot mortgage Arlington Avenue: R5 turn: it is Ann's turn: "
                            "Cat may mortgage only in their own turn")


def test_expectations_before_the_next_players_line_see_the_closing_window(play):
    ok(play("""\
        players Ann Bob
        Ann rolls 2 4
        expect turn Ann               # her closing window is still open
        Bob rolls 2 4
        expect turn Bob
        """))


def test_when_the_script_ends_the_game_stops_where_it_is(play):
    p = ok(play("players Ann Bob\nAnn rolls 1 2\n"))   # Ann is asked to buy: no line
    assert ("Ann moves to Beacon Street (3)\nThe script ends here; the game stops where it is\n"
            "The game waits for Ann to buy Beacon Street or decline\n"
            "\nThe game stopped in turn 1 (the script ends here)\n") in p.out


def test_a_player_with_a_strategy_decides_when_the_next_line_is_not_theirs(play):
    ok(play("""\
        players Ann Bob:greedy
        Ann rolls 1 3                 # Airdale Bus Line: Ann bids first
        Ann passes                    # Bob has no line: greedy bids
        expect "Airdale Bus Line" owner Bob
        """))


def test_a_player_with_a_strategy_plays_a_whole_turn_the_script_leaves_out(play):
    p = ok(play("""\
        players Ann Bob:greedy
        seed 2
        Ann rolls 3 4
        Ann buys
        Ann rolls 1 2                 # Bob's turn comes between: his strategy plays it
        expect turn Ann
        """))
    assert re.findall(r"^Turn \d+: (\w+)$", p.out, re.M) == ["Ann", "Bob", "Ann"]


def test_a_player_without_a_strategy_needs_a_line(play):
    p = play("players Ann Bob\nAnn rolls 3 4\nAnn buys\nAnn rolls 1 2\n")
    assert p.status == 2
    assert p.error()[2] == ("the game waits for Ann to build, mortgage, redeem or sell, or "
                            "Bob to begin the next turn; found 'Ann rolls 1 2'")


# ---------------------------------------------------------------- expectations

BASE = """\
players Ann Bob Cat
setup Ann owns "Dover Street" 2 houses
setup Bob owns "Waldorf Hotel" mortgaged
setup exemption Cat
setup hospital 300
Ann rolls 1 2                     # Beacon Street: Ann is asked to buy; the script ends
"""

HOLDING = [
    "expect Ann cash 20000", "expect Ann cash $20,000", "expect Ann at 3",
    'expect Ann at "Beacon Street"', 'expect "Dover Street" owner Ann', "expect 3 owner nobody",
    "expect 7 houses 2", 'expect "Waldorf Hotel" mortgaged', "expect 7 unmortgaged",
    "expect Ann worth 21400", "expect Ann houses left 14", "expect exemption Cat",
    "expect bank 239700", "expect hospital 300", "expect turn Ann", "expect winner Ann",
]

FAILING = [
    ("expect Ann cash 5", "Ann has $20,000"),
    ("expect Ann at 4", "Ann is at 3 (Beacon Street)"),
    ("expect 7 owner Bob", "Dover Street is owned by Ann"),
    ("expect 7 owner nobody", "Dover Street is owned by Ann"),
    ("expect 3 owner Ann", "Beacon Street is unowned"),
    ("expect 7 houses 3", "Dover Street has 2 houses"),
    ("expect 8 unmortgaged", "Waldorf Hotel is mortgaged"),
    ("expect 7 mortgaged", "Dover Street is not mortgaged"),
    ("expect Ann worth 21000", "Ann is worth $21,400"),
    ("expect Ann houses left 16", "Ann has 14 houses left"),
    ("expect exemption Ann", "the Special Exemption card is held by Cat"),
    ("expect exemption nobody", "the Special Exemption card is held by Cat"),
    ("expect bank 1", "the Bank has $239,700"),
    ("expect hospital 0", "the Hospital pot holds $300"),
    ("expect turn Bob", "it is Ann's turn"),
    ("expect Ann bankrupt", "Ann is not bankrupt"),
    ("expect game over", "the game is not over"),
    ("expect game over by turns", "the game is not over"),
    ("expect winner Bob", "the winner is Ann"),
    ("expect winner Ann Bob", "the winner is Ann"),
]


def test_every_expect_form_can_hold(play):
    p = ok(play(BASE + "\n".join(HOLDING) + "\n"))
    assert f"Expectations: {len(HOLDING)} of {len(HOLDING)} held" in p.out


@pytest.mark.parametrize("line, actual", FAILING, ids=[f[0] for f in FAILING])
def test_a_failed_expectation_reports_its_line_and_the_actual_value_and_the_script_goes_on(
        play, line, actual):
    p = play(BASE + line + "\nexpect Ann cash 20000\n")
    assert p.status == 1
    assert p.err == ""
    assert f"{p.path}:7:1: expectation failed: {line}: {actual}\n" in p.out
    assert "Expectations: 1 of 2 held" in p.out


def test_expect_exemption_nobody_holds_while_the_card_is_in_the_deck(play):
    ok(play("players Ann Bob\nexpect exemption nobody\n"))


def test_expectations_about_a_finished_game(play):
    script = textwrap.dedent("""\
        players Ann Bob Cat
        setup Bob cash 100
        Ann rolls 1 3                 # Airdale Bus Line: nobody bids
        Ann passes
        Bob passes
        Cat passes
        Bob rolls 2 4                 # $1,000 tax; Bob owns nothing
        Bob goes bankrupt
        """)
    ok(play(script + "expect Bob bankrupt\nexpect game over\nexpect game over by bankruptcy\n"
            "expect winner Ann Cat\n"))
    p = play(script + "expect game over by bank\nexpect winner Cat\n")
    assert p.status == 1
    assert "expectation failed: expect game over by bank: the game ended by bankruptcy" in p.out
    assert "expectation failed: expect winner Cat: the winners are Ann Cat" in p.out


def test_expect_refused_with_and_without_a_rule(play):
    ok(play("""\
        players Ann Bob
        Ann rolls 1 2
        Ann declines
        Ann bids 50
        expect refused
        Ann bids 55
        expect refused R30
        Ann bids 105
        expect refused rounding
        Ann passes
        Bob passes
        """))


def test_expect_refused_naming_another_rule_is_an_error(play):
    text = SPEC_EXAMPLE.replace("expect refused R13", "expect refused R12")
    p = play(text)
    assert p.status == 2
    n, col, message, quoted, _ = p.error()
    assert (n, col, quoted) == (14, 1, "expect refused R12")
    assert message.startswith("expected a refusal by R12, but line 13 was refused by R13 "
                              "four_sides: Ann cannot bid $600 on Chestnut Road")


def test_expect_refused_after_a_line_that_was_not_refused_is_an_error(play):
    p = play("players Ann Bob\nAnn rolls 1 2\nAnn buys\nexpect refused\n")
    assert p.status == 2
    assert p.error()[:3] == (4, 1, "`expect refused`, but the line before it was not refused")


def test_expect_refused_an_unknown_rule_is_an_error(play):
    p = play(SPEC_EXAMPLE.replace("expect refused R13", "expect refused R99"))
    assert p.status == 2
    assert p.error()[2].startswith("unknown rule 'R99'")


# ---------------------------------------------------------------- exit statuses

def test_exit_status_0_1_2(play):
    assert play(SPEC_EXAMPLE).status == 0
    assert play(SPEC_EXAMPLE + "expect Ann cash 1\n").status == 1
    assert play(SPEC_EXAMPLE + "Bob rolls 1 2\n").status == 2
    assert play("players Ann Bob\nAnn rols 1 2\n").status == 2


# ---------------------------------------------------------------- options of the command

def test_json_is_one_object_per_event_then_a_summary(play):
    p = ok(play(SPEC_EXAMPLE, "--json"))
    events = p.events
    summary = events[-1]
    assert list(summary) == ["summary"]
    assert all("event" in e for e in events[:-1])
    kinds = [e["event"] for e in events[:-1]]
    assert kinds[:4] == ["game_start", "pay", "pay", "turn"]
    assert {"roll", "move", "buy", "decline", "auction", "pass", "refused_as_expected",
            "auction_unsold", "stopped"} <= set(kinds)
    assert events[0] == {"event": "game_start", "variant": "standard", "changes": [], "players": "Ann Bob",
                         "seed": 7}
    roll = next(e for e in events if e["event"] == "roll")
    assert roll == {"event": "roll", "player": "Ann", "dice": [3, 4], "total": 7}
    pay = next(e for e in events if e["event"] == "pay" and e["payer"] == "Ann")
    assert pay == {"event": "pay", "payer": "Ann", "payee": "the Bank", "amount": 700,
                   "reason": "buying Dover Street (R9)", "payment": "purchase"}
    refused = next(e for e in events if e["event"] == "refused_as_expected")
    assert refused["line"] == 13 and refused["column"] == 1
    assert refused["statement"].startswith("Ann bids 600")
    assert "R13 four_sides" in refused["message"]
    s = summary["summary"]
    assert s["variant"] == "standard" and s["seed"] == 7 and s["turns"] == 1
    assert s["over"] is False and s["reason"] is None and s["winners"] == ["Ann", "Bob"]
    assert s["standings"][0] == {"player": "Ann", "cash": 19300, "worth": 20000, "rank": 1,
                                 "bankrupt": False}
    assert s["bank"] == 260700 and s["pots"] == {"hospital": 0}
    assert s["expectations"] == {"checked": 4, "held": 4, "failed": 0}


def test_json_reports_failed_expectations_as_events(play):
    p = play(SPEC_EXAMPLE + "expect Bob cash 1\n", "--json")
    assert p.status == 1
    failed = [e for e in p.events if e.get("event") == "expectation_failed"]
    assert failed == [{"event": "expectation_failed", "line": 17, "column": 1,
                       "statement": "expect Bob cash 1", "message": "Bob has $20,000"}]
    assert p.events[-1]["summary"]["expectations"] == {"checked": 5, "held": 4, "failed": 1}


def test_quiet_prints_the_standings_and_the_expectation_report_only(play):
    p = ok(play(SPEC_EXAMPLE, "--quiet"))
    assert p.out.splitlines() == [
        "", "The game stopped in turn 2 (the script ends here)", "Standings:",
        "  1. Ann  cash   $19,300  worth   $20,000",
        "  1. Bob  cash   $20,000  worth   $20,000",
        "Leaders: Ann, Bob", "Expectations: 4 of 4 held"]
    p = play(SPEC_EXAMPLE + "expect Bob cash 1\n", "--quiet")
    assert "expectation failed: expect Bob cash 1: Bob has $20,000" in p.out


def test_trace_prints_hook_calls_on_stderr(play):
    p = play(SPEC_EXAMPLE, "--trace")
    assert p.status == 0
    assert "em_play_turn" in p.err and "em_land" in p.err
    assert "em_play_turn" not in p.out


def test_command_line_switches_apply_on_top_of_the_header(play):
    script = """\
        variant no-four-sides
        players Ann Bob
        setup Ann owns 7
        Ann builds on 7
        expect 7 houses 2
        """
    ok(play(script))
    p = play(script, "--with", "R13")
    assert p.status == 2 and "R13 four_sides" in p.error()[2]
    ok(play(script.replace("variant no-four-sides\n", ""), "--without", "four_sides"))
    ok(play("players Ann Bob\nAnn rolls 2 2\nAnn bids 100\nBob passes\nAnn draws \"Take $100\"\n"
            "expect Ann at 4\n", "--option", "doubles.after_card=forward"))


def test_a_command_line_switch_overrides_the_header(play):
    ok(play("without four_sides\nplayers Ann Bob\nsetup Ann owns 7\nAnn builds on 7\n"
            "expect refused R13\n", "--with", "four_sides"))


def test_dash_reads_the_script_from_standard_input(play, tmp_path, monkeypatch):
    p = ok(play("", stdin=SPEC_EXAMPLE))
    assert "Expectations: 4 of 4 held" in p.out
    p = play("", stdin="players Ann Bob\nAnn rols 1 2\n")
    assert p.status == 2
    assert p.err.startswith("<stdin>:2:5: error: unknown action 'rols': did you mean 'rolls'?")
    (tmp_path / "v.yaml").write_text("name: v\nextends: standard\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # from standard input, a variant path is relative to here
    p = ok(play("", stdin='variant "v.yaml"\nplayers Ann Bob\n'))
    assert p.out.startswith("Game of v with Ann, Bob")


# ---------------------------------------------------------------- errors

def check_error(p: Played, line: int, col: int, message: str) -> None:
    assert p.status == 2
    assert "Traceback" not in p.out + p.err
    n, c, text, quoted, caret = p.error()
    assert (n, c) == (line, col), p.err
    assert text == message
    source = p.path.read_text(encoding="utf-8").splitlines()[line - 1]
    assert quoted == source
    assert caret == " " * (col - 1) + "^"


def test_a_syntax_error(play):
    p = play("players Ann Bob\nAnn rolls 3 9\n")
    check_error(p, 2, 13, "a die is a number from 1 to 6, found '9'")


def test_an_unknown_player(play):
    check_error(play("players Ann Bob\nDan rolls 1 2\n"), 2, 1,
                "unknown player 'Dan'; the players are Ann, Bob")
    check_error(play("players Ann Bob\nexpect Anne cash 5\n"), 2, 1,
                "unknown player 'Anne' (did you mean 'Ann'?); the players are Ann, Bob")


def test_an_unknown_space(play):
    check_error(play('players Ann Bob\nsetup Ann owns "Dover St"\n'), 2, 1,
                "unknown space \"Dover St\" (did you mean 'Dover Street'?)")
    check_error(play("players Ann Bob\nexpect 48 owner nobody\n"), 2, 1,
                "no space number 48: the board has spaces 0 to 47")


def test_an_unknown_card(play):
    check_error(play('players Ann Bob\nAnn rolls 1 1\nAnn draws "Take $5000"\n'), 3, 1,
                "unknown card \"Take $5000\" (did you mean 'Take $500'?)")


def test_an_unknown_rule(play):
    check_error(play("without foursides\nplayers Ann Bob\n"), 1, 1,
                "unknown rule 'foursides' (did you mean 'four_sides'?)")


def test_an_unknown_option(play):
    p = play("option doubles.after 3\nplayers Ann Bob\n")
    check_error(p, 1, 1, p.error()[2])
    assert "doubles.after" in p.error()[2] and "after_card" in p.error()[2]
    p = play("option doubles.after_card sideways\nplayers Ann Bob\n")
    assert p.status == 2 and p.error()[:2] == (1, 1)
    assert "sideways" in p.error()[2] and "backward, forward" in p.error()[2]


def test_an_unknown_strategy(play):
    p = play("players Ann Bob:clever\n")
    assert p.status == 2
    assert p.error()[:2] == (1, 13)
    assert p.error()[2].startswith("unknown strategy 'clever'")


def test_an_invalid_variant(play, tmp_path):
    check_error(play("variant standart\nplayers Ann Bob\n"), 1, 1,
                "unknown variant 'standart': expected a built-in variant (classic-1936, "
                "no-four-sides, reference-card, standard) or a YAML file (did you mean "
                "'standard'?)")
    p = play('variant "missing.yaml"\nplayers Ann Bob\n')
    assert p.status == 2
    assert p.error()[:2] == (1, 1) and "missing.yaml" in p.error()[2]
    (tmp_path / "bad.yaml").write_text("name: bad\nextends: standard\nrules:\n"
                                       "  four_sidez: false\n", encoding="utf-8")
    p = play('variant "bad.yaml"\nplayers Ann Bob\n')
    assert p.status == 2 and "Traceback" not in p.err
    assert p.err.startswith(f"{tmp_path / 'bad.yaml'}:4:3: error: ")  # located in the YAML
    assert "four_sidez" in p.err


def test_the_wrong_number_of_players(play):
    check_error(play("players Ann\n"), 1, 1, "standard is for 2 to 4 players, not 1")
    p = play("expect bank 0\n")  # no players line at all
    assert p.status == 2 and "`players`" in p.err and "Traceback" not in p.err


def test_an_unexpected_refusal_names_the_rule_the_plugin_and_the_reason(play):
    p = play(SPEC_EXAMPLE.replace("expect refused R13\n", ""))
    check_error(p, 13, 1, "Ann cannot bid $600 on Chestnut Road: R13 four_sides: Ann owns "
                          "Dover Street on side 1 and has no street on sides 2, 3, 4")


def test_a_line_that_does_not_answer_what_the_game_waits_for(play):
    p = play("""\
        players Ann Bob Cat
        Ann rolls 3 5                 # Waldorf Hotel: auctioned, Ann bids first
        Ann bids 100
        Cat rolls 2 3
        """)
    check_error(p, 4, 1, "the game waits for Bob to bid on Waldorf Hotel or pass; found "
                         "'Cat rolls 2 3'")


def test_the_found_line_is_quoted_without_its_comment(play):
    p = play("players Ann Bob\nAnn rolls 1 2\nBob rolls 1 2   # too early\n")
    assert p.error()[2].endswith("found 'Bob rolls 1 2'")


def test_a_line_after_the_game_is_over(play):
    p = play("""\
        players Ann Bob
        setup Ann cash 100
        Ann rolls 2 4
        Ann goes bankrupt
        Bob rolls 1 2
        """)
    check_error(p, 5, 1, "the game is over (bankruptcy: Ann went bankrupt (R27)); found "
                         "'Bob rolls 1 2'")


def test_a_card_that_is_not_in_the_draw_pile(play):
    check_error(play("""\
        players Ann Bob
        Ann rolls 1 1
        Ann draws "Special Exemption"
        Bob rolls 1 1
        Bob draws "Special Exemption"
        """), 5, 1, "\"Special Exemption\" is not in the draw pile: it is held by Ann")
    check_error(play("""\
        players Ann Bob
        Ann rolls 1 1
        Ann draws "Take $100"
        Bob rolls 1 1
        Bob draws "Take $100"
        """), 5, 1, "\"Take $100\" is not in the draw pile: it is on the discard pile")


def test_a_card_drawn_by_the_wrong_player(play):
    check_error(play('players Ann Bob\nAnn rolls 1 1\nBob draws "Take $100"\n'), 3, 1,
                "the game waits for Ann to draw a card; found 'Bob draws \"Take $100\"'")


def test_a_sale_of_the_exemption_when_its_rule_is_off_is_refused_not_a_crash(play):
    check_error(play("without exemption\nplayers Ann Bob\nAnn sells exemption to Bob for 10\n"),
                3, 1, "Ann cannot sell the Special Exemption card to Bob for $10: R16 exemption: "
                      "the rule 'exemption' is switched off in this game")
    ok(play("without exemption\nplayers Ann Bob\nAnn sells exemption to Bob for 10\n"
            "expect refused R16\n"))


def test_a_missing_script_file_and_a_directory(play, tmp_path):
    p = play("", path=tmp_path / "nope.game")
    assert p.status == 2
    assert p.err == f"{tmp_path / 'nope.game'}: error: cannot read the script: No such file or directory\n"
    p = play("", path=tmp_path)
    assert p.status == 2
    assert p.err.startswith(f"{tmp_path}: error: cannot read the script: ")
    assert "Traceback" not in p.err
