"""Issue 39, items 13-17: the plugin API's attacks and gaps of round 5.

13. derived candidates that cannot be listed are refused at load; a stop while listing
    blames the plugin whose candidates are listed;
14. a plugin's `str` field holding a quote or a line break is one error wherever a line is
    written, never a line injected into a script;
15. a plugin's own dice go through `game.chance(...)`, recorded and replayed whatever the seed;
16. `em_worth_adjustments`: rules add to or take from a player's R28 worth, and compose;
17. a `raises_money` action answers a debt by its trait alone (`RAISE`), and the debt's
    words name the ways the rules on offer allow.

The plugins are stand-ins (tests/stand_in_plugins.py), installed for one test only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from easymoney.errors import PluginError
from easymoney.script.table import new_game

from cli_helpers import cli, one_line_error
from stand_in_plugins import stand_in


# --- 14: a text field that would inject a line -------------------------------------------------

CHATTER = '''
"""House rule: a player may say something in the window."""
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player

PLUGIN_ID = "chatter"
SAID = 'hi"\\nAnn rolls'


@dataclass(slots=True)
class Say(Action):
    LINE = "{player} says {words}"
    ASKED_BY = WINDOW_KINDS
    player: Player
    words: str
    verb = "say"
    window = True

    def apply(self, game):
        pass

    @classmethod
    def candidates(cls, game, request):
        yield cls(request.player, SAID)

    def value(self, game, player):
        return 1 if game.turns_played < 2 else 0


ACTIONS = (Say,)
'''

INJECTED = ("plugin 'chatter' cannot write its action Say as a script line: its field words "
            "is 'hi\"\\nAnn rolls', which a line cannot quote: it holds a double quote; keep "
            "quotes and line breaks out of it (refuse such a value in the action's refusals)")


@pytest.fixture
def chatter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    import importlib
    with stand_in(tmp_path, monkeypatch, {"em_chatter": ("chatter", CHATTER)}):
        yield importlib.import_module("em_chatter")


def test_a_text_with_a_quote_and_a_line_break_is_refused_wherever_a_line_is_written(
        chatter: Any, tmp_path: Path, capsys: Any) -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["chatter"])
    state.apply(chatter.Say(state.player, chatter.SAID))
    for write in (lambda: state.history, state.script):
        with pytest.raises(PluginError) as caught:
            write()
        assert caught.value.message == INJECTED
    # a text a line can quote is written as it is
    chatter.SAID = "hi there"
    state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["chatter"])
    state.apply(chatter.Say(state.player, "hi there"))
    assert state.history == ['Ann says "hi there"']
    script = tmp_path / "said.game"
    script.write_text(state.script() + "Ann rolls 1 2\n", encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert (code, err) == (0, "")


def test_the_record_gives_the_same_one_line_error(chatter: Any, tmp_path: Path,
                                                  capsys: Any) -> None:
    script, record = tmp_path / "bots.game", tmp_path / "out.game"
    script.write_text("with chatter\nplayers Ann:greedy Bob:greedy\nautoplay 3 turns\n",
                      encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script), "--record", str(record))
    assert one_line_error(err) == "error: cannot record the game: " + INJECTED
    assert code == 2 and not record.exists()


# --- 17: raising money by a plugin's action ----------------------------------------------------

BANK_LOANS = '''
"""House rule: a player may borrow from the Bank, in a window or to raise money."""
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Money, Player

PLUGIN_ID = "bank_loans"


@dataclass(slots=True)
class Borrow(Action):
    LINE = "{player} borrows {amount}"
    ASKED_BY = WINDOW_KINDS          # no "raise": the trait says it
    player: Player
    amount: Money
    verb = "borrow"
    window = True
    raises_money = True

    def amount_bounds(self, game, field):
        return 100, 1000

    def apply(self, game):
        game.transfer(game.bank, self.player, self.amount, "a loan from the Bank", "loan")

    def value(self, game, player):
        return -self.amount // 10


ACTIONS = (Borrow,)
'''

IN_DEBT = """\
variant standard
with bank_loans
players Ann Bob
setup Ann cash 100
setup Bob owns "Beacon Street" 3 houses
Ann rolls 1 2
"""


@pytest.fixture
def bank_loans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with stand_in(tmp_path, monkeypatch, {"em_bank_loans": ("bank_loans", BANK_LOANS)}):
        yield tmp_path


def test_R25_a_raises_money_action_answers_a_debt_by_its_trait_alone(bank_loans: Path,
                                                                      capsys: Any) -> None:
    script = bank_loans / "debt.game"
    script.write_text(IN_DEBT + "Ann borrows 800\nexpect Ann cash 20\n", encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert (code, err) == (0, ""), err
    assert "Expectations: 1 of 1 held" in out


def test_R25_the_debts_words_name_the_ways_the_rules_on_offer_allow(bank_loans: Path,
                                                                     capsys: Any) -> None:
    script = bank_loans / "debt.game"
    script.write_text(IN_DEBT + "Bob rolls 1 2\n", encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert "the game waits for Ann to raise $780 by mortgaging, selling or borrowing (owes " \
           "$880 to Bob)" in err
    script.write_text(IN_DEBT.replace("with bank_loans", "with bank_loans\nwithout sales")
                      + "Bob rolls 1 2\n", encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script))
    assert "the game waits for Ann to raise $780 by mortgaging or borrowing (owes" in err


def test_the_request_kind_to_raise_money_is_exported() -> None:
    import easymoney
    from easymoney.plugins.debts import GoBankrupt
    from easymoney.plugins.mortgage import Mortgage
    assert easymoney.RAISE == "raise" and "RAISE" in easymoney.__all__
    assert easymoney.RAISE in Mortgage.ASKED_BY and GoBankrupt.ASKED_BY == (easymoney.RAISE,)


# --- 16: adjusting a worth (R28) ----------------------------------------------------------------

BANK_DEBT = '''
"""House rule: every player starts owing the Bank $300, taken from their R28 total."""
from easymoney import hookimpl

PLUGIN_ID = "bank_debt"


@hookimpl
def em_worth_adjustment(game, player):
    return -300
'''

PENSION = '''
"""House rule: the first player holds a $50 pension, added to their R28 total."""
from easymoney import hookimpl

PLUGIN_ID = "pension"
AMOUNT = 50


@hookimpl
def em_worth_adjustment(game, player):
    return AMOUNT if player.index == 0 else None
'''


@pytest.fixture
def adjusters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    with stand_in(tmp_path, monkeypatch, {"em_bank_debt": ("bank_debt", BANK_DEBT),
                                          "em_pension": ("pension", PENSION)}):
        import importlib
        yield {name: importlib.import_module(name) for name in ("em_bank_debt", "em_pension")}


def test_R28_two_rules_adjusting_a_worth_both_count(adjusters: Any) -> None:
    plain = new_game("standard", ["Ann", "Bob"], seed=11)
    plain.apply("Ann rolls")
    plain.apply("Ann buys")
    ann, bob = plain.game.players
    r28 = plain.game.worth(ann)
    assert r28 > ann.cash  # the street counts (R28's own rule, unchanged)
    both = new_game("standard", ["Ann", "Bob"], seed=11, enable=["bank_debt", "pension"])
    both.apply("Ann rolls")
    both.apply("Ann buys")
    ann2, bob2 = both.game.players
    assert both.game.worth(ann2) == r28 - 300 + 50
    assert both.game.worth(bob2) == plain.game.worth(bob) - 300
    one = new_game("standard", ["Ann", "Bob"], seed=11, enable=["pension"])
    assert one.game.worth(one.game.players[0]) == one.game.players[0].cash + 50
    # the standings and `expect P worth` read the same total
    assert [(p.name, w) for p, w, _ in both.game.standings()] == \
        sorted([("Ann", r28 - 250), ("Bob", plain.game.worth(bob) - 300)], key=lambda t: -t[1])


def test_R28_an_adjustment_that_is_not_whole_dollars_is_one_error(adjusters: Any) -> None:
    adjusters["em_pension"].AMOUNT = 12.5
    state = new_game("standard", ["Ann", "Bob"], seed=11, enable=["pension"])
    with pytest.raises(PluginError, match=r"^error: em_worth_adjustment returned 12\.5 for Ann: "
                                          r"an adjustment is whole dollars \(an int\)$"):
        state.game.worth(state.game.players[0])


# --- 13: derived candidates that cannot be listed -----------------------------------------------

ROUTE = '''
"""House rule: a route through FIELDS spaces (a test's stand-in)."""
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player, Space

PLUGIN_ID = "route"


@dataclass(slots=True)
class Route(Action):
    LINE = "{player} routes LINE_FIELDS"
    ASKED_BY = WINDOW_KINDS
    player: Player
DECLARED
    verb = "route"
    window = True

    def apply(self, game):
        pass


ACTIONS = (Route,)
'''


def route_plugin(spaces: int) -> str:
    names = [f"s{k}" for k in range(spaces)]
    return (ROUTE.replace("LINE_FIELDS", " ".join("{%s}" % n for n in names))
            .replace("FIELDS", str(spaces))
            .replace("DECLARED", "\n".join(f"    {n}: Space" for n in names)))


def test_derived_candidates_that_explode_are_refused_at_load_naming_plugin_and_class(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    with stand_in(tmp_path, monkeypatch, {"em_route": ("route", route_plugin(5))}):
        from easymoney.engine.registry import discover
        errors = discover().load_errors
        said = " ".join(str(e) for e in (errors.values() if isinstance(errors, dict) else errors))
        assert "plugin route" in said
        assert ("Route has 254,803,968 derived candidates a request on the standard board "
                "(48 s0 x 48 s1 x 48 s2 x 48 s3 x 48 s4); at most 100,000 can be listed: write "
                "Route.candidates to offer fewer, or give some fields defaults") in said


def test_derived_candidates_on_a_larger_board_are_bounded_naming_the_plugin(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from easymoney.engine import derived
    with stand_in(tmp_path, monkeypatch, {"em_route": ("route", route_plugin(2))}):
        state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["route"])
        assert any(type(a).__name__ == "Route" for a in state.legal_actions())  # 48 x 48 listed
        monkeypatch.setattr(derived, "MAX_DERIVED", 1_000)  # as a board of 1,000 spaces would
        state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["route"])
        with pytest.raises(PluginError, match=r"^error: plugin 'route': Route has 2,304 derived "
                                              r"candidates for this request; at most 1,000"):
            state.legal_actions()


def test_a_listing_stopped_in_derived_candidates_blames_their_plugin(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--game-timeout's words come from RuleSet.blame: a stop inside the engine's listing
    of a plugin's derived candidates names that plugin and class, not the `turn` rule."""
    from easymoney.engine import derived
    with stand_in(tmp_path, monkeypatch, {"em_route": ("route", route_plugin(2))}):
        state = new_game("standard", ["Ann", "Bob"], seed=1, enable=["route"])
        real = derived._spaces

        def stopped(game: Any) -> Any:
            if game is not None:
                raise TimeoutError("stopped")  # as the --game-timeout alarm stops it
            return real(game)
        monkeypatch.setattr(derived, "_spaces", stopped)
        derived._PLANS.clear()
        try:
            with pytest.raises(Exception) as caught:
                state.legal_actions()
            assert state.game.ruleset.blame(caught.value) == ("route", "Route.candidates")
        finally:
            derived._PLANS.clear()


# --- 15: a plugin's own dice -----------------------------------------------------------------------

ROLL_AGAIN = '''
"""House rule: on the Bonus Corner, pay $100 to the Bank to roll again (R7's corner)."""
from dataclasses import dataclass
from easymoney import WINDOW_AFTER, Action, Dice, Player, Refusal, StashKey

PLUGIN_ID = "roll_again"
EVENTS = {"rolls_again": "{player} pays $100 and rolls again: {dice:dice}"}
TAKEN: StashKey[set] = StashKey("roll_again.taken")
READS_RNG = False   # the earlier, unrecorded way: the game's generator read directly


@dataclass(slots=True)
class RollAgain(Action):
    LINE = "{player} rolls again [{dice}]"
    ASKED_BY = (WINDOW_AFTER,)
    player: Player
    dice: Dice | None = None
    verb = "roll again"
    window = True
    chance = "dice"
    chance_event = "rolls_again"

    def refusals(self, game):
        p = self.player
        if game.spaces[p.position].kind != "bonus" or p.cash < 100:
            return [Refusal("-", PLUGIN_ID, f"{p} rolls again only on the Bonus Corner, "
                            f"for $100")]
        if (game.turns_played, p.index) in game.stash.get(TAKEN, set()):
            return [Refusal("-", PLUGIN_ID, f"{p} has rolled again this turn")]
        return []

    def apply(self, game):
        game.stash.setdefault(TAKEN, set()).add((game.turns_played, self.player.index))
        game.transfer(self.player, game.bank, 100, "a second roll", "roll_again")
        if READS_RNG:
            dice = (game.rng.randint(1, 6), game.rng.randint(1, 6))
        else:
            dice = game.chance(self)
        game.move(self.player, dice[0] + dice[1], dice)

    def value(self, game, player):
        return 1


ACTIONS = (RollAgain,)
'''

AGAIN_GAME = "with roll_again\nplayers Ann:greedy Bob:greedy Cat:greedy\nseed SEED\nautoplay 60 turns\n"


@pytest.fixture
def roll_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    import importlib
    with stand_in(tmp_path, monkeypatch, {"em_roll_again": ("roll_again", ROLL_AGAIN)}):
        yield importlib.import_module("em_roll_again")


def _record_and_replay(tmp_path: Path, capsys: Any) -> tuple[str, str, str]:
    """(the record, the replay's standings with the record's seed, with another seed)."""
    script, record = tmp_path / "again.game", tmp_path / "again-record.game"
    script.write_text(AGAIN_GAME.replace("SEED", "4"), encoding="utf-8")
    code, out, err = cli(capsys, "play", "--quiet", str(script), "--record", str(record))
    assert (code, err) == (0, ""), err
    text = record.read_text(encoding="utf-8")
    standings = []
    for seed in ("4", "99"):
        replay = tmp_path / f"replay-{seed}.game"
        replay.write_text(text.replace("\nseed 4\n", f"\nseed {seed}\n"), encoding="utf-8")
        code, out, err = cli(capsys, "play", "--quiet", str(replay))
        standings.append(out + err)
    return text, standings[0], standings[1]


def test_a_plugins_own_dice_are_recorded_and_replayed_whatever_the_seed(
        roll_again: Any, tmp_path: Path, capsys: Any) -> None:
    text, same_seed, other_seed = _record_and_replay(tmp_path, capsys)
    import re
    again = re.findall(r"^\w+ rolls again \d \d$", text, re.M)
    assert again, "no roll again in 60 turns: choose another seed"
    assert "error" not in same_seed and "Expectations:" in same_seed
    assert other_seed == same_seed


def test_a_plugin_reading_the_generator_itself_replays_another_game(
        roll_again: Any, tmp_path: Path, capsys: Any) -> None:
    """What the documented call is for: the earlier way's record does not replay."""
    roll_again.READS_RNG = True
    text, same_seed, other_seed = _record_and_replay(tmp_path, capsys)
    import re
    assert "rolls again" in text and not re.search(r"rolls again \d \d", text)  # no dice written
    assert other_seed != same_seed or "error" in other_seed
