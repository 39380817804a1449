"""Property tests: the C++-backed public API answers exactly what the pure-Python reference
(tests/reference.py, itself checked against every public vector) answers.

Hands are random: mostly two suits (realistic after 定缺), some three; 0-4 melds of every kind;
never a fifth copy; random void; both presets with random scoring-knob overrides. Evaluation runs on
generated *winning* hands (sets + pair, or seven pairs) with consistent context flags.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import reference as ref
import xueliu
import xueliu.batch
from xueliu.rules import Rules
from xueliu.tiles import Hand, Meld

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                     HealthCheck.data_too_large])
MELD_KINDS = ("peng", "kong", "concealed_kong")
VOID_NAMES = (None, "m", "p", "s")


# --------------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------------

def kinds_of(suits):
    return [k for k in range(27) if k // 9 in suits]


def meld_size(kind):
    return 3 if kind == "peng" else 4


@st.composite
def suits_in_play(draw, allow_three=True, allow_one=False):
    """Mostly two suits; sometimes three (a hand that must shed a suit), sometimes one (清一色)."""
    roll = draw(st.integers(0, 9))
    n = 3 if (allow_three and roll < 2) else 1 if (allow_one and roll >= 8) else 2
    return sorted(draw(st.permutations((0, 1, 2)))[:n])


@st.composite
def melds_on(draw, suits, max_melds=4):
    """0-4 melds (peng / exposed kong / concealed kong) on distinct kinds of the given suits."""
    n = min(max_melds, draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 4])))
    melds, used = [], [0] * 27
    for _ in range(n):
        kind = draw(st.sampled_from(MELD_KINDS))
        tile = draw(st.sampled_from([k for k in kinds_of(suits) if used[k] == 0]))
        melds.append((kind, tile))
        used[tile] = meld_size(kind)
    return melds, used


@st.composite
def random_hands(draw, size):
    """``size - 3k`` concealed tiles (size 13 or 14) drawn one by one, at most 4 copies with melds."""
    suits = draw(suits_in_play())
    melds, used = draw(melds_on(suits))
    counts = [0] * 27
    pool = draw(st.sampled_from([kinds_of(suits), None]))  # sometimes a narrow pool: pairs, fours
    if pool is None:
        pool = sorted(draw(st.sets(st.sampled_from(kinds_of(suits)), min_size=4, max_size=9)))
    for _ in range(size - 3 * len(melds)):
        free = [k for k in pool if used[k] + counts[k] < 4] or \
               [k for k in kinds_of(suits) if used[k] + counts[k] < 4]
        counts[draw(st.sampled_from(free))] += 1
    return counts, melds


@st.composite
def winning_hands(draw):
    """A complete hand built from a pair and sets (or seven pairs), in one or two suits, with a
    style that reaches the rarer patterns: pungs only, 1/9 in every set, 2-5-8 only, nine gates."""
    suits = draw(suits_in_play(allow_three=False, allow_one=True))
    kinds = kinds_of(suits)
    style = draw(st.sampled_from(["any", "any", "any", "narrow", "pungs", "terminals", "258",
                                  "seven_pairs", "nine_gates"]))
    if style == "nine_gates":
        s = suits[0] * 9
        counts = [0] * 27
        for r, c in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
            counts[s + r] = c
        counts[s + draw(st.integers(0, 8))] += 1
        return counts, []
    if style == "seven_pairs":
        fours = draw(st.sampled_from([0, 0, 0, 1, 2, 3]))
        pairs = draw(st.lists(st.sampled_from(kinds), min_size=7 - fours, max_size=7 - fours, unique=True))
        counts = [0] * 27
        for i, k in enumerate(pairs):
            counts[k] = 4 if i < fours else 2
        return counts, []

    def rank(k):
        return k % 9 + 1

    all_kinds = kinds
    if style == "terminals":
        meld_kinds = pair_kinds = pungs = [k for k in kinds if rank(k) in (1, 9)]
        chows = [k for k in kinds if rank(k) in (1, 7)]
    elif style == "258":
        meld_kinds = pair_kinds = pungs = [k for k in kinds if rank(k) in (2, 5, 8)]
        chows = []
    else:
        if style == "narrow":
            kinds = sorted(draw(st.sets(st.sampled_from(kinds), min_size=3, max_size=7)))
        meld_kinds = pair_kinds = pungs = kinds
        chows = [] if style == "pungs" else [k for k in kinds if rank(k) <= 7]

    # Where the style runs out of room (caps, few kinds), fall back to any kind of the suits.
    n_melds = draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 4]))
    melds, used = [], [0] * 27
    for _ in range(n_melds):
        kind = draw(st.sampled_from(MELD_KINDS))
        tile = draw(st.sampled_from([k for k in meld_kinds if used[k] == 0]
                                    or [k for k in all_kinds if used[k] == 0]))
        melds.append((kind, tile))
        used[tile] = meld_size(kind)
    counts = [0] * 27

    def fits(tiles):
        return all(used[t] + counts[t] + tiles.count(t) <= 4 for t in tiles)

    def set_options(pung_kinds, chow_kinds):
        return ([(k, k, k) for k in pung_kinds if fits([k, k, k])]
                + [(k, k + 1, k + 2) for k in chow_kinds if fits([k, k + 1, k + 2])])

    pair = draw(st.sampled_from([k for k in pair_kinds if fits([k, k])]
                                or [k for k in all_kinds if fits([k, k])]))
    counts[pair] += 2
    for _ in range(4 - n_melds):
        options = set_options(pungs, chows) or set_options(all_kinds, [k for k in all_kinds if rank(k) <= 7])
        for t in draw(st.sampled_from(options)):
            counts[t] += 1
    return counts, melds


@st.composite
def voids_for(draw, counts, melds):
    """Mostly a void the hand can live with (none, or a suit it does not hold); sometimes any."""
    held = {k // 9 for k in range(27) if counts[k]} | {t // 9 for _, t in melds}
    if draw(st.integers(0, 4)):
        void = draw(st.sampled_from([None] + [s for i, s in enumerate("mps") if i not in held]))
    else:
        void = draw(st.sampled_from(VOID_NAMES))
    if void is not None and draw(st.integers(0, 5)) == 0:
        void = "万筒条"["mps".index(void)]  # the Chinese spelling is accepted too
    return void


@st.composite
def with_void(draw, hand_strategy):
    counts, melds = draw(hand_strategy)
    return (counts, melds), draw(voids_for(counts, melds))


def minus_one(draw, hand):
    counts, melds = hand
    counts = list(counts)
    counts[draw(st.sampled_from([k for k in range(27) if counts[k]]))] -= 1
    return counts, melds


@st.composite
def ready_or_random_13(draw):
    """A 13 - 3k hand: a winning hand minus one tile (usually ready), or random."""
    if draw(st.booleans()):
        return minus_one(draw, draw(winning_hands()))
    return draw(random_hands(13))


@st.composite
def near_winning_14(draw):
    """A 14 - 3k hand for 查听: complete, one tile swapped away from complete, or random."""
    roll = draw(st.integers(0, 3))
    if roll == 3:
        return draw(random_hands(14))
    counts, melds = draw(winning_hands())
    if roll == 0:
        return counts, melds
    counts, melds = minus_one(draw, (counts, melds))
    total = [a + b for a, b in zip(counts, ref.meld_counts(melds))]
    suits = sorted({k // 9 for k in range(27) if total[k]} | {draw(st.integers(0, 2))})
    counts[draw(st.sampled_from([k for k in kinds_of(suits) if total[k] < 4]))] += 1
    return counts, melds


@st.composite
def scoring_rules(draw):
    """(preset, overrides): a preset, half the time with random scoring-knob overrides."""
    preset = draw(st.sampled_from(["xueliu", "xuezhan"]))
    if draw(st.booleans()):
        return preset, {}
    flag = st.booleans()
    # An overridden 天胡/地胡 fan is the "6" of D14's "a hand pattern worth more than 6 stands".
    table_ids = list(ref.PATTERN_IDS)
    overrides = draw(st.fixed_dictionaries({}, optional={
        "seven_pairs": flag, "jingoudiao": flag, "heavenly_earthly": flag, "haidi": flag,
        "self_draw_bonus": st.sampled_from(["base", "none", "fan"]), "menqing": flag,
        "gen_counts": st.sampled_from(["all_fours", "kongs_only", "none"]),
        "duanyaojiu": flag, "yitiaolong": flag, "jiaxinwu": flag, "haidipao": flag,
        "fan_table": st.dictionaries(st.sampled_from(table_ids), st.integers(1, 12), max_size=4),
        "multipliers": st.none() | st.lists(st.integers(0, 10**6), min_size=40, max_size=40).map(tuple),
        "max_fan": st.none() | st.integers(1, 14),
    }))
    return preset, overrides


@st.composite
def contexts(draw, melds):
    """Context flags that docs/rules.md §6.1 calls consistent for this hand's melds."""
    self_draw = draw(st.booleans())
    ctx = dict(self_draw=self_draw, kong_replacement=False, after_kong_discard=False,
               robbed_kong=False, last_tile=draw(st.booleans()), heavenly=False, earthly=False)
    if self_draw:
        if any(kind != "peng" for kind, _ in melds):
            ctx["kong_replacement"] = draw(st.booleans())
        if not melds:
            sky = draw(st.sampled_from([None, None, "heavenly", "earthly"]))
            if sky:
                ctx[sky] = True
    else:
        discard = draw(st.sampled_from([None, None, "after_kong_discard", "robbed_kong"]))
        if discard:
            ctx[discard] = True
    return ctx


# --------------------------------------------------------------------------------------------
# Helpers: the public API on the same plain data
# --------------------------------------------------------------------------------------------

def public_hand(counts, melds) -> Hand:
    return Hand(np.array(counts, dtype=np.uint8),
                tuple(Meld(kind, ref.TILE_NAMES[t]) for kind, t in melds))


def public_rules(preset, overrides) -> Rules:
    return Rules.preset(preset).replace(**overrides) if overrides else Rules.preset(preset)


def plain_fan(r) -> ref.FanResult:
    return ref.FanResult(r.fan, r.multiplier, r.base, r.base_fan, r.gen, tuple(r.extras))


def kind_of(tile) -> int:
    return ref.tile_index(tile) if isinstance(tile, str) else int(tile)


def same_or_both_raise(reference_call, public_call):
    """Both give the same answer, or both raise ValueError."""
    try:
        expected = reference_call()
    except ValueError:
        with pytest.raises(ValueError):
            public_call()
        return None, None
    return expected, public_call()


# --------------------------------------------------------------------------------------------
# Single calls == reference
# --------------------------------------------------------------------------------------------

@settings(max_examples=400, **SETTINGS)
@given(hv=with_void(st.one_of(winning_hands(), random_hands(14))), seven_pairs=st.booleans(),
       preset=st.sampled_from(["xueliu", "xuezhan"]))
def test_is_win_matches_reference(hv, seven_pairs, preset):
    (counts, melds), void = hv
    rules = Rules.preset(preset).replace(seven_pairs=seven_pairs)
    assert xueliu.is_win(public_hand(counts, melds), void=void, rules=rules) == \
        ref.is_win(counts, melds, void, seven_pairs)


@settings(max_examples=400, **SETTINGS)
@given(hv=with_void(ready_or_random_13()), seven_pairs=st.booleans())
def test_waits_match_reference(hv, seven_pairs):
    (counts, melds), void = hv
    rules = Rules.preset("xueliu").replace(seven_pairs=seven_pairs)
    expected = [ref.TILE_NAMES[t] for t in ref.waits(counts, melds, void, seven_pairs)]
    event(f"{len(expected)} waits")
    assert list(xueliu.waits(public_hand(counts, melds), void=void, rules=rules)) == expected


@settings(max_examples=300, **SETTINGS)
@given(hv=with_void(st.one_of(random_hands(13), random_hands(14), ready_or_random_13())),
       seven_pairs=st.booleans())
def test_shanten_matches_reference(hv, seven_pairs):
    (counts, melds), void = hv
    rules = Rules.preset("xueliu").replace(seven_pairs=seven_pairs)
    expected, got = same_or_both_raise(
        lambda: ref.shanten(counts, melds, void, seven_pairs),
        lambda: xueliu.shanten(public_hand(counts, melds), void=void, rules=rules))
    event(f"shanten {expected}")
    assert got == expected


@settings(max_examples=800, **SETTINGS)
@given(data=st.data(), hand=winning_hands(), scoring=scoring_rules())
def test_evaluate_matches_reference(data, hand, scoring):
    counts, melds = hand
    preset, overrides = scoring
    void = data.draw(voids_for(counts, melds))  # a void the hand breaks: both must refuse it
    ctx = data.draw(contexts(melds))
    win_tile = data.draw(st.sampled_from([None] + [ref.TILE_NAMES[k] for k in range(27) if counts[k]]))
    rules = ref.make_rules(preset, **overrides)
    expected, got = same_or_both_raise(
        lambda: ref.evaluate(counts, melds, void, rules, win_tile, **ctx),
        lambda: xueliu.evaluate(public_hand(counts, melds), void=void, win_tile=win_tile,
                                rules=public_rules(preset, overrides), **ctx))
    event("not a win" if expected is None else f"base {expected.base}")
    if expected is not None:
        assert plain_fan(got) == expected


@settings(max_examples=120, **SETTINGS)
@given(data=st.data(), hand=near_winning_14(), scoring=scoring_rules())
def test_best_discards_match_reference(data, hand, scoring):
    counts, melds = hand
    preset, overrides = scoring
    own = [a + b for a, b in zip(counts, ref.meld_counts(melds))]
    visible = [0] * 27
    for _ in range(data.draw(st.integers(0, 24))):
        free = [k for k in range(27) if own[k] + visible[k] < 4]
        visible[data.draw(st.sampled_from(free))] += 1
    void = data.draw(voids_for(counts, melds))
    seen = None if not any(visible) and data.draw(st.booleans()) else np.array(visible, np.uint8)
    expected, got = same_or_both_raise(
        lambda: ref.best_discards(counts, melds, visible, void, ref.make_rules(preset, **overrides)),
        lambda: xueliu.best_discards(public_hand(counts, melds), visible=seen,
                                     void=void, rules=public_rules(preset, overrides)))
    if expected is None:
        event("no complete hand")
        return
    event(f"{sum(1 for o in expected if o.waits)} ready discards")
    event(f"best shanten {expected[0].shanten}")
    plain = [ref.DiscardOption(kind_of(o.discard), o.shanten, o.total_remaining,
                               tuple(ref.WaitOption(kind_of(w.tile), w.remaining, plain_fan(w.discard_win),
                                                    plain_fan(w.self_draw)) for w in o.waits),
                               tuple((kind_of(t), left) for t, left in o.jinzhang), o.jinzhang_total)
             for o in got]
    # Everything at once: the options (only void-suit discards while void tiles are held), their
    # 进张 and remaining counts, the waits and their fan, and the order.
    assert plain == expected


@settings(max_examples=150, **SETTINGS)
@given(data=st.data(), hv=with_void(st.one_of(ready_or_random_13(), random_hands(13))),
       seven_pairs=st.booleans())
def test_jinzhang_matches_reference(data, hv, seven_pairs):
    """进张 of a 13 - 3k hand: exactly the kinds whose draw lowers the shanten (tried one by one by
    the reference), with 4 - own - visible left of each; for a ready hand, its waits."""
    (counts, melds), void = hv
    own = [a + b for a, b in zip(counts, ref.meld_counts(melds))]
    visible = [0] * 27
    for _ in range(data.draw(st.integers(0, 12))):
        visible[data.draw(st.sampled_from([k for k in range(27) if own[k] + visible[k] < 4]))] += 1
    rules = Rules.preset("xueliu").replace(seven_pairs=seven_pairs)
    expected, got = same_or_both_raise(
        lambda: [(ref.TILE_NAMES[t], 4 - own[t] - visible[t])
                 for t in ref.jinzhang(counts, melds, void, seven_pairs)],
        lambda: xueliu.jinzhang(public_hand(counts, melds), visible=visible, void=void, rules=rules))
    if expected is None:
        event("no complete hand")
        return
    sh = ref.shanten(counts, melds, void, seven_pairs)
    event(f"shanten {min(sh, 3)}{'+' if sh > 3 else ''}, {min(len(expected), 9)}+ kinds"
          if len(expected) >= 9 else f"shanten {min(sh, 3)}, {len(expected)} kinds")
    assert list(got) == expected
    if sh == 0:
        assert [t for t, _ in got] == xueliu.waits(public_hand(counts, melds), void=void, rules=rules)


@st.composite
def holding_the_void(draw):
    """A 14 - 3k hand and a void suit it holds concealed tiles of (but no meld of): 查听 may then
    only discard those (docs/rules.md §4)."""
    counts, melds = draw(st.one_of(near_winning_14(), random_hands(14)))
    meld_suits = {t // 9 for _, t in melds}
    held = sorted({k // 9 for k in range(27) if counts[k]} - meld_suits)
    assume(held)
    return counts, melds, "mps"[draw(st.sampled_from(held))]


@settings(max_examples=60, **SETTINGS)
@given(hand=holding_the_void(), scoring=scoring_rules())
def test_best_discards_with_void_tiles_held_offers_only_those(hand, scoring):
    counts, melds, void = hand
    preset, overrides = scoring
    expected, got = same_or_both_raise(
        lambda: ref.best_discards(counts, melds, None, void, ref.make_rules(preset, **overrides)),
        lambda: xueliu.best_discards(public_hand(counts, melds), void=void,
                                     rules=public_rules(preset, overrides)))
    if expected is None:
        event("no complete hand")  # three melded suits
        return
    void_tiles = sorted(ref.TILE_NAMES[k] for k in range(27) if counts[k] and k // 9 == "mps".index(void))
    assert sorted(o.discard for o in got) == void_tiles
    assert [(kind_of(o.discard), o.shanten, o.jinzhang_total) for o in got] == \
        [(o.discard, o.shanten, o.jinzhang_total) for o in expected]
    event(f"{len(void_tiles)} void kinds held")


# --------------------------------------------------------------------------------------------
# Batch == single calls
# --------------------------------------------------------------------------------------------

def batch_arrays(hands, voids):
    counts = np.array([c for c, _ in hands], dtype=np.uint8).reshape(len(hands), 27)
    melds = np.full((len(hands), 4), -1, dtype=np.int16)
    for i, (_, ms) in enumerate(hands):
        for j, (kind, t) in enumerate(ms):
            melds[i, j] = 27 * MELD_KINDS.index(kind) + t
    void = np.array([-1 if v is None else ref.SUIT_ALIASES[v] for v in voids], dtype=np.int8)
    return counts, melds, void


def batch_input(hand_strategy, *, shanten_defined=False):
    """Up to 40 rows of (hand, void). With ``shanten_defined``, only rows whose melds leave a
    complete hand possible (shanten is undefined otherwise, D5)."""
    def row_ok(row):
        (counts, melds), void = row
        meld_suits = {t // 9 for _, t in melds}
        void_suit = None if void is None else ref.SUIT_ALIASES[void]
        return not shanten_defined or (len(meld_suits) <= 2 and void_suit not in meld_suits)
    row = with_void(hand_strategy).filter(row_ok)
    return st.lists(row, min_size=1, max_size=40)


@settings(max_examples=40, **SETTINGS)
@given(rows=batch_input(st.one_of(winning_hands(), random_hands(14))), seven_pairs=st.booleans(),
       threads=st.sampled_from([1, 2]))
def test_batch_is_win_equals_single_calls(rows, seven_pairs, threads):
    hands, voids = [h for h, _ in rows], [v for _, v in rows]
    rules = Rules.preset("xueliu").replace(seven_pairs=seven_pairs)
    got = xueliu.batch.is_win(*batch_arrays(hands, voids), rules=rules, threads=threads)
    single = [xueliu.is_win(public_hand(*h), void=v, rules=rules) for h, v in rows]
    assert np.asarray(got).astype(bool).tolist() == single


@settings(max_examples=40, **SETTINGS)
@given(rows=batch_input(ready_or_random_13()), seven_pairs=st.booleans(), threads=st.sampled_from([1, 2]))
def test_batch_waits_equals_single_calls(rows, seven_pairs, threads):
    hands, voids = [h for h, _ in rows], [v for _, v in rows]
    rules = Rules.preset("xueliu").replace(seven_pairs=seven_pairs)
    got = np.asarray(xueliu.batch.waits(*batch_arrays(hands, voids), rules=rules, threads=threads))
    for mask, (h, v) in zip(got.tolist(), rows):
        single = xueliu.waits(public_hand(*h), void=v, rules=rules)
        assert [ref.TILE_NAMES[k] for k in range(27) if mask >> k & 1] == list(single)


@settings(max_examples=40, **SETTINGS)
@given(rows=batch_input(st.one_of(random_hands(13), random_hands(14)), shanten_defined=True),
       seven_pairs=st.booleans(), threads=st.sampled_from([1, 2]))
def test_batch_shanten_equals_single_calls(rows, seven_pairs, threads):
    hands, voids = [h for h, _ in rows], [v for _, v in rows]
    rules = Rules.preset("xueliu").replace(seven_pairs=seven_pairs)
    got = xueliu.batch.shanten(*batch_arrays(hands, voids), rules=rules, threads=threads)
    single = [xueliu.shanten(public_hand(*h), void=v, rules=rules) for h, v in rows]
    assert np.asarray(got).tolist() == single


@st.composite
def row_flags(draw):
    """Context flags consistent for every row whatever its melds (no 杠上花, no 天胡/地胡)."""
    flags = dict(self_draw=draw(st.booleans()), last_tile=draw(st.booleans()))
    if not flags["self_draw"]:
        discard = draw(st.sampled_from([None, "after_kong_discard", "robbed_kong"]))
        if discard:
            flags[discard] = True
    return flags


@settings(max_examples=40, **SETTINGS)
@given(rows=batch_input(st.one_of(winning_hands(), winning_hands(), random_hands(14))),
       scoring=scoring_rules(), flags=row_flags(), threads=st.sampled_from([1, 2]))
def test_batch_evaluate_equals_single_calls(rows, scoring, flags, threads):
    """Per row: the single call's fan and base-pattern code (docs/rules.md §6 table index); a row that is
    not a win gives fan 0 and code -1."""
    hands, voids = [h for h, _ in rows], [v for _, v in rows]
    rules = public_rules(*scoring)
    fan, code = xueliu.batch.evaluate(*batch_arrays(hands, voids), rules=rules, threads=threads, **flags)
    for f, c, (h, v) in zip(np.asarray(fan).tolist(), np.asarray(code).tolist(), rows):
        try:
            single = xueliu.evaluate(public_hand(*h), void=v, rules=rules, **flags)
        except ValueError:
            assert (f, c) == (0, -1)
        else:
            assert (f, c) == (single.fan, ref.PATTERN_IDS.index(single.base))


# --------------------------------------------------------------------------------------------
# Table shapes (docs/rules.md §11.1): hand sizes 7 and 10 (and 13), one, two or three suits in play
# --------------------------------------------------------------------------------------------

@st.composite
def table_shapes(draw):
    """(hand_size, suits in play as letters, seven_pairs): sizes 7 and 10 mostly, 13 sometimes."""
    size = draw(st.sampled_from([7, 7, 10, 10, 13]))
    n = draw(st.sampled_from([1, 2, 2, 3]))
    suits = "".join(sorted(draw(st.permutations("mps"))[:n], key="mps".index))
    return size, suits, draw(st.booleans())


@st.composite
def shaped_hands(draw, extra):
    """A hand of hand_size + extra - 3k tiles on the suits in play (k <= the sets needed), often
    built from sets and a pair so that wins and ready hands are common; and a void only where
    three suits are in play."""
    size, suits, seven_pairs = draw(table_shapes())
    play = ["mps".index(x) for x in suits]
    kinds = kinds_of(play)
    melds, used = draw(melds_on(play, max_melds=(size - 1) // 3))
    counts = [0] * 27
    room = lambda k: 4 - used[k] - counts[k]  # noqa: E731
    want = size + extra - 3 * len(melds)
    if draw(st.booleans()):  # sets and a pair, then trimmed or topped up to the count
        pair = draw(st.sampled_from(kinds))
        counts[pair] += min(2, room(pair))
        for _ in range((size - 1) // 3 - len(melds)):
            k = draw(st.sampled_from(kinds))
            chow = k % 9 <= 6 and draw(st.booleans())
            tiles = (k, k + 1, k + 2) if chow else (k, k, k)
            if all(room(t) >= tiles.count(t) for t in set(tiles)):
                for t in tiles:
                    counts[t] += 1
    while sum(counts) > want:
        counts[draw(st.sampled_from([k for k in range(27) if counts[k]]))] -= 1
    while sum(counts) < want:
        counts[draw(st.sampled_from([k for k in kinds if room(k) > 0]))] += 1
    void = draw(st.sampled_from(VOID_NAMES)) if len(suits) == 3 else None
    return (size, suits, seven_pairs), counts, melds, void


def shaped_rules(size, suits, seven_pairs) -> Rules:
    # Two seats, so that even one suit holds the deal (the hand calls never read the seats).
    return Rules(players=2, hand_size=size, suits=tuple(suits), seven_pairs=seven_pairs,
                 declare_void=len(suits) == 3)


@settings(max_examples=250, **SETTINGS)
@given(h=shaped_hands(extra=1))
def test_is_win_matches_reference_at_every_table_shape(h):
    (size, suits, sp), counts, melds, void = h
    want = ref.is_win(counts, melds, void, sp, hand_size=size, suits=suits)
    event(f"size {size}, {len(suits)} suits, win {want}")
    got = xueliu.is_win(public_hand(counts, melds), void=void, rules=shaped_rules(size, suits, sp))
    assert got == want


@settings(max_examples=250, **SETTINGS)
@given(h=shaped_hands(extra=0))
def test_waits_match_reference_at_every_table_shape(h):
    (size, suits, sp), counts, melds, void = h
    want = [ref.TILE_NAMES[t] for t in ref.waits(counts, melds, void, sp, hand_size=size,
                                                    suits=suits)]
    event(f"size {size}, {len(suits)} suits, ready {bool(want)}")
    got = xueliu.waits(public_hand(counts, melds), void=void, rules=shaped_rules(size, suits, sp))
    assert got == want


@settings(max_examples=200, **SETTINGS)
@given(h=st.one_of(shaped_hands(extra=0), shaped_hands(extra=1)))
def test_shanten_matches_reference_at_every_table_shape(h):
    (size, suits, sp), counts, melds, void = h
    rules = shaped_rules(size, suits, sp)
    want, got = same_or_both_raise(
        lambda: ref.shanten(counts, melds, void, sp, hand_size=size, suits=suits),
        lambda: xueliu.shanten(public_hand(counts, melds), void=void, rules=rules))
    assert got == want


@settings(max_examples=120, **SETTINGS)
@given(h=shaped_hands(extra=0))
def test_jinzhang_matches_reference_at_every_table_shape(h):
    (size, suits, sp), counts, melds, void = h
    rules = shaped_rules(size, suits, sp)
    try:
        want = [ref.TILE_NAMES[t] for t in ref.jinzhang(counts, melds, void, sp, hand_size=size,
                                                           suits=suits)]
    except ValueError:
        return  # no complete hand exists: shanten's test covers the error
    got = xueliu.jinzhang(public_hand(counts, melds), void=void, rules=rules)
    assert [t for t, _ in got] == want


@settings(max_examples=80, **SETTINGS)
@given(h=shaped_hands(extra=0))
def test_batch_calls_take_the_table_shape(h):
    """The batch calls read the same shape from the rules as the single calls."""
    (size, suits, sp), counts, melds, void = h
    rules = shaped_rules(size, suits, sp)
    hand = public_hand(counts, melds)
    c, m = xueliu.batch.encode([hand])
    v = None if void is None else np.array(["mps".index(void)], np.int8)
    mask = int(xueliu.batch.waits(c, m, v, rules=rules)[0])
    assert [xueliu.tile_name(k) for k in range(27) if mask >> k & 1] == xueliu.waits(
        hand, void=void, rules=rules)
    try:
        single = xueliu.shanten(hand, void=void, rules=rules)
    except ValueError:
        return
    assert int(xueliu.batch.shanten(c, m, v, rules=rules)[0]) == single


@st.composite
def section11_scoring(draw):
    """The §11.3 scoring knobs at random, with a few §6 ones they meet."""
    return {
        "jingoudiao": draw(st.sampled_from([False, True, "additive"])),
        "heavenly_earthly": draw(st.sampled_from([False, True, "additive"])),
        "jiang_patterns": draw(st.booleans()),
        "earthly_win": draw(st.sampled_from(["first_draw", "first_discard", "either"])),
        "kaertiao": draw(st.booleans()),
        "single_wait": draw(st.booleans()),
        "jiaxinwu": draw(st.booleans()),
        "yitiaolong": draw(st.booleans()),
        "gen_counts": draw(st.sampled_from(["all_fours", "kongs_only", "none"])),
        "self_draw_bonus": draw(st.sampled_from(["base", "fan"])),
    }


@settings(max_examples=300, **SETTINGS)
@given(data=st.data(), h=shaped_hands(extra=1), knobs=section11_scoring())
def test_evaluate_matches_reference_at_every_table_shape(data, h, knobs):
    (size, suits, sp), counts, melds, void = h
    assume(ref.is_win(counts, melds, void, sp, hand_size=size, suits=suits))
    rules = shaped_rules(size, suits, sp).replace(**knobs)
    ref_rules = ref.make_rules("xueliu", **knobs, hand_size=size, suits=suits, seven_pairs=sp)
    held = [k for k in range(27) if counts[k]]
    win_tile = data.draw(st.sampled_from([None] + held))
    self_draw = data.draw(st.booleans())
    sky = data.draw(st.sampled_from([None, "heavenly", "earthly"])) if not melds else None
    flags = {"self_draw": self_draw, **({sky: True} if sky else {})}
    event(f"size {size}, {len(suits)} suits, {sky or 'no sky'}")
    name = None if win_tile is None else ref.TILE_NAMES[win_tile]
    want, got = same_or_both_raise(
        lambda: ref.evaluate(counts, melds, void, ref_rules, win_tile, **flags),
        lambda: plain_fan(xueliu.evaluate(public_hand(counts, melds), void=void, win_tile=name,
                                          rules=rules, **flags)))
    assert got == want
