"""The engine's shortcuts change nothing but speed: the same seeded games with and without them."""

from __future__ import annotations

import pytest

from easymoney.plugins import turn
from easymoney.bots import BotDecider, Cautious
from easymoney.strategies import make_strategy
from easymoney.engine.events import Event
from easymoney.engine.events import EVERY_KIND
from easymoney.engine.game import Game, ruleset_for
from easymoney.engine.registry import discover
from easymoney.loading.loader import load_variant

NAMES = ["Ann", "Bob", "Cat", "Dan"]


class ThroughDecide(BotDecider):
    """Overrides `decide`: the game must then ask through it, not call the strategies directly."""

    def __init__(self, strategies):
        super().__init__(strategies)
        self.asked = 0

    def decide(self, game, request):
        self.asked += 1
        return super().decide(game, request)


def final_state(variant, strategy, seed, *, keep_log=True, decider=BotDecider):
    game = Game(variant, NAMES, decider({n: make_strategy(strategy) for n in NAMES}),
                seed=seed, keep_log=keep_log, ruleset=ruleset_for(variant))
    game.setup()
    game.play(max_turns=300)
    return game.snapshot(), game


@pytest.mark.parametrize("name", ["standard", "no-four-sides", "reference-card", "classic-1936"])
@pytest.mark.parametrize("strategy", ["cautious", "greedy", "random"])
def test_unseen_events_and_direct_answers_leave_the_game_as_it_would_be(name, strategy):
    variant = load_variant(name)
    for seed in (3, 4):
        logged, _ = final_state(variant, strategy, seed)
        unlogged, _ = final_state(variant, strategy, seed, keep_log=False)
        through, game = final_state(variant, strategy, seed, decider=ThroughDecide)
        assert logged == unlogged == through
        assert game.decider.asked > game.turns_played  # every decision went through decide


def test_seen_follows_the_log_and_the_listeners():
    variant = load_variant("standard")
    game = Game(variant, NAMES[:2], BotDecider({}), keep_log=False)
    assert "rent" not in game.seen
    heard: list[Event] = []
    game.listen(heard.append, kinds=["rent"])
    assert "rent" in game.seen and "move" not in game.seen
    game.emit("move", player="Ann")
    game.emit("rent", player="Ann")
    assert [e.kind for e in heard] == ["rent"]
    game.listen(heard.append)
    assert game.seen is EVERY_KIND
    assert Game(variant, NAMES[:2], BotDecider({})).seen is EVERY_KIND  # keeps its log


def test_every_change_of_an_estate_bumps_its_version_and_the_board_version():
    variant = load_variant("standard")
    game = Game(variant, NAMES[:2], BotDecider({}))
    game.setup()
    ann, bob = game.players
    street = next(s for s in game.spaces if s.kind == "street")
    seen = []

    def step(change):
        before = (game.board_version, ann.estate_version, bob.estate_version)
        change()
        seen.append((game.board_version > before[0], ann.estate_version > before[1],
                     bob.estate_version > before[2]))

    step(lambda: game.acquire(ann, street))
    step(lambda: game.add_houses(street, 1))
    step(lambda: game.set_mortgaged(street, True))
    step(lambda: game.change_owner(street, bob))
    step(lambda: game.release(street))
    assert seen == [(True, True, False), (True, True, False), (True, True, False),
                    (True, True, True), (True, False, True)]
    assert ann.houses_left == bob.houses_left == variant.houses_per_player


def _kinds_touched(game: Game, start: int, steps: int) -> frozenset[str]:
    """The kinds of the spaces a move starts on, crosses and ends on."""
    n = len(game.spaces)
    lo = start if steps >= 0 else start + steps
    return frozenset(game.spaces[(lo + k) % n].kind for k in range(min(abs(steps), n - 1) + 1))


def test_issue37_every_rule_is_told_of_every_move_with_no_hidden_filter():
    """em_moved has no filter, built-in rule or not: the game calls the hook's one caller."""
    variant = load_variant("standard")
    game = Game(variant, NAMES[:2], BotDecider({}))
    assert game._moved is game.hook.em_moved
    assert not hasattr(game.hook, "moved_for")
    bonus = next(s for s in game.spaces if s.kind == "bonus").index
    n = len(game.spaces)
    assert "bonus" in _kinds_touched(game, (bonus - 3) % n, 3)      # ends on it
    assert "bonus" in _kinds_touched(game, (bonus - 3) % n, 5)      # crosses it
    assert "bonus" not in _kinds_touched(game, (bonus + 1) % n, 4)  # moves away from it
    assert len(_kinds_touched(game, 0, 2 * n)) == len({s.kind for s in game.spaces})


def test_issue29_a_built_in_rule_asked_about_its_own_kinds_only_does_nothing_for_others():
    """A built-in rule that declares kinds of space is asked about landings on its own kinds
    only when its em_land says `space: OwnKind`, and is told of every move: sound because its
    hooks do nothing for the others, which each is called with here (every landing on
    another kind, every move of up to 12 steps either way touching none of its)."""
    from easymoney.engine.traits import own_kind
    registry = discover()
    own = {pid: frozenset(info.space_kinds) for pid, info in registry.plugins.items()
           if info.space_kinds and (own_kind(getattr(info.obj, "em_land", None))
                                    or callable(getattr(info.obj, "em_moved", None)))}
    assert set(own) == {"give_or_take", "hospital", "legends", "bonus_corner", "traffic_light"}
    variant = load_variant("standard", enable=list(own))
    game = Game(variant, NAMES[:2], BotDecider({}), seed=1)
    game.setup()
    player, n = game.players[0], len(game.spaces)
    before, events = game.snapshot(), len(game.log)
    for pid, kinds in own.items():
        plugin = registry.plugins[pid].obj
        land, moved = getattr(plugin, "em_land", None), getattr(plugin, "em_moved", None)
        for space in game.spaces if own_kind(land) else ():
            if space.kind not in kinds:
                player.position = space.index
                assert land(game, player, space, (1, 2)) is None, (pid, space.name)
        for start in range(n) if callable(moved) else ():
            for steps in range(-12, 13):
                if _kinds_touched(game, start, steps).isdisjoint(kinds):
                    player.position = (start + steps) % n
                    moved(game, player, start, steps)
    player.position = 0
    assert game.snapshot() == before and len(game.log) == events


def test_a_cautious_bot_asks_again_for_a_refused_house_only_when_its_estate_changes():
    variant = load_variant("standard")
    bot = Cautious()
    game = Game(variant, NAMES[:2], BotDecider({"Ann": bot, "Bob": make_strategy("cautious")}))
    game.setup()
    ann = game.players[0]
    streets = [s for s in game.spaces if s.kind == "street"]
    game.acquire(ann, streets[0])
    asked = []
    real = game.refusals
    game.refusals = lambda action: asked.append(action) or real(action)  # type: ignore[method-assign]
    request = game.stash[turn._TURNS].before[0]  # any request of Ann's will do for `after`
    for _ in range(3):
        bot.after(game, request)
    assert len(asked) == 1  # R13 refused the second house once; not asked again
    game.acquire(ann, streets[1])
    bot.after(game, request)
    assert len(asked) == 2
