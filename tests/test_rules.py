"""Rule configuration (docs/rules.md §6, §9, §10; the knob list of its preset table); §11's knobs, their checks and
presets are in tests/test_rules_section11.py, §12's (wild tiles) in tests/test_rules_wild.py."""

import dataclasses
import json
import pickle

import pytest

import xueliu
from xueliu.patterns import BASE_PATTERNS, DEFAULT_FAN_TABLE, EXTRA_IDS, PATTERN_IDS
from xueliu.rules import KNOBS, SECTION11_KNOBS, SECTION12_KNOBS, Rules

# docs/rules.md §9, the preset table, knob by knob (the "same in both presets" paragraph included).
XUELIU = {
    "mode": "xueliu",
    "exchange_three": True,
    "exchange_direction": "dice",
    "declare_void": True,
    "seven_pairs": True,
    "jingoudiao": False,
    "heavenly_earthly": False,
    "haidi": False,
    "self_draw_bonus": "base",
    "direct_kong_others": 1,
    "kong_settle": "immediate",
    "post_win_kongs": {"concealed", "direct"},
    "call_transfer": True,
    "pig_penalty": 16,
    "pig_payees": "unwon_non_pig",
    "ready_check_payees": "unwon",
    "refund_kongs": True,
    "dian_gang_hua": "self_draw",
    "forced_win_last_n": 0,
    "multiple_winners": True,
    "player_multipliers": None,
    "max_fan": None,
    "next_dealer": "dice",
    "escape_penalty": 3,
}
XUEZHAN = {
    "mode": "xuezhan",
    "exchange_three": True,
    "exchange_direction": "random",
    "declare_void": True,
    "seven_pairs": True,
    "jingoudiao": True,
    "heavenly_earthly": True,
    "haidi": True,
    "self_draw_bonus": "none",
    "direct_kong_others": 0,
    "kong_settle": "immediate",
    "post_win_kongs": set(),
    "call_transfer": True,
    "pig_penalty": 16,
    "pig_payees": "all_non_pig",
    "ready_check_payees": "unwon",
    "refund_kongs": True,
    "dian_gang_hua": "discarder",
    "forced_win_last_n": 4,
    "multiple_winners": True,
    "player_multipliers": {"allowed": (2, 4, 8), "default": 8},
    "max_fan": None,
    "next_dealer": "first_winner",
    "escape_penalty": 32,
}
SAME_IN_BOTH = {
    "kong_draw_from": "front",
    "exchange_same_suit": True,
    "pass_blocks_discard_win": "off",
    "gen_counts": "all_fours",
    "menqing": False,
    "dead_waits_ready": True,
    "fan_table": dict(DEFAULT_FAN_TABLE),
    "multipliers": None,
    "duanyaojiu": False,
    "yitiaolong": False,
    "jiaxinwu": False,
    "haidipao": False,
    "base": 1,
    "room": 1,
    "service_fee": 0,
}

# docs/rules.md §11 (D38): both presets carry every §11 knob at its default.
SECTION11_DEFAULTS = {
    "players": 4, "suits": ("m", "p", "s"), "hand_size": 13, "exchange_count": 3,
    "self_draw_only": False, "min_fan_discard_win": 1, "rob_kong": True,
    "added_kong_payment": "always", "jiang_patterns": False, "earthly_win": "first_draw",
    "kaertiao": False, "single_wait": False,
}
SAME_IN_BOTH.update(SECTION11_DEFAULTS)

# docs/rules.md §12: no preset of §9 has wild tiles; every §12 knob at its default.
SECTION12_DEFAULTS = {
    "wild_kinds": (), "extra_wilds": 0, "wild_gen": "fours", "no_wild_bonus": 0,
    "four_wilds": None, "wild_fifth_copy": False, "wild_discard": "forbidden", "soft_peng": "off",
    "soft_kong": False, "swap_back": False, "soft_kong_pay": "same",
}
SAME_IN_BOTH.update(SECTION12_DEFAULTS)

# docs/rules.md's preset table (§9), §11 and §12 list these knobs; Rules holds exactly them.
TEAM_KNOBS = set(XUELIU) | set(SAME_IN_BOTH)


def test_rules_hold_exactly_the_team_knob_list():
    assert set(KNOBS) == TEAM_KNOBS
    assert [f.name for f in dataclasses.fields(Rules)] == list(KNOBS)


@pytest.mark.parametrize("name, table", [("xueliu", XUELIU), ("xuezhan", XUEZHAN)])
def test_preset_matches_the_rules_table_knob_by_knob(name, table):
    rules = Rules.preset(name)
    for knob, value in {**table, **SAME_IN_BOTH}.items():
        assert getattr(rules, knob) == value, knob


def test_default_rules_are_the_xueliu_preset():
    assert Rules() == Rules.preset("xueliu")
    assert hash(Rules()) == hash(Rules.preset("xueliu"))
    assert Rules() != Rules.preset("xuezhan")


def test_seed_002_table_is_built_by_overriding_knobs():
    seed_002 = Rules.preset("xueliu").replace(
        seven_pairs=False, kong_settle="on_win", post_win_kongs={"added"}, menqing=True
    )
    assert seed_002.seven_pairs is False and seed_002.kong_settle == "on_win"
    assert seed_002.post_win_kongs == frozenset({"added"}) and seed_002.menqing is True
    assert seed_002.mode == "xueliu"


def test_unknown_preset_is_named():
    with pytest.raises(ValueError, match="unknown preset 'guobiao'"):
        Rules.preset("guobiao")


def test_every_knob_has_a_docstring_line():
    for f in dataclasses.fields(Rules):
        assert f.metadata["doc"].strip(), f.name
        assert f"``{f.name}``" in Rules.__doc__


def test_rules_are_frozen_and_hashable():
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.mode = "xuezhan"
    with pytest.raises(TypeError):
        rules.fan_table["pinghu"] = 2
    assert len({Rules(), Rules(), Rules.preset("xuezhan")}) == 2


def test_replace_changes_only_the_given_knobs():
    base = Rules.preset("xuezhan")
    changed = base.replace(menqing=True, max_fan=6)
    assert changed.menqing is True and changed.max_fan == 6
    for knob in KNOBS:
        if knob not in ("menqing", "max_fan"):
            assert getattr(changed, knob) == getattr(base, knob)
    assert base.menqing is False


def test_replace_rejects_unknown_knobs_by_name():
    with pytest.raises(ValueError, match="unknown knob 'menqin'"):
        Rules().replace(menqin=True)


def test_fan_table_overrides_merge_onto_the_standard_table():
    rules = Rules(fan_table={"qingyise": 4, "qidui": 4})
    assert list(rules.fan_table) == list(PATTERN_IDS)
    assert rules.fan_table["qingyise"] == 4 and rules.fan_table["qidui"] == 4
    for p in BASE_PATTERNS:
        if p.id not in ("qingyise", "qidui"):
            assert rules.fan_table[p.id] == p.fan
    assert Rules(fan_table={}) == Rules() == Rules(fan_table=dict(DEFAULT_FAN_TABLE))
    assert Rules(fan_table={"pinghu": 1}) == Rules()


def test_fan_table_is_the_standard_rules_table():
    # docs/rules.md §6's table, with §11.3's 将七对 and 将金钩钓 (5 each) right after 将对.
    assert [p.fan for p in BASE_PATTERNS] == [1, 2, 3, 3, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6, 7,
                                              8, 9, 9]
    assert PATTERN_IDS[7:10] == ("jiangdui", "jiangqidui", "jiangjingoudiao")
    assert len(PATTERN_IDS) == 21 and len(EXTRA_IDS) == 16  # §12.2's 无鸡 last


def test_lists_are_accepted_where_rules_show_tuples_or_sets():
    rules = Rules(
        multipliers=[1, 2, 3, 4],
        post_win_kongs=["added", "concealed"],
        player_multipliers={"allowed": [1, 2], "default": 1},
    )
    assert rules.multipliers == (1, 2, 3, 4)
    assert rules.post_win_kongs == frozenset({"added", "concealed"})
    assert rules.player_multipliers == {"allowed": (1, 2), "default": 1}


@pytest.mark.parametrize("name", ["xueliu", "xuezhan"])
def test_json_round_trip(name):
    rules = Rules.preset(name).replace(
        fan_table={"qingyise": 4}, multipliers=list(range(1, 41)), max_fan=8, base="auto",
        post_win_kongs={"added", "direct"},
    )
    data = rules.to_dict()
    # §11's and §12's knobs are written only away from their defaults (so §1-§10 records read as
    # before).
    assert set(data) == set(KNOBS) - set(SECTION11_KNOBS) - set(SECTION12_KNOBS)
    text = json.dumps(data, sort_keys=True)
    assert Rules.from_dict(json.loads(text)) == rules
    assert data["post_win_kongs"] == ["added", "direct"]
    assert data["fan_table"]["qingyise"] == 4 and len(data["fan_table"]) == 19  # §6's patterns


# One valid non-default value per knob.
OTHER_VALUES = {
    "mode": "xuezhan", "exchange_three": False, "exchange_direction": "opposite",
    "exchange_same_suit": False, "declare_void": False,
    "player_multipliers": {"allowed": [1, 2], "default": 2}, "kong_draw_from": "back",
    "pass_blocks_discard_win": "not_higher", "forced_win_last_n": 4, "multiple_winners": False,
    "post_win_kongs": ["added"], "next_dealer": "rotate", "seven_pairs": False, "jingoudiao": True,
    "heavenly_earthly": True, "haidi": True, "self_draw_bonus": "fan", "menqing": True,
    "gen_counts": "kongs_only", "duanyaojiu": True, "yitiaolong": True, "jiaxinwu": True,
    "haidipao": True, "fan_table": {"pinghu": 2}, "multipliers": [1, 2, 3], "max_fan": 3,
    "direct_kong_others": 2, "kong_settle": "on_win", "call_transfer": False, "pig_penalty": 8,
    "pig_payees": "all_non_pig", "ready_check_payees": "all", "dead_waits_ready": False,
    "refund_kongs": False, "dian_gang_hua": "discarder", "escape_penalty": 32, "base": "auto",
    "room": 10, "service_fee": 2,
    "players": 3, "suits": ["p", "s"], "hand_size": 10, "exchange_count": 4,
    "self_draw_only": True, "min_fan_discard_win": 2, "rob_kong": False,
    "added_kong_payment": "fresh_only", "jiang_patterns": True, "earthly_win": "either",
    "kaertiao": True, "single_wait": True,
    "wild_kinds": ["1s", "1p"], "extra_wilds": 8, "wild_gen": "per_wild", "no_wild_bonus": 2,
    "four_wilds": "cap", "wild_fifth_copy": True, "wild_discard": "dead", "soft_peng": "two",
    "soft_kong": True, "swap_back": True, "soft_kong_pay": "hard_double",
}
# What a value needs beside it to be a valid table (docs/rules.md §11.1: 两房 has no 定缺; §12.5:
# 无鸡, 四鸡 and soft melds need wilds, 四鸡 "cap" a cap).
COMPANIONS = {"suits": {"declare_void": False},
              "no_wild_bonus": {"wild_kinds": ("1s",)}, "soft_peng": {"extra_wilds": 4},
              "four_wilds": {"wild_kinds": "benjin", "max_fan": 6},
              "soft_kong": {"wild_kinds": "benjin_plus"}, "swap_back": {"wild_kinds": ("1m",)}}


@pytest.mark.parametrize("knob", KNOBS)
def test_every_knob_round_trips_through_json(knob):
    rules = Rules().replace(**{knob: OTHER_VALUES[knob]}, **COMPANIONS.get(knob, {}))
    assert rules != Rules()
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert eval(repr(rules), {"Rules": Rules}) == rules


def test_from_dict_fills_missing_knobs_from_the_xueliu_preset():
    assert Rules.from_dict({"menqing": True}) == Rules().replace(menqing=True)
    with pytest.raises(ValueError, match="unknown knob 'colour'"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(TypeError):
        Rules.from_dict([("menqing", True)])


def test_rules_pickle_even_after_building_the_native_object():
    rules = Rules.preset("xuezhan").replace(fan_table={"pinghu": 2})
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_repr_shows_the_preset_and_the_differences():
    assert repr(Rules()) == "Rules()"
    assert repr(Rules.preset("xuezhan")) == "Rules.preset('xuezhan')"
    assert repr(Rules(menqing=True)) == "Rules(menqing=True)"
    r = Rules.preset("xuezhan").replace(fan_table={"qidui": 4})
    assert eval(repr(r), {"Rules": Rules}) == r


@pytest.mark.parametrize(
    "knob, value",
    [
        ("mode", "xuelu"),
        ("mode", 1),
        ("exchange_direction", "left"),
        ("kong_draw_from", "middle"),
        ("pass_blocks_discard_win", True),
        ("next_dealer", "winner"),
        ("self_draw_bonus", "double"),
        ("gen_counts", "all"),
        ("kong_settle", "later"),
        ("pig_payees", "all"),
        ("ready_check_payees", "ready"),
        ("dian_gang_hua", "konger"),
        # booleans must be real bools
        ("seven_pairs", 1),
        ("menqing", "yes"),
        ("exchange_three", None),
        ("multiple_winners", 0),
        # ints
        ("forced_win_last_n", -1),
        ("forced_win_last_n", 1.5),
        ("forced_win_last_n", True),
        ("pig_penalty", -16),
        ("escape_penalty", "3"),
        ("direct_kong_others", -1),
        ("room", 0),
        ("service_fee", -1),
        ("base", 0),
        ("base", "automatic"),
        ("base", 1.0),
        ("max_fan", 0),
        ("max_fan", "6"),
        # containers
        ("post_win_kongs", {"robbed"}),
        ("post_win_kongs", "added"),
        ("multipliers", []),
        ("multipliers", [1, -2]),
        ("multipliers", "1,2,4"),
        ("multipliers", [1, 2.0]),
        ("fan_table", {"pinghu": 0}),
        ("fan_table", {"pinghu": "1"}),
        ("fan_table", {"pinghu": True}),
        ("fan_table", {"gen": 1}),
        ("fan_table", [("pinghu", 1)]),
        ("player_multipliers", {"allowed": (2, 4, 8)}),
        ("player_multipliers", {"allowed": (2, 4, 8), "default": 16}),
        ("player_multipliers", {"allowed": (), "default": 2}),
        ("player_multipliers", {"allowed": (2, 0), "default": 2}),
        ("player_multipliers", {"allowed": (2, 2), "default": 2}),
        ("player_multipliers", {"allowed": (2, 4), "default": 2, "max": 4}),
        ("player_multipliers", (2, 4, 8)),
    ],
)
def test_bad_values_raise_naming_the_knob(knob, value):
    with pytest.raises(ValueError, match=f"knob '{knob}'"):
        Rules().replace(**{knob: value})
    with pytest.raises(ValueError, match=f"knob '{knob}'"):
        Rules(**{knob: value})


def test_bad_value_messages_show_the_value():
    with pytest.raises(ValueError, match="'xuelu'"):
        Rules(mode="xuelu")
    with pytest.raises(ValueError, match="unknown pattern id 'gen'"):
        Rules(fan_table={"gen": 1})
    with pytest.raises(ValueError, match="member 'robbed'"):
        Rules(post_win_kongs={"robbed"})
    with pytest.raises(ValueError, match="default 16 is not one of allowed"):
        Rules(player_multipliers={"allowed": (2, 4, 8), "default": 16})


def test_scoring_object_follows_the_knobs():
    from xueliu import _core

    rules = Rules.preset("xuezhan")
    assert isinstance(rules._scoring, _core.ScoringRules)
    assert rules._scoring is rules._scoring  # cached
    assert Rules.preset("xuezhan")._scoring is rules._scoring  # presets are shared


# -- fan_table range (README: values 1..1000) -----------------------------------------------------


def test_fan_table_values_run_from_1_to_1000_with_a_multipliers_table():
    # A linear table gives large pattern values a meaning: the README's 1..1000 is the range.
    linear = list(range(1, 1021))
    rules = Rules(fan_table={"qingyise": 1000}, multipliers=linear)
    r = xueliu.evaluate("11122233345678m", rules=rules)
    assert (r.base, r.base_fan, r.fan, r.multiplier) == ("qingyise", 1000, 1000, 1000)
    assert Rules(fan_table={"pinghu": 1}, multipliers=linear) == Rules(multipliers=linear)
    for bad in (0, 1001, 10**6):
        with pytest.raises(ValueError, match=r"knob 'fan_table'.*expected an int 1\.\.1000"):
            Rules(fan_table={"qingyise": bad}, multipliers=linear)


def test_a_fan_table_past_63_fan_needs_multipliers_or_a_cap():
    # 2 ** (fan - 1) fits 64 bits up to 63 fan: the rules refuse what could reach beyond, naming
    # both ways out, and accept either.
    with pytest.raises(ValueError, match=r"knob 'fan_table'.*'multipliers'.*'max_fan' <= 63"):
        Rules(fan_table={"qingyise": 60})
    capped = Rules(fan_table={"qingyise": 60}, max_fan=63)
    r = xueliu.evaluate("11122233345678m", rules=capped)
    assert (r.base_fan, r.fan, r.multiplier) == (60, 60, 2 ** 59)
    assert Rules(fan_table={"qingyise": 55}).highest_fan() == 55 + 4 + 1  # 4 gens, 杠上花
    extras = dict(menqing=True, duanyaojiu=True, yitiaolong=True, haidi=True)
    with pytest.raises(ValueError, match="knob 'fan_table'"):
        Rules(fan_table={"qingyise": 55}, **extras)  # 55 + 4 + 3 + 2 = 64
    assert Rules(fan_table={"qingyise": 54}, **extras).highest_fan() == 63
