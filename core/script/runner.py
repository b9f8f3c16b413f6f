"""Running a parsed game script: the script is the game's decider, line by line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TextIO

from ..engine import actions as A
from ..errors import EasyMoneyError, PluginError, ScriptError, UsageError, did_you_mean
from ..engine.events import Event
from ..engine.decisions import NO_RULE
from ..engine.game import Game, Player, StopGame, ruleset_for, unknown_player
from ..engine.model import Space
from ..engine.registry import Registry, discover
from ..engine.settings import Settings
from . import ast as S
from .expectations import check_expectation
from .header import Header
from .parser import language_for, parse
from .setup import apply_setup


# the strategies (the bots, the searching bot, programs at seats) are imported when a seat
# has one: a script whose players are its own lines needs none of them (issue 37 item 5)
def make_strategy(name: str) -> Any:
    from ..strategies import make_strategy as make
    return make(name)


def is_program(name: str) -> bool:
    from ..strategies import is_program as program
    return program(name)


# bots driving a game (after `autoplay`, or once the script's lines have run out) stop
# here, unless the user wrote a limit (`autoplay N turns`, `option end.max_turns N`)
AUTOPLAY_LIMIT = 20_000


@dataclass
class Note:
    """Something the runner reports beside the game's events: a failed expectation, an expected refusal."""

    kind: str  # "expectation_failed" or "refused_as_expected"
    line: int
    column: int
    text: str  # the statement's line
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "line": self.line, "column": self.column,
                "statement": self.text, "message": self.message}


@dataclass
class RunResult:
    game: Game
    checked: int = 0
    failures: list[Note] = field(default_factory=list)
    # where a stopped game stood, taken as it stopped: once it has stopped, the rules'
    # `finally` blocks have run (an auction forgets what is up for bidding), and a listing
    # of the request left behind would be of a decision that is no longer under way
    stopped_view: dict[str, Any] | None = None

    @property
    def held(self) -> int:
        return self.checked - len(self.failures)


class NameLookups:
    """A script's players and spaces by the names its lines give: what a statement asks of
    the script that runs it (ScriptContext), each unknown name one located error."""

    game: Game

    def error(self, stmt: Any, message: str) -> ScriptError:
        raise NotImplementedError

    def player(self, name: str, stmt: Any) -> Player:
        p = self.game.by_name.get(name)
        if p is None:
            raise self.error(stmt, unknown_player(self.game, name))
        return p

    def space(self, ref: S.SpaceRef, stmt: Any) -> Space:
        spaces = self.game.spaces
        if ref.number is not None:
            if 0 <= ref.number < len(spaces):
                return spaces[ref.number]
            raise self.error(stmt, f"no space number {ref.number}: the board has spaces 0 to "
                                   f"{len(spaces) - 1}")
        for s in spaces:
            if s.name == ref.name:
                return s
        names = [s.name for s in spaces]
        name = ref.name or ""
        raise self.error(stmt, f"unknown space \"{name}\"{did_you_mean(name, names)}")


class ScriptRunner(NameLookups):
    """Plays a `Script`: answers the game's requests from its lines, checks its `expect` lines.

    It is the game's `Decider`. Players declared with a strategy (`Bob:greedy`) decide by it
    whenever the next line is not theirs; after `autoplay` every player does. A line that
    states a deal (`Ann sells ... to Bob for 500`) is the deal both agreed.

    A script from somebody not trusted with this machine (a web page's) is run with
    `confine` (a loading.Confinement: its variant's files under a folder) and
    `programs=False` (a seat that would start a program, `Ann:exec:"..."`, is refused).
    """

    states_deals = True

    def __init__(self, script: S.Script, *, enable: Sequence[str] = (),
                 disable: Sequence[str] = (), options: Sequence[str] = (),
                 settings: Settings | None = None,
                 trace: TextIO | None = None, dispatch: str | None = None,
                 on_event: Callable[[Event], None] | None = None,
                 on_note: Callable[[Note], None] | None = None,
                 more_lines: Callable[[A.Request], Sequence[Any] | None] | None = None,
                 on_refused: Callable[[Any, str], None] | None = None,
                 confine: Any = None, programs: bool = True) -> None:
        self.script = script
        self.programs = programs
        self.body = script.body
        # an interactive session: `more_lines(request)` gives the next statements when the
        # body is exhausted (None: stop the game), and `on_refused(stmt, message)` hears a
        # refused or unanswering line, which is then dropped and the game asks again
        self.more_lines = more_lines
        self.on_refused = on_refused
        self.cursor = 0
        self.on_note = on_note
        self.checked = 0
        self.stopped_view: dict[str, Any] | None = None
        self.failures: list[Note] = []
        self.last: Any = None  # the statement whose action the game is carrying out
        self.autoplay = False
        self.autoplay_until: int | None = None
        self.autoplay_from = 0
        self.autoplay_stmt: Any = None
        self.bots_cap: int | None = None  # the turn at which bots driving the game stop
        self.bots_from: int | None = None  # the turn at which the script's lines ran out
        self.strategies: dict[str, Any] = {}
        self.default_strategy: Any = None
        self.header = Header.read(script, enable, disable, options)
        loaded = script.header_variant
        if confine is None and loaded is not None and loaded[1] is discover() and loaded[0] == (
                tuple(enable), tuple(disable), tuple(options)):
            self.variant = loaded[2]  # read by the parser from this header, with these switches
        else:
            self.variant = self.header.load_variant(script, confine=confine)
        if script.language != language_for(discover(), self.variant.rules).plugins:
            # the command line switched a plugin with script lines on or off: its words
            # bind only where it is on
            script = parse("\n".join(script.source_lines) + "\n", script.filename,
                           rules=self.variant.rules)
            self.script, self.body = script, script.body
        self.settings = settings or Settings()
        self.game = self._new_game(trace, dispatch, on_event)

    # --- building the game ---------------------------------------------------------------
    def _new_game(self, trace: TextIO | None, dispatch: str | None,
                  on_event: Callable[[Event], None] | None) -> Game:
        h = self.header
        if h.players is None:
            raise self.error(None, "the script has no `players` line: name the players in "
                                   "turn order, e.g. `players Ann Bob`")
        decls = h.players.players
        v = self.variant
        if not v.min_players <= len(decls) <= v.max_players:
            # the players may be the command line's (`play -i --players`), not a script's
            raise self.error(h.players, f"{v.name} is for {v.min_players} to {v.max_players} "
                                        f"players, not {len(decls)}")
        for decl in decls:
            if decl.strategy is not None and not self.programs and is_program(decl.strategy):
                from ..strategies import PROGRAM_PREFIX
                raise self.error(decl if decl.line else h.players,
                                 f"{decl.name}: a seat played by a program ({PROGRAM_PREFIX}) is "
                                 "not started here; play this script with `easymoney play` "
                                 "at a terminal")
            if decl.strategy is not None:
                try:
                    self.strategies[decl.name] = make_strategy(decl.strategy)
                except UsageError as exc:
                    raise self.error(decl if decl.line else h.players, exc.message) from None
        ruleset = ruleset_for(v, dispatch=dispatch, trace=trace, settings=self.settings)
        game = Game(v, [(d.name, d.strategy) for d in decls], self, seed=h.seed,
                    ruleset=ruleset)
        if on_event is not None:
            game.listen(on_event)
        return game

    def run(self) -> RunResult:
        """Play the script. Once bots drive the game (after `autoplay`, or when the lines
        have run out) its log keeps only the turn in progress: a long bot game stays in
        bounded memory, and the transcript streams through `on_event`."""
        game = self.game

        def forget_past_turns(event: Event) -> None:
            if self.autoplay or self.bots_from is not None:
                del game.log[:-1]  # all but this "turn" event

        if game.keep_log:
            game.listen(forget_past_turns, ("turn",))
        game.setup()
        for stmt in self.header.setup:
            try:
                apply_setup(game, stmt, self)
            except EasyMoneyError as exc:
                raise self.error(stmt, exc.message) from None
        try:
            game.play()
        finally:  # programs at seats live as long as the game
            if self.strategies:
                from ..seats import close_strategies
                close_strategies(self.strategies.values())
        if game.stopped and game.outcome is None:
            game.emit("stopped")
        # what is left: expectations, or lines the game never asked for
        while self.cursor < len(self.body):
            stmt = self.body[self.cursor]
            if isinstance(stmt, S.EXPECTATION_TYPES):
                self._expect(stmt)
                self.cursor += 1
                continue
            if isinstance(stmt, S.Autoplay) and game.outcome is None:
                self.cursor += 1
                continue
            if game.outcome is not None:
                raise self.error(stmt, f"the game is over ({game.outcome.reason}: "
                                       f"{game.outcome.detail}); found '{self.text(stmt)}'")
            break
        return RunResult(game, self.checked, self.failures, self.stopped_view)

    # --- errors and notes ----------------------------------------------------------------
    def text(self, stmt: Any) -> str:
        """The statement as its line says it, without the comment."""
        lines = self.script.source_lines
        if stmt is not None and 0 < stmt.line <= len(lines):
            return _without_comment(lines[stmt.line - 1]).strip()
        return str(stmt)

    def error(self, stmt: Any, message: str) -> ScriptError:
        if stmt is None or not getattr(stmt, "line", 0):
            return ScriptError(message, file=self.script.filename)
        return ScriptError(message, file=self.script.filename, line=stmt.line, col=stmt.column,
                           source_line=self.script.source_lines[stmt.line - 1])

    def _note(self, note: Note) -> None:
        if self.on_note is not None:
            self.on_note(note)


    # --- expectations --------------------------------------------------------------------
    def _expect(self, stmt: Any) -> None:
        if isinstance(stmt, S.ExpectRefused):
            raise self.error(stmt, "`expect refused`, but the line before it was not refused")
        self.checked += 1
        failure = check_expectation(self, stmt)
        if failure is not None:
            note = Note("expectation_failed", stmt.line, stmt.column, self.text(stmt), failure)
            self.failures.append(note)
            self._note(note)

    def _flush(self, upto: int) -> None:
        while self.cursor < upto:
            self._expect(self.body[self.cursor])
            self.cursor += 1

    def _next_action(self) -> int:
        j = self.cursor
        body = self.body
        while j < len(body) and isinstance(body[j], S.EXPECTATION_TYPES):
            j += 1
        return j

    # --- the Decider interface -----------------------------------------------------------
    def _stop(self, game: Game, request: A.Request) -> NoReturn:
        """Stop the game at `request`, keeping the view of the decision it waits for."""
        from ..view import decision_view
        self.stopped_view = decision_view(game, request)
        raise StopGame()

    def bot(self, game: Game, request: A.Request) -> A.Action:
        strategy = self.strategies.get(request.player.name)
        if strategy is None:
            if self.default_strategy is None:
                self.default_strategy = make_strategy("cautious")
            strategy = self.default_strategy
        self.last = None
        return strategy.decide(game, request)

    def decide(self, game: Game, request: A.Request) -> A.Action:
        if self.autoplay:
            if self.autoplay_until is not None and game.turns_played >= self.autoplay_until:
                self._stop(game, request)
            if self.bots_cap is not None and game.turns_played >= self.bots_cap:
                raise self.error(self.autoplay_stmt, f"autoplay played {AUTOPLAY_LIMIT:,} turns "
                                 "and nothing ended the game: set `option end.max_turns N`, or "
                                 "write `autoplay N turns`")
            return self.bot(game, request)
        j = self._next_action()
        if j == len(self.body):
            if request.player.name in self.strategies:
                # the last expectations wait for the end, while the bots drive the game
                if self.bots_from is None:
                    self.bots_from = game.turns_played
                    self.bots_cap = _bots_cap(game, None)
                if self.bots_cap is not None and game.turns_played >= self.bots_cap:
                    raise self.error(self.header.players, f"the bots played {AUTOPLAY_LIMIT:,} "
                                     "turns after the script's last line and nothing ended the "
                                     "game: set `option end.max_turns N`, or write "
                                     "`autoplay N turns`")
                return self.bot(game, request)
            self._flush(j)
            while self.more_lines is not None:
                more = self.more_lines(request)
                if not more:
                    break
                try:
                    answers = all(isinstance(s, S.EXPECTATION_TYPES)
                                  or self._answer(s, request) is not None for s in more)
                    problem = "" if answers else (f"the game waits for {request.describe()}; "
                                                  f"found '{self.text(more[0])}'")
                except EasyMoneyError as exc:
                    problem = exc.message
                if problem and self.on_refused is not None:
                    self.on_refused(more[0], problem)
                    continue
                self.body = (*self.body, *more)
                return self.decide(game, request)
            self._stop(game, request)
        stmt = self.body[j]
        if isinstance(stmt, S.Autoplay):
            self._flush(j)
            self.cursor = j + 1
            rest = self._next_action()
            if rest != len(self.body):
                raise self.error(self.body[rest], "only `expect` lines may follow `autoplay`")
            self.autoplay = True
            self.autoplay_stmt = stmt
            self.autoplay_from = game.turns_played
            if stmt.turns is not None:
                self.autoplay_until = game.turns_played + stmt.turns
            self.bots_cap = _bots_cap(game, stmt.turns)
            return self.decide(game, request)
        action = self._answer(stmt, request)
        if action is None:
            if request.player.name in self.strategies:
                return self.bot(game, request)
            # the expectations before the line are checked in the state the game waits in
            self._flush(j)
            raise self.error(stmt, f"the game waits for {request.describe()}; found "
                                   f"'{self.text(stmt)}'")
        self._flush(j)
        if type(action).ends_turn and _kind(stmt) is not A.EndTurn:
            return action  # the line opens the next turn: it is read again there
        self.cursor = j + 1
        self.last = stmt
        if type(action) not in request.accepts and type(action) not in game.any_moment:
            # an action whose rule is not in play here (the exemption sale without R16):
            # refused like any other, so that `expect refused` can name it
            self.refused(game, request, action, game.refusals(action) or [NO_RULE])
            return self.decide(game, request)
        return action

    def _begins_later_turn(self, actor: Player, stmt: Any, request: A.Request) -> bool:
        """In a closing window: does `stmt` belong to a later turn than this one?

        It does when it is by the next player in turn order; or by a later player (or, for
        a throw, by the window's own player) when every player in between decides by a
        strategy, so that their turns need no line.
        """
        if actor is request.player and _kind(stmt) is not A.Roll:
            return False
        p = request.next_player
        for _ in range(len(self.game.players)):
            if p is None:
                return False
            if p is actor:
                return True
            if p.name not in self.strategies:
                return False
            p = self.game.next_player(p)
        return False

    def _answer(self, stmt: Any, request: A.Request) -> A.Action | None:
        """The action `stmt` gives in answer to `request`, EndTurn, or None if it does not answer."""
        if type(stmt) is S.Draw:
            return None
        actor = self.player(stmt.player, stmt)
        if stmt.ANY_MOMENT:  # anyone, any moment (R16)
            return stmt.answer(self, request)  # type: ignore[no-any-return]
        bot = request.player.name in self.strategies
        if _closes_turn(request) and self._begins_later_turn(actor, stmt, request):
            # a player with a strategy closes their own window by it
            return None if bot else _end_turn(request.player, stmt, request)
        if bot and actor is not request.player:
            return None  # not their line: their strategy decides
        return stmt.answer(self, request)  # type: ignore[no-any-return]

    def refused(self, game: Game, request: A.Request, action: A.Action,
                refusals: list[A.Refusal]) -> None:
        stmt = self.last
        message = f"{action.player} cannot {action.describe()}: " + "; ".join(map(str, refusals))
        if stmt is None:  # a strategy's choice: a bug of the strategy, not of the script
            raise ScriptError(f"strategy of {action.player} chose a refused action: {message}",
                              file=self.script.filename)
        nxt = self.body[self.cursor] if self.cursor < len(self.body) else None
        if isinstance(nxt, S.ExpectRefused):
            self.checked += 1
            if nxt.rule is not None:
                try:
                    discover().resolve(nxt.rule)
                except PluginError as exc:
                    raise self.error(nxt, exc.message) from None
            if nxt.rule is not None and not _names_rule(nxt.rule, refusals,
                                                          self.game.ruleset.registry):
                by = ", ".join(str(r).removesuffix(f": {r.reason}") for r in refusals)
                raise self.error(nxt, f"expected a refusal by {nxt.rule}, but line {stmt.line} "
                                      f"was refused by {by}: {message}")
            self.cursor += 1
            self._note(Note("refused_as_expected", stmt.line, stmt.column, self.text(stmt),
                            message))
            self.last = None
            return
        if self.on_refused is not None:
            self.last = None
            self.on_refused(stmt, message)
            return
        raise self.error(stmt, message)

    def choose_card(self, game: Game, player: Player) -> str | None:
        if self.autoplay:
            return None
        j = self._next_action()
        if j == len(self.body):
            return None
        stmt = self.body[j]
        if type(stmt) is not S.Draw:
            return None
        if stmt.player != player.name:
            self.player(stmt.player, stmt)
            self._flush(j)
            raise self.error(stmt, f"the game waits for {player} to draw a card; found "
                                   f"'{self.text(stmt)}'")
        known = {c.text for c in game.variant.cards}
        if stmt.card not in known:
            raise self.error(stmt, f"unknown card \"{stmt.card}\"{did_you_mean(stmt.card, known)}")
        if not any(c.text == stmt.card for c in game.deck):
            where = "on the discard pile"
            for p in game.players:
                if any(c.text == stmt.card for c in p.held):
                    where = f"held by {p}"
            if not any(c.text == stmt.card for c in game.discard) and where == "on the discard pile":
                where = "out of the game (its rule is off)"
            raise self.error(stmt, f"\"{stmt.card}\" is not in the draw pile: it is {where}")
        self._flush(j)
        self.cursor = j + 1
        return stmt.card


def _end_turn_type(request: A.Request) -> type[A.Action] | None:
    """The action type that closes the turn, when `request` accepts one (the window after)."""
    for kind in request.accepts:
        if getattr(kind, "ends_turn", False):
            return kind  # type: ignore[no-any-return]
    return None


def _closes_turn(request: A.Request) -> bool:
    return _end_turn_type(request) is not None


def _end_turn(actor: Player, stmt: Any, request: A.Request) -> A.Action | None:
    kind = _end_turn_type(request)
    if kind is not None and actor is request.player:
        return kind(actor)  # type: ignore[call-arg]
    return None


def _kind(stmt: Any) -> type | None:
    """The action class a line says (None: a line that says no action)."""
    return stmt.kind if isinstance(stmt, S.ActionLine) else None


def _bots_cap(game: Game, turns: int | None) -> int | None:
    """The turn at which bots driving `game` from now are stopped: none when the user wrote
    a limit (`autoplay N turns`, or `end.max_turns` with the `end` rule on)."""
    if turns is not None:
        return None
    if "end" in game.ruleset.enabled and game.variant.option("end.max_turns") is not None:
        return None
    return game.turns_played + AUTOPLAY_LIMIT


def _without_comment(text: str) -> str:
    """A script line without its `#` comment (a `#` inside a quoted name stays)."""
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return text[:i]
    return text


def _names_rule(rule: str, refusals: list[A.Refusal], registry: Registry) -> bool:
    """`expect refused RULE`: RULE is a refusal's rule id, its plugin's id, or the id of a
    plugin that implements its rule id (a trade refused by R13 is `four_sides`'s refusal)."""
    implements = registry.plugins[rule].rules if rule in registry.plugins else ()
    return any(rule in (r.rule, r.plugin) or r.rule in implements for r in refusals)


