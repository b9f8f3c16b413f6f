"""`easymoney serve`: a local web application to play, watch and step through games."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..errors import UsageError


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="play, watch and step through games in a browser",
                       description="Serve a local web application: play a game against bots, "
                       "watch bots play, or step through a script or record with the board "
                       "beside it (see docs/web.md). Needs the web extra: "
                       "pip install 'easymoney-game[web]'.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a further name or address the page is opened by (repeatable); a "
                        "request naming any other host is refused (see docs/web.md, Safety)")
    p.add_argument("--root", default=".", metavar="DIR",
                   help="the folder whose scripts and variants the pages may open by path "
                        "(default: the current folder); nothing outside it is served")
    p.set_defaults(func=run)


def served_hosts(host: str, allowed: list[str]) -> list[str]:
    """The names a request may give in `Host`: the address listened on, this machine's
    loopback names, `--allow-host` names, and for every address (0.0.0.0) the host's name."""
    from ..web.app import LOOPBACK
    names = [host, *LOOPBACK, *allowed]
    if host in ("0.0.0.0", "::", ""):
        import socket
        names += [socket.gethostname(), socket.getfqdn()]
    return names


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port takes 0 to 65535; found {args.port}")
    if not os.path.isdir(args.root):
        raise UsageError(f"--root {args.root}: no such folder")
    from ..web import INSTALL_WEB
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError:
        raise UsageError(f"easymoney serve needs the web extra: {INSTALL_WEB}") from None
    app = create_app(args.root, hosts=served_hosts(args.host, args.allow_host),
                     port=args.port or None)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"easymoney serves {os.path.abspath(args.root)}: open http://{shown}:{args.port}/ "
          f"in a browser (Ctrl-C stops)", flush=True)
    server.run()
    return 0
