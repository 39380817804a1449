"""Shared benchmark inputs: fixed-seed batches of random two-suit hands (numpy, _core layout).

Every figure is per hand, one thread: ``ns_per_hand`` in ``benchmark.extra_info`` is the fastest
round divided by the batch size. Run with ``python -m pytest benchmarks``.
"""

import numpy as np
import pytest

N_HANDS = 100_000
SEED = 20240601

# Sets of one suit as rank-count rows: 9 pungs and 7 chows.
_SETS = np.concatenate([np.eye(9, dtype=np.int64) * 3,
                        np.array([np.eye(9, dtype=np.int64)[r:r + 3].sum(axis=0) for r in range(7)])])


def _two_suits(rng: np.random.Generator, n: int) -> np.ndarray:
    """A random pair of distinct suits per row, shape (n, 2)."""
    return np.array([(0, 1), (0, 2), (1, 2)])[rng.integers(0, 3, n)]


def random_two_suit_hands(rng: np.random.Generator, n: int, tiles: int) -> np.ndarray:
    """n hands of `tiles` tiles drawn without replacement from the 72 tiles of two suits."""
    suits = _two_suits(rng, n)
    picks = rng.random((n, 72)).argsort(axis=1)[:, :tiles] // 4  # 0..17 within the two suits
    kinds = np.where(picks < 9, suits[:, :1], suits[:, 1:]) * 9 + picks % 9
    counts = np.zeros((n, 27), np.uint8)
    np.add.at(counts, (np.repeat(np.arange(n), tiles), kinds.ravel()), 1)
    return counts


def winning_two_suit_hands(rng: np.random.Generator, n: int) -> np.ndarray:
    """n complete 14-tile hands (4 sets + a pair) over two suits, no kind above 4."""
    out = np.zeros((n, 27), np.uint8)
    suits = _two_suits(rng, n)
    filled = 0
    while filled < n:
        m = n - filled
        side = rng.integers(0, 2, (m, 5))
        sets = _SETS[rng.integers(0, 16, (m, 4))]  # (m, 4, 9)
        pair = np.eye(9, dtype=np.int64)[rng.integers(0, 9, m)] * 2
        counts = np.zeros((m, 27), np.int64)
        rows = np.arange(m)
        for j in range(4):
            base = suits[filled + rows, side[:, j]] * 9
            counts[rows[:, None], base[:, None] + np.arange(9)] += sets[:, j]
        base = suits[filled + rows, side[:, 4]] * 9
        counts[rows[:, None], base[:, None] + np.arange(9)] += pair
        good = counts.max(axis=1) <= 4
        take = counts[good]
        out[filled:filled + len(take)] = take
        suits[filled:filled + len(take)] = suits[filled + rows[good]]
        filled += len(take)
    return out


@pytest.fixture(scope="session")
def hands14() -> np.ndarray:
    """14-tile hands for is_win / evaluate: one third constructed wins, the rest random."""
    rng = np.random.default_rng(SEED)
    wins = N_HANDS // 3
    counts = np.concatenate([winning_two_suit_hands(rng, wins),
                             random_two_suit_hands(rng, N_HANDS - wins, 14)])
    return counts[rng.permutation(N_HANDS)]


@pytest.fixture(scope="session")
def hands13() -> np.ndarray:
    """13-tile hands for waits: one third are a constructed win minus one tile, the rest random."""
    rng = np.random.default_rng(SEED + 1)
    wins = N_HANDS // 3
    ready = winning_two_suit_hands(rng, wins).astype(np.int64)
    # Drop one held tile from each: the i-th held kind, i random.
    held = ready > 0
    pick = (rng.random((wins, 27)) * held).argmax(axis=1)
    ready[np.arange(wins), pick] -= 1
    counts = np.concatenate([ready.astype(np.uint8), random_two_suit_hands(rng, N_HANDS - wins, 13)])
    return counts[rng.permutation(N_HANDS)]


@pytest.fixture(scope="session")
def hands_mixed() -> np.ndarray:
    """Random 13- and 14-tile hands, half each, for shanten."""
    rng = np.random.default_rng(SEED + 2)
    half = N_HANDS // 2
    counts = np.concatenate([random_two_suit_hands(rng, half, 13),
                             random_two_suit_hands(rng, N_HANDS - half, 14)])
    return counts[rng.permutation(N_HANDS)]


def report_per_hand(benchmark, n: int) -> None:
    """Put ns per hand (fastest and median round) into the benchmark's extra_info."""
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable
        return
    benchmark.extra_info["hands"] = n
    benchmark.extra_info["ns_per_hand"] = round(stats.stats.min / n * 1e9, 1)
    benchmark.extra_info["ns_per_hand_median"] = round(stats.stats.median / n * 1e9, 1)
