"""`easymoney serve`: a local web application to play, watch and step through games."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import socket

from ..errors import UsageError

HELP = "play, watch and step through games in a browser"
DESCRIPTION = """Serve a local web application: play a game against bots,
watch bots play, or step through a script or record with the board
beside it (see docs/web.md). Needs the web extra:
pip install 'easymoney-game[web]'."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a further name or address the page is opened by (repeatable); a "
                             "request naming any other host is refused (see docs/web.md, Safety)")
    parser.add_argument("--root", default=".", metavar="DIR",
                        help="the folder whose scripts and variants the pages may open by path "
                             "(default: the current folder); nothing outside it is served")
    parser.add_argument("--db", metavar="FILE",
                        help="the SQLite file the tables and their games are kept in (default: "
                             "ROOT/.easymoney/tables.db); a server started again on it serves "
                             "every table as it was")
    parser.add_argument("--agent", action="append", default=[], metavar="NAME=FILE",
                        help="seat the trained agent saved in FILE (a policy:FILE strategy "
                             "file) as NAME: a visitor seats it as Bob:NAME, never by its path "
                             "(repeatable; each file is checked at start)")


def served_hosts(host: str, allowed: list[str]) -> list[str]:
    """The names a request may give in `Host`: the address listened on, this machine's
    loopback names, `--allow-host` names, and for every address (0.0.0.0) the host's name."""
    from ..web.app import LOOPBACK
    names = [host, *LOOPBACK, *allowed]
    if host in ("0.0.0.0", "::", ""):
        import socket
        names += [socket.gethostname(), socket.getfqdn()]
    return names


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port`, or one line saying why there is none (a port in
    use, an address not this machine's): said before anything claims the server is up."""
    import socket  # here: every command's start-up lists this module, few serve
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"--port {port}: {host}:{port} is in use (another server?): stop "
                             "it, or serve on another --port") from None
        raise UsageError(f"--host {host} --port {port}: cannot listen there: "
                         f"{exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


@contextlib.contextmanager
def hangup_stops(server: Any) -> Iterator[None]:
    """SIGHUP (the terminal closed) stops the server as Ctrl-C does, so that it cleans up
    (its uploaded variants go); then the process ends by SIGHUP all the same. Under nohup
    (SIGHUP ignored) it is still ignored."""
    heard: list[int] = []

    def hangup(signum: int, frame: FrameType | None) -> None:
        heard.append(signum)
        server.should_exit = True

    before = signal.getsignal(signal.SIGHUP)
    if before == signal.SIG_IGN:  # `nohup easymoney serve`: a hangup is not a stop
        yield
        return
    signal.signal(signal.SIGHUP, hangup)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)
    if heard:
        signal.raise_signal(signal.SIGHUP)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port takes 0 to 65535; found {args.port}")
    if not os.path.isdir(args.root):
        raise UsageError(f"--root {args.root}: no such folder")
    from ..web import INSTALL_WEB
    try:
        from ..web import serving
        from ..web.app import create_app
    except ImportError:
        raise UsageError(f"easymoney serve needs the web extra: {INSTALL_WEB}") from None
    agents = {}
    if args.agent:  # checked before the server claims its port: a bad file is one line
        from ..strategies import available_strategies
        from ..web.agents import read_agents
        agents = read_agents(args.agent, available_strategies())
    sock = listening(args.host, args.port)
    port = sock.getsockname()[1]  # --port 0: the one the system chose
    db = args.db or os.path.join(args.root, ".easymoney", "tables.db")
    try:
        app = create_app(args.root, hosts=served_hosts(args.host, args.allow_host), port=port,
                         db=db, agents=agents)
    except BaseException:
        sock.close()
        raise
    damaged = app.state.tables.kept.warning()
    if damaged:  # every other table is served
        print(damaged, file=sys.stderr, flush=True)
    shown = f"[{args.host}]" if ":" in args.host else args.host

    def announce() -> None:  # said once the socket accepts, not before
        print(f"easymoney serves {os.path.abspath(args.root)}: open http://{shown}:{port}/ "
              f"in a browser (Ctrl-C stops); tables kept in {db}", flush=True)
    server = serving.server(app, args.host, port, announce)
    try:
        with hangup_stops(server):
            server.run(sockets=[sock])
    finally:  # however it stopped, the uploaded variants go with it
        app.state.store.close()
        sock.close()
    return 0
