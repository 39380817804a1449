"""The wall's shuffle (RULES §2) against a plain Python reference: the native shuffle
(cpp/wall.cpp, ``xueliu.game.wall.shuffled_wall``) must give the same wall, bit for bit, and leave
the generator where the reference does, for any seed — the same seed is the same game on every
platform and in every version."""

from __future__ import annotations

from typing import List

from hypothesis import given, settings
from hypothesis import strategies as st

from xueliu.game.wall import SplitMix64, shuffled_wall


def reference_wall(rng: SplitMix64) -> List[int]:
    """Fisher–Yates over the sorted tiles, the choice for position i (107 down to 1) being digit i
    of a 640-bit integer read in mixed radix; the integer is ten draws, the first most
    significant. One big-integer division per digit: obviously the definition."""
    big = 0
    for _ in range(10):
        big = (big << 64) | rng.next()
    wall = [k for k in range(27) for _ in range(4)]
    for i in range(107, 0, -1):
        big, j = divmod(big, i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    return wall


@settings(max_examples=500, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_native_shuffle_is_the_reference_bit_for_bit(seed):
    native, reference = SplitMix64(seed), SplitMix64(seed)
    assert shuffled_wall(native) == reference_wall(reference)
    assert native.state == reference.state  # the dice are drawn next, from the same place


def test_a_wall_holds_four_of_each_kind_and_seeds_differ():
    walls = [shuffled_wall(SplitMix64(seed)) for seed in range(50)]
    for wall in walls:
        assert sorted(wall) == [k for k in range(27) for _ in range(4)]
    assert len({tuple(w) for w in walls}) == 50


def test_walls_of_two_seeds_are_pinned():
    """Fixed points across versions and platforms (what the Python shuffle of release 0.1 gave):
    the first twelve tiles, the dealer's first three takes."""
    assert shuffled_wall(SplitMix64(0))[:12] == [14, 21, 17, 24, 25, 13, 25, 8, 9, 23, 19, 20]
    assert shuffled_wall(SplitMix64(2**64 - 1))[:12] == [26, 5, 15, 14, 20, 13, 1, 4, 2, 3, 3, 24]
