"""Speed of the native core (one thread, 100k two-suit hands per batch; issue 7 targets: batch
is_win <= 12 ns a hand, waits <= 20 ns; issue 2: exact shanten <= 150 ns, evaluate <= 400 ns;
single _core calls is_win / waits / shanten <= 0.5 us, evaluate <= 2 us, best_discards <= 5 us.

The figures land in ``extra_info`` (``ns_per_hand``; ``ns_per_call`` for single calls) and in the
table pytest-benchmark prints; nothing here asserts a time.
"""

import numpy as np
import pytest

import xueliu
import xueliu._core as core

from conftest import report_per_hand


@pytest.fixture(scope="module", autouse=True)
def tables_built():
    """Build the tables before timing; report their size and build time once."""
    return core.tables_info()


def test_tables_info(benchmark, tables_built):
    info = benchmark(core.tables_info)
    benchmark.extra_info["table_bytes"] = int(tables_built["bytes"])
    benchmark.extra_info["table_build_seconds"] = tables_built["build_seconds"]
    assert info["bytes"] > 0


def test_batch_is_win(benchmark, hands14):
    result = benchmark(core.batch_is_win, hands14, None, None, True)
    report_per_hand(benchmark, len(hands14))
    benchmark.extra_info["wins"] = int(result.sum())
    assert result.sum() >= len(hands14) // 3


def test_batch_waits(benchmark, hands13):
    result = benchmark(core.batch_waits, hands13, None, None, True)
    report_per_hand(benchmark, len(hands13))
    benchmark.extra_info["ready"] = int((result != 0).sum())
    assert (result != 0).sum() >= len(hands13) // 3


def test_public_batch_is_win(benchmark, hands14):
    """xueliu.batch.is_win: the core validates each row as it loads it, no Python pass first."""
    result = benchmark(xueliu.batch.is_win, hands14)
    report_per_hand(benchmark, len(hands14))
    assert result.sum() >= len(hands14) // 3


def test_public_batch_waits(benchmark, hands13):
    result = benchmark(xueliu.batch.waits, hands13)
    report_per_hand(benchmark, len(hands13))
    assert (result != 0).sum() >= len(hands13) // 3


def test_batch_shanten(benchmark, hands_mixed):
    result = benchmark(core.batch_shanten, hands_mixed, None, None, True)
    report_per_hand(benchmark, len(hands_mixed))
    assert result.min() >= -1


def test_batch_shanten_with_void(benchmark, hands_mixed):
    void = np.random.default_rng(5).integers(-1, 3, len(hands_mixed)).astype(np.int8)
    result = benchmark(core.batch_shanten, hands_mixed, None, void, True)
    report_per_hand(benchmark, len(hands_mixed))
    assert result.min() >= -1


def test_batch_evaluate(benchmark, hands14):
    rules = core.ScoringRules()
    fan, code = benchmark(core.batch_evaluate, hands14, None, None, rules, 0)
    report_per_hand(benchmark, len(hands14))
    assert (code >= 0).sum() >= len(hands14) // 3


def _report_per_call(benchmark):
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["ns_per_call"] = round(stats.stats.min * 1e9, 1)
        benchmark.extra_info["ns_per_call_median"] = round(stats.stats.median * 1e9, 1)


def _hand(counts_row) -> core.Hand:
    return core.Hand(bytes(counts_row))


def test_single_is_win(benchmark, hands14):
    hand = _hand(hands14[0])
    benchmark(core.is_win, hand, -1, True)
    _report_per_call(benchmark)


def test_single_waits(benchmark, hands13):
    hand = _hand(hands13[0])
    benchmark(core.waits, hand, -1, True)
    _report_per_call(benchmark)


def test_single_shanten(benchmark, hands_mixed):
    hand = _hand(hands_mixed[0])
    benchmark(core.shanten, hand, -1, True)
    _report_per_call(benchmark)


def test_single_evaluate(benchmark, hands14):
    rules = core.ScoringRules()
    wins = core.batch_is_win(hands14, None, None, True)
    hand = _hand(hands14[int(np.argmax(wins))])
    benchmark(core.evaluate, hand, -1, rules, -1, 0)
    _report_per_call(benchmark)


def test_single_best_discards(benchmark, hands13):
    rules = core.ScoringRules()
    ready = core.batch_waits(hands13, None, None, True)
    row = hands13[int(np.argmax(ready != 0))].copy()
    row[int(np.argmax(row == 0))] += 1  # one tile over: a ready hand plus a stray tile
    hand = _hand(row)
    options = benchmark(core.best_discards, hand, None, -1, rules)
    _report_per_call(benchmark)
    assert options[0][1] == 0
