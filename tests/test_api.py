"""The public API of issue 2 (names and behaviour are a contract): xueliu.is_win, waits, shanten,
evaluate, best_discards, FanResult, the void/rules/hand arguments and xueliu.batch.

The public vectors (tests/data/hands.json) run through the public names here, with the rules built
by ``Rules.preset(...).replace(**overrides)``, so the Rules -> native mapping is checked too.
"""

import numpy as np
import pytest

import xueliu
from conftest import cases_before_wild_tiles, load_vectors
from xueliu import (
    DiscardOption,
    FanResult,
    Hand,
    Meld,
    Rules,
    WaitOption,
    batch,
    best_discards,
    evaluate,
    is_win,
    parse_hand,
    shanten,
    waits,
)
from xueliu.patterns import EXTRA_IDS, PATTERN_CODES, PATTERN_IDS, PATTERN_NAMES

VECTORS = load_vectors()
FLAGS = ("self_draw", "kong_replacement", "after_kong_discard", "robbed_kong", "last_tile",
         "heavenly", "earthly")


def _id(case):
    return f"{case['id']}-{case.get('note', '')}"


def _rules(case):
    return Rules.preset(case["preset"]).replace(**case.get("overrides", {}))


# -- the package face ----------------------------------------------------------------------------


def test_package_exports_the_contract_names():
    for name in ("parse_hand", "Hand", "Meld", "Rules", "is_win", "waits", "shanten", "evaluate",
                 "best_discards", "FanResult", "DiscardOption", "WaitOption", "tile_name",
                 "tile_index", "batch"):
        assert name in xueliu.__all__ and hasattr(xueliu, name), name
    assert xueliu.tile_name(13) == "5p" and xueliu.tile_index("5m") == 4
    assert isinstance(xueliu.__version__, str)


# -- public vectors through the public API ---------------------------------------------------


def _shape_rules(case):
    """A waits / shanten case's rules: its preset and overrides where it has them (docs/rules.md §11:
    hand_size and suits come from the rules, D40), with the case's seven_pairs."""
    base = _rules(case) if "preset" in case else Rules()
    return base.replace(seven_pairs=case["seven_pairs"])


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "wait_cases"), ids=_id)
def test_wait_vector(case):
    rules = _shape_rules(case)
    assert waits(case["hand"], void=case["void"], rules=rules) == case["expect_waits"]
    assert waits(parse_hand(case["hand"]), void=case["void"], rules=rules) == case["expect_waits"]


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "shanten_cases"), ids=_id)
def test_shanten_vector(case):
    rules = _shape_rules(case)
    assert shanten(case["hand"], void=case["void"], rules=rules) == case["expect_shanten"]


@pytest.mark.parametrize("case", cases_before_wild_tiles(VECTORS, "eval_cases"), ids=_id)
def test_eval_vector(case):
    rules = _rules(case)
    context = dict(case["context"])
    void = context.pop("void")
    expect = case["expect"]
    assert is_win(case["hand"], void=void, rules=rules) == expect["win"]
    if not expect["win"]:
        with pytest.raises(ValueError, match="not a winning hand"):
            evaluate(case["hand"], void=void, rules=rules, **context)
        return
    got = evaluate(case["hand"], void=void, rules=rules, **context)
    assert isinstance(got, FanResult)
    assert (got.fan, got.multiplier) == (expect["fan"], expect["multiplier"])
    # D13/D22: another base reaching the same total on the same decomposition fans is also right.
    accepted = {(expect["base"], expect["base_fan"], expect["gen"])}
    accepted |= {tuple(alt) for alt in expect.get("alternatives", [])}
    assert (got.base, got.base_fan, got.gen) in accepted
    assert list(got.extras) == expect["extras"]
    assert got.base_name == PATTERN_NAMES[got.base]
    assert len(got.extra_names) == len(got.extras)


# -- hands, void and rules arguments -------------------------------------------------------------

READY = "12334577m23345p"  # waits 1p 4p (seed 001/002)
WIN = "23445677p345789s"  # 平胡


def test_a_hand_and_its_text_give_the_same_answers():
    hand = parse_hand(READY)
    assert waits(hand) == waits(READY) == ["1p", "4p"]
    assert shanten(hand) == shanten(READY) == 0
    assert is_win(parse_hand(WIN)) is True and is_win(WIN) is True
    assert evaluate(parse_hand(WIN)) == evaluate(WIN)


@pytest.mark.parametrize("spellings", [("m", "万"), ("p", "筒"), ("s", "条")])
def test_void_spellings_are_equivalent(spellings):
    letter, chinese = spellings
    assert waits(READY, void=letter) == waits(READY, void=chinese)
    assert shanten(READY, void=letter) == shanten(READY, void=chinese)
    assert is_win(WIN, void=letter) == is_win(WIN, void=chinese)


def test_void_suit_held_means_no_win_and_no_waits():
    assert waits(READY, void="s") == ["1p", "4p"]
    assert waits(READY, void="p") == []
    assert is_win(WIN, void="m") is True
    assert is_win(WIN, void="p") is False
    assert shanten(READY, void="p") > 0


@pytest.mark.parametrize("bad", ["x", "M", 0, 1, True, "", "mp", ["m"]])
def test_bad_void_is_a_value_error(bad):
    for call in (is_win, shanten):
        with pytest.raises(ValueError, match="void must be None"):
            call(WIN, void=bad)
    with pytest.raises(ValueError, match="void must be None"):
        waits(READY, void=bad)
    with pytest.raises(ValueError, match="void must be None"):
        evaluate(WIN, void=bad)
    with pytest.raises(ValueError, match="void must be None"):
        best_discards(WIN, void=bad)


def test_wrong_python_types_are_type_errors():
    for call in (is_win, waits, shanten, evaluate, best_discards):
        for bad in (None, 12, {"1m": 2}, b"123m", 1.5):
            with pytest.raises(TypeError, match="hand must be a Hand, notation text, a sequence of tile names"):
                call(bad)
        with pytest.raises(TypeError, match="rules must be a Rules, a preset name"):
            call(WIN, rules={"seven_pairs": True})
        with pytest.raises(TypeError, match="rules must be a Rules, a preset name"):
            call(WIN, rules=Rules.preset("xueliu").to_dict())
        with pytest.raises(TypeError, match="tile name must be a str, got int at position 1"):
            call(["1m", 2])
        with pytest.raises(TypeError, match="melds= goes with a tile list or counts"):
            call(WIN, melds=[("peng", "1m")])
        with pytest.raises(TypeError, match="melds= goes with a tile list or counts"):
            call(parse_hand(WIN), melds=[])


def test_a_preset_name_is_accepted_wherever_rules_are():
    xuezhan = Rules.preset("xuezhan")
    hand = "11223344556677s"
    assert evaluate(hand, rules="xuezhan") == evaluate(hand, rules=xuezhan)
    assert evaluate(hand, rules="xueliu") == evaluate(hand)
    assert best_discards(hand, rules="xuezhan") == best_discards(hand, rules=xuezhan)
    for call in (is_win, shanten):
        assert call(hand, rules="xuezhan") == call(hand, rules=xuezhan)
    assert waits(READY, rules="xuezhan") == waits(READY, rules=xuezhan)
    counts, melds = batch.encode([hand])
    assert batch.evaluate(counts, melds, rules="xuezhan")[0].tolist() == \
        batch.evaluate(counts, melds, rules=xuezhan)[0].tolist()
    for fn in (batch.is_win, batch.shanten):
        assert fn(counts, melds, rules="xuezhan").tolist() == fn(counts, melds, rules=xuezhan).tolist()
    with pytest.raises(ValueError, match="unknown preset 'xuezhang'"):
        evaluate(hand, rules="xuezhang")
    with pytest.raises(ValueError, match="unknown preset"):
        batch.is_win(counts, melds, rules="sichuan")
    with pytest.raises(TypeError, match="rules must be a Rules, a preset name"):
        batch.waits(counts, melds, rules=3)


# -- every form of the hand: Hand, notation, tile names, counts --------------------------------


def _forms(text):
    """The same hand as a Hand, notation text, a list and a tuple of tile names, uint8 counts and
    a list of 27 ints (the last four with melds= beside them)."""
    hand = parse_hand(text)
    names = [xueliu.tile_name(k) for k in range(27) for _ in range(int(hand.counts[k]))]
    melds = list(hand.melds) or None
    return [(hand, None), (text, None), (names, melds), (tuple(names), melds),
            (np.array(hand.counts), melds), (hand.counts.tolist(), melds)]


@pytest.mark.parametrize("text", [WIN, "11m(222p)(333p)(444p)(555p)", "1122m3344p556677p",
                                  "1m1m[9999s](111s)(222s)(333s)", "12344m567m789s(111s)"])
def test_every_form_of_a_winning_hand_gives_the_same_answers(text):
    want_win, want_shanten = is_win(text), shanten(text)
    want_fan = evaluate(text) if want_win else None
    for hand, melds in _forms(text):
        assert is_win(hand, melds=melds) == want_win
        assert shanten(hand, melds=melds) == want_shanten
        if want_win:
            assert evaluate(hand, melds=melds) == want_fan
            assert evaluate(hand, melds=melds, self_draw=True) == evaluate(text, self_draw=True)
        assert best_discards(hand, melds=melds) == best_discards(text)


@pytest.mark.parametrize("text", [READY, "1m(222p)(333p)(4444p)[5555p]", "1112345678999m"])
def test_every_form_of_a_ready_hand_gives_the_same_waits(text):
    want = waits(text)
    for hand, melds in _forms(text):
        assert waits(hand, melds=melds) == want
        assert waits(hand, melds=melds, void="s") == waits(text, void="s")


def test_melds_beside_a_tile_list_take_meld_objects_or_pairs():
    melds = [("peng", "2p"), ("kong", 11), Meld("concealed_kong", "4p"), ("peng", "5p")]
    assert is_win(["1m", "1m"], melds=melds) is True
    assert str(melds[2]) == "[4444p]" and waits(["1m"], melds=melds) == ["1m"]
    assert evaluate(["1m", "1m"], melds=melds) == evaluate("11m(222p)(3333p)[4444p](555p)")
    with pytest.raises(ValueError, match="unknown meld kind 'chow'"):
        waits(["1m"], melds=[("chow", "1p")])
    with pytest.raises(ValueError, match="more than 4 melds"):
        waits(["1m"], melds=melds + [("peng", "9s")])
    with pytest.raises(ValueError, match=r"fifth copy of 2p in the tile list \(counting melds\)"):
        waits(["2p", "2p"], melds=[("peng", "2p")])
    with pytest.raises(ValueError, match=r"fifth copy of 2p \(counting melds\)"):
        waits(parse_hand("22p").counts, melds=[("peng", "2p")])


def test_any_sequence_of_tile_names_is_a_hand():
    import collections

    names = ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m", "9m"]
    for hand in (collections.deque(names), np.array(names), tuple(names)):
        assert is_win(hand) is True and evaluate(hand) == evaluate("11123456789999m")
    with pytest.raises(TypeError, match="a sequence of tile names or 27 counts, got list_iterator"):
        is_win(iter(names))


def test_tile_names_take_every_suit_spelling():
    assert is_win(["1万", "1萬", "1m", "2条", "3條", "4索", "7条", "7條", "7s", " 5 s ", "5\u3000s",
                   "9m", "9m", "9m"]) is True
    tiles = ["2筒", "3饼", "4餅", "5铜", "6銅", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m"]
    assert waits(tiles) == waits("23456p11234567m") == ["1p", "4p", "7p"]


@pytest.mark.parametrize(
    "hand, error, message",
    [
        (["1m"] * 13 + ["x5"], ValueError, r"not a tile name: 'x5' at position 13"),
        (["1m"] * 13 + ["0m"], ValueError, "not a tile name: '0m'"),
        (["1m"] * 13 + ["15m"], ValueError, "not a tile name: '15m'"),
        (["1m"] * 5 + ["2m"] * 9, ValueError, "fifth copy of 1m in the tile list"),
        (["1m"] * 13 + [None], TypeError, "tile name must be a str, got NoneType at position 13"),
        ([0] * 26, ValueError, r"counts must have shape \(27,\), got \(26,\)"),
        ([0] * 26 + [5], ValueError, "count 5 of 9s out of range 0..4"),
        ([-1] + [0] * 26, ValueError, "count -1 of 1m out of range 0..4"),
        ([0] * 26 + [1.0], ValueError, "counts must hold integers"),
        ([0] * 26 + [True], ValueError, "counts must hold integers"),
        (np.zeros(27, np.float32), ValueError, "counts must hold integers, got dtype float32"),
        (np.zeros((1, 27), np.uint8), ValueError, r"counts must have shape \(27,\), got \(1, 27\)"),
        (np.full(27, 7, np.int64), ValueError, "count 7 of 1m out of range 0..4"),
        (np.zeros(27, np.uint8), ValueError, "14 - 3k = 14 concealed tiles"),
    ],
)
def test_tile_lists_and_counts_have_the_errors_of_hands(hand, error, message):
    with pytest.raises(error, match=message):
        is_win(hand)


def test_counts_of_any_integer_dtype_and_layout():
    counts = parse_hand(WIN).counts
    for arr in (counts.astype(np.int64), counts.astype(np.int8), counts.astype(np.uint16),
                np.stack([counts, counts], axis=1)[:, 0], counts[::-1][::-1]):
        assert is_win(arr) is True


def test_rules_none_means_the_xueliu_preset():
    seven_pairs = "1122m3344p556677p"
    assert is_win(seven_pairs) is True
    assert is_win(seven_pairs, rules=Rules(seven_pairs=False)) is False
    assert evaluate(seven_pairs) == evaluate(seven_pairs, rules=Rules.preset("xueliu"))


def test_a_hand_from_counts_works_like_a_parsed_one():
    hand = Hand.from_counts(parse_hand("1m").counts, [Meld("peng", "2p"), Meld("peng", "3p"),
                                                      Meld("kong", "4p"), Meld("concealed_kong", "5p")])
    assert waits(hand) == ["1m"]
    assert str(hand) == "1m(222p)(333p)(4444p)[5555p]"


# -- errors of the operations --------------------------------------------------------------------


def test_malformed_notation_is_a_value_error_naming_the_problem():
    with pytest.raises(ValueError, match="unknown suit 'x'"):
        is_win("123x")
    with pytest.raises(ValueError, match="digit after a meld"):
        waits("(777s)11m")


def test_fifth_copy_counts_melds():
    with pytest.raises(ValueError, match="fifth copy of 7s"):
        shanten("77s123m456p(777s)(777p)")
    with pytest.raises(ValueError, match="fifth copy of 9p"):
        is_win("9p1m[9999p](111s)(222s)(333s)")


def test_chow_melds_do_not_exist():
    with pytest.raises(ValueError, match="no chow melds"):
        waits("1234m567p(789s)")


@pytest.mark.parametrize(
    "call, hand, message",
    [
        (is_win, READY, "14 - 3k = 14 concealed tiles"),
        (is_win, "11m(222p)(333p)(444p)", "14 - 3k = 5"),
        (waits, WIN, "13 - 3k = 13 concealed tiles"),
        (waits, "11m(222p)(333p)(444p)(555p)", "13 - 3k = 1"),
        (shanten, "234456p345789s", "13 - 3k"),
        (shanten, "1234m", "13 - 3k"),
        (evaluate, READY, "14 - 3k = 14"),
        (best_discards, READY, "14 - 3k = 14"),
    ],
)
def test_wrong_tile_count_for_the_call(call, hand, message):
    with pytest.raises(ValueError, match=message):
        call(hand)


def test_shanten_accepts_13_and_14_tiles():
    assert shanten(WIN) == -1
    assert shanten(READY) == 0
    assert shanten("12334577m23345p9s") == 0  # discard 9s, ready


def test_shanten_without_any_complete_hand_is_a_value_error():
    # melds of three suits: no complete hand keeps them (D5)
    three_suits = "1m(222p)(333s)(444m)(555p)"
    assert is_win("11m(222p)(333s)(444m)(555p)") is False
    assert waits(three_suits) == []
    with pytest.raises(ValueError):
        shanten(three_suits)


@pytest.mark.parametrize(
    "flags, message",
    [
        ({"kong_replacement": True}, "kong_replacement"),
        ({"kong_replacement": True, "self_draw": True}, "kong meld"),
        ({"after_kong_discard": True, "self_draw": True}, "after_kong_discard"),
        ({"robbed_kong": True, "self_draw": True}, "robbed_kong"),
        ({"after_kong_discard": True, "robbed_kong": True}, "exclude each other"),
        ({"heavenly": True}, "heavenly"),
        ({"heavenly": True, "earthly": True, "self_draw": True}, "exclude each other"),
    ],
)
def test_contradictory_flags_are_value_errors(flags, message):
    with pytest.raises(ValueError, match=message):
        evaluate(WIN, rules=Rules.preset("xuezhan"), **flags)


def test_evaluating_a_hand_that_does_not_win_is_a_value_error():
    with pytest.raises(ValueError, match="not a winning hand"):
        evaluate("12334577m23345p9s")
    with pytest.raises(ValueError, match="not a winning hand"):
        evaluate(WIN, void="p")


# -- evaluate results ----------------------------------------------------------------------------


def test_fan_result_fields_and_description():
    r = evaluate("11112345678999m", self_draw=True, rules=Rules(self_draw_bonus="fan"))
    assert r == FanResult(5, 16, "qingyise", 3, 1, ("zimo",), "清一色", ("自摸",))
    assert r.describe() == "清一色 3 + 根 ×1 + 自摸 1 = 5 番 ×16"
    assert evaluate(WIN).describe() == "平胡 1 = 1 番 ×1"
    with pytest.raises(AttributeError):
        r.fan = 6


def test_describe_shows_the_cap():
    r = evaluate("11223344556677s", rules=Rules(max_fan=4))  # 清七对 5
    assert (r.fan, r.base, r.base_fan, r.multiplier) == (4, "qingqidui", 5, 8)
    assert r.describe() == "清七对 5 = 5 番, 封顶 4 番 ×8"


def test_extras_follow_the_rules_table_order():
    rules = Rules.preset("xuezhan").replace(self_draw_bonus="fan", menqing=True)
    r = evaluate("1m1m[2222p](333p)(444p)(555p)", self_draw=True, kong_replacement=True,
                 last_tile=True, rules=rules)
    assert r.extras == ("gangshanghua", "haidilaoyue", "zimo")
    assert [EXTRA_IDS.index(e) for e in r.extras] == sorted(EXTRA_IDS.index(e) for e in r.extras)
    assert r.extra_names == ("杠上花", "海底捞月", "自摸")


def test_win_tile_is_a_name_or_a_kind():
    rules = Rules(jiaxinwu=True)
    hand = "123456m789m456p55p"
    assert "jiaxinwu" in evaluate(hand, win_tile="5m", rules=rules).extras
    assert evaluate(hand, win_tile="5m", rules=rules) == evaluate(hand, win_tile=4, rules=rules)
    assert evaluate(hand, win_tile="5万", rules=rules) == evaluate(hand, win_tile=4, rules=rules)
    assert "jiaxinwu" not in evaluate(hand, rules=rules).extras
    with pytest.raises(ValueError, match="win_tile"):
        evaluate(hand, win_tile="9s", rules=rules)
    with pytest.raises(ValueError, match="win_tile"):
        evaluate(hand, win_tile="5x", rules=rules)
    with pytest.raises(ValueError, match="win_tile"):
        evaluate(hand, win_tile=27, rules=rules)
    with pytest.raises(TypeError, match="win_tile"):
        evaluate(hand, win_tile=True, rules=rules)
    with pytest.raises(TypeError, match="win_tile"):
        evaluate(hand, win_tile=np.True_, rules=rules)
    assert evaluate(hand, win_tile=np.int64(4), rules=rules) == evaluate(hand, win_tile=4, rules=rules)


def test_pattern_ids_of_the_core_are_the_rules_ids():
    from xueliu import _core

    # Every native code decodes (四鸡, whose fan is a knob's, after the fan table's patterns).
    assert tuple(_core.PATTERN_IDS) == PATTERN_CODES
    assert PATTERN_CODES[:len(PATTERN_IDS)] == PATTERN_IDS
    assert tuple(_core.EXTRA_IDS) == EXTRA_IDS
    assert tuple(_core.DEFAULT_FAN_TABLE) == tuple(Rules().fan_table.values())


def test_fan_table_override_changes_the_score():
    assert evaluate("11223344556677s").base_fan == 5
    r = evaluate("11223344556677s", rules=Rules(fan_table={"qingqidui": 7}))
    assert (r.base, r.base_fan, r.fan) == ("qingqidui", 7, 7)


def test_multipliers_table():
    r = evaluate("11223344556677s", rules=Rules(multipliers=[1, 2, 3, 4, 5, 6]))
    assert (r.fan, r.multiplier) == (5, 5)


# -- best_discards -------------------------------------------------------------------------------


def test_best_discards_lists_every_distinct_discard_best_first():
    hand = "123456789m12345p"
    options = best_discards(hand)
    assert all(isinstance(o, DiscardOption) for o in options)
    assert sorted(o.discard for o in options) == sorted(set(
        t for t in xueliu.tiles.TILE_NAMES if parse_hand(hand).counts[xueliu.tile_index(t)]))
    first = options[0]
    assert first.shanten == 0 and first.total_remaining == 6
    assert {w.tile for w in first.waits} in ({"2p", "5p"}, {"1p", "4p"})
    for o in options:
        assert o.total_remaining == sum(w.remaining for w in o.waits)
        assert (o.shanten == 0) == bool(o.waits)
        after = parse_hand(hand).counts.copy()
        after[xueliu.tile_index(o.discard)] -= 1
        assert o.shanten == shanten(Hand.from_counts(after))
        for w in o.waits:
            assert isinstance(w, WaitOption)
            assert isinstance(w.discard_win, FanResult) and isinstance(w.self_draw, FanResult)
    keys = [(o.shanten, -o.total_remaining) for o in options]
    assert keys == sorted(keys)


def test_best_discards_scores_each_wait_both_ways():
    rules = Rules(self_draw_bonus="fan")
    option = next(o for o in best_discards("11112345678999m", rules=rules) if o.discard == "1m")
    for w in option.waits:
        assert w.self_draw.fan == w.discard_win.fan + 1
        assert w.self_draw.extras == ("zimo",)


@pytest.mark.parametrize("order", ["plain first", "scored first"])
def test_best_discards_results_follow_the_rules_of_each_call(order):
    """A result cache must key on the rules: two Rules that score the same hand differently give
    different options, whichever is asked first, and each agrees with the pure-Python reference.
    (A cache keyed on the hand alone, or on the fans without the multipliers, fails here.)"""
    import reference as ref

    hand = "1112345678999m5p"  # discard 5p: 九莲 waits on every m; 清一色 without the family knob
    variants = {
        "plain": (Rules.preset("xueliu"), ref.make_rules("xueliu")),
        "scored": (Rules.preset("xueliu").replace(fan_table={"qingyise": 4}, self_draw_bonus="fan"),
                   ref.make_rules("xueliu", fan_table={"qingyise": 4}, self_draw_bonus="fan")),
        "linear": (Rules.preset("xueliu").replace(multipliers=list(range(1, 15))),
                   ref.make_rules("xueliu", multipliers=list(range(1, 15)))),
    }
    names = ["plain", "scored", "linear"] if order == "plain first" else ["scored", "linear", "plain"]
    counts, melds = ref.parse(hand)
    got = {}
    for name in names + names:  # twice: the second round may be served from any cache
        rules, ref_rules = variants[name]
        options = best_discards(hand, rules=rules)
        if name in got:
            assert options == got[name]
            continue
        got[name] = options
        for o in options:  # every wait's two scores, as the reference scores that win
            for w in o.waits:
                won = list(counts)
                won[ref.tile_index(o.discard)] -= 1
                won[ref.tile_index(w.tile)] += 1
                for r, self_draw in ((w.discard_win, False), (w.self_draw, True)):
                    want = ref.evaluate(won, melds, rules=ref_rules, win_tile=w.tile,
                                        self_draw=self_draw)
                    assert (r.fan, r.multiplier, r.base, r.gen, r.extras) == \
                        (want.fan, want.multiplier, want.base, want.gen, want.extras)
    assert got["plain"] != got["scored"] != got["linear"] != got["plain"]
    ready = next(o for o in got["plain"] if o.discard == "5p")
    assert [w.discard_win.fan for w in ready.waits] == [4, 3, 3, 3, 3, 3, 3, 3, 4]  # 根 on 1m, 9m


def test_visible_counts_reduce_remaining():
    hand = "123456789m12345p"
    seen = np.zeros(27, dtype=np.uint8)
    seen[xueliu.tile_index("2p")] = 3
    by_array = best_discards(hand, visible=seen)
    assert best_discards(hand, visible=list(seen)) == by_array
    assert best_discards(hand, visible="222p") == by_array
    assert best_discards(hand, visible=parse_hand("(222p)")) == by_array
    assert best_discards(hand, visible=seen.astype(np.int64)) == by_array
    option = next(o for o in by_array if o.discard == "1p")
    assert {w.tile: w.remaining for w in option.waits} == {"2p": 0, "5p": 3}


@pytest.mark.parametrize(
    "visible, error, message",
    [
        (np.zeros(26, dtype=np.uint8), ValueError, r"visible: .*shape \(27,\)"),
        (np.zeros((1, 27), dtype=np.uint8), ValueError, r"shape \(27,\)"),
        (np.full(27, 5, dtype=np.uint8), ValueError, "out of range 0..4"),
        ([0] * 26 + [-1], ValueError, "out of range 0..4"),
        (np.zeros(27, dtype=float), ValueError, "integers"),
        ([4] * 27, ValueError, "visible shows 4 of 1m"),
        (12, TypeError, "visible"),
    ],
)
def test_bad_visible_counts(visible, error, message):
    with pytest.raises(error, match=message):
        best_discards("123456789m12345p", visible=visible)


# -- batch ---------------------------------------------------------------------------------------

BATCH_HANDS = [case["hand"] for case in cases_before_wild_tiles(VECTORS, "wait_cases")
               if "hand_size" not in case]
WIN_HANDS = [case["hand"] for case in cases_before_wild_tiles(VECTORS, "eval_cases")
             if case["preset"] == "xueliu" and "overrides" not in case]


def test_batch_equals_single_calls():
    counts, melds = batch.encode(BATCH_HANDS)
    masks = batch.waits(counts, melds)
    assert masks.dtype == np.uint32 and masks.shape == (len(BATCH_HANDS),)
    for hand, mask in zip(BATCH_HANDS, masks):
        assert [xueliu.tile_name(k) for k in range(27) if int(mask) >> k & 1] == waits(hand)
    sh = batch.shanten(counts, melds, threads=2)
    assert sh.dtype == np.int8
    assert list(sh) == [shanten(h) for h in BATCH_HANDS]


def test_batch_evaluate_equals_single_calls():
    counts, melds = batch.encode(WIN_HANDS)
    wins = batch.is_win(counts, melds)
    fan, code = batch.evaluate(counts, melds)
    assert fan.dtype == np.int16 and code.dtype == np.int8
    for i, hand in enumerate(WIN_HANDS):
        assert bool(wins[i]) == is_win(hand)
        if is_win(hand):
            r = evaluate(hand)
            assert (int(fan[i]), batch.PATTERN_IDS[code[i]]) == (r.fan, r.base)
        else:
            assert (fan[i], code[i]) == (0, -1)


def test_batch_evaluate_marks_non_wins_with_code_minus_one():
    fan, code = batch.evaluate(*batch.encode([WIN, "12334577m23345p9s", "11m(222p)(333p)(444p)(555p)"]))
    assert fan.tolist() == [1, 0, 2]
    assert [batch.PATTERN_IDS[c] if c >= 0 else None for c in code] == ["pinghu", None, "duiduihu"]


def test_batch_void_and_rules():
    counts, melds = batch.encode([READY, READY, READY])
    void = np.array([-1, 1, 2], dtype=np.int8)
    masks = batch.waits(counts, melds, void)
    assert [int(m) for m in masks] == [
        int(batch.waits(*batch.encode([READY]))[0]), 0, int(batch.waits(*batch.encode([READY]))[0])]
    pairs = batch.encode(["1122m3344p556677p"])
    assert bool(batch.is_win(*pairs)[0]) is True
    assert bool(batch.is_win(*pairs, rules=Rules(seven_pairs=False))[0]) is False
    assert batch.PATTERN_IDS == PATTERN_IDS


def test_batch_accepts_other_integer_dtypes_without_melds():
    counts = np.array([parse_hand(READY).counts], dtype=np.int64)
    assert list(batch.shanten(counts)) == [0]
    assert list(batch.shanten(counts.tolist())) == [0]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"counts": np.zeros((2, 26), np.uint8)}, ValueError, r"counts must have shape \(N, 27\), got \(2, 26\)"),
        ({"counts": np.zeros(27, np.uint8)}, ValueError, r"counts must have shape \(N, 27\)"),
        ({"counts": np.zeros((2, 27), np.float64)}, ValueError, "counts must hold integers"),
        ({"counts": np.full((2, 27), 5, np.uint8)}, ValueError, r"counts\[0, 0\] = 5 out of range 0..4"),
        ({"counts": -np.ones((2, 27), np.int8)}, ValueError, r"counts\[0, 0\] = -1 out of range"),
        ({"counts": "123m"}, TypeError, "counts must be an integer array"),
        ({"counts": None}, TypeError, "counts"),
        ({"counts": {"a": 1}}, TypeError, "counts"),
        ({"melds": np.full((2, 3), -1, np.int16)}, ValueError, r"melds must have shape \(2, 4\)"),
        ({"melds": np.full((3, 4), -1, np.int16)}, ValueError, r"melds must have shape \(2, 4\)"),
        ({"melds": np.full((2, 4), 81, np.int16)}, ValueError, r"melds\[0, 0\] = 81 out of range -1..80"),
        ({"melds": np.full((2, 4), -2, np.int16)}, ValueError, "out of range -1..80"),
        ({"melds": np.full((2, 4), -1.0)}, ValueError, "melds must hold integers"),
        ({"void": np.array([0, 3], np.int8)}, ValueError, r"void\[1\] = 3 out of range -1..2"),
        ({"void": np.array([0], np.int8)}, ValueError, r"void must have shape \(2,\)"),
        ({"void": np.array(["m", "p"])}, ValueError, "void must hold integers"),
        ({"threads": 0}, ValueError, "threads"),
        ({"threads": 1.5}, ValueError, "threads"),
    ],
)
def test_batch_input_errors_name_the_argument(kwargs, error, message):
    args = {"counts": np.zeros((2, 27), np.uint8), "melds": None, "void": None}
    threads = kwargs.pop("threads", 1)
    args.update(kwargs)
    for fn in (batch.is_win, batch.waits, batch.shanten, batch.evaluate):
        with pytest.raises(error, match=message):
            fn(args["counts"], args["melds"], args["void"], threads=threads)


def test_batch_row_errors_name_the_row():
    counts, melds = batch.encode([READY, "1m(222p)(333p)(444p)(555p)"])
    melds[1, 0] = 27 * 1 + 0  # a kong of 1m next to the concealed 1m: a fifth copy
    with pytest.raises(ValueError, match="row 1: .*fifth copy of 1m"):
        batch.waits(counts, melds)
    with pytest.raises(ValueError, match="row 0"):
        batch.is_win(counts, None)


def test_signatures_are_the_contract():
    import inspect

    def shape(fn):
        return [(p.name, p.kind.name, p.default) for p in inspect.signature(fn).parameters.values()]

    kw = "KEYWORD_ONLY"
    empty = inspect.Parameter.empty
    hand = ("hand", "POSITIONAL_OR_KEYWORD", empty)
    # benjin=: the hand's 本金 under wild_kinds "benjin" / "benjin_plus" (docs/rules.md §12.1).
    simple = [hand, ("melds", kw, None), ("void", kw, None), ("rules", kw, None),
              ("benjin", kw, None)]
    assert shape(is_win) == shape(waits) == shape(shanten) == simple
    assert shape(evaluate) == [hand, ("melds", kw, None), ("void", kw, None),
                               ("win_tile", kw, None)] + [(f, kw, False) for f in FLAGS] + [
                               ("rules", kw, None), ("benjin", kw, None)]
    assert shape(best_discards) == [hand, ("melds", kw, None), ("visible", kw, None),
                                    ("void", kw, None), ("rules", kw, None), ("benjin", kw, None)]
    assert FanResult._fields == ("fan", "multiplier", "base", "base_fan", "gen", "extras",
                                 "base_name", "extra_names",
                                 "stacked_fan")
    assert DiscardOption._fields == ("discard", "shanten", "total_remaining", "waits", "jinzhang",
                                     "jinzhang_total")
    assert WaitOption._fields == ("tile", "remaining", "discard_win", "self_draw")
    for fn in (batch.is_win, batch.waits, batch.shanten, batch.evaluate):
        params = list(inspect.signature(fn).parameters.values())
        assert [(p.name, p.default) for p in params[:5]] == [
            ("counts", empty), ("melds", None), ("void", None), ("rules", None), ("threads", 1)]
