"""Runtime dispatch of the hot core (issue 16): the installed module is portable (no -march) and
picks, when it loads, the clone of batch ``is_win`` / ``waits`` its CPU can run (cpp/bits.hpp's
XUELIU_HOT_DISPATCH; ``_core.dispatch_info()``). Target: both within 1.3x of a ``-march=native``
build of the same code, in the same run.

The benchmark builds the variants it compares with (benchmarks/core_variants.py: ``native``,
``-DXUELIU_NATIVE=ON``; ``portable``, ``-DXUELIU_DISPATCH=OFF``, the baseline-x86-64 code the
"default" clone runs), cached by a hash of the sources, and times every module the same way: each
in a child process of its own, on the benchmark's hands (conftest.py: 100k two-suit hands), the
fastest of a few calls per round and the rounds alternating across the modules. ``extra_info``
has ``ns_per_hand`` of each and ``ratio_to_native`` (installed / native; <= 1.3 is the target).
Nothing asserts a time.

``test_every_build_gives_identical_answers`` is the correctness check: all three modules answer
is_win / waits / shanten identically on many random hands, voids and both seven-pairs settings.

    python -m pytest benchmarks/test_bench_dispatch.py
"""

from __future__ import annotations

import numpy as np
import pytest

import xueliu._core as core
from conftest import N_HANDS, report_per_hand
from core_variants import CoreProcess, built
from frozen import fastest_rounds

ROUNDS = 7
REPEAT = 5  # calls a round; the fastest counts


@pytest.fixture(scope="module")
def modules(tmp_path_factory, hands14, hands13, hands_mixed):
    """The installed module and the two built variants, each in its own process, with the
    benchmark's hands loaded."""
    paths = {"installed": core.__file__, "native": built("native"),
             "portable": built("portable")}
    data = tmp_path_factory.mktemp("hands")
    rng = np.random.default_rng(16)
    arrays = {"hands14": hands14, "hands13": hands13, "hands_mixed": hands_mixed,
              "void": rng.integers(-1, 3, N_HANDS).astype(np.int8)}
    for name, array in arrays.items():
        np.save(data / f"{name}.npy", array)
    procs = {name: CoreProcess(path) for name, path in paths.items()}
    try:
        for proc in procs.values():
            for name in arrays:
                proc.request(op="load", name=name, path=str(data / f"{name}.npy"))
        yield procs
    finally:
        for proc in procs.values():
            proc.close()


def test_the_modules_are_the_builds_they_claim(modules):
    infos = {name: proc.request(op="info") for name, proc in modules.items()}
    assert infos["native"]["build"] == "native" and infos["native"]["selected"] == ""
    assert infos["portable"]["build"] == "portable" and infos["portable"]["clones"] == []
    assert infos["installed"] == core.dispatch_info()


@pytest.mark.parametrize("fn, hands", [("batch_is_win", "hands14"), ("batch_waits", "hands13")])
def test_batch_against_native(benchmark, request, modules, fn, hands):
    """ns a hand of the installed (dispatching) module, the native build and the portable one,
    each in its own process, alternating rounds (the figure: installed / native); then the
    installed module in this process under pytest-benchmark, for the table."""
    best = fastest_rounds(ROUNDS, {
        name: lambda p=proc: p.request(op="time", fn=fn, args=[hands, None, None, True],
                                       repeat=REPEAT)
        for name, proc in modules.items()})
    counts = request.getfixturevalue(hands)
    benchmark(getattr(core, fn), counts, None, None, True)
    report_per_hand(benchmark, len(counts))
    ns = {name: seconds / N_HANDS * 1e9 for name, seconds in best.items()}
    benchmark.extra_info.update({f"ns_per_hand_{name}": round(v, 2) for name, v in ns.items()})
    benchmark.extra_info["ratio_to_native"] = round(ns["installed"] / ns["native"], 3)
    benchmark.extra_info["portable_ratio_to_native"] = round(ns["portable"] / ns["native"], 3)
    benchmark.extra_info["selected"] = core.dispatch_info()["selected"]


@pytest.mark.parametrize("fn, hands", [("batch_is_win", "hands14"), ("batch_waits", "hands13"),
                                       ("batch_shanten", "hands_mixed")])
@pytest.mark.parametrize("void", [None, "void"])
@pytest.mark.parametrize("seven_pairs", [True, False])
def test_every_build_gives_identical_answers(modules, tmp_path, fn, hands, void, seven_pairs):
    results = {}
    for name, proc in modules.items():
        path = tmp_path / f"{name}.npy"
        proc.request(op="save", fn=fn, args=[hands, None, void, seven_pairs], path=str(path))
        results[name] = np.load(path)
    assert len(results["installed"]) == N_HANDS
    assert np.array_equal(results["installed"], results["portable"])
    assert np.array_equal(results["installed"], results["native"])
    assert results["installed"].any()  # the hands exercise the answers, not only "no"
