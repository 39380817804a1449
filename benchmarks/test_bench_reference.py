"""Timings of the pure-Python reference (tests/reference.py), so each core figure comes with a
speed-up ratio measured in the same run.

Hands: the core benchmark's random two-suit hands (numpy ``default_rng(2026)``, 100k hands of 14
tiles over two suits, at most 4 copies); the reference runs on a leading sample of them (it is
brute force). ``benchmark.extra_info["ns_per_hand"]`` holds the figure to quote.
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import reference as ref  # noqa: E402

N_HANDS = 100_000
SEED = 2026


def two_suit_hands(n: int = N_HANDS, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """(counts14 uint8[n, 27], counts13 uint8[n, 27]): each row 14 tiles drawn without replacement
    from the 72 physical tiles of two suits (so never a fifth copy); counts13 drops the last draw."""
    rng = np.random.default_rng(seed)
    left_out = rng.integers(0, 3, size=n)  # the suit not in play
    draws = np.argsort(rng.random((n, 72)), axis=1)[:, :14] // 4  # local kinds 0..17
    suit_pairs = np.array([[1, 2], [0, 2], [0, 1]])[left_out]  # the two suits in play
    kinds = np.take_along_axis(suit_pairs, draws // 9, axis=1) * 9 + draws % 9
    rows = np.repeat(np.arange(n), 14).reshape(n, 14)
    counts14 = np.zeros((n, 27), np.uint8)
    np.add.at(counts14, (rows, kinds), 1)
    counts13 = counts14.copy()
    np.subtract.at(counts13, (np.arange(n), kinds[:, 13]), 1)
    return counts14, counts13


def winning_two_suit_hands(n: int, seed: int = SEED) -> np.ndarray:
    """uint8[n, 27] complete 14-tile hands (pair + 4 random pungs/chows) over two suits."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        suits = rng.choice(3, size=2, replace=False)
        kinds = [s * 9 + r for s in suits for r in range(9)]
        counts = [0] * 27
        counts[rng.choice(kinds)] += 2
        for _ in range(4):
            k = int(rng.choice(kinds))
            tiles = (k, k, k) if rng.random() < 0.4 or k % 9 > 6 else (k, k + 1, k + 2)
            for t in tiles:
                counts[t] += 1
        if max(counts) <= 4:
            out.append(counts)
    return np.array(out, np.uint8)


@pytest.fixture(scope="module")
def hands():
    return two_suit_hands()


def _record(benchmark, n: int) -> None:
    benchmark.extra_info["hands"] = n
    benchmark.extra_info["ns_per_hand"] = benchmark.stats.stats.mean / n * 1e9


def test_reference_is_win(benchmark, hands):
    sample = [list(map(int, row)) for row in hands[0][:2000]]
    benchmark.pedantic(lambda: [ref.is_win(c) for c in sample], rounds=3, iterations=1)
    _record(benchmark, len(sample))


def test_reference_waits(benchmark, hands):
    sample = [list(map(int, row)) for row in hands[1][:2000]]
    benchmark.pedantic(lambda: [ref.waits(c) for c in sample], rounds=1, iterations=1)
    _record(benchmark, len(sample))


def test_reference_shanten(benchmark, hands):
    sample = [list(map(int, row)) for row in hands[0][:500]]
    benchmark.pedantic(lambda: [ref.shanten(c) for c in sample], rounds=1, iterations=1)
    _record(benchmark, len(sample))


def test_reference_evaluate(benchmark):
    """On complete hands (a random hand is almost never a win); xueliu preset, discard win."""
    sample = [list(map(int, row)) for row in winning_two_suit_hands(2000)]
    rules = ref.PRESETS["xueliu"]
    benchmark.pedantic(lambda: [ref.evaluate(c, rules=rules) for c in sample], rounds=3, iterations=1)
    _record(benchmark, len(sample))
