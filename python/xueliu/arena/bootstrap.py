"""A 95 % interval for the ratings: a bootstrap that resamples walls, not comparisons.

The comparisons of one wall are not independent (every match plays that wall, and in ``pairs``
mode A-against-three-B and B-against-three-A share it), so a replicate draws W walls with
replacement and keeps *every* match's result on each drawn wall: the wall stays one cluster, as
in the mean's interval. Each replicate is refitted (:func:`.rating.fit_bradley_terry`, the same
prior) and put on the same scale (the anchor at 0, or the mean at 0); the interval is the 2.5th
and 97.5th percentile of a bot's rating over the replicates (nearest rank).

The draws come from splitmix64 on a counter (no ``random`` module, no NumPy generator whose
stream could change between versions), seeded from the arena's seed, so the interval is the same
on every run and any worker count.
"""

from __future__ import annotations

import hashlib
import math
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .rating import elo, fit_bradley_terry

__all__ = ["bootstrap_ratings", "REPLICATES", "draw_walls"]

REPLICATES = 200
"""Replicates of the rating interval (its percentiles are the 5th and 195th of 200 sorted)."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def draw_walls(seed: int, replicate: int, walls: int) -> np.ndarray:
    """How often each of ``walls`` walls is drawn in replicate ``replicate`` (``walls`` draws with
    replacement, splitmix64 on the counter ``replicate * walls + k``)."""
    digest = hashlib.blake2b(f"xueliu-arena-bootstrap:{seed}".encode(), digest_size=8).digest()
    base = np.uint64(int.from_bytes(digest, "big"))
    counter = np.arange(replicate * walls + 1, (replicate + 1) * walls + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = base + counter * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    picks = (z % np.uint64(walls)).astype(np.int64)
    return np.bincount(picks, minlength=walls)


def _points(strengths: Sequence[float], anchor: Optional[int]) -> List[float]:
    if anchor is not None:
        return elo(strengths, anchor)
    points = elo(strengths, 0)
    mean = math.fsum(points) / len(points)
    return [p - mean for p in points]


def bootstrap_ratings(players: int, outcomes: Sequence[Tuple[int, int, Sequence[float]]],
                      anchor: Optional[int], seed: int, walls: int,
                      replicates: int = REPLICATES) -> List[Tuple[float, float]]:
    """The 95 % interval of each player's rating. ``outcomes``: per match (player a, player b,
    a's score on each wall: 1 won, ½ drawn, 0 lost)."""
    scores = [(a, b, np.asarray(s, dtype=np.float64)) for a, b, s in outcomes]
    samples: List[List[float]] = [[] for _ in range(players)]
    for r in range(replicates):
        mult = draw_walls(seed, r, walls).astype(np.float64)
        wins: Dict[Tuple[int, int], float] = {}
        for a, b, s in scores:
            won = float(mult @ s)
            wins[(a, b)] = wins.get((a, b), 0.0) + won
            wins[(b, a)] = wins.get((b, a), 0.0) + float(walls) - won
        for i, p in enumerate(_points(fit_bradley_terry(players, wins, tol=1e-9), anchor)):
            samples[i].append(p)
    lo_rank = max(0, math.ceil(0.025 * replicates) - 1)
    hi_rank = min(replicates - 1, math.ceil(0.975 * replicates) - 1)
    out = []
    for ratings in samples:
        ratings.sort()
        out.append((ratings[lo_rank], ratings[hi_rank]))
    return out
