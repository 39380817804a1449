"""Timings of the pure-Python reference (tests/reference.py) on the core benchmark's own hands
(the fixtures of benchmarks/conftest.py), so each core figure comes with a speed-up ratio measured
in the same run. The reference is brute force, so it runs on a leading sample of each batch.

``benchmark.extra_info["ns_per_hand"]`` is the fastest round divided by the sample size, as for
the core figures.
"""

import pathlib
import sys

import numpy as np

sys.path.append(str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import reference as ref  # noqa: E402


def _rows(counts: np.ndarray, n: int) -> list:
    return [list(map(int, row)) for row in counts[:n]]


def _record(benchmark, n: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable
        return
    benchmark.extra_info["hands"] = n
    benchmark.extra_info["ns_per_hand"] = round(stats.stats.min / n * 1e9, 1)


def test_reference_is_win(benchmark, hands14):
    sample = _rows(hands14, 2000)
    benchmark.pedantic(lambda: [ref.is_win(c) for c in sample], rounds=3, iterations=1)
    _record(benchmark, len(sample))


def test_reference_waits(benchmark, hands13):
    sample = _rows(hands13, 2000)
    benchmark.pedantic(lambda: [ref.waits(c) for c in sample], rounds=1, iterations=1)
    _record(benchmark, len(sample))


def test_reference_shanten(benchmark, hands_mixed):
    sample = _rows(hands_mixed, 250)
    benchmark.pedantic(lambda: [ref.shanten(c) for c in sample], rounds=1, iterations=1)
    _record(benchmark, len(sample))


def test_reference_evaluate(benchmark, hands14):
    """Batch semantics: a win is scored (xueliu preset, discard win), any other hand gives 0."""
    sample = _rows(hands14, 2000)
    rules = ref.PRESETS["xueliu"]

    def run():
        return [ref.evaluate(c, rules=rules).fan if ref.is_win(c) else 0 for c in sample]

    fans = benchmark.pedantic(run, rounds=3, iterations=1)
    _record(benchmark, len(sample))
    assert sum(f > 0 for f in fans) >= len(sample) // 4


def test_reference_evaluate_wins_only(benchmark, hands14):
    """Per winning hand, for the single-call evaluate ratio."""
    sample = [c for c in _rows(hands14, 3000) if ref.is_win(c)][:1000]
    rules = ref.PRESETS["xueliu"]
    benchmark.pedantic(lambda: [ref.evaluate(c, rules=rules) for c in sample], rounds=3, iterations=1)
    _record(benchmark, len(sample))


def test_reference_best_discards(benchmark, hands13):
    """Ready 13-tile hands plus one stray tile (the core benchmark's best_discards input)."""
    sample = []
    for row in _rows(hands13, 400):
        if ref.waits(row):
            row[row.index(0)] += 1
            sample.append(row)
    sample = sample[:30]
    rules = ref.PRESETS["xueliu"]
    benchmark.pedantic(lambda: [ref.best_discards(c, rules=rules) for c in sample], rounds=1, iterations=1)
    _record(benchmark, len(sample))
