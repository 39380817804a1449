"""The presets (docs/rules.md §9, §11.4, §12.4): each one's knob overrides on the defaults, and its
source.

Read them through :meth:`xueliu.rules.Rules.preset` (validated, cached); ``docs/presets.md`` shows
every preset knob by knob. ``PRESETS`` holds the rooms of §9 and §11.4, ``WILD_PRESETS`` the
wild-tile rooms of §12.4; ``PRESET_NAMES`` names them all, in docs/rules.md order, and is what
everything that plays "every preset" walks (the commands' ``--preset``, the server's lobby,
simulate, the learning environments, the tests' loops).
"""

from __future__ import annotations

from typing import Any

__all__ = ["PRESETS", "PRESET_SOURCES", "PRESET_NAMES", "WILD_PRESETS", "WILD_PRESET_NAMES"]

# Knobs every §11.4 room shares (its sources' defaults; docs/rules.md §11.4's last row): no 选倍, no
# forced wins, and 血战 winners make no kongs.
_ROOM: dict[str, Any] = {"post_win_kongs": frozenset(), "player_multipliers": None, "forced_win_last_n": 0}

# The small rooms of fhh-qp (CreateRoomConfig/MahjongConfig.lua): 血战 with a 3-fan cap in its
# 0-based units (max_fan 4 here), 点炮可平胡 off (min_fan_discard_win 2), 自摸加番, 点杠花 点炮.
_FHH_QP: dict[str, Any] = {
    **_ROOM, "mode": "xuezhan", "exchange_three": False, "declare_void": False,
    "min_fan_discard_win": 2, "max_fan": 4, "self_draw_bonus": "fan",
    "dian_gang_hua": "discarder", "direct_kong_others": 0, "next_dealer": "first_winner",
}

PRESETS: dict[str, dict[str, Any]] = {
    "xueliu": {},
    "xuezhan": {
        "mode": "xuezhan",
        "exchange_direction": "random",
        "jingoudiao": True,
        "heavenly_earthly": True,
        "haidi": True,
        "self_draw_bonus": "none",
        "direct_kong_others": 0,
        "post_win_kongs": frozenset(),
        "pig_payees": "all_non_pig",
        "dian_gang_hua": "discarder",
        "forced_win_last_n": 4,
        "player_multipliers": {"allowed": (2, 4, 8), "default": 8},
        "next_dealer": "first_winner",
        "escape_penalty": 32,
    },
    "sanren_liangfang": {**_FHH_QP, "players": 3, "suits": ("p", "s")},
    "sanren_sanfang": {**_FHH_QP, "players": 3, "declare_void": True},
    "siren_liangfang": {
        **_ROOM, "players": 4, "suits": ("p", "s"), "hand_size": 10, "mode": "xuezhan",
        "exchange_three": False, "declare_void": False, "max_fan": 4,
        "dian_gang_hua": "discarder", "direct_kong_others": 0, "jingoudiao": "additive",
        "heavenly_earthly": "additive", "kaertiao": True, "haidi": True, "haidipao": True,
        "pass_blocks_discard_win": "not_higher", "next_dealer": "first_winner_next",
    },
    "erren_yifang": {
        **_FHH_QP, "players": 2, "suits": ("m",), "hand_size": 7, "min_fan_discard_win": 1,
        "seven_pairs": False,
        # One suit: every hand is 清一色, so 清 adds nothing (docs/rules.md §11.4).
        "fan_table": {"qingyise": 1, "qingdui": 2, "qingyaojiu": 3},
    },
    "daodaohu": {**_ROOM, "mode": "daodaohu", "next_dealer": "dice"},
}
"""Knob overrides of each preset on the defaults (the ``xueliu`` preset); use
:meth:`xueliu.rules.Rules.preset`."""

# What every §12.4 room shares: 血战 without 换三张 (with 定缺 but in the 红中 room); every knob the
# table does not name is the xueliu preset's.
_WILD_ROOM: dict[str, Any] = {"mode": "xuezhan", "exchange_three": False}

WILD_PRESETS: dict[str, dict[str, Any]] = {
    "yaoji": {
        **_WILD_ROOM, "wild_kinds": ("1s",), "soft_peng": "one", "soft_kong": True,
        "swap_back": True, "four_wilds": "cap", "no_wild_bonus": 1, "soft_kong_pay": "hard_double",
        "max_fan": 4, "dian_gang_hua": "discarder", "direct_kong_others": 0,
        "jingoudiao": "additive", "heavenly_earthly": "additive", "haidi": True,
    },
    "leshan": {
        **_WILD_ROOM, "wild_kinds": ("1s",), "soft_peng": "two", "soft_kong": True,
        "swap_back": True, "four_wilds": 3, "no_wild_bonus": 1, "wild_fifth_copy": True,
        "max_fan": 5, "self_draw_bonus": "fan", "dian_gang_hua": "discarder",
        "heavenly_earthly": "additive", "menqing": True,
    },
    "yibin": {
        **_WILD_ROOM, "wild_kinds": "benjin", "soft_peng": "one", "swap_back": True,
        "no_wild_bonus": 2, "max_fan": 6, "self_draw_bonus": "none", "self_draw_only": True,
        "fan_table": {"duiduihu": 3, "longqidui": 4, "qingdui": 6, "qingqidui": 6,
                      "qinglongqidui": 7},
    },
    "luzhou_gui": {
        **_WILD_ROOM, "extra_wilds": 4, "soft_peng": "two", "soft_kong": True, "swap_back": True,
        "no_wild_bonus": 3, "max_fan": 4, "multipliers": (2, 5, 10, 20, 40, 80),
    },
    "hongzhong": {
        **_WILD_ROOM, "declare_void": False, "extra_wilds": 4, "wild_discard": "dead",
        "soft_peng": "one", "soft_kong": True, "swap_back": True, "no_wild_bonus": 3,
        "wild_gen": "per_wild", "max_fan": 5, "multipliers": (2, 5, 10, 20, 40),
        "self_draw_bonus": "fan", "min_fan_discard_win": 2,
        "fan_table": {"duiduihu": 3, "qingyise": 5}, "pig_penalty": 40,
    },
}
"""The wild-tile rooms of docs/rules.md §12.4, as overrides on the defaults (``PRESETS`` holds the
rooms without wild tiles)."""

PRESET_SOURCES: dict[str, str] = {
    "xueliu": "血流成河: docs/rules.md §9, seeds 000/001/002 (platform rule pages)",
    "xuezhan": "血战到底: docs/rules.md §9, seeds 003/004 (platform rule pages)",
    "sanren_liangfang": "三人两房: docs/rules.md §11.4, fhh-qp MahjongConfig.lua (nanoserver, 网狐 agree on "
                        "the shape)",
    "sanren_sanfang": "三人三房: docs/rules.md §11.4, fhh-qp MahjongConfig.lua",
    "siren_liangfang": "四人两房: docs/rules.md §11.4, bebee/Majiang-1 rule_sirenliangfang.json",
    "erren_yifang": "两人一房: docs/rules.md §11.4, fhh-qp MahjongConfig.lua",
    "daodaohu": "倒倒胡: docs/rules.md §11.4, open_mahjong_unity (blood_battle = false)",
    "yaoji": "幺鸡麻将: docs/rules.md §12.4, fhh-qp 幺鸡四人 (hw233/fkserver maajan_yaoji where "
             "fhh-qp is silent)",
    "leshan": "乐山 幺鸡任用: docs/rules.md §12.4, the P-A platform's 乐山 room (a 乐山 room-card "
              "server for the wilds)",
    "yibin": "宜宾 听用: docs/rules.md §12.4, fhh-qp ConfigData.lua's 宜宾 rule text (P-A 宜宾)",
    "luzhou_gui": "泸州 鬼: docs/rules.md §12.4, the P-A platform's 泸州 room (\"cai\" "
                  "Table_LuZhouGui)",
    "hongzhong": "红中: docs/rules.md §12.4, the 112-tile 川麻 script (hw233/fkserver "
                 "maajan_hongzhong)",
}
"""Where each preset's values come from."""

WILD_PRESET_NAMES: tuple[str, ...] = tuple(WILD_PRESETS)
"""The wild-tile presets of docs/rules.md §12.4, in its order."""

PRESET_NAMES: tuple[str, ...] = tuple(PRESETS) + WILD_PRESET_NAMES
"""Every preset, in docs/rules.md order (§9, §11.4, §12.4): the ones without wild tiles, then the
wild-tile rooms."""
