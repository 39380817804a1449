"""What the default shape pays for issue 17's table shapes: this tree's ``_core`` against the one
of 8166494 (main before the core took hand sizes 7/10/13 and the suits in play; its cpp/ is
bdbdf80's, runtime dispatch included — frozen/core_instructions.py says why this baseline), in
the same run, at the default shape (4 seats' 13-tile hands, three suits, seven pairs on).

Each module runs in a child process of its own (core_variants.CoreProcess; the old one is the
``_core`` of the commit built from git, frozen/build.py), on the benchmark's hands (conftest.py:
100k two-suit hands) for the batch calls and one fixed hand for the single calls; the rounds
alternate across the two modules and the fastest counts. ``extra_info`` has each side's ns and
``ratio_to_pre_shape`` (this tree / 8166494: 1.00 or less is "no speed lost"). Nothing asserts a
time; the machine is noisy, so only a ratio from one run compares. The load-proof measure is
the instruction count: ``cd benchmarks && python -m frozen.core_instructions`` (valgrind).

``test_both_modules_give_identical_answers`` holds the two to the same answers.

    python -m pytest benchmarks/test_bench_shape_cost.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xueliu._core as core
from conftest import N_HANDS
from core_variants import CoreProcess
from frozen import fastest_rounds
from frozen.build import commit_site
from frozen.core_instructions import PRE_SHAPE

ROUNDS = 7
REPEAT = 5  # batch calls a round; the fastest counts
SINGLE_CALLS = 20_000  # single calls a timeit run

# The single calls' hands, built in each child from the loaded arrays (the same code in both).
SINGLE_SETUP = """
rules = core.ScoringRules()
wins = core.batch_is_win(hands14, None, None, True)
win = core.Hand(bytes(hands14[int(np.argmax(wins))]))
row = hands14[int(np.argmax(wins))].copy()
row[int(np.argmax(row))] -= 1
ready = core.Hand(bytes(row))
plain = core.Hand(bytes(hands13[0]))
"""
BATCH = {
    "batch_is_win": "core.batch_is_win(hands14, None, None, True)",
    "batch_waits": "core.batch_waits(hands13, None, None, True)",
    "batch_shanten": "core.batch_shanten(hands_mixed, None, None, True)",
    "batch_evaluate": "core.batch_evaluate(hands14, None, None, core.ScoringRules(), 0)",
}
SINGLE = {
    "is_win": "core.is_win(win, -1, True)",
    "waits": "core.waits(ready, -1, True)",
    "shanten": "core.shanten(plain, -1, True)",
    "evaluate": "core.evaluate(win, -1, rules, -1, 0)",
    "best_discards": "core.best_discards(win, None, -1, rules)",
}


def pre_shape_module() -> Path:
    """The ``_core`` shared object of the pre-shape commit (built from git once, then cached)."""
    return next((commit_site(PRE_SHAPE) / "xueliu").glob("_core*"))


@pytest.fixture(scope="module")
def modules(tmp_path_factory, hands14, hands13, hands_mixed):
    data = tmp_path_factory.mktemp("hands")
    arrays = {"hands14": hands14, "hands13": hands13, "hands_mixed": hands_mixed}
    for name, array in arrays.items():
        np.save(data / f"{name}.npy", array)
    procs = {"current": CoreProcess(Path(core.__file__)),
             PRE_SHAPE: CoreProcess(pre_shape_module())}
    try:
        for proc in procs.values():
            for name in arrays:
                proc.request(op="load", name=name, path=str(data / f"{name}.npy"))
        yield procs
    finally:
        for proc in procs.values():
            proc.close()


@pytest.fixture(scope="module")
def modules_arrays(hands14, hands13, hands_mixed):
    return {"hands14": hands14, "hands13": hands13, "hands_mixed": hands_mixed}


def _in_this_process(stmt: str, arrays, setup: str = ""):
    """The timed statement as a function of this process's (current) module, for the table."""
    names = {"core": core, "np": np, **arrays}
    exec(setup, names)
    return eval("lambda: " + stmt, names)


def _record(benchmark, best, per: str, divisor: int) -> None:
    ns = {name: seconds / divisor * 1e9 for name, seconds in best.items()}
    benchmark.extra_info.update({f"ns_per_{per}_{name}": round(v, 2) for name, v in ns.items()})
    benchmark.extra_info["ratio_to_pre_shape"] = round(ns["current"] / ns[PRE_SHAPE], 3)


@pytest.mark.parametrize("fn", list(BATCH))
def test_batch_against_pre_shape(benchmark, modules, modules_arrays, fn):
    """ns a row of this tree's batch call and 8166494's, alternating rounds."""
    best = fastest_rounds(ROUNDS, {
        name: lambda p=proc: p.request(op="timeit", stmt=BATCH[fn], number=1, repeat=REPEAT)
        for name, proc in modules.items()})
    benchmark(_in_this_process(BATCH[fn], modules_arrays))
    _record(benchmark, best, "hand", N_HANDS)


@pytest.mark.parametrize("fn", list(SINGLE))
def test_single_against_pre_shape(benchmark, modules, modules_arrays, fn):
    """ns a call of this tree's single call and 8166494's (the same Python loop), alternating."""
    best = fastest_rounds(ROUNDS, {
        name: lambda p=proc: p.request(op="timeit", setup=SINGLE_SETUP, stmt=SINGLE[fn],
                                       number=SINGLE_CALLS, repeat=3)
        for name, proc in modules.items()})
    benchmark(_in_this_process(SINGLE[fn], modules_arrays, SINGLE_SETUP))
    _record(benchmark, best, "call", 1)


@pytest.mark.parametrize("fn, hands", [("batch_is_win", "hands14"), ("batch_waits", "hands13"),
                                       ("batch_shanten", "hands_mixed")])
@pytest.mark.parametrize("seven_pairs", [True, False])
def test_both_modules_give_identical_answers(modules, tmp_path, fn, hands, seven_pairs):
    results = {}
    for name, proc in modules.items():
        path = tmp_path / f"{name}.npy"
        proc.request(op="save", fn=fn, args=[hands, None, None, seven_pairs], path=str(path))
        results[name] = np.load(path)
    assert len(results["current"]) == N_HANDS
    assert np.array_equal(results["current"], results[PRE_SHAPE])
    assert results["current"].any()
