"""``xueliu arena``: bots ranked on duplicate walls (:mod:`xueliu.arena`, docs/strength.md)."""

from __future__ import annotations

import argparse

__all__ = ["cmd_arena"]


def cmd_arena(args: argparse.Namespace) -> int:
    from .. import arena

    return arena.run_command(args)
