"""The Starlette application of `easymoney serve`: pages, the JSON the pages use, uploads.

What a request may make the server do is kept small (docs/web.md, Safety): `Guard` answers
only requests for the served address from its own pages, no seat starts a program, and
every file read is under the root (loading.Confinement).

A game played or watched is made, stepped and read in a thread of its own (games.Worker):
a GameState runs its game in greenlets, switched to only from the thread that made them,
and the event loop waits for none of it. A script stepped through is run by the runner
(no greenlet) in a worker thread.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import AsyncIterator, Callable, Iterable
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..errors import EasyMoneyError, UsageError
from ..loading.sources import Confinement, path_under
from .games import (Played, Refused, Replay, Result, Stale, Store, Worker, answer_text, new_id,
                    rebuild, replay_script, start_game)
from . import words
from .kept import Kept, NotWritten
from .svg import board_svg
from .tables import (DEFAULT_PACE_MS, Forbidden, Tables, script_response, script_withheld,
                     secret_seed)

STATIC = str(files("easymoney.web") / "static")
MAX_BODY = (1 << 20) + 65536  # a script or a variant (1 MiB each, as on the command line)
MAX_FIELD = 4096
MAX_LIST = 64
MAX_DECISIONS = 20_000  # of a game made again (each taken again, its bots' decided again)


class BadRequest(Exception):
    """Garbage from a client: answered 400, no game touched."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> bytes:
    size = int(request.headers.get("content-length") or 0)
    if size > MAX_BODY:
        raise BadRequest(f"the request is too large: at most {MAX_BODY} bytes")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise BadRequest(f"the request is too large: at most {MAX_BODY} bytes")
    return data


class Unsupported(BadRequest):
    """A body in a form the page never sends: answered 415."""


JSON = "application/json"
MULTIPART = "multipart/form-data"


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").partition(";")[0].strip().lower()


async def _json(request: Request) -> dict[str, Any]:
    # a page of another site may send text/plain or a form without asking first; JSON only
    # comes from a page's own script, which says so
    if _media_type(request) != JSON:
        raise Unsupported(f"send the body as {JSON} (the page's own requests do)")
    try:
        value = json.loads(await _body(request))
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the body is not JSON") from None
    except RecursionError:  # the page's bodies are flat; a deep one is garbage
        raise BadRequest("the body is not JSON the page sends: it is nested too deep") from None
    if not isinstance(value, dict):
        raise BadRequest("the body is not a JSON object")
    return value


def _text(value: Any, what: str, default: str = "") -> str:
    if value is None:
        return default
    if not isinstance(value, str) or len(value) > MAX_FIELD:
        raise BadRequest(f"{what}: a text of at most {MAX_FIELD} characters is expected")
    return value


def _list(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [v for v in value.replace(",", "\n").splitlines() if v.strip()]
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise BadRequest(f"{what}: a list of at most {MAX_LIST} texts is expected")
    return [_text(v, what).strip() for v in value]


_WHOLE = re.compile(r"-?[0-9]{1,18}")  # ASCII digits: int() also takes '²'-like digits, '_'


def _int(value: Any, what: str, default: int | None = None) -> int:
    if value in (None, "") and default is not None:
        return default
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value)
    if type(value) is int and abs(value) < 1 << 62:
        return value
    raise BadRequest(f"{what}: a whole number is expected")


def _version(body: dict[str, Any]) -> int:
    """The `version` of the view a request was made from (see Played.check)."""
    if "version" not in body:
        raise BadRequest("version: give the `version` of the view the page was drawn from")
    return _int(body["version"], "version")


def game_params(form: dict[str, Any]) -> dict[str, Any]:
    """The checked fields of the new-game form (the command line's --with/--without/--option)."""
    return {"variant": _text(form.get("variant"), "variant", "standard").strip() or "standard",
            "players": _text(form.get("players"), "players", "You Bot:greedy"),
            "seed": _int(form.get("seed"), "seed", 0),
            "enable": _list(form.get("enable"), "enable"),
            "disable": _list(form.get("disable"), "disable"),
            "options": _list(form.get("options"), "options")}


def _upload_name(filename: str) -> str:
    """An upload's name as errors and saved scripts show it: its base name, quotable."""
    name = os.path.basename(filename.replace("\\", "/"))[:200]
    name = "".join(ch for ch in name if ch.isprintable() and ch != '"')
    return name or "upload.yaml"


_UNKNOWN_RULE = re.compile(r"unknown rule:? (?:found )?'([^']{1,80})'")


def known_later(error: EasyMoneyError) -> EasyMoneyError:
    """`error`, if it names a rule unknown to this server, with what to do in one line: the
    server learns its plugins when it starts, so a plugin installed since (its entry point
    is there now) is known once the server is started again."""
    from importlib import invalidate_caches
    from importlib.metadata import entry_points
    from ..engine.registry import ENTRY_POINT_GROUP, discover
    found = _UNKNOWN_RULE.search(error.message)
    if found is None:
        return error
    rule = found.group(1)
    invalidate_caches()  # a folder's listing read before the plugin was installed
    known = set(discover().plugins)
    later = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in known)
    if rule in later:
        return UsageError(f"rule {rule!r} is a plugin installed after `easymoney serve` started: "
                          "start the server again (Ctrl-C, then `easymoney serve`) to play with it")
    return UsageError(f"{error.message}; a plugin installed after `easymoney serve` started is "
                      "known once the server is started again")


class App:
    """The routes, over one Store of games."""

    def __init__(self, root: str, store: Store | None = None, db: str | None = None,
                 address: str = "") -> None:
        self.root = os.path.realpath(root)
        self.store = store or Store()
        holder = f"pid {os.getpid()}" + (f", {address}" if address else "")
        self.tables = Tables(Kept(db or ":memory:", holder), self.store, self.confinement)

    def confinement(self, params: dict[str, Any]) -> Confinement:
        """Where the variant `params` names may be read from: a built-in name, or a YAML
        file under the root (each file of its `extends` chain too)."""
        return Confinement(self.root)

    # --- pages ------------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        return html_page("index.html")

    async def variants(self, request: Request) -> Response:
        from ..strategies import available_strategies
        from ..loading.loader import builtin_names
        return JSONResponse({"variants": builtin_names(),
                             "strategies": list(available_strategies()),
                             "agents": [a.describe() for a in self.store.agents.values()]})

    # --- played and watched games -------------------------------------------------------------
    async def new_game(self, request: Request) -> Response:
        variant_file = None
        upload_name = None
        if _media_type(request) == MULTIPART:
            if int(request.headers.get("content-length") or 0) > MAX_BODY:
                raise BadRequest(f"the request is too large: at most {MAX_BODY} bytes")
            async with request.form(max_files=1, max_fields=20) as form:
                fields = {k: v for k, v in form.items() if isinstance(v, str)}
                upload = form.get("variant_file")
                if upload is not None and not isinstance(upload, str) and upload.filename:
                    data = await upload.read(MAX_BODY + 1)
                    upload_name = _upload_name(upload.filename)
                    variant_file = os.path.join(self.store.uploads, new_id() + ".yaml")
                    with open(variant_file, "wb") as fh:
                        fh.write(data)
                    fields["variant"] = upload_name
        else:
            fields = await _json(request)
        params = game_params(fields)
        if variant_file is not None:
            params["uploaded"] = True
            # an upload extends the built-in variants only, and errors name it as sent
            confine = Confinement(None, top=variant_file, display=upload_name)
        else:
            confine = self.confinement(params)
        watch = bool(fields.get("watch"))
        try:
            played = await self._made(lambda: start_game(
                self.store, params, watch=watch, variant_file=variant_file, confine=confine,
                addressed=True))
        except EasyMoneyError as exc:
            if variant_file:
                os.unlink(variant_file)
            raise Answer(known_later(exc), quoting=upload_name) from None
        except BaseException:
            if variant_file:
                os.unlink(variant_file)
            raise
        self.store.add(played)
        return JSONResponse({"id": played.id, "url": f"/{'watch' if watch else 'play'}/{played.id}"})

    async def rebuild(self, request: Request) -> Response:
        body = await _json(request)
        given = body.get("params")
        params = game_params(given if isinstance(given, dict) else {})
        if isinstance(given, dict) and given.get("uploaded"):
            raise UsageError("a game of an uploaded variant cannot be made again: start it anew")
        decisions = body.get("decisions")
        if not isinstance(decisions, list) or len(decisions) > MAX_DECISIONS or \
                not all(isinstance(d, str) and len(d) < MAX_FIELD for d in decisions):
            raise BadRequest(f"decisions: a list of at most {MAX_DECISIONS:,} lines, the "
                             "game's decisions as its view gives them, is expected")
        watch, confine = bool(body.get("watch")), self.confinement(params)
        played = await self._made(lambda: rebuild(self.store, params, decisions, watch=watch,
                                                  confine=confine, addressed=True))
        self.store.add(played)
        return JSONResponse({"id": played.id})

    @staticmethod
    async def _made(make: Callable[[], Played]) -> Played:
        """The game `make()` makes, made in a thread of its own that does all its work."""
        worker = Worker()
        try:
            played = await worker.run(make)
        except BaseException:
            worker.close()
            raise
        played.worker = worker
        return played

    def _played(self, request: Request) -> Played:
        played = self.store.get(request.path_params["id"], Played)
        if played is None:
            raise LookupError("no such game (it may have expired): start a new one")
        return played

    @staticmethod
    async def _in_game(played: Played, work: Callable[[Played], Result]) -> Result:
        """`work(played)` in the game's own thread."""
        assert played.worker is not None  # the store holds games the app made
        return await played.worker.run(lambda: work(played))

    def view(self, played: Played, since: int = 0) -> dict[str, Any]:
        state = played.state
        req = state.request
        board = played.board()
        # the person at the page: the first seat no bot plays (None: bots only, watched)
        me = next((n for n in played.seats.names if n not in played.seats.bots), None)
        return {"id": played.id, "watch": played.watch, "svg": board_svg(board, me=me),
                "throw": words.motion(state), "prompt": words.prompt(state, me),
                "players": words.standings(state, me),
                "request": req.describe() if req is not None else None,
                "asked": req.player.name if req is not None else None,
                "bot": played.bot_to_move(), "controls": played.controls(),
                "refused": played.refused(),
                "over": board.over, "steps": state.steps,
                "ending": words.ending(state, me), "auction": words.auction(state),
                "standings": [list(s) for s in state.standings()],
                "transcript": played.transcript[since:], "lines": len(played.transcript),
                "params": played.params, "history": state.history, "version": played.version,
                "decisions": played.decisions,
                "bots": played.seats.strategies}

    async def game(self, request: Request) -> Response:
        played = self._played(request)
        since = max(0, _int(request.query_params.get("since"), "since", 0))
        return JSONResponse(await self._in_game(played, lambda p: self.view(p, since)))

    async def act(self, request: Request) -> Response:
        played = self._played(request)
        body = await _json(request)
        since = max(0, _int(body.get("since"), "since", 0))
        version = _version(body)
        if "line" in body:
            line = _text(body["line"], "line")

            def work(played: Played) -> dict[str, Any]:
                played.check(version)
                if played.bot_to_move():
                    raise UsageError("a bot is asked now: wait for its move")
                played.take_line(line)
                return self.view(played, since)
        elif "index" in body:
            amount = body.get("amount")
            index = _int(body["index"], "index")
            amount = None if amount is None else _int(amount, "amount")

            def work(played: Played) -> dict[str, Any]:
                played.check(version)
                played.control(index, amount)
                return self.view(played, since)
        else:
            raise BadRequest("give `line` (a script line) or `index` (a control)")
        return JSONResponse(await self._in_game(played, work))

    async def bot(self, request: Request) -> Response:
        played = self._played(request)
        body = await _json(request)
        since = max(0, _int(body.get("since"), "since", 0))
        version = _version(body)

        def work(played: Played) -> tuple[bool, dict[str, Any]]:
            played.check(version)
            played.bot_step()
            return played.finished, self.view(played, since)
        finished, view = await self._in_game(played, work)
        if finished:
            self.store.sweep()
        return JSONResponse(view)

    async def undo(self, request: Request) -> Response:
        played = self._played(request)
        version = _version(await _json(request))

        def work(played: Played) -> dict[str, Any]:
            played.check(version)
            played.undo()
            return self.view(played)
        return JSONResponse(await self._in_game(played, work))

    async def script(self, request: Request) -> Response:
        played = self._played(request)
        text = await self._in_game(played, lambda p: p.state.script())
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{played.id}.game"'})

    # --- scripts stepped through -----------------------------------------------------------------
    async def new_replay(self, request: Request) -> Response:
        sent = False  # an upload: its own lines may be quoted back in its errors
        if _media_type(request) == MULTIPART:
            if int(request.headers.get("content-length") or 0) > MAX_BODY:
                raise BadRequest(f"the request is too large: at most {MAX_BODY} bytes")
            async with request.form(max_files=1, max_fields=5) as form:
                upload = form.get("file")
                path = form.get("path")
                folder = ""
                if upload is not None and not isinstance(upload, str) and upload.filename:
                    name = _upload_name(upload.filename) if upload.filename else "upload.game"
                    data = await upload.read(MAX_BODY + 1)
                    sent = True
                elif isinstance(path, str) and path:
                    name, data = self._read_path(path)
                    folder = os.path.dirname(path)
                else:
                    raise BadRequest("give a script: `file` (an upload) or `path`")
        else:
            body = await _json(request)
            path = _text(body.get("path"), "path")
            name, data = self._read_path(path)
            folder = os.path.dirname(path)
        try:
            kept, error = await run_in_threadpool(
                replay_script, name, data, Confinement(self.root, folder=folder),
                name if sent else None)
        except Refused as exc:
            return _error(422, str(exc))
        replay = Replay(new_id(), name, kept.frames, kept.transcript, error, size=kept.bytes)
        self.store.add(replay)
        return JSONResponse({"id": replay.id, "url": f"/step/{replay.id}"})

    def _read_path(self, relative: str) -> tuple[str, bytes]:
        from ..script.parser import MAX_SCRIPT_BYTES
        path = path_under(self.root, relative, suffixes=(".game",))
        with open(path, "rb") as fh:
            return os.path.normpath(relative), fh.read(MAX_SCRIPT_BYTES + 1)

    def _replay(self, request: Request) -> Replay:
        replay = self.store.get(request.path_params["id"], Replay)
        if replay is None:
            raise LookupError("no such script (it may have expired): open it again")
        return replay

    async def replay(self, request: Request) -> Response:
        r = self._replay(request)
        return JSONResponse({"id": r.id, "name": r.name, "error": r.error,
                             "transcript": r.transcript,
                             "frames": [[f.turn, f.lines] for f in r.frames]})

    async def frame(self, request: Request) -> Response:
        r = self._replay(request)
        k = _int(request.path_params["k"], "frame")
        if not 0 <= k < len(r.frames):
            return _error(404, f"no frame {k}: the script has {len(r.frames)}")
        f = r.frames[k]
        return JSONResponse({"svg": board_svg(f.board), "turn": f.turn, "lines": f.lines})


    # --- tables: friends at one game (tables.py) -------------------------------------------------
    async def lobby(self, request: Request) -> Response:
        return Response(self.tables.lobby_text(), media_type="application/json")

    async def new_table(self, request: Request) -> Response:
        body = await _json(request)
        params = game_params(body)
        # a table's dice are not to be foreseen by its players: its seed is the server's
        # secret unless the creator gives one, which every seat is then told (tables.py)
        params["seeded"] = body.get("seed") not in (None, "")
        if not params["seeded"]:
            params["seed"] = secret_seed()
        sit = _text(body.get("sit"), "sit").strip()
        pace = _int(body.get("pace"), "pace", DEFAULT_PACE_MS)
        after = None
        if body.get("after") is not None:  # "Play again" at a finished table: who asks is at it
            after = self.tables.table(_text(body.get("after"), "after"))
            given = _text(body.get("credential"), "credential")
            by = after.seat_of(given) if given else None
            if by is None and not (given and after.is_creator(given)):
                raise Forbidden("only a person at that table may open its next game")
        try:
            opened = await self.tables.open(params, sit, pace)
        except EasyMoneyError as exc:
            raise known_later(exc) from None
        if after is not None and after.next is None:
            after.next = {"id": opened["id"], "url": opened["url"], "by": by or "The table's creator"}
            after.changes += 1  # a change every browser at it is sent
            self.tables.changed(after)
        return JSONResponse(opened)

    async def table(self, request: Request) -> Response:
        """The table as a spectator sees it (a seat's own view comes over its socket)."""
        table = self.tables.table(request.path_params["id"])
        return Response(await self.tables.spectated(table), media_type="application/json")

    async def join(self, request: Request) -> Response:
        table = self.tables.table(request.path_params["id"])
        body = await _json(request)
        return JSONResponse(await self.tables.join(table, _text(body.get("seat"), "seat")))

    async def seat_bot(self, request: Request) -> Response:
        table = self.tables.table(request.path_params["id"])
        body = await _json(request)
        strategy = _text(body.get("strategy"), "strategy", "greedy").strip() or "greedy"
        return JSONResponse(await self.tables.seat_bot(
            table, _text(body.get("creator"), "creator"), _text(body.get("seat"), "seat"),
            strategy))

    async def table_act(self, request: Request) -> Response:
        table = self.tables.table(request.path_params["id"])
        body = await _json(request)
        given = _text(body.get("credential"), "credential")
        version = _version(body)
        index = amount = line = None
        if "line" in body:
            line = _text(body["line"], "line")
        elif "index" in body:
            index = _int(body["index"], "index")
            amount = None if body.get("amount") is None else _int(body["amount"], "amount")
        else:
            raise BadRequest("give `line` (a script line) or `index` (a control)")
        return JSONResponse(await self.tables.act(table, given, version, index, amount, line))

    async def table_script(self, request: Request) -> Response:
        table = self.tables.table(request.path_params["id"])
        await self.tables.ready(table)  # whether its game is over
        script_withheld(table)
        return script_response(table, await self.tables.work(table, lambda p: p.state.script()))


class Answer(Exception):
    """An error to answer with, quoting a source line only of the file the person sent."""

    def __init__(self, error: EasyMoneyError, quoting: str | None = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.quoting = quoting


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def create_app(root: str = ".", store: Store | None = None, *,
               hosts: Iterable[str] = LOOPBACK, port: int | None = None,
               db: str | None = None, agents: dict[str, Any] | None = None) -> Starlette:
    """The application serving the folder `root` (scripts and variants are read under it),
    its tables kept in the SQLite file `db` (None: in memory only, gone with the server),
    seating the trained `agents` by name (web.agents.read_agents).

    It answers requests for `hosts` (names and addresses the server is reached by) on `port`
    (None: any), from pages of that same origin only (see Guard)."""
    hosts = list(hosts)
    shown = f"[{hosts[0]}]" if hosts and ":" in hosts[0] else (hosts or ["?"])[0]
    app = App(root, store, db, f"http://{shown}:{port}/" if port is not None else "")
    app.store.agents = dict(agents or {})

    def guarded(handler: Any) -> Any:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except Unsupported as exc:
                return _error(415, str(exc))
            except BadRequest as exc:
                return _error(400, str(exc))
            except LookupError as exc:
                return _error(404, str(exc))
            except Forbidden as exc:
                return _error(403, str(exc))
            except Stale as exc:
                return _error(409, str(exc))
            except NotWritten as exc:  # a full disk: nothing done, the table as it was
                return _error(503, str(exc))
            except Answer as exc:
                return _error(422, answer_text(exc.error, exc.quoting))
            except EasyMoneyError as exc:
                return _error(422, answer_text(exc))
        return run

    routes = [
        Route("/", app.page),
        Route("/api/variants", guarded(app.variants)),
        Route("/api/games", guarded(app.new_game), methods=["POST"]),
        Route("/api/games/rebuild", guarded(app.rebuild), methods=["POST"]),
        Route("/api/games/{id}", guarded(app.game)),
        Route("/api/games/{id}/act", guarded(app.act), methods=["POST"]),
        Route("/api/games/{id}/bot", guarded(app.bot), methods=["POST"]),
        Route("/api/games/{id}/undo", guarded(app.undo), methods=["POST"]),
        Route("/api/games/{id}/script", guarded(app.script)),
        Route("/api/tables", guarded(app.lobby)),
        Route("/api/tables", guarded(app.new_table), methods=["POST"]),
        Route("/api/tables/{id}", guarded(app.table)),
        Route("/api/tables/{id}/join", guarded(app.join), methods=["POST"]),
        Route("/api/tables/{id}/act", guarded(app.table_act), methods=["POST"]),
        Route("/api/tables/{id}/bot", guarded(app.seat_bot), methods=["POST"]),
        Route("/api/tables/{id}/script", guarded(app.table_script)),
        WebSocketRoute("/ws/tables/{id}", app.tables.socket),
        Route("/lobby", _page("lobby.html")),
        Route("/api/replays", guarded(app.new_replay), methods=["POST"]),
        Route("/api/replays/{id}", guarded(app.replay)),
        Route("/api/replays/{id}/frame/{k}", guarded(app.frame)),
        Mount("/static", StaticFiles(directory=STATIC)),
        Route("/{mode:str}/{id:str}", _mode_page(app)),  # last: /api and /static first
    ]
    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        app.tables.resume()
        try:
            yield
        finally:  # the uploaded variants go with the server; the tables stay in their file
            await app.tables.close()
            app.store.close()

    web = Starlette(routes=routes, lifespan=lifespan)
    web.state.store = app.store
    web.state.tables = app.tables
    web.add_middleware(Guard, hosts=hosts, port=port)
    return web


_PORT = re.compile(r"[0-9]{1,5}")


class Guard:
    """Answers only what the server's own pages send to the address it serves.

    A hostile page open in the same browser can send requests to 127.0.0.1 (a form posts
    without asking first), or reach it under a name of its own (DNS rebinding). So a
    request whose `Host` is not a name this server is reached by, or whose `Origin` (or
    `Sec-Fetch-Site`) says another site sent it, is refused before any route sees it.
    """

    def __init__(self, app: Any, hosts: Iterable[str], port: int | None) -> None:
        self.app = app
        self.hosts = {h.lower().strip("[]") for h in hosts}
        self.port = port

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope.get("headers", ())}
            refusal = self.refusal(headers)
            if refusal is not None:
                status, message = refusal
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await _error(status, message)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if not self._ours(host, default_port=80):
            shown = host[:80] or "none"
            return 400, (f"the request names host {shown!r}: this server answers for "
                         f"{', '.join(sorted(self.hosts))} only")
        origin = headers.get("origin")
        if origin is not None:
            scheme, _, rest = origin.partition("://")
            if scheme not in ("http", "https") or not self._ours(
                    rest, default_port=443 if scheme == "https" else 80):
                return 403, (f"a page of another site ({origin[:80]}) may not use this server: "
                             "open it at its own address")
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "a page of another site may not use this server: open it at its own address"
        return None

    def _ours(self, authority: str, default_port: int) -> bool:
        """Whether `authority` (HOST[:PORT]) is this server's."""
        if not authority or "/" in authority or "@" in authority:
            return False
        if authority.startswith("["):
            name, _, rest = authority[1:].partition("]")
            port_text = rest[1:] if rest.startswith(":") else ("" if not rest else "x")
        else:
            name, _, port_text = authority.partition(":")
        # ASCII digits only: str.isdigit() and int() also take '²' and the like, which
        # int() then refuses (or reads as another number)
        if name.lower() not in self.hosts or port_text and not _PORT.fullmatch(port_text):
            return False
        if self.port is None:
            return True
        return (int(port_text) if port_text else default_port) == self.port


_PAGES: dict[str, tuple[int, bytes]] = {}  # a page's file: its mtime, its bytes


def html_page(name: str) -> Response:
    """A page of static/, held in memory while its file is unchanged: a file answer is read
    in a thread of Starlette's pool, which waits its turn behind the tables' own threads."""
    path = os.path.join(STATIC, name)
    mtime = os.stat(path).st_mtime_ns
    held = _PAGES.get(name)
    if held is None or held[0] != mtime:
        with open(path, "rb") as fh:
            held = _PAGES[name] = (mtime, fh.read())
    return Response(held[1], media_type="text/html")


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return html_page(name)
    return page


def _mode_page(app: App) -> Any:
    async def page(request: Request) -> Response:
        mode = request.path_params["mode"]
        if mode not in ("play", "watch", "step", "table"):
            return _error(404, "no such page")
        name = {"step": "step.html", "table": "table.html"}.get(mode, "play.html")
        return html_page(name)
    return page
