"""Single calls through the public Python API, on the core benchmark's hands (issue 7 targets):
from a 14-tile list of tile names, is_win and shanten <= 1 us a call; from a prebuilt Hand
<= 0.3 us; best_discards on 2,000 hands never seen before <= 5 us a call; evaluate <= 2 us
(issue 2). Each figure comes with the pure-Python reference on the same hand (a ratio from one
run) and, when riichienv is installed (``pip install riichienv``; not a dependency), riichienv
answering the same question from a tile list in the same test: ``calculate_shanten`` of the hand's
136-tile ids (-1 is its "complete"), and ``HandEvaluator(ids).get_waits()`` for waits. Without
riichienv the figure stands alone (``extra_info["riichienv"] = "not installed"``).

``extra_info["ns_per_call"]`` is the fastest round per call. Nothing here asserts a time.
"""

import pathlib
import sys
import timeit

import numpy as np
import pytest

import xueliu

sys.path.append(str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import reference as ref  # noqa: E402

try:
    import riichienv
except ImportError:  # optional: the figures then have no riichienv ratio
    riichienv = None


def _timed(benchmark, fn, hand, iterations=2000):
    """Many calls per round: one call is shorter than the timer's own resolution and overhead."""
    return benchmark.pedantic(fn, (hand,), iterations=iterations, rounds=20, warmup_rounds=1)


def _per_call(benchmark) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["ns_per_call"] = round(stats.stats.min * 1e9, 1)


def _riichienv(benchmark, call: str, ids: list, number: int = 2000) -> None:
    """Time riichienv's ``call`` (an expression of ``rv`` and ``ids``) the way _timed times ours:
    the fastest of 20 rounds of ``number`` calls."""
    if riichienv is None:
        benchmark.extra_info["riichienv"] = "not installed"
        return
    best = min(timeit.repeat(call, globals={"rv": riichienv, "ids": ids}, number=number, repeat=20))
    benchmark.extra_info["riichienv_ns_per_call"] = round(best / number * 1e9, 1)
    benchmark.extra_info["riichienv_call"] = call


def _names(hand: xueliu.Hand) -> list:
    return [xueliu.tile_name(k) for k in range(27) for _ in range(int(hand.counts[k]))]


def _riichi_ids(hand: xueliu.Hand) -> list:
    """The hand as riichienv's 136-tile ids: kind k, copy c -> 4 k + c (m, p, s come first there)."""
    return [4 * k + c for k in range(27) for c in range(int(hand.counts[k]))]


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


# -- from what a server holds: a list of tile names ----------------------------------------------


def test_api_is_win_from_names(benchmark, samples):
    names = _names(samples["win"])
    assert len(names) == 14 and _timed(benchmark, xueliu.is_win, names)
    _per_call(benchmark)
    _riichienv(benchmark, "rv.calculate_shanten(ids) == -1", _riichi_ids(samples["win"]))


def test_api_shanten_from_names(benchmark, samples):
    names = _names(samples["over"])
    assert len(names) == 14 and _timed(benchmark, xueliu.shanten, names) == 0
    _per_call(benchmark)
    _riichienv(benchmark, "rv.calculate_shanten(ids)", _riichi_ids(samples["over"]))


def test_api_waits_from_names(benchmark, samples):
    names = _names(samples["ready"])
    assert _timed(benchmark, xueliu.waits, names)
    _per_call(benchmark)
    _riichienv(benchmark, "rv.HandEvaluator(ids).get_waits()", _riichi_ids(samples["ready"]),
               number=500)


def test_api_is_win_from_counts(benchmark, samples):
    assert _timed(benchmark, xueliu.is_win, np.array(samples["win"].counts))
    _per_call(benchmark)


# -- from a prebuilt Hand ------------------------------------------------------------------------


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


def test_api_best_discards_distinct_hands(benchmark, hands13):
    """2,000 different hands (a ready hand plus a stray tile): what a bot pays on hands it has not
    seen. No result is cached per hand (the options are built anew each call); the only cache is
    of FanResult objects by their values, shared by every call."""
    rows = hands13[np.flatnonzero(xueliu.batch.waits(hands13))[:2000]].copy()
    rows[np.arange(len(rows)), np.argmax(rows == 0, axis=1)] += 1
    hands = [xueliu.Hand.from_counts(r) for r in rows]
    best_discards = xueliu.best_discards
    benchmark.pedantic(lambda: [best_discards(h) for h in hands], rounds=5)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["ns_per_call"] = round(stats.stats.min / len(hands) * 1e9, 1)


# -- the pure-Python reference on the same hands -------------------------------------------------


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
