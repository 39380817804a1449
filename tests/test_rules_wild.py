"""docs/rules.md §12 in the rules layer: the wild-tile knobs, their values and the checks across
knobs (§12.1, §12.5), to_dict / from_dict (a table without wilds is written as before), the
helpers the engine will read (wild_set, wild_count_in_wall, the wall with its 红中), the five
§12.4 presets, and the game engine's refusal of wild rules until it plays them."""

import gzip
import json
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wild_reference
import xueliu
from xueliu.rules import (KNOBS, PRESET_NAMES, PRESET_SOURCES, PRESETS, SECTION12_KNOBS,
                          WILD_PRESET_NAMES, WILD_PRESETS, Rules)
from xueliu.tiles import TILE_NAMES

DATA = pathlib.Path(__file__).parent / "data"
DEFAULTS_12 = {knob: getattr(Rules(), knob) for knob in SECTION12_KNOBS}

# docs/rules.md §12.4, column by column; every knob the table does not name is the xueliu
# preset's.
TABLE_12_4 = {
    "yaoji": dict(
        players=4, suits=("m", "p", "s"), hand_size=13, mode="xuezhan", exchange_three=False,
        declare_void=True, wild_kinds=("1s",), extra_wilds=0, wild_discard="forbidden",
        soft_peng="one", soft_kong=True, swap_back=True, four_wilds="cap", no_wild_bonus=1,
        wild_gen="fours", soft_kong_pay="hard_double", wild_fifth_copy=False, max_fan=4,
        multipliers=None, self_draw_bonus="base", self_draw_only=False, min_fan_discard_win=1,
        dian_gang_hua="discarder", direct_kong_others=0, jingoudiao="additive",
        heavenly_earthly="additive", haidi=True, menqing=False, fan_table={}, pig_penalty=16),
    "leshan": dict(
        players=4, suits=("m", "p", "s"), hand_size=13, mode="xuezhan", exchange_three=False,
        declare_void=True, wild_kinds=("1s",), extra_wilds=0, wild_discard="forbidden",
        soft_peng="two", soft_kong=True, swap_back=True, four_wilds=3, no_wild_bonus=1,
        wild_gen="fours", soft_kong_pay="same", wild_fifth_copy=True, max_fan=5,
        multipliers=None, self_draw_bonus="fan", self_draw_only=False, min_fan_discard_win=1,
        dian_gang_hua="discarder", direct_kong_others=1, jingoudiao=False,
        heavenly_earthly="additive", haidi=False, menqing=True, fan_table={}, pig_penalty=16),
    "yibin": dict(
        players=4, suits=("m", "p", "s"), hand_size=13, mode="xuezhan", exchange_three=False,
        declare_void=True, wild_kinds="benjin", extra_wilds=0, wild_discard="forbidden",
        soft_peng="one", soft_kong=False, swap_back=True, four_wilds=None, no_wild_bonus=2,
        wild_gen="fours", soft_kong_pay="same", wild_fifth_copy=False, max_fan=6,
        multipliers=None, self_draw_bonus="none", self_draw_only=True, min_fan_discard_win=1,
        dian_gang_hua="self_draw", direct_kong_others=1, jingoudiao=False,
        heavenly_earthly=False, haidi=False, menqing=False,
        fan_table={"duiduihu": 3, "longqidui": 4, "qingdui": 6, "qingqidui": 6,
                   "qinglongqidui": 7}, pig_penalty=16),
    "luzhou_gui": dict(
        players=4, suits=("m", "p", "s"), hand_size=13, mode="xuezhan", exchange_three=False,
        declare_void=True, wild_kinds=(), extra_wilds=4, wild_discard="forbidden",
        soft_peng="two", soft_kong=True, swap_back=True, four_wilds=None, no_wild_bonus=3,
        wild_gen="fours", soft_kong_pay="same", wild_fifth_copy=False, max_fan=4,
        multipliers=(2, 5, 10, 20, 40, 80), self_draw_bonus="base", self_draw_only=False,
        min_fan_discard_win=1, dian_gang_hua="self_draw", direct_kong_others=1,
        jingoudiao=False, heavenly_earthly=False, haidi=False, menqing=False, fan_table={},
        pig_penalty=16),
    "hongzhong": dict(
        players=4, suits=("m", "p", "s"), hand_size=13, mode="xuezhan", exchange_three=False,
        declare_void=False, wild_kinds=(), extra_wilds=4, wild_discard="dead",
        soft_peng="one", soft_kong=True, swap_back=True, four_wilds=None, no_wild_bonus=3,
        wild_gen="per_wild", soft_kong_pay="same", wild_fifth_copy=False, max_fan=5,
        multipliers=(2, 5, 10, 20, 40), self_draw_bonus="fan", self_draw_only=False,
        min_fan_discard_win=2, dian_gang_hua="self_draw", direct_kong_others=1,
        jingoudiao=False, heavenly_earthly=False, haidi=False, menqing=False,
        fan_table={"duiduihu": 3, "qingyise": 5}, pig_penalty=40),
}

# What a §12 value needs beside it (§12.5: 无鸡, 四鸡 and soft melds need wilds).
WITH_WILDS = {"wild_kinds": ("1s",)}


def rules_error(**knobs):
    """The ValueError message that building these rules raises."""
    with pytest.raises(ValueError) as caught:
        Rules(**knobs)
    return str(caught.value)


# -- §12.1: which tiles are wild -------------------------------------------------------------------


def test_the_presets_of_sections_9_and_11_have_no_wilds():
    for name in PRESETS:
        rules = Rules.preset(name)
        assert not rules.has_wilds and not rules.uses_benjin, name
        assert rules.wild_set() == frozenset() and rules.wild_count_in_wall() == 0
        assert rules.shape.wall_tiles == 36 * len(rules.suits)
        assert {knob: getattr(rules, knob) for knob in SECTION12_KNOBS} == DEFAULTS_12


def test_a_wild_kind_outside_the_suits_in_play_is_refused():
    liangfang = Rules.preset("sanren_liangfang")
    with pytest.raises(ValueError, match=r"knob 'wild_kinds': '1m' is a kind of suit 'm', which "
                                         r"is not in play \(suits \('p', 's'\)\)"):
        liangfang.replace(wild_kinds=("1s", "1m"))
    assert liangfang.replace(wild_kinds=("1s", "1p")).wild_set() == {9, 18}


@pytest.mark.parametrize("red", ["7z", "中", "红中"])
def test_wild_kinds_never_names_the_red_dragon(red):
    message = rules_error(wild_kinds=("1s", red))
    assert "knob 'wild_kinds'" in message and "extra_wilds" in message


def test_a_wild_kind_named_twice_is_refused():
    assert "names 1s twice" in rules_error(wild_kinds=("1s", "1p", "1s"))
    assert "names 1s twice" in rules_error(wild_kinds=("1s", "1条"))


def test_wild_kinds_are_kept_in_kind_order_however_they_are_given():
    assert Rules(wild_kinds=["1s", "1m", "1p"]).wild_kinds == ("1m", "1p", "1s")
    assert Rules(wild_kinds=("1条",)).wild_kinds == ("1s",)
    assert Rules(wild_kinds=("1s", "1p")) == Rules(wild_kinds=["1p", "1s"])


def test_the_wild_set_is_every_wild_kind_and_red_dragon_as_kind_indices():
    assert Rules(wild_kinds=("1s",)).wild_set() == {18}
    assert Rules(wild_kinds=("1m", "1s", "1p")).wild_set() == {0, 9, 18}
    assert Rules(extra_wilds=8).wild_set() == {27}
    assert Rules(wild_kinds=("5p",), extra_wilds=4).wild_set() == {13, 27}


@pytest.mark.parametrize("benjin, wild", [
    ("1m", ("9m", "2m")),  # 本金 1 → 9 and 2
    ("9s", ("8s", "1s")),  # 本金 9 → 8 and 1
    ("5p", ("4p", "6p")),
    ("2s", ("1s", "3s")),
    ("8m", ("7m", "9m")),
])
def test_a_benjin_makes_its_two_neighbours_wild_wrapping_at_the_ends(benjin, wild):
    kinds = {TILE_NAMES.index(name) for name in wild}
    assert Rules(wild_kinds="benjin").wild_set(benjin=benjin) == kinds
    assert Rules(wild_kinds="benjin").wild_set(benjin=TILE_NAMES.index(benjin)) == kinds
    plus = Rules(wild_kinds="benjin_plus").wild_set(benjin=benjin)
    assert plus == kinds | {TILE_NAMES.index(benjin)}


def test_every_benjin_gives_two_kinds_of_its_suit_one_rank_away():
    rules = Rules(wild_kinds="benjin")
    for k in range(27):
        wild = rules.wild_set(benjin=k)
        assert len(wild) == 2 and k not in wild
        assert all(w // 9 == k // 9 and (w - k) % 9 in (1, 8) for w in wild)


def test_a_benjin_is_required_under_benjin_rules_and_refused_elsewhere():
    with pytest.raises(ValueError, match="needs the hand's 本金"):
        Rules.preset("yibin").wild_set()
    with pytest.raises(ValueError, match="a 本金 exists only under wild_kinds 'benjin'"):
        Rules.preset("yaoji").wild_set(benjin="5m")
    with pytest.raises(ValueError, match="a 本金 exists only"):
        Rules().wild_set(benjin="5m")


def test_a_benjin_must_be_a_suit_tile_in_play():
    liangfang = Rules.preset("sanren_liangfang").replace(wild_kinds="benjin")
    with pytest.raises(ValueError, match=r"benjin='5m' is of suit 'm', which is not in play"):
        liangfang.wild_set(benjin="5m")
    assert liangfang.wild_set(benjin="5p") == {12, 14}
    for bad in ("7z", "中", 27, -1):
        with pytest.raises(ValueError, match="benjin"):
            Rules(wild_kinds="benjin").wild_set(benjin=bad)
    with pytest.raises(ValueError, match="not a tile name"):
        Rules(wild_kinds="benjin").wild_set(benjin="0m")
    for bad in (True, 1.0, ("5m",)):
        with pytest.raises(TypeError, match="benjin"):
            Rules(wild_kinds="benjin").wild_set(benjin=bad)


def wall_set(rules, benjin=None):
    """The wall set as kinds, built from §12.1's words: four copies of each kind of the suits in
    play and ``extra_wilds`` 红中, less the 本金 turned face up."""
    kinds = [k for k in rules.shape.kinds for _ in range(4)] + [27] * rules.extra_wilds
    if benjin is not None:
        kinds.remove(TILE_NAMES.index(benjin))
    return kinds


@pytest.mark.parametrize("knobs, benjin", [
    ({"wild_kinds": ("1s",)}, None),
    ({"wild_kinds": ("1s", "1p")}, None),
    ({"wild_kinds": ("1m", "1s", "1p")}, None),
    ({"wild_kinds": "benjin"}, "5p"),
    ({"wild_kinds": "benjin_plus"}, "5p"),
    ({"wild_kinds": "benjin_plus"}, "9m"),
    ({"extra_wilds": 4}, None),
    ({"extra_wilds": 12}, None),
    ({"wild_kinds": ("1s",), "extra_wilds": 8}, None),
])
def test_the_wild_count_is_the_wilds_of_the_wall_set(knobs, benjin):
    rules = Rules(**knobs)
    wild = rules.wild_set(benjin=benjin)
    expected = sum(kind in wild for kind in wall_set(rules, benjin))
    assert rules.wild_count_in_wall() == expected
    assert expected in (4, 8, 11, 12, 16)


@pytest.mark.parametrize("extra", [0, 4, 8, 12])
def test_the_wall_holds_the_red_dragons_on_top_of_the_suits(extra):
    for name in PRESETS:
        rules = Rules.preset(name)
        try:
            rules = rules.replace(extra_wilds=extra)
        except ValueError:
            assert rules.players * rules.hand_size + 1 > 36 * len(rules.suits) + extra
            continue
        assert rules.shape.wall_tiles == 36 * len(rules.suits) + extra == len(wall_set(rules))
    assert Rules.preset("hongzhong").shape.wall_tiles == 112


def test_the_deal_must_fit_the_wall_with_its_red_dragons():
    # Four seats of 10 tiles need 41 tiles; one suit has 36.
    one_suit = dict(players=4, suits=("m",), hand_size=10, declare_void=False)
    assert "holds 36" in rules_error(**one_suit)
    assert "and 4 红中 holds 40" in rules_error(**one_suit, extra_wilds=4)
    assert Rules(**one_suit, extra_wilds=8).shape.wall_tiles == 44


def test_has_wilds_and_uses_benjin():
    assert Rules(extra_wilds=4).has_wilds and not Rules(extra_wilds=4).uses_benjin
    assert Rules(wild_kinds="benjin").has_wilds and Rules(wild_kinds="benjin").uses_benjin
    assert Rules(wild_kinds="benjin_plus").uses_benjin
    assert Rules(wild_kinds=("1s",)).has_wilds and not Rules(wild_kinds=("1s",)).uses_benjin
    assert not Rules(soft_kong_pay="hard_double").has_wilds  # a kong rule, valid without wilds


# -- §12.5: the checks across knobs ----------------------------------------------------------------


def test_four_wilds_cap_needs_a_cap():
    message = rules_error(wild_kinds=("1s",), four_wilds="cap")
    assert "knob 'four_wilds': 'cap' with max_fan None" in message
    assert Rules(wild_kinds=("1s",), four_wilds="cap", max_fan=4).four_wilds == "cap"
    assert Rules(wild_kinds=("1s",), four_wilds=3).four_wilds == 3


@pytest.mark.parametrize("knob, value", [("soft_peng", "one"), ("soft_peng", "two"),
                                         ("soft_kong", True), ("swap_back", True)])
def test_soft_melds_need_wilds(knob, value):
    message = rules_error(**{knob: value})
    assert f"knob {knob!r}" in message and "without any wild in the wall set" in message
    for wilds in ({"wild_kinds": ("1s",)}, {"extra_wilds": 4}, {"wild_kinds": "benjin"}):
        assert getattr(Rules(**wilds, **{knob: value}), knob) == value


@pytest.mark.parametrize("knob, value", [("no_wild_bonus", 1), ("no_wild_bonus", 3),
                                         ("four_wilds", 3), ("four_wilds", "cap")])
def test_no_wild_bonus_and_four_wilds_need_wilds(knob, value):
    message = rules_error(**{knob: value}, max_fan=6)
    assert f"knob {knob!r}" in message and "without any wild in the wall set" in message
    assert getattr(Rules(**{knob: value}, max_fan=6, extra_wilds=4), knob) == value


@pytest.mark.parametrize("benjin", ["benjin", "benjin_plus"])
@pytest.mark.parametrize("extra", [4, 8, 12])
def test_benjin_cannot_be_combined_with_extra_wilds(benjin, extra):
    message = rules_error(wild_kinds=benjin, extra_wilds=extra)
    assert "knob 'extra_wilds'" in message and "cannot be combined with extra_wilds" in message
    assert Rules(wild_kinds=("1s",), extra_wilds=extra).wild_count_in_wall() == 4 + extra


def test_an_unknown_knob_is_still_refused():
    with pytest.raises(ValueError, match="unknown knob 'wild_kind'"):
        Rules().replace(wild_kind=("1s",))
    with pytest.raises(ValueError, match="unknown knob 'wilds'"):
        Rules.from_dict({"wilds": 4})


@pytest.mark.parametrize("knob, value, expected", [
    ("wild_kinds", "1s", r"one kind is written as a tuple: \('1s',\)"),
    ("wild_kinds", "benjin2", r"expected \(\), a tuple of distinct kinds"),
    ("wild_kinds", 5, r"expected \(\), a tuple of distinct kinds"),
    ("wild_kinds", None, r"expected \(\), a tuple of distinct kinds"),
    ("wild_kinds", ("0m",), r"'0m' in \('0m',\) is not a tile kind"),
    ("wild_kinds", ("10s",), r"'10s' in \('10s',\) is not a tile kind"),
    ("wild_kinds", (18,), r"18 in \(18,\) is not a kind name"),
    ("wild_kinds", ("7z",), "never names 红中 7z"),
    ("extra_wilds", 5, "expected one of 0, 4, 8, 12"),
    ("extra_wilds", 3, "expected one of 0, 4, 8, 12"),
    ("extra_wilds", "4", "expected one of 0, 4, 8, 12"),
    ("extra_wilds", True, "expected one of 0, 4, 8, 12"),
    ("wild_gen", "three", "expected one of 'fours', 'natural', 'per_wild'"),
    ("wild_gen", "all_fours", "expected one of 'fours', 'natural', 'per_wild'"),
    ("no_wild_bonus", 4, "expected one of 0, 1, 2, 3"),
    ("no_wild_bonus", -1, "expected one of 0, 1, 2, 3"),
    ("no_wild_bonus", 1.0, "expected one of 0, 1, 2, 3"),
    ("no_wild_bonus", "three", "expected one of 0, 1, 2, 3"),
    ("four_wilds", 0, r"expected None, 'cap' or an int 1\.\.1000"),
    ("four_wilds", 1001, r"expected None, 'cap' or an int 1\.\.1000"),
    ("four_wilds", "three", r"expected None, 'cap' or an int 1\.\.1000"),
    ("four_wilds", True, r"expected None, 'cap' or an int 1\.\.1000"),
    ("four_wilds", 2.5, r"expected None, 'cap' or an int 1\.\.1000"),
    ("wild_fifth_copy", 1, "expected True or False"),
    ("wild_fifth_copy", "yes", "expected True or False"),
    ("wild_discard", "natural", "expected one of 'forbidden', 'dead'"),
    ("wild_discard", False, "expected one of 'forbidden', 'dead'"),
    ("soft_peng", "three", "expected one of 'off', 'one', 'two'"),
    ("soft_peng", True, "expected one of 'off', 'one', 'two'"),
    ("soft_peng", 5, "expected one of 'off', 'one', 'two'"),
    ("soft_kong", "on", "expected True or False"),
    ("swap_back", None, "expected True or False"),
    ("soft_kong_pay", "double", "expected one of 'same', 'hard_double'"),
    ("soft_kong_pay", True, "expected one of 'same', 'hard_double'"),
])
def test_a_bad_section12_value_is_refused_naming_the_knob_and_what_is_allowed(knob, value,
                                                                              expected):
    with pytest.raises(ValueError, match=rf"bad value for knob '{knob}'.*{expected}"):
        Rules(**WITH_WILDS, max_fan=6).replace(**{knob: value})
    with pytest.raises(ValueError, match=rf"knob '{knob}'"):
        Rules.from_dict({**WITH_WILDS, "max_fan": 6, knob: value})


def test_highest_fan_counts_what_wilds_add():
    plain = Rules().highest_fan()
    assert Rules(wild_kinds=("1s",), no_wild_bonus=3).highest_fan() == plain + 3
    assert Rules(wild_kinds=("1s",), four_wilds=50).highest_fan() == 50
    per_wild = Rules(wild_kinds=("1m", "1s", "1p"), extra_wilds=12, wild_gen="per_wild")
    assert per_wild.highest_fan() > Rules(wild_kinds=("1s",)).highest_fan() == plain
    # A four_wilds amount beyond 2 ** 62 needs a multipliers table or a cap.
    assert "'multipliers'" in rules_error(wild_kinds=("1s",), four_wilds=64)


# -- to_dict / from_dict ---------------------------------------------------------------------------


def test_a_rules_dict_without_wilds_reads_exactly_as_before():
    """The recorded corpus (written before §12; tests/game/test_corpus_replay.py replays it) holds
    the rules of every record as to_dict wrote them then: each is written again byte for byte."""
    with gzip.open(DATA / "game_corpus.jsonl.gz", "rt", encoding="utf-8") as f:
        records = [json.loads(line)["record"] for line in f]
    assert len(records) > 200
    for record in records:
        old = record["rules"]
        assert not set(SECTION12_KNOBS) & set(old)
        new = Rules.from_dict(old).to_dict()
        assert json.dumps(new, ensure_ascii=False) == json.dumps(old, ensure_ascii=False)
    for name in PRESETS:
        assert not set(SECTION12_KNOBS) & set(Rules.preset(name).to_dict())


def test_a_section12_knob_is_written_only_away_from_its_default():
    data = Rules.preset("yibin").to_dict()
    written = {knob: data[knob] for knob in SECTION12_KNOBS if knob in data}
    assert written == {"wild_kinds": "benjin", "soft_peng": "one", "swap_back": True,
                       "no_wild_bonus": 2}
    data = Rules(wild_kinds=("1s", "1p"), four_wilds=3).to_dict()
    assert data["wild_kinds"] == ["1p", "1s"] and data["four_wilds"] == 3
    assert json.loads(json.dumps(Rules(wild_kinds=("1s",)).to_dict()))["wild_kinds"] == ["1s"]


def _valid_or_problems(k):
    """The knobs docs/rules.md §11.1 and §12.5 say are wrong in a mix, worked out from the rule
    text (each is the knob the error names); empty when the mix is a valid table."""
    wk, has = k["wild_kinds"], bool(k["wild_kinds"]) or k["extra_wilds"] > 0
    problems = set()
    if isinstance(wk, list) and any(name[-1] not in k["suits"] for name in wk):
        problems.add("wild_kinds")
    if isinstance(wk, str) and k["extra_wilds"]:
        problems.add("extra_wilds")
    if k["four_wilds"] == "cap" and k["max_fan"] is None:
        problems.add("four_wilds")
    if not has:
        problems |= {knob for knob, off in (("no_wild_bonus", 0), ("four_wilds", None),
                                            ("soft_peng", "off"), ("soft_kong", False),
                                            ("swap_back", False)) if k[knob] != off}
    if k["players"] * k["hand_size"] + 1 > 36 * len(k["suits"]) + k["extra_wilds"]:
        problems.add("players")
    return problems


MIXES = st.fixed_dictionaries({
    "players": st.sampled_from([4, 3, 2]),
    "suits": st.sampled_from([["m", "p", "s"], ["p", "s"], ["m", "s"], ["m"], ["s"]]),
    "hand_size": st.sampled_from([13, 10, 7]),
    "wild_kinds": st.one_of(st.just([]), st.sampled_from(["benjin", "benjin_plus"]),
                            st.lists(st.sampled_from(TILE_NAMES), min_size=1, max_size=4,
                                     unique=True)),
    "extra_wilds": st.sampled_from([0, 4, 8, 12]),
    "wild_gen": st.sampled_from(["fours", "natural", "per_wild"]),
    "no_wild_bonus": st.integers(0, 3),
    "four_wilds": st.one_of(st.none(), st.just("cap"), st.integers(1, 20)),
    "wild_fifth_copy": st.booleans(),
    "wild_discard": st.sampled_from(["forbidden", "dead"]),
    "soft_peng": st.sampled_from(["off", "one", "two"]),
    "soft_kong": st.booleans(),
    "swap_back": st.booleans(),
    "soft_kong_pay": st.sampled_from(["same", "hard_double"]),
    "max_fan": st.one_of(st.none(), st.integers(3, 8)),
})


@settings(max_examples=300, deadline=None)
@given(knobs=MIXES)
def test_random_section12_mixes_are_refused_exactly_when_the_rules_say_and_round_trip(knobs):
    knobs = dict(knobs, declare_void=len(knobs["suits"]) == 3)
    problems = _valid_or_problems(knobs)
    try:
        rules = Rules(**knobs)
    except ValueError as e:
        assert problems, e
        assert any(f"knob {knob!r}" in str(e) for knob in problems), (problems, e)
        return
    assert not problems
    data = rules.to_dict()
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules
    assert eval(repr(rules), {"Rules": Rules}) == rules
    assert {knob for knob in SECTION12_KNOBS if knob in data} == \
        {knob for knob in SECTION12_KNOBS if getattr(rules, knob) != DEFAULTS_12[knob]}
    assert rules.has_wilds == (rules.wild_count_in_wall() > 0)
    assert rules.shape.wall_tiles == 36 * len(rules.suits) + rules.extra_wilds


# -- §12.4: the presets ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_every_wild_preset_matches_the_rules_page_table(name):
    rules = Rules.preset(name)
    column = dict(TABLE_12_4[name])
    fan_table = column.pop("fan_table")
    for knob, value in column.items():
        assert getattr(rules, knob) == value, knob
    assert dict(rules.fan_table) == {**Rules().fan_table, **fan_table}
    unnamed = set(KNOBS) - set(TABLE_12_4[name])
    assert {k: getattr(rules, k) for k in unnamed} == {k: getattr(Rules(), k) for k in unnamed}
    assert PRESET_SOURCES[name].split(":")[1].strip().startswith("docs/rules.md §12.4")


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_every_wild_preset_agrees_with_the_wild_reference(name):
    """The test oracle (tests/wild_reference.py) encodes the same table on its own: every §12 knob
    and every scoring knob it holds is the same in both."""
    oracle = wild_reference.PRESETS[name]
    rules = Rules.preset(name)
    assert set(SECTION12_KNOBS) <= set(oracle)
    for knob, value in oracle.items():
        mine = getattr(rules, knob)
        if knob == "suits":
            mine = "".join(mine)
        elif knob == "fan_table":
            value = {**Rules().fan_table, **value}
        assert mine == value, knob


def test_the_wild_presets_are_played_with_every_other_preset():
    assert wild_reference.PRESETS_12 == WILD_PRESET_NAMES == tuple(WILD_PRESETS)
    assert PRESET_NAMES == tuple(PRESETS) + WILD_PRESET_NAMES
    assert not set(WILD_PRESET_NAMES) & set(PRESETS)
    assert all(Rules.preset(name).has_wilds for name in WILD_PRESET_NAMES)
    from xueliu.cli.common import PRESETS as CLI_PRESETS
    assert set(WILD_PRESET_NAMES) <= set(CLI_PRESETS)


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_every_wild_preset_round_trips_through_json_and_repr(name):
    rules = Rules.preset(name)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert repr(rules) == f"Rules.preset({name!r})"
    assert eval(repr(rules.replace(max_fan=6)), {"Rules": Rules}) == rules.replace(max_fan=6)


def test_rules_without_wilds_are_never_shown_as_a_wild_preset():
    yaoji = Rules.preset("yaoji")
    tame = yaoji.replace(**{k: v for k, v in DEFAULTS_12.items() if k != "wild_kinds"},
                         wild_kinds=())
    assert not repr(tame).startswith("Rules.preset('yaoji')")
    assert eval(repr(tame), {"Rules": Rules}) == tame


def test_an_unknown_preset_names_the_wild_ones_too():
    with pytest.raises(ValueError, match="unknown preset 'yaoji2'.*'hongzhong'"):
        Rules.preset("yaoji2")


# -- the game engine plays them ------------------------------------------------------------------


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_the_game_engine_deals_every_wild_preset(name):
    state = xueliu.new_game(name, seed=1)
    assert state.pending() and state.wild_kinds
    assert sum(state.observation(None)["hand_sizes"]) == 53


def test_a_doubled_hard_kong_is_played_at_a_table_without_wilds_too():
    state = xueliu.new_game(Rules(soft_kong_pay="hard_double"), seed=1)
    assert state.pending() and state.wild_kinds == []


def test_rules_without_wilds_still_make_games():
    for name in PRESETS:
        assert xueliu.new_game(name, seed=3).pending()
