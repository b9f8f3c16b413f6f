"""One game seen by learning agents: its stepping state, the action catalogue and the
observation layout, the mask of each step, and the rewards at the end.

Shared by the PettingZoo environment (every seat an agent) and the Gymnasium one (one seat
against bots); it knows nothing of either library but numpy.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..board.state import BoardState
from ..board.text import text_board
from ..engine.actions import WINDOW_KINDS, Action, ActionRange
from ..engine.deals import rejected_offer
from ..engine.legal import answer_types, lone_closing
from ..engine.registry import BUILTIN_PLUGINS
from ..engine.stepping import GameState
from ..errors import EasyMoneyError, GameOverError, UsageError
from ..script.table import game_seed, new_game
from .catalogue import Catalogue
from .observe import Layout

if TYPE_CHECKING:
    from ..engine.game import Game, Player

DEFAULT_MAX_TURNS = 1000
DEFAULT_AMOUNT_STEPS = 5
# the most slots an amount may take: more tells a policy nothing a finer grid of 100 does
# not, and each step multiplies the catalogue (10**6 of them took gigabytes)
MAX_AMOUNT_STEPS = 100
# seats at one table: past this a count is a mistake (as `simulate --players` says)
MAX_SEATS = 1000
# steps (every seat's actions, the bots' too) before an episode is truncated: about ten
# times the longest game a random masked agent plays to its end on `standard`
DEFAULT_MAX_STEPS = 20_000
# actions a player may take in one window of theirs (build, mortgage, redeem, sell, any
# deal) before only the moves that close it (roll, end the turn) are left in the mask
DEFAULT_WINDOW_ACTIONS = 8
# the defaults a learner gets with no option given: the settings the learning figure is
# measured with (examples/agents/train_ppo.py, bench/README.md; issue 40). The old ones
# (actions="standard", raise_in_windows=True, shaping=None, gamma=1.0) are options
DEFAULT_ACTIONS = "compact"
DEFAULT_RAISE_IN_WINDOWS = False
DEFAULT_SHAPING = "equity"
DEFAULT_GAMMA = 0.999
REWARDS = ("terminal", "worth_share")
SHAPINGS = (None, "worth", "equity")
ACTION_SPACES = ("standard", "compact")
# a window whose only offered action closes it (a roll the game throws, the end of the
# turn): "skip", the table takes it itself and the agent is not asked (issue 37: 43% of a
# learner's steps had one legal slot); "ask", the agent is asked as before
LONE_WINDOWS = ("skip", "ask")
DEFAULT_LONE_WINDOWS = "skip"


def slot_number(slot: Any) -> int | None:
    """The whole number an agent's action names (a numpy integer too), or None."""
    try:
        return operator.index(slot)  # an int or a numpy integer: what agents give
    except TypeError:
        pass
    try:
        number = int(slot)
    except (TypeError, ValueError, OverflowError):  # None, "abc", an infinity
        return None
    return number if number == slot else None


_INT8 = np.dtype(np.int8)  # a mask's: a dtype, not the type, numpy converts none at each call

RENDER_MODES = ["ansi", "rgb_array"]
# the environments' versioned name: v1 since issue 30 (the observation scaled and saying
# what is asked, the step limits)
ENV_NAME = "easymoney_v1"


def check_render_mode(render_mode: str | None) -> None:
    if render_mode not in (None, *RENDER_MODES):
        raise UsageError(f"render_mode {render_mode!r}: 'ansi' (the text board) or 'rgb_array' "
                         "(the board drawing, with the plot extra)")
    if render_mode == "rgb_array":
        from ..board.draw import matplotlib_for
        matplotlib_for("render_mode='rgb_array'")


def check_count(name: str, value: Any, most: int | None = None) -> int:
    """An environment's whole-number option (a numpy integer too), at least 1 and at most
    `most`: else one UsageError naming it. The number, a plain int."""
    try:  # an int or a numpy integer; not a float, even a whole one, nor a bool
        number = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        number = None
    if number is None:
        raise UsageError(f"{name} must be a whole number, not {value!r}")
    if number < 1:
        raise UsageError(f"{name} must be at least 1, not {number}")
    if most is not None and number > most:
        raise UsageError(f"{name} must be at most {most:,}, not {number:,}")
    return number


def _template(found: Action | ActionRange) -> Action:
    return found.template if type(found) is ActionRange else found  # type: ignore[union-attr,return-value]


def _keeps_open(kind: type[Action]) -> bool:
    """A window's action type that leaves the window open: building, mortgaging, redeeming,
    selling (`Action.window`), or any deal (a counterparty's)."""
    return kind.window or kind.counterparty is not None


def _keeps_window_open(found: Action | ActionRange) -> bool:
    return _keeps_open(type(_template(found)))


def lone_place(request: Any, places: list[tuple[int, int, Action | ActionRange]]) -> Action | None:
    """The action of a mask's one slot when it closes the window it answers (a throw the
    game makes, the end of the turn: easymoney.engine.legal.lone_closing), else None; the
    mask, not the listing: an action with no slot (a sale whose range holds none of the
    compact catalogue's prices) is no choice either. `places` are `Catalogue.places`'."""
    return lone_closing(request, [places[0][2]]) if len(places) == 1 else None


def worth_share(game: Game, me: int) -> float:
    """Seat `me`'s worth (R28) over the total worth of the seats still in `game`: 0 for a
    bankrupt seat, an equal share for each when nobody is worth anything."""
    player = game.players[me]
    if player.bankrupt:
        return 0.0
    worths = [game.worth(p) for p in game.players if not p.bankrupt]
    total = sum(max(0, w) for w in worths)
    return max(0, game.worth(player)) / total if total > 0 else 1.0 / len(worths)

class ActionNotInMask(EasyMoneyError):
    """An agent named a slot that is not legal now (or no slot at all): nothing changed."""


def seat_names(players: int | Sequence[str]) -> list[str]:
    """The seats' names: `players` names, or a count (a numpy integer too) of Ann, Bob, ..."""
    if isinstance(players, str) or not isinstance(players, Iterable):
        players = check_count("players", players, MAX_SEATS)
        return ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:players] \
            if players <= 8 else [f"P{k}" for k in range(players)]
    names = [str(p) for p in players]
    if len(set(names)) != len(names):
        raise UsageError(f"each seat needs its own name: {', '.join(names)}")
    return names


def _from_the_bank(kind: type[Action]) -> bool:
    """Whether actions of `kind` raise money from the Bank (a mortgage), not from a player
    (a sale)."""
    return kind.raises_money and kind.counterparty is None


class Table:
    """A game of `variant` for `players`, replayed from a seed on each `reset`."""

    def __init__(self, variant: str, players: int | Sequence[str], seed: int | None,
                 enable: Sequence[str], disable: Sequence[str], options: Sequence[str],
                 max_turns: int, amount_steps: int, *, max_steps: int = DEFAULT_MAX_STEPS,
                 window_actions: int = DEFAULT_WINDOW_ACTIONS, reward: str = "terminal",
                 shaping: str | None = DEFAULT_SHAPING, gamma: float = DEFAULT_GAMMA,
                 actions: str = DEFAULT_ACTIONS,
                 raise_in_windows: bool = DEFAULT_RAISE_IN_WINDOWS,
                 lone_windows: str = DEFAULT_LONE_WINDOWS) -> None:
        self.variant = variant
        self.seats = seat_names(players)
        self.enable, self.disable, self.options = list(enable), list(disable), list(options)
        max_turns, max_steps, window_actions = (
            check_count(name, value) for name, value in (
                ("max_turns", max_turns), ("max_steps", max_steps),
                ("window_actions", window_actions)))
        amount_steps = check_count("amount_steps", amount_steps, MAX_AMOUNT_STEPS)
        self.max_turns, self.max_steps, self.window_actions = max_turns, max_steps, window_actions
        if reward not in REWARDS:
            raise UsageError(f"reward={reward!r}: one of {', '.join(map(repr, REWARDS))}")
        if shaping not in SHAPINGS:
            raise UsageError(f"shaping={shaping!r}: None, 'worth' or 'equity'")
        if isinstance(gamma, bool) or not isinstance(gamma, (int, float)) or not 0 < gamma <= 1:
            raise UsageError(f"gamma must be a number in (0, 1], not {gamma!r}")
        self.reward, self.shaping, self.gamma = reward, shaping, float(gamma)
        if actions not in ACTION_SPACES:
            raise UsageError(f"actions={actions!r}: one of {', '.join(map(repr, ACTION_SPACES))}")
        self.actions = actions
        if not isinstance(raise_in_windows, bool):
            raise UsageError(f"raise_in_windows must be True or False, not {raise_in_windows!r}")
        self.raise_in_windows = raise_in_windows
        if lone_windows not in LONE_WINDOWS:
            raise UsageError(f"lone_windows={lone_windows!r}: 'skip' (a window whose only "
                             "move closes it is taken by the environment) or 'ask'")
        self.lone_windows = lone_windows
        self.skips = lone_windows == "skip"  # read before `lone()`: most steps ask nothing
        self.next_seed = random.randrange(2**31) if seed is None else game_seed(seed)
        self.state = self._new(self.next_seed)  # a bad variant or player fails here, at once
        # R22a (the `offers` rule) refuses a rejected deal again in its window; without that
        # rule the environment leaves it out of the mask itself, so that a policy cannot loop
        self.drop_rejected = "offers" not in self.state.game.ruleset.enabled
        self._window: tuple[int, str, int] | None = None  # (turn, kind, seat) of the window
        self._window_actions = 0  # the actions its player took in it
        # the spaces a player raised money on in their turn (a mortgage) and spent money on
        # (a redemption, a house), both windows of it: the one is not undone by the other
        # in the same turn; `_turn` is (turn, seat) of the two sets
        self._turn: tuple[int, int] | None = None
        self._raised: set[int] = set()
        self._spent: set[int] = set()
        # per action type: whether it raises money, if it is a window's own action (no deal)
        # that may undo another; else None
        self._undoing: dict[type, bool | None] = {}
        # per (request's types, any-moment types): the types a window lists, those that raise
        # money from the Bank left out (`raise_in_windows=False`)
        self._not_from_the_bank: dict[Any, tuple[type[Action], ...]] = {}
        self._first_step = 0
        self.catalogue = Catalogue(self.state.game, amount_steps, compact=actions == "compact")
        self.layout = Layout(self.state.game, max_turns)
        # (the state, its two listings then, (listing, its places, its mask's bytes)) of the
        # last listing: a step asks for the listing its mask was made from
        self._known: tuple[Any, ...] | None = None
        # (the state it is of, every player's equity): see _equities
        self._equity_known: tuple[Any, list[int]] | None = None
        hook = self.state.game.hook
        self._adjusted = hook.has("em_worth_adjustment")
        # worth is cash plus the R28 values of what is owned, as the scoring rule alone
        # counts it: then the part besides cash is kept while the board stays (_equities)
        self._cash_plus_estate = not self._adjusted and all(
            hook.implemented[name] == ("scoring",) for name in ("em_worth", "em_space_value"))
        # (the state, board_version and turn it is of, every player's equity less cash)
        self._estate_known: tuple[Any, int, int, list[int]] | None = None
        # the built-in kinds' R28 values read the board alone; a board with a third party's
        # kind, whose value may read more, has its estates made again each turn as well
        registry = self.state.game.ruleset.registry
        built_in = {kind for pid, kinds in registry.own_kinds().items()
                    if pid in BUILTIN_PLUGINS or pid == "core" for kind in kinds}
        self._estate_by_turn = any(s.kind not in built_in for s in self.state.game.spaces)

    def _new(self, seed: int) -> GameState:
        # a copy kept every 256 steps, not 8: agents step far more often than they undo or
        # clone (either replays at most 256 steps, a few milliseconds)
        return new_game(self.variant, self.seats, seed, enable=self.enable, disable=self.disable,
                        options=self.options, keep_log=False, snapshot_every=256)

    def reset(self, seed: int | None) -> None:
        """A new game: seed `seed`, or the one after the last game's. A seed that is not a
        whole number a script can write raises UsageError, and the last game stays."""
        number = self.next_seed if seed is None else game_seed(seed)
        self.state = self._new(number)
        self.seed, self.next_seed = number, number + 1
        self._known = None
        self._equity_known = self._estate_known = None
        self._close_window()
        self._turn, self._raised, self._spent = None, set(), set()
        self._first_step = self.state.steps

    # --- what is legal ------------------------------------------------------------------------
    def _listed(self) -> tuple[list[Action | ActionRange], list[tuple[int, int, Action | ActionRange]], bytearray]:
        """(the legal actions now, the catalogue's places of them, the mask's bytes), made
        once a listing: a step asks for it three times (the lone window, the mask, the slot
        taken), and what it leaves out changes only as an action is taken (`_count`)."""
        state = self.state
        known = self._known
        # the same state holding the same listings: it makes them again after every move
        # (and whoever changes its game by hand clears them), and one of them is ours
        if (known is not None and known[0] is state and known[1] is state._legal
                and known[2] is state._legal_of):
            return known[3]
        legal = self._legal()
        listed = (legal, *self.catalogue.places(self._offered(legal), state.game, state.request))
        self._known = (state, state._legal, state._legal_of, listed)
        return listed

    def _legal(self) -> list[Action | ActionRange]:
        """The state's listing, made once a step: in a window with `raise_in_windows=False`
        without the types that raise money from the Bank, which `_offered` would drop."""
        state = self.state
        request = state.request
        if self.raise_in_windows or request is None or request.kind not in WINDOW_KINDS:
            return state.legal_actions()
        game = state.game
        key = (request.accepts, game.any_moment)
        kinds = self._not_from_the_bank.get(key)
        if kinds is None:
            kinds = self._not_from_the_bank[key] = tuple(
                kind for kind in answer_types(game, request) if not _from_the_bank(kind))
        return state.legal_actions(kinds=kinds)

    def _offered(self, legal: list[Action | ActionRange]) -> list[Action | ActionRange]:
        """The listing an agent may choose from: a window whose player has taken
        `window_actions` actions keeps only the moves that close it (a roll, the end of the
        turn: no building, mortgage, redemption or deal), and a deal rejected in its window
        is left out where no rule does so (R22a). With `raise_in_windows=False` a window
        offers no raising of money from the Bank (a mortgage); a request to raise money
        owed (R25) still does."""
        request = self.state.request
        if request is None:
            return legal
        if request.kind in WINDOW_KINDS:
            if (self._window_actions >= self.window_actions
                    and self._window == (self.state.game.turns_played, request.kind,
                                         request.player.index)):
                moves = [a for a in legal if not _keeps_window_open(a)]
                if moves:  # a window no move closes (a plugin's): left as it is
                    legal = moves
            if (self._raised or self._spent) and self._turn == (self.state.game.turns_played,
                                                                request.player.index):
                legal = self._not_undoing(legal)
        if self.drop_rejected:
            game = self.state.game
            legal = [a for a in legal if _template(a).counterparty is None
                     or rejected_offer(game, _template(a)) is None]
        return legal

    def _not_undoing(self, legal: list[Action | ActionRange]) -> list[Action | ActionRange]:
        """`legal` less the actions that would undo, on the same space, what their player
        did earlier in this turn's windows: spend on a space they raised money on (redeem
        what they mortgaged), or raise money on one they spent on. Such a pair moves nothing
        but the Bank's interest, and a policy can loop on it (before the throw, then after
        it). One loop, each type judged once (a window lists dozens of actions)."""
        undoing = self._undoing
        against = (self._raised, self._spent)  # by whether the action raises money
        kept = []
        for found in legal:
            action: Action = (found.template if type(found) is ActionRange  # type: ignore[union-attr]
                              else found)  # type: ignore[assignment]
            kind = type(action)
            try:
                raises = undoing[kind]
            except KeyError:  # only a window's own action (no deal) may undo
                raises = undoing[kind] = (None if not kind.window or kind.counterparty is not None
                                          else kind.raises_money)
            if raises is not None:
                space = getattr(action, "space", None)
                if space is not None and getattr(space, "index", None) in against[raises]:
                    continue
            kept.append(found)
        return kept

    def _close_window(self) -> None:
        self._window, self._window_actions = None, 0

    def offered(self) -> list[Action | ActionRange]:
        """The legal actions an agent may choose from now (the mask's): `legal_actions()`
        less what `window_actions` and a rejected deal leave out."""
        return [] if self.state.is_over else self._offered(self._legal())

    def _count(self, action: Action) -> None:
        """Count `action` in its player's window (before it is taken)."""
        request = self.state.request
        if request is None or request.kind not in WINDOW_KINDS or action.player is not request.player:
            return
        kind = type(action)
        if not _keeps_open(kind):  # a roll, the end of the turn: the window closes
            self._close_window()
            return
        turns, seat = self.state.game.turns_played, request.player.index
        window = (turns, request.kind, seat)
        if window != self._window:
            self._close_window()
            self._window = window
        self._window_actions += 1
        space = getattr(action, "space", None)
        if space is not None and kind.counterparty is None:
            turn = (turns, seat)
            if turn != self._turn:
                self._turn, self._raised, self._spent = turn, set(), set()
            (self._raised if kind.raises_money else self._spent).add(space.index)

    def lone(self) -> Action | None:
        """The action the table takes itself now (`lone_windows="skip"`): the one slot of a
        window's mask, which closes it (`lone_place`); None when an agent is to be asked,
        the game is over or at its limit."""
        if not self.skips:
            return None
        state = self.state
        request = state.request
        # no request: the game is over (`is_over`)
        if request is None or request.kind not in WINDOW_KINDS or self.at_limit():
            return None
        return lone_place(request, self._listed()[1])

    def take_lone(self) -> bool:
        """Take the action `lone()` names, as `step` takes a slot's (counted in its window,
        pushed as listed): whether there was one."""
        action = self.lone()
        if action is None:
            return False
        self._count(action)
        self.state.push(action, listed=True)
        return True

    def slots(self) -> dict[int, tuple[Action | ActionRange, int]]:
        """The legal slots now, each with what it stands for."""
        return {} if self.state.is_over else self.catalogue.slots(self._listed()[1])

    def mask(self) -> np.ndarray:
        """The mask of the legal slots now: the agent's own copy."""
        if self.state.request is None:  # is_over, without the property's call
            return np.zeros(self.catalogue.size, dtype=np.int8)
        return np.frombuffer(bytearray(self._listed()[2]), _INT8)  # a writable copy

    def step(self, slot: Any) -> Action:
        """Apply the action of `slot`; anything not legal now raises and changes nothing."""
        state = self.state
        if state.request is None:  # is_over, without the property's call
            raise GameOverError(f"{self.over_text()}: no action can be taken; reset() starts "
                                "another game")
        _, places, marks = self._listed()
        number = slot_number(slot)
        entry = None
        if number is not None and 0 <= number < len(marks) and marks[number]:
            entry = self.catalogue.entry(places, number)
        if entry is None:
            size = self.catalogue.size
            what = (f"slot {slot} ({self.catalogue.name(number)})"
                    if number is not None and 0 <= number < size
                    else f"{slot!r}, which is no slot (0 to {size - 1})")
            raise ActionNotInMask(f"action {what} is not legal now: the game waits for "
                                  f"{state.request.describe()}; legal slots: "  # type: ignore[union-attr]
                                  f"{', '.join(str(k) for k, on in enumerate(marks) if on)}")
        action = self.catalogue.action(entry)
        self._count(action)
        state.push(action, listed=True)  # the slot is from this step's legal actions
        return action

    def is_legal(self, slot: Any) -> bool:
        """Whether `slot` names a legal action now (what `step` takes without raising)."""
        number = slot_number(slot)
        if number is None or self.state.is_over:
            return False
        marks = self._listed()[2]
        return 0 <= number < len(marks) and bool(marks[number])

    def render(self, mode: str = "ansi") -> Any:
        """The game as it stands: the text board (`"ansi"`), or the board drawing as an RGB
        array (`"rgb_array"`, core/board/draw.py)."""
        game = self.state.game
        board = BoardState.of(game, game.turns_played)
        if mode == "rgb_array":
            from ..board.draw import board_pixels
            return board_pixels(board)
        return text_board(board)

    def apply(self, action: Action) -> None:
        """Apply an action chosen elsewhere (a bot's)."""
        self._count(action)
        self.state.apply(action)

    # --- how it stands ------------------------------------------------------------------------
    @property
    def truncated(self) -> bool:
        """Not over, and `max_turns` turns or `max_steps` steps (every seat's) played."""
        return not self.state.is_over and self.at_limit()

    def at_limit(self) -> bool:
        """`max_turns` turns or `max_steps` steps (every seat's) played, over or not."""
        state = self.state
        return state.game.turns_played >= self.max_turns or state.steps - self._first_step >= self.max_steps

    def over_text(self) -> str:
        o = self.state.outcome
        return "the game is over" + (f" ({o.reason}: {o.detail})" if o else "")

    def final_reward(self, seat: str) -> float:
        """At the end (`reward="terminal"`): the winners share +1, every other seat gets -1;
        (`"worth_share"`) the seat's share of the players' worth (docs/agents.md)."""
        if self.reward == "worth_share":
            return self.worth_share(self.seats.index(seat))
        o = self.state.outcome
        winners = o.winners if o is not None else ()
        return 1.0 / len(winners) if seat in winners else -1.0

    def out_reward(self) -> float:
        """A seat's reward as it goes bankrupt: -1, or its worth's share, 0."""
        return -1.0 if self.reward == "terminal" else 0.0

    def truncated_reward(self, seat: str) -> float:
        """At truncation: 0 (`"terminal"`: no winner), or the share of the worth now."""
        return self.worth_share(self.seats.index(seat)) if self.reward == "worth_share" else 0.0

    def worth_share(self, me: int) -> float:
        """Seat `me`'s worth (R28) over the total worth of the seats in the game: 0 for a
        bankrupt seat; the potential of `shaping="worth"`."""
        return worth_share(self.state.game, me)

    def equity(self, player: Player) -> int:
        """`player`'s worth (R28) with each mortgaged space counted at what R28 would value
        it unmortgaged less its mortgage value (the space's `mortgage`), not at nothing: a
        mortgage leaves it as it was, and a redemption lowers it by the interest only."""
        game = self.state.game
        held = game.worth(player)
        for space in player.spaces:
            if game.mortgaged[space.index]:
                value = game.kinds[space.kind].value
                if value is not None:
                    held += max(0, value(game, space, game.houses[space.index])
                                - (getattr(space, "mortgage", 0) or 0))
        return held

    def equity_share(self, me: int) -> float:
        """Seat `me`'s equity over that of the seats in the game (0 for a bankrupt seat)."""
        return self._equity_shares()[me]

    def _equity_shares(self) -> list[float]:
        """Every seat's `equity_share` (asked after every step of the game), made in the
        list of their equities."""
        players = self.state.game.players
        shares: list[Any] = self._equities()
        # indexed loops: a zip() or enumerate() costs 4% of an environment step here
        live = total = i = 0
        for p in players:
            if not p.bankrupt:
                live += 1
                e = shares[i]
                if e > 0:
                    total += e
            i += 1
        if total > 0:
            i = 0
            for p in players:
                e = shares[i]
                shares[i] = 0.0 if p.bankrupt else (e if e > 0 else 0) / total
                i += 1
            return shares
        return [0.0 if p.bankrupt else 1.0 / live for p in players]

    def _estates(self) -> list[int]:
        """Every player's equity less cash, kept by the state and its board_version (and
        turn, on a board with a third party's kind of space): where worth is cash plus the
        values of what is owned (`_cash_plus_estate`), the equity less cash reads only the
        board (as the key assumes), which changes far less often than cash (a rent, a bid,
        a fee leave it as it is)."""
        state = self.state
        game = state.game
        known = self._estate_known
        if (known is None or known[0] is not state or known[1] != game.board_version
                or self._estate_by_turn and known[2] != game.turns_played):
            known = self._estate_known = (state, game.board_version, game.turns_played,
                                          [self.equity(p) - p.cash for p in game.players])
        return known[3]

    def _equities(self) -> list[int]:
        """Every player's equity now, computed once a state: each seat's potential is asked
        after every step, and each would otherwise value every space of every player. Kept
        while the cash and the board stay as they are (a throw, a decline, an offer and its
        rejection change neither), unless a rule adjusts worth (`em_worth_adjustment`: a debt
        may change with neither). A list of the caller's own."""
        state = self.state
        game = state.game
        if self._cash_plus_estate:  # cash plus the estate kept, in a list of its own
            held = self._estates()[:]
            i = 0
            for p in game.players:
                held[i] += p.cash
                i += 1
            return held
        key = (state, game.board_version, game.turns_played, tuple(p.cash for p in game.players),
               state.steps if self._adjusted else None)
        kept = self._equity_known
        if kept is None or kept[0] != key:
            kept = self._equity_known = (key, [self.equity(p) for p in game.players])
        return kept[1][:]

    def potential(self, me: int, terminal: bool) -> float:
        """Phi of the shaping: the worth share (`"worth"`) or the equity share (`"equity"`),
        0 in a terminal state (for seat `me`: the game over or the seat out) so that the
        shaping keeps the best policy (Ng et al.)."""
        if terminal:
            return 0.0
        return self.equity_share(me) if self.shaping == "equity" else self.worth_share(me)

    def potentials(self) -> list[float]:
        """Every seat's Phi where the state is not terminal for it (`potential(me, False)`),
        at once: an environment shapes every seat after each step."""
        if self.shaping == "equity":
            return self._equity_shares()
        return [self.worth_share(me) for me in range(len(self.seats))]

    def observation_names(self) -> list[str]:
        """The name of each feature of the observation vector, in order (docs/agents.md)."""
        return list(self.layout.names)

    def observation(self, me: int, mask: bool) -> dict[str, np.ndarray]:
        state = self.state
        return {"observation": self.layout.vector(state.game, me, state.request),
                "action_mask": self.mask() if mask else np.zeros(self.catalogue.size, _INT8)}

    def facts(self, me: int) -> dict[str, Any]:
        state = self.state
        facts = self.layout.facts(state.game, me, state.request)
        facts["legal"] = sorted(self.slots()) if not state.is_over else []
        return facts
