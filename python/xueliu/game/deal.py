"""The wall, the dice and the deal (docs/rules.md §2, §10 "Deal and phases").

>>> wall, dice, exchange_die, exchange_pick = roll(7, None)
>>> [sum(h) for h in deal(wall, dealer=0)]
[14, 13, 13, 13]
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .. import _core
from ..rules import Shape
from ..tiles import HONGZHONG, PHYSICAL_NAMES
from .wall import SplitMix64, hash_seed, seed_from_tiles

_RED_NAMES = ("7z", "中", "红中")


def parse_wall(wall: Sequence[str], shape: Optional[Shape] = None, extra_wilds: int = 0
               ) -> List[int]:
    """The kinds of a wall given as tile names, checked: four of each kind in play, so 108 tiles
    at the default table (``shape`` None), ``shape.wall_tiles`` otherwise (docs/rules.md §11.1: a tile
    of a suit not in play is refused, naming it), and exactly ``extra_wilds`` 红中 (``7z``, kind 27,
    docs/rules.md §12.1)."""
    size = 108 + extra_wilds if shape is None else shape.wall_tiles
    in_play = set(range(27)) if shape is None else set(shape.kinds)
    if extra_wilds:
        in_play.add(HONGZHONG)
    if isinstance(wall, (str, bytes)):
        raise ValueError(f"wall must be a sequence of {size} tile names, not one string")
    index = {n: k for k, n in enumerate(PHYSICAL_NAMES)}
    index.update((n, HONGZHONG) for n in _RED_NAMES)
    kinds = []
    for i, t in enumerate(wall):
        k = index.get(t) if isinstance(t, str) else None
        if k is None:
            raise ValueError(f"wall[{i}] is not a tile name: {t!r}")
        if k not in in_play:
            raise ValueError(f"wall[{i}] is {t}, " + (
                "红中, but these rules add no red dragons (extra_wilds 0)" if k == HONGZHONG
                else "a tile of a suit not in play"))
        kinds.append(k)
    if len(kinds) != size:
        raise ValueError(f"a wall holds {size} tiles, got {len(kinds)}")
    counts = [0] * 28
    for k in kinds:
        counts[k] += 1
    for k in sorted(in_play):
        if k == HONGZHONG and counts[k] != extra_wilds:
            raise ValueError(f"a wall holds {extra_wilds} 红中 (extra_wilds), got {counts[k]}")
        if k != HONGZHONG and counts[k] != 4:
            raise ValueError(f"a wall holds four of each tile, got {counts[k]} of "
                             f"{PHYSICAL_NAMES[k]}")
    return kinds


def roll(seed: Optional[int], wall: Optional[List[int]], shape: Optional[Shape] = None,
         extra_wilds: int = 0) -> Tuple[List[int], Tuple[int, int], int, int]:
    """(wall, dice, exchange die, exchange pick) of a hand: the wall shuffled from ``seed`` unless
    given, then the two dice, the die of ``exchange_direction = "dice"`` and the pick of
    ``"random"``. The generator is read in this one order whatever the knobs, so a seed means
    one game. (The native core draws them: cpp/wall.cpp, the same stream as
    :class:`~xueliu.game.wall.SplitMix64`.)

    With fewer suits in play (``shape``, docs/rules.md §11.1) the wall is the shuffled 108 with the tiles
    of the other suits taken out: the order a uniform shuffle gives a subset is itself uniform,
    and the stream (dice, exchange draws) stays the one a seed always reads.

    ``extra_wilds`` 红中 (docs/rules.md §12.1) join a shuffled wall one by one, each at a uniform
    place among the tiles so far (which keeps the whole order uniform), drawn from a second
    generator keyed by the seed: the main stream, and so the dice, stay the seed's."""
    state = SplitMix64(seed if seed is not None else seed_from_tiles(wall or [])).state
    shuffled, die1, die2, exchange_die, exchange_pick = _core.roll(state, wall is None)
    if wall is None:
        assert shuffled is not None  # drawn when asked for
        wall = shuffled
        if shape is not None and len(shape.suits) < 3:
            in_play = shape.suit_indices
            wall = [k for k in wall if k // 9 in in_play]
        if extra_wilds:
            places = SplitMix64(hash_seed(seed or 0, HONGZHONG))
            for _ in range(extra_wilds):
                wall.insert(places.below(len(wall) + 1), HONGZHONG)
    return wall, (die1, die2), exchange_die, exchange_pick


def deal(wall: Sequence[int], dealer: int, shape: Optional[Shape] = None) -> List[bytearray]:
    """The hands as count vectors (a ``bytearray`` each: cheap to copy for the core), by seat.
    At the default table (``shape`` None or ``shape.is_default``): ``wall[0:48]`` in twelve
    takes of 4 from the dealer on, ``wall[48:50]`` to the dealer (跳牌), ``wall[50:53]`` one each
    to the others (native: cpp/wall.cpp). Any other shape follows its ``deal_plan`` (docs/rules.md §11.1,
    :func:`deal_by_plan`); live draws then start at ``shape.dealt_tiles``."""
    if shape is None or shape.is_default:
        return _core.deal(wall, dealer)
    return deal_by_plan(wall, dealer, shape)


def deal_by_plan(wall: Sequence[int], dealer: int, shape: Shape, kinds: int = 27
                 ) -> List[bytearray]:
    """The deal of docs/rules.md §11.1 read straight off ``shape.deal_plan``: each take of ``n`` tiles goes
    to the seat ``dealer + offset`` (mod the seats), in wall order. The definition the native
    four-seat deal is tested against. ``kinds`` 28: counts of the physical kinds of a table with
    wild tiles (27 is 红中, docs/rules.md §12)."""
    n = shape.players
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
    if len(wall) < shape.dealt_tiles:
        raise ValueError(f"the deal needs {shape.dealt_tiles} tiles, the wall has {len(wall)}")
    hands = [bytearray(kinds) for _ in range(n)]
    at = 0
    for offset, take in shape.deal_plan:
        seat = (dealer + offset) % n
        for k in wall[at:at + take]:
            hands[seat][k] += 1
        at += take
    return hands
