"""``xueliu serve``: bind the socket, run the app under uvicorn, print where it listens."""

from __future__ import annotations

import asyncio
import errno
import os
import socket
import sys
from typing import Optional, TextIO

import uvicorn

from . import store
from .app import Server
from .config import ServerConfig


def _more_files() -> None:
    """Every websocket is a file descriptor: raise the soft limit to the hard one (often 1024
    by default, too few for a thousand players)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass


def _sqlite_file(url: str) -> str:
    """`` PATH`` of a SQLite database URL, with why it cannot be opened when the file system
    shows it (its directory missing, not a directory, not writable); nothing for PostgreSQL (a
    URL that may hold a password is never printed) or SQLite in memory."""
    path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else ""
    if not path:
        return ""
    parent = os.path.dirname(os.path.abspath(path))
    existing = parent
    while not os.path.exists(existing) and os.path.dirname(existing) != existing:
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        why = f" ({existing} is not a directory)"
    elif existing != parent:
        why = f" (the directory {parent} does not exist)"
    elif os.path.isdir(path):
        why = " (it is a directory)"
    elif not os.access(parent, os.W_OK):
        why = f" (the directory {parent} is not writable)"
    else:
        why = ""
    return f" {path}{why}"


def serve(config: ServerConfig, out: Optional[TextIO] = None) -> int:
    """Runs one server process until SIGINT/SIGTERM (or ``config.stop_after``). The socket is
    bound before the app starts, so ``--port 0`` picks a free port and the printed address is
    the real one."""
    out = sys.stdout if out is None else out
    _more_files()
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((config.host, config.port))
        sock.listen(2048)
    except OSError as e:  # a busy port, a host that is not this machine's: say which
        sock.close()
        where = f"[{config.host}]" if family == socket.AF_INET6 else config.host
        busy = " (another process listens there: choose another --port, or --port 0 for a " \
            "free one)" if e.errno == errno.EADDRINUSE else ""
        raise ValueError(f"cannot listen on {where}:{config.port}: "
                         f"{e.strerror or e}{busy}") from None
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    address = f"http://{shown}:{port}"
    server = Server(config, address)
    try:  # before the app starts: a bad database is one line, not an ASGI startup traceback
        server.db.start(store.setup)
    except Exception as e:
        sock.close()
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ValueError(f"cannot open the {server.db.dialect} database"
                         f"{_sqlite_file(config.db)}: {first}") from None
    dialect = server.db.dialect
    server.ready.append(lambda: print(f"xueliu serve: listening on {address} (database: "
                                      f"{dialect})", file=out, flush=True))
    uv = uvicorn.Server(uvicorn.Config(
        server.app(), ws="websockets-sansio", ws_max_size=config.max_frame, log_level="warning",
        access_log=False,  # the websocket URL carries the token: never log it
        lifespan="on", timeout_graceful_shutdown=3, ws_ping_interval=20, ws_ping_timeout=20))
    if config.stop_after is not None:
        stop_after = config.stop_after

        def arm() -> None:
            asyncio.get_running_loop().call_later(stop_after, setattr, uv, "should_exit", True)
        server.ready.append(arm)
    uv.run(sockets=[sock])
    return 0 if uv.started else 1
