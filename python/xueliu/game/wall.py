"""The wall: our own portable PRNG, the shuffle, the dice and the physical layout (docs/rules.md §2).

Same seed ⇒ same wall and dice on every platform: the stream is splitmix64 on Python ints (never
``random`` or ``hash()``). The shuffle is an exact Fisher–Yates driven by one 640-bit integer read
in mixed radix, so it does not depend on float rounding or on library versions (the shuffle runs
in the native core, cpp/wall.cpp, bit for bit the same).

>>> len(shuffled_wall(SplitMix64(7)))
108
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .. import _core
from ..rules import Shape

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """The splitmix64 finaliser: a bijective 64-bit mix."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


class SplitMix64:
    """splitmix64 (Steele, Lea, Flood 2014): a tiny generator whose stream we fully control."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & _M64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A uniform int in ``range(n)`` (rejection sampling: exact)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            r = self.next()
            if r < limit:
                return r % n

    def die(self) -> int:
        return self.below(6) + 1


def hash_seed(*parts: int) -> int:
    """Our own hash of a tuple of ints into a 64-bit seed (for per-hand seeds of a match)."""
    h = 0x6A09E667F3BCC909
    for p in parts:
        h = mix64(((h ^ (p & _M64)) + _GOLDEN) & _M64)
        h = mix64(h ^ ((p >> 64) & _M64))  # keeps big seeds distinct
    return h


def seed_from_tiles(tiles: Sequence[int]) -> int:
    """A seed for the dice of a scripted wall given without a seed."""
    return hash_seed(*tiles)


def shuffled_wall(rng: SplitMix64) -> List[int]:
    """The 108 kinds in draw order: Fisher–Yates over the sorted tiles whose choice for position
    ``i`` (107 down to 1) is digit ``i`` of one 640-bit integer read in mixed radix (``j = x %
    (i + 1)``, then ``x //= i + 1``); the integer is ten draws of ``rng``, the first the most
    significant (log2(108!) ≈ 570 bits, so the bias is below 2**-70). Native (cpp/wall.cpp: most
    of a new hand's cost in Python); tests/game/test_wall.py holds it to a plain Python
    reference."""
    wall, rng.state = _core.shuffled_wall(rng.state)
    return wall


# Physical wall (docs/rules.md §2, seed 000): 54 stacks of two; the dealer's wall (east) and the opposite
# one hold 13 stacks, the two others 14. Other shapes (docs/rules.md §11.1): the T/2 stacks split into n
# walls as evenly as possible, the walls counted from the dealer taking one more stack first.
def wall_stacks(shape: Optional[Shape] = None) -> Tuple[int, ...]:
    """Stacks in front of each wall, by the wall's offset from the dealer (0: the dealer's).

    >>> from xueliu.rules import Rules
    >>> wall_stacks(), wall_stacks(Rules.preset("sanren_liangfang").shape)
    ((13, 14, 13, 14), (12, 12, 12))
    """
    if shape is None or (shape.players == 4 and shape.wall_tiles == 108):
        return (13, 14, 13, 14)  # §2 as the seeds describe it (§11.1: defaults give back §2)
    n, stacks = shape.players, shape.wall_tiles // 2
    return tuple(stacks // n + (1 if i < stacks % n else 0) for i in range(n))


def stacks_in_front_of(seat: int, dealer: int, shape: Optional[Shape] = None) -> int:
    walls = wall_stacks(shape)
    return walls[(seat - dealer) % len(walls)]


def break_point(dealer: int, dice: Tuple[int, int],
                shape: Optional[Shape] = None) -> Tuple[int, int]:
    """(wall seat, stack) where the wall is broken: the dice sum counts seats from the dealer as 1
    in turn order (modulo the seats, docs/rules.md §11.1), then that many stacks from the right end of
    the chosen seat's wall (past its end onto the next walls, when a small wall is shorter)."""
    walls = wall_stacks(shape)
    n = len(walls)
    total = dice[0] + dice[1]
    seat, stack = (dealer + total - 1) % n, total
    while stack >= walls[(seat - dealer) % n]:
        stack -= walls[(seat - dealer) % n]
        seat = (seat + 1) % n
    return seat, stack


def physical_layout(dealer: int, dice: Tuple[int, int],
                    shape: Optional[Shape] = None) -> List[Tuple[int, int, int]]:
    """For draw-order position ``i`` (0..wall_tiles - 1) the ``(wall seat, stack index from that
    wall's right end, layer 0 top / 1 bottom)``. Live draws run from the break point in turn
    order; the back end (``kong_draw_from = "back"``) is the other side of the break."""
    walls = wall_stacks(shape)
    n = len(walls)
    seat, stack = break_point(dealer, dice, shape)
    # Stacks in drawing order: from the break, the rest of the chosen wall, then the next walls.
    order: List[Tuple[int, int]] = []
    s = seat
    for w in range(n + 1):
        size = walls[(s - dealer) % n]
        start = stack if w == 0 else 0
        end = size if w < n else stack
        order.extend((s, k) for k in range(start, end))
        s = (s + 1) % n
    positions: List[Tuple[int, int, int]] = []
    for wall_seat, k in order:
        positions.append((wall_seat, k, 0))
        positions.append((wall_seat, k, 1))
    return positions
