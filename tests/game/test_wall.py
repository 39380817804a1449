"""The wall's shuffle, the dice and the deal (docs/rules.md §2) against plain Python references: the native
code (cpp/wall.cpp: ``xueliu.game.wall.shuffled_wall``, ``xueliu.game.deal.roll`` and ``deal``)
must give the same wall, dice and hands, bit for bit, and leave the generator where the reference
does, for any seed — the same seed is the same game on every platform and in every version."""

from __future__ import annotations

from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xueliu.game.deal import deal, roll
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


def reference_roll(seed: int) -> tuple:
    """wall, dice, exchange die, exchange pick: the shuffle, then the generator's own ``die`` and
    ``below`` (Python, rejection sampling), in this order."""
    rng = SplitMix64(seed)
    wall = reference_wall(rng)
    return wall, (rng.die(), rng.die()), rng.die(), rng.below(3)


def reference_deal(wall: List[int], dealer: int) -> List[List[int]]:
    """Twelve takes of four from the dealer on, two more to the dealer, one to each other seat."""
    hands = [[0] * 27 for _ in range(4)]
    order = [(dealer + take) % 4 for take in range(12) for _ in range(4)]
    order += [dealer, dealer] + [(dealer + 1 + i) % 4 for i in range(3)]
    for seat, k in zip(order, wall):
        hands[seat][k] += 1
    return hands


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3))
def test_native_roll_and_deal_are_the_references(seed, dealer):
    wall, dice, die, pick = roll(seed, None)
    assert (wall, dice, die, pick) == reference_roll(seed)
    assert 1 <= min(dice) and max(dice) <= 6 and 1 <= die <= 6 and 0 <= pick <= 2
    hands = deal(wall, dealer)
    assert [list(h) for h in hands] == reference_deal(wall, dealer)
    assert [sum(h) for h in hands] == [14 if q == dealer else 13 for q in range(4)]
    # A given wall is not drawn: the dice come first from the same seed.
    given_wall, given_dice, given_die, given_pick = roll(seed, list(reversed(wall)))
    rng = SplitMix64(seed)
    assert given_wall == list(reversed(wall))
    assert (given_dice, given_die, given_pick) == ((rng.die(), rng.die()), rng.die(), rng.below(3))


def test_deal_refuses_a_bad_wall():
    wall = roll(1, None)[0]
    for bad, error in [(wall[:-1], ValueError), (wall[:-1] + [27], ValueError),
                       (wall[:-1] + ["1m"], ValueError), ("1m" * 108, TypeError)]:
        with pytest.raises(error):
            deal(bad, 0)
    with pytest.raises(ValueError):
        deal(wall, 4)
