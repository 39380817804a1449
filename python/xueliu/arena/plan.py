"""The arena's seating plan: which matches are played, and who sits where on each wall.

A *match* is "bot A in one seat against copies of bot B in the other seats" (three at the
default four-seat table, ``n - 1`` at a table of ``n``) over the same walls as every other match:
wall ``w`` of an arena with seed ``s`` is ``simulate``'s wall ``hand_seed(s, w)`` with the dealer
``w % n``, so every bot meets exactly the same tiles. Each wall is played ``n`` times with the
seats rotated (``simulate``'s duplicate seating: in play ``r`` of a wall, seat ``k`` holds entry
``(k + r) % n`` of the bots ``(A, B, ..., B)``), which puts A once in each seat.

Two modes:

- ``reference`` (the default): every bot A plays against three copies of the reference R
  (default ``greedy``). A = R is allowed: the reference against itself, which scores about 0.
- ``pairs``: every ordered pair of different bots (A, B) plays, so A meets three B's and B meets
  three A's on every wall.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Sequence, Tuple

__all__ = ["Match", "plan_matches", "candidate_seat", "MODES"]

MODES = ("reference", "pairs")


@dataclass(frozen=True)
class Match:
    """``bot`` (an index into the arena's bots, or ``-1`` for a reference not among them) in one
    seat against three copies of ``opponent``; ``seats`` the four bot specs of ``simulate``'s
    duplicate seating, the bot first."""

    bot: int
    opponent: int
    seats: Tuple[str, ...]  # one bot per seat: rules.players


def plan_matches(bots: Sequence[str], mode: str, reference: str, players: int = 4) -> List[Match]:
    """The matches of an arena, in a fixed order (bot by bot, then opponent by opponent)."""
    if mode not in MODES:
        raise ValueError(f"unknown arena mode {mode!r} (expected one of {', '.join(MODES)})")
    if mode == "reference":
        ref = bots.index(reference) if reference in bots else -1
        return [Match(i, ref, (b,) + (reference,) * (players - 1)) for i, b in enumerate(bots)]
    if len(bots) < 2:
        raise ValueError("all pairs needs at least two bots")
    return [Match(i, j, (a,) + (b,) * (players - 1)) for i, a in enumerate(bots) for j, b in enumerate(bots)
            if i != j]


def candidate_seat(play: int, players: int = 4) -> int:
    """The seat of the one-seat bot (entry 0) in play ``play`` (0..players - 1) of a wall:
    simulate's duplicate seating puts entry ``(seat + play) % players`` in ``seat``."""
    return (players - play) % players
