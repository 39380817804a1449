"""The pure-Python reference (tests/reference.py) reproduces every public vector of hands.json.

This checks the reference itself, so the property tests that compare the C++ core against it
stand on vectors written independently from the rules.
"""

import json
import pathlib

import pytest

import reference as ref
from conftest import cases_before_wild_tiles

VECTORS = json.loads((pathlib.Path(__file__).parent / "data" / "hands.json").read_text(encoding="utf-8"))


def _id(case):
    return f"{case['id']}-{case.get('note', '')}"


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "parse_cases"), ids=_id)
def test_parse_case(case):
    if case["expect"] == "error":
        with pytest.raises(ValueError):
            ref.parse(case["text"])
    else:
        counts, melds = ref.parse(case["text"])
        assert ref.to_text(counts, melds) == case["expect"]["canonical"]
        assert ref.parse(ref.to_text(counts, melds)) == (counts, melds)


def _shape(case):
    """A case's table shape (docs/rules.md §11, D40): 13 tiles and all three suits unless it says."""
    return {"hand_size": case.get("hand_size", 13), "suits": "".join(case.get("suits", "mps"))}


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "wait_cases"), ids=_id)
def test_wait_case(case):
    counts, melds = ref.parse(case["hand"])
    got = ref.waits(counts, melds, case["void"], case["seven_pairs"], **_shape(case))
    assert [ref.TILE_NAMES[t] for t in got] == case["expect_waits"]


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "shanten_cases"), ids=_id)
def test_shanten_case(case):
    counts, melds = ref.parse(case["hand"])
    got = ref.shanten(counts, melds, case["void"], case["seven_pairs"], **_shape(case))
    assert got == case["expect_shanten"]


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "eval_cases"), ids=_id)
def test_eval_case(case):
    counts, melds = ref.parse(case["hand"])
    rules = ref.make_rules(case["preset"], **case.get("overrides", {}))
    ctx = dict(case["context"])
    void = ctx.pop("void")
    expect = case["expect"]
    shape = {"hand_size": rules["hand_size"], "suits": "".join(rules["suits"])}
    assert ref.is_win(counts, melds, void, rules["seven_pairs"], **shape) == expect["win"]
    if not expect["win"]:
        with pytest.raises(ValueError, match="not a winning hand"):
            ref.evaluate(counts, melds, void, rules, **ctx)
        return
    got = ref.evaluate(counts, melds, void, rules, **ctx)
    # The reference applies the full D13/D22 tie-break, so it must name exactly the listed base.
    assert got == ref.FanResult(expect["fan"], expect["multiplier"], expect["base"],
                                expect["base_fan"], expect["gen"], tuple(expect["extras"]))
    # Every listed alternative is a real tie: same total on the same decomposition fans.
    for pid, base_fan, gen in expect.get("alternatives", []):
        assert base_fan + gen == expect["base_fan"] + expect["gen"]
        assert pid in ref.PATTERN_IDS


# --------------------------------------------------------------------------------------------
# Self-consistency of the reference beyond the vectors (no native code involved)
# --------------------------------------------------------------------------------------------

import itertools  # noqa: E402
import random  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

MELD_KINDS = ("peng", "kong", "concealed_kong")


def random_hand(seed, size, max_melds=4, min_melds=0):
    """A random hand of ``size - 3k`` concealed tiles over two (sometimes three) suits."""
    rng = random.Random(seed)
    suits = rng.sample(range(3), 3 if rng.random() < 0.2 else 2)
    kinds = [k for k in range(27) if k // 9 in suits]
    melds, used = [], [0] * 27
    for _ in range(rng.randint(min_melds, max_melds)):
        kind, tile = rng.choice(MELD_KINDS), rng.choice([k for k in kinds if not used[k]])
        melds.append((kind, tile))
        used[tile] = 3 if kind == "peng" else 4
    pool = rng.sample(kinds, rng.randint(4, len(kinds)))
    counts = [0] * 27
    for _ in range(size - 3 * len(melds)):
        counts[rng.choice([k for k in pool if used[k] + counts[k] < 4]
                          or [k for k in kinds if used[k] + counts[k] < 4])] += 1
    return counts, melds


def shanten_or_none(counts, melds, void, seven_pairs=True):
    try:
        return ref.shanten(counts, melds, void, seven_pairs)
    except ValueError:
        return None


SEEDS = st.integers(0, 2**32)
VOIDS = st.sampled_from([None, "m", "p", "s"])


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, void=VOIDS, seven_pairs=st.booleans())
def test_reference_shanten_minus_one_iff_win(seed, void, seven_pairs):
    counts, melds = random_hand(seed, 14)
    sh = shanten_or_none(counts, melds, void, seven_pairs)
    assert (sh == -1) == ref.is_win(counts, melds, void, seven_pairs)


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, void=VOIDS, seven_pairs=st.booleans())
def test_reference_shanten_zero_iff_waits(seed, void, seven_pairs):
    counts, melds = random_hand(seed, 13)
    sh = shanten_or_none(counts, melds, void, seven_pairs)
    assert (sh == 0) == bool(ref.waits(counts, melds, void, seven_pairs))


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, void=VOIDS)
def test_reference_shanten_is_one_draw_plus_one_discard(seed, void):
    """A 13-tile hand is one step further than its best 14-tile successor (adding a kind it does
    not hold 4 of), and a non-complete 14-tile hand is as far as its best discard."""
    counts, melds = random_hand(seed, 13)
    sh13 = shanten_or_none(counts, melds, void)
    if sh13 is None:
        return
    total = [a + b for a, b in zip(counts, ref.meld_counts(melds))]
    after_draw = []
    for t in range(27):
        if total[t] < 4:
            counts[t] += 1
            after_draw.append(ref.shanten(counts, melds, void))
            if after_draw[-1] >= 0:
                best_discard = min(ref.shanten([c - (k == d) for k, c in enumerate(counts)], melds, void)
                                   for d in range(27) if counts[d])
                assert best_discard == after_draw[-1]
            counts[t] -= 1
    assert sh13 == min(after_draw) + 1


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, void=VOIDS, size=st.sampled_from([13, 14]))
def test_reference_shanten_equals_plain_enumeration_with_melds(seed, void, size):
    """With 2-4 melds every complete hand is small enough to list without any pruning."""
    counts, melds = random_hand(seed, size, min_melds=2)
    held = ref.meld_counts(melds)
    blocks = [(k,) * 3 for k in range(27)] + [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6]
    v = None if void is None else "mps".index(void)
    best = None
    for pair in range(27):
        for sets in itertools.combinations_with_replacement(blocks, 4 - len(melds)):
            h = [0] * 27
            for t in (pair, pair) + sum(sets, ()):
                h[t] += 1
            total = [a + b for a, b in zip(h, held)]
            suits = {k // 9 for k in range(27) if total[k]}
            if max(total) <= 4 and len(suits) <= 2 and v not in suits:
                dist = sum(max(0, a - b) for a, b in zip(h, counts))
                best = dist if best is None else min(best, dist)
    assert shanten_or_none(counts, melds, void) == (None if best is None else best - 1)


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_reference_decompositions_contain_the_building_one(seed):
    rng = random.Random(seed)
    while True:
        suits = rng.sample(range(3), 2)
        blocks = [("pung", k) for k in range(27) if k // 9 in suits]
        blocks += [("chow", k) for k in range(27) if k // 9 in suits and k % 9 <= 6]
        pair, sets = rng.choice([k for k in range(27) if k // 9 in suits]), rng.choices(blocks, k=4)
        counts = [0] * 27
        counts[pair] += 2
        for kind, k in sets:
            for t in ((k, k, k) if kind == "pung" else (k, k + 1, k + 2)):
                counts[t] += 1
        if max(counts) <= 4:
            break
    assert (pair, sorted(sets)) in [(p, sorted(ss)) for p, ss in ref.decompositions(counts, 4)]
    for p, ss in ref.decompositions(counts, 4):  # every listed split really rebuilds the hand
        rebuilt = [0] * 27
        rebuilt[p] += 2
        for kind, k in ss:
            for t in ((k, k, k) if kind == "pung" else (k, k + 1, k + 2)):
                rebuilt[t] += 1
        assert rebuilt == counts
