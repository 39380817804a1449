"""The presets (docs/rules.md §9, §11.4): each one's knob overrides on the defaults, and its source.

Read them through :meth:`xueliu.rules.Rules.preset` (validated, cached); ``docs/presets.md`` shows
every preset knob by knob.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PRESETS", "PRESET_SOURCES", "PRESET_NAMES"]

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

PRESET_SOURCES: dict[str, str] = {
    "xueliu": "血流成河: docs/rules.md §9, seeds 000/001/002 (platform rule pages)",
    "xuezhan": "血战到底: docs/rules.md §9, seeds 003/004 (platform rule pages)",
    "sanren_liangfang": "三人两房: docs/rules.md §11.4, fhh-qp MahjongConfig.lua (nanoserver, 网狐 agree on "
                        "the shape)",
    "sanren_sanfang": "三人三房: docs/rules.md §11.4, fhh-qp MahjongConfig.lua",
    "siren_liangfang": "四人两房: docs/rules.md §11.4, bebee/Majiang-1 rule_sirenliangfang.json",
    "erren_yifang": "两人一房: docs/rules.md §11.4, fhh-qp MahjongConfig.lua",
    "daodaohu": "倒倒胡: docs/rules.md §11.4, open_mahjong_unity (blood_battle = false)",
}
"""Where each preset's values come from."""

PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
"""Every preset name, in docs/rules.md order."""
