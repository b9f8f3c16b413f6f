"""The game-script parser: every statement of the contract, round trips, and error messages."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from easymoney.engine import actions
from easymoney.engine.registry import discover
from easymoney.engine.statements import lines_of
from easymoney.plugins.auction import Bid, Pass
from easymoney.plugins.building import Build
from easymoney.plugins.debts import GoBankrupt
from easymoney.plugins.exemption import ExpectExemption, SellExemption, SetupExemption
from easymoney.plugins.hospital import ExpectHospital, SetupHospital
from easymoney.plugins.mortgage import Mortgage, Redeem
from easymoney.plugins.sales import Sell
from easymoney.plugins.streets import Buy, Decline
from easymoney.errors import ScriptSyntaxError, shown_line
from easymoney.script import ast as A
from easymoney.script.parser import parse, parse_bytes, parse_file


def says(kind):
    """The parsed line saying an action of `kind` with these values (issue 18: a line is
    its action's class, unresolved)."""
    return lambda *values, **where: A.ActionLine.of(kind, *values, **where)


Roll, EndTurn = says(actions.Roll), says(actions.EndTurn)
Buys, Declines, Bids, Passes = says(Buy), says(Decline), says(Bid), says(Pass)
Builds, Mortgages, Redeems, Sells = says(Build), says(Mortgage), says(Redeem), says(Sell)
SellsExemption, GoesBankrupt = says(SellExemption), says(GoBankrupt)


@pytest.fixture(autouse=True)
def _builtin_language(monkeypatch):
    """The language of the built-in rules: messages list its words, whatever else is installed."""
    monkeypatch.setenv("EASYMONEY_DISABLE_PLUGIN_AUTOLOAD", "1")

DATA = Path(__file__).parent / "data" / "scripts"


def one(line: str):
    (stmt,) = parse(line).statements
    return stmt


def S(name_or_number):
    if isinstance(name_or_number, int):
        return A.SpaceRef(None, name_or_number)
    return A.SpaceRef(name_or_number, None)


# ---------------------------------------------------------------- every statement

STATEMENTS = [
    # header
    ("variant standard", A.VariantStmt("standard", None)),
    ("variant no-four-sides", A.VariantStmt("no-four-sides", None)),
    ('variant "my.yaml"', A.VariantStmt(None, "my.yaml")),
    ("without four_sides", A.RuleSwitch(False, "four_sides")),
    ("with R13", A.RuleSwitch(True, "R13")),
    ("option doubles.after_card forward", A.OptionStmt("doubles.after_card", "forward")),
    ("option end.max_turns 200", A.OptionStmt("end.max_turns", "200")),
    ('option a.b "two words"', A.OptionStmt("a.b", "two words")),
    ("players Ann Bob", A.PlayersStmt((A.PlayerDecl("Ann", None), A.PlayerDecl("Bob", None)))),
    ("players Ann Bob:greedy", A.PlayersStmt((A.PlayerDecl("Ann", None),
                                              A.PlayerDecl("Bob", "greedy")))),
    ("seed 7", A.SeedStmt(7)),
    ("setup Ann cash $5,000", A.SetupCash("Ann", 5000)),
    ('setup Ann at "Dover Street"', A.SetupAt("Ann", S("Dover Street"))),
    ("setup Ann at 7", A.SetupAt("Ann", S(7))),
    ("setup Ann owns 7", A.SetupOwns("Ann", S(7), 1, False)),
    ("setup Ann owns 7 3 houses", A.SetupOwns("Ann", S(7), 3, False)),
    ("setup Ann owns 7 1 house", A.SetupOwns("Ann", S(7), 1, False)),
    ('setup Ann owns "X" mortgaged', A.SetupOwns("Ann", S("X"), 1, True)),
    ('setup Ann owns "X" 2 houses mortgaged', A.SetupOwns("Ann", S("X"), 2, True)),
    ("setup exemption Ann", SetupExemption("Ann")),
    ("setup hospital 500", SetupHospital(500)),
    # actions
    ("Ann rolls 3 4", Roll("Ann", (3, 4))),
    ("Ann rolls", Roll("Ann", None)),
    ('Ann draws "Take $500"', A.Draw("Ann", "Take $500")),
    ('Ann draws "Doctor\'s Bill"', A.Draw("Ann", "Doctor's Bill")),
    ("Ann buys", Buys("Ann")),
    ("Ann declines", Declines("Ann")),
    ("Ann bids 600", Bids("Ann", 600)),
    ("Ann passes", Passes("Ann")),
    ("Ann builds on 7", Builds("Ann", 1, S(7))),
    ('Ann builds 2 on "Dover Street"', Builds("Ann", 2, S("Dover Street"))),
    ("Ann mortgages 7", Mortgages("Ann", S(7))),
    ('Ann redeems "Dover Street"', Redeems("Ann", S("Dover Street"))),
    ('Ann sells "Dover Street" to Bob for 1200', Sells("Ann", S("Dover Street"), "Bob", 1200)),
    ("Ann sells exemption to Bob for $1,100", SellsExemption("Ann", "Bob", 1100)),
    ("Ann goes bankrupt", GoesBankrupt("Ann")),
    ("Ann ends turn", EndTurn("Ann")),
    ("autoplay", A.Autoplay(None)),
    ("autoplay 20 turns", A.Autoplay(20)),
    ("autoplay 1 turn", A.Autoplay(1)),
    # expectations
    ("expect Ann cash $19,300", A.ExpectCash("Ann", 19300)),
    ('expect Ann at "Dover Street"', A.ExpectAt("Ann", S("Dover Street"))),
    ('expect "Dover Street" owner Ann', A.ExpectOwner(S("Dover Street"), "Ann")),
    ('expect "Dover Street" owner nobody', A.ExpectOwner(S("Dover Street"), None)),
    ("expect 7 houses 2", A.ExpectHouses(S(7), 2)),
    ("expect 7 mortgaged", A.ExpectMortgaged(S(7), True)),
    ("expect 7 unmortgaged", A.ExpectMortgaged(S(7), False)),
    ("expect Ann worth 1100", A.ExpectWorth("Ann", 1100)),
    ("expect Ann houses left 12", A.ExpectHousesLeft("Ann", 12)),
    ("expect exemption Ann", ExpectExemption("Ann")),
    ("expect exemption nobody", ExpectExemption(None)),
    ("expect bank $1100", A.ExpectBank(1100)),
    ("expect hospital 300", ExpectHospital(300)),
    ("expect turn Bob", A.ExpectTurn("Bob")),
    ("expect Bob bankrupt", A.ExpectBankrupt("Bob")),
    ("expect game over", A.ExpectGameOver(None)),
    ("expect game over by bankruptcy", A.ExpectGameOver("bankruptcy")),
    ("expect game over by bank", A.ExpectGameOver("bank")),
    ("expect game over by turns", A.ExpectGameOver("turns")),
    ("expect winner Ann Bob", A.ExpectWinner(("Ann", "Bob"))),
    ("expect refused", A.ExpectRefused(None)),
    ("expect refused R13", A.ExpectRefused("R13")),
]


@pytest.mark.parametrize("line, expected", STATEMENTS, ids=[s for s, _ in STATEMENTS])
def test_statement(line, expected):
    stmt = one(line)
    assert type(stmt) is type(expected)
    assert stmt == expected
    assert (stmt.line, stmt.column) == (1, 1)
    assert parse("\n\n   " + line + "   # note\n").statements[0].line == 3
    assert parse("\n\n   " + line + "   # note\n").statements[0].column == 4
    # the canonical line parses back to the same statement
    assert one(str(stmt)) == stmt


def test_canonical_lines():
    assert [str(one(line)) for line in (
        "Ann rolls 3 4", 'Ann draws "Take $500"', "Ann bids $600",
        'Ann sells "Dover Street" to Bob for $1,200', 'expect "Dover Street" owner nobody',
        "setup Ann owns 7 1 house", "Ann builds 1 on 7", "autoplay 1 turns",
        "option a.b 'x'", 'option a.b "two words"', "expect bank $1,100")] == [
        "Ann rolls 3 4", 'Ann draws "Take $500"', "Ann bids 600",
        'Ann sells "Dover Street" to Bob for 1200', 'expect "Dover Street" owner nobody',
        "setup Ann owns 7", "Ann builds on 7", "autoplay 1 turn",
        "option a.b 'x'", 'option a.b "two words"', "expect bank 1100"]


def test_positions_of_parts():
    stmt = one('  Ann sells "Dover Street" to Bob for 1200')
    assert (stmt.line, stmt.column) == (1, 3)
    assert (stmt.space.line, stmt.space.column) == (1, 13)
    players = one("players Ann Bob:greedy")
    assert [(p.column, str(p)) for p in players.players] == [(9, "Ann"), (13, "Bob:greedy")]


def test_example_from_the_contract():
    script = parse_file(DATA / "example.game")
    assert script.filename == str(DATA / "example.game")
    assert script.header == (A.VariantStmt("standard", None),
                             A.PlayersStmt((A.PlayerDecl("Ann", None), A.PlayerDecl("Bob", None))),
                             A.SeedStmt(7))
    assert script.body == (
        Roll("Ann", (3, 4)), Buys("Ann"), A.ExpectCash("Ann", 19300),
        A.ExpectOwner(S("Dover Street"), "Ann"), Roll("Bob", (2, 3)), Declines("Bob"),
        Passes("Bob"), Bids("Ann", 600), A.ExpectRefused("R13"), Passes("Ann"),
        A.ExpectOwner(S("Chestnut Road"), None))
    assert [s.line for s in script.statements] == [2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                   15, 16]
    assert script.source_lines[5].startswith("Ann rolls 3 4")


def test_every_statement_file_round_trips():
    script = parse_file(DATA / "every_statement.game")
    lines = script.source_lines
    assert len(script.header) == 17 and len(script.body) == 38
    kinds = {s.kind if isinstance(s, A.ActionLine) else type(s) for s in script.statements}
    header = set(A.HEADER_TYPES) - {A.SetupStatement}
    plugins = {cls for info in discover().plugins.values()
               for cls in lines_of(info.obj) if info.origin == "built-in"}
    # every statement of the language, the base lines' and the rules' (their actions' lines)
    assert kinds == header | set(A.BASE_LINES) | plugins
    for stmt in script.statements:
        assert lines[stmt.line - 1].startswith(str(stmt).split(" ")[0])
        assert one(str(stmt)) == stmt
    again = parse(str(script))
    assert again.header == script.header and again.body == script.body
    assert str(again) == str(script)
    option = [s for s in script.header if isinstance(s, A.OptionStmt)][-1]
    assert option.value == "Ann's game #2"


def test_layout_crlf_comments_blank_lines():
    text = "\ufeff# c\r\n\r\n   players Ann  # c \"x\r\n\tAnn rolls 3 4\rexpect Ann cash 5"
    script = parse(text, "x.game")
    assert [(s.line, s.column) for s in script.statements] == [(3, 4), (4, 2), (5, 1)]
    assert script.source_lines[1] == ""
    assert parse("").statements == () and parse("\n\n# only a comment\n").statements == ()


def test_script_files(tmp_path):
    empty = tmp_path / "empty.game"
    empty.write_bytes(b"")
    script = parse_file(empty)
    assert script.header == () and script.body == () and script.source_lines == ()
    bad = tmp_path / "bad.game"
    bad.write_bytes(b"players Ann \xff\xfe\n")
    with pytest.raises(ScriptSyntaxError) as err:
        parse_file(bad)
    assert err.value.located() == (
        f"{bad}:1:13: error: the script is not UTF-8 text (byte 0xff); save it as UTF-8\n"
        "players Ann \ufffd\ufffd\n            ^")
    with pytest.raises(ScriptSyntaxError) as err:
        parse_file(tmp_path / "missing.game")
    assert err.value.line is None and "cannot read the script" in err.value.message
    assert parse_bytes(b"\xef\xbb\xbfAnn buys\r\n").body == (Buys("Ann"),)


def test_dataclasses():
    with pytest.raises(ValueError):
        A.SpaceRef(None, None)
    with pytest.raises(ValueError):
        A.SpaceRef("X", 7)
    roll = Roll("Ann", (3, 4), line=5, column=2)
    assert roll == Roll("Ann", (3, 4)) and hash(roll) == hash(Roll("Ann", (3, 4)))
    assert roll.player == "Ann" and roll.dice == (3, 4) and str(roll) == "Ann rolls 3 4"
    with pytest.raises(AttributeError):
        roll.player = "Bob"  # frozen
    with pytest.raises(AttributeError):
        roll.amount  # noqa: B018 -- not a field of the line
    assert not hasattr(A.SpaceRef("X", None), "__dict__")  # slots


# ---------------------------------------------------------------- errors

ERRORS = [
    ("Ann buy", "1:5", "unknown action 'buy': did you mean 'buys'?"),
    ("Ann roll 3 4", "1:5", "unknown action 'roll': did you mean 'rolls'?"),
    ("Ann bid 500", "1:5", "unknown action 'bid': did you mean 'bids'?"),
    ("Ann go bankrupt", "1:5", "unknown action 'go': did you mean 'goes'?"),
    # the rules' own actions come in the order their plugins are registered
    ("Ann dances", "1:5", "unknown action 'dances': expected rolls, draws, goes bankrupt, buys, "
                          "declines, bids, passes, sells, builds, mortgages, redeems or ends turn"),
    ("Ann 7", "1:5", "expected an action after 'Ann', such as `rolls`, `buys` or `bids`, "
                     "found '7'"),
    ('Ann draws "Take $500', "1:11",
     'unterminated string: a quoted name must end with " on the same line'),
    ('expect "Dover Street owner Ann', "1:8",
     'unterminated string: a quoted name must end with " on the same line'),
    ("Ann rolls 7", "1:11", "a throw is two dice, e.g. `Ann rolls 3 4`"),
    ("Bob rolls 3 4 5", "1:11", "a throw is two dice, e.g. `Bob rolls 3 4`"),
    ("Ann rolls 0 3", "1:11", "a die is a number from 1 to 6, found '0'"),
    ("Ann rolls 3 7", "1:13", "a die is a number from 1 to 6, found '7'"),
    ("Ann rolls 3 x", "1:13", "expected a die (a number from 1 to 6) or the end of the line, "
                              "found 'x'"),
    ("Ann bids $5.50", "1:10", "money is whole dollars, found '$5.50'"),
    ("Ann bids $1,00", "1:10",
     "malformed amount '$1,00': after a comma come exactly three digits, e.g. $1,100"),
    ("expect Ann cash 1,0000", "1:17",
     "malformed amount '1,0000': after a comma come exactly three digits, e.g. $1,100"),
    ("Ann bids", "1:9", "expected a money amount such as 600 or $1,100, found the end of the line"),
    ("Ann bids   # comment", "1:9",
     "expected a money amount such as 600 or $1,100, found the end of the line"),
    ("Ann bids lots", "1:10", "expected a money amount such as 600 or $1,100, found 'lots'"),
    ("expect Ann money 5", "1:12",
     "unknown `expect` form, found 'money'; after a player the forms are `expect P cash MONEY`, "
     "`expect P at SPACE`, `expect P worth MONEY`, `expect P houses left N`, "
     "`expect P bankrupt`"),
    ("expect Ann cahs 5", "1:12", "unknown `expect` form 'cahs': did you mean 'cash'?"),
    ("expect winners Ann", "1:8", "unknown `expect` form 'winners': did you mean 'winner'?"),
    ('expect "X" own Ann', "1:12", "unknown `expect` form 'own': did you mean 'owner'?"),
    ("expect 7", "1:9",
     "unknown `expect` form, found the end of the line; after a space the forms are "
     "`expect SPACE owner P`, `expect SPACE owner nobody`, `expect SPACE houses N`, "
     "`expect SPACE mortgaged`, `expect SPACE unmortgaged`"),
    ("expect $5", "1:8",
     "unknown `expect` form, found '$5'; the forms are `expect P cash MONEY`, "
     "`expect P at SPACE`, `expect P worth MONEY`, `expect P houses left N`, "
     "`expect P bankrupt`, `expect SPACE owner P`, `expect SPACE owner nobody`, "
     "`expect SPACE houses N`, `expect SPACE mortgaged`, `expect SPACE unmortgaged`, "
     "`expect bank MONEY`, `expect turn P`, `expect game over`, "
     "`expect game over by REASON`, `expect winner P ...`, `expect refused`, "
     "`expect refused RULE`, `expect hospital MONEY`, `expect exemption P`, "
     "`expect exemption nobody`"),
    ("expect game over by money", "1:21",
     "expected a reason: bankruptcy, bank or turns, found 'money'"),
    ("seeed 7", "1:1", "unknown keyword 'seeed': did you mean 'seed'?"),
    ("Seed 7", "1:1", "unknown keyword 'Seed': keywords are lower case; did you mean 'seed'?"),
    ("player Ann Bob", "1:1", "unknown keyword 'player': did you mean 'players'?"),
    ("frobnicate 7", "1:1", "unknown keyword 'frobnicate': expected a player name, `expect`, "
                            "or a header statement such as `players`"),
    ('"Dover Street" rolls', "1:1", "expected a player name, `expect`, or a header statement "
                                    "such as `players`, found '\"Dover Street\"'"),
    ("$5", "1:1", "expected a player name, `expect`, or a header statement such as `players`, "
                  "found '$5'"),
    ("players", "1:8", "`players` needs at least one player name, e.g. `players Ann Bob`"),
    ("players   # nobody yet", "1:8",
     "`players` needs at least one player name, e.g. `players Ann Bob`"),
    ("players Ann Ann", "1:13", "player 'Ann' is listed twice"),
    ("players Ann bank", "1:13", "'bank' is a keyword and cannot be a player name"),
    ("players Ann:", "1:12", "expected a strategy name after ':', e.g. `Bob:greedy`"),
    ("players Bob :greedy", "1:13",
     "write a player's strategy without spaces, e.g. `Bob:greedy`"),
    ("Ann builds 2 onn 7", "1:14", "expected `on`, found 'onn' (did you mean 'on'?)"),
    ("Ann builds on", "1:14",
     "expected a space (its quoted name or its board number), found the end of the line"),
    ("Ann builds 2.5 on 7", "1:12", "expected a number of houses, found '2.5'"),
    ("Ann mortgages \"\"", "1:15", "a space name cannot be empty"),
    ('Ann mortgages "X" now', "1:19", "expected the end of the line, found 'now'"),
    ("Ann draws 7", "1:11", "expected a card's quoted text such as \"Take $500\", found '7'"),
    ("Ann buys Bob rolls 3 4", "1:10", "expected the end of the line, found 'Bob'"),
    ("setup Ann owns 7 3", "1:19", "expected `houses` or `house`, found the end of the line"),
    ("variant", "1:8",
     "expected a variant name such as standard or a quoted file path, found the end of the line"),
    ("option a.b", "1:11", "expected an option value (a word, a number or a quoted text), "
                           "found the end of the line"),
    ("with 7", "1:6", "expected a rule such as R13 or four_sides, found '7'"),
    ("seed -1", "1:6", "expected a number, found '-1'"),
    ("Ann buys\t\x00", "1:10", "expected the end of the line, found '\\x00'"),
    # statements in the wrong place
    ("players Ann\nAnn rolls 3 4\nseed 7", "3:1",
     "header statement `seed` must come before the first action (line 2)"),
    ("players Ann\nexpect Ann cash 5\nAnn rolls\nwith R13", "4:1",
     "header statement `with` must come before the first action (line 3)"),
    ("players Ann\nplayers Bob", "2:1", "`players` given twice (first at line 1)"),
    ("variant standard\nvariant standard", "2:1", "`variant` given twice (first at line 1)"),
    ("seed 1\n  seed 2", "2:3", "`seed` given twice (first at line 1)"),
    ("autoplay\nexpect game over\nAnn rolls", "3:1",
     "only `expect` lines may follow `autoplay` (line 1)"),
]


@pytest.mark.parametrize("text, where, message", ERRORS, ids=[t for t, _, _ in ERRORS])
def test_error(text, where, message):
    with pytest.raises(ScriptSyntaxError) as err:
        parse(text, "t.game")
    line, col = map(int, where.split(":"))
    source = shown_line(text.split("\n")[line - 1])  # a control character shown as a symbol
    assert err.value.located() == (f"t.game:{where}: error: {message}\n"
                                   f"{source}\n{' ' * (col - 1)}^")
    assert "__ANON" not in message and "Token" not in message


def test_no_terminal_names_in_any_message():
    for text in ("Ann", "expect", "expect Ann", "setup", "setup Ann", "setup Ann owns",
                 "Ann sells", "Ann sells 7", "Ann sells 7 to", "Ann sells 7 to Bob for",
                 "Ann sells exemption", "Ann goes", "autoplay 3", "autoplay x",
                 "expect game", "expect game over by", "expect winner", "option",
                 "expect exemption", "expect 7 owner", "players Ann 3", "Ann rolls 3 4 #\n;"):
        with pytest.raises(ScriptSyntaxError) as err:
            parse(text)
        words = re.sub(r"`[^`]*`", "", err.value.message)
        assert not re.search(r"[A-Z]{2,}|__|\$END|Token|lark", words), err.value.message


# ---------------------------------------------------------------- robustness

def test_random_input_raises_only_script_syntax_errors():
    rng = random.Random(1935)
    base = [line for line, _ in STATEMENTS] + [line for line, _, _ in ERRORS]
    alphabet = list('"$,.#:\t \n\r\x00\x0b\ufeff\u00e9\ud800-_0123456789') + ["ann", "rolls",
                                                                              "expect", "on"]
    deadline = time.monotonic() + 1.0
    runs = 0
    while time.monotonic() < deadline:
        line = list(rng.choice(base))
        for _ in range(rng.randint(1, 4)):
            pos = rng.randint(0, len(line))
            roll = rng.random()
            if roll < 0.4:
                line.insert(pos, rng.choice(alphabet))
            elif roll < 0.7 and line:
                del line[min(pos, len(line) - 1)]
            elif line:
                line[min(pos, len(line) - 1)] = rng.choice(alphabet)
        noise = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
        printable = "".join(rng.choice(alphabet[:-4] + list("abcRsx")) for _ in range(20))
        for attempt in (lambda: parse("".join(line)), lambda: parse_bytes(noise),
                        lambda: parse(printable)):
            try:
                attempt()
            except ScriptSyntaxError as err:
                assert err.located().count("\n") in (0, 2)
        runs += 1
    assert runs > 100
