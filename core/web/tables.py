"""Tables: friends at one game from their own browsers (docs/web.md, Tables).

A table is a game with seats for people and bots. Each person's seat has its own secret
credential (`secrets.token_urlsafe`), given once, in the link of that seat only, after a `#`
(a browser never sends what follows a `#` to a server, so no request line, log or page
of another seat holds it); the server keeps its SHA-256 and compares in constant time. Only
the seat's credential acts for it; the table's creator has a credential of their own, which
may give a seat whose person left to a bot. Anyone with the table's link watches.

Every change reaches each browser at the table over a WebSocket: a browser says which
version it has (`since`) and gets the table as it is whenever it is newer, so a browser
that reconnects (the network dropped, the server started again) picks up where it was.

Every table and its decisions are kept in SQLite (kept.Kept) at each step, before any
browser sees the step: a server started again on the same file makes each game again
from its start and decisions when it is first asked for (`load`), and its links still work.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import EasyMoneyError, UsageError
from ..loading.sources import Confinement
from .games import Played, Stale, Store, Worker, _redo, new_id, start_game
from .kept import Kept, KeptTable, NotWritten
from . import words
from .svg import board_svg

MAX_OPEN_TABLES = 1000  # tables being played at once on a server; finished ones do not count
MAX_LISTENERS = 64      # browsers at one table
MAX_LOADED_FINISHED = 20  # finished games held in memory; others are made again when asked
PACE_MS = (0, 5000)     # the bots' pace a table may have, in milliseconds
DEFAULT_PACE_MS = 700
WRITE_RETRY_SECONDS = 2.0  # a bot's step not written (a full disk) is tried again after this
HELLO_SECONDS = 10.0    # a socket that says nothing for this long after opening is closed
LOAD_SECONDS = 120.0    # a table made again from its decisions (its bots deciding again)
# tables whose work (a step, a drawing, a game made again) runs at once: each table has a
# thread of its own, but a hundred of them taking turns at Python's lock would leave the
# event loop, which answers every page, waiting behind them all
AT_ONCE = 4


def secret_seed() -> int:
    """A table's seed when its creator gives none: drawn from the system's secrets, kept
    by the server, shown with the saved script once the game is over."""
    return secrets.randbits(62)


def seeded(params: dict[str, Any]) -> bool:
    """Whether the table's creator chose its seed (a table kept before seeds were secret
    showed its seed to every seat: it is taken as chosen)."""
    return bool(params.get("seeded", True))


def seeded_line(params: dict[str, Any]) -> str:
    return (f"This table's creator chose its seed ({params['seed']}): whoever knows it can "
            "foresee the dice.")


def digest(credential: str) -> str:
    return hashlib.sha256(credential.encode("utf-8", "surrogatepass")).hexdigest()


def credential() -> str:
    return secrets.token_urlsafe(24)


class Forbidden(Exception):
    """A credential that acts for nobody, or a move for a seat it is not: answered 403."""


@dataclass(eq=False)
class Listener:
    """A browser at a table: woken at each change; `me` the seat its credential acts for."""

    wake: asyncio.Event
    me: str | None


@dataclass(eq=False)
class Table(KeptTable):
    """A table: what the file keeps of it (its seats: name, strategy (None: a person's),
    key (SHA-256 of its credential; None: free, or a bot's), bot_from (the step from which
    a bot plays it; None: a person's)), and what this server holds of it while it runs."""

    played: Played | None = None
    saved: int = 0  # decisions written to the file
    listeners: set[Any] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    note: str | None = None  # why the bots stopped (a bot that thought too long)
    touched: float = field(default_factory=time.monotonic)
    # the board last drawn and its drawing: every browser at the table, each seat's too, is
    # sent the same drawing, made once (a seat's page marks its own line)
    drawn: tuple[Any, str] | None = None
    # the spectators' view at a stamp, its transcript aside, and what their browsers are sent
    # at that stamp, by the transcript line it starts from: encoded once, in the table's
    # thread, for every spectator's socket and the table's own page
    watched: tuple[int, dict[str, Any]] | None = None
    said: tuple[int, dict[int, tuple[int, str]]] | None = None
    # the table someone at this one opened to play again, with the same seats (the page's
    # "Play again"): every browser here is shown its link; held while the server runs
    next: dict[str, str] | None = None

    @property
    def stamp(self) -> int:
        """One more at every change a browser sees: a step, a seat taken or given to a bot."""
        steps = self.played.version if self.played is not None else -1
        return steps + self.changes

    def seat(self, name: str) -> dict[str, Any]:
        for s in self.seats:
            if s["name"] == name:
                return s
        raise LookupError(f"no seat {name[:40]!r} at this table: its seats are "
                          f"{', '.join(s['name'] for s in self.seats)}")

    def seat_of(self, given: str) -> str | None:
        """The person's seat `given` is the credential of, compared in constant time with
        every seat's (a free seat or a bot's is compared against a key nobody has)."""
        key = digest(given)
        found = None
        for s in self.seats:
            if hmac.compare_digest(key, s["key"] or "-" * 64) and s["strategy"] is None:
                found = s["name"]
        return found

    @property
    def secret(self) -> bool:
        """Whether the seed is kept from the seats: not chosen, and the game not over."""
        finished = self.over is not None or (self.played is not None and self.played.finished)
        return not seeded(self.params) and not finished

    def shown_params(self) -> dict[str, Any]:
        """What the table was opened with, as the seats and spectators see it."""
        return {k: v for k, v in self.params.items() if k != "seed" or not self.secret}

    def is_creator(self, given: str) -> bool:
        return hmac.compare_digest(digest(given), self.creator)

    def lobby_entry(self) -> dict[str, Any]:
        return {"id": self.id, "variant": self.params["variant"], "over": self.over,
                "created": self.created, "url": f"/table/{self.id}",
                "seats": [{"name": s["name"], "bot": s["strategy"],
                           "taken": s["strategy"] is None and s["key"] is not None}
                          for s in self.seats]}


def players_text(seats: list[dict[str, Any]]) -> str:
    """The players line a table starts with: its bots from the start as NAME:STRATEGY."""
    return " ".join(s["name"] if s["bot_from"] != 0 else f"{s['name']}:{s['strategy']}"
                    for s in seats)


def load(store: Store, kept: Kept, table: Table, confine: Confinement) -> Played:
    """The table's game made again from its start and its kept decisions: a person's taken
    as written, a bot's decided again by the bot (a `random` bot draws from the game's
    generator as it did, so the same dice follow), a seat given to a bot at the step it was."""
    from ..timelimit import GameTimeout, time_limit
    from .games import seat_strategy
    params = dict(table.params, players=players_text(table.seats))
    played = start_game(store, params, confine=confine)
    played.params = table.params
    told(played)
    later = sorted((s["bot_from"], s["name"], s["strategy"]) for s in table.seats
                   if s["bot_from"] not in (None, 0))
    decisions = kept.decisions(table.id)

    def seat_bots(k: int) -> None:
        while later and later[0][0] <= k:
            _, name, strategy = later.pop(0)
            played.seats.bots[name] = seat_strategy(name, strategy, store.agents)
            played.seats.strategies[name] = strategy
            if strategy in store.agents:
                played.seats.agents[strategy] = store.agents[strategy]
    try:
        with time_limit(LOAD_SECONDS):
            for k, line in enumerate(decisions):
                seat_bots(k)
                _redo(played, k + 1, line)
            seat_bots(len(decisions))
    except GameTimeout:
        raise UsageError(f"table {table.id} was not made again within {LOAD_SECONDS:g} s") from None
    table.saved = len(decisions)
    return played


def told(played: Played) -> None:
    """A chosen seed is said to every seat, first in the transcript every browser shows."""
    if seeded(played.params):
        played.transcript.insert(0, seeded_line(played.params))


def over_text(played: Played) -> str | None:
    """How a finished game ended, as the lobby lists it: who won (R28), then why (R27)."""
    outcome = played.state.outcome
    if not played.finished:
        return None
    if outcome is None:
        return "the game is over"
    winners = list(outcome.winners)
    who = (f"{winners[0]} won" if len(winners) == 1 else
           f"{', '.join(winners[:-1])} and {winners[-1]} shared the win" if winners else
           "nobody won")
    return f"{who} ({outcome.reason}: {outcome.detail})"


def drawing(table: Table, board: Any) -> str:
    """The board's SVG for every browser at the table, drawn once a step at most (a step
    that changes nothing on the board, a bid or a pass, is not drawn again)."""
    if table.drawn is None or table.drawn[0] != board:
        table.drawn = (board, board_svg(board))
    return table.drawn[1]


def table_view(table: Table, me: str | None, lines: int = 0) -> dict[str, Any]:
    """The table as the browser of seat `me` (None: a spectator) shows it: the controls and
    the refused answers only for the seat asked, and only to that seat's browser."""
    played = table.played
    assert played is not None
    if me is not None and table.seat(me)["strategy"] is not None:
        me = None  # the seat was given to a bot: its browser watches from now on
    state = played.state
    req = state.request
    board = played.board()
    asked = req.player.name if req is not None else None
    mine = me is not None and asked == me and not played.bot_to_move()
    view: dict[str, Any] = {
        "id": table.id, "table": True, "me": me, "stamp": table.stamp,
        "version": played.version,
        "svg": drawing(table, board),
        "throw": words.motion(state), "prompt": words.prompt(state, me),
        "players": words.standings(state, me),
        "request": req.describe() if req is not None else None, "asked": asked,
        "bot": played.bot_to_move(), "controls": played.controls(me) if mine else [],
        "refused": played.refused(me) if mine else [], "over": board.over,
        "ending": words.ending(state, me), "auction": words.auction(state),
        "steps": state.steps, "standings": [list(s) for s in state.standings()],
        "transcript": played.transcript[lines:], "lines": len(played.transcript),
        "params": table.shown_params(), "note": table.note, "next": table.next,
        "seeded": seeded_line(table.params) if seeded(table.params) else None,
        "seats": table.lobby_entry()["seats"]}
    if me is None:
        table.watched = (view["stamp"], {**view, "transcript": None})
    return view


def watched_view(table: Table, lines: int = 0) -> dict[str, Any] | None:
    """The spectators' view of the table as it is now, if it has been made at this stamp."""
    kept, played = table.watched, table.played
    if kept is None or played is None or kept[0] != table.stamp:
        return None
    view = dict(kept[1])
    view["transcript"] = played.transcript[lines:view["lines"]]  # it only grows at a table
    return view


def encoded(view: dict[str, Any]) -> tuple[int, int, str]:
    """A view as its socket sends it (encoded in the table's thread, not the event loop's)."""
    return view["stamp"], view["lines"], json.dumps(view, separators=(",", ":"))


def said(table: Table, lines: int) -> tuple[int, int, str] | None:
    """What a spectator whose browser holds `lines` transcript lines is sent now, if it has
    been encoded at this stamp (read in the event loop: no turn of the table's thread)."""
    kept, stamp = table.said, table.stamp
    if kept is None or kept[0] != stamp:
        return None
    found = kept[1].get(lines)
    return None if found is None else (stamp, *found)


def spectators_text(table: Table, lines: int) -> tuple[int, int, str]:
    """What a spectator whose browser holds `lines` transcript lines is sent now: the view
    made and encoded once a stamp for every such spectator (in the table's thread)."""
    found = said(table, lines)
    if found is not None:
        return found
    view = watched_view(table, lines) or table_view(table, None, lines)
    stamp, upto, text = encoded(view)
    if table.said is None or table.said[0] != stamp:
        table.said = (stamp, {})
    table.said[1][lines] = (upto, text)
    return stamp, upto, text


class Tables:
    """The tables of a server: those kept in the file, each made again when first asked for."""

    def __init__(self, kept: Kept, store: Store, confinement: Callable[[dict[str, Any]], Confinement]
                 ) -> None:
        self.kept = kept
        self.store = store
        self.confinement = confinement
        self.items: dict[str, Table] = {}
        self.resuming: asyncio.Task[None] | None = None
        self.at_once = asyncio.Semaphore(AT_ONCE)
        # the lobby's answer, made again only after a change it shows (a table opened, a
        # seat taken or given to a bot, a game over): (the change it was made after, JSON)
        self.listed = 0
        self.listing: tuple[int, bytes] | None = None
        for t in kept.tables():
            self.items[t.id] = Table(t.id, t.params, t.seats, t.creator, t.pace, t.created,
                                     t.changes, t.over)

    # --- the game of a table ---------------------------------------------------------------
    def table(self, table_id: str) -> Table:
        table = self.items.get(table_id)
        if table is None:
            raise LookupError("no such table on this server: see the lobby (/lobby)")
        table.touched = time.monotonic()
        return table

    async def ready(self, table: Table) -> Played:
        """The table's game, made again from the file if this server has not made it yet."""
        if table.played is None:
            async with table.lock:
                if table.played is None:
                    worker = Worker()
                    try:
                        async with self.at_once:
                            played = await worker.run(lambda: load(
                                self.store, self.kept, table, self.confinement(table.params)))
                    except BaseException:
                        worker.close()
                        raise
                    played.worker = worker
                    table.played = played
                    self.unload_finished()
            self.drive(table)
        return table.played

    def unload_finished(self) -> None:
        """Keep at most MAX_LOADED_FINISHED finished games made (none a browser watches)."""
        done = sorted((t for t in self.items.values() if t.played is not None and t.over
                       and not t.listeners), key=lambda t: t.touched)
        for t in done[:max(0, len(done) - MAX_LOADED_FINISHED)]:
            assert t.played is not None and t.played.worker is not None
            t.played.worker.close()
            t.played = None
            t.drawn = t.watched = t.said = None

    async def work(self, table: Table, work: Callable[[Played], Any],
                   undone: str = "the move was not made") -> Any:
        """`work(played)` in the table's own thread, then its new decisions written to the
        file (before any browser hears of them). If they cannot be written (a full disk),
        the game goes back to what the file holds (made again from it when next asked
        for) and NotWritten says so, ending with `undone`."""
        played = await self.ready(table)
        assert played.worker is not None

        def run() -> Any:
            if table.played is not played:  # put back after a write that failed
                raise Stale("the table changed meanwhile: look at it again")
            try:
                return work(played)
            finally:
                self._save(table, played)
        over = table.over
        async with self.at_once:
            try:
                return await played.worker.run(run)
            except NotWritten as exc:
                if table.played is played and table.saved < len(played.decisions):
                    self._put_back(table)
                raise NotWritten(f"{exc}: {undone}, and the table is as it was; try again") \
                    from None
            finally:
                if table.over != over:  # set by the step that ended the game (`_save`)
                    self.listed += 1

    def _put_back(self, table: Table) -> None:
        """Forget the game made past what the file holds: the next look makes it again."""
        played = table.played
        table.played = None
        table.drawn = table.watched = table.said = None
        if played is not None and played.worker is not None:
            played.worker.close()

    def _save(self, table: Table, played: Played) -> None:
        decisions = played.decisions
        while table.saved < len(decisions):
            last = table.saved == len(decisions) - 1
            over = over_text(played) if last else None
            self.kept.step(table.id, table.saved, decisions[table.saved], over)
            table.saved += 1
            if over is not None:
                table.over = over

    def changed(self, table: Table) -> None:
        self.listed += 1
        for listener in table.listeners:
            listener.wake.set()
        self.drive(table)

    def drive(self, table: Table) -> None:
        """Let the bots of the table decide, one a `pace`, while a bot is asked."""
        played = table.played
        if played is None or played.finished or not played.bot_to_move() or table.note:
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        while True:
            played = table.played
            if played is None or played.finished or not played.bot_to_move():
                return
            await asyncio.sleep(table.pace)
            try:
                await self.work(table, lambda p: p.bot_step())
            except EasyMoneyError as exc:  # a bot stopped for thinking too long: say so
                table.note = exc.message
            except (NotWritten, Stale):  # a full disk: the bot decides again a little later
                await asyncio.sleep(max(table.pace, WRITE_RETRY_SECONDS))
                with contextlib.suppress(EasyMoneyError):
                    await self.ready(table)
                continue
            for listener in table.listeners:
                listener.wake.set()
            if table.note:
                return

    def resume(self) -> None:
        """Make again, in the background, the tables being played when the server stopped,
        so that their bots decide on whoever watches (a browser asking first is served
        first: `ready` makes a table once, whoever asks)."""
        waiting = [t for t in self.items.values() if t.over is None and t.played is None]
        if waiting:
            self.resuming = asyncio.get_running_loop().create_task(self._resume(waiting))

    async def _resume(self, waiting: list[Table]) -> None:
        for table in waiting:
            with contextlib.suppress(EasyMoneyError):  # one that cannot be made waits to be asked
                await self.ready(table)

    async def spectated(self, table: Table) -> str:
        """The table as a spectator sees it, as JSON text."""
        await self.ready(table)
        found = said(table, 0)
        if found is None:
            found = await self.work(table, lambda p: spectators_text(table, 0))
        return found[2]

    async def close(self) -> None:
        if self.resuming is not None:
            self.resuming.cancel()
            with contextlib.suppress(BaseException):
                await self.resuming
        for table in self.items.values():
            if table.driver is not None:
                table.driver.cancel()
                with contextlib.suppress(BaseException):
                    await table.driver
            if table.played is not None and table.played.worker is not None:
                table.played.worker.close()
        self.kept.close()

    # --- what the routes do ---------------------------------------------------------------
    async def open(self, params: dict[str, Any], sit: str, pace_ms: int) -> dict[str, Any]:
        """A new table; the creator's credential, and that of the seat they sit at."""
        from .games import parse_seats
        if sum(1 for t in self.items.values() if t.over is None) >= MAX_OPEN_TABLES:
            raise UsageError(f"this server has {MAX_OPEN_TABLES} tables being played: join one "
                             "from the lobby, or wait for one to end")
        if not PACE_MS[0] <= pace_ms <= PACE_MS[1]:
            raise UsageError(f"pace: {PACE_MS[0]} to {PACE_MS[1]} milliseconds between two "
                             f"bot decisions; found {pace_ms}")
        seats = parse_seats(params["players"], self.store.agents)
        people = [n for n in seats.names if n not in seats.bots]
        if sit and sit not in people:
            raise UsageError(f"sit: {sit[:40]!r} is not a person's seat at this table; the "
                             f"people's seats are {', '.join(people) or 'none (bots only)'}")
        creator = credential()
        table = Table(new_id(), params,
                      [{"name": n, "strategy": seats.strategies.get(n), "key": None,
                        "bot_from": 0 if n in seats.bots else None} for n in seats.names],
                      digest(creator), pace_ms / 1000, time.time(), 0, None)
        mine = None
        if sit:
            mine = credential()
            table.seat(sit)["key"] = digest(mine)
        worker = Worker()
        try:  # the game is made (and its variant checked) before the table is kept
            played = await worker.run(lambda: start_game(self.store, dict(
                params, players=players_text(table.seats)), confine=self.confinement(params)))
        except BaseException:
            worker.close()
            raise
        played.params = params
        played.worker = worker
        told(played)
        table.played = played
        try:
            self.kept.add(table)
        except NotWritten as exc:
            worker.close()
            raise NotWritten(f"{exc}: the table was not opened; try again") from None
        self.items[table.id] = table
        self.listed += 1
        self.drive(table)
        fragment = f"creator={creator}" + (f"&seat={mine}" if mine else "")
        return {"id": table.id, "url": f"/table/{table.id}", "link": f"/table/{table.id}#{fragment}",
                "seat": sit or None}

    def lobby(self) -> dict[str, Any]:
        tables = sorted(self.items.values(), key=lambda t: -t.created)
        return {"open": [t.lobby_entry() for t in tables if t.over is None],
                "finished": [t.lobby_entry() for t in tables if t.over is not None][:50]}

    def lobby_text(self) -> bytes:
        """The lobby as JSON, made once after each change it shows."""
        if self.listing is None or self.listing[0] != self.listed:
            self.listing = (self.listed, json.dumps(self.lobby(), ensure_ascii=False,
                                                    separators=(",", ":")).encode())
        return self.listing[1]

    async def join(self, table: Table, name: str) -> dict[str, Any]:
        """A free person's seat taken: its credential, given once, in its link."""
        seat = table.seat(name)
        if seat["strategy"] is not None:
            raise UsageError(f"{name} is a bot's seat ({seat['strategy']}): take a person's seat")
        if seat["key"] is not None:
            raise Stale(f"{name}'s seat is taken: take a free seat, or watch")
        if table.over is not None:
            raise UsageError("the game at this table is over: watch it or save its script")
        mine = credential()
        taken = [dict(s, key=digest(mine)) if s is seat else s for s in table.seats]
        try:  # written first: a seat the file does not hold is taken by nobody
            self.kept.seats(table.id, taken, table.changes + 1)
        except NotWritten as exc:
            raise NotWritten(f"{exc}: the seat was not taken; try again") from None
        seat["key"] = digest(mine)
        table.changes += 1
        self.changed(table)
        return {"link": f"/table/{table.id}#seat={mine}", "seat": name}

    async def seat_bot(self, table: Table, given: str, name: str, strategy: str) -> dict[str, Any]:
        """The creator gives a person's seat to a bot (the person left): its credential
        acts for nobody from now on, and the bot decides from the next step on."""
        from .games import agents_fit, parse_seats
        if not given or not table.is_creator(given):
            raise Forbidden("only the table's creator (the link they were given) may seat a bot")
        seat = table.seat(name)
        if seat["strategy"] is not None:
            raise UsageError(f"{name}'s seat is a bot's already ({seat['strategy']})")
        if table.over is not None:
            raise UsageError("the game at this table is over")
        # one seat's strategy, no more: `greedy Zed` read as a players line would seat a
        # fourth player Zed, whom no seat answers for, in the game made again from the file
        if not strategy or strategy.split() != [strategy] or strategy.startswith(":"):
            from ..strategies import available_strategies
            named = [*available_strategies(), *self.store.agents]
            raise UsageError(f"strategy: {strategy[:40]!r} is not one seat's strategy: name one "
                             f"of {', '.join(named)} (its options after a colon, no spaces: "
                             "mc:rollouts=64)")
        try:  # a program or a big search is refused here
            bots = parse_seats(f"{name}:{strategy}", self.store.agents)
        except UsageError as exc:
            raise UsageError("strategy: " + exc.message.removeprefix("players: ")) from None
        if bots.names != [name]:
            raise UsageError(f"strategy: {strategy[:40]!r} is not one seat's strategy")

        def give(played: Played) -> None:
            agents_fit(bots, played.state.game)  # a trained agent of another game: refused
            given = dict(seat, strategy=strategy, key=None, bot_from=played.state.steps)
            # written first: a failed write leaves the seat the person's
            self.kept.seats(table.id, [given if s is seat else s for s in table.seats],
                            table.changes + 1)
            seat.update(given)
            played.seats.bots[name] = bots.bots[name]
            played.seats.strategies[name] = strategy
            played.seats.agents.update(bots.agents)
            table.changes += 1
        await self.work(table, give, "the seat was not given to a bot")
        self.changed(table)
        return {"seat": name, "strategy": strategy}

    async def act(self, table: Table, given: str, version: int,
                  index: int | None, amount: int | None, line: str | None) -> dict[str, Any]:
        me = table.seat_of(given) if given else None
        if me is None:
            raise Forbidden("this link acts for no seat at this table: open your seat's own "
                            "link, or watch" if given else
                            "give your seat's credential (the part of your seat's link after #)")

        def work(played: Played) -> int:
            played.check(version)
            request = played.state.request
            if request is None:
                raise UsageError("the game is over: no move can be made")
            if request.player.name != me:
                raise Forbidden(f"it is {request.player.name}'s move, not {me}'s: wait for yours")
            if line is not None:
                action = played.line_action(line)
                if action.player.name != me:
                    raise Forbidden(f"the line is {action.player.name}'s, and this link is "
                                    f"{me}'s: type a line of your own")
                played.take(action)
            else:
                assert index is not None
                played.control(index, amount)
            return played.version
        version = await self.work(table, work)
        self.changed(table)
        return {"version": version}

    # --- a browser at the table ---------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        """Say `{"since": STAMP, "lines": N, "credential": ...}` once; then get the table
        whenever it is newer than what this browser has (`stamp`)."""
        await ws.accept()
        try:
            hello = json.loads(await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS))
            if not isinstance(hello, dict):
                raise ValueError
            since, lines = hello.get("since", -1), hello.get("lines", 0)
            given = hello.get("credential") or ""
            if type(since) is not int or type(lines) is not int or not isinstance(given, str):
                raise ValueError
        except (asyncio.TimeoutError, ValueError, KeyError, WebSocketDisconnect, RuntimeError):
            await self._close(ws, 1008, "say {\"since\": N, \"lines\": N, \"credential\": ...} first")
            return
        table = self.items.get(ws.path_params["id"])
        if table is None:
            await self._close(ws, 4404, "no such table on this server")
            return
        if len(table.listeners) >= MAX_LISTENERS:
            await self._close(ws, 4429, f"at most {MAX_LISTENERS} browsers at a table")
            return
        try:
            await self.ready(table)
        except EasyMoneyError as exc:
            await self._close(ws, 4422, exc.message[:120])
            return
        me = table.seat_of(given[:200]) if given else None
        if given and me is None:  # it acts for nobody; the browser watches
            await ws.send_json({"unknown_credential": "this link's credential acts for no seat at this "
                                "table (a wrong link, or the seat was given to a bot): you watch"})
        listener = Listener(asyncio.Event(), me)
        table.listeners.add(listener)
        heard = asyncio.ensure_future(ws.receive())
        lines = max(0, lines)
        try:
            while True:
                if table.played is None:  # put back after a write that failed
                    await self.ready(table)
                if table.stamp != since and table.played is not None:
                    ready = said(table, lines) if listener.me is None else None
                    if ready is not None:
                        since, lines, text = ready
                    else:
                        try:
                            since, lines, text = await self.work(table, lambda p: encoded(
                                table_view(table, listener.me, lines)) if listener.me is not None else
                                spectators_text(table, lines))
                        except (Stale, NotWritten):
                            continue  # the table was put back meanwhile: look again
                    await ws.send_text(text)
                woken = asyncio.ensure_future(listener.wake.wait())
                done, _ = await asyncio.wait({woken, heard}, return_when=asyncio.FIRST_COMPLETED)
                if heard in done:
                    woken.cancel()
                    if heard.result()["type"] == "websocket.disconnect":
                        return
                    heard = asyncio.ensure_future(ws.receive())  # a browser says nothing more
                listener.wake.clear()
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        except EasyMoneyError as exc:  # the table cannot be made again from the file
            await self._close(ws, 4422, exc.message[:120])
        finally:
            table.listeners.discard(listener)
            heard.cancel()

    @staticmethod
    async def _close(ws: WebSocket, code: int, reason: str) -> None:
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await ws.close(code, reason)


def script_withheld(table: Table) -> None:
    """The saved script holds the seed: a table being played with a secret one keeps it."""
    if table.secret:
        raise Forbidden("this table's script is given once its game is over: it holds the "
                        "table's secret seed, which foretells the dice")


def script_response(table: Table, text: str) -> Response:
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="table-{table.id}.game"'})

