"""The fan table (番型) of docs/rules.md §6 and §11.3 as data: base patterns and additive fans, by id.

Ids are exactly the ids of docs/rules.md; they name patterns everywhere (code, logs, reports). The order of
:data:`BASE_PATTERNS` is the table order of docs/rules.md, which is also the native pattern code
(``xueliu._core.PATTERN_IDS``) and the tie-break order of evaluation. The order of :data:`EXTRAS`
is the bit order of the native extras mask (``xueliu._core.EXTRA_IDS``).

>>> from xueliu.patterns import PATTERNS
>>> PATTERNS["qingyise"].name, PATTERNS["qingyise"].fan
('清一色', 3)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, NamedTuple

__all__ = [
    "Pattern",
    "Extra",
    "BASE_PATTERNS",
    "WILD_PATTERNS",
    "SIJI",
    "PATTERNS",
    "PATTERN_IDS",
    "PATTERN_CODES",
    "PATTERN_NAMES",
    "DEFAULT_FAN_TABLE",
    "GEN",
    "EXTRAS",
    "EXTRA_IDS",
    "ADDITIVE",
    "ADDITIVE_NAMES",
    "WUJI",
    "pattern_name",
]


class Pattern(NamedTuple):
    """A base pattern: its id in docs/rules.md, its Chinese name and its standard fan."""

    id: str
    name: str
    fan: int


class Extra(NamedTuple):
    """An additive fan (+1 each): its id in docs/rules.md and its Chinese name."""

    id: str
    name: str


# Base patterns, docs/rules.md §6 table order (only the highest counts: 番型不重复计算).
PINGHU = Pattern("pinghu", "平胡", 1)
"""平胡: any standard-form win."""
DUIDUIHU = Pattern("duiduihu", "对对胡", 2)
"""对对胡 / 大对子: standard form, all four sets pungs or kongs."""
QINGYISE = Pattern("qingyise", "清一色", 3)
"""清一色: every tile of one suit."""
DAIYAOJIU = Pattern("daiyaojiu", "带幺九", 3)
"""带幺九 / 全带幺: standard form, every set and the pair contains a 1 or a 9."""
QIDUI = Pattern("qidui", "七对", 3)
"""七对: seven pairs, no kind held four times."""
JINGOUDIAO = Pattern("jingoudiao", "金钩钓", 3)
"""金钩钓: four melds made, winning on a single-tile pair wait (knob ``jingoudiao``)."""
QINGDUI = Pattern("qingdui", "清对", 4)
"""清对: 清一色 + 对对胡."""
JIANGDUI = Pattern("jiangdui", "将对", 4)
"""将对: 对对胡 with every tile a 2, 5 or 8."""
JIANGQIDUI = Pattern("jiangqidui", "将七对", 5)
"""将七对: a pairs hand of 2s, 5s and 8s only (knob ``jiang_patterns``, docs/rules.md §11.3)."""
JIANGJINGOUDIAO = Pattern("jiangjingoudiao", "将金钩钓", 5)
"""将金钩钓: 金钩钓 of 2s, 5s and 8s only (``jiang_patterns`` with ``jingoudiao`` "base")."""
LONGQIDUI = Pattern("longqidui", "龙七对", 5)
"""龙七对: seven pairs with at least one kind held four times; one gen is not counted."""
QINGQIDUI = Pattern("qingqidui", "清七对", 5)
"""清七对: 清一色 + 七对."""
QINGYAOJIU = Pattern("qingyaojiu", "清幺九", 5)
"""清幺九 / 清带幺: 清一色 + 带幺九."""
QINGJINGOUDIAO = Pattern("qingjingoudiao", "清金钩钓", 5)
"""清金钩钓: 清一色 + 金钩钓."""
QINGLONGQIDUI = Pattern("qinglongqidui", "清龙七对", 6)
"""清龙七对: 清一色 + 龙七对; one gen is not counted."""
TIANHU = Pattern("tianhu", "天胡", 6)
"""天胡: the dealer wins on the initial 14 (knob ``heavenly_earthly``)."""
DIHU = Pattern("dihu", "地胡", 6)
"""地胡: a non-dealer self-draws on its first draw before any peng or kong (``heavenly_earthly``), or
wins on the dealer's opening discard, as ``earthly_win`` says."""
SHIBALUOHAN = Pattern("shibaluohan", "十八罗汉", 7)
"""十八罗汉: 金钩钓 with four kongs; the four kongs' gens are not counted."""
QINGSANLONGQIDUI = Pattern("qingsanlongqidui", "清三龙七对", 8)
"""清三龙七对: 清七对 with three kinds held four times; no gens counted."""
QINGSHIBALUOHAN = Pattern("qingshibaluohan", "清十八罗汉", 9)
"""清十八罗汉: 清一色 + 十八罗汉."""
JIULIANBAODENG = Pattern("jiulianbaodeng", "九莲宝灯", 9)
"""九莲宝灯: concealed 1112345678999 of one suit + one more of that suit."""
BASE_PATTERNS: tuple[Pattern, ...] = (
    PINGHU, DUIDUIHU, QINGYISE, DAIYAOJIU, QIDUI, JINGOUDIAO, QINGDUI, JIANGDUI, JIANGQIDUI,
    JIANGJINGOUDIAO, LONGQIDUI,
    QINGQIDUI, QINGYAOJIU, QINGJINGOUDIAO, QINGLONGQIDUI, TIANHU, DIHU, SHIBALUOHAN,
    QINGSANLONGQIDUI, QINGSHIBALUOHAN, JIULIANBAODENG,
)
"""The base patterns of the fan table, in docs/rules.md §6 table order, §11.3's two 将 patterns right
after 将对 (index = native pattern code)."""

PATTERN_IDS: tuple[str, ...] = tuple(p.id for p in BASE_PATTERNS)
"""Base-pattern ids in table order: the keys of the fan table; ``PATTERN_IDS[code]`` decodes every
native/batch pattern code but 四鸡's (:data:`PATTERN_CODES` decodes them all)."""

SIJI = Pattern("siji", "四鸡", 0)
"""四鸡: a self-draw holding four or more concealed wilds, whatever the rest of the hand (knob
``four_wilds``, docs/rules.md §12.2). Its fan is the knob's (``"cap"``: ``max_fan``; an int N: N),
so no fan table holds it (``fan`` 0); it is compared with the hand's best reading by fan alone."""

WILD_PATTERNS: tuple[Pattern, ...] = (SIJI,)
"""Base patterns of docs/rules.md §12 whose fan is a knob's, not the fan table's; their native
codes follow :data:`BASE_PATTERNS`'."""

PATTERN_CODES: tuple[str, ...] = PATTERN_IDS + tuple(p.id for p in WILD_PATTERNS)
"""Every base-pattern id by native pattern code (``xueliu._core.PATTERN_IDS``):
``PATTERN_CODES[code]``."""

PATTERNS: Mapping[str, Pattern] = MappingProxyType(
    {p.id: p for p in BASE_PATTERNS + WILD_PATTERNS})
"""Base pattern by id."""

PATTERN_NAMES: Mapping[str, str] = MappingProxyType(
    {p.id: p.name for p in BASE_PATTERNS + WILD_PATTERNS})
"""Chinese name of each base pattern id."""

DEFAULT_FAN_TABLE: Mapping[str, int] = MappingProxyType({p.id: p.fan for p in BASE_PATTERNS})
"""The standard fan of each base pattern id (``Rules.fan_table`` overrides merge onto it)."""

# Additive fans (+1 each, all that apply), docs/rules.md §6 table order.
GEN = Extra("gen", "根")
"""根: per kind of which the winner holds all four (after the pattern's exceptions)."""
GANGSHANGHUA = Extra("gangshanghua", "杠上花")
"""杠上花: self-draw on a kong replacement tile."""
GANGSHANGPAO = Extra("gangshangpao", "杠上炮")
"""杠上炮: win on a discard the discarder made after its own kong replacement draw."""
QIANGGANGHU = Extra("qiangganghu", "抢杠胡")
"""抢杠胡: win by robbing an added kong."""
HAIDILAOYUE = Extra("haidilaoyue", "海底捞月")
"""海底捞月: self-draw on the last wall tile (knob ``haidi``)."""
ZIMO = Extra("zimo", "自摸")
"""自摸: any self-draw (knob ``self_draw_bonus = "fan"``)."""
MENQING = Extra("menqing", "门清")
"""门清: no peng and no exposed kong made (knob ``menqing``)."""
DUANYAOJIU = Extra("duanyaojiu", "断幺九")
"""断幺九 / 中张: no tile of rank 1 or 9 anywhere (knob ``duanyaojiu``)."""
YITIAOLONG = Extra("yitiaolong", "一条龙")
"""一条龙: the decomposition holds 123, 456 and 789 of one suit (knob ``yitiaolong``)."""
JIAXINWU = Extra("jiaxinwu", "夹心五")
"""夹心五: the winning 5 is the middle of a 456 chow (knob ``jiaxinwu``)."""
HAIDIPAO = Extra("haidipao", "海底炮")
"""海底炮: a discard win on the discard that follows the last wall tile (knob ``haidipao``)."""

# docs/rules.md §11.3's additive fans.
JINGOU = Extra("jingou", "金钩")
"""金钩: +1 with every set melded, under ``jingoudiao = "additive"``."""
TIANHU_EXTRA = Extra("tianhu", "天胡")
"""天胡 on top of the hand under ``heavenly_earthly = "additive"`` (+3: the one extra worth more)."""
DIHU_EXTRA = Extra("dihu", "地胡")
"""地胡 on top of the hand under ``heavenly_earthly = "additive"`` (+2)."""
KAERTIAO = Extra("kaertiao", "卡二条")
"""卡二条: the winning 2s is the middle of a 123s chow (knob ``kaertiao``)."""
KABIANDIAO = Extra("kabiandiao", "卡边吊")
"""卡边吊: the hand before the win had exactly one wait (knob ``single_wait``)."""

# docs/rules.md §12.2's additive fan.
WUJI = Extra("wuji", "无鸡")
"""无鸡 / 无听用 / 无鬼: no wild in the concealed tiles, the melds or the winning tile (knob
``no_wild_bonus``, worth its 1 to 3 fan like the additive 天胡 / 地胡)."""

EXTRAS: tuple[Extra, ...] = (
    GANGSHANGHUA, GANGSHANGPAO, QIANGGANGHU, HAIDILAOYUE, ZIMO, MENQING,
    DUANYAOJIU, YITIAOLONG, JIAXINWU, HAIDIPAO,
    JINGOU, TIANHU_EXTRA, DIHU_EXTRA, KAERTIAO, KABIANDIAO, WUJI,
)
"""The additive fans other than gen, docs/rules.md §6 then §11.3 then §12 order (bit ``i`` of the
native extras mask)."""

EXTRA_IDS: tuple[str, ...] = tuple(e.id for e in EXTRAS)
"""Ids of :data:`EXTRAS`, in table order."""

ADDITIVE: tuple[Extra, ...] = (GEN,) + EXTRAS
"""Every additive fan: gen, then the extras."""

ADDITIVE_NAMES: Mapping[str, str] = MappingProxyType({e.id: e.name for e in ADDITIVE})
"""Chinese name of each additive fan id (gen included)."""

_FOUR_PAIRS_NAMES: Mapping[str, str] = MappingProxyType({
    "qidui": "四对", "longqidui": "龙四对", "qingqidui": "清四对", "qinglongqidui": "清龙四对",
    "jiangqidui": "将四对",
})


def pattern_name(pattern_id: str, hand_size: int = 13) -> str:
    """The report name of a base pattern at a hand size: the pairs family of 7-tile hands is
    四对 (docs/rules.md §11.1): ``pattern_name("longqidui", 7) == "龙四对"``; ids never change."""
    if hand_size == 7 and pattern_id in _FOUR_PAIRS_NAMES:
        return _FOUR_PAIRS_NAMES[pattern_id]
    return PATTERN_NAMES[pattern_id]
