"""A game that takes one step at a time: what it waits for, its legal actions, apply, undo, clone.

The rules ask their questions from inside their hooks (`game.ask`), so the rest of a turn
lives on the call stack. A `GameState` runs its game in a greenlet: each question switches
back to the caller, and `apply` switches in again with the answer. Between turns, where
nothing is under way, the state keeps a copy of the game as data; `undo` and `clone` start
from the last copy and replay the few steps since, with the random generator's state of
each step, so a step back or a copy never replays the game from its start.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from greenlet import getcurrent, greenlet

from ..errors import EasyMoneyError, GameOverError, NothingToUndo, RefusedAction, UsageError
from .actions import (Action, ActionRange, Refusal, Request, chance_taken, clip, line_of,
                      with_field)
from .deals import Accept, Reject
from .decisions import refusal_message
from .events import Event
from .game import Account, Game, Outcome, Player, unknown_player
from .stash import Stash
from .values import IMMUTABLE, field_plan
from .legal import is_listed, legal_actions, own_check, refused_candidates

# a copy of the game is kept at the first turn start this many steps after the last one:
# undo and clone replay fewer steps than this, plus one turn's
SNAPSHOT_EVERY = 8
# the snapshot_every of a copy played on and thrown away (a search's playout): it keeps
# none of its own, since it is never cloned nor undone past the copies it was made with
THROWAWAY = 1 << 62


def copy_game(game: Game, decider: Any, rng_state: Any = None) -> Game:
    """A copy of `game` as data, between turns: players, board, deck, pots, the random
    generator (at `rng_state`, the game's own unless given), the plugins' stash
    (`copy_stash`). The variant, the rules and their caches are shared; the event log is
    not copied (the state keeps it).

    Made field by field, not by `Game.__init__`: a copy shares what the rules made for the
    game and replaces every value a new game would start with (a search makes thousands)."""
    new = Game.__new__(Game)
    new.variant, new.ruleset, new.hook, new.seed = game.variant, game.ruleset, game.hook, game.seed
    new.spaces, new.kinds, new._board = game.spaces, game.kinds, game._board
    new._size, new._landers, new._moved = game._size, game._landers, game._moved
    memo: dict[int, Any] = dict(game.ruleset.shared)  # the rules' machinery: shared
    memo[id(game)] = new
    memo[id(game.variant)] = game.variant
    players = new.players = []
    for old in game.players:
        p = Player.__new__(Player)
        p.name, p.index, p.strategy = old.name, old.index, old.strategy
        p.cash, p.position, p.houses_left = old.cash, old.position, old.houses_left
        p.bankrupt, p.estate_version = old.bankrupt, old.estate_version
        p.held = list(old.held)
        p.spaces = list(old.spaces)
        players.append(p)
        memo[id(old)] = p
    new.by_name = {p.name: p for p in players}
    bank = new.bank = Account(game.bank.name, game.bank.cash)
    memo[id(game.bank)] = bank
    pots = new.pots = {}
    for name, pot in game.pots.items():
        twin = memo[id(pot)] = Account(pot.name, pot.cash) if type(pot) is Account \
            else copy.copy(pot)
        pots[name] = twin
    twins: dict[Any, Any] = dict(zip(game.players, players))
    twins[None] = None
    new.owner = list(map(twins.__getitem__, game.owner))  # a loop in C: 48 spaces a copy
    new.houses = list(game.houses)
    new.mortgaged = list(game.mortgaged)
    new.board_version = game.board_version
    new.deck = list(game.deck)
    new.discard = list(game.discard)
    new.current = None if game.current is None else players[game.current.index]  # type: ignore[assignment]
    new.turns_played = game.turns_played
    # a generator seeded by one word (not from the system's entropy, as CountedRandom()
    # is, twice), then set: the GameState that restores the copy counts its draws
    rng = new.rng = CountedRandom.__new__(CountedRandom, 0)  # type: ignore[call-arg]
    rng.setstate(game.rng.getstate() if rng_state is None else rng_state)
    new._random = rng.random
    new.any_moment = game.any_moment
    new.outcome = game.outcome
    new.request = None
    new.stopped = False
    new._wire(decider, game.keep_log)
    memo[id(game.decisions)], memo[id(game.events)] = new.decisions, new.events
    memo[id(game.ledger)], memo[id(game.log)] = new.ledger, new.log
    new.stash = copy_stash(game.stash, memo)
    for key, value in game.__dict__.items():  # what tests and tools attach
        new.__dict__[key] = copy.deepcopy(value, memo)
    return new


def copy_stash(stash: Stash, memo: dict[int, Any]) -> Stash:
    """The plugins' stash of a copy of a game: each value as its key says (`StashKey`):
    shared, copied by the key's `copy`, or deep-copied (the players, accounts and
    machinery of the game mapped by `memo` to the copy's)."""
    twin = Stash()
    copied = []
    for key, value in stash.items():
        memo[id(key)] = key  # keys are module-level constants: kept, not copied
        if type(value) in IMMUTABLE or getattr(key, "shared", False):
            twin[key] = memo[id(value)] = value  # shared by copies, in other values too
        else:
            twin[key] = None  # in the stash's order
            copied.append((key, value))
    for key, value in copied:
        copier = getattr(key, "copy", None)
        twin[key] = copy.deepcopy(value, memo) if copier is None else copier(value, memo)
    return twin


_JUDGED: list[Any] = []  # a replayed step's refusals: none (never changed)


def rebind(action: Action, players: Sequence[Player]) -> Action:
    """`action` with its players those of another copy of the game (same seats)."""
    kind = type(action)
    plan = field_plan(kind)
    if plan is None:
        return copy.deepcopy(action, {id(p): players[p.index] for p in _players_in(action)})
    read, names, made = plan
    values = read(action)
    changes: dict[str, Any] | None = None
    for name, value in zip(names, values):
        if isinstance(value, Player):
            twin: Any = players[value.index]
        elif isinstance(value, Action):
            twin = rebind(value, players)
        else:
            continue
        if twin is not value:
            if changes is None:
                changes = dict(zip(names, values)) if made else {}
            changes[name] = twin
    if changes is None:
        return action
    # every field made by __init__: the class called with them all is what
    # dataclasses.replace makes, without its walk of the fields (a replay rebinds each step)
    return kind(**changes) if made else dataclasses.replace(action, **changes)  # type: ignore[type-var]


def _players_in(action: Action) -> list[Player]:
    names = getattr(action, "__slots__", ()) or vars(action)
    return [v for v in (getattr(action, n, None) for n in names) if isinstance(v, Player)]


def _check_action(action: object, takes: str) -> None:
    """Anything but an action is one UsageError, before anything is asked of it."""
    if not isinstance(action, Action):
        kind = type(action).__name__
        what = "None" if action is None else \
            f"{clip(repr(action))} ({'an' if kind[0] in 'aeiouAEIOU' else 'a'} {kind})"
        raise UsageError(f"{takes}, not {what}")


class CountedRandom(random.Random):
    """The game's generator, counting its draws: a step whose decider drew from it (a
    random bot does) keeps the generator's state for a replay; other steps need not."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.draws += 1
        return super().getrandbits(k)


class _Snapshot:
    # rng: the kept game's generator's state, read once (a restore sets it, not reads it)
    __slots__ = ("steps", "lines", "log", "game", "rng")

    def __init__(self, steps: int, lines: int, log: int, game: Game, rng: Any) -> None:
        self.steps, self.lines, self.log, self.game, self.rng = steps, lines, log, game, rng


class _Idle:
    """The decider of a game nobody asks yet: a kept copy (it plays only once restored), a
    game a GameState is about to take over."""

    def decide(self, game: Game, request: Request) -> Action:
        raise RuntimeError("a game with no decider yet was asked to decide")

    def refused(self, game: Game, request: Request, action: Action, refusals: list[Refusal]) -> None:
        raise RuntimeError("a game with no decider yet was refused an action")

    def choose_card(self, game: Game, player: Player) -> str | None:
        return None


NEVER_ASKED = _Idle()  # the decider of a game a GameState is about to take over


class _Link:
    """What a GameState's game holds of it: its decider, its listeners, `between_turns`.

    The suspended frames of the state's greenlet hold these, and greenlet shows no frame to
    the garbage collector: were the state held there, a state dropped would never be freed
    (issue 37). Held weakly, it is freed as any object is; its greenlet, then held by
    nobody, is ended by greenlet (GreenletExit raised in it, its `finally` blocks run) and
    its frames freed. So the game switches to the caller here (`wait`), never from a
    method of the state, whose frame would hold it while the game waits."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = weakref.ref(state)

    def _live(self) -> GameState:
        state = self.state()
        if state is None:  # a game kept by someone after its state was dropped
            raise RuntimeError("the GameState of this game was dropped: it steps no more")
        return state

    def wait(self, question: Any) -> Any:
        """Switch to the state's caller with `question`; its answer (what `push` takes)."""
        state = self._live()
        parent = state._greenlet.parent
        assert parent is not None
        state._draws_asked = state._rng.draws
        del state  # not held while the game waits
        return parent.switch(question)

    def decide(self, game: Game, request: Request) -> Action:
        return self.wait(request)  # type: ignore[no-any-return]

    def refused(self, game: Game, request: Request, action: Action,
                refusals: list[Refusal]) -> None:
        # `apply` checked the action: the rules changed their mind while it was carried out
        raise RefusedAction(refusal_message(action, refusals), tuple(refusals))

    def choose_card(self, game: Game, player: Player) -> str | None:
        state = self._live()
        question = state.card_question(player)
        if question is None:
            return state.choose_card(game, player)
        del state
        return self.wait(question).card  # type: ignore[no-any-return]

    @property
    def states_deals(self) -> bool:
        return self._live().states_deals

    def between_turns(self, game: Game) -> None:
        self._live()._between_turns(game)

    def on_line_event(self, event: Event) -> None:
        state = self.state()
        if state is not None:  # None: the finally blocks of a dropped state's game, ending
            state._on_line_event(event)

    def forward(self, event: Event) -> None:
        state = self.state()
        if state is not None:
            state._forward(event)


def stepping_state(game: Game) -> GameState | None:
    """The GameState that steps `game` (a search copies it), or None: another decider's."""
    link = game.decider
    return link.state() if type(link) is _Link else None


class GameState:
    """One game, stepped by its caller: python-chess's board, OpenSpiel's state.

        state.request          what it waits for (who is asked what), None once over
        state.legal_actions()  the actions that answer it now (amounts as ActionRange)
        state.apply(action)    one step (an Action, or a script line with `read_line`)
        state.undo()           one step back;  state.clone(): an independent copy
        state.history          the steps as script lines; `script()` replays this game

    A refused action raises `RefusedAction` carrying the refusals and changes nothing.
    Cards come from the deck; the dice are thrown by the game unless `choose_dice`.
    """

    states_deals = False  # the other party of a deal is asked (see Decisions.agreed)

    def __init__(self, game: Game, *, choose_dice: bool = False, header: Sequence[str] = (),
                 read_line: Callable[[GameState, str], Action] | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.choose_dice = choose_dice
        # steps between the kept copies: more makes steps cheaper and undo or clone dearer
        self.snapshot_every = max(1, snapshot_every)
        self.header = list(header)
        self.read_line = read_line
        self._listeners: list[Callable[[Event], None]] = []
        self._steps: list[tuple[Action, Any]] = []   # (action, the generator's state)
        # the script lines so far; a decision is kept as its action and written when the
        # history is read (an agent's game is rarely read, and str() costs on every step)
        self._lines: list[str | Action] = []
        self._chance_at: int | None = None  # the line waiting for the game's throw
        self._chance_action: Action | None = None
        self._offers: list[Action] = []  # the offers under way, a line once accepted
        self._snapshots: list[_Snapshot] = []
        # the step counts at which a turn started: where a copy of the game can be kept
        self._turn_starts: list[int] = []
        self._keep_at: int | None = None  # a replay keeps a copy at this turn start
        self._replaying = False
        self._legal: list[Action | ActionRange] | None = None
        # (the types, their listing) of legal_actions(kinds=...) this step
        self._legal_of: tuple[tuple[type[Action], ...], list[Action | ActionRange]] | None = None
        self.request: Request | None = None
        self._link = _Link(self)
        self.game = game
        self._attach(game)
        self._start(restored=False)

    # --- running the game in its greenlet -------------------------------------------------
    def _attach(self, game: Game) -> None:
        self.game = game
        link = self._link
        game.decider = link
        rng = game.rng
        if type(rng) is not CountedRandom:  # a copy's is one already, its own (copy_game)
            rng = CountedRandom()
            rng.setstate(game.rng.getstate())
        game.rng, game._random = rng, rng.random
        self._rng = rng
        self._draws_asked = -1
        kinds = {"draw"} | {t.chance_event for t in game.ruleset.action_owner if t.chance_event}
        game.listen(link.on_line_event, kinds)
        if self._listeners:
            game.listen(link.forward)

    def _start(self, restored: bool) -> None:
        game, between_turns = self.game, self._link.between_turns

        def run() -> None:  # holds the game and the link, not the state (see _Link)
            if not restored:
                game.setup()
            game.play(between_turns=between_turns)

        self._greenlet = greenlet(run)
        self._switch(None)

    def _switch(self, action: Action | None) -> None:
        glet = self._greenlet
        glet.parent = getcurrent()
        self._legal = self._legal_of = None
        request = glet.switch(action) if action is not None else glet.switch()
        self.request = request if not glet.dead else None

    def choose_card(self, game: Game, player: Player) -> str | None:
        """The card `player` draws (its text): None, the top card."""
        return None

    def card_question(self, player: Player) -> Action | None:
        """What a card draw asks the caller, answered by an action whose `card` is the
        card's text (ChanceState's); None: nothing, `choose_card` says."""
        return None

    def _between_turns(self, game: Game) -> None:
        steps = len(self._steps)
        if self._replaying:
            # a clone's replay keeps a copy at the last turn start it passes, for the clones
            # after it (an MCTS search clones one state many times): they replay one turn
            if steps == self._keep_at:
                self._keep(game)
            return
        if not self._turn_starts or self._turn_starts[-1] != steps:
            self._turn_starts.append(steps)
        every = self.snapshot_every
        last = self._snapshots[-1].steps if self._snapshots else -every
        if steps - last >= every:
            self._keep(game)

    def _keep(self, game: Game) -> None:
        rng = game.rng.getstate()
        self._snapshots.append(_Snapshot(len(self._steps), len(self._lines), len(game.log),
                                         copy_game(game, NEVER_ASKED, rng), rng))

    def _forward(self, event: Event) -> None:
        if not self._replaying:
            for listener in self._listeners:
                listener(event)

    def _on_line_event(self, event: Event) -> None:
        """Cards drawn become lines; a throw's dice complete the line of its throw."""
        if event.kind == "draw":
            self._lines.append(f'{event.data["player"]} draws "{event.data["card"]}"')
        elif self._chance_at is not None and self._chance_action is not None:
            taken = chance_taken(self._chance_action, event)
            if taken is not None:
                self._lines[self._chance_at] = taken  # written when the history is read
                self._chance_at = self._chance_action = None

    # --- what it waits for -----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.request is None

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome

    @property
    def player(self) -> Player | None:
        """Who is asked now."""
        return None if self.request is None else self.request.player

    def legal_actions(self, player: Player | str | None = None, *,
                      kinds: tuple[type[Action], ...] | None = None) -> list[Action | ActionRange]:
        """The actions that answer what the game waits for now (for its asked player, and
        the any-moment actions they may take), amounts as `ActionRange`s. For another
        `player`: the any-moment actions they may take now (R16). `kinds`: only those of
        these types (of the asked player), in the same order; a caller that drops the
        other types (an environment's) lists no more than it keeps. Either listing is made
        once a step."""
        if player is not None:
            player = self._player(player)
            if self.request is not None and player is not self.request.player:
                return legal_actions(self.game, self.request, player, kinds)
        if kinds is not None:
            known = self._legal_of
            if known is None or known[0] != kinds:
                known = self._legal_of = (
                    kinds, legal_actions(self.game, self.request, None, kinds)
                    if self.request else [])
            return known[1]
        if self._legal is None:
            self._legal = legal_actions(self.game, self.request) if self.request else []
        return self._legal

    def _player(self, player: Player | str) -> Player:
        """A player of this game, named or of any copy of it (same seats)."""
        players = self.game.players
        if isinstance(player, Player) and 0 <= player.index < len(players) \
                and players[player.index].name == player.name:
            return players[player.index]
        found = self.game.by_name.get(player) if isinstance(player, str) else None
        if found is None:
            raise UsageError(unknown_player(self.game, clip(str(player))))
        return found

    def refusals(self, action: Action) -> list[Refusal]:
        """Why `action` may not be applied now (empty: it may). Changes nothing."""
        _check_action(action, "refusals takes an Action")
        request = self.request
        if request is None:
            return [Refusal("-", "-", self._over_text())]
        game = self.game
        kind = type(action)
        if action.player is not game.players[action.player.index]:
            action = rebind(action, game.players)
        listed = action
        if kind.chance is not None and getattr(action, kind.chance, None) is not None:
            if not self.choose_dice:
                return [Refusal("-", "-", f"the game throws the {kind.chance} here (a game "
                                "started with choose_dice, or `play --interactive "
                                "--choose-dice`, lets a person choose them)")]
            listed = with_field(action, kind.chance, None)  # listed as the throw, whatever the dice
        if is_listed(self.legal_actions(action.player), listed):
            own_check(game, action)  # what a plugin lists and its own refusals agree
            return []
        found = game.refusals(action)
        if not found and kind is Accept:  # an offer the rules refuse now (Accept.candidates)
            found = game.refusals(action.offer)  # type: ignore[attr-defined]
        if found:
            return found
        return [Refusal("-", "-", f"the game waits for {request.describe()}")]

    def refused_answers(self) -> list[tuple[Action, list[Refusal]]]:
        """What the request would otherwise allow and the rules refuse now, with why
        (`legal.refused_candidates`): the answers missing from `legal_actions()`."""
        return refused_candidates(self.game, self.request)

    def is_legal(self, action: Action) -> bool:
        return not self.refusals(action)

    def standings(self) -> list[tuple[str, int, int]]:
        """(player, worth, rank) of the players still in, best first."""
        return [(p.name, w, r) for p, w, r in self.game.standings()]

    def _over_text(self) -> str:
        o = self.game.outcome
        return "the game is over" + (f" ({o.reason}: {o.detail})" if o else "")

    # --- steps ------------------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Take one step; a refused action raises `RefusedAction` and changes nothing."""
        if self.request is None:
            raise GameOverError(f"{self._over_text()}: no action can be applied")
        if isinstance(action, str):
            if self.read_line is None:
                raise EasyMoneyError("this game reads no script lines: apply an Action")
            action = self.read_line(self, action)
        _check_action(action, "apply takes an Action or a line of the script language")
        game = self.game
        if action.player is not game.players[action.player.index]:
            action = rebind(action, game.players)
        refusals = self.refusals(action)
        if refusals:
            raise RefusedAction(refusal_message(action, refusals), tuple(refusals))
        game.decisions.checked = (action, [])  # judged: the game need not judge it again
        self.push(action)

    def push(self, action: Action, *, listed: bool = False) -> None:
        """Take a step without listing the legal actions first: for an answer the game judges
        itself as it takes it (a bot's, in a search's playouts), or, `listed`, one taken
        from this step's `legal_actions()` (an environment's mask), which the game judges
        again only by the action's own `refusals` (a PluginError when they refuse what their
        class listed: nothing applied). Unlike `apply`, an answer the rules refuse raises from inside the game
        and leaves it unusable."""
        players = self.game.players
        if action.player is not players[action.player.index]:
            action = rebind(action, players)  # an action of another copy of the game
        if listed:
            # the listing asks no class's own refusals of what the class lists: asked of the
            # one taken, a plugin whose candidates and refusals disagree is named, not applied
            own_check(self.game, action)
            self.game.decisions.checked = (action, [])
        rng = self._rng
        # the generator's state only when the caller drew from it since the question
        self._push(action, rng.getstate() if rng.draws != self._draws_asked else None)

    def _push(self, action: Action, rng_state: Any) -> None:
        kind = type(action)
        self._steps.append((action, rng_state))
        if kind.counterparty is not None and not self.states_deals:
            self._offers.append(action)  # an offer to an offer's party may come first
        elif kind is Accept:
            if self._offers:
                self._lines.append(self._offers.pop())
        elif kind is Reject:
            # no line; the offerer's listing is made again, without the rejected deal (R22a)
            if self._offers:
                self._offers.pop()
        else:
            if kind.chance is not None and getattr(action, kind.chance, None) is None:
                self._chance_at = len(self._lines)  # its dice follow (_on_line_event)
                self._chance_action = action
            self._lines.append(action)
        self._switch(action)

    @property
    def history(self) -> list[str]:
        """The game so far as script lines: throws with their dice, cards drawn, decisions."""
        return self._written()

    def _written(self) -> list[str]:
        """The lines so far, each decision written as its line once."""
        lines = self._lines
        owners = self.game.ruleset.action_owner
        for k, line in enumerate(lines):
            if not isinstance(line, str):
                lines[k] = line_of(line, owners.get(type(line)))
        return list(lines)  # type: ignore[arg-type]

    @property
    def steps(self) -> int:
        return len(self._steps)

    def script(self) -> str:
        """A game script that replays this game: the header, then the history."""
        return "\n".join([*self.header, *self._written()]) + "\n"

    def listen(self, listener: Callable[[Event], None]) -> None:
        """Call `listener` with each event of the game from now on (not with those an undo
        or a copy replays)."""
        if not self._listeners:
            self.game.listen(self._link.forward)
        self._listeners.append(listener)

    # --- back and copies ---------------------------------------------------------------------
    def undo(self) -> None:
        """One step back, as if the last action had not been taken."""
        if not self._steps:
            raise NothingToUndo("nothing to undo: the game is at its start")
        self._restore(len(self._steps) - 1)

    def clone(self) -> GameState:
        """An independent copy: steps on either leave the other as it is."""
        kind = type(self)  # a subclass's copy is of its class (the OpenSpiel game's)
        twin = kind.__new__(kind)
        twin.choose_dice = self.choose_dice
        twin.snapshot_every = self.snapshot_every
        twin.header = list(self.header)
        twin.read_line = self.read_line
        twin._listeners = []
        twin._steps = list(self._steps)
        twin._lines = list(self._lines)
        twin._snapshots = list(self._snapshots)
        twin._turn_starts = list(self._turn_starts)
        twin._keep_at = None
        twin._replaying = False
        twin._chance_at = twin._chance_action = None
        twin._offers = []
        twin._legal = twin._legal_of = None
        twin.request = None
        twin._link = _Link(twin)
        twin.game = self.game
        kept = len(twin._snapshots)
        twin._restore(len(self._steps), log=self.game.log, keep=True)
        if len(twin._snapshots) > kept and len(self._snapshots) == kept:
            self._snapshots.append(twin._snapshots[-1])  # a copy as data: both may share it
        return twin

    def _restore(self, steps: int, log: list[Event] | None = None, keep: bool = False) -> None:
        """Go back to just after the first `steps` steps: from the last copy kept at or
        before them, replaying the steps since with their generator's states. `keep`: a
        copy is kept at the last turn start on the way, when it is past the last copy."""
        log = self.game.log if log is None else log
        while self._snapshots and self._snapshots[-1].steps > steps:
            self._snapshots.pop()
        starts = self._turn_starts
        while starts and starts[-1] > steps:
            starts.pop()
        snap = self._snapshots[-1] if self._snapshots else None
        if snap is None:  # no copy yet (the first turn's setup): start again
            raise NothingToUndo("no copy of the game is kept before its first turn")
        self._keep_at = starts[-1] if keep and starts and starts[-1] > snap.steps else None
        replay = self._steps[snap.steps:steps]
        del self._steps[snap.steps:]
        del self._lines[snap.lines:]
        self._chance_at = self._chance_action = None
        self._offers = []
        old = getattr(self, "_greenlet", None)
        if old is not None and not old.dead:  # end the abandoned continuation now
            old.parent = getcurrent()
            old.throw()
        game = copy_game(snap.game, self._link, snap.rng)
        game.log.extend(log[:snap.log])
        self._attach(game)
        self._replaying = True
        try:
            self._start(restored=True)
            players = game.players
            decisions = game.decisions
            for action, rng_state in replay:
                if rng_state is not None:
                    self._rng.setstate(rng_state)
                action = rebind(action, players)
                # judged when it was taken, in the same game: not judged again (the rules'
                # refusals change nothing, and an answer they refused was never a step)
                decisions.checked = (action, _JUDGED)
                self._push(action, rng_state)
        finally:
            self._replaying = False
            self._keep_at = None
