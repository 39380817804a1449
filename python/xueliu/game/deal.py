"""The wall, the dice and the deal (RULES §2, §10 "Deal and phases").

>>> wall, dice, exchange_die, exchange_pick = roll(7, None)
>>> [sum(h) for h in deal(wall, dealer=0)]
[14, 13, 13, 13]
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .. import _core
from ..tiles import TILE_NAMES
from .wall import SplitMix64, seed_from_tiles


def parse_wall(wall: Sequence[str]) -> List[int]:
    """The kinds of a wall given as 108 tile names (four of each), checked."""
    if isinstance(wall, (str, bytes)):
        raise ValueError("wall must be a sequence of 108 tile names, not one string")
    index = {n: k for k, n in enumerate(TILE_NAMES)}
    kinds = []
    for i, t in enumerate(wall):
        k = index.get(t) if isinstance(t, str) else None
        if k is None:
            raise ValueError(f"wall[{i}] is not a tile name: {t!r}")
        kinds.append(k)
    if len(kinds) != 108:
        raise ValueError(f"a wall holds 108 tiles, got {len(kinds)}")
    counts = [0] * 27
    for k in kinds:
        counts[k] += 1
    for k, c in enumerate(counts):
        if c != 4:
            raise ValueError(f"a wall holds four of each tile, got {c} of {TILE_NAMES[k]}")
    return kinds


def roll(seed: Optional[int], wall: Optional[List[int]]
         ) -> Tuple[List[int], Tuple[int, int], int, int]:
    """(wall, dice, exchange die, exchange pick) of a hand: the wall shuffled from ``seed`` unless
    given, then the two dice, the die of ``exchange_direction = "dice"`` and the pick of
    ``"random"``. The generator is read in this one order whatever the knobs, so a seed means
    one game. (The native core draws them: cpp/wall.cpp, the same stream as
    :class:`~xueliu.game.wall.SplitMix64`.)"""
    state = SplitMix64(seed if seed is not None else seed_from_tiles(wall or [])).state
    shuffled, die1, die2, exchange_die, exchange_pick = _core.roll(state, wall is None)
    if wall is None:
        assert shuffled is not None  # drawn when asked for
        wall = shuffled
    return wall, (die1, die2), exchange_die, exchange_pick


def deal(wall: Sequence[int], dealer: int) -> List[bytearray]:
    """The four hands as count vectors (a ``bytearray`` each: cheap to copy for the core):
    ``wall[0:48]`` in twelve takes of 4 from the dealer on, ``wall[48:50]`` to the dealer (跳牌),
    ``wall[50:53]`` one each to the others (native: cpp/wall.cpp)."""
    return _core.deal(wall, dealer)
