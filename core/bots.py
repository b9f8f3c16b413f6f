"""Bot strategies: players that decide through the same interface as scripts.

A strategy is an object with a `name`, a one-line `__doc__`, and `decide(game, request) ->
Action` that returns an action the rules allow (it may check with `game.refusals`).
Built-in: `cautious`, `greedy`, `random`; others come through the entry-point group
`easymoney.strategies` (the entry point's object is a strategy class or instance).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from .engine.actions import Action, Refusal, Request
from .engine.model import Space
from .engine.stash import StashKey
from .errors import PluginError, UsageError, did_you_mean
from .plugins.auction import BID, Bid, Pass
from .plugins.building import Build
from .plugins.debts import RAISE, GoBankrupt
from .plugins.mortgage import Mortgage, Redeem
from .plugins.streets import BUY, Buy, Decline
from .plugins.turn import WINDOW_AFTER, WINDOW_BEFORE, EndTurn, Roll

STRATEGY_GROUP = "easymoney.strategies"
# the random strategy's voluntary actions in the current window, by player index
_WINDOW_USE = StashKey["dict[int, list[Any]]"]("random.window")
_NEVER = 10**18  # more spare cash than any game holds: "nothing to do at any cash"


def space_value(game: Any, space: Space) -> int:
    """What owning `space` is worth by R28, as the scoring rule values it (0 if nobody says)."""
    value = game.hook.em_space_value(game, space)
    if value is None:
        return int(space.data.get("price", 0))
    return value


def auction_value(game: Any, space: Space) -> int:
    """A price a bot can explain: what the space is worth with one house by its kind (R28)."""
    value = game.kinds[space.kind].value
    return 0 if value is None else value(game, space, 1)


def raise_to(game: Any, request: Request, ceiling: int) -> int:
    """A bid for an auction that jumps toward `ceiling` in about four steps, in whole bills."""
    bill = game.variant.smallest_bill
    step = (ceiling // 4) // bill * bill
    return max(request.least, min(ceiling, request.high_bid + step))


def mortgage_candidates(game: Any, player: Any) -> list[Space]:
    """Spaces `player` may mortgage now, least valuable first."""
    out = [s for s in game.owned_by(player) if not game.mortgaged[s.index]
           and not game.refusals(Mortgage(player, s))]
    out.sort(key=lambda s: (space_value(game, s), s.index))
    return out


class Strategy:
    """Base class: a strategy answers every kind of request."""

    name = "strategy"
    _rolls: dict[Any, Roll]  # see _roll
    _ends: dict[Any, EndTurn]

    def __init__(self) -> None:
        self._rolls = {}
        self._ends = {}

    def decide(self, game: Any, request: Request) -> Action:
        method = self._methods().get(request.kind)
        if method is None:
            raise ValueError(f"{self.name} cannot answer {request.describe()}")
        return method(game, request)

    def _methods(self) -> dict[str, Any]:
        return {WINDOW_BEFORE: self.before, WINDOW_AFTER: self.after, BUY: self.buy,
                BID: self.bid, RAISE: self.raise_money}

    # A Roll of random dice and an EndTurn are asked for every turn: made once per player
    # (actions are values). A subclass that does not call Strategy.__init__ gets the dicts
    # on first use.
    def _roll(self, player: Any) -> Roll:
        try:
            return self._rolls[player]
        except (AttributeError, KeyError):
            return self._make("_rolls", Roll, player)

    def _end_turn(self, player: Any) -> EndTurn:
        try:
            return self._ends[player]
        except (AttributeError, KeyError):
            return self._make("_ends", EndTurn, player)

    def _make(self, cache: str, kind: type, player: Any) -> Any:
        action = self.__dict__.setdefault(cache, {})[player] = kind(player)
        return action

    def answers(self) -> dict[str, Any]:
        """Request kind -> the method answering it (what `decide` does, without the dispatch).

        A subclass that overrides `decide` itself is asked through `decide`.
        """
        if type(self).decide is not Strategy.decide:
            return {kind: self.decide for kind in self._methods()}
        return self._methods()

    def before(self, game: Any, request: Request) -> Action:
        return self._roll(request.player)

    def after(self, game: Any, request: Request) -> Action:
        return self._end_turn(request.player)

    def buy(self, game: Any, request: Request) -> Action:
        return Decline(request.player, request.space)

    def bid(self, game: Any, request: Request) -> Action:
        return Pass(request.player, request.space)

    def raise_money(self, game: Any, request: Request) -> Action:
        player = request.player
        for space in mortgage_candidates(game, player):
            return Mortgage(player, space)
        return GoBankrupt(player)


class _Plan:
    """What a cautious bot may do in its windows while its estate stays as it is."""

    __slots__ = ("version", "redeemable", "cheapest", "least")

    def __init__(self, version: int, redeemable: list[Space], cheapest: Space | None) -> None:
        self.version = version          # the player's estate_version it was made at
        self.redeemable = redeemable    # mortgaged spaces, in board order
        self.cheapest = cheapest        # the street to build on, if any
        self._settle()

    def build_refused(self) -> None:
        """The rules refused the house: none is asked for until the estate changes."""
        self.cheapest = None
        self._settle()

    def _settle(self) -> None:
        # the least spare cash that could make a window do something (at least $1)
        costs = [2 * s.mortgage for s in self.redeemable]
        if self.cheapest is not None:
            costs.append(self.cheapest.price)
        self.least = max(1, min(costs, default=_NEVER))


class Cautious(Strategy):
    """Keeps a cash reserve; buys, bids and builds only what it can afford above it.

    In its windows it redeems the first mortgaged space it can pay twice over, else builds
    on its cheapest street. What it owns is looked at again only when its estate changes
    (`player.estate_version`), and a house the rules refused is not asked for again until
    then: the refusals of R13, R17 and R3 depend on the estate alone once the price is paid.
    """

    name = "cautious"

    def __init__(self, reserve: int = 2000) -> None:
        super().__init__()
        self.reserve = reserve
        self._plans: dict[int, _Plan] = {}  # player index -> its window plan
        self._plans_game: Any = None  # the game they are plans for

    def _plan(self, game: Any, player: Any) -> _Plan:
        if self._plans_game is not game:
            self._plans.clear()
            self._plans_game = game
        mortgaged, houses = game.mortgaged, game.houses
        # a house must come from the supply: with none left, only redeeming is worth a look
        limit = game.variant.houses_per_street if player.houses_left > 0 else 0
        redeemable = []
        cheapest = None
        for space in player.spaces:
            i = space.index
            if mortgaged[i]:
                redeemable.append(space)
            elif game.kinds[space.kind].builds and houses[i] < limit:
                if cheapest is None or space.price < cheapest.price:
                    cheapest = space
        plan = self._plans[player.index] = _Plan(player.estate_version, redeemable, cheapest)
        return plan

    def after(self, game: Any, request: Request) -> Action:
        player = request.player
        spare = player.cash - self.reserve
        plan = self._plans.get(player.index) if self._plans_game is game else None
        if plan is None or plan.version != player.estate_version:
            plan = self._plan(game, player)
        if spare < plan.least:  # nothing to redeem or build with this much to spare
            return self._end_turn(player)
        for space in plan.redeemable:
            if spare >= 2 * space.mortgage:
                action: Action = Redeem(player, space)
                if not game.refusals(action):
                    return action
        best = plan.cheapest
        if best is not None and best.price <= spare:
            action = Build(player, best)
            if not game.refusals(action):
                return action
            plan.build_refused()
        return self._end_turn(player)

    def buy(self, game: Any, request: Request) -> Action:
        player, space = request.player, request.space
        if player.cash - space.price >= self.reserve and player.houses_left > 0:
            action = Buy(player, space)
            if not game.refusals(action):
                return action
        return Decline(player, space)

    def bid(self, game: Any, request: Request) -> Action:
        player, space = request.player, request.space
        if player.houses_left <= 0:  # no house to mark it with: pass
            return Pass(player, space)
        ceiling = min(auction_value(game, space), player.cash - self.reserve)
        if request.least > ceiling:
            return Pass(player, space)
        amount = raise_to(game, request, ceiling)
        if amount <= ceiling:
            action = Bid(player, space, amount)
            if not game.refusals(action):
                return action
        return Pass(player, space)


class Greedy(Strategy):
    """Buys, bids and builds whatever it can pay for."""

    name = "greedy"

    def after(self, game: Any, request: Request) -> Action:
        player = request.player
        mortgaged, houses = game.mortgaged, game.houses
        if player.houses_left <= 0:
            return self._end_turn(player)
        limit = game.variant.houses_per_street
        for space in player.spaces:
            i = space.index
            if (game.kinds[space.kind].builds and not mortgaged[i]
                    and houses[i] < limit and space.price <= player.cash):
                action = Build(player, space)
                if not game.refusals(action):
                    return action
                break  # the rule that refused one house refuses them all this window
        return self._end_turn(player)

    def buy(self, game: Any, request: Request) -> Action:
        action = Buy(request.player, request.space)
        if request.player.houses_left > 0 and not game.refusals(action):
            return action
        return Decline(request.player, request.space)

    def bid(self, game: Any, request: Request) -> Action:
        player, space = request.player, request.space
        if player.houses_left <= 0:  # no house to mark it with: pass
            return Pass(player, space)
        ceiling = min(2 * auction_value(game, space), player.cash)
        if request.least > ceiling:
            return Pass(player, space)
        amount = raise_to(game, request, ceiling)
        if amount <= ceiling:
            action = Bid(player, space, amount)
            if not game.refusals(action):
                return action
        return Pass(player, space)


class RandomStrategy(Strategy):
    """A uniformly random legal decision among the candidates, from the game's seeded generator.

    Candidates: in a window, the roll or end of the window plus every allowed build, mortgage
    and redeem (at most three voluntary actions a window, so a turn always ends); in an
    auction, pass or the smallest allowed bid; when buying, buy or decline; when raising
    money, any allowed mortgage, or bankruptcy when none is left.
    """

    name = "random"
    MAX_WINDOW_ACTIONS = 3

    def _window(self, game: Any, request: Request, close: Action) -> Action:
        player = request.player
        uses = game.stash.get(_WINDOW_USE)
        if uses is None:
            uses = game.stash[_WINDOW_USE] = {}
        used = uses.get(player.index)
        # one window: this request in this turn (request objects are reused from turn to turn)
        window = (request.kind, game.turns_played)
        if used is None or used[0] != window:
            used = uses[player.index] = [window, 0]
        if used[1] >= self.MAX_WINDOW_ACTIONS:
            return close
        options: list[Action] = [close]
        limit = game.variant.houses_per_street
        for space in player.spaces:
            # only what could be allowed is put to the rules: others are refused anyway
            i = space.index
            if game.mortgaged[i]:
                candidates: tuple[Action, ...] = (Redeem(player, space),)
            elif game.kinds[space.kind].builds and game.houses[i] < limit:
                candidates = (Build(player, space), Mortgage(player, space))
            else:
                candidates = (Mortgage(player, space),)
            for action in candidates:
                if not game.refusals(action):
                    options.append(action)
        choice = options[int(game.rng.random() * len(options))]
        if choice is not close:
            used[1] += 1
        return choice

    def before(self, game: Any, request: Request) -> Action:
        return self._window(game, request, Roll(request.player))

    def after(self, game: Any, request: Request) -> Action:
        return self._window(game, request, EndTurn(request.player))

    def buy(self, game: Any, request: Request) -> Action:
        options: list[Action] = [Decline(request.player, request.space)]
        action = Buy(request.player, request.space)
        if not game.refusals(action):
            options.append(action)
        return options[int(game.rng.random() * len(options))]

    def bid(self, game: Any, request: Request) -> Action:
        options: list[Action] = [Pass(request.player, request.space)]
        action = Bid(request.player, request.space, request.least)
        if not game.refusals(action):
            options.append(action)
        return options[int(game.rng.random() * len(options))]

    def raise_money(self, game: Any, request: Request) -> Action:
        options = mortgage_candidates(game, request.player)
        if not options:
            return GoBankrupt(request.player)
        return Mortgage(request.player, options[int(game.rng.random() * len(options))])


BUILTIN_STRATEGIES: dict[str, type[Strategy]] = {
    "cautious": Cautious, "greedy": Greedy, "random": RandomStrategy}


@lru_cache(maxsize=1)
def available_strategies() -> Mapping[str, tuple[Any, str]]:
    """name -> (factory, origin) for the built-in strategies and the entry-point ones."""
    found: dict[str, tuple[Any, str]] = {n: (c, "built-in") for n, c in BUILTIN_STRATEGIES.items()}
    for ep in sorted(entry_points(group=STRATEGY_GROUP), key=lambda e: e.name):
        if ep.name in found:
            continue
        try:
            found[ep.name] = (ep.load(), f"entry point {ep.name}")
        except Exception:  # a broken third-party strategy must not stop the others
            continue
    return found


def make_strategy(name: str) -> Strategy:
    table = available_strategies()
    if name not in table:
        raise UsageError(f"unknown strategy {name!r}{did_you_mean(name, table)}; "
                         f"known: {', '.join(table)}")
    factory = table[name][0]
    return factory() if isinstance(factory, type) else factory


class BotDecider:
    """A Decider that hands each request to the strategy of the player it asks."""

    def __init__(self, strategies: Mapping[str, Strategy]) -> None:
        self.strategies = dict(strategies)
        # player name -> request kind -> the method that answers it: one call per decision
        self._answers: dict[str, Any] = {}
        for name, strategy in self.strategies.items():
            table = getattr(strategy, "answers", None)
            self._answers[name] = table() if table is not None else None

    def answers_for(self, name: str) -> Mapping[str, Any] | None:
        """Request kind -> the method answering for player `name` (the game calls it directly).

        None when a subclass overrides `decide`: then every request goes through it.
        """
        if type(self).decide is not BotDecider.decide:
            return None
        return self._answers.get(name)

    def decide(self, game: Any, request: Request) -> Action:
        table = self._answers[request.player.name]
        if table is None:
            return self.strategies[request.player.name].decide(game, request)
        return table[request.kind](game, request)

    def refused(self, game: Any, request: Request, action: Action,
                refusals: list[Refusal]) -> None:
        # a rule that refuses what a bot must do (every throw, say) stops the game: name it
        plugins = ", ".join(sorted({repr(r.plugin) for r in refusals}))
        raise PluginError(f"plugin {plugins} refused {action.player}'s answer to "
                          f"{request.describe()} ({'; '.join(map(str, refusals))}), which the "
                          f"strategy {self.strategies[request.player.name].name} chose: the bots "
                          f"cannot play this game (game seed {game.seed}, turn "
                          f"{game.turns_played + 1})")

    def choose_card(self, game: Any, player: Any) -> str | None:
        return None
