"""evaluate with wild tiles (docs/rules.md §12.2): a hand scored on its best reading against the
same hand without wilds, in the same run (issue 50's target: at most 5x at up to 4 wilds in hand); and
evaluate without wilds against the core before wild scoring existed (nothing may get slower).

The hands: 2,000 complete hands over 万 and 筒 (conftest.winning_two_suit_hands on 万 and 筒 only,
fixed seed). For w = 1..4 each hand has w of its concealed tiles turned into wilds (幺鸡: every 1条
is wild, ``ScoringRules(wild_kinds=1 << 18)``), scored by ``_core.evaluate`` on its best reading;
``mixed`` gives each hand 0 to 4 wilds (a fifth each). The baseline is the natural hand itself
under rules without wilds: the same single-call loop over the same hands, its wilds put back as
the tiles they replaced. The two loops alternate round by round and the fastest round counts;
``extra_info`` has the ns a call of each and ``ratio_to_natural`` (wild / natural). Nothing
asserts a time; the machine is noisy, so only a ratio from one run compares.

The no-wild check runs this tree's ``_core`` and 069e4cd's (main just before evaluate scored
wilds; built from git once, frozen/build.py) each in a child process (core_variants.CoreProcess),
on the batch and single evaluate of conftest's hands; ``ratio_to_pre_wild`` is this tree /
069e4cd (1.00 or less: no speed lost).

    python -m pytest benchmarks/test_bench_fan_wild.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

import xueliu._core as core
from conftest import N_HANDS, SEED, _SETS
from core_variants import CoreProcess
from frozen import fastest_rounds
from frozen.build import commit_site

HANDS = 2_000
ROUNDS = 7
PRE_WILD = "069e4cd"  # main just before evaluate scored wilds
WILD_1S = 18


def natural_wins(rng: np.random.Generator, n: int) -> np.ndarray:
    """n complete 14-tile hands (4 sets + a pair) over 万 and 筒, no kind above 4."""
    out = []
    while len(out) < n:
        counts = np.zeros(27, np.int64)
        for _ in range(4):
            counts[9 * rng.integers(0, 2) + np.arange(9)] += _SETS[rng.integers(0, 16)]
        counts[9 * rng.integers(0, 2) + rng.integers(0, 9)] += 2
        if counts.max() <= 4:
            out.append(counts.astype(np.uint8))
    return np.array(out)


def with_wilds(rng: np.random.Generator, wins: np.ndarray, wilds) -> list:
    """The hands with wilds[i] of hand i's tiles (chosen at random) turned into wilds."""
    hands = []
    for row, w in zip(wins, wilds):
        tiles = np.repeat(np.arange(27), row)
        natural = row.copy()
        for t in rng.choice(tiles, size=int(w), replace=False):
            natural[t] -= 1
        hands.append(core.Hand(bytes(natural), [], int(w)))
    return hands


@pytest.fixture(scope="module")
def wins() -> np.ndarray:
    return natural_wins(np.random.default_rng(SEED + 50), HANDS)


def _loop(hands, rules) -> float:
    evaluate = core.evaluate
    t = time.perf_counter()
    for hand in hands:
        evaluate(hand, -1, rules)
    return (time.perf_counter() - t) / len(hands)


@pytest.mark.parametrize("wilds", [1, 2, 3, 4, "mixed"])
def test_evaluate_with_wilds_against_the_natural_hand(benchmark, wins, wilds):
    rng = np.random.default_rng(SEED + 51)
    counts = rng.integers(0, 5, len(wins)) if wilds == "mixed" else np.full(len(wins), wilds)
    wild_hands = with_wilds(rng, wins, counts)
    natural_hands = [core.Hand(bytes(row), []) for row in wins]
    plain, yaoji = core.ScoringRules(), core.ScoringRules(wild_kinds=1 << WILD_1S)
    # The same best fan: a natural hand's own reading is one of its wild hand's readings.
    for nat, wild in zip(natural_hands[:200], wild_hands[:200]):
        assert core.evaluate(wild, -1, yaoji)[0] >= core.evaluate(nat, -1, plain)[0]
    best = fastest_rounds(ROUNDS, {"natural": lambda: _loop(natural_hands, plain),
                                   "wild": lambda: _loop(wild_hands, yaoji)})
    benchmark.pedantic(_loop, (wild_hands, yaoji), rounds=1)
    ns = {name: seconds * 1e9 for name, seconds in best.items()}
    benchmark.extra_info.update({f"ns_per_call_{name}": round(v, 1) for name, v in ns.items()})
    benchmark.extra_info["ratio_to_natural"] = round(ns["wild"] / ns["natural"], 2)


# --- without wilds: this tree against the core before wild scoring ------------------------------

BATCH = "core.batch_evaluate(hands14, None, None, core.ScoringRules(), 0)"
SINGLE_SETUP = """
rules = core.ScoringRules()
wins = core.batch_is_win(hands14, None, None, True)
hands = [core.Hand(bytes(row)) for row in hands14[wins][:2000]]
"""
SINGLE = "for h in hands: core.evaluate(h, -1, rules)"


@pytest.fixture(scope="module")
def modules(tmp_path_factory, hands14):
    path = tmp_path_factory.mktemp("hands") / "hands14.npy"
    np.save(path, hands14)
    old = next((commit_site(PRE_WILD) / "xueliu").glob("_core*"))
    procs = {"current": CoreProcess(Path(core.__file__)), PRE_WILD: CoreProcess(old)}
    try:
        for proc in procs.values():
            proc.request(op="load", name="hands14", path=str(path))
        yield procs
    finally:
        for proc in procs.values():
            proc.close()


def _record(benchmark, best, per: str, divisor: int) -> None:
    ns = {name: seconds / divisor * 1e9 for name, seconds in best.items()}
    benchmark.extra_info.update({f"ns_per_{per}_{name}": round(v, 2) for name, v in ns.items()})
    benchmark.extra_info["ratio_to_pre_wild"] = round(ns["current"] / ns[PRE_WILD], 3)


def test_batch_evaluate_without_wilds_against_pre_wild(benchmark, modules, hands14):
    best = fastest_rounds(ROUNDS, {
        name: lambda p=proc: p.request(op="timeit", stmt=BATCH, number=1, repeat=5)
        for name, proc in modules.items()})
    benchmark(core.batch_evaluate, hands14, None, None, core.ScoringRules(), 0)
    _record(benchmark, best, "hand", N_HANDS)


def test_single_evaluate_without_wilds_against_pre_wild(benchmark, modules, hands14):
    best = fastest_rounds(ROUNDS, {
        name: lambda p=proc: p.request(op="timeit", setup=SINGLE_SETUP, stmt=SINGLE, number=1,
                                       repeat=5)
        for name, proc in modules.items()})
    names = {"core": core, "hands14": hands14}
    exec(SINGLE_SETUP, names)
    benchmark(lambda: [core.evaluate(h, -1, names["rules"]) for h in names["hands"]])
    _record(benchmark, best, "call", 2000)
