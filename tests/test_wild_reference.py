"""The wild-tile reference (tests/wild_reference.py, docs/rules.md §12) answers every §12 public vector
of hands.json, and agrees with itself where the rules say it must.

The engine does not implement wild tiles yet: until it does, the §12 vectors are checked here only
(conftest.cases_before_wild_tiles keeps them out of the engine's vector tests). The properties are
brute force against formula: whether a hand is complete or ready is decided by listing the readings
of its wilds, its shanten by §5's shanten of the natural tiles minus the wilds (D47).
"""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as ref
import wild_reference as wild
from conftest import cases_before_wild_tiles, is_wild_tiles_case, load_vectors

VECTORS = load_vectors()
FLAGS = ("self_draw", "kong_replacement", "after_kong_discard", "robbed_kong", "last_tile",
         "heavenly", "earthly")


def wild_cases(kind):
    """The §12 cases of one kind: every case the engine's vector tests leave out, and no other."""
    cases = [case for case in VECTORS[kind] if is_wild_tiles_case(case)]
    assert len(cases) + len(cases_before_wild_tiles(VECTORS, kind)) == len(VECTORS[kind])
    assert all(case["id"].startswith("X") for case in cases)
    return cases


def _id(case):
    return f"{case['id']}-{case.get('note', '')}"


def case_rules(case, **more):
    """A case's rules: its preset with its overrides (and, for waits / shanten, its seven_pairs)."""
    return wild.make_rules_wild(case.get("preset", "xueliu"), **dict(case.get("overrides", {}), **more))


# --------------------------------------------------------------------------------------------
# The §12 public vectors
# --------------------------------------------------------------------------------------------

def test_the_vectors_hold_the_section_12_cases():
    assert [len(wild_cases(kind)) for kind in ("eval_cases", "wait_cases", "shanten_cases",
                                               "parse_cases")] == [118, 40, 35, 16]


@pytest.mark.parametrize("case", wild_cases("parse_cases"), ids=_id)
def test_parse_case(case):
    if case["expect"] == "error":
        with pytest.raises(ValueError):
            wild.parse_wild(case["text"])
    else:
        counts, melds = wild.parse_wild(case["text"])
        assert wild.to_notation_wild(counts, melds) == case["expect"]["canonical"]
        assert wild.parse_wild(wild.to_notation_wild(counts, melds)) == (counts, melds)


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "parse_cases"), ids=_id)
def test_section_1_notation_parses_as_before(case):
    """D41: on §1 notation parse_wild answers what the §1 parser answers."""
    try:
        expect = ref.to_text(*ref.parse(case["text"]))
    except ValueError:
        with pytest.raises(ValueError):
            wild.parse_wild(case["text"])
        return
    assert wild.to_notation_wild(*wild.parse_wild(case["text"])) == expect


@pytest.mark.parametrize("case", wild_cases("wait_cases"), ids=_id)
def test_wait_case(case):
    counts, melds = wild.parse_wild(case["hand"])
    got = wild.waits_wild(counts, melds, case["void"], case_rules(case, seven_pairs=case["seven_pairs"]),
                          benjin=case.get("benjin"))
    assert [wild.KIND_NAMES[t] for t in got] == case["expect_waits"]


@pytest.mark.parametrize("case", wild_cases("shanten_cases"), ids=_id)
def test_shanten_case(case):
    counts, melds = wild.parse_wild(case["hand"])
    got = wild.shanten_wild(counts, melds, case["void"],
                            case_rules(case, seven_pairs=case["seven_pairs"]), benjin=case.get("benjin"))
    assert got == case["expect_shanten"]


@pytest.mark.parametrize("case", wild_cases("eval_cases"), ids=_id)
def test_eval_case(case):
    counts, melds = wild.parse_wild(case["hand"])
    rules = case_rules(case)
    context = dict(case["context"])
    void = context.pop("void")
    expect = case["expect"]
    # "is_win": false marks a 四鸡 win on an incomplete hand (D52): evaluate scores it all the same.
    assert wild.is_win_wild(counts, melds, void, rules, benjin=case.get("benjin")) == \
        expect.get("is_win", expect["win"])
    if not expect["win"]:
        with pytest.raises(ValueError, match="not a winning hand"):
            wild.evaluate_wild(counts, melds, void, rules, benjin=case.get("benjin"), **context)
        return
    got = wild.evaluate_wild(counts, melds, void, rules, benjin=case.get("benjin"), **context)
    # The reference applies the full tie-break (D48), so it names exactly the listed base.
    assert got == ref.FanResult(expect["fan"], expect["multiplier"], expect["base"],
                                expect["base_fan"], expect["gen"], tuple(expect["extras"]))
    for pid, base_fan, gen in expect.get("alternatives", []):  # each one a real tie
        assert base_fan + gen == expect["base_fan"] + expect["gen"] and pid in ref.PATTERN_IDS


# Hands and knobs the rules refuse (D43, D45): (hand, knobs, 本金 tile), each a ValueError.
REFUSED_HANDS = [
    ("123456789m55p46p7z", {}, None),                                # 红中 without extra_wilds
    ("12345678m55p7z7z7z7z7z", {"extra_wilds": 4}, None),            # a fifth 红中
    ("123456789m55p46p(111s)", {"wild_kinds": ("1s",)}, None),       # a meld of a wild kind
    ("123456789m55p46p(55p2s)", {"wild_kinds": ("1s",)}, None),      # a meld's "wild" is natural
    ("3333m456m789m55p46p", {"wild_kinds": "benjin"}, "3m"),         # four of the 本金
    ("123456789m55p46p1s", {"wild_kinds": "benjin"}, None),          # benjin needs the 本金
    ("123456789m55p46p1s", {"wild_kinds": ("1s",)}, "3m"),           # and only benjin takes it
    ("123456789m55p46p1s", {"wild_kinds": "benjin"}, "7z"),          # 红中 is no 本金
    ("23456789p55s46s1s", {"suits": ("p", "s"), "wild_kinds": ("1s",)}, None),    # 13 tiles
    ("123456789m55p46p1s", {"suits": ("p", "s"), "wild_kinds": ("1s",)}, None),   # 万 not in play
]
REFUSED_KNOBS = [
    {"extra_wilds": 5}, {"wild_kinds": ("7z",)}, {"wild_kinds": ("1s", "1s")},
    {"wild_kinds": ("1m",), "suits": ("p", "s")}, {"wild_kinds": "benjin", "extra_wilds": 4},
    {"wild_kinds": ("1s",), "four_wilds": "cap"}, {"wild_kinds": ("1s",), "four_wilds": 0},
    {"wild_kinds": ("1s",), "no_wild_bonus": 4}, {"wild_gen": "all"}, {"soft_peng": "three"},
    {"wild_fifth_copy": 1}, {"wild_count": 4},
]


@pytest.mark.parametrize("hand, knobs, benjin", REFUSED_HANDS)
def test_a_hand_the_rules_refuse_is_a_value_error(hand, knobs, benjin):
    counts, melds = wild.parse_wild(hand)
    with pytest.raises(ValueError):
        wild.is_win_wild(counts, melds, None, wild.make_rules_wild(**knobs), benjin=benjin)


@pytest.mark.parametrize("knobs", REFUSED_KNOBS)
def test_a_bad_knob_is_a_value_error(knobs):
    with pytest.raises(ValueError):
        wild.make_rules_wild(**knobs)


# --------------------------------------------------------------------------------------------
# Properties of the reference against itself
# --------------------------------------------------------------------------------------------

# Wild sets of docs/rules.md §12.1 the random hands are played under (None: no wilds at all).
WILD_KNOBS = (
    {"wild_kinds": ("1s",)},
    {"wild_kinds": ("1s", "1p")},
    {"extra_wilds": 4},
    {"wild_kinds": ("1s",), "extra_wilds": 4},
    {"wild_kinds": "benjin"},
    {"wild_kinds": "benjin_plus"},
    {"wild_kinds": ("1s",), "wild_fifth_copy": True},
)


def random_hand(seed, size, knobs, max_wilds=3):
    """A random hand of ``size`` tiles (13 or 14, a meld counting 3) under ``knobs``: a complete
    shape (a pair and four sets, or seven pairs) on two suits - sometimes three - with 0-2 melds
    (some soft), one tile dropped for 13, some of its concealed tiles replaced by wilds (at most
    ``max_wilds`` concealed wilds in all), and sometimes one tile changed at random. Returns (counts, melds, rules, benjin)."""
    rng = random.Random(seed)
    while True:
        rules = wild.make_rules_wild(rng.choice(["xueliu", "xuezhan"]), **knobs,
                                     seven_pairs=rng.random() < 0.8)
        benjin = rng.randrange(27) if rules["wild_kinds"] in ("benjin", "benjin_plus") else None
        wild_kinds = sorted(wild.wild_set(rules, benjin))
        pool = [k for k in wild_kinds for _ in range(4 if k < 27 else rules["extra_wilds"])]
        suits = rng.sample(range(3), 3 if rng.random() < 0.15 else 2)
        kinds = [k for k in range(27) if k // 9 in suits]
        tiles, melds = [], []
        if rng.random() < 0.2:  # seven pairs
            for k in rng.sample(kinds, 7):
                tiles += [k, k]
        else:
            tiles += [rng.choice(kinds)] * 2
            for _ in range(4):
                k = rng.choice(kinds)
                if rng.random() < 0.5 or k % 9 > 6:
                    if len(melds) < 2 and k not in wild_kinds and rng.random() < 0.3:
                        mtype = rng.choice(["peng", "kong", "concealed_kong"])
                        soft = (rng.choice(pool),) if pool and rng.random() < 0.3 else ()
                        melds.append((mtype, k, soft))
                        continue
                    tiles += [k, k, k]
                else:
                    tiles += [k, k + 1, k + 2]
        rng.shuffle(tiles)
        if size == 13:
            tiles.pop()
        if rng.random() < 0.3:  # a tile changed: the shape may break
            tiles[0] = rng.choice(kinds)
        for i in range(rng.randint(0, min(max_wilds, len(tiles)))):
            if pool:
                tiles[i] = rng.choice(pool)
        counts = [0] * 28
        for t in tiles:
            counts[t] += 1
        if sum(counts[k] for k in wild_kinds) > max_wilds:
            continue  # tiles of the shape were wild kinds: draw again
        try:
            wild.check_hand(counts, melds, None, rules, benjin, (size,), "a random hand")
        except ValueError:
            continue  # more copies of a kind than the wall holds: draw again
        return counts, melds, rules, benjin


def shanten_or_none(counts, melds, void, rules, benjin):
    try:
        return wild.shanten_wild(counts, melds, void, rules, benjin=benjin)
    except ValueError:  # no complete hand exists (melds in three suits or in the void)
        return None


SEEDS = st.integers(0, 2**32)
VOIDS = st.sampled_from([None, "m", "p", "s"])
KNOBS = st.sampled_from(WILD_KNOBS)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, void=VOIDS, knobs=KNOBS)
def test_a_hand_is_complete_iff_its_shanten_is_minus_one(seed, void, knobs):
    counts, melds, rules, benjin = random_hand(seed, 14, knobs)
    complete = wild.is_win_wild(counts, melds, void, rules, benjin=benjin)
    assert complete == (shanten_or_none(counts, melds, void, rules, benjin) == -1)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, void=VOIDS, knobs=KNOBS)
def test_a_hand_is_ready_iff_its_shanten_is_zero(seed, void, knobs):
    counts, melds, rules, benjin = random_hand(seed, 13, knobs)
    ready = wild.is_ready_wild(counts, melds, void, rules, benjin=benjin)
    assert ready == (shanten_or_none(counts, melds, void, rules, benjin) == 0)
    if wild.waits_wild(counts, melds, void, rules, benjin=benjin):
        assert ready  # a natural wait makes a hand ready (the wild completes it as well)


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, void=VOIDS, knobs=KNOBS)
def test_a_wild_never_raises_shanten(seed, void, knobs):
    counts, melds, rules, benjin = random_hand(seed, 13, knobs)
    before = shanten_or_none(counts, melds, void, rules, benjin)
    if before is None:
        return
    for k in sorted(wild.wild_set(rules, benjin)):
        drawn = list(counts)
        drawn[k] += 1
        try:  # a drawn wild always lowers the shanten (docs/rules.md §12.2)
            assert wild.shanten_wild(drawn, melds, void, rules, benjin=benjin) == before - 1
        except ValueError:
            continue  # every copy of this wild is held already
        natural = [t for t in range(27) if counts[t] and t not in wild.wild_set(rules, benjin)]
        if natural:  # a natural tile swapped for a wild
            drawn[natural[0]] -= 1
            assert wild.shanten_wild(drawn, melds, void, rules, benjin=benjin) <= before
        return


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, void=VOIDS, knobs=st.sampled_from(WILD_KNOBS[:5]))
def test_shanten_is_the_best_reading_of_the_wilds(seed, void, knobs):
    """D47 at one wild (each reading costs a §5 shanten): §5's shanten of the natural tiles minus
    the wilds equals the best §5 shanten over every reading of the wilds (any kind but the void
    suit's, at most 4 uses), readings in a third suit included."""
    counts, melds, rules, benjin = random_hand(seed, 13, knobs, max_wilds=1)
    h = wild.check_hand(counts, melds, void, rules, benjin, (13,), "shanten")
    held = [a + b for a, b in zip(h.natural, ref.meld_counts(h.plain))]
    if max(held) > 4:
        return  # a soft meld and natural tiles of its kind over 4 uses: no reading at all (D44)
    kinds = [k for k in range(27) if k // 9 != h.void]
    best = None
    for chosen in itertools.combinations_with_replacement(kinds, h.wilds):
        reading = [h.natural[k] + chosen.count(k) for k in range(27)]
        if any(held[k] + chosen.count(k) > 4 for k in range(27)):
            continue
        try:
            sh = ref.shanten(reading, list(h.plain), void, rules["seven_pairs"])
        except ValueError:
            continue
        best = sh if best is None else min(best, sh)
    assert shanten_or_none(counts, melds, void, rules, benjin) == best


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, void=VOIDS, preset=st.sampled_from(["xueliu", "xuezhan"]),
       size=st.sampled_from([13, 14]))
def test_with_no_wilds_every_function_is_the_section_1_to_11_one(seed, void, preset, size):
    """D41: with no wilds in the rules, the §12 functions answer what tests/reference.py does."""
    counts, melds, rules, _ = random_hand(seed, size, {})
    rules = wild.make_rules_wild(preset, seven_pairs=rules["seven_pairs"])
    plain = [(mtype, kind) for mtype, kind, _ in melds]
    sp = rules["seven_pairs"]
    text = ref.to_text(counts[:27], plain)
    assert wild.parse_wild(text) == (counts, [(mtype, kind, ()) for mtype, kind in plain])
    sh = shanten_or_none(counts, melds, void, rules, None)
    try:
        assert sh == ref.shanten(counts[:27], plain, void, sp)
    except ValueError:
        assert sh is None
    if size == 13:
        assert wild.waits_wild(counts, melds, void, rules) == ref.waits(counts[:27], plain, void, sp)
        return
    assert wild.is_win_wild(counts, melds, void, rules) == ref.is_win(counts[:27], plain, void, sp)
    if not ref.is_win(counts[:27], plain, void, sp):
        return
    rng = random.Random(seed)
    rules.update(duanyaojiu=rng.random() < 0.5, yitiaolong=rng.random() < 0.5,
                 jiaxinwu=rng.random() < 0.5, single_wait=rng.random() < 0.3,
                 gen_counts=rng.choice(["all_fours", "kongs_only", "none"]))
    flags = {"self_draw": rng.random() < 0.5}
    flags["last_tile"] = rng.random() < 0.2
    flags["heavenly"] = flags["self_draw"] and not melds and rng.random() < 0.2
    win_tile = rng.choice([k for k in range(27) if counts[k]])
    scoring = {key: rules[key] for key in ref.PRESETS["xueliu"]}
    assert wild.evaluate_wild(counts, melds, void, rules, win_tile, **flags) == \
        ref.evaluate(counts[:27], plain, void, scoring, win_tile, **flags)
