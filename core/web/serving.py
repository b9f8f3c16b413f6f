"""How `easymoney serve` listens (docs/web.md, Limits): uvicorn over h11, with a deadline for
each request and a bound on the connections open at once.

uvicorn closes a connection that idles between two requests (`timeout_keep_alive`), but
none whose request never ends: a client that sends `GET / HTTP/1.1` and then a header line
every few seconds, never the blank line, holds its connection for ever, and its
`limit_concurrency` only counts such connections against the requests that do arrive. So
each connection here has REQUEST_SECONDS for a request (its headers and its body) to arrive
whole from the moment the server waits for it, or it is answered 408 and closed; and past
MAX_CONNECTIONS open at once (a table's socket is one) a new one is answered 503 and closed.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0  # for a request's headers and body to arrive whole
MAX_CONNECTIONS = 1000  # open at once: HTTP connections and tables' sockets
KEEP_ALIVE_SECONDS = 5  # a connection idle between two requests is closed after this
MAX_HEADER_BYTES = 16 * 1024  # a request's line and headers (h11's own default)

# their_state of a client whose request has not arrived whole
_WAITING = (h11.IDLE, h11.SEND_BODY)


def _refuse(transport: asyncio.BaseTransport, status: str, text: str) -> None:
    body = (text + "\n").encode()
    assert isinstance(transport, asyncio.WriteTransport)
    transport.write(f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n".encode() + body)
    transport.close()


def bounded_protocol(request_seconds: float = REQUEST_SECONDS,
                     max_connections: int = MAX_CONNECTIONS) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a deadline for each request and a bound on connections."""

    class Bounded(H11Protocol):
        deadline: asyncio.TimerHandle | None = None
        upgraded = False  # a table's socket now: its own protocol's

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                _refuse(transport, "503 Service Unavailable",
                        f"this server has {max_connections} connections open: try again soon")
                return
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._unwatch()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def handle_websocket_upgrade(self, event: Any) -> None:
            # the socket's protocol takes over the connection (its hello has a time-out of
            # its own): h11 still counts the request's end to come, so no clock from now on
            self.upgraded = True
            self._unwatch()
            # wsproto reads Host as IDNA before the app's Guard sees it: a byte that is not
            # ASCII (`127.0.0.1:\xb2`) ended in a traceback and a connection dropped unanswered
            host = dict(self.headers).get(b"host", b"")
            if not host.isascii():
                _refuse(self.transport, "400 Bad Request",
                        "the request's Host is not an address this server answers for")
                return
            try:
                super().handle_websocket_upgrade(event)
            except (UnicodeError, ValueError):  # any other header wsproto cannot read
                _refuse(self.transport, "400 Bad Request", "the socket's request is not one "
                        "this server reads: open the table from its own page")

        def _watch(self) -> None:
            """The clock starts when the server begins to wait for a request and stops once
            the request is whole: a byte that comes meanwhile does not move it on."""
            if self.upgraded or self.transport is None or self.transport.is_closing():
                return
            if self.conn.their_state in _WAITING:
                if self.deadline is None:
                    self.deadline = self.loop.call_later(request_seconds, self._too_slow)
            else:
                self._unwatch()

        def _unwatch(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self) -> None:
            self.deadline = None
            if self.upgraded or self.transport.is_closing():
                return
            if self.conn.our_state is h11.IDLE:  # nothing answered yet: say why it ends
                _refuse(self.transport, "408 Request Timeout",
                        f"the request did not arrive whole within {request_seconds:g} s")
            else:
                self.transport.close()

    return Bounded


class Server(uvicorn.Server):
    """uvicorn's server, which calls `listening()` once its sockets accept connections."""

    def __init__(self, config: uvicorn.Config, listening: Callable[[], None] = lambda: None) -> None:
        super().__init__(config)
        self.listening = listening

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self.listening()


def server(app: Any, host: str, port: int, listening: Callable[[], None] = lambda: None, *,
           request_seconds: float = REQUEST_SECONDS,
           max_connections: int = MAX_CONNECTIONS) -> Server:
    """The server of `easymoney serve` for `app`."""
    # ws="wsproto": the tables' sockets; no access log (a request line is never a secret
    # here, since a seat's credential follows a `#`, but there is no need to keep it)
    # log_config=None: uvicorn's own dictConfig would close every logging handler of the
    # process (`easymoney.cli.main` called in-process, as the tests do, lost its capture)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws="wsproto",
                            access_log=False, log_config=None,
                            http=bounded_protocol(request_seconds, max_connections),
                            timeout_keep_alive=KEEP_ALIVE_SECONDS,
                            h11_max_incomplete_event_size=MAX_HEADER_BYTES)
    return Server(config, listening)
