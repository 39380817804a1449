"""Shared benchmark inputs: fixed-seed batches of random two-suit hands (numpy, _core layout).

Every figure is per hand, one thread: ``ns_per_hand`` in ``benchmark.extra_info`` is the fastest
round divided by the batch size. Run with ``python -m pytest benchmarks``.
"""

import os

# numpy's OpenBLAS starts a worker thread per core that spins after use; on a shared two-core
# machine they take time from the thread being timed. Nothing here needs BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from typing import Optional  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from core_variants import INSTALL_HINT, missing_build_tools  # noqa: E402

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


# The fixtures that build another core before their benchmarks can run: "engines" (commit
# e2892b9 built from git: test_bench_bots.py, test_bench_game.py) and "modules" (the -march=native
# and portable variants of this checkout, test_bench_dispatch.py; commit 8166494 from git,
# test_bench_shape_cost.py). Without the build tools (the bench extra) their tests are skipped
# with the one line that says what to install, not errors of a failed build.
BUILDING_FIXTURES = frozenset({"engines", "modules"})


def build_skip_reason(fixturenames, missing) -> Optional[str]:
    """Why a test that uses ``fixturenames`` cannot run where the build tools ``missing``
    (:func:`core_variants.missing_build_tools`) are missing; None when it can."""
    if not missing or not BUILDING_FIXTURES & set(fixturenames):
        return None
    return (f"builds another core and {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing: {INSTALL_HINT}")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if BUILDING_FIXTURES & set(item.fixturenames):
        reason = build_skip_reason(item.fixturenames, missing_build_tools())
        if reason is not None:
            pytest.skip(reason)


def report_per_hand(benchmark, n: int) -> None:
    """Put ns per hand (fastest and median round) into the benchmark's extra_info."""
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable
        return
    benchmark.extra_info["hands"] = n
    benchmark.extra_info["ns_per_hand"] = round(stats.stats.min / n * 1e9, 1)
    benchmark.extra_info["ns_per_hand_median"] = round(stats.stats.median / n * 1e9, 1)


# ---------------------------------------------------------------------------------------------
# The figures table printed at the end of `python -m pytest benchmarks`: each figure next to its
# issue target and, where the pure-Python reference ran on the same hands in the same run, the
# speed-up ratio (these machines are noisy; a ratio from one run is what compares).

# test name -> (what it measures, unit key in extra_info, target or None, reference test name).
# A test that also timed riichienv on the same question (benchmarks/test_bench_api.py) has
# "riichienv_ns_per_call" in its extra_info: the last column is that time over ours.
FIGURES = {
    "test_batch_is_win": ("batch is_win, per hand", "ns_per_hand", 12, "test_reference_is_win"),
    "test_public_batch_is_win": ("xueliu.batch.is_win, per hand", "ns_per_hand", 12,
                                 "test_reference_is_win"),
    "test_batch_waits": ("batch waits, per hand", "ns_per_hand", 20, "test_reference_waits"),
    "test_public_batch_waits": ("xueliu.batch.waits, per hand", "ns_per_hand", 20,
                                "test_reference_waits"),
    "test_batch_shanten": ("batch shanten, per hand", "ns_per_hand", 150, "test_reference_shanten"),
    "test_batch_shanten_with_void": ("batch shanten with void, per hand", "ns_per_hand", 150, None),
    "test_batch_evaluate": ("batch evaluate, per hand", "ns_per_hand", 400, "test_reference_evaluate"),
    "test_api_is_win_from_names": ("xueliu.is_win(14 tile names), per call", "ns_per_call", 1000,
                                   "test_api_reference_is_win"),
    "test_api_shanten_from_names": ("xueliu.shanten(14 tile names), per call", "ns_per_call",
                                    1000, "test_api_reference_shanten"),
    "test_api_waits_from_names": ("xueliu.waits(13 tile names), per call", "ns_per_call", None,
                                  "test_api_reference_waits"),
    "test_api_is_win_from_counts": ("xueliu.is_win(uint8[27]), per call", "ns_per_call", None,
                                    "test_api_reference_is_win"),
    "test_api_is_win": ("xueliu.is_win(hand), per call", "ns_per_call", 300,
                        "test_api_reference_is_win"),
    "test_api_waits": ("xueliu.waits(hand), per call", "ns_per_call", 500,
                       "test_api_reference_waits"),
    "test_api_shanten": ("xueliu.shanten(hand), per call", "ns_per_call", 300,
                         "test_api_reference_shanten"),
    "test_api_evaluate": ("xueliu.evaluate(hand), per call", "ns_per_call", 2000,
                          "test_api_reference_evaluate"),
    "test_api_best_discards": ("xueliu.best_discards(hand), same hand, per call", "ns_per_call",
                               5000, "test_api_reference_best_discards"),
    "test_api_best_discards_distinct_hands": ("xueliu.best_discards, 2,000 unseen hands, per call",
                                              "ns_per_call", 5000, "test_api_reference_best_discards"),
    "test_single_is_win": ("_core.is_win, per call", "ns_per_call", None, None),
    "test_single_waits": ("_core.waits, per call", "ns_per_call", None, None),
    "test_single_shanten": ("_core.shanten, per call", "ns_per_call", None, None),
    "test_single_evaluate": ("_core.evaluate, per call", "ns_per_call", None, None),
    "test_single_best_discards": ("_core.best_discards, per call", "ns_per_call", None, None),
}


def pytest_terminal_summary(terminalreporter, config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    by_name = {}
    for bench in session.benchmarks:
        by_name[bench.name.split("[")[0]] = bench
        by_name[bench.name] = bench
    rows = []
    for name, (label, unit, target, ref_name) in FIGURES.items():
        bench = by_name.get(name)
        if bench is None or unit not in bench.extra_info:
            continue
        value = bench.extra_info[unit]
        ref = by_name.get(ref_name) if ref_name else None
        ratio = ""
        if ref is not None and unit in ref.extra_info:
            ratio = f"{ref.extra_info[unit] / value:,.0f}x"
        elif ref is not None and "ns_per_hand" in ref.extra_info:
            ratio = f"{ref.extra_info['ns_per_hand'] / value:,.0f}x"
        rival = ""
        if "riichienv_ns_per_call" in bench.extra_info:
            theirs = bench.extra_info["riichienv_ns_per_call"]
            rival = f"{theirs:,.0f} ns, {theirs / value:.2f}x"
        elif bench.extra_info.get("riichienv") == "not installed":
            rival = "(riichienv not installed)"
        rows.append((label, f"{value:,.1f} ns", f"<= {target:,} ns" if target else "", ratio,
                     rival))
    for bench in session.benchmarks:
        info = bench.extra_info
        if "hands_per_second" in info:
            label = bench.name.removeprefix("test_").replace("_", " ")
            frozen = ""  # issue 7: the same loop on commit e2892b9 (built from git), same run
            if "ratio_to_e2892b9" in info:
                frozen = (f"{info['ratio_to_e2892b9']:.2f}x e2892b9 "
                          f"({info['hands_per_second_e2892b9']:,} hands/s)")
            if "ratio_to_default" in info:  # issue 17: a smaller table beside the default one
                frozen = (f"{info['ratio_to_default']:.2f}x the default table "
                          f"({info['hands_per_second_default']:,} hands/s)")
            if "ratio_to_expert" in info:  # issue 47: four experts, same walls, same run
                frozen = (f"{info['ratio_to_expert']:.2f}x four experts "
                          f"({info['expert_hands_per_second']:,} hands/s)")
            rows.append((label, f"{info['hands_per_second']:,.0f} hands/s", "", frozen, ""))
        if "ratio_to_native" in info:  # issue 16: the dispatching module vs -march=native
            fn = bench.name.split("[")[1].split("-")[0] if "[" in bench.name else bench.name
            rows.append((f"{fn} vs a -march=native build (clone {info['selected'] or 'none'})",
                         f"{info['ns_per_hand_installed']:,.1f} ns", "<= 1.3x native",
                         f"{info['ratio_to_native']:.2f}x native "
                         f"({info['ns_per_hand_native']:,.1f} ns; baseline x86-64 "
                         f"{info['portable_ratio_to_native']:.2f}x)", ""))
        if "ratio_to_pre_shape" in info:  # issue 17: the default shape against 8166494
            per = "hand" if "ns_per_hand_current" in info else "call"
            fn = bench.name.split("[")[1].rstrip("]")
            rows.append((f"{fn} vs 8166494 (before the table shapes)",
                         f"{info[f'ns_per_{per}_current']:,.1f} ns", "<= 1.00x",
                         f"{info['ratio_to_pre_shape']:.3f}x 8166494 "
                         f"({info[f'ns_per_{per}_8166494']:,.1f} ns)", ""))
    if "table_bytes" in getattr(by_name.get("test_tables_info"), "extra_info", {}):
        info = by_name["test_tables_info"].extra_info
        rows.append(("lookup tables", f"{info['table_bytes'] / 2**20:.1f} MiB",
                     "<= 32 MiB", f"built in {info['table_build_seconds']:.3f} s", ""))
    if not rows:
        return
    write = terminalreporter.write_line
    terminalreporter.section("xueliu figures (fastest round; ratio = pure-Python reference / "
                             "xueliu; riichienv = its time on the same question, and it / xueliu)")
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        write("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
