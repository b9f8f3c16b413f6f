"""The Starlette application of `easymoney serve`: pages, the JSON the pages use, uploads.

The game work runs on the event loop's thread: a GameState runs its game in a greenlet,
and a greenlet is switched to only from the thread that made it. A script stepped
through is run by the runner (no greenlet) in a worker thread.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import AsyncIterator
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import EasyMoneyError, UsageError
from .games import (Played, Replay, Store, new_id, rebuild, replay_script, safe_path,
                    start_game)
from .svg import board_svg

STATIC = str(files("easymoney.web") / "static")
MAX_BODY = (1 << 20) + 65536  # a script or a variant (1 MiB each, as on the command line)
MAX_FIELD = 4096
MAX_LIST = 64
MAX_HISTORY = 20_000  # lines of a game made again (each replayed on the event loop)


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


async def _json(request: Request) -> dict[str, Any]:
    try:
        value = json.loads(await _body(request))
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the body is not JSON") from None
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


def _int(value: Any, what: str, default: int | None = None) -> int:
    if value in (None, "") and default is not None:
        return default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 19:
        return int(value)
    if type(value) is int and abs(value) < 1 << 62:
        return value
    raise BadRequest(f"{what}: a whole number is expected")


def game_params(form: dict[str, Any]) -> dict[str, Any]:
    """The checked fields of the new-game form (the command line's --with/--without/--option)."""
    return {"variant": _text(form.get("variant"), "variant", "standard").strip() or "standard",
            "players": _text(form.get("players"), "players", "You Bot:greedy"),
            "seed": _int(form.get("seed"), "seed", 0),
            "enable": _list(form.get("enable"), "enable"),
            "disable": _list(form.get("disable"), "disable"),
            "options": _list(form.get("options"), "options")}


class App:
    """The routes, over one Store of games."""

    def __init__(self, root: str, store: Store | None = None) -> None:
        self.root = os.path.realpath(root)
        self.store = store or Store()

    # --- pages ------------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        return FileResponse(os.path.join(STATIC, "index.html"), media_type="text/html")

    async def variants(self, request: Request) -> Response:
        from ..bots import available_strategies
        from ..loading.loader import builtin_names
        return JSONResponse({"variants": builtin_names(),
                             "strategies": list(available_strategies())})

    # --- played and watched games -------------------------------------------------------------
    async def new_game(self, request: Request) -> Response:
        variant_file = None
        if request.headers.get("content-type", "").startswith("multipart/form-data"):
            if int(request.headers.get("content-length") or 0) > MAX_BODY:
                raise BadRequest(f"the request is too large: at most {MAX_BODY} bytes")
            async with request.form(max_files=1, max_fields=20) as form:
                fields = {k: v for k, v in form.items() if isinstance(v, str)}
                upload = form.get("variant_file")
                if upload is not None and not isinstance(upload, str) and upload.filename:
                    data = await upload.read(MAX_BODY + 1)
                    variant_file = os.path.join(self.store.uploads, new_id() + ".yaml")
                    with open(variant_file, "wb") as fh:
                        fh.write(data)
                    fields["variant"] = variant_file
        else:
            fields = await _json(request)
        params = game_params(fields)
        if variant_file is None and ("/" in params["variant"] or "\\" in params["variant"]
                                     or params["variant"].endswith((".yaml", ".yml"))):
            params["variant"] = safe_path(self.root, params["variant"])
        watch = bool(fields.get("watch"))
        try:
            played = start_game(self.store, params, watch=watch, variant_file=variant_file)
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
        if "/" in params["variant"] or params["variant"].endswith((".yaml", ".yml")):
            raise UsageError("a game of an uploaded variant cannot be made again: start it anew")
        history = _list(body.get("history"), "history") if isinstance(body.get("history"), str) \
            else body.get("history")
        if not isinstance(history, list) or len(history) > MAX_HISTORY or \
                not all(isinstance(h, str) and len(h) < MAX_FIELD for h in history):
            raise BadRequest("history: a list of script lines is expected")
        played = rebuild(self.store, params, history, watch=bool(body.get("watch")))
        self.store.add(played)
        return JSONResponse({"id": played.id})

    def _played(self, request: Request) -> Played:
        played = self.store.get(request.path_params["id"], Played)
        if played is None:
            raise LookupError("no such game (it may have expired): start a new one")
        return played

    def view(self, played: Played, since: int = 0) -> dict[str, Any]:
        state = played.state
        req = state.request
        board = played.board()
        return {"id": played.id, "watch": played.watch, "svg": board_svg(board),
                "request": req.describe() if req is not None else None,
                "asked": req.player.name if req is not None else None,
                "bot": played.bot_to_move(), "controls": played.controls(),
                "over": board.over, "steps": state.steps,
                "standings": [list(s) for s in state.standings()],
                "transcript": played.transcript[since:], "lines": len(played.transcript),
                "params": played.params, "history": state.history,
                "bots": played.seats.strategies}

    async def game(self, request: Request) -> Response:
        since = _int(request.query_params.get("since"), "since", 0)
        return JSONResponse(self.view(self._played(request), max(0, since)))

    async def act(self, request: Request) -> Response:
        played = self._played(request)
        body = await _json(request)
        since = _int(body.get("since"), "since", 0)
        if "line" in body:
            line = _text(body["line"], "line")
            if played.bot_to_move():
                raise UsageError("a bot is asked now: wait for its move")
            played.take(line)
        elif "index" in body:
            amount = body.get("amount")
            played.control(_int(body["index"], "index"),
                           None if amount is None else _int(amount, "amount"))
        else:
            raise BadRequest("give `line` (a script line) or `index` (a control)")
        return JSONResponse(self.view(played, max(0, since)))

    async def bot(self, request: Request) -> Response:
        played = self._played(request)
        body = await _json(request)
        played.bot_step()
        if played.finished:
            self.store.sweep()
        return JSONResponse(self.view(played, max(0, _int(body.get("since"), "since", 0))))

    async def undo(self, request: Request) -> Response:
        played = self._played(request)
        played.undo()
        # the transcript is the game's: an undone step's lines go with it
        played.transcript[:] = [t for t in (played.state.game.describe(e)
                                            for e in played.state.game.log) if t is not None]
        return JSONResponse(self.view(played))

    async def script(self, request: Request) -> Response:
        played = self._played(request)
        return Response(played.state.script(), media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{played.id}.game"'})

    # --- scripts stepped through -----------------------------------------------------------------
    async def new_replay(self, request: Request) -> Response:
        if request.headers.get("content-type", "").startswith("multipart/form-data"):
            if int(request.headers.get("content-length") or 0) > MAX_BODY:
                raise BadRequest(f"the request is too large: at most {MAX_BODY} bytes")
            async with request.form(max_files=1, max_fields=5) as form:
                upload = form.get("file")
                path = form.get("path")
                folder = ""
                if upload is not None and not isinstance(upload, str) and upload.filename:
                    name = os.path.basename(upload.filename)[:200] or "upload.game"
                    data = await upload.read(MAX_BODY + 1)
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
        frames, transcript, error = await run_in_threadpool(replay_script, name, data, self.root,
                                                            folder)
        replay = Replay(new_id(), name, frames, transcript, error)
        self.store.add(replay)
        return JSONResponse({"id": replay.id, "url": f"/step/{replay.id}"})

    def _read_path(self, relative: str) -> tuple[str, bytes]:
        from ..script.parser import MAX_SCRIPT_BYTES
        path = safe_path(self.root, relative)
        with open(path, "rb") as fh:
            return relative, fh.read(MAX_SCRIPT_BYTES + 1)

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


def create_app(root: str = ".", store: Store | None = None) -> Starlette:
    """The application serving the folder `root` (scripts and variants are read under it)."""
    app = App(root, store)

    def guarded(handler: Any) -> Any:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except BadRequest as exc:
                return _error(400, str(exc))
            except LookupError as exc:
                return _error(404, str(exc))
            except EasyMoneyError as exc:
                return _error(422, exc.located())
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
        Route("/api/replays", guarded(app.new_replay), methods=["POST"]),
        Route("/api/replays/{id}", guarded(app.replay)),
        Route("/api/replays/{id}/frame/{k}", guarded(app.frame)),
        Mount("/static", StaticFiles(directory=STATIC)),
        Route("/{mode:str}/{id:str}", _mode_page(app)),  # last: /api and /static first
    ]
    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:  # the uploaded variants go with the server
            app.store.close()

    web = Starlette(routes=routes, lifespan=lifespan)
    web.state.store = app.store
    return web


def _mode_page(app: App) -> Any:
    async def page(request: Request) -> Response:
        mode = request.path_params["mode"]
        if mode not in ("play", "watch", "step"):
            return _error(404, "no such page")
        name = "step.html" if mode == "step" else "play.html"
        return FileResponse(os.path.join(STATIC, name), media_type="text/html")
    return page
