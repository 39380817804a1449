"""The raw native module xueliu._core: vectors, the per-suit tables, errors, and batch == single.

These tests talk to ``_core`` directly (kinds as ints, counts as bytes, melds as (type, kind)), so
they use a tiny notation reader of their own instead of the public parser.
"""

import itertools
import random

import numpy as np
import pytest

import xueliu._core as core
from conftest import cases_before_wild_tiles

SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
SUIT_INDEX.update({ch: 0 for ch in "万萬"} | {ch: 1 for ch in "筒饼餅铜"} | {ch: 2 for ch in "条條索"})
VOID_CODE = {None: -1, "m": 0, "p": 1, "s": 2}
PENG, KONG, CONCEALED_KONG = 0, 1, 2


def kind(name: str) -> int:
    return SUIT_INDEX[name[1]] * 9 + int(name[0]) - 1


def read(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """'11p345m(777s)(8888m)[9999p]' -> (27 counts, [(type, kind), ...]); trusts its input."""
    counts, melds, digits, i = [0] * 27, [], "", 0
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            digits += ch
        elif ch in SUIT_INDEX:
            for d in digits:
                counts[SUIT_INDEX[ch] * 9 + int(d) - 1] += 1
            digits = ""
        else:
            close = text.index(")" if ch == "(" else "]", i)
            body = text[i + 1 : close]
            meld_type = PENG if len(body) == 4 else (KONG if ch == "(" else CONCEALED_KONG)
            melds.append((meld_type, SUIT_INDEX[body[-1]] * 9 + int(body[0]) - 1))
            i = close
        i += 1
    return counts, melds


def hand(text: str) -> core.Hand:
    counts, melds = read(text)
    return core.Hand(bytes(counts), melds)


def kinds_of(mask: int) -> list[str]:
    return [core.tile_name(k) for k in range(27) if mask >> k & 1]


# --- the public vectors -----------------------------------------------------------------------


def shape_code(case):
    """The core's shape code of a waits / shanten case: its hand size and suits (docs/rules.md §11,
    D40; 13 tiles and three suits where the case names none) and its seven_pairs."""
    from xueliu.rules.shape import shape_code as code

    return code(tuple(case.get("suits", "mps")), case.get("hand_size", 13), case["seven_pairs"])


def test_every_shanten_vector(vectors):
    for case in cases_before_wild_tiles(vectors, "shanten_cases"):
        got = core.shanten(hand(case["hand"]), VOID_CODE[case["void"]], shape_code(case))
        assert got == case["expect_shanten"], case


def test_every_wait_vector(vectors):
    for case in cases_before_wild_tiles(vectors, "wait_cases"):
        mask = core.waits(hand(case["hand"]), VOID_CODE[case["void"]], shape_code(case))
        assert kinds_of(mask) == case["expect_waits"], case


def test_every_eval_vector_is_a_win_exactly_when_expected(vectors):
    checked = 0
    for case in cases_before_wild_tiles(vectors, "eval_cases"):
        counts, melds = read(case["hand"])
        if sum(counts) != 14 - 3 * len(melds):
            continue  # a wrong tile count is an error for is_win, tested below
        seven_pairs = case.get("overrides", {}).get("seven_pairs", True)
        got = core.is_win(core.Hand(bytes(counts), melds), VOID_CODE[case["context"]["void"]],
                          seven_pairs)
        assert got == case["expect"]["win"], case
        checked += 1
    assert checked > 200


# --- the per-suit tables ------------------------------------------------------------------------


def complete_suit_configurations() -> dict[tuple[int, int], np.ndarray]:
    """Every count vector of one suit made of exactly m sets (pung or chow) and p pairs."""
    set_shapes = [np.eye(9, dtype=np.int64)[r] * 3 for r in range(9)]
    set_shapes += [np.eye(9, dtype=np.int64)[r : r + 3].sum(axis=0) for r in range(7)]
    configs = {}
    for m in range(5):
        for p in range(2):
            found = set()
            for sets in itertools.combinations_with_replacement(range(16), m):
                base = sum((set_shapes[t] for t in sets), np.zeros(9, np.int64))
                for pair in range(9) if p else [None]:
                    shape = base.copy()
                    if pair is not None:
                        shape[pair] += 2
                    if shape.max() <= 4:
                        found.add(tuple(shape))
            configs[m, p] = np.array(sorted(found), dtype=np.int64)
    return configs


@pytest.fixture(scope="module")
def configurations():
    return complete_suit_configurations()


def brute_costs(counts9, configs, caps9=None):
    """f[m, p] = the fewest tiles to add so that the suit holds m sets and p pairs."""
    h = np.array(counts9, dtype=np.int64)
    out = []
    for m in range(5):
        for p in range(2):
            c = configs[m, p]
            if caps9 is not None:
                c = c[(c <= np.array(caps9)).all(axis=1)]
            out.append(int(np.maximum(c - h, 0).sum(axis=1).min()) if len(c) else None)
    return out


def random_suits(rng, n):
    out = []
    while len(out) < n:
        counts9 = [rng.randint(0, 4) if rng.random() < 0.6 else 0 for _ in range(9)]
        if sum(counts9) <= 14:
            out.append(counts9)
    return out


def test_suit_cost_table_equals_brute_force(configurations):
    rng = random.Random(7)
    for counts9 in random_suits(rng, 300) + [[0] * 9, [4, 4, 4, 2, 0, 0, 0, 0, 0]]:
        assert core._suit_costs(counts9) == brute_costs(counts9, configurations), counts9


def test_capped_dp_equals_brute_force_and_the_table_without_caps(configurations):
    rng = random.Random(8)
    for counts9 in random_suits(rng, 200):
        assert core._suit_costs(counts9, None, False) == core._suit_costs(counts9)
        caps9 = [4] * 9
        for r in rng.sample(range(9), rng.randint(1, 2)):  # a peng (cap 1) or a kong (cap 0)
            caps9[r] = rng.choice([0, 1])
        counts9 = [min(c, cap) for c, cap in zip(counts9, caps9)]
        want = [99 if v is None else v for v in brute_costs(counts9, configurations, caps9)]
        got = core._suit_costs(counts9, caps9, False)
        assert [min(v, 99) for v in got] == want, (counts9, caps9)


def test_every_table_key_equals_the_exact_dp():
    assert core._check_tables() == 0


def test_tables_are_small_and_built_fast():
    info = core.tables_info()
    assert 0 < info["bytes"] <= 32 * 2**20
    assert 0 < info["build_seconds"] < 0.5


# --- shanten and waits beyond the vectors -----------------------------------------------------


def test_a_fifth_copy_never_counts_toward_shanten():
    # Count formula: 2222m is pung + pair shape, so "ready"; exactly, a 5th 2m is impossible.
    assert core.shanten(hand("2222m345p678p999p"), -1, True) == 1
    assert core.waits(hand("2222m345p678p999p"), -1, True) == 0


def test_a_peng_caps_the_copies_a_complete_hand_may_still_use():
    # 1m pair is impossible (peng of 1m + one in hand), so the single 1m must be replaced.
    assert core.shanten(hand("1m(111m)(222m)(333m)(444m)"), -1, True) == 1
    assert core.shanten(hand("1m(111p)(222m)(333m)(444m)"), -1, True) == 0


def test_melds_breaking_the_one_suit_rule_leave_no_complete_hand():
    three_suits = hand("11223m(111p)(999s)[5555m]")
    assert core.is_win(three_suits, -1, True) is False
    with pytest.raises(ValueError, match="no complete hand exists: melds span three suits"):
        core.shanten(three_suits, -1, True)
    void_meld = hand("1122334m(111p)(999p)")
    assert core.waits(void_meld, 1, True) == 0
    with pytest.raises(ValueError, match="no complete hand exists: melds contain the void suit p"):
        core.shanten(void_meld, 1, True)


def test_shanten_accepts_both_tile_counts_and_a_complete_hand_is_minus_one():
    assert core.shanten(hand("23445677p345789s"), -1, True) == -1
    assert core.shanten(hand("2344567p345789s"), -1, True) == 0


# --- errors -------------------------------------------------------------------------------------


def test_hand_rejects_a_fifth_copy_counting_melds():
    counts, _ = read("55m123p456p")
    with pytest.raises(ValueError, match="fifth copy of 5m"):
        core.Hand(bytes(counts), [(PENG, kind("5m"))])
    with pytest.raises(ValueError, match="fifth copy of 9s"):
        core.Hand(bytes(27), [(PENG, kind("9s")), (KONG, kind("9s"))])


def test_hand_rejects_bad_counts_and_melds():
    with pytest.raises(ValueError, match="count of 3p is 5"):
        core.Hand(bytes([0] * 11 + [5] + [0] * 15))
    with pytest.raises(ValueError, match="27 bytes"):
        core.Hand(bytes(26))
    with pytest.raises(ValueError, match="count of 1m is -1"):
        core.Hand([-1] + [0] * 26)
    with pytest.raises(ValueError, match="meld 0 has type 3"):
        core.Hand(bytes(27), [(3, 0)])
    with pytest.raises(ValueError, match="meld 1 has kind 27"):
        core.Hand(bytes(27), [(PENG, 0), (PENG, 27)])
    with pytest.raises(ValueError, match="meld 0 has kind -1"):
        core.Hand(bytes(27), [(KONG, -1)])
    with pytest.raises(ValueError, match="5 melds"):
        core.Hand(bytes(27), [(PENG, k) for k in range(5)])
    with pytest.raises(TypeError):
        core.Hand(12345)
    with pytest.raises(TypeError):
        core.Hand(bytes(27), [("peng", 0)])


def test_hand_round_trips_its_counts_and_melds():
    counts, melds = read("11p345m(777s)(8888m)[9999p]")
    h = core.Hand(bytes(counts), melds)
    assert h.counts == bytes(counts) and h.melds == melds
    assert core.Hand(np.array(counts, np.uint8), melds) == h


def test_hand_pickles_by_value():
    import pickle

    h = hand("11p345m(777s)(8888m)[9999p]")
    assert pickle.loads(pickle.dumps(h)) == h


def test_each_call_names_its_tile_count():
    with pytest.raises(ValueError, match=r"is_win needs 14 - 3k = 11 concealed tiles \(k = 1 melds\), got 10"):
        core.is_win(hand("1234567m111p(999m)"), -1, True)
    with pytest.raises(ValueError, match=r"waits needs 13 - 3k = 13 concealed tiles \(k = 0 melds\), got 14"):
        core.waits(hand("23445677p345789s"), -1, True)
    with pytest.raises(ValueError, match=r"shanten needs 13 - 3k or 14 - 3k = 13 or 14 .* got 12"):
        core.shanten(hand("2344567p34578s"), -1, True)


def test_void_must_be_none_or_a_suit():
    for bad in (3, -2, 100):
        with pytest.raises(ValueError, match="void suit"):
            core.is_win(hand("23445677p345789s"), bad, True)


def test_tile_name_range():
    assert [core.tile_name(k) for k in (0, 13, 26)] == ["1m", "5p", "9s"]
    with pytest.raises(ValueError, match="27"):
        core.tile_name(27)


# --- best_discards -------------------------------------------------------------------------------


def test_best_discards_agrees_with_the_single_calls():
    rules = core.ScoringRules()
    h14 = hand("12334577m23345p1p")
    counts = list(h14.counts)
    visible = bytearray(27)
    visible[kind("4p")] = 2
    options = core.best_discards(h14, bytes(visible), -1, rules)
    assert sorted(o[0] for o in options) == [k for k in range(27) if counts[k]]
    for discard, shanten, total, waits in options:
        rest = counts.copy()
        rest[discard] -= 1
        h13 = core.Hand(bytes(rest))
        assert shanten == core.shanten(h13, -1, True)
        assert [w[0] for w in waits] == [k for k in range(27) if core.waits(h13, -1, True) >> k & 1]
        for wait, remaining, discard_win, self_draw in waits:
            assert remaining == max(0, 4 - counts[wait] - visible[wait])
            won = rest.copy()
            won[wait] += 1
            assert discard_win == core.evaluate(core.Hand(bytes(won)), -1, rules, wait, 0)
            assert self_draw == core.evaluate(core.Hand(bytes(won)), -1, rules, wait, core.SELF_DRAW)
        assert total == sum(w[1] for w in waits)
    order = [(o[1], -o[2], -max([w[2][0] for w in o[3]], default=0), o[0]) for o in options]
    assert order == sorted(order)
    assert options[0][1] == 0 and options[0][2] > 0


def test_best_discards_rejects_impossible_visible_counts():
    rules = core.ScoringRules()
    h14 = hand("12334577m23345p1p")
    visible = bytearray(27)
    visible[kind("5m")] = 4
    with pytest.raises(ValueError, match="visible shows 4 of 5m but the hand holds 1"):
        core.best_discards(h14, bytes(visible), -1, rules)
    visible[kind("5m")] = 5
    with pytest.raises(ValueError, match="visible count of 5m is 5"):
        core.best_discards(h14, bytes(visible), -1, rules)
    with pytest.raises(ValueError, match="best_discards needs 14 - 3k = 14"):
        core.best_discards(hand("12334577m23345p"), None, -1, rules)


# --- batch == single --------------------------------------------------------------------------


def random_rows(seed: int, n: int, extra_tiles):
    """n random legal hands: melds (packed at random positions), concealed tiles of 1-3 suits,
    13 - 3k + extra tiles with extra drawn from extra_tiles, and a random void."""
    rng = random.Random(seed)
    counts = np.zeros((n, 27), np.uint8)
    melds = np.full((n, 4), -1, np.int16)
    void = np.full(n, -1, np.int8)
    for i in range(n):
        suits = rng.sample(range(3), rng.choice([1, 2, 2, 2, 3]))
        kinds = [k for k in range(27) if k // 9 in suits]
        held = [0] * 27
        slots = rng.sample(range(4), 4)
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3, 4])):
            meld_type, k = rng.randrange(3), rng.choice(kinds)
            size = 3 if meld_type == PENG else 4
            if held[k] + size <= 4:
                held[k] += size
                melds[i, slots.pop()] = 27 * meld_type + k
        n_melds = int((melds[i] >= 0).sum())
        want = 13 - 3 * n_melds + rng.choice(extra_tiles)
        while want:
            k = rng.choice(kinds)
            if held[k] < 4:
                held[k] += 1
                counts[i, k] += 1
                want -= 1
        void[i] = rng.choice([-1, -1, 0, 1, 2])
    return counts, melds, void


def single(counts_row, melds_row) -> core.Hand:
    codes = [int(c) for c in melds_row if c >= 0]
    return core.Hand(bytes(counts_row), [(c // 27, c % 27) for c in codes])


def test_batch_is_win_equals_single():
    counts, melds, void = random_rows(1, 3000, [1])
    # Mix in real wins: complete hands are rare among random ones.
    for i, text in enumerate(["23445677p345789s", "11122233344455m", "2244552299m1199p"]):
        counts[i], melds[i], void[i] = read(text)[0], -1, -1
    for seven_pairs in (True, False):
        got = core.batch_is_win(counts, melds, void, seven_pairs)
        want = [core.is_win(single(c, m), int(v), seven_pairs) for c, m, v in zip(counts, melds, void)]
        assert got.dtype == np.bool_ and got.tolist() == want
    assert got[:2].all()


def test_batch_waits_equals_single():
    counts, melds, void = random_rows(2, 3000, [0])
    for seven_pairs in (True, False):
        got = core.batch_waits(counts, melds, void, seven_pairs)
        want = [core.waits(single(c, m), int(v), seven_pairs) for c, m, v in zip(counts, melds, void)]
        assert got.dtype == np.uint32 and got.tolist() == want
    assert (got != 0).sum() > 0


def test_batch_shanten_equals_single():
    counts, melds, void = random_rows(3, 3000, [0, 1])
    hands = [single(c, m) for c, m in zip(counts, melds)]
    ok = []
    for h, v in zip(hands, void):
        try:
            core.shanten(h, int(v), True)
            ok.append(True)
        except ValueError:
            ok.append(False)
    ok = np.array(ok)
    counts, melds, void = counts[ok], melds[ok], void[ok]
    hands = [h for h, keep in zip(hands, ok) if keep]
    for seven_pairs in (True, False):
        got = core.batch_shanten(counts, melds, void, seven_pairs)
        want = [core.shanten(h, int(v), seven_pairs) for h, v in zip(hands, void)]
        assert got.dtype == np.int8 and got.tolist() == want
        assert core.batch_shanten(counts, melds, void, seven_pairs, threads=2).tolist() == want


def test_batch_evaluate_equals_single():
    rules = core.ScoringRules()
    counts, melds, void = random_rows(4, 2000, [1])
    for i, text in enumerate(["23445677p345789s", "11122233344455m", "2244552299m1199p",
                              "55p(2222m)(5555m)(8888m)(2222p)", "11m456p(111p)(222p)(333p)"]):
        c, m = read(text)
        counts[i], melds[i], void[i] = c, -1, -1
        melds[i, : len(m)] = [27 * t + k for t, k in m]
    for flags in (0, core.SELF_DRAW):
        fan, code = core.batch_evaluate(counts, melds, void, rules, flags)
        for i, (c, m, v) in enumerate(zip(counts, melds, void)):
            h = single(c, m)
            if core.is_win(h, int(v), True):
                want = core.evaluate(h, int(v), rules, -1, flags)
                assert (fan[i], code[i]) == (want[0], want[2]), i
            else:
                assert (fan[i], code[i]) == (0, -1), i
        assert (code[:5] >= 0).all()
        threaded = core.batch_evaluate(counts, melds, void, rules, flags, threads=2)
        assert threaded[0].tolist() == fan.tolist() and threaded[1].tolist() == code.tolist()


def test_batch_threads_split_rows_without_changing_answers():
    counts, melds, void = random_rows(5, 5000, [1])
    one = core.batch_is_win(counts, melds, void, True, threads=1)
    assert core.batch_is_win(counts, melds, void, True, threads=2).tolist() == one.tolist()
    assert core.batch_is_win(counts, melds, void, True, threads=7).tolist() == one.tolist()


def test_batch_melds_and_void_are_optional_and_lists_convert():
    rows = [read("23445677p345789s")[0], read("1112345678999m1m")[0]]
    assert core.batch_is_win(rows, None, None, True).tolist() == [True, True]
    assert core.batch_is_win(np.array(rows, np.int64), None, [-1, 1], True).tolist() == [True, True]
    assert core.batch_is_win(np.array(rows, np.uint8), None, [1, -1], True).tolist() == [False, True]
    assert core.batch_waits(np.zeros((0, 27), np.uint8), None, None, True).shape == (0,)


def test_batch_rejects_bad_shapes_and_dtypes():
    good = np.array([read("23445677p345789s")[0]], np.uint8)
    with pytest.raises(ValueError, match=r"counts must have shape \(N, 27\), got \(27,\)"):
        core.batch_is_win(good[0], None, None, True)
    with pytest.raises(ValueError, match=r"counts must have shape \(N, 27\), got \(1, 26\)"):
        core.batch_is_win(good[:, :26], None, None, True)
    with pytest.raises(ValueError, match="counts must hold integers, got dtype float64"):
        core.batch_is_win(good.astype(np.float64), None, None, True)
    with pytest.raises(ValueError, match=r"melds must have shape \(N, 4\), got \(1, 3\)"):
        core.batch_is_win(good, np.full((1, 3), -1, np.int16), None, True)
    with pytest.raises(ValueError, match="melds has 2 rows but counts has 1"):
        core.batch_is_win(good, np.full((2, 4), -1, np.int16), None, True)
    with pytest.raises(ValueError, match=r"void must have shape \(N,\), got \(1, 1\)"):
        core.batch_is_win(good, None, np.full((1, 1), -1, np.int8), True)
    with pytest.raises(ValueError, match="threads must be >= 1"):
        core.batch_is_win(good, None, None, True, threads=0)


def test_batch_names_the_bad_row():
    counts, melds, void = random_rows(6, 40, [1])
    bad = counts.copy()
    bad[17] = 0
    bad[17, kind("3p")] = 2
    bad_melds = melds.copy()
    bad_melds[17] = [27 * KONG + kind("3p"), -1, -1, -1]
    with pytest.raises(ValueError, match="row 17: fifth copy of 3p"):
        core.batch_is_win(bad, bad_melds, void, True)
    over = counts.copy()
    over[5, 0] = 5
    with pytest.raises(ValueError, match="row 5: count of 1m is 5"):
        core.batch_is_win(over, melds, void, True)
    negative = counts.astype(np.int64)
    negative[9, 4] = -1
    with pytest.raises(ValueError, match="row 9: count of 5m is -1"):
        core.batch_is_win(negative, melds, void, True)
    for code in (81, -2):
        codes = melds.copy()
        codes[3, 2] = code
        with pytest.raises(ValueError, match=f"row 3: meld code {code}"):
            core.batch_is_win(counts, codes, void, True)
    voids = void.copy()
    voids[11] = 3
    with pytest.raises(ValueError, match="row 11: void suit 3"):
        core.batch_is_win(counts, melds, voids, True)
    with pytest.raises(ValueError, match=r"row 0: waits needs 13 - 3k = \d+ concealed tiles"):
        core.batch_waits(counts, melds, void, True)
    with pytest.raises(ValueError, match=r"row 0: evaluate needs 14 - 3k"):
        core.batch_evaluate(np.zeros((1, 27), np.uint8), None, None, core.ScoringRules())


def test_batch_evaluate_rejects_unknown_flag_bits():
    counts = np.array([read("23445677p345789s")[0]], np.uint8)
    with pytest.raises(ValueError, match="unknown flag bits"):
        core.batch_evaluate(counts, None, None, core.ScoringRules(), 1 << 20)


def test_batch_shanten_names_a_row_without_any_complete_hand():
    counts = np.array([read("23445677p345789s")[0], read("1122m5p")[0]], np.uint8)
    melds = np.array([[-1] * 4, [27 * PENG + kind("1p"), 27 * PENG + kind("9s"), 27 * KONG + kind("5m"), -1]],
                     np.int16)
    with pytest.raises(ValueError, match="row 1: shanten: no complete hand exists: melds span three suits"):
        core.batch_shanten(counts, melds, None, True)
