"""Issue 17: what the game lists as legal and what its rules allow are one truth.

Random game states of every shipped variant, of the railroads example, of the jail test
plugin (a request kind no built-in rule has) and of every plugin at once are reached by random legal play; at each, a
wide universe of actions (every action type that may answer, over every player, space and
a spread of amounts) is judged both ways: listed by `legal_actions`, and allowed by the
rules (`game.refusals`, for the asked player, of a type that answers). They must agree.
`python bench/bench_legal.py` does the same over more than 10,000 states.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bench_modules import load

from easymoney import ActionRange, new_game
from easymoney.strategies import make_strategy
from easymoney.engine.legal import is_listed

legal_bench = load("bench_legal")
ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["standard", "reference-card", "classic-1936", "no-four-sides",
            str(ROOT / "examples/variants/railroads.yaml"), str(ROOT / "tests/data/variants/jail.yaml"),
            # every built-in rule and every example and test plugin at once (issue 37)
            str(ROOT / "tests/data/variants/every-plugin.yaml")]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).stem)
def test_listed_and_allowed_agree_over_random_states(variant: str) -> None:
    # random play ends some games in a few turns (railroads' loans may be of all one's cash),
    # so enough seeds that every variant gives more than 50 states
    checked, disagreements = legal_bench.check_variant(variant, seeds=range(5), steps=120,
                                                       every=2)
    assert checked > 50
    assert disagreements == [], "\n".join(disagreements[:10])


def test_a_listed_action_applies_and_an_unlisted_one_is_refused_unchanged() -> None:
    state = new_game("standard", ["Ann", "Bob"], seed=5)
    rng = random.Random(5)
    for _ in range(200):
        if state.is_over:
            break
        before = state.game.snapshot()
        for wrong in legal_bench.universe(state.game, state.request):
            if not is_listed(state.legal_actions(), wrong):
                with pytest.raises(Exception) as caught:
                    state.apply(wrong)
                assert type(caught.value).__name__ == "RefusedAction"
                assert caught.value.refusals
                break
        assert state.game.snapshot() == before
        choice = rng.choice(state.legal_actions())
        state.apply(choice.at(choice.most) if isinstance(choice, ActionRange) else choice)


def test_every_strategy_answers_a_plugin_request_kind() -> None:
    """The jail plugin asks `jail`, a kind no built-in strategy was written for: each
    answers it from the legal actions, by the value the plugin gives them."""
    jail = str(ROOT / "tests/data/variants/jail.yaml")
    for name in ("cautious", "greedy", "random"):
        state = new_game(jail, ["Ann", "Bob"], seed=2)
        strategy = make_strategy(name)
        asked = 0
        while not state.is_over and state.game.turns_played < 300:
            request = state.request
            if request.kind == "jail":
                asked += 1
                answer = strategy.decide(state.game, request)
                assert is_listed(state.legal_actions(), answer)
                if name != "random" and request.player.cash >= 100:
                    assert answer.verb == "pay bail"  # worth more than serving time
            else:
                answer = strategy.decide(state.game, request)
            state.apply(answer)
        assert asked, f"{name}: nobody landed on the jail"


def test_the_railroads_loan_is_listed_and_a_bot_takes_it_by_its_value() -> None:
    state = new_game(str(ROOT / "examples/variants/railroads.yaml"), ["Ann", "Bob"], seed=1)
    state.apply("Ann rolls")
    while state.request.kind != "window_after":
        state.apply(state.legal_actions()[-1] if state.request.kind == "buy"
                    else make_strategy("cautious").decide(state.game, state.request))
    loans = [a for a in state.legal_actions() if isinstance(a, ActionRange)
             and a.line().startswith("Ann lends Bob")]
    assert loans and loans[0].least == 10 and loans[0].step == 10
    # Bob, short of cash, accepts a loan; with plenty, he rejects paying the interest
    bot = make_strategy("greedy")
    state.apply(loans[0].at(loans[0].most))
    assert state.request.kind == "agree" and state.request.player.name == "Bob"
    answer = bot.decide(state.game, state.request)
    assert answer.verb == "reject"  # Bob has more cash than the loan
    state.apply(answer)
    assert state.request.kind == "window_after"
    assert not any(line.startswith("Ann lends") for line in state.history)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).stem)
def test_issue28_case11_what_is_not_listed_is_refused_with_its_reasons(variant: str) -> None:
    """`refused_candidates`: every candidate of a request's own types (in play) is either
    listed or named with the rules' refusals, never both and never neither."""
    from easymoney.engine.legal import refused_candidates
    seen = 0
    for seed in range(2):
        state = new_game(variant, ["Ann", "Bob"], seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if state.is_over:
                break
            game, request, legal = state.game, state.request, state.legal_actions()
            refused = refused_candidates(game, request)
            assert refused == [(a, r) for a, r in state.refused_answers()]
            for action, refusals in refused:
                assert refusals and not is_listed(legal, action), action
                seen += 1
            for kind in request.accepts:
                if kind in game.ruleset.action_owner and kind not in game.ruleset.handled:
                    continue
                for found in kind.candidates(game, request):
                    low = found.at(found.least) if isinstance(found, ActionRange) else found
                    listed = is_listed(legal, low) or isinstance(found, ActionRange) and any(
                        isinstance(r, ActionRange) and r.kind is found.kind
                        and r.at(r.least) == found.at(r.least) for r in legal)
                    named = any(type(a) is type(low) and (a == low or isinstance(found, ActionRange)
                                and found.at(getattr(a, found.field)) == a) for a, _ in refused)
                    assert listed != named, (found, listed, named)
            choice = rng.choice(legal)
            state.apply(choice.at(choice.least) if isinstance(choice, ActionRange) else choice)
    assert seen > 0 or variant.endswith("no-four-sides")


LIAR = '''
from dataclasses import dataclass
from easymoney import WINDOW_KINDS, Action, Player, Refusal

@dataclass(slots=True)
class Wave(Action):
    LINE = "{player} waves"
    ASKED_BY = WINDOW_KINDS
    window = True
    player: Player

    def refusals(self, game):
        return [Refusal("-", "liar", "nobody waves")]

    @classmethod
    def candidates(cls, game, request):  # lists what its own refusals refuse
        if request.kind in WINDOW_KINDS:
            yield cls(request.player)

    def apply(self, game):
        raise AssertionError("a refused action was applied")

    def value(self, game, player):
        return 5

ACTIONS = (Wave,)
'''


def test_issue37_a_plugin_listing_what_it_refuses_is_one_line_and_nothing_applied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from stand_in_plugins import stand_in

    from easymoney.errors import PluginError
    with stand_in(tmp_path, monkeypatch, {"liar_plugin": ("liar", LIAR)}):
        state = new_game("standard", ["Ann", "Bob"], seed=4, enable=["liar"])
        before = state.game.snapshot()
        (wave,) = [a for a in state.legal_actions() if str(a) == "Ann waves"]
        for attempt in (lambda: make_strategy("greedy").decide(state.game, state.request),
                        lambda: state.apply(wave)):
            with pytest.raises(PluginError) as caught:
                attempt()
            assert ("plugin 'liar' lists `Ann waves` among the candidates of its action type "
                    "Wave, which its own refusals refuse (liar: nobody waves)") in str(caught.value)
            assert "game seed 4" in str(caught.value)
            assert state.game.snapshot() == before
