"""Bot strategies: players that decide through the same interface as scripts.

A strategy is an object with a `name`, a one-line `__doc__`, and `decide(game, request) ->
Action` that returns an action the rules allow (it may check with `game.refusals`).
Built-in: `cautious`, `greedy`, `random`; easymoney.strategies makes any strategy from its
name (the searching bot's and a program's too, and those of the entry-point group
`easymoney.strategies`).

The built-in strategies know the requests of the built-in rules (a window, buying,
bidding, raising money) and the action types that answer them, found by what they are
(`Action.verb`, `chance`, `ends_turn`) among the installed rules' types: no rule's class is
imported here. Any other request, a plugin's, they answer from the legal actions, valued
by the rules' `em_action_value`; in their windows they also take a plugin's window or
any-moment action worth taking by that value, when they must raise money and have nothing
left to mortgage a plugin's action that raises money, and they accept a deal offered to
them when it is worth it. docs/plugins.md ("How the built-in bots use your actions") is
the contract.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .engine.actions import WINDOW_AFTER, WINDOW_BEFORE, Action, ActionRange, Refusal, Request
from .engine.deals import AGREE, Accept, Reject, any_rejected, rejected_unchanged
from .engine.legal import bound_check, candidates_of, concrete, legal_actions, own_check
from .engine.model import Space
from .engine.stash import StashKey
from .errors import PluginError

# the request kinds of the built-in rules (streets, auction, debts): plain strings; the
# turn's windows are the core's
BUY, BID, RAISE = "buy", "bid", "raise"

# the random strategy's voluntary actions in the current window, by player index: [the
# window, a count], plain values (a copy of the game copies the lists, not by deepcopy)
_WINDOW_USE = StashKey["dict[int, list[Any]]"](
    "random.window", copy=lambda uses, memo: {k: list(used) for k, used in uses.items()})
# the plugin window actions a bot offered in the current window (a rejected deal is not
# offered again there): (the window, the actions' lines), a copy copies the set
_TRIED = StashKey["tuple[Any, set[str]]"](
    "bots.tried", copy=lambda held, memo: (held[0], set(held[1])))
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


def bid_up_to(game: Any, request: Request, ceiling_of: Callable[[Any, int], int]) -> Action:
    """A bid toward the ceiling `ceiling_of(player, auction value)`, or a pass when the bidder
    has no house to mark the space with or the least bid is past it."""
    player, space = request.player, request.space
    if player.houses_left <= 0:  # no house to mark it with: pass
        return kit(game).pass_(player, space)
    ceiling = ceiling_of(player, auction_value(game, space))
    if request.least > ceiling:
        return kit(game).pass_(player, space)
    amount = raise_to(game, request, ceiling)
    if amount <= ceiling:
        action = kit(game).bid(player, space, amount)
        if not game.refusals(action):
            return action
    return kit(game).pass_(player, space)


class Kit:
    """The action types a bot answers with, found among the installed rules' types by what
    they are (None where no installed rule has one); and the window actions of other rules,
    which bots take by their value."""

    __slots__ = ("roll", "end", "buy", "decline", "bid", "pass_", "build", "mortgage",
                 "redeem", "bankrupt", "known", "extras", "raisers", "judged", "_windows")
    roll: Any
    end: Any
    buy: Any
    decline: Any
    bid: Any
    pass_: Any
    build: Any
    mortgage: Any
    redeem: Any
    bankrupt: Any

    def __init__(self, types: Any, in_play: Any, judged: bool = True) -> None:
        # whether a rule implements em_action_value: if none does, a value is the action's own
        self.judged = judged
        by_verb = {t.verb: t for t in reversed(list(types))}  # the first installed wins
        self.roll = next((t for t in types if t.chance == "dice"), None)
        self.end = next((t for t in types if t.ends_turn), None)
        self.buy, self.decline = by_verb.get("buy"), by_verb.get("decline")
        self.bid, self.pass_ = by_verb.get("bid"), by_verb.get("pass")
        self.build, self.mortgage = by_verb.get("build"), by_verb.get("mortgage")
        self.redeem, self.bankrupt = by_verb.get("redeem"), by_verb.get("go bankrupt")
        # the built-in strategies know sales (R22) and the Special Exemption card's (R16),
        # and leave them be: they never sell
        self.known = {self.roll, self.end, self.buy, self.decline, self.bid, self.pass_,
                      self.build, self.mortgage, self.redeem, self.bankrupt, by_verb.get("sell"),
                      by_verb.get("sell the Special Exemption card")}
        self.extras: tuple[type[Action], ...] = tuple(
            t for t in types if t.window and t not in self.known and t in in_play)
        # the other rules' actions that raise money (R25), taken when nothing is left to mortgage
        self.raisers: tuple[type[Action], ...] = tuple(
            t for t in types if t.raises_money and t not in self.known and t in in_play)
        self._windows: tuple[frozenset[type], tuple[type[Action], ...]] = (frozenset(), self.extras)

    def in_windows(self, game: Any) -> tuple[type[Action], ...]:
        """The other rules' actions a bot values in its windows: the window actions, and the
        any-moment ones (`em_any_moment_actions`, made once for the games that have them)."""
        moments = game.any_moment
        if moments is not self._windows[0]:
            self._windows = (moments, self.extras + tuple(sorted(
                (t for t in moments if t not in self.known and t not in self.extras),
                key=lambda t: t.__name__)))
        return self._windows[1]


# by rule set: a cache of what the rule set declares (rule sets are kept by their registry)
_KITS: dict[Any, Kit] = {}


def kit(game: Any) -> Kit:
    """The bots' action types for the rules of `game` (made once a rule set)."""
    rules = game.ruleset
    found = _KITS.get(rules)
    if found is None:
        found = _KITS[rules] = Kit(tuple(rules.action_owner), rules.handled,
                                   rules.hook.has("em_action_value"))
    return found


def action_value(game: Any, player: Any, action: Action) -> int | None:
    """What `action` is worth to `player`: the rules' `em_action_value` (a house rule may
    judge another rule's action), else the action's own `value` (None: no opinion)."""
    found = game.hook.em_action_value(game, player, action)
    if found is None and type(action).value is not Action.value:
        found = action.value(game, player)
    return found  # type: ignore[no-any-return]


def range_ends(found: ActionRange) -> tuple[Action, ...]:
    """A range's least and most amounts (one when they are one), its template reused for
    the least where it carries it: no copy made."""
    template, field = found.template, found.field
    low = template if getattr(template, field) == found.least else found.at(found.least)
    return (low,) if found.most == found.least else (low, found.at_most())


def allowed_actions(game: Any, request: Request, kinds: tuple[type[Action], ...]) -> list[Action]:
    """The actions of `kinds` listed for `request` that the rules allow, a range by its two
    ends."""
    return [action for kind in kinds for action in concrete(candidates_of(game, kind, request))
            if not game.refusals(action)]


def offered_in_vain(game: Any, action: Action) -> bool:
    """A deal its other party rejected, their cash and estate unchanged since: a bot does not
    offer it to them again (the same answer would come back; docs/plugins.md)."""
    return type(action).counterparty is not None and rejected_unchanged(game, action) is not None


def mortgage_candidates(game: Any, player: Any) -> list[Space]:
    """Spaces `player` may mortgage now, least valuable first."""
    mortgage = kit(game).mortgage
    if mortgage is None:
        return []
    out = [s for s in game.owned_by(player) if not game.mortgaged[s.index]
           and not game.refusals(mortgage(player, s))]
    out.sort(key=lambda s: (space_value(game, s), s.index))
    return out


class Strategy:
    """Base class: a strategy answers every kind of request."""

    name = "strategy"
    _no_extras: Any = None  # the rule set last seen to have no window action bots value
    _windows_seen: Any = None  # see extra
    _rolls: dict[Any, Action]  # see _roll
    _ends: dict[Any, Action]

    def __init__(self) -> None:
        self._rolls = {}
        self._ends = {}

    def decide(self, game: Any, request: Request) -> Action:
        method = self._methods().get(request.kind)
        if method is None:
            return self.choose(game, request)
        return method(game, request)

    def _methods(self) -> dict[str, Any]:
        return {WINDOW_BEFORE: self.before, WINDOW_AFTER: self.after, BUY: self.buy,
                BID: self.bid, RAISE: self.raise_money, AGREE: self.agree}

    # --- what every strategy does with what it does not know ------------------------------
    def choose(self, game: Any, request: Request) -> Action:
        """A request of a rule the strategy does not know: the legal answer worth the most
        by `em_action_value`, the first listed when none is valued (a rule lists its
        do-nothing answer first)."""
        # the request's own answers: a deal at any moment is not an answer to choose blindly
        options = [a for a in concrete(legal_actions(game, request))
                   if type(a) in request.accepts]
        if not options:
            raise PluginError(f"no legal answer to {request.describe()}: the rules refuse "
                              f"every action that could answer it (game seed {game.seed})")
        best, best_value = options[0], None
        for action in options:
            value = action_value(game, request.player, action)
            if value is not None and (best_value is None or value > best_value):
                best, best_value = action, value
        return best

    def worth_taking(self, game: Any, player: Any, value: int) -> bool:
        """Whether an action (a deal, a plugin's window action) worth `value` is taken."""
        return value > 0

    def agree(self, game: Any, request: Request) -> Action:
        """A deal offered to this player (R16, R22, a plugin's loan): accepted when worth it."""
        offer = request.offer
        assert offer is not None, "an AGREE request carries its offer"
        value = action_value(game, request.player, offer)
        if value is not None and self.worth_taking(game, request.player, value):
            return Accept(request.player, offer)
        return Reject(request.player, offer)

    def extra(self, game: Any, request: Request, close: Action) -> Action:
        """In a window: a plugin's window action worth taking (each offered once a window),
        else `close` (the throw, or the end of the turn)."""
        rules = game.ruleset
        if rules is self._no_extras:  # the usual case, at the cost of one comparison
            return close
        seen = self._windows_seen  # (rule set, any-moment types, extras, bounded): kept
        if seen is None or seen[0] is not rules or seen[1] is not game.any_moment:
            seen = self._weighed(game)
            if seen is None:
                return close
        extras, bounded = seen[2], seen[3]
        player = request.player
        if bounded:  # the types whose value_bound now is not worth taking: not listed nor valued
            unworthy = [kind for kind in bounded if not self._worth_listing(game, request, kind)]
            if unworthy:
                extras = tuple(kind for kind in extras if kind not in unworthy)
                if not extras:
                    return close
        tools = kit(game)
        # what the rules allow of those types, listed (legal by construction): nothing is
        # judged again, neither here nor when the answer is given (decisions.checked)
        listed = legal_actions(game, request, kinds=extras)
        if not listed:
            return close
        tried = self._tried_now(game, request)
        hook = game.hook.em_action_value if tools.judged else None
        rejected = any_rejected(game)  # else no offer is made in vain: not asked of each
        best, best_value = close, 0
        for found in listed:
            kind: type[Action]
            actions: tuple[Action, ...]
            if isinstance(found, ActionRange):
                actions, kind = range_ends(found), type(found.template)
            else:
                actions, kind = (found,), type(found)
            own = kind.value is not Action.value
            deal = rejected and kind.counterparty is not None
            for action in actions:
                # an action offered once in this window, or an offer rejected while nothing
                # has changed, is not made again
                if tried and str(action) in tried or deal and offered_in_vain(game, action):
                    continue
                # action_value, inline: several calls a window
                value = None if hook is None else hook(game, player, action)
                if value is None and own:
                    value = action.value(game, player)
                if value is not None and value > best_value \
                        and self.worth_taking(game, player, value):
                    best, best_value = action, value
        if best is not close:
            self._tried_in(game, request).add(str(best))
            own_check(game, best)  # listed: only its own refusals are asked again
            game.decisions.checked = (best, [])
        return best

    def _weighed(self, game: Any) -> Any:
        """The window types this bot weighs in `game`'s rule set: (the rule set, the
        any-moment types, the types, those whose bound is asked each window); None, and
        the rule set kept as one with none, when there are none."""
        rules, tools = game.ruleset, kit(game)
        extras = tools.in_windows(game)
        # the types that bound their value (Action.value_bound): the bound stands for what a
        # bot weighs only when no rule values other rules' actions (em_action_value)
        bounded = () if tools.judged else tuple(k for k in extras if k.value_bound is not None)
        if bounded and "invariants" not in rules.enabled \
                and type(self).worth_taking is Strategy.worth_taking:
            # a type whose bound is a number not above 0 is never worth it: left out at once
            extras = tuple(kind for kind in extras
                           if not (isinstance(kind.value_bound, int) and kind.value_bound <= 0))
            bounded = tuple(kind for kind in bounded if kind in extras)
        if not extras:
            self._no_extras = rules
            return None
        seen = self._windows_seen = (rules, game.any_moment, extras, bounded)
        return seen

    def _worth_listing(self, game: Any, request: Request, kind: type[Action]) -> bool:
        """Whether `kind`'s actions may be worth taking to the asked player now, by its
        `value_bound` (a number, or a classmethod; None: no bound)."""
        bound = kind.value_bound
        if not isinstance(bound, int):
            bound = bound(game, request.player)
        if bound is None or self.worth_taking(game, request.player, bound):
            return True
        if "invariants" in game.ruleset.enabled:
            bound_check(game, request, kind, bound)
        return False

    def _tried_now(self, game: Any, request: Request) -> set[str] | None:
        """What was offered in this window so far (None: nothing), made nowhere: most
        windows offer nothing."""
        held = game.stash.get(_TRIED)
        if held is None or held[0] != (request.kind, game.turns_played, request.player.index):
            return None
        return held[1]

    def _tried_in(self, game: Any, request: Request) -> set[str]:
        """What was offered in this window so far, made when first needed."""
        tried = self._tried_now(game, request)
        if tried is None:
            window = (request.kind, game.turns_played, request.player.index)
            tried = set()
            game.stash[_TRIED] = (window, tried)
        return tried

    # A Roll of random dice and an EndTurn are asked for every turn: made once per player
    # (actions are values). A subclass that does not call Strategy.__init__ gets the dicts
    # on first use.
    def _roll(self, game: Any, player: Any) -> Action:
        try:
            return self._rolls[player]
        except (AttributeError, KeyError):
            return self._make("_rolls", kit(game).roll, player)

    def _end_turn(self, game: Any, player: Any) -> Action:
        try:
            return self._ends[player]
        except (AttributeError, KeyError):
            return self._make("_ends", kit(game).end, player)

    def _make(self, cache: str, kind: type | None, player: Any) -> Any:
        if kind is None:
            raise PluginError("no installed rule throws the dice or ends a turn: the 'turn' "
                              "plugin must be installed")
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
        close = self._roll(game, request.player)
        return close if game.ruleset is self._no_extras else self.extra(game, request, close)

    def after(self, game: Any, request: Request) -> Action:
        close = self._end_turn(game, request.player)
        return close if game.ruleset is self._no_extras else self.extra(game, request, close)

    def buy(self, game: Any, request: Request) -> Action:
        return kit(game).decline(request.player, request.space)

    def bid(self, game: Any, request: Request) -> Action:
        return kit(game).pass_(request.player, request.space)

    def raise_money(self, game: Any, request: Request) -> Action:
        player = request.player
        for space in mortgage_candidates(game, player):
            return kit(game).mortgage(player, space)
        raised = self.plugin_raise(game, request)
        return kit(game).bankrupt(player) if raised is None else raised

    def plugin_raise(self, game: Any, request: Request) -> Action | None:
        """Another rule's action that raises money (`raises_money`), when there is one: the
        legal one worth the most by `em_action_value` (a loss, if need be: it beats going
        bankrupt), else the first listed."""
        raisers = kit(game).raisers
        if not raisers:
            return None
        best, best_value = None, None
        for action in allowed_actions(game, request, raisers):
            value = action_value(game, request.player, action)
            if best is None or value is not None and (best_value is None or value > best_value):
                best, best_value = action, value
        return best


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
            close = self._end_turn(game, player)
            return close if game.ruleset is self._no_extras else self.extra(game, request, close)
        for space in plan.redeemable:
            if spare >= 2 * space.mortgage:
                action: Action = kit(game).redeem(player, space)
                if not game.refusals(action):
                    return action
        best = plan.cheapest
        if best is not None and best.price <= spare:
            action = kit(game).build(player, best)
            if not game.refusals(action):
                return action
            plan.build_refused()
        close = self._end_turn(game, player)
        return close if game.ruleset is self._no_extras else self.extra(game, request, close)

    def buy(self, game: Any, request: Request) -> Action:
        player, space = request.player, request.space
        if player.cash - space.price >= self.reserve and player.houses_left > 0:
            action = kit(game).buy(player, space)
            if not game.refusals(action):
                return action
        return kit(game).decline(player, space)

    def bid(self, game: Any, request: Request) -> Action:
        reserve = self.reserve
        return bid_up_to(game, request, lambda player, worth: min(worth, player.cash - reserve))


class Greedy(Strategy):
    """Buys, bids and builds whatever it can pay for."""

    name = "greedy"

    def after(self, game: Any, request: Request) -> Action:
        player = request.player
        mortgaged, houses = game.mortgaged, game.houses
        if player.houses_left <= 0:
            close = self._end_turn(game, player)
            return close if game.ruleset is self._no_extras else self.extra(game, request, close)
        limit = game.variant.houses_per_street
        for space in player.spaces:
            i = space.index
            if (game.kinds[space.kind].builds and not mortgaged[i]
                    and houses[i] < limit and space.price <= player.cash):
                action = kit(game).build(player, space)
                if not game.refusals(action):
                    return action
                break  # the rule that refused one house refuses them all this window
        close = self._end_turn(game, player)
        return close if game.ruleset is self._no_extras else self.extra(game, request, close)

    def buy(self, game: Any, request: Request) -> Action:
        action = kit(game).buy(request.player, request.space)
        if request.player.houses_left > 0 and not game.refusals(action):
            return action
        return kit(game).decline(request.player, request.space)

    def bid(self, game: Any, request: Request) -> Action:
        return bid_up_to(game, request, lambda player, worth: min(2 * worth, player.cash))


def pick_by_kind(game: Any, options: list[Action]) -> Action:
    """One of `options` at random from the game's generator: a kind of action first (its
    type), each kind at even odds, then one action of that kind. Ten ways to give cash away
    are one kind, as likely as ending the window: the random bot stays a baseline whatever
    a plugin lists (issue 39). A kind of one action costs one draw."""
    kinds: dict[type, list[Action]] = {}
    for action in options:
        kinds.setdefault(type(action), []).append(action)
    if len(kinds) == len(options):  # one action a kind: the usual window
        return options[int(game.rng.random() * len(options))]
    groups = list(kinds.values())
    chosen = groups[int(game.rng.random() * len(groups))]
    return chosen[0] if len(chosen) == 1 else chosen[int(game.rng.random() * len(chosen))]


class RandomStrategy(Strategy):
    """A random legal decision: a kind of action at random, then one of that kind.

    Drawn from the game's seeded generator, each kind at even odds.

    Candidates: in a window, the roll or end of the window plus every allowed build, mortgage
    and redeem and the other rules' window and any-moment actions (at most three voluntary
    actions a window, so a turn always ends); in an auction, pass or the smallest allowed
    bid; when buying, buy or decline; when raising money, any allowed mortgage or other
    rule's action that raises money, or bankruptcy when none is left. An amount in a range
    is its least or its most, at even odds (a range is listed by its two ends).
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
                candidates: tuple[Action, ...] = (kit(game).redeem(player, space),)
            elif game.kinds[space.kind].builds and game.houses[i] < limit:
                candidates = (kit(game).build(player, space), kit(game).mortgage(player, space))
            else:
                candidates = (kit(game).mortgage(player, space),)
            for action in candidates:
                if not game.refusals(action):
                    options.append(action)
        # other rules' window and any-moment actions, but a deal offered in vain
        options += [action for action in allowed_actions(game, request, kit(game).in_windows(game))
                    if not offered_in_vain(game, action)]
        choice = pick_by_kind(game, options)
        if choice is not close:
            used[1] += 1
        return choice

    def before(self, game: Any, request: Request) -> Action:
        return self._window(game, request, self._roll(game, request.player))

    def after(self, game: Any, request: Request) -> Action:
        return self._window(game, request, self._end_turn(game, request.player))

    def buy(self, game: Any, request: Request) -> Action:
        options: list[Action] = [kit(game).decline(request.player, request.space)]
        action = kit(game).buy(request.player, request.space)
        if not game.refusals(action):
            options.append(action)
        return options[int(game.rng.random() * len(options))]

    def bid(self, game: Any, request: Request) -> Action:
        options: list[Action] = [kit(game).pass_(request.player, request.space)]
        action = kit(game).bid(request.player, request.space, request.least)
        if not game.refusals(action):
            options.append(action)
        return options[int(game.rng.random() * len(options))]

    def raise_money(self, game: Any, request: Request) -> Action:
        player = request.player
        options: list[Action] = [kit(game).mortgage(player, space)
                                 for space in mortgage_candidates(game, player)]
        raisers = kit(game).raisers
        if raisers:  # other rules' actions that raise money, as listed and allowed
            options += allowed_actions(game, request, raisers)
        if not options:
            return kit(game).bankrupt(player)
        return pick_by_kind(game, options)


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
        answer = None if table is None else table.get(request.kind)
        if answer is None:  # a plugin's kind of request: the strategy chooses (Strategy.choose)
            return self.strategies[request.player.name].decide(game, request)
        return answer(game, request)

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
