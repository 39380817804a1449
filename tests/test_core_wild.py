"""Wild tiles in the native core (docs/rules.md §12.2): is_win, waits and shanten of hands holding
wilds, against the §12 public vectors and the brute-force reading enumeration of
tests/wild_reference.py.

The core takes a hand as its natural counts (a wild kind's column 0), its melds (a soft meld with
its wild count) and a count of concealed wilds; ``wild_kinds`` (a mask: bit k for a wild kind, bit
27 for added 红中) and ``wild_fifth_copy`` say what the rules make wild.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wild_reference as wild
import xueliu._core as core
from conftest import is_wild_tiles_case, load_vectors
from xueliu.rules import Rules
from xueliu.rules.shape import shape_code

VOID = {None: -1, "m": 0, "p": 1, "s": 2}
MELD_TYPE = {"peng": 0, "kong": 1, "concealed_kong": 2}
VECTORS = load_vectors()


def native(counts, melds, rules, benjin=None):
    """A physical hand of the reference (28 counts, melds with their wild tiles) as the core takes
    it: (Hand, shape code, the wild keyword arguments)."""
    wilds = wild.wild_set(rules, benjin)
    counts = list(counts) + [0] * (28 - len(counts))
    natural = bytes(0 if k in wilds else counts[k] for k in range(27))
    melds = [(MELD_TYPE[t], k, len(w)) if w else (MELD_TYPE[t], k)
             for t, k, w in wild._norm_melds(melds)]
    hand = core.Hand(natural, melds, sum(counts[k] for k in wilds))
    code = shape_code(tuple(rules["suits"]), rules["hand_size"], rules["seven_pairs"])
    return hand, code, {"wild_kinds": sum(1 << k for k in wilds),
                        "wild_fifth_copy": rules["wild_fifth_copy"]}


def names(mask):
    return [core.tile_name(k) for k in range(27) if mask >> k & 1]


def case_rules(case):
    knobs = dict(case.get("overrides", {}), seven_pairs=case["seven_pairs"])
    if "hand_size" in case:
        knobs["hand_size"] = case["hand_size"]
    if "suits" in case:
        knobs["suits"] = tuple(case["suits"])
    return wild.make_rules_wild(case.get("preset", "xueliu"), **knobs)


def wild_cases(kind):
    return [case for case in VECTORS[kind] if is_wild_tiles_case(case)]


# --- the §12 public vectors ---------------------------------------------------------------------


@pytest.mark.parametrize("case", wild_cases("wait_cases"), ids=lambda c: c["id"])
def test_every_wild_wait_vector(case):
    counts, melds = wild.parse_wild(case["hand"])
    hand, code, kw = native(counts, melds, case_rules(case), case.get("benjin"))
    assert names(core.waits_wild(hand, VOID[case["void"]], code, **kw)) == case["expect_waits"]


@pytest.mark.parametrize("case", wild_cases("shanten_cases"), ids=lambda c: c["id"])
def test_every_wild_shanten_vector(case):
    counts, melds = wild.parse_wild(case["hand"])
    hand, code, kw = native(counts, melds, case_rules(case), case.get("benjin"))
    assert core.shanten_wild(hand, VOID[case["void"]], code, **kw) == case["expect_shanten"]


def test_the_wild_vectors_are_all_here():
    assert (len(wild_cases("wait_cases")), len(wild_cases("shanten_cases"))) == (40, 35)


# --- the rules, one by one ----------------------------------------------------------------------

YAOJI = wild.make_rules_wild("yaoji")  # every 1条 is wild


def yaoji(text, rules=YAOJI):
    return native(*wild.parse_wild(text), rules)


def test_a_wild_stands_for_the_missing_tile_of_a_complete_hand():
    hand, code, kw = yaoji("123456789m55p46p1s")  # the wild is the 5p of 456p
    assert core.is_win_wild(hand, -1, code, **kw)
    hand, code, kw = yaoji("123456789m55p47p1s")  # 4p and 7p cannot share a set
    assert not core.is_win_wild(hand, -1, code, **kw)


def test_a_drawn_wild_completes_every_ready_hand():
    ready, code, kw = yaoji("123456789m557p1s")
    assert core.shanten_wild(ready, -1, code, **kw) == 0
    completed, _, _ = yaoji("123456789m557p1s1s")
    assert core.is_win_wild(completed, -1, code, **kw)


def test_waits_list_natural_kinds_only_never_the_wild_kind():
    hand, code, kw = yaoji("123456789m5p1s1s1s")
    got = names(core.waits_wild(hand, -1, code, **kw))
    assert {"5p", "9p", "1m"} <= set(got)
    assert not any(w.endswith("s") for w in got)  # 1条 is wild; the other 条 break 缺一门


def test_shanten_is_the_natural_shanten_less_one_per_wild():
    # 123456789m5p alone is four tiles from complete (5p into 555p, a pair): 4 - 3 wilds - 1 = 0.
    hand, code, kw = yaoji("123456789m5p1s1s1s")
    assert core.shanten_wild(hand, -1, code, **kw) == 0
    # 123456789m5p7s: 7条 breaks 缺一门, so still four tiles to add (and 7s out): 4 - 2 - 1 = 1.
    hand, code, kw = yaoji("123456789m5p7s1s1s")
    assert core.shanten_wild(hand, -1, code, **kw) == 1


def test_a_wild_is_never_read_as_a_tile_of_the_void_suit():
    hand, code, kw = yaoji("123456789m1s1s1s1s")
    assert any(w.endswith("p") for w in names(core.waits_wild(hand, -1, code, **kw)))
    assert not any(w.endswith("p") for w in names(core.waits_wild(hand, VOID["p"], code, **kw)))
    assert core.shanten_wild(hand, VOID["p"], code, **kw) == 0


def test_a_kind_is_read_at_most_four_times_unless_wild_fifth_copy():
    text = "1111m234p567p789p1s"  # only a fifth 1万 completes it (11111m: 111m + 11m)
    hand, code, kw = yaoji(text)
    assert not core.is_win_wild(hand, -1, code, **kw)
    fifth = wild.make_rules_wild("yaoji", wild_fifth_copy=True)
    hand, code, kw = yaoji(text, fifth)
    assert core.is_win_wild(hand, -1, code, **kw)


def test_a_soft_meld_counts_at_its_full_size_toward_the_four_copy_limit():
    # (55m1s) uses 5万 three times, so the 5m pair in hand would be a fifth use.
    hand, code, kw = yaoji("55m234p567p789p(55m1s)")
    assert not core.is_win_wild(hand, -1, code, **kw)
    hand, code, kw = yaoji("66m234p567p789p(55m1s)")
    assert core.is_win_wild(hand, -1, code, **kw)


def test_a_hand_of_wilds_and_two_suits_is_missing_a_suit():
    # 123m 456m 789p 11p and three wilds (a set of anything): complete in two suits.
    hand, code, kw = yaoji("123m456m789p11p1s1s1s")  # wilds belong to no suit
    assert core.is_win_wild(hand, -1, code, **kw)


def test_red_dragons_are_wilds_of_no_kind():
    rules = wild.make_rules_wild("hongzhong")
    hand, code, kw = native(*wild.parse_wild("123456789m55p4p7z"), rules)
    assert kw["wild_kinds"] == 1 << 27 and hand.wilds == 1
    assert core.shanten_wild(hand, -1, code, **kw) == 0


# --- bad input ----------------------------------------------------------------------------------


def test_wilds_under_rules_without_wilds_are_refused():
    hand = core.Hand(bytes(27), [], 2)
    with pytest.raises(ValueError, match="rules have none"):
        core.shanten(hand, -1, True)


def test_a_natural_count_of_a_wild_kind_is_refused():
    counts = [0] * 27
    counts[18] = 2  # two 1条 under 幺鸡 are wilds, not naturals
    counts[0:12] = [1] * 12
    with pytest.raises(ValueError, match="1s is a wild kind"):
        core.shanten_wild(core.Hand(bytes(counts), []), -1, True, wild_kinds=1 << 18)


def test_a_soft_meld_needs_a_natural_tile():
    with pytest.raises(ValueError, match="wilds"):
        core.Hand(bytes(27), [(0, 4, 3)])


def test_wild_kinds_outside_the_kinds_are_refused():
    with pytest.raises(ValueError, match="wild_kinds"):
        core.shanten_wild(core.Hand(bytes([1] * 13 + [0] * 14), []), -1, True, wild_kinds=1 << 28)


# --- every hand: the core against the reading enumeration ---------------------------------------

PRESETS = ("yaoji", "leshan", "hongzhong")


def random_wild_hand(rng, preset=None):
    """A random physical hand under a wild preset (random unless given, then with its own knobs)
    and a random knob mix: (counts, melds, void, rules). Wilds both concealed and in soft melds;
    13 - 3k or 14 - 3k tiles; any void."""
    over = {}
    if preset is None:
        preset = rng.choice(PRESETS)
        if rng.random() < 0.3:
            over["wild_fifth_copy"] = not wild.PRESETS[preset]["wild_fifth_copy"]
        if rng.random() < 0.2:
            over["seven_pairs"] = False
    rules = wild.make_rules_wild(preset, **over)
    wilds = sorted(wild.wild_set(rules))
    suits = rng.sample(range(3), rng.choice([1, 2, 2, 2, 3]))
    pool = [k for k in range(27) if k not in wilds and k // 9 in suits]
    used, melds = [0] * 28, []
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        kind, mtype = rng.choice(pool), rng.choice(list(MELD_TYPE))
        size = 3 if mtype == "peng" else 4
        wild_tiles = [rng.choice(wilds) for _ in range(rng.choice([0, 0, 1] + [2] * (size == 4)))]
        if any(m[1] == kind for m in melds) or used[kind] + size - len(wild_tiles) > 4:
            continue
        if any(used[w] + wild_tiles.count(w) > 4 for w in wild_tiles):
            continue
        for w in wild_tiles:
            used[w] += 1
        used[kind] += size - len(wild_tiles)
        melds.append((mtype, kind, tuple(wild_tiles)))
    size = 14 - 3 * len(melds) - rng.choice([0, 1])
    counts = [0] * 28
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
        w = rng.choice(wilds)
        if used[w] < 4:
            counts[w] += 1
            used[w] += 1
    meld_kinds = [m[1] for m in melds]  # their other copies test the four-use limit
    while sum(counts) < size:
        kind = rng.choice(meld_kinds if meld_kinds and rng.random() < 0.15 else pool)
        if used[kind] < 4:
            counts[kind] += 1
            used[kind] += 1
    return counts, melds, rng.choice([None, None, "m", "p", "s"]), rules


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_core_agrees_with_the_reading_enumeration(seed):
    counts, melds, void, rules = random_wild_hand(random.Random(seed))
    hand, code, kw = native(counts, melds, rules)
    v = VOID[void]
    try:
        expected_shanten = wild.shanten_wild(counts, melds, void, rules)
    except ValueError:  # no complete hand exists (melds across three suits or in the void)
        with pytest.raises(ValueError):
            core.shanten_wild(hand, v, code, **kw)
        return
    assert core.shanten_wild(hand, v, code, **kw) == expected_shanten
    if sum(counts) == 14 - 3 * len(melds):
        assert core.is_win_wild(hand, v, code, **kw) == wild.is_win_wild(counts, melds, void, rules)
    else:
        expected = [core.tile_name(k) for k in wild.waits_wild(counts, melds, void, rules)]
        assert names(core.waits_wild(hand, v, code, **kw)) == expected


# --- batch calls: the natural counts and a wild count per row -----------------------------------


def batch_rows(hands):
    """(counts uint8[N, 27], melds int16[N, 4] with 81 * wilds for a soft meld, wilds uint8[N])."""
    import numpy as np

    counts = np.array([list(h.counts) for h in hands], dtype=np.uint8)
    melds = np.full((len(hands), 4), -1, dtype=np.int16)
    for i, h in enumerate(hands):
        for j, meld in enumerate(h.melds):
            melds[i, j] = 27 * meld[0] + meld[1] + 81 * (meld[2] if len(meld) == 3 else 0)
    return counts, melds, np.array([h.wilds for h in hands], dtype=np.uint8)


@pytest.mark.parametrize("preset", PRESETS)
def test_batch_calls_answer_each_row_as_the_single_calls(preset):
    import numpy as np

    rng = random.Random(preset)
    rows = {13: [], 14: []}
    while min(len(r) for r in rows.values()) < 150:
        counts, melds, void, rules = random_wild_hand(rng, preset)
        hand, code, kw = native(counts, melds, rules)
        try:
            core.shanten_wild(hand, VOID[void], code, **kw)
        except ValueError:
            continue
        rows[sum(counts) + 3 * len(melds)].append((hand, VOID[void]))
    rules = wild.make_rules_wild(preset)
    _, code, kw = native([0] * 28, [], rules)
    for size, (call, batch) in {14: (core.is_win_wild, core.batch_is_win),
                                13: (core.waits_wild, core.batch_waits)}.items():
        hands = [h for h, _ in rows[size]]
        voids = np.array([v for _, v in rows[size]], dtype=np.int8)
        counts, melds, wilds = batch_rows(hands)
        got = batch(counts, melds, voids, code, 1, wilds=wilds, **kw)
        assert list(got) == [call(h, v, code, **kw) for h, v in rows[size]]
        shanten = core.batch_shanten(counts, melds, voids, code, 2, wilds=wilds, **kw)
        assert list(shanten) == [core.shanten_wild(h, v, code, **kw) for h, v in rows[size]]


def test_a_batch_row_with_a_natural_count_of_a_wild_kind_is_refused():
    import numpy as np

    counts = np.zeros((1, 27), np.uint8)
    counts[0, :13] = 1
    counts[0, 18] = 1  # 1条 under 幺鸡
    with pytest.raises(ValueError, match="row 0: 1s is a wild kind"):
        core.batch_shanten(counts, None, None, True, 1, wilds=np.zeros(1, np.uint8),
                           wild_kinds=1 << 18)


# --- 进张 --------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_jinzhang_are_the_draws_that_lower_the_shanten_and_always_the_wild(seed):
    rng = random.Random(seed)
    while True:
        counts, melds, void, rules = random_wild_hand(rng)
        if sum(counts) == 13 - 3 * len(melds):
            try:
                before = wild.shanten_wild(counts, melds, void, rules)
                break
            except ValueError:
                continue
    hand, code, kw = native(counts, melds, rules)
    got = core.jinzhang_wild(hand, None, VOID[void], code, kw["wild_kinds"],
                             kw["wild_fifth_copy"], 5)
    wilds = wild.wild_set(rules)
    physical = wild.physical_counts(counts, melds)
    expected = []
    for k in range(27):
        if k in wilds or physical[k] >= 4:
            continue
        drawn = list(counts) + [0] * (28 - len(counts))
        drawn[k] += 1
        if wild.shanten_wild(drawn, melds, void, rules) < before:
            expected.append(core.tile_name(k))
    assert [t for t, _ in got] == expected + ["wild"]
    assert got[-1] == ("wild", 5)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("self_draw", [False, True])
def test_batch_evaluate_scores_each_row_as_evaluate(preset, self_draw):
    """batch_evaluate with wilds: each row's best reading (or 四鸡 on a self-draw), as the single
    evaluate gives it; a row that is neither a win nor 四鸡 is fan 0, code -1."""
    import numpy as np

    rng = random.Random(f"evaluate-{preset}")
    rows = []
    while len(rows) < 200:
        counts, melds, void, wrules = random_wild_hand(rng, preset)
        if sum(counts) + 3 * len(melds) != 14:
            continue
        hand, code, kw = native(counts, melds, wrules)
        rows.append((hand, VOID[void]))
    scoring = Rules.preset(preset)._scoring
    flags = core.SELF_DRAW if self_draw else 0
    counts, melds, wilds = batch_rows([h for h, _ in rows])
    voids = np.array([v for _, v in rows], dtype=np.int8)
    fan, codes = core.batch_evaluate(counts, melds, voids, scoring, flags, 2, wilds=wilds)
    wins = 0
    for i, (hand, v) in enumerate(rows):
        try:
            want = core.evaluate(hand, v, scoring, -1, flags)
        except ValueError:
            assert (fan[i], codes[i]) == (0, -1), i
            continue
        wins += 1
        assert (fan[i], codes[i]) == (want[0], want[2]), i
    assert wins


def test_a_meld_of_the_void_suit_is_no_win_with_wilds_either():
    # As without wilds: a hand whose melds hold the declared void suit is never complete (the
    # distance alone would read the hand without that suit's melds).
    hand = core.Hand(bytes([0] * 19 + [2, 3] + [0] * 6), [(1, 4), (0, 8)], 3)
    assert not core.is_win_wild(hand, 0, True, 1 << 18)
    assert core.is_win_wild(hand, -1, True, 1 << 18)
    assert core.waits_wild(core.Hand(bytes([0] * 19 + [2, 2] + [0] * 6), [(1, 4), (0, 8)], 3),
                           0, True, 1 << 18) == 0
