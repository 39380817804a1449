"""``xueliu serve``: the table server (the server extra; docs/server.md)."""

from __future__ import annotations

import argparse
from typing import Optional

from ..errors import CommandError

__all__ = ["cmd_serve", "window"]


def window(text: str) -> Optional[float]:
    """``--reconnect-window``: seconds, or ``none`` (never)."""
    return None if text.lower() == "none" else float(text)


def cmd_serve(args: argparse.Namespace) -> int:
    try:  # the server's libraries are the optional "server" extra
        from ..server import ServerConfig, serve
    except ImportError as e:
        raise CommandError(f"{e}; install the server extra: pip install \".[server]\" in the "
                           "clone") from None
    return serve(ServerConfig(
        host=args.host, port=args.port, db=args.db, time_scale=args.time_scale,
        starting_coins=args.starting_coins, reconnect_window=args.reconnect_window,
        bot_delay=args.bot_delay, auto_delay=args.auto_delay, lease=args.lease,
        ready_timeout=args.ready_timeout, human_exchange=args.human_exchange,
        human_void=args.human_void, human_turn=args.human_turn, human_claim=args.human_claim,
        stop_after=args.stop_after))
