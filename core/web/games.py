"""The games a server holds: games played or watched (a GameState and its seats), scripts
stepped through (the BoardState after each event), and their expiry.

A game is its script: what the server keeps of a played game is its GameState, and the
page keeps the game's id in its address; `rebuild` makes the same game again from what
`new_game` was given and the game's decisions (Played.decisions: the person's are taken
again, the bots decide theirs again, and the seed throws the same dice).

Each game played or watched has a thread of its own (`Worker`) that makes it and does all
its work: a GameState runs its game in greenlets, which are switched to only from the
thread that made them, and a bot thinking long in one game stalls that game alone. What a
visitor's bots may cost is bounded: a searching bot's budget (MC_LIMITS), one decision's
time (BOT_STEP_SECONDS), a script's run (REPLAY_SECONDS).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import os
import re
import secrets
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..board.state import BoardState
from ..engine.actions import Action, ActionRange, line_of
from ..engine.model import Variant
from ..view import read_choice
from ..errors import EasyMoneyError, UsageError
from ..loading.sources import Confinement
from ..timelimit import GameTimeout, time_limit

MAX_GAMES = 200          # games held at once; the least recently used goes first
MAX_FINISHED = 20        # finished games kept (for a reload); older ones are dropped
IDLE_SECONDS = 30 * 60   # a game nobody asked about for this long is dropped
MAX_PLAYERS_TEXT = 400
BOT_TURN_LIMIT = 20_000  # a watched game of bots stops here, as `autoplay` does
# a searching bot's budget at the page (core/search.py): at these it decides within a
# second on the standard board; a bigger search is for `easymoney play` at a terminal
MC_LIMITS = {"rollouts": 256, "horizon": 20, "amounts": 5}
BOT_STEP_SECONDS = 10.0  # one decision of a bot at the page; a longer one is stopped
REPLAY_SECONDS = 60.0    # a script stepped through stops here (its boards so far are shown)
REBUILD_SECONDS = 60.0   # a game made again from its decisions (its bots deciding again)
MAX_REFUSED = 12  # kinds of answer refused now that a view explains

Result = TypeVar("Result")


class Worker:
    """The one thread that makes a game and does all its work (see the module's docstring)."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="easymoney-game")

    async def run(self, work: Callable[[], Result]) -> Result:
        """`work()` in the game's thread, awaited without holding up the event loop."""
        return await asyncio.wrap_future(self.pool.submit(work))

    def close(self) -> None:
        self.pool.shutdown(wait=False)  # what was asked still runs; then the thread ends


# a strategy a script's players line can give (script/grammar.lark's STRATEGY, a program
# aside): a name, without options
SCRIPT_STRATEGY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass
class Seats:
    """Who decides for each seat: a strategy (a bot) or nobody (a person at the page)."""

    names: list[str]
    bots: dict[str, Any]
    strategies: dict[str, str]
    # the server's trained agents seated here, by the NAME of `--agent NAME=FILE`
    agents: dict[str, Any] = field(default_factory=dict)

    def script_seats(self) -> tuple[list[str], list[str]]:
        """The seats as a saved script's players line writes them (a bot as NAME:STRATEGY,
        so that a replay lets it decide past the script's lines), and a comment line for
        each bot whose strategy that line cannot give (`mc:rollouts=64`: no options)."""
        seats, notes = [], []
        for name in self.names:
            strategy = self.strategies.get(name)
            if strategy is not None and strategy not in self.agents \
                    and SCRIPT_STRATEGY.fullmatch(strategy):
                seats.append(f"{name}:{strategy}")
                continue
            seats.append(name)
            if strategy in self.agents:  # its file is the server's: not named in a script
                notes.append(f"# {name} was played by {self.agents[strategy].label} at the "
                             f"page: seat its policy file as {name}:policy:FILE to replay it")
            elif strategy is not None:
                notes.append(f"# {name} was played by {strategy} at the page: a script's "
                             "players line cannot give a strategy's options")
        return seats, notes


def parse_seats(text: str, agents: Mapping[str, Any] | None = None) -> Seats:
    """`Ann Bob:greedy` as `--players` takes it: names in turn order, NAME:STRATEGY a bot;
    `Bob:trained` seats the server's trained agent `trained` (`agents`, web.agents.Agent).

    No seat is a program (`Bob:exec:"..."`) or a file (`policy:FILE`): the page never starts
    one, nor opens a file a visitor names."""
    from ..strategies import PROGRAM_PREFIX, is_program
    agents = agents or {}
    if len(text) > MAX_PLAYERS_TEXT:
        raise UsageError(f"players: at most {MAX_PLAYERS_TEXT} characters")
    names, bots, strategies, seated = [], {}, {}, {}
    for word in text.split():
        name, _, strategy = word.partition(":")
        names.append(name)
        if strategy and is_program(strategy):
            raise UsageError(f"players: {name}: a seat played by a program ({PROGRAM_PREFIX}) "
                             "is not started from the page; seat a bot (NAME:greedy) or play "
                             "it with `easymoney play -i` at a terminal")
        if strategy.startswith("policy:"):  # a path on the server: not the page's to name
            served = ", ".join(f"{name}:{a}" for a in agents) or "none on this server"
            raise UsageError(f"players: {name}: a saved policy (policy:FILE) names a file on "
                             "the server and is not seated from the page; seat a trained agent "
                             f"the server offers by its name ({served}: easymoney serve "
                             "--agent NAME=FILE), or play it with `easymoney play -i`")
        if strategy:
            bots[name] = seat_strategy(name, strategy, agents)
            strategies[name] = strategy
            if strategy in agents:
                seated[strategy] = agents[strategy]
    if not names:
        raise UsageError("players: name the seats, e.g. `Ann Bob:greedy`")
    if len(set(names)) != len(names):
        raise UsageError("players: each seat needs a name of its own")
    return Seats(names, bots, strategies, seated)


def seat_strategy(name: str, strategy: str, agents: Mapping[str, Any]) -> Any:
    """The bot that plays seat `name` as `strategy`: the server's trained agent of that
    name, or a strategy by name (a search within MC_LIMITS)."""
    from ..strategies import available_strategies, make_strategy
    if strategy in agents:
        return agents[strategy].strategy()
    if SCRIPT_STRATEGY.fullmatch(strategy) and strategy not in available_strategies():
        # a table kept with a trained agent, on a server started without it, says so
        known = [*available_strategies(), *agents]
        raise UsageError(f"players: {name}:{strategy}: this server has no strategy or trained "
                         f"agent named {strategy!r} (a trained agent is served with `easymoney "
                         f"serve --agent {strategy}=FILE`); known: {', '.join(known)}")
    return _within_limits(name, strategy, make_strategy(strategy))


def agents_fit(seats: Seats, game: Any) -> None:
    """One UsageError line if a trained agent at `seats` was trained on another variant,
    seat count or rules than `game`'s."""
    for name in seats.names:
        agent = seats.agents.get(seats.strategies.get(name, ""))
        refusal = agent and agent.refusal(name, seats.bots[name], game)
        if refusal:
            raise UsageError(refusal)


def _within_limits(name: str, text: str, strategy: Any) -> Any:
    """`strategy` (seat `name`'s, written `text`), refused if its search is past MC_LIMITS."""
    from ..search import MonteCarlo
    if isinstance(strategy, MonteCarlo):
        over = [f"{key} at most {most}" for key, most in MC_LIMITS.items()
                if getattr(strategy, key) > most]
        if over:
            raise UsageError(f"players: {name}:{text}: the page seats a searching bot with "
                             f"{', '.join(over)}, so that each decision is quick; play a "
                             "bigger search with `easymoney play` at a terminal")
    return strategy


class Stale(Exception):
    """A request from a page drawn before the game's last change: answered 409, nothing done."""


@dataclass
class Played:
    """A game played or watched at the page."""

    id: str
    state: Any  # GameState
    seats: Seats
    params: dict[str, Any]
    transcript: list[str] = field(default_factory=list)
    # the person the transcript speaks to (`You roll`, `Bot rejects your offer`): the one
    # seat no bot plays at a page's own game; None at a table, whose transcript all share
    reader: str | None = None
    touched: float = field(default_factory=time.monotonic)
    watch: bool = False
    variant_file: str | None = None  # an uploaded variant, removed with the game
    worker: Worker | None = None  # the thread that made the game and does its work
    # one more at every change: a page's request names the one it was drawn from, so that a
    # click repeated or made on an old page is not taken against another state than its own
    version: int = 0
    # each step's action as its line, a deal's answer too (`Bot accepts`), which the
    # history does not show: what the page keeps to have the game made again (`rebuild`)
    decisions: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return bool(self.state.is_over)

    def bot_to_move(self) -> bool:
        request = self.state.request
        return request is not None and request.player.name in self.seats.bots

    def board(self) -> BoardState:
        from ..outputs import current_turn
        return BoardState.of(self.state.game, current_turn(self.state.game))

    def controls(self, me: str | None = None) -> list[dict[str, Any]]:
        """The legal actions of the person asked, as the page's controls, each labelled in
        plain words for them (`Buy Highland Avenue for $1,600`); none for a viewer `me`
        who is not the seat asked."""
        from .words import control
        state = self.state
        if state.request is None or self.bot_to_move():
            return []
        asked = state.request.player.name
        if me is not None and me != asked:
            return []
        return [control(k, action, asked, state.game)
                for k, action in enumerate(state.legal_actions())]

    def refused(self, me: str | None = None) -> list[dict[str, Any]]:
        """What the person asked cannot answer that the request would otherwise allow, with
        the rule that refuses it and its words (the buy R13 refuses: only the decline is
        left), and its `reason` for them (`You may not buy ...: R13, you own ...`). Actions
        of a kind refused for the same reasons (R13's second house on each street) are one
        entry, the others named in `also`; at most MAX_REFUSED entries. None for a viewer
        `me` who is not the seat asked."""
        from ..engine.decisions import refusal_message
        from .words import reason
        if self.state.request is None or self.bot_to_move():
            return []
        asked = self.state.request.player.name
        if me is not None and me != asked:
            return []
        groups: dict[tuple[Any, ...], dict[str, Any]] = {}
        for action, refusals in self.state.refused_answers():
            key = (type(action), *map(str, refusals))
            if key in groups:
                groups[key]["also"].append(action.describe())
                continue
            groups[key] = {"action": str(action), "words": refusal_message(action, refusals),
                           "reason": reason(action, refusals, asked),
                           "rules": list(dict.fromkeys(r.rule for r in refusals if r.rule != "-")),
                           "also": []}
        return list(groups.values())[:MAX_REFUSED]

    def check(self, version: int) -> None:
        """Refuse (Stale) a request made from a page drawn before the game's last change."""
        if version != self.version:
            raise Stale("the page is out of date: the game has changed since it was drawn, "
                        "and nothing was done; it now shows the game as it is")

    def take(self, action: Action) -> None:
        # written first: a line that cannot be written (a plugin's text) leaves the game as it was
        line = line_of(action, self.state.game.ruleset.action_owner.get(type(action)))
        self.state.apply(action)
        self.decisions.append(line)
        self.version += 1

    def line_action(self, text: str) -> Action:
        """The action a line says: the legal action written so (`You accepts`, which the
        script language has no statement for), else the line read as the prompt reads it."""
        from ..script.table import read_line
        from .words import line_mistake
        typed = " ".join(text.split())
        listed = self.state.legal_actions()
        for found in listed:
            if isinstance(found, Action) and str(found) == typed:
                return found
        try:
            return read_line(self.state, text)
        except EasyMoneyError as exc:
            if exc.file != "<line>":  # a refusal: its rule and words already
                raise
            # the parser's words (`<line>:1:10: error: expected ...`) said plainly
            examples = [str(a) if isinstance(a, Action) else a.line(str(a.least)) for a in listed]
            raise UsageError(line_mistake(exc, text, examples)) from None

    def take_line(self, text: str) -> None:
        """A line typed at the page: a person's own; a bot's seat answers for itself, as at
        the prompt (R16's sale of the card a bot holds is the bot's to offer)."""
        words = text.split(maxsplit=1)
        self._not_a_bot(words[0] if words else "")  # whatever the rest of the line says
        action = self.line_action(text)
        self._not_a_bot(action.player.name)
        self.take(action)

    def _not_a_bot(self, name: str) -> None:
        if name in self.seats.bots:
            people = " or ".join(n for n in self.seats.names if n not in self.seats.bots)
            typed = f"the lines typed here are {people}'s" if people else \
                "every seat is a bot's, and no line is typed here"
            raise UsageError(f"refused: {name} is played by a bot ({self.seats.strategies[name]}), "
                             f"which answers for itself: {typed}")

    def control(self, index: int, amount: int | None) -> None:
        """Apply the control numbered `index` (an amount for a range), as listed now: read
        as a seat program's answer is (easymoney.read_choice), refused in one line."""
        listed = self.state.legal_actions() if not self.bot_to_move() else []
        answer: dict[str, int] = {"index": index}
        if amount is not None:
            answer["amount"] = amount
        self.take(read_choice(listed, answer))

    def bot_step(self) -> bool:
        """One decision of the bot asked, if a bot is asked (a deal's "agree" included)."""
        state = self.state
        if not self.bot_to_move():
            return False
        if state.game.turns_played >= BOT_TURN_LIMIT:
            return False
        name = state.request.player.name
        try:
            with time_limit(BOT_STEP_SECONDS):
                action = self.bot_action()
        except GameTimeout:  # stopped while deciding: the game itself was not touched
            raise UsageError(f"{name}'s bot ({self.seats.strategies[name]}) thought for more "
                             f"than {BOT_STEP_SECONDS:g} s over one decision and was stopped; "
                             "nothing changed: start a game with a quicker bot") from None
        self.take(action)
        return True

    def bot_action(self) -> Action:
        """What the bot asked decides now (it may draw from the game's generator)."""
        request = self.state.request
        assert request is not None
        return self.seats.bots[request.player.name].decide(self.state.game, request)  # type: ignore[no-any-return]

    def undo(self) -> None:
        """Back to the person's last decision: the bots' steps after it are taken back too."""
        state = self.state
        state.undo()
        self.version += 1
        while self.bot_to_move() and not self.watch and state.steps:
            state.undo()
        del self.decisions[state.steps:]
        # the transcript is the game's: an undone step's lines go with it
        self.transcript[:] = self.worded(state.game.log)

    def worded(self, events: Any) -> list[str]:
        """The transcript lines of `events`, for the reader."""
        describe, reader = self.state.game.describe, self.reader
        return [t for t in (describe(e, reader) for e in events) if t is not None]


@dataclass(slots=True)
class Frame:
    board: BoardState
    lines: int       # transcript lines shown with it
    turn: int


@dataclass
class Replay:
    """A script stepped through: the board after each event, and the transcript."""

    id: str
    name: str
    frames: list[Frame]
    transcript: list[str]
    error: str | None
    touched: float = field(default_factory=time.monotonic)
    size: int = 0  # bytes its boards and lines take (Stepped.bytes)

    finished = True


MAX_FRAMES = 50_000  # boards kept of one script; a longer one stops there
# the bytes the boards and lines of one script may take (a board of a thousand spaces is
# about 25 kB where its event changed the owners, houses or mortgages), and those of all the
# scripts held: past it the least recently looked at go first
MAX_REPLAY_BYTES = 16 << 20
MAX_REPLAYS_BYTES = 128 << 20


class Stepped:
    """What a script stepped through keeps: the board after each event, each sharing with
    the one before what the event did not change, and the transcript, counted in bytes."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.transcript: list[str] = []
        self.bytes = 0

    @property
    def full(self) -> bool:
        return len(self.frames) >= MAX_FRAMES or self.bytes >= MAX_REPLAY_BYTES

    def keep(self, board: BoardState, turn: int, line: str | None = None) -> None:
        """The board after an event and its transcript line (none for the board set out)."""
        if line is not None:
            self.transcript.append(line)
            self.bytes += sys.getsizeof(line)
        previous = self.frames[-1].board if self.frames else None
        frame = Frame(board.sharing(previous), len(self.transcript), turn)
        self.frames.append(frame)
        # the parts it does not share with the board before it (the first board: its
        # variant too, which the runner loaded for this script)
        seen: set[int] = set()
        self.bytes += sys.getsizeof(frame) + sys.getsizeof(frame.board)
        for f in dataclasses.fields(frame.board):
            part = getattr(frame.board, f.name)
            if previous is None or part is not getattr(previous, f.name):
                self.bytes += _bytes(part, seen)

    def stopped(self, name: str) -> str | None:
        """Why it kept no more boards, if it did not keep them all."""
        if len(self.frames) >= MAX_FRAMES:
            return f"{name}: the script plays more than {MAX_FRAMES:,} events; the page shows " \
                   "the first ones"
        if self.bytes >= MAX_REPLAY_BYTES:
            return (f"{name}: the script's boards take more than {MAX_REPLAY_BYTES / 2**20:g} MiB "
                    f"(a large board); the page shows its first {len(self.frames) - 1:,} events")
        return None


def _bytes(value: Any, seen: set[int]) -> int:
    """The memory `value` takes with what it holds, each object once (`seen`: the ids of
    those counted); None, bools, small ints, classes and functions are shared by all."""
    if value is None or isinstance(value, (bool, type)) or callable(value) or \
            type(value) is int and -5 <= value <= 256 or id(value) in seen:
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, (tuple, list, set, frozenset)):
        size += sum(_bytes(v, seen) for v in value)
    elif isinstance(value, dict):
        size += sum(_bytes(k, seen) + _bytes(v, seen) for k, v in value.items())
    elif not isinstance(value, (str, bytes, int, float)):  # an object: its slots and dict
        size += sum(_bytes(getattr(value, name, None), seen)
                    for name in _slots(type(value)) if name != "__dict__")
        if hasattr(value, "__dict__"):
            size += _bytes(vars(value), seen)
    return size


def _slots(kind: type) -> tuple[str, ...]:
    return tuple(name for k in kind.__mro__ for name in getattr(k, "__slots__", ()))


class Refused(Exception):
    """A script the page will not step through (its header): one line, answered 422."""


def replay_script(name: str, data: bytes, confine: Confinement, quoting: str | None = None
                  ) -> tuple[Stepped, str | None]:
    """Run a script with the runner (as `easymoney board --turn` does) and keep the board
    after each event; an error stops it where it is and is given located, as the terminal
    gives it. The script is a page's: its `variant "file.yaml"` line is read from its folder
    under the root only (`confine`), and an error quotes a line only of the file `quoting`
    (the script the person sent). A header the page refuses (a seat that would start a
    program, a variant it may not read) raises Refused: there is nothing to step through.
    Past MAX_FRAMES boards or MAX_REPLAY_BYTES it stops, and the error says so."""
    from ..engine.events import Event
    from ..engine.game import StopGame
    from ..outputs import current_turn
    from ..script.parser import parse_bytes
    from ..script.runner import ScriptRunner
    kept = Stepped()
    try:
        script = parse_bytes(data, name)
        game_ref: list[Any] = []

        def on_event(event: Event) -> None:
            game = game_ref[0]
            text = game.describe(event)
            if text is None:
                return
            if kept.full:
                raise StopGame()
            kept.keep(BoardState.of(game, current_turn(game)), current_turn(game), text)

        try:
            runner = ScriptRunner(script, on_event=on_event, confine=confine, programs=False)
        except EasyMoneyError as exc:  # the header: its variant, its players and their seats
            raise Refused(answer_text(exc, quoting)) from None
        game_ref.append(runner.game)
        kept.keep(BoardState.empty(runner.variant), 0)
        try:
            with time_limit(REPLAY_SECONDS):
                runner.run()
        except StopGame:  # raised where the game does not catch it: the frames are enough
            pass
        except GameTimeout:
            return kept, (f"{name}: the script ran for more than {REPLAY_SECONDS:g} s and was "
                          f"stopped; the page shows its first {len(kept.frames) - 1:,} events")
    except EasyMoneyError as exc:
        return kept, answer_text(exc, quoting)
    return kept, kept.stopped(name)


class Store:
    """Every game the server holds, by id; finished and idle ones expire (see `sweep`)."""

    def __init__(self, max_games: int = MAX_GAMES, max_finished: int = MAX_FINISHED,
                 idle: float = IDLE_SECONDS, replay_bytes: int | None = None) -> None:
        self.items: OrderedDict[str, Played | Replay] = OrderedDict()
        self.lock = threading.RLock()
        self.max_games = max_games
        self.max_finished = max_finished
        self.idle = idle
        self.replay_bytes = MAX_REPLAYS_BYTES if replay_bytes is None else replay_bytes
        self.uploads = tempfile.mkdtemp(prefix="easymoney-web-")
        # the trained agents the server seats by name (easymoney serve --agent NAME=FILE)
        self.agents: dict[str, Any] = {}

    def add(self, item: Played | Replay) -> None:
        with self.lock:
            self.items[item.id] = item
            self.sweep()

    def get(self, key: str, kind: type) -> Any:
        with self.lock:
            item = self.items.get(key)
            if item is None or not isinstance(item, kind):
                return None
            item.touched = time.monotonic()
            self.items.move_to_end(key)
            return item

    def sweep(self, now: float | None = None) -> None:
        """Drop games idle too long, the oldest finished beyond `max_finished`, the least
        recently used scripts beyond `replay_bytes` of boards, and the least recently used
        beyond `max_games`."""
        now = time.monotonic() if now is None else now
        with self.lock:
            for key, item in list(self.items.items()):
                if now - item.touched > self.idle:
                    self._drop(key)
            finished = [k for k, item in self.items.items() if item.finished]
            for key in finished[:max(0, len(finished) - self.max_finished)]:
                self._drop(key)
            replays = [(k, item.size) for k, item in self.items.items() if isinstance(item, Replay)]
            held = sum(size for _, size in replays)
            for key, size in replays:
                if held <= self.replay_bytes:
                    break
                self._drop(key)
                held -= size
            while len(self.items) > self.max_games:
                self._drop(next(iter(self.items)))

    def _drop(self, key: str) -> None:
        item = self.items.pop(key)
        if isinstance(item, Played) and item.worker is not None:
            item.worker.close()
        if isinstance(item, Played) and item.variant_file:
            try:
                os.unlink(item.variant_file)
            except OSError:
                pass

    def close(self) -> None:
        import shutil
        with self.lock:
            for key in list(self.items):
                self._drop(key)
        shutil.rmtree(self.uploads, ignore_errors=True)


def answer_text(error: EasyMoneyError, quoting: str | None = None) -> str:
    """`error` located, with its source line and caret only if it is in the file `quoting`
    (what the person sent): a file of the server's is named, never quoted."""
    if error.source_line is not None and (quoting is None or error.file != quoting):
        error = copy.copy(error)
        error.source_line = None
    return error.located()


def new_id() -> str:
    return secrets.token_urlsafe(9)


def start_game(store: Store, params: dict[str, Any], *, watch: bool = False,
               variant_file: str | None = None, confine: Confinement | None = None,
               addressed: bool = False) -> Played:
    """A new game from the page's form (already checked for types), its variant read under
    `confine`: `params` say what the person named, never a path of the server's.
    `addressed`: the transcript speaks to the person, when one seat alone is a person's."""
    from ..script.table import new_game
    seats = parse_seats(params["players"], store.agents)
    written, notes = seats.script_seats()
    state = new_game(params["variant"], written, seed=params["seed"],
                     enable=params["enable"], disable=params["disable"],
                     options=params["options"], confine=confine)
    agents_fit(seats, state.game)
    if variant_file is not None:  # the script names the upload: it replays beside it
        notes.insert(0, f"# {params['variant']} was uploaded to the page: keep it beside "
                        "this script to replay it")
    state.header[2:2] = notes  # after the recorder's own two lines
    game = Played(new_id(), state, seats, params, watch=watch, variant_file=variant_file)
    people = [n for n in seats.names if n not in seats.bots]
    if addressed and not watch and len(people) == 1:
        game.reader = people[0]
    game.transcript = game.worded(state.game.log)
    state.listen(lambda event: _hear(game, event))
    return game


def _hear(played: Played, event: Any) -> None:
    text = played.state.game.describe(event, played.reader)
    if text is not None:
        played.transcript.append(text)


def rebuild(store: Store, params: dict[str, Any], decisions: Sequence[str], *,
            watch: bool = False, confine: Confinement | None = None,
            addressed: bool = False) -> Played:
    """The same game again from its start and its decisions, one a step (Played.decisions).

    A person's decision is taken as a line typed at the page is; a bot decides again, as it
    did (a `random` bot draws from the game's generator just as before, so the game throws
    the same dice after it), and must decide what was kept. The seed deals the same cards.
    """
    played = start_game(store, params, watch=watch, confine=confine, addressed=addressed)
    try:
        with time_limit(REBUILD_SECONDS):
            for k, line in enumerate(decisions, 1):
                _redo(played, k, line)
    except GameTimeout:
        raise UsageError(f"the game was not made again within {REBUILD_SECONDS:g} s: start "
                         "it anew") from None
    return played


def _redo(played: Played, k: int, line: str) -> None:
    """Decision number `k` of a game made again."""
    try:
        if played.finished:
            raise UsageError("the game is over before it")
        if played.bot_to_move():
            action = played.bot_action()
            if str(action) != line:
                raise UsageError(f"the bot decides {str(action)!r} there: the decisions are "
                                 "not this game's")
            played.take(action)
        else:
            played.take_line(line)
    except EasyMoneyError as exc:
        raise UsageError(f"the game cannot be made again: decision {k} ({line}): "
                         f"{exc.message}") from None
