"""``xueliu simulate``: many hands played by bots, summarised (:mod:`xueliu.simulate`)."""

from __future__ import annotations

import argparse

__all__ = ["cmd_simulate"]


def cmd_simulate(args: argparse.Namespace) -> int:
    from .. import simulate

    return simulate.run_command(args)
