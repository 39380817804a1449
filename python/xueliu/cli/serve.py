"""``xueliu serve``: the table server (the server extra; docs/server.md)."""

from __future__ import annotations

import argparse
import os
from typing import Optional

from ..errors import CommandError
from .common import rules_from_args, rules_given

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
    house = rules_from_args(args) if rules_given(args) else None
    if house is not None:
        from ..game import new_game

        try:  # the rules of every house table: refused now, not at each table's creation
            new_game(house, seed=0)
        except (TypeError, ValueError) as e:
            raise CommandError(f"these house rules cannot deal a hand: {e}") from None
    return serve(ServerConfig(
        host=args.host, port=args.port, db=args.db, time_scale=args.time_scale,
        starting_coins=args.starting_coins, reconnect_window=args.reconnect_window,
        bot_delay=args.bot_delay, auto_delay=args.auto_delay, lease=args.lease,
        ready_timeout=args.ready_timeout, human_exchange=args.human_exchange,
        human_void=args.human_void, human_turn=args.human_turn, human_claim=args.human_claim,
        stop_after=args.stop_after, deal_seed=args.deal_seed, house_rules=house,
        house_source="" if house is None else _house_source(args)))


def _house_source(args: argparse.Namespace) -> str:
    """Where the house rules came from, as ``GET /api/presets`` shows it: the options that made
    them (``xueliu serve --preset xuezhan --knob max_fan=6``; a file by its name alone)."""
    words = ["xueliu serve"]
    if args.preset:
        words.append(f"--preset {args.preset}")
    if args.rules_file:
        words.append(f"--rules {os.path.basename(args.rules_file)}")
    words.extend(f"--knob {k.strip()}" for k in args.knobs)
    return " ".join(words)
