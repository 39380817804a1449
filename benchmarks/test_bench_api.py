"""Single calls through the public Python API (issue 2 targets: is_win, waits, shanten <= 0.5 us,
evaluate <= 2 us, best_discards <= 5 us), on the core benchmark's hands, and the same calls of the
pure-Python reference on the same hand, so each figure has a ratio from one run.

``extra_info["ns_per_call"]`` is the fastest round per call. Nothing here asserts a time.
"""

import pathlib
import sys

import numpy as np
import pytest

import xueliu

sys.path.append(str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import reference as ref  # noqa: E402


def _timed(benchmark, fn, hand, iterations=2000):
    """Many calls per round: one call is shorter than the timer's own resolution and overhead."""
    return benchmark.pedantic(fn, (hand,), iterations=iterations, rounds=20, warmup_rounds=1)


def _per_call(benchmark) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["ns_per_call"] = round(stats.stats.min * 1e9, 1)


@pytest.fixture(scope="module")
def samples(hands14, hands13):
    """One winning 14-tile hand, one ready 13-tile hand, and that hand plus a stray tile."""
    win_row = hands14[int(np.argmax(xueliu.batch.is_win(hands14)))]
    ready_row = hands13[int(np.argmax(xueliu.batch.waits(hands13) != 0))]
    over_row = ready_row.copy()
    over_row[int(np.argmax(over_row == 0))] += 1
    return {
        "win": xueliu.Hand.from_counts(win_row),
        "ready": xueliu.Hand.from_counts(ready_row),
        "over": xueliu.Hand.from_counts(over_row),
    }


def test_api_is_win(benchmark, samples):
    assert _timed(benchmark, xueliu.is_win, samples["win"], 2000)
    _per_call(benchmark)


def test_api_waits(benchmark, samples):
    assert _timed(benchmark, xueliu.waits, samples["ready"], 2000)
    _per_call(benchmark)


def test_api_shanten(benchmark, samples):
    assert _timed(benchmark, xueliu.shanten, samples["ready"], 2000) == 0
    _per_call(benchmark)


def test_api_evaluate(benchmark, samples):
    assert _timed(benchmark, xueliu.evaluate, samples["win"], 1000).fan >= 1
    _per_call(benchmark)


def test_api_best_discards(benchmark, samples):
    assert _timed(benchmark, xueliu.best_discards, samples["over"], 200)[0].shanten == 0
    _per_call(benchmark)


def _ref_counts(hand: xueliu.Hand) -> list:
    return [int(c) for c in hand.counts]


def test_api_reference_is_win(benchmark, samples):
    counts = _ref_counts(samples["win"])
    assert benchmark(ref.is_win, counts)
    _per_call(benchmark)


def test_api_reference_waits(benchmark, samples):
    counts = _ref_counts(samples["ready"])
    assert benchmark.pedantic(ref.waits, (counts,), rounds=20)
    _per_call(benchmark)


def test_api_reference_shanten(benchmark, samples):
    counts = _ref_counts(samples["ready"])
    assert benchmark.pedantic(ref.shanten, (counts,), rounds=5) == 0
    _per_call(benchmark)


def test_api_reference_evaluate(benchmark, samples):
    counts = _ref_counts(samples["win"])
    rules = ref.PRESETS["xueliu"]
    assert benchmark.pedantic(ref.evaluate, (counts,), {"rules": rules}, rounds=20).fan >= 1
    _per_call(benchmark)


def test_api_reference_best_discards(benchmark, samples):
    counts = _ref_counts(samples["over"])
    rules = ref.PRESETS["xueliu"]
    benchmark.pedantic(ref.best_discards, (counts,), {"rules": rules}, rounds=3)
    _per_call(benchmark)


def test_api_best_discards_distinct_hands(benchmark, hands13):
    """2,000 different hands (a ready hand plus a stray tile), result caches emptied before each
    round: what a bot pays on hands it has not seen, not the cache hit of one repeated hand."""
    import xueliu.hand

    rows = hands13[np.flatnonzero(xueliu.batch.waits(hands13))[:2000]].copy()
    rows[np.arange(len(rows)), np.argmax(rows == 0, axis=1)] += 1
    hands = [xueliu.Hand.from_counts(r) for r in rows]
    best_discards = xueliu.best_discards
    benchmark.pedantic(lambda: [best_discards(h) for h in hands],
                       setup=xueliu.hand._WAIT_CACHES.clear, rounds=5)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["ns_per_call"] = round(stats.stats.min / len(hands) * 1e9, 1)
