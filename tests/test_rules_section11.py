"""docs/rules.md §11: the table-shape, flow and scoring knobs, their checks across knobs, the five §11.4
presets, the Shape derived from a Rules, and the new knobs at the core level."""

import json

import pytest

import xueliu
from xueliu.patterns import pattern_name
from xueliu.rules import PRESET_SOURCES, PRESETS, SECTION11_KNOBS, Rules

ROOMS = ("sanren_liangfang", "sanren_sanfang", "siren_liangfang", "erren_yifang", "daodaohu")

# docs/rules.md §11.4, column by column (unnamed knobs are the xueliu preset's).
TABLE_11_4 = {
    "sanren_liangfang": dict(players=3, suits=("p", "s"), hand_size=13, mode="xuezhan",
                             exchange_three=False, declare_void=False, min_fan_discard_win=2,
                             max_fan=4, self_draw_bonus="fan", dian_gang_hua="discarder",
                             direct_kong_others=0, jingoudiao=False, heavenly_earthly=False,
                             kaertiao=False, haidi=False, haidipao=False, seven_pairs=True,
                             pass_blocks_discard_win="off", next_dealer="first_winner"),
    "sanren_sanfang": dict(players=3, suits=("m", "p", "s"), hand_size=13, mode="xuezhan",
                           exchange_three=False, declare_void=True, min_fan_discard_win=2,
                           max_fan=4, self_draw_bonus="fan", dian_gang_hua="discarder",
                           direct_kong_others=0, jingoudiao=False, heavenly_earthly=False,
                           kaertiao=False, haidi=False, haidipao=False, seven_pairs=True,
                           pass_blocks_discard_win="off", next_dealer="first_winner"),
    "siren_liangfang": dict(players=4, suits=("p", "s"), hand_size=10, mode="xuezhan",
                            exchange_three=False, declare_void=False, min_fan_discard_win=1,
                            max_fan=4, self_draw_bonus="base", dian_gang_hua="discarder",
                            direct_kong_others=0, jingoudiao="additive",
                            heavenly_earthly="additive", kaertiao=True, haidi=True, haidipao=True,
                            seven_pairs=True, pass_blocks_discard_win="not_higher",
                            next_dealer="first_winner_next"),
    "erren_yifang": dict(players=2, suits=("m",), hand_size=7, mode="xuezhan",
                         exchange_three=False, declare_void=False, min_fan_discard_win=1,
                         max_fan=4, self_draw_bonus="fan", dian_gang_hua="discarder",
                         direct_kong_others=0, jingoudiao=False, heavenly_earthly=False,
                         kaertiao=False, haidi=False, haidipao=False, seven_pairs=False,
                         pass_blocks_discard_win="off", next_dealer="first_winner"),
    "daodaohu": dict(players=4, suits=("m", "p", "s"), hand_size=13, mode="daodaohu",
                     exchange_three=True, exchange_direction="dice", declare_void=True,
                     min_fan_discard_win=1, max_fan=None, self_draw_bonus="base",
                     dian_gang_hua="self_draw", direct_kong_others=1, jingoudiao=False,
                     heavenly_earthly=False, kaertiao=False, haidi=False, haidipao=False,
                     seven_pairs=True, pass_blocks_discard_win="off", next_dealer="dice"),
}


@pytest.mark.parametrize("name", ROOMS)
def test_each_room_preset_is_its_column_of_the_rules_table(name):
    rules = Rules.preset(name)
    for knob, value in TABLE_11_4[name].items():
        assert getattr(rules, knob) == value, knob
    assert rules.post_win_kongs == frozenset() and rules.player_multipliers is None
    assert rules.forced_win_last_n == 0
    assert name in PRESET_SOURCES


def test_erren_yifang_makes_qing_worth_nothing_extra():
    table = Rules.preset("erren_yifang").fan_table
    assert (table["qingyise"], table["qingdui"], table["qingyaojiu"]) == (1, 2, 3)


def test_every_preset_round_trips_through_json_and_repr():
    for name in PRESETS:
        rules = Rules.preset(name)
        assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
        assert eval(repr(rules), {"Rules": Rules}) == rules


def test_a_default_table_writes_no_section11_knob():
    data = Rules().to_dict()
    assert not set(SECTION11_KNOBS) & set(data)
    assert "jiangqidui" not in data["fan_table"]
    data = Rules.preset("sanren_liangfang").to_dict()
    assert data["players"] == 3 and data["suits"] == ["p", "s"]


# -- the values ----------------------------------------------------------------------------------

@pytest.mark.parametrize("knob, value", [
    ("players", 5), ("players", True), ("suits", ("m", "z")), ("suits", ()), ("suits", "ps"),
    ("suits", ("p", "p")), ("hand_size", 11), ("hand_size", True), ("exchange_count", 2),
    ("mode", "daodao"), ("next_dealer", "winner"), ("self_draw_only", 1),
    ("min_fan_discard_win", 0), ("rob_kong", "yes"), ("added_kong_payment", "fresh"),
    ("jingoudiao", 1), ("jingoudiao", "stack"), ("heavenly_earthly", 0),
    ("earthly_win", "first"), ("kaertiao", None), ("single_wait", 1), ("call_transfer", "all"),
    ("jiang_patterns", "on"),
])
def test_a_bad_section11_value_names_the_knob(knob, value):
    with pytest.raises(ValueError, match=f"knob '{knob}'"):
        Rules(**{knob: value}, declare_void=False)


def test_suits_in_any_order_are_kept_in_m_p_s_order():
    assert Rules(suits=["s", "p"], declare_void=False).suits == ("p", "s")


def test_base_and_each_are_the_plain_true():
    assert Rules(jingoudiao="base") == Rules(jingoudiao=True)
    assert Rules(heavenly_earthly="base").heavenly_earthly is True
    assert Rules(call_transfer="each") == Rules()
    assert Rules(call_transfer="split").call_transfer == "split"


def test_declare_void_needs_three_suits():
    with pytest.raises(ValueError, match="'declare_void'.*定缺 needs all three suits"):
        Rules(suits=("p", "s"))


def test_opposite_has_no_meaning_at_three_seats():
    with pytest.raises(ValueError, match="'exchange_direction': 'opposite' with players=3"):
        Rules(players=3, exchange_direction="opposite")
    with pytest.raises(ValueError, match="'opposite' with players=3"):
        Rules(players=3, exchange_direction="opposite", exchange_three=False)
    assert Rules(players=2, exchange_direction="opposite").players == 2


def test_a_deal_bigger_than_the_wall_is_refused():
    with pytest.raises(ValueError, match="need 53 tiles for the deal.*holds 36"):
        Rules(suits=("m",), declare_void=False)
    assert Rules(players=2, suits=("m",), declare_void=False).shape.wall_tiles == 36


# -- the shape -----------------------------------------------------------------------------------

def test_the_default_shape_is_the_four_seat_table():
    s = Rules().shape
    assert (s.players, s.suits, s.wall_tiles, s.hand_size, s.sets, s.pairs) == (
        4, ("m", "p", "s"), 108, 13, 4, 7)
    assert s.is_default and s.code == 1 and list(s.seats) == [0, 1, 2, 3]
    assert s.dealt_tiles == 53 and s.deal_plan[:4] == ((0, 4), (1, 4), (2, 4), (3, 4))
    assert s.deal_plan[-4:] == ((0, 2), (1, 1), (2, 1), (3, 1))


@pytest.mark.parametrize("size, rounds, rest", [(13, 3, 1), (10, 2, 2), (7, 1, 3)])
def test_the_deal_plan_follows_rules_11_1(size, rounds, rest):
    s = Rules(players=3, hand_size=size).shape
    assert (s.deal_rounds, s.deal_rest) == (rounds, rest)
    assert sum(n for _, n in s.deal_plan) == s.dealt_tiles == 3 * size + 1
    for seat in range(3):
        assert sum(n for who, n in s.deal_plan if who == seat) == size + (seat == 0)


def test_two_room_shape_has_the_kinds_of_its_suits():
    s = Rules.preset("sanren_liangfang").shape
    assert s.kinds == tuple(range(9, 27)) and s.kind_mask == (1 << 27) - (1 << 9)
    assert not s.declare_void_possible and s.wall_tiles == 72


def test_the_pairs_family_exists_at_7_and_13_only():
    assert Rules(hand_size=7).shape.pairs == 4
    assert Rules(hand_size=10).shape.pairs == 0
    assert Rules(hand_size=7, seven_pairs=False).shape.pairs == 0


# -- the core under the new knobs ----------------------------------------------------------------

TEN = Rules(hand_size=10)
SEVEN = Rules(hand_size=7)
LIANGFANG = Rules.preset("sanren_liangfang")


def test_a_ten_tile_hand_wins_with_three_sets_and_a_pair():
    assert xueliu.is_win("123456789m11p", rules=TEN)
    assert xueliu.waits("12345m11p234p", rules=TEN) == ["3m", "6m"]


def test_ten_tile_hands_have_no_pairs_family():
    # Eleven tiles are never all pairs: 1133557799m + 1p is no win, and 14 tiles are refused.
    assert not xueliu.is_win("1133557799m1p", rules=TEN)
    with pytest.raises(ValueError, match="needs 11 - 3k"):
        xueliu.is_win("11223344556677m", rules=TEN)


def test_four_pairs_win_a_seven_tile_hand_and_are_reported_as_such():
    r = xueliu.evaluate("11335577m", rules=SEVEN)
    assert r.base == "qingqidui" and pattern_name(r.base, 7) == "清四对"
    assert not xueliu.is_win("11335577m", rules=SEVEN.replace(seven_pairs=False))


def test_a_tile_of_a_suit_not_in_play_is_refused_naming_it():
    with pytest.raises(ValueError, match="tile 1m is not in play"):
        xueliu.shanten("1m23456789p12345s", rules=LIANGFANG)
    with pytest.raises(ValueError, match="meld of 5m is not in play"):
        xueliu.waits("1234567p(555m)", rules=LIANGFANG)


def test_no_void_is_declared_with_two_suits():
    with pytest.raises(ValueError, match="no 定缺"):
        xueliu.waits("1234567p234567s", void="p", rules=LIANGFANG)


def test_more_melds_than_sets_is_refused():
    with pytest.raises(ValueError, match="at most 2 melds"):
        xueliu.shanten("1m(222m)(333m)(444m)", rules=SEVEN)


def test_jingoudiao_needs_every_set_melded_at_each_size():
    gou = Rules(hand_size=10, jingoudiao=True)
    assert xueliu.evaluate("11s(222p)(333s)(444s)", rules=gou).base == "jingoudiao"


def test_additive_jingou_stacks_on_the_pattern():
    r = xueliu.evaluate("11s(222p)(333s)(444s)", rules=Rules(hand_size=10, jingoudiao="additive"))
    assert (r.base, r.extras, r.fan) == ("duiduihu", ("jingou",), 3)


def test_jiang_qidui_needs_every_tile_a_2_5_or_8():
    jiang = Rules(jiang_patterns=True)
    assert xueliu.evaluate("22558822p558855s", rules=jiang).base == "jiangqidui"
    assert xueliu.evaluate("22558833p225588s", rules=jiang).base == "qidui"


def test_additive_tianhu_adds_three_on_top_of_the_hand():
    r = xueliu.evaluate("123456m456p789p11p", self_draw=True, heavenly=True,
                        rules=Rules(heavenly_earthly="additive"))
    assert (r.base, r.extras, r.fan, r.stacked_fan) == ("pinghu", ("tianhu",), 4, 2)
    assert r.describe() == "平胡 1 + 天胡 3 = 4 番 ×8"


def test_a_discard_earthly_win_needs_first_discard():
    hand = "123456m456p789p11p"
    with pytest.raises(ValueError, match="earthly.*needs self_draw"):
        xueliu.evaluate(hand, earthly=True, rules=Rules(heavenly_earthly=True))
    r = xueliu.evaluate(hand, earthly=True,
                        rules=Rules(heavenly_earthly=True, earthly_win="first_discard"))
    assert r.base == "dihu"
    with pytest.raises(ValueError, match="needs a discard win"):
        xueliu.evaluate(hand, earthly=True, self_draw=True,
                        rules=Rules(heavenly_earthly=True, earthly_win="first_discard"))


def test_kaertiao_is_the_winning_2s_inside_123s():
    rules = Rules(kaertiao=True)
    assert "kaertiao" in xueliu.evaluate("123s456s789p11p234p", win_tile="2s", rules=rules).extras
    assert "kaertiao" not in xueliu.evaluate("123s456s789p11p234p", win_tile="3s",
                                             rules=rules).extras


def test_single_wait_scores_a_hand_that_waited_on_one_tile():
    rules = Rules(single_wait=True)
    assert "kabiandiao" in xueliu.evaluate("123456m456p789p11p", win_tile="1p", rules=rules).extras
    # 23m waiting on 1m or 4m: two waits, no 卡边吊.
    assert "kabiandiao" not in xueliu.evaluate("123456m456p789p11p", win_tile="1m",
                                               rules=rules).extras


# -- the engine plays every room of §11.4 ---------------------------------------------------------

@pytest.mark.parametrize("name", ROOMS)
def test_the_engine_plays_every_room_preset(name):
    rules = Rules.preset(name)
    state = xueliu.new_game(rules, seed=1)
    assert len(state.net) == rules.players and state.pending()
    while not state.is_over:  # legal play to the end, under the preset's own rules
        state.step({s: state.legal_actions(s)[0] for s in state.pending()})
    assert state.settlement().end_reason


def test_the_engine_plays_the_scoring_knobs_of_section11():
    rules = Rules.preset("xuezhan").replace(jingoudiao="additive", heavenly_earthly="additive",
                                            kaertiao=True, single_wait=True, jiang_patterns=True)
    state = xueliu.new_game(rules, seed=7)
    assert state.rules == rules


def test_analyze_reads_the_hand_size_from_the_rules():
    from xueliu.analysis import analyze

    got = analyze("12345m11p234p", rules=TEN)
    assert got["shanten"] == 0 and [w.tile for w in got["waits"]] == ["3m", "6m"]
    with pytest.raises(ValueError, match="has 10 - 3k tiles"):
        analyze("12334577m23345p", rules=TEN)


@pytest.mark.parametrize("rule, next_seat", [("first_winner", 0), ("first_winner_next", 1)])
def test_a_hand_without_a_winner_passes_the_deal_under_first_winner_next(rule, next_seat):
    from xueliu.bots import play_hand
    from xueliu.bots.random_bot import RandomBot

    match = xueliu.Match(Rules.preset("xuezhan").replace(next_dealer=rule), seed=0)
    first = match.next_hand()
    play_hand(first, [RandomBot(seed=s) for s in range(4)])
    assert first.dealer == 0 and not first.settlement().wins  # this seed's first hand: no win
    assert match.next_hand().dealer == next_seat
