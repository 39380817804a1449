"""Fan evaluation of the native core against the public vectors (docs/rules.md §6, §6.1, §11, D8-D40).

Every ``eval_cases`` entry of ``tests/data/hands.json`` goes through ``xueliu._core.evaluate`` with
the ``ScoringRules`` of the case's rules: its preset (docs/rules.md §9, §11.4) with its overrides, as a
``Rules`` builds them (``Rules._scoring``: the hand size and suits travel in it too); the rest of
the file checks the errors: contradicting flags, bad win tiles, wrong tile counts, bad rule values.
"""

import json
import pickle
import re
from pathlib import Path

import pytest

from conftest import cases_before_wild_tiles
from xueliu import _core
from xueliu.rules import Rules

VECTORS = json.loads((Path(__file__).parent / "data" / "hands.json").read_text(encoding="utf-8"))
EVAL_CASES = cases_before_wild_tiles(VECTORS, "eval_cases")  # docs/rules.md §12: see conftest

# docs/rules.md §9: the scoring knobs of the two presets (every other scoring knob is the same in both).
PRESETS = {
    "xueliu": {"jingoudiao": False, "heavenly_earthly": False, "haidi": False, "self_draw_bonus": "base"},
    "xuezhan": {"jingoudiao": True, "heavenly_earthly": True, "haidi": True, "self_draw_bonus": "none"},
}
COMMON = {
    "seven_pairs": True, "menqing": False, "gen_counts": "all_fours", "duanyaojiu": False,
    "yitiaolong": False, "jiaxinwu": False, "haidipao": False, "fan_table": {},
    "multipliers": None, "max_fan": None,
}
GEN_COUNTS = {"all_fours": 0, "kongs_only": 1, "none": 2}
PLAIN_KNOBS = ("seven_pairs", "jingoudiao", "heavenly_earthly", "haidi", "menqing", "duanyaojiu",
               "yitiaolong", "jiaxinwu", "haidipao")

FLAG_BITS = {
    "self_draw": _core.SELF_DRAW,
    "kong_replacement": _core.KONG_REPLACEMENT,
    "after_kong_discard": _core.AFTER_KONG_DISCARD,
    "robbed_kong": _core.ROBBED_KONG,
    "last_tile": _core.LAST_TILE,
    "heavenly": _core.HEAVENLY,
    "earthly": _core.EARTHLY,
}

# docs/rules.md §1 notation, with the Chinese suit suffixes the seed examples use.
SUIT_OF = {"m": 0, "万": 0, "萬": 0, "p": 1, "筒": 1, "饼": 1, "餅": 1, "铜": 1,
           "s": 2, "条": 2, "條": 2, "索": 2}
PENG, KONG, CONCEALED_KONG = 0, 1, 2


def kind(rank_digit: str, suit: str) -> int:
    return SUIT_OF[suit] * 9 + int(rank_digit) - 1


def parse_hand(text: str) -> _core.Hand:
    """'11p345m(777s)(8888m)[9999p]' -> _core.Hand (a small parser for the vectors only)."""
    counts = [0] * 27
    melds = []
    for digits, suit, meld in re.findall(r"(\d+)(\D)|([(\[]\d+\D[)\]])", text):
        if meld:
            ranks, suit = meld[1:-2], meld[-2]
            meld_type = CONCEALED_KONG if meld[0] == "[" else (PENG if len(ranks) == 3 else KONG)
            melds.append((meld_type, kind(ranks[0], suit)))
        else:
            for rank in digits:
                counts[kind(rank, suit)] += 1
    return _core.Hand(bytes(counts), melds)


def scoring_rules(preset: str, overrides: dict) -> _core.ScoringRules:
    knobs = {**COMMON, **PRESETS[preset], **overrides}
    fan_table = list(_core.DEFAULT_FAN_TABLE)
    for pattern, fan in knobs["fan_table"].items():
        fan_table[_core.PATTERN_IDS.index(pattern)] = fan
    return _core.ScoringRules(
        **{name: knobs[name] for name in PLAIN_KNOBS},
        zimo_fan=knobs["self_draw_bonus"] == "fan",
        gen_counts=GEN_COUNTS[knobs["gen_counts"]],
        max_fan=knobs["max_fan"] or 0,
        fan_table=fan_table,
        multipliers=knobs["multipliers"] or (),
    )


def case_rules(case: dict) -> _core.ScoringRules:
    """The case's rules: a §9 case through the independent mapping above, any other (a §11.4
    preset or a §11 knob) through Rules, which carries the table shape to the core."""
    overrides = case.get("overrides", {})
    if not case["id"].startswith("T"):  # a case of docs/rules.md §1-§10
        return scoring_rules(case["preset"], overrides)
    return Rules.preset(case["preset"]).replace(**overrides)._scoring


def evaluate_case(case: dict):
    context = case["context"]
    void = -1 if context["void"] is None else SUIT_OF[context["void"]]
    win_tile = kind(*context["win_tile"]) if context.get("win_tile") else -1
    flags = sum(bit for name, bit in FLAG_BITS.items() if context[name])
    return _core.evaluate(parse_hand(case["hand"]), void, case_rules(case), win_tile, flags)


@pytest.mark.parametrize("case", EVAL_CASES, ids=[c["id"] for c in EVAL_CASES])
def test_eval_vector(case):
    expect = case["expect"]
    if not expect["win"]:
        with pytest.raises(ValueError, match="not a winning hand"):
            evaluate_case(case)
        return
    fan, multiplier, base, base_fan, gen, packed = evaluate_case(case)
    extras = packed & 0xFFFF  # above: what an additive 天胡 / 地胡 adds beyond one fan
    assert (fan, multiplier) == (expect["fan"], expect["multiplier"])
    # D13/D22: a base reaching the same total with the same decomposition fans is also right.
    accepted = {(expect["base"], expect["base_fan"], expect["gen"])}
    accepted |= {tuple(alt) for alt in expect.get("alternatives", [])}
    assert (_core.PATTERN_IDS[base], base_fan, gen) in accepted
    assert [e for i, e in enumerate(_core.EXTRA_IDS) if extras >> i & 1] == expect["extras"]


def test_vectors_cover_every_case():
    assert len(EVAL_CASES) == 337
    assert sum(c["id"].startswith("T") for c in EVAL_CASES) == 46  # docs/rules.md §11


# ---------------------------------------------------------------------------------------------
# Ids, flags and defaults exported by the module

def test_pattern_and_extra_ids_follow_the_rules_tables():
    assert _core.PATTERN_IDS == (
        "pinghu", "duiduihu", "qingyise", "daiyaojiu", "qidui", "jingoudiao", "qingdui", "jiangdui",
        "jiangqidui", "jiangjingoudiao",  # docs/rules.md §11.3, right after jiangdui (D31)
        "longqidui", "qingqidui", "qingyaojiu", "qingjingoudiao", "qinglongqidui", "tianhu", "dihu",
        "shibaluohan", "qingsanlongqidui", "qingshibaluohan", "jiulianbaodeng",
        "siji")  # docs/rules.md §12.2, appended; its fan is four_wilds', so no fan table entry
    assert _core.EXTRA_IDS == (
        "gangshanghua", "gangshangpao", "qiangganghu", "haidilaoyue", "zimo", "menqing",
        "duanyaojiu", "yitiaolong", "jiaxinwu", "haidipao",
        "jingou", "tianhu", "dihu", "kaertiao", "kabiandiao",  # docs/rules.md §11.3 (D32)
        "wuji")  # docs/rules.md §12.2, listed last (D51)
    assert _core.DEFAULT_FAN_TABLE == (1, 2, 3, 3, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6, 7, 8, 9,
                                       9)
    assert sorted(FLAG_BITS.values()) == [1, 2, 4, 8, 16, 32, 64]


XUELIU = scoring_rules("xueliu", {})
XUEZHAN = scoring_rules("xuezhan", {})


def fan_of(hand: str, rules=XUELIU, *, win_tile=-1, flags=0, void=-1):
    return _core.evaluate(parse_hand(hand), void, rules, win_tile, flags)


def test_pinghu_scores_one_fan():
    assert fan_of("23445677p345789s") == (1, 1, 0, 1, 0, 0)


def test_fan_table_override_changes_the_base_fan():
    table = list(_core.DEFAULT_FAN_TABLE)
    table[_core.PATTERN_IDS.index("pinghu")] = 2
    rules = _core.ScoringRules(fan_table=table)
    assert fan_of("23445677p345789s", rules)[:2] == (2, 2)


def test_tianhu_flags_are_ignored_without_the_knob():
    hand = "123456m456p789p11p"
    assert fan_of(hand, XUELIU, flags=_core.SELF_DRAW | _core.HEAVENLY)[2] == 0  # pinghu
    tianhu = _core.PATTERN_IDS.index("tianhu")
    assert fan_of(hand, XUEZHAN, flags=_core.SELF_DRAW | _core.HEAVENLY)[2] == tianhu


# ---------------------------------------------------------------------------------------------
# Flag contradictions (docs/rules.md §6.1, D15): each raises ValueError naming the flags

SD, KR, AKD, RK, LT, HV, EA = (_core.SELF_DRAW, _core.KONG_REPLACEMENT, _core.AFTER_KONG_DISCARD,
                               _core.ROBBED_KONG, _core.LAST_TILE, _core.HEAVENLY, _core.EARTHLY)
WITH_KONG = "123m456m789m11p(2222p)"


@pytest.mark.parametrize("hand, flags, named", [
    (WITH_KONG, KR, "kong_replacement"),                    # 杠上花 needs a self-draw
    ("23445677p345789s", SD | KR, "kong_replacement"),      # ... and a kong meld
    ("234m567m345p99p(111p)", SD | KR, "kong_replacement"),  # a peng is no kong
    ("23445677p345789s", SD | AKD, "after_kong_discard"),  # 杠上炮 is a discard win
    ("23445677p345789s", SD | RK, "robbed_kong"),           # 抢杠胡 is a discard win
    ("23445677p345789s", AKD | RK, "after_kong_discard"),   # they exclude each other
    ("23445677p345789s", HV, "heavenly"),                   # 天胡 is a self-draw
    ("23445677p345789s", EA, "earthly"),                    # 地胡 is a self-draw
    (WITH_KONG, SD | HV, "heavenly"),                       # ... without melds
    (WITH_KONG, SD | EA, "earthly"),
    ("23445677p345789s", SD | HV | EA, "heavenly"),         # they exclude each other
])
@pytest.mark.parametrize("rules", [XUELIU, XUEZHAN], ids=["xueliu", "xuezhan"])
def test_contradicting_flags_raise(hand, flags, named, rules):
    with pytest.raises(ValueError, match=named):
        fan_of(hand, rules, flags=flags)


def test_consistent_flag_combinations_are_accepted():
    assert fan_of(WITH_KONG, XUEZHAN, flags=SD | KR | LT)[5] == 0b1001  # 杠上花 + 海底捞月 (D15)
    assert fan_of("23445677p345789s", XUEZHAN, flags=RK)[5] == 0b100
    assert fan_of("23445677p345789s", XUEZHAN, flags=AKD | LT)[5] == 0b10


def test_unknown_flag_bits_raise():
    with pytest.raises(ValueError, match="flags"):
        fan_of("23445677p345789s", flags=128)


# ---------------------------------------------------------------------------------------------
# Bad hands and win tiles

def test_wrong_concealed_count_names_the_expected_count():
    with pytest.raises(ValueError, match=r"14 - 3k = 11 concealed tiles"):
        fan_of("23445677p345789s(111m)")
    with pytest.raises(ValueError, match=r"14 - 3k = 14 concealed tiles"):
        fan_of("2345677p345789s")


def test_win_tile_must_be_a_concealed_tile():
    with pytest.raises(ValueError, match="win_tile 1m"):
        fan_of("23445677p345789s", win_tile=0)
    with pytest.raises(ValueError, match="win_tile"):
        fan_of("23445677p345789s", win_tile=27)
    with pytest.raises(ValueError, match="win_tile"):
        fan_of("23445677p345789s", win_tile=-2)
    assert fan_of("23445677p345789s", win_tile=9 + 4)[0] == 1


def test_win_tile_in_a_meld_only_is_rejected():
    with pytest.raises(ValueError, match="win_tile 2p"):
        fan_of(WITH_KONG, win_tile=9 + 1)


def test_not_a_win_and_void_errors():
    with pytest.raises(ValueError, match="not a winning hand"):
        fan_of("123456789m11p235p")
    with pytest.raises(ValueError, match="not a winning hand.*void"):
        fan_of("23445677p345789s", void=1)
    with pytest.raises(ValueError, match="void suit"):
        fan_of("23445677p345789s", void=3)


def test_multiplier_beyond_the_table_raises():
    short = _core.ScoringRules(multipliers=[1, 2, 4])
    assert fan_of("11122233344455p", XUELIU)[0] == 4
    with pytest.raises(ValueError, match="multipliers"):
        fan_of("11122233344455p", short)
    assert fan_of("23445677p345789s", short)[:2] == (1, 1)
    capped = _core.ScoringRules(multipliers=[1, 2, 4], max_fan=3)
    assert fan_of("11122233344455p", capped)[:4] == (3, 4, 6, 4)


# ---------------------------------------------------------------------------------------------
# ScoringRules values

@pytest.mark.parametrize("kwargs, named", [
    ({"fan_table": [1] * 20}, "fan_table"),
    ({"fan_table": [1] * 22}, "fan_table"),
    ({"fan_table": [0] + [1] * 20}, "fan_table.pinghu"),
    ({"fan_table": [1] * 20 + [-3]}, "fan_table.jiulianbaodeng"),
    ({"gen_counts": 3}, "gen_counts"),
    ({"gen_counts": -1}, "gen_counts"),
    ({"max_fan": -1}, "max_fan"),
    ({"multipliers": [1, 2, -4]}, r"multipliers\[2\]"),
])
def test_bad_scoring_rules_raise(kwargs, named):
    with pytest.raises(ValueError, match=named):
        _core.ScoringRules(**kwargs)


def test_scoring_rules_are_keyword_only_and_typed():
    with pytest.raises(TypeError):
        _core.ScoringRules(True)  # type: ignore[misc]
    with pytest.raises(TypeError):
        _core.ScoringRules(max_fan="5")  # type: ignore[arg-type]


def test_scoring_rules_round_trip_through_pickle():
    rules = _core.ScoringRules(jingoudiao=True, gen_counts=1, max_fan=7, multipliers=(1, 2, 3))
    copy = pickle.loads(pickle.dumps(rules))
    assert repr(copy) == repr(rules)
    assert copy.multipliers == (1, 2, 3) and copy.gen_counts == 1 and copy.jingoudiao
