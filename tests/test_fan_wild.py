"""Fan with wild tiles in the native core (docs/rules.md §12.2, §12.5): ``_core.evaluate`` scores a
hand holding wilds on its best reading, or as 四鸡, against the §12 public vectors and the
brute-force reading enumeration of tests/wild_reference.py.

The core takes a hand as its natural counts (a wild kind's column 0), its melds (a soft meld with
its wild count) and a count of concealed wilds; ``ScoringRules`` carries the §12 knobs
(``wild_kinds`` a mask: bit k for a wild kind, bit 27 for added 红中; ``wild_gen`` 0 fours, 1
natural, 2 per_wild; ``no_wild_bonus``; ``four_wilds`` 0 none, -1 "cap", N) and ``win_tile`` 27
is a winning wild.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
import wild_reference as wild
import xueliu._core as core
from conftest import is_wild_tiles_case, load_vectors
from xueliu.rules.shape import shape_code

VOID = {None: -1, "m": 0, "p": 1, "s": 2}
MELD_TYPE = {"peng": 0, "kong": 1, "concealed_kong": 2}
FLAG_BITS = {"self_draw": core.SELF_DRAW, "kong_replacement": core.KONG_REPLACEMENT,
             "after_kong_discard": core.AFTER_KONG_DISCARD, "robbed_kong": core.ROBBED_KONG,
             "last_tile": core.LAST_TILE, "heavenly": core.HEAVENLY, "earthly": core.EARTHLY}
STACKING = {"off": 0, "base": 1, "additive": 2}
GEN_COUNTS = {"all_fours": 0, "kongs_only": 1, "none": 2}
WILD_GEN = {"fours": 0, "natural": 1, "per_wild": 2}
EARTHLY_WIN = {"first_draw": 0, "first_discard": 1, "either": 2}
VECTORS = load_vectors()


def scoring_rules(rules, benjin=None):
    """The core's ScoringRules of a full rules dict of the reference (a mapping written from the
    rule text, independent of xueliu.rules)."""
    table = dict(ref.DEFAULT_FAN_TABLE, **rules["fan_table"])
    four = rules["four_wilds"]
    return core.ScoringRules(
        seven_pairs=rules["seven_pairs"], jingoudiao=STACKING[ref._mode(rules["jingoudiao"])],
        heavenly_earthly=STACKING[ref._mode(rules["heavenly_earthly"])], haidi=rules["haidi"],
        zimo_fan=rules["self_draw_bonus"] == "fan", menqing=rules["menqing"],
        duanyaojiu=rules["duanyaojiu"], yitiaolong=rules["yitiaolong"],
        jiaxinwu=rules["jiaxinwu"], haidipao=rules["haidipao"],
        gen_counts=GEN_COUNTS[rules["gen_counts"]], max_fan=rules["max_fan"] or 0,
        fan_table=[table[pid] for pid in ref.PATTERN_IDS], multipliers=rules["multipliers"] or (),
        shape=shape_code(tuple(rules["suits"]), rules["hand_size"], rules["seven_pairs"]),
        jiang_patterns=rules["jiang_patterns"], kaertiao=rules["kaertiao"],
        single_wait=rules["single_wait"], earthly_win=EARTHLY_WIN[rules["earthly_win"]],
        tianhu_extra=rules["fan_table"].get("tianhu", 3),
        dihu_extra=rules["fan_table"].get("dihu", 2),
        wild_kinds=sum(1 << k for k in wild.wild_set(rules, benjin)),
        wild_fifth_copy=rules["wild_fifth_copy"], wild_gen=WILD_GEN[rules["wild_gen"]],
        no_wild_bonus=rules["no_wild_bonus"],
        four_wilds=0 if four is None else -1 if four == "cap" else four)


def native(counts, melds, rules, benjin=None):
    """A physical hand of the reference (28 counts, melds with their wild tiles) as the core
    takes it: natural counts, melds with their wild count, the concealed wilds."""
    wilds = wild.wild_set(rules, benjin)
    counts = list(counts) + [0] * (28 - len(counts))
    natural = bytes(0 if k in wilds else counts[k] for k in range(27))
    melds = [(MELD_TYPE[t], k, len(w)) for t, k, w in wild._norm_melds(melds)]
    return core.Hand(natural, melds, sum(counts[k] for k in wilds))


def core_evaluate(counts, melds, void, rules, benjin=None, win_tile=None, **flags):
    """_core.evaluate of a reference hand; the result as the reference's FanResult."""
    win = -1
    if win_tile is not None:
        win = wild.kind_of(win_tile)
        win = 27 if win in wild.wild_set(rules, benjin) else win
    bits = sum(FLAG_BITS[name] for name, on in flags.items() if on)
    fan, mult, code, base_fan, gen, packed = core.evaluate(
        native(counts, melds, rules, benjin), VOID[void], scoring_rules(rules, benjin), win, bits)
    extras = tuple(e for i, e in enumerate(core.EXTRA_IDS) if packed >> i & 1)
    # Above the mask: what the extras add beyond one fan each (天胡 / 地胡 stacked, 无鸡).
    raw = base_fan + gen + len(extras) + (packed >> 16)
    assert fan == (raw if rules["max_fan"] is None else min(raw, rules["max_fan"]))
    return ref.FanResult(fan, mult, core.PATTERN_IDS[code], base_fan, gen, extras)


def case_rules(case):
    return wild.make_rules_wild(case.get("preset", "xueliu"), **case.get("overrides", {}))


EVAL_CASES = [case for case in VECTORS["eval_cases"] if is_wild_tiles_case(case)]


# --- the §12 public vectors ---------------------------------------------------------------------


@pytest.mark.parametrize("case", EVAL_CASES, ids=lambda c: c["id"])
def test_every_wild_eval_vector(case):
    counts, melds = wild.parse_wild(case["hand"])
    context = dict(case["context"])
    void = context.pop("void")
    rules, expect = case_rules(case), case["expect"]
    if not expect["win"]:
        with pytest.raises(ValueError, match="not a winning hand"):
            core_evaluate(counts, melds, void, rules, case.get("benjin"), **context)
        return
    got = core_evaluate(counts, melds, void, rules, case.get("benjin"), **context)
    assert got == ref.FanResult(expect["fan"], expect["multiplier"], expect["base"],
                                expect["base_fan"], expect["gen"], tuple(expect["extras"]))


def test_the_wild_eval_vectors_are_all_here():
    assert len(EVAL_CASES) == 118


# --- the rules, one by one ----------------------------------------------------------------------


def score(text, preset="xueliu", void=None, win_tile=None, **knobs_and_flags):
    flags = {k: knobs_and_flags.pop(k) for k in list(knobs_and_flags) if k in FLAG_BITS}
    rules = wild.make_rules_wild(preset, **knobs_and_flags)
    return core_evaluate(*wild.parse_wild(text), void, rules, None, win_tile, **flags)


YAOJI = {"wild_kinds": ("1s",)}  # every 1条 is wild


def test_the_best_reading_wins_over_a_cheaper_one():
    # Three wilds beside 123456789m55m: read as 111m they make 清一色 with a four (3 + 1 根), where
    # any reading across two suits is a 1-fan 平胡.
    got = score("123456789m55m1s1s1s", **YAOJI)
    assert (got.base, got.base_fan, got.gen) == ("qingyise", 3, 1)
    assert got.fan == 4


def test_a_wild_does_not_spoil_qingyise():
    got = score("123456789m11m55m1s", **YAOJI)  # the wild is read as a 万
    assert got.base == "qingyise"


def test_a_wild_is_never_read_as_the_void_suit():
    # 123456789m55p46p + a wild completes only as 5p; with 筒 the void the hand holds a void tile.
    with pytest.raises(ValueError, match="not a winning hand"):
        score("123456789m55p46p1s", void="p", **YAOJI)
    # 123456789m55m + two wilds: as 55p or 11p it would be two suits; with 筒 void only 万.
    got = score("123456789m55m5m1s1s", void="p", **YAOJI)
    assert got.base == "qingyise"


def test_wild_gen_natural_counts_a_soft_kong_as_a_gen():
    hand = "123456789m11p(555p1s)"  # a kong of 5筒 holding one 幺鸡
    assert score(hand, wild_gen="natural", **YAOJI).gen == 1
    # ... but not a four made with a concealed wild: 555p and 46p + a wild read as 5p, which
    # "fours" counts.
    assert score("123m456m11p555p46p1s", wild_gen="natural", **YAOJI).gen == 0
    assert score("123m456m11p555p46p1s", wild_gen="fours", **YAOJI).gen == 1


def test_per_wild_counts_one_gen_per_wild_held():
    # One 根 per wild held, concealed or melded, on top of natural fours (none here).
    got = score("123456789m1p1s(55p1s)", wild_gen="per_wild", **YAOJI)
    assert got.gen == 2
    got = score("123456789m55p1s1s1s", wild_gen="per_wild", **YAOJI)
    assert got.gen == 3


def test_a_kind_read_more_than_four_times_is_one_gen():
    # wild_fifth_copy: 1111m + a wild read as the fifth 1万 (111m + 11m): one 根, not two.
    got = score("1111m234567789p1s", wild_fifth_copy=True, **YAOJI)
    assert got.gen == 1


def test_no_wild_bonus_is_added_only_without_any_wild():
    assert score("123456789m55p456p", no_wild_bonus=2, **YAOJI).extras == ("wuji",)
    assert score("123456789m55p456p", no_wild_bonus=2, **YAOJI).fan == 3  # 平胡 1 + 无鸡 2
    assert score("123456789m55p46p1s", no_wild_bonus=2, **YAOJI).extras == ()  # concealed
    assert score("123456789m55p(44p1s)", no_wild_bonus=2, **YAOJI).extras == ()  # melded


def test_four_wilds_score_siji_even_when_the_hand_is_not_complete():
    hand = "1s1s1s1s13579m2468p9s"  # three suits, nothing complete
    got = score(hand, four_wilds=3, self_draw=True, **YAOJI)
    assert (got.base, got.fan, got.gen, got.extras) == ("siji", 3, 0, ())
    capped = score(hand, four_wilds="cap", max_fan=4, self_draw=True, **YAOJI)
    assert (capped.base, capped.base_fan, capped.fan) == ("siji", 4, 4)
    with pytest.raises(ValueError, match="not a winning hand"):  # 四鸡 is a self-draw
        score(hand, four_wilds=3, **YAOJI)


def test_a_complete_hand_with_four_wilds_scores_the_better_of_siji_and_its_reading():
    hand = "1s1s1s1s123m456m789m9p"  # complete: 9p pairs a wild, three wilds a set
    reading = score(hand, self_draw=True, **YAOJI)
    assert reading.base != "siji"
    assert score(hand, four_wilds=reading.fan + 1, self_draw=True, **YAOJI).base == "siji"
    # A tie keeps the reading.
    assert score(hand, four_wilds=reading.fan, self_draw=True, **YAOJI) == reading


def test_a_winning_wild_is_read_as_a_kind_its_reading_gives_it():
    # The winning wild as the 5 of 456m scores 夹心五; 卡边吊 counts (5m was the only wait).
    got = score("46m123p456p789p55p1s", win_tile="1s", jiaxinwu=True, single_wait=True, **YAOJI)
    assert got.extras == ("jiaxinwu", "kabiandiao")
    got = score("13s456p789p55p678p1p", win_tile="1p", wild_kinds=("1p",), kaertiao=True)
    assert got.extras == ("kaertiao",)


def test_duanyaojiu_reads_the_reading():
    got = score("23m345p456p55p678p1s", duanyaojiu=True, **YAOJI)  # 234m, not 123m
    assert "duanyaojiu" in got.extras


def test_a_hand_without_wilds_scores_as_before_under_wild_rules():
    # Wild rules the hand does not use (红中 rooms, none held): the natural evaluator's answer.
    for text in ("23445677p345789s", "11223344556677s", "111m222m333m444m55m", "1112345678999m9m"):
        counts, melds = wild.parse_wild(text)
        plain = wild.make_rules_wild("xuezhan")
        red = wild.make_rules_wild("xuezhan", extra_wilds=4)
        assert core_evaluate(counts, melds, None, red) == \
            core_evaluate(counts, melds, None, plain)


# --- bad input ----------------------------------------------------------------------------------


def test_the_wild_knobs_are_checked():
    with pytest.raises(ValueError, match="four_wilds"):
        core.ScoringRules(wild_kinds=1 << 18, four_wilds=-1)  # 'cap' without a cap
    with pytest.raises(ValueError, match="four_wilds"):
        core.ScoringRules(wild_kinds=1 << 18, four_wilds=-2)
    with pytest.raises(ValueError, match="no_wild_bonus"):
        core.ScoringRules(wild_kinds=1 << 18, no_wild_bonus=4)
    with pytest.raises(ValueError, match="wild_gen"):
        core.ScoringRules(wild_kinds=1 << 18, wild_gen=3)
    with pytest.raises(ValueError, match="wild_kinds"):
        core.ScoringRules(wild_kinds=1 << 28)
    with pytest.raises(ValueError, match="wild_kinds names 1m"):
        core.ScoringRules(wild_kinds=1, shape=shape_code(("p", "s"), 13, True))


def test_a_winning_wild_needs_wild_rules_and_a_wild():
    hand = core.Hand(bytes([1] * 9 + [2, 0, 0, 0, 3, 0, 0, 0, 0] + [0] * 9), [])
    with pytest.raises(ValueError, match="win_tile"):
        core.evaluate(hand, -1, core.ScoringRules(), 27)
    with pytest.raises(ValueError, match="no concealed wild"):
        core.evaluate(hand, -1, core.ScoringRules(wild_kinds=1 << 27), 27)


def test_wild_scoring_rules_round_trip_through_pickle():
    import pickle

    rules = core.ScoringRules(wild_kinds=1 << 18, wild_fifth_copy=True, wild_gen=2,
                              no_wild_bonus=3, four_wilds=-1, max_fan=5)
    copy = pickle.loads(pickle.dumps(rules))
    assert repr(copy) == repr(rules)
    assert (copy.wild_kinds, copy.wild_fifth_copy, copy.wild_gen, copy.no_wild_bonus,
            copy.four_wilds) == (1 << 18, True, 2, 3, -1)
    assert "wild" not in repr(core.ScoringRules())  # rules without wilds read as before


# --- every hand: the core against the reading enumeration ---------------------------------------

PRESETS = ("xueliu", "xuezhan", "yaoji", "leshan", "hongzhong", "luzhou_gui", "yibin")


def random_rules(rng):
    """A wild preset or a §9 preset with wilds, and a random mix of the §12 scoring knobs and
    the reading-dependent fans."""
    preset = rng.choice(PRESETS)
    over, benjin = {}, None
    if preset in ("xueliu", "xuezhan"):
        over["wild_kinds"] = rng.choice([("1s",), ("1s", "1p"), ("1m", "1s", "1p"), ()])
        over["extra_wilds"] = rng.choice([4, 8]) if not over["wild_kinds"] else rng.choice([0, 4])
    if preset == "yibin":
        benjin = rng.randrange(27)
    over["wild_gen"] = rng.choice(["fours", "natural", "per_wild"])
    over["no_wild_bonus"] = rng.choice([0, 0, 1, 2, 3])
    over["wild_fifth_copy"] = rng.random() < 0.25
    over["max_fan"] = rng.choice([None, None, 4, 6, 8])
    over["four_wilds"] = rng.choice([None, None, 2, 5] + ["cap"] * (over["max_fan"] is not None))
    for knob in ("duanyaojiu", "yitiaolong", "jiaxinwu", "kaertiao", "single_wait", "menqing"):
        over[knob] = rng.random() < 0.3
    over["seven_pairs"] = rng.random() < 0.8
    over["gen_counts"] = rng.choice(["all_fours", "all_fours", "kongs_only", "none"])
    over["jingoudiao"] = rng.choice([False, True, "additive"])
    over["heavenly_earthly"] = rng.choice([False, True, "additive"])
    if preset in ("yibin", "hongzhong", "luzhou_gui"):
        over["multipliers"] = None
    return wild.make_rules_wild(preset, **over), benjin


def complete_hand(rng, kinds, n_sets, seven):
    """The tiles of a complete natural hand over ``kinds``: seven pairs, or sets and a pair; each
    set as ("pung" | "chow", lowest kind)."""
    if seven:  # a kind chosen twice is a four (龙)
        return [("pair", rng.choice(kinds)) for _ in range((3 * n_sets + 2) // 2)]
    sets = []
    for _ in range(n_sets):
        k = rng.choice(kinds)
        sets.append(("chow", k) if k % 9 <= 6 and rng.random() < 0.6 else ("pung", k))
    return sets + [("pair", rng.choice(kinds))]


def random_win(rng):
    """A random physical hand that is probably complete under some reading (a complete natural
    hand with tiles swapped for wilds, sets melded, soft melds), or four wilds and anything."""
    rules, benjin = random_rules(rng)
    wilds = sorted(wild.wild_set(rules, benjin))
    size = rules["hand_size"]
    n_sets = (size - 1) // 3
    suits = rng.sample(range(3), rng.choice([1, 2, 2]))
    kinds = [k for k in range(27) if k // 9 in suits and k not in wilds]
    tiles = [0] * 28
    if benjin is not None:
        tiles[benjin] += 1  # the face-up 本金: one copy out of play
    melds, concealed = [], []
    seven = rules["seven_pairs"] and rng.random() < 0.2
    for kind, k in complete_hand(rng, kinds, n_sets, seven):
        group = [k, k + 1, k + 2] if kind == "chow" else [k] * (2 if kind == "pair" else 3)
        if any(t not in kinds for t in group):
            group = [k] * len(group) if kind != "chow" else [k] * 3
        if kind == "pung" and not seven and rng.random() < 0.3 and len(melds) < n_sets:
            mtype = rng.choice(["peng", "kong", "concealed_kong"])
            body = [k] * (3 if mtype == "peng" else 4)
            soft = [rng.choice(wilds) for _ in range(rng.choice([0, 0, 1]))] if wilds else []
            melds.append((mtype, k, body[len(soft):], soft))
        else:
            concealed += group
    for _, _, body, soft in melds:
        for t in body + soft:
            tiles[t] += 1
    for t in concealed:
        tiles[t] += 1
    if any(tiles[k] > 4 for k in range(27)) or not wilds:
        return None
    # Swap some concealed tiles for wilds (each wild kind has 4 copies, 红中 as many as added).
    rng.shuffle(concealed)
    out = [0] * 28
    n_wild = min(rng.choice([0, 1, 1, 2, 2, 3, 4, 4]), len(concealed))
    for t in concealed[n_wild:]:
        out[t] += 1
    for _ in range(n_wild):
        w = rng.choice(wilds)
        limit = rules["extra_wilds"] if w == 27 else 4
        if tiles[w] >= limit:
            return None
        tiles[w] += 1
        out[w] += 1
    meld_list = [(mtype, k, tuple(soft)) for mtype, k, _, soft in melds]
    unused = [s for s in "mps" if "mps".index(s) not in suits]
    void = rng.choice([None, None] + unused + ["mps"[suits[0]]])
    return out, meld_list, void, rules, benjin


def random_context(rng, counts, melds, rules):
    self_draw = rng.random() < 0.5
    flags = {"self_draw": self_draw, "last_tile": rng.random() < 0.2}
    has_kong = any(m[0] != "peng" for m in melds)
    if self_draw and has_kong:
        flags["kong_replacement"] = rng.random() < 0.3
    if not self_draw:
        flags[rng.choice(["robbed_kong", "after_kong_discard", "last_tile"])] = rng.random() < 0.3
    if self_draw and not melds and rng.random() < 0.15:
        flags[rng.choice(["heavenly", "earthly"])] = True
    held = [k for k in range(28) if counts[k]]
    win_tile = rng.choice(held) if held and rng.random() < 0.7 else None
    return win_tile, flags


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_core_scores_every_hand_as_the_reading_enumeration(seed):
    rng = random.Random(seed)
    made = None
    while made is None:
        made = random_win(rng)
    counts, melds, void, rules, benjin = made
    win_tile, flags = random_context(rng, counts, melds, rules)
    try:
        expected = wild.evaluate_wild(counts, melds, void, rules, win_tile, benjin=benjin, **flags)
    except ValueError:
        with pytest.raises(ValueError):
            core_evaluate(counts, melds, void, rules, benjin, win_tile, **flags)
        return
    assert core_evaluate(counts, melds, void, rules, benjin, win_tile, **flags) == expected
