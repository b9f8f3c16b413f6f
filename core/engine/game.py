"""The game state and the loop that plays it by firing hooks; no rule of Easy Money lives here."""

from __future__ import annotations

import bisect
import itertools
import math
import os
import random
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO

from ..errors import EasyMoneyError, PluginError, did_you_mean
from .actions import Action, Refusal, Request, own
from .decisions import Decider, Decisions
from .dispatch import HookRelay
from .events import CORE_TEMPLATES, Event, EventLog, describe
from .kinds import SpaceKind
from .ledger import Ledger
from .model import _ABSENT, Card, Space, Variant
from .registry import Registry, discover, manager_for
from .settings import DEFAULT as DEFAULT_SETTINGS, Settings
from .stash import Stash


class Account:
    """Something that holds cash: the Bank, a pot, or (as a subclass) a player."""

    __slots__ = ("name", "cash")
    bankrupt = False  # a player's own slot says; the Bank and pots never are (R26)

    def __init__(self, name: str, cash: int = 0) -> None:
        self.name = name
        self.cash = cash

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, cash={self.cash})"

    @property
    def title(self) -> str:
        """The name at the head of a line of a view: `Hospital pot` for `the Hospital pot`."""
        name = self.name.removeprefix("the ")
        return name[:1].upper() + name[1:]


class Player(Account):
    """A player and their MAN: cash, position, house supply, held cards."""

    __slots__ = ("index", "position", "houses_left", "bankrupt", "held", "strategy", "spaces",
                 "estate_version")

    def __init__(self, name: str, index: int, strategy: str | None = None) -> None:
        super().__init__(name, 0)
        self.index = index
        self.position = 0
        self.houses_left = 0
        self.bankrupt = False
        self.held: list[Card] = []
        self.strategy = strategy
        self.spaces: list[Space] = []  # what they own, in board order (kept by Game)
        # the game's board_version at the last change of what they own, its houses or
        # mortgages: what depends on their estate alone is cached by it
        self.estate_version = 0


class GameEnded(Exception):
    """Unwinds the turn in progress when the game ends (raised by `Game.end`)."""


class StopGame(Exception):
    """Raised by a decider that has nothing more to say (a script that ran out of lines)."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: `reason` is bankruptcy, bank or turns; `winners` share the win (R29)."""

    reason: str
    detail: str
    winners: tuple[str, ...]


# a call that accepts any arguments and does nothing, with no Python frame: the game's
# `emit` while nobody sees any event
_UNSEEN: Callable[..., Any] = "".format


class BoardCallers:
    """A board's speed cache: the `em_land` caller of each space. Shared by the games of a
    rule set on boards with the same kinds of space: it keeps nothing of one game's own."""

    __slots__ = ("hook", "spaces", "size", "landers")

    def __init__(self, hook: HookRelay, spaces: tuple[Space, ...]) -> None:
        self.hook = hook
        self.spaces = spaces
        self.size = len(spaces)
        self.landers = [hook.land_for(s.kind) for s in spaces]


# the rules whose em_collect pays an affordable debt in full by one transfer and does
# nothing else: `debts` for a player (R23), `bank` for the Bank (R27)
PLAIN_PAYERS = frozenset({"debts", "bank"})


def _always_refused(game: Game, action: Action) -> bool:
    return True


# the engine's modules that list an action type's candidates, in a frame whose `kind` is it
_LISTING_FILES = frozenset(os.path.join(os.path.dirname(__file__), name)
                           for name in ("derived.py", "legal.py"))


class RuleSet:
    """The plugin manager and hook relay of one set of enabled rules; shared by the games using it."""

    def __init__(self, registry: Registry, enabled: Iterable[str], dispatch: str = "fast",
                 trace: TextIO | None = None) -> None:
        self.registry = registry
        self.enabled = tuple(enabled)
        self.pm = manager_for(registry, self.enabled)
        # kind name -> what it is: every rule asks this, none keeps its own list of kinds
        self.kinds = registry.space_kind_table()
        # the card kinds a drawer keeps (CardKind.kept), of the rules in play
        self.kept_kinds = frozenset(k for k, (pid, kind) in registry.card_kind_table().items()
                                    if kind.kept and (pid in self.enabled or pid == "core"))
        self.templates = dict(CORE_TEMPLATES)
        # action type -> the installed plugin that declares it, and those in play here
        self.action_owner: dict[type[Action], str] = registry.action_types()
        owners = registry.hook_owners()  # hooks a rule declares: an error to call while it is off
        self.hook = HookRelay(self.pm, dispatch, trace, self.kinds, self.action_owner,
                              {name: pid for name, pid in owners.items()
                               if pid not in self.enabled}, registry.own_kinds())
        # only the built-in payer rules answer em_collect, which pay a debt the debtor can
        # afford as a plain transfer: the ledger then transfers without the hook (R23, R27)
        self.plain_payments = trace is None and set(
            self.hook.implemented.get("em_collect", ())) <= PLAIN_PAYERS
        # by id, what a copy of a game shares with it (stepping.copy_game): the callers of
        # the hooks and the plugins, machinery a rule may keep in its stash but never copies
        self.shared: dict[int, Any] = {id(v): v for v in (*vars(self.hook).values(),
                                                          *self.pm.get_plugins())}
        self.handled: set[type] = set()
        self._code_owner: dict[Any, tuple[str, str | None]] | None = None
        self._file_owner: dict[str, str] = {}
        self._boards: dict[tuple[str, ...], BoardCallers] = {}
        self._last_board: tuple[tuple[Space, ...], BoardCallers] | None = None
        self.refusers: dict[type, Callable[[Game, Action], list[Refusal]]] = {}
        # (type, amounts, asked, listed) -> its refusal test (see refused_test)
        self.refused_tests: dict[tuple[type, bool, bool, bool], Callable[[Game, Action], Any] | None] = {}
        # (request's types, any-moment types) -> what a listing asks of each (engine.legal)
        self.listing_plans: dict[Any, Any] = {}
        self.never_refused: set[type] = set()  # types no rule in play can refuse (Roll, Pass)
        # type -> its em_narrow caller, None where no rule narrows it (Game.narrowed); under
        # the invariants check every listing is made again without (`unnarrowed`), to compare
        self.narrowers: dict[type, Callable[..., Any] | None] = {}
        self.narrow_audit = "invariants" in self.enabled and self.hook.has("em_narrow")
        # the games listed with nothing narrowed now (a rule set is shared by games, and by
        # threads: a page's table and a replay), each within legal.unnarrowed
        self.unnarrowed: set[Game] = set()
        # the classes of the rules in play that say ANY_MOMENT: any-moment actions with no
        # hook (a game adds those em_any_moment_actions names)
        self.any_moment_classes: frozenset[type] = frozenset(
            kind for kind, pid in self.action_owner.items()
            if kind.ANY_MOMENT and (pid in self.enabled or pid == "core"))
        for pid in ("core", *self.enabled):
            on = registry.plugins.get(pid)
            if on is not None:
                self.templates.update(on.events)
                self.handled.update(on.actions)

    def blame(self, exc: BaseException) -> tuple[str | None, str | None]:
        """(plugin id, hook name) of the innermost plugin code in `exc`'s traceback; for a
        class's own code, such as an action's `refusals` or `apply`, its name (`Lend.apply`)."""
        if self._code_owner is None:
            owners: dict[Any, tuple[str, str | None]] = {}
            files: dict[str, str] = {}
            for name, plugin in self.pm.list_name_plugin():
                path = getattr(plugin, "__file__", None)
                if path:
                    files[path] = name
                for hook in self.pm.get_hookcallers(plugin) or ():
                    for impl in hook.get_hookimpls():
                        if impl.plugin is plugin:
                            code = getattr(impl.function, "__code__", None)
                            owners[code] = (name, hook.name)
            self._code_owner, self._file_owner = owners, files
        plugin = hook_name = None
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            found = self._code_owner.get(code)
            if found is not None:
                plugin, hook_name = found
            elif code.co_filename in _LISTING_FILES:
                # the engine listing an action type's candidates (derived ones): its plugin's
                listed = tb.tb_frame.f_locals.get("kind")
                if listed in self.action_owner:
                    plugin, hook_name = self.action_owner[listed], f"{listed.__name__}.candidates"
            elif code.co_filename in self._file_owner:
                plugin = self._file_owner[code.co_filename]
                if "." in code.co_qualname:  # a class's own code (an action's refusals, apply)
                    hook_name = code.co_qualname.replace(".<locals>", "")
            tb = tb.tb_next
        return plugin, hook_name

    def board_callers(self, spaces: tuple[Space, ...]) -> BoardCallers:
        """The hook callers of a board, made once per rule set and kinds of space: shared by
        the games on such boards."""
        last = self._last_board
        if last is not None and last[0] is spaces:  # a variant's board: every copy of a game
            return last[1]  # type: ignore[no-any-return]
        key = tuple(s.kind for s in spaces)
        found = self._boards.get(key)
        if found is None:
            found = self._boards[key] = BoardCallers(self.hook, spaces)
        self._last_board = (spaces, found)
        return found

    def switched_off(self, kind: type) -> Refusal | None:
        """The refusal of an action type whose rule is installed but not in play."""
        owner = self.action_owner.get(kind)
        if owner is None or kind in self.handled:
            return None
        rules = self.registry.plugins[owner].rules
        return Refusal(rules[0] if rules else "-", owner,
                       f"the rule '{owner}' is switched off in this game")

    def _unrefusable(self, kind: type) -> bool:
        """Neither the type's own `refusals` nor any rule in play can refuse this type (a
        deal asks its other party: never skipped)."""
        return (not own(kind, "refusals") and not self.hook.has_refusers(kind)
                and getattr(kind, "counterparty", None) is None)

    def refusal_check(self, kind: type) -> Callable[[Game, Action], list[Refusal]]:
        """The refusal check for one action type: its own `refusals` first (the rule that
        declares it speaks first), then the em_refusals of the rules that judge it, flattened
        (made once per rule set, kept in `refusers`; a type nothing in play can refuse goes
        into `never_refused`, and `Game.ask` skips its check)."""
        collect = self.hook.refusals_for(kind)
        off = self.switched_off(kind)
        if off is None and self._unrefusable(kind):
            self.never_refused.add(kind)
        asks_own = off is None and own(kind, "refusals")

        def check(game: Game, action: Action) -> list[Refusal]:
            found = collect(game, action)
            if asks_own:
                mine = action.refusals(game)
                if mine:
                    found = [list(mine), *found]
            if off is not None:
                found.append([off])
            if not found:
                return found
            out: list[Refusal] = []
            for r in found:
                if isinstance(r, Refusal):
                    out.append(r)
                else:
                    out.extend(r)
            return out
        self.refusers[kind] = check
        return check

    def refused_test(self, kind: type, amounts: bool = False, asked: bool = False,
                     listed: bool = False) -> Callable[[Game, Action], Any] | None:
        """Whether the rules refuse an action of this type (a true value: refused), as
        `refusal_check` finds but with no reasons: what the legal actions are judged by.
        None: never refused.

        `amounts`, `asked`, `listed`: only the rules that may refuse this type for its
        amounts (what judges a range at its other end), when the asked player takes it
        (what judges their own candidates), or when the type's candidates list it (what
        judges every candidate), as their annotations promise (easymoney.engine.traits).
        Under the invariants check the rules left out are asked too, and one that refuses
        has broken its promise: a PluginError names it."""
        key = (kind, amounts, asked, listed)
        try:
            return self.refused_tests[key]
        except KeyError:
            pass
        test: Callable[[Game, Action], Any] | None
        if self.switched_off(kind) is not None:
            test = _always_refused
        elif self._unrefusable(kind):
            test = None
        else:
            test = self.hook.refused_for(kind, amounts=amounts, asked=asked, listed=listed)
            asks_own = own(kind, "refusals")
            if asks_own and not listed:  # a type's own candidates list only what it allows
                test = _own_first(test)
            if "invariants" in self.enabled:
                skipped = self.hook.skipped_refusers(kind, amounts, asked, listed)
                if asks_own and listed:  # asked all the same: a candidate it lists, it allows
                    skipped = [(self.action_owner.get(kind, kind.__module__), _own_refusals,
                                _OWN_CANDIDATES), *skipped]
                if skipped:
                    test = _promises_kept(test, skipped)
        self.refused_tests[key] = test
        return test


_OWN_CANDIDATES = ("its own candidates",)  # what leaves a type's own refusals out of a listing


def _own_refusals(game: Game, action: Action) -> list[Refusal]:
    return list(action.refusals(game))


def _own_first(test: Callable[[Game, Action], Any] | None) -> Callable[[Game, Action], Any]:
    """`test` after the action's own `refusals`, which refuse first."""
    if test is None:
        return lambda game, action: bool(action.refusals(game))
    return lambda game, action: bool(action.refusals(game)) or test(game, action)


def _promises_kept(test: Callable[[Game, Action], Any] | None,
                   skipped: list[tuple[str, Callable[[Game, Action], Any], tuple[str, ...]]]
                   ) -> Callable[[Game, Action], bool]:
    """`test`, and then the rules it leaves out by their annotations: an action it finds
    allowed that one of them refuses would be listed yet refused."""
    def kept(game: Game, action: Action) -> bool:
        if test is not None and test(game, action):
            return True
        for plugin, refusals, declared in skipped:
            found = refusals(game, action)
            if found:
                reasons = "; ".join(str(r) for r in (found if isinstance(found, list) else [found]))
                if declared is _OWN_CANDIDATES:  # the class's own checks refuse its candidate
                    kind = type(action).__name__
                    raise PluginError(
                        f"plugin {plugin}: {kind}.candidates listed "
                        f"`{action}`, which {kind}.refusals refuses ({reasons}): the "
                        f"candidates of a class list only what its own checks allow")
                raise PluginError(
                    f"plugin {plugin} refused `{action}` ({reasons}), which its "
                    f"{' and '.join(declared)} promise{'s' if len(declared) == 1 else ''} it "
                    f"never refuses: a listing of the legal actions would offer it; correct "
                    f"the annotation or the rule")
        return False
    return kept


def ruleset_for(variant: Variant, registry: Registry | None = None, dispatch: str | None = None,
                trace: TextIO | None = None, *, settings: Settings | None = None) -> RuleSet:
    """The rule set of a variant's enabled rules, run as `settings` say (the `invariants`
    check added when they ask for it); `dispatch` and `trace` override theirs."""
    registry = registry or discover()
    settings = settings or DEFAULT_SETTINGS
    dispatch = dispatch or settings.dispatch
    trace = trace if trace is not None else settings.trace
    enabled = settings.rules(tuple(variant.rules), registry.plugins)
    if trace is not None:
        return RuleSet(registry, enabled, dispatch, trace)
    # kept by the registry: the same rule set whatever asks first, and none outlives it
    key = ("ruleset", enabled, dispatch)
    rs = registry.cache.get(key)
    if rs is None:
        rs = registry.cache[key] = RuleSet(registry, enabled, dispatch)
    return rs


# the board versions of every game of the process, one count (see Game.board_version)
_next_version = itertools.count(1).__next__


class Game:
    """One game: the state, the seeded generator, the event log, and the loop that fires hooks."""

    # slots: every attribute is read or written several times a turn, and a slot is the
    # quickest attribute there is; __dict__ keeps room for what tests and tools attach
    __slots__ = ("variant", "ruleset", "hook", "seed", "rng", "_random", "players", "by_name",
                 "bank", "pots", "spaces", "kinds", "owner", "houses", "mortgaged",
                 "board_version", "deck", "discard", "current", "turns_played", "stash",
                 "any_moment", "outcome", "request", "stopped",
                 # the jobs that are not the state's own, each in its own small class
                 "events", "ledger", "decisions", "_board", "_by_space_name", "_size",
                 "_landers", "_moved",
                 # their methods, handed out as the game's own (a slot read, no bound
                 # method made at each call: these are called several times a turn)
                 "emit", "seen", "log", "transfer", "collect", "round", "ask", "refusals",
                 "apply", "perform", "__dict__")

    def __init__(self, variant: Variant, players: Iterable[str | tuple[str, str | None]],
                 decider: Decider, *, seed: int = 0, ruleset: RuleSet | None = None,
                 keep_log: bool = True, settings: Settings | None = None) -> None:
        self.variant = variant
        self.ruleset = ruleset or ruleset_for(variant, settings=settings)
        self.hook = self.ruleset.hook
        self.seed = seed
        self.rng = random.Random(seed)
        self._random = self.rng.random  # bound once: the dice are thrown every turn
        self.players: list[Player] = []
        for i, p in enumerate(players):
            name, strategy = (p, None) if isinstance(p, str) else p
            self.players.append(Player(name, i, strategy))
        self.by_name = {p.name: p for p in self.players}
        self.bank = Account("the Bank", variant.bank_total)
        # pots by key (what a variant's `to:` names); views show each by its `title`
        self.pots: dict[str, Account] = {}
        self.spaces: tuple[Space, ...] = variant.spaces
        self.kinds: Mapping[str, SpaceKind] = self.ruleset.kinds
        n = len(self.spaces)
        self.owner: list[Player | None] = [None] * n
        self.houses: list[int] = [0] * n
        self.mortgaged: list[bool] = [False] * n
        # em_land callers by space, shared by the games on boards with these kinds of space
        self._board = self.ruleset.board_callers(self.spaces)
        # read on every move; em_moved: None when no rule is told of moves
        self._size, self._landers = n, self._board.landers
        self._moved = self.hook.em_moved if self.hook.has("em_moved") else None
        # a number for the board as it is (owners, houses, mortgages), new at every change of
        # it and drawn from one count for every game of the process: two games (a copy and
        # its original once either changed) never share one. Rules and bots cache by it
        self.board_version = _next_version()
        self.deck: list[Card] = []     # the draw pile; the top card is deck[-1]
        self.discard: list[Card] = []
        self.current: Player = self.players[0] if self.players else None  # type: ignore[assignment]
        self.turns_played = 0
        self.stash = Stash()  # per-game plugin state, under each plugin's StashKeys
        self.any_moment: frozenset[type] = frozenset()
        self.outcome: Outcome | None = None
        self.request: Request | None = None  # what the game is waiting for, while it waits
        self.stopped = False
        self._by_space_name: dict[str, Space]  # made on first use by `space`
        self._wire(decider, keep_log)

    def _wire(self, decider: Decider, keep_log: bool) -> None:
        """The game's own jobs (its event log, ledger and decisions), their methods handed
        out as the game's: a new game's, and a copy's (stepping.copy_game copies the state
        and shares the rules, not running all of `__init__`)."""
        self.events = EventLog(keep_log, self._see)
        self.emit = self.events.emit
        self._see(self.events.seen)  # no event seen yet: `emit` does nothing
        self.log: list[Event] = self.events.log
        self.ledger = Ledger(self)
        self.transfer = self.ledger.transfer
        self.collect = self.ledger.collect
        self.round = self.ledger.round
        self.decisions = Decisions(self, decider)
        self.ask = self.decisions.ask
        self.refusals = self.decisions.refusals
        self.apply = self.decisions.apply
        self.perform = self.decisions.perform

    # --- options ------------------------------------------------------------------
    def option(self, key: str, default: Any = None) -> Any:
        """`option("holiday.turns")`: the value of a dotted PLUGIN.OPTION key (Variant.option)."""
        # the variant's kept value read here: a plugin may ask in every window (one call less)
        variant = self.variant
        found = variant._options.get(key, _ABSENT)
        return variant.option(key, default) if found is _ABSENT else found

    # --- events -------------------------------------------------------------------
    def _see(self, seen: Container[str]) -> None:
        """Mirror what the event log says someone sees; while nobody sees any event (a
        bulk run), `emit` does nothing, at C speed, so that no rule guards its events."""
        self.seen = seen  # the kinds of event someone sees, mirrored from the event log
        events = getattr(self, "events", None)
        if events is not None:
            # setattr: `emit` stays documented as the event log's (core/commands/_apidoc.py)
            setattr(self, "emit", events.emit if seen else _UNSEEN)  # noqa: B010

    def listen(self, listener: Callable[[Event], None],
               kinds: Iterable[str] | None = None) -> None:
        """Call `listener` with every event, or only with events of these kinds (cheaper)."""
        self.events.listen(listener, kinds)

    @property
    def keep_log(self) -> bool:
        return self.events.keep

    def describe(self, event: Event, viewer: str | None = None) -> str | None:
        """The event in words; for `viewer` (a player's name) in the second person."""
        return describe(event, self.ruleset.templates, viewer)

    # --- money: the ledger's (transfer, collect, round) ---------------------------------
    def total_money(self) -> int:
        return self.ledger.total()

    # --- ownership bookkeeping -------------------------------------------------------
    def acquire(self, player: Player, space: Space, houses: int = 1) -> None:
        """`player` becomes the owner of `space`, marking it with houses from their supply."""
        i = space.index
        if self.owner[i] is not None:
            self.release(space)
        self.owner[i] = player
        self.houses[i] = houses
        player.houses_left -= houses
        bisect.insort(player.spaces, space, key=_index)
        self.board_version = _next_version()
        player.estate_version = self.board_version

    def change_owner(self, space: Space, buyer: Player) -> None:
        """`space` passes to `buyer` with its houses (in the buyer's colour) and mortgage."""
        i = space.index
        seller = self.owner[i]
        houses = self.houses[i]
        self.board_version = _next_version()
        if seller is not None:
            seller.houses_left += houses
            seller.spaces.remove(space)
            seller.estate_version = self.board_version
        buyer.houses_left -= houses
        self.owner[i] = buyer
        bisect.insort(buyer.spaces, space, key=_index)
        buyer.estate_version = self.board_version

    def release(self, space: Space) -> None:
        """`space` goes back to the Bank: unowned, unmortgaged, its houses back to their supply."""
        i = space.index
        owner = self.owner[i]
        self.board_version = _next_version()
        if owner is not None:
            owner.houses_left += self.houses[i]
            owner.spaces.remove(space)
            owner.estate_version = self.board_version
        self.owner[i] = None
        self.houses[i] = 0
        self.mortgaged[i] = False

    def add_houses(self, space: Space, count: int) -> None:
        """`count` more houses on `space` from its owner's supply (negative: back to the supply)."""
        self.houses[space.index] += count
        self.board_version = _next_version()
        owner = self.owner[space.index]
        if owner is not None:
            owner.houses_left -= count
            owner.estate_version = self.board_version

    def set_mortgaged(self, space: Space, mortgaged: bool) -> None:
        self.mortgaged[space.index] = mortgaged
        self.board_version = _next_version()
        owner = self.owner[space.index]
        if owner is not None:
            owner.estate_version = self.board_version

    def narrowing(self, kind: type[Action]) -> dict[str, tuple[Any, ...]]:
        """Field -> the values for which the rules that cross actions refuse every `kind`
        action now, whatever its other fields (their `em_narrow`, asked once): what a type's
        candidates need not yield. Empty: nothing is narrowed."""
        rules = self.ruleset
        try:
            narrow = rules.narrowers[kind]
        except KeyError:
            narrow = rules.narrowers[kind] = rules.hook.narrow_for(kind)
        found: dict[str, tuple[Any, ...]] = {}
        if narrow is None or rules.unnarrowed and self in rules.unnarrowed:
            return found
        fields = getattr(kind, "__dataclass_fields__", None)
        for cut in narrow(self, kind):
            if type(cut) is not dict:
                raise _narrowing_error(self, kind, f"answered {cut!r}")
            for field, values in cut.items():
                if fields is not None and field not in fields:
                    raise _narrowing_error(self, kind, f"named the field {field!r}"
                                           f"{did_you_mean(str(field), fields)}")
                if values:
                    try:
                        found[field] = found.get(field, ()) + tuple(values)
                    except TypeError:
                        raise _narrowing_error(self, kind, f"answered {values!r} for "
                                               f"{field!r}") from None
        return found

    def narrowed(self, kind: type[Action], field: str) -> tuple[Any, ...]:
        """The values of `field` for which the rules that cross actions refuse every `kind`
        action now, whatever its other fields (`narrowing`): what a type's own
        `candidates` need not yield. Empty: nothing is narrowed."""
        return self.narrowing(kind).get(field, ())

    def owned_by(self, player: Player) -> list[Space]:
        """What `player` owns, in board order."""
        return list(player.spaces)

    # --- players and turns ------------------------------------------------------------
    def active_players(self) -> list[Player]:
        return [p for p in self.players if not p.bankrupt]

    def next_player(self, after: Player) -> Player | None:
        """The next player in turn order still in the game (R1), or None."""
        players = self.players
        n = len(players)
        for k in range(1, n + 1):
            p = players[(after.index + k) % n]
            if not p.bankrupt:
                return p
        return None

    # --- moving ----------------------------------------------------------------------------
    def move(self, player: Player, steps: int, dice: tuple[int, int], land: bool = True) -> Space:
        """Move the MAN `steps` spaces (negative: backward), then fire em_moved and em_land."""
        start = player.position
        n = self._size
        end = (start + steps) % n
        player.position = end
        space = self.spaces[end]
        if "move" in self.seen:
            self.emit("move", player=player.name, start=start, end=end, steps=steps,
                      space=space.name)
        moved = self._moved
        # R26: no em_moved rule for a bankrupt player; one bankrupted on the way (a traffic
        # fine) is skipped by the later rules themselves, and `collect` pays them nothing
        if moved is not None and not player.bankrupt:
            moved(self, player, start, steps)
        if land and not player.bankrupt:
            lander = self._landers[end]
            lander(self, player, space, dice)
        return space

    def draw_and_follow(self, player: Player, dice: tuple[int, int]) -> Any:
        """Draw a Give or Take card and follow it; the card's result, or None with no card."""
        hook = self.hook
        em_draw, em_card, em_card_done = hook.em_draw, hook.em_card, hook.em_card_done
        card = em_draw(self, player)
        if card is None:
            return None
        if "draw" in self.seen:  # drawn most turns: told only when someone sees it
            self.emit("draw", player=player.name, card=card.text)
        result = em_card(self, player, card, dice)
        em_card_done(self, player, card)
        return result

    def space(self, ref: int | str) -> Space:
        """The space at this index or of this name (KeyError when there is none)."""
        if isinstance(ref, int):
            return self.spaces[ref]
        try:
            return self._by_space_name[ref]
        except AttributeError:
            self._by_space_name = {}
            for s in reversed(self.spaces):  # the first of equal names wins
                self._by_space_name[s.name] = s
            return self._by_space_name[ref]

    # --- decisions: the decisions' (ask, refusals, apply, perform) ---------------------
    @property
    def decider(self) -> Decider:
        """Where the game's questions go (a script, bots, a person, a test)."""
        return self.decisions.decider

    @decider.setter
    def decider(self, decider: Decider) -> None:
        self.decisions.set_decider(decider)

    def choose_card(self, player: Player) -> str | None:
        return self.decider.choose_card(self, player)

    def roll_dice(self) -> tuple[int, int]:
        r = self._random
        # floor, not int(): the same die for a number in [0, 6), and a quicker call
        return (_floor(r() * 6) + 1, _floor(r() * 6) + 1)

    # --- the engine's hot events, told only when someone sees them ----------------------
    # (every turn has one: a rule calls these rather than building an event nobody sees)
    def start_turn(self, player: Player) -> None:
        """Tell that `player`'s turn starts (the `turn` event)."""
        if "turn" in self.seen:
            self.emit("turn", player=player.name, number=self.turns_played + 1)

    def throw(self, player: Player, dice: tuple[int, int] | None = None) -> tuple[int, int]:
        """The dice `player` throws: `dice` when given (a script's line), else chance's
        (roll_dice); told as the `roll` event."""
        if not dice:
            r = self._random
            dice = (_floor(r() * 6) + 1, _floor(r() * 6) + 1)
        if "roll" in self.seen:
            self.emit("roll", player=player.name, dice=list(dice), total=dice[0] + dice[1])
        return dice

    def chance(self, action: Action) -> Any:
        """What chance gives `action`, a plugin's own throw: its `chance` field when its line
        gave it (a script, a record), else two dice from the game's generator; told as the
        class's `chance_event` with the field, so that a record and a stepping game's history
        write it into the action's line, and a replay throws the same whatever the seed.

        The one way a rule's chance goes: a rule that reads `game.rng` itself plays another
        game when its record is replayed with another seed."""
        kind = type(action)
        field = kind.chance
        if field is None or kind.chance_event is None:
            raise PluginError(f"{kind.__name__} declares no `chance` field and `chance_event`: "
                              f"game.chance fills that field (`dice: Dice | None = None`, "
                              f'chance = "dice", chance_event = "...")')
        value = getattr(action, field)
        if value is None:
            r = self._random
            value = (_floor(r() * 6) + 1, _floor(r() * 6) + 1)
        self.emit(kind.chance_event, player=action.player.name, **{field: list(value)})
        return value

    # --- the game loop -------------------------------------------------------------------
    def setup(self) -> None:
        """The variant's own setup: every enabled plugin's `em_setup`."""
        self.emit("game_start", variant=self.variant.name, changes=list(self.variant.changes),
                  players=" ".join(p.name for p in self.players), seed=self.seed)
        moments = set(self.ruleset.any_moment_classes)  # and those the hook names
        for kinds in self.hook.em_any_moment_actions(self):
            moments.update(kinds)
        self.any_moment = frozenset(moments)
        self.hook.em_setup(self)

    def play(self, max_turns: int | None = None,
             between_turns: Callable[[Game], None] | None = None) -> Outcome | None:
        """Play turns until the game ends, the decider stops it, or `max_turns` more turns are played.

        `between_turns(game)` is called before each turn, where nothing is under way (a
        stepping game copies itself there).
        """
        play_turn = self.hook.em_play_turn
        limit = None if max_turns is None else self.turns_played + max_turns
        try:
            while self.outcome is None:
                if limit is not None and self.turns_played >= limit:
                    break
                if between_turns is not None:
                    between_turns(self)
                if play_turn(self) is None:
                    raise RuntimeError("no plugin plays a turn: the 'turn' plugin must be on")
        except GameEnded:
            pass
        except StopGame:
            self.stopped = True
        except (EasyMoneyError, BrokenPipeError):  # the reader of the transcript went away
            raise
        except Exception as exc:
            raise self.plugin_failure(exc) from exc
        return self.outcome

    def plugin_failure(self, exc: BaseException) -> PluginError:
        """`exc`, raised inside a rule plugin's code, as one line naming the plugin and hook."""
        plugin, hook = self.ruleset.blame(exc)
        who = f"plugin {plugin!r}" if plugin else "the engine"
        where = f" in {hook}" if hook else ""
        player = f", {self.current.name}'s turn" if self.current is not None else ""
        return PluginError(f"{who} failed{where}: {type(exc).__name__}: {exc} (game seed "
                           f"{self.seed}, turn {self.turns_played + 1}{player})")

    def end(self, reason: str, detail: str) -> NoReturn:
        """End the game now (R27 decides when): ranks the players and unwinds the turn."""
        if self.outcome is None:
            winners = self.winners()
            self.outcome = Outcome(reason, detail, tuple(p.name for p in winners))
            self.emit("game_over", reason=reason, detail=detail,
                      winners=[p.name for p in winners])
        raise GameEnded(reason)

    def snapshot(self) -> dict[str, Any]:
        """The whole state of the game as plain values: equal snapshots, equal games.

        What a refused action must leave as it was (tests compare them before and after).
        """
        return {
            "players": [{"name": p.name, "cash": p.cash, "position": p.position,
                         "houses_left": p.houses_left, "bankrupt": p.bankrupt,
                         "held": [c.text for c in p.held],
                         "spaces": [s.index for s in p.spaces]} for p in self.players],
            "bank": self.bank.cash,
            "pots": {name: pot.cash for name, pot in self.pots.items()},
            "owner": [None if o is None else o.name for o in self.owner],
            "houses": list(self.houses),
            "mortgaged": list(self.mortgaged),
            "deck": [c.text for c in self.deck],
            "discard": [c.text for c in self.discard],
            "current": None if self.current is None else self.current.name,
            "turns_played": self.turns_played,
            "rng": self.rng.getstate(),
            "outcome": self.outcome,
        }

    def kept_cards(self) -> list[tuple[str, Player | None]]:
        """Each card a drawer keeps (its kind is declared `kept`) with its holder, or None
        while nobody holds it: what a view of the game shows of the held cards."""
        kinds = self.ruleset.kept_kinds
        held: dict[str, Player | None] = {c.text: None for c in self.variant.cards
                                           if c.kind in kinds}
        for p in self.players:
            for c in p.held:
                if c.kind in kinds:
                    held[c.text] = p
        return list(held.items())

    # --- scoring -----------------------------------------------------------------------
    def worth(self, player: Player) -> int:
        """R28's total (`em_worth`) plus every rule's `em_worth_adjustment` (a debt: negative)."""
        value = self.hook.em_worth(self, player)
        worth = player.cash if value is None else value
        adjustments = self.hook.em_worth_adjustment(self, player)
        for amount in adjustments:
            if type(amount) is not int:  # money is whole dollars: a float would spread
                raise PluginError(f"em_worth_adjustment returned {amount!r} for {player}: "
                                  f"an adjustment is whole dollars (an int)")
            worth += amount
        return worth

    def standings(self) -> list[tuple[Player, int, int]]:
        """(player, worth, rank) for every player still in the game, best first; bankrupt ones last."""
        rows = sorted(((p, self.worth(p)) for p in self.players if not p.bankrupt),
                      key=lambda pw: (-pw[1], pw[0].index))
        out: list[tuple[Player, int, int]] = []
        for i, (p, w) in enumerate(rows):
            rank = out[-1][2] if out and out[-1][1] == w else i + 1
            out.append((p, w, rank))
        return out

    def winners(self) -> list[Player]:
        table = self.standings()
        return [p for p, _, rank in table if rank == 1]


def _narrowing_error(game: Game, kind: type[Action], what: str) -> PluginError:
    """An `em_narrow` answer that is none: one error naming the plugins narrowing `kind`."""
    names = game.hook.selecting("em_narrow", kind)
    fields = ", ".join(getattr(kind, "__dataclass_fields__", ()))
    return PluginError(f"plugin {' or '.join(map(repr, names))}: em_narrow {what} about "
                       f"{kind.__name__}, where it answers a dict of a field ({fields}) to "
                       f"the values refused in it, or None (game seed {game.seed})")


def unknown_player(game: Game, name: str) -> str:
    """`unknown player 'Zed'; the players are Ann, Bob`, with a close name when there is one."""
    return (f"unknown player '{name}'{did_you_mean(name, game.by_name)}; the players are "
            f"{', '.join(game.by_name)}")


_floor = math.floor


def _index(space: Space) -> int:
    return space.index
