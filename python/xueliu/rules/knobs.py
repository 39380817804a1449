"""The knob table: every knob of docs/rules.md §3–§11 in one frozen, validated object, with a
docstring line each (``help(Rules)`` lists them).

>>> r = Rules.preset("xuezhan").replace(menqing=True, fan_table={"qingyise": 4})
>>> r.mode, r.fan_table["qingyise"], r.fan_table["pinghu"]
('xuezhan', 4, 1)
>>> import json
>>> Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r
True
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ..patterns import DEFAULT_FAN_TABLE, PATTERN_IDS
from . import values as v
from . import wilds as w
from .consistency import check_together
from .presets import PRESETS, WILD_PRESETS
from .shape import Shape, shape_of

if TYPE_CHECKING:
    from .. import _core

__all__ = ["Rules", "KNOBS", "SECTION11_KNOBS", "SECTION12_KNOBS"]

# Without a `multipliers` table, 2 ** (fan - 1) must fit in 64 bits, which __post_init__ checks
# for the whole configuration.
_MAX_POWER_FAN = 63
_STANDARD_FAN_TABLE = v.STANDARD_FAN_TABLE


def _knob(default: Any, check: Callable[[str, Any], Any], doc: str) -> Any:
    return field(default=default, metadata={"doc": doc, "check": check})


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Rules:
    """A complete rule configuration (docs/rules.md §9): one value per knob, validated, immutable.

    ``Rules()`` is the ``xueliu`` preset; ``Rules.preset("xuezhan")`` the other one;
    ``rules.replace(**knobs)`` derives a variant. Rule values shown as tuples or sets in docs/rules.md may be
    given as lists (rules travel through JSON: ``to_dict`` / ``from_dict``).

    Knobs (default = the ``xueliu`` preset):
    """

    # -- game flow (docs/rules.md §3, §4, §5, §8) --
    # -- table shape (docs/rules.md §11.1) --
    players: int = _knob(4, v.one_of_ints(4, 3, 2), "Seats at the table: 4, 3 or 2.")
    suits: tuple[str, ...] = _knob(
        ("m", "p", "s"), v.suits,
        "Suits in play, a subset of ('m', 'p', 's') kept in that order: ('p', 's') 两房, one 一房.",
    )
    hand_size: int = _knob(
        13, v.one_of_ints(13, 10, 7), "Tiles dealt to each seat (the dealer one more): 13, 10 or 7."
    )
    exchange_count: int = _knob(
        3, v.one_of_ints(3, 4), "Tiles each seat passes in the exchange: 3 (换三张) or 4 (换四张)."
    )
    mode: str = _knob(
        "xueliu", v.enum("xueliu", "xuezhan", "daodaohu"),
        "'xueliu' 血流成河: nobody leaves after a win | 'xuezhan' 血战到底: the winner leaves play |"
        " 'daodaohu' 倒倒胡: the first win ends the hand.",
    )
    exchange_three: bool = _knob(True, v.boolean, "换三张: each seat passes three tiles before play.")
    exchange_direction: str = _knob(
        "dice", v.enum("dice", "random", "next", "opposite", "previous"),
        "Whom each seat receives the three tiles from: 'dice' (one die) | 'random' | 'next' |"
        " 'opposite' | 'previous'.",
    )
    exchange_same_suit: bool = _knob(True, v.boolean, "The three exchanged tiles must be of one suit.")
    declare_void: bool = _knob(True, v.boolean, "定缺: each seat declares a suit it must shed.")
    player_multipliers: Optional[Mapping[str, Any]] = _knob(
        None, v.player_multipliers,
        "选倍/加倍: None (off) or {'allowed': (2, 4, 8), 'default': 8}; payments use both seats' choices.",
    )
    kong_draw_from: str = _knob(
        "front", v.enum("front", "back"), "Where kong replacement tiles come from: 'front' | 'back'."
    )
    pass_blocks_discard_win: str = _knob(
        "off", v.enum("off", "not_higher", "any"),
        "过水不胡: after passing a discard win, 'off' | 'not_higher' (no discard win worth the same or"
        " less) | 'any' (no discard win) until the seat's next draw.",
    )
    forced_win_last_n: int = _knob(
        0, v.int_at_least(0), "Within the last N wall tiles every possible win is taken automatically."
    )
    multiple_winners: bool = _knob(
        True, v.boolean, "一炮多响: several seats may win on one discard (off: first in turn order)."
    )
    post_win_kongs: frozenset[str] = _knob(
        frozenset({"concealed", "direct"}), v.post_win_kongs,
        "xueliu: kongs a winner may still make, a subset of {'concealed', 'direct', 'added'}.",
    )
    next_dealer: str = _knob(
        "dice", v.enum("dice", "first_winner", "rotate", "first_winner_next"),
        "Dealer of the next hand in a match: 'dice' | 'first_winner' | 'rotate' |"
        " 'first_winner_next' (as first_winner; no winner: the dealer's next seat).",
    )
    self_draw_only: bool = _knob(
        False, v.boolean, "只能自摸: no win on a discard or a robbed kong, ever."
    )
    min_fan_discard_win: int = _knob(
        1, v.int_at_least(1),
        "起胡番: a discard or robbing win needs at least this fan (2: 点炮可平胡 off).",
    )
    rob_kong: bool = _knob(True, v.boolean, "抢杠胡: an added kong may be robbed.")
    added_kong_payment: str = _knob(
        "always", v.enum("always", "fresh_only"),
        "补杠 payment: 'always' | 'fresh_only' (过手杠: only a kong of a tile drawn this turn pays).",
    )
    # -- scoring (docs/rules.md §6) --
    seven_pairs: bool = _knob(True, v.boolean, "七对 family: seven-pairs hands win.")
    jingoudiao: Union[bool, str] = _knob(
        False, v.stacking,
        "金钩钓 family (金钩钓, 清金钩钓, 十八罗汉, 清十八罗汉, 九莲宝灯): False | True (= 'base') |"
        " 'additive' (金钩 +1 on top of the pattern).",
    )
    jiang_patterns: bool = _knob(
        False, v.boolean, "将七对 / 将金钩钓: 5-fan patterns of 2s, 5s and 8s only."
    )
    heavenly_earthly: Union[bool, str] = _knob(
        False, v.stacking,
        "天胡/地胡 (and the dealer may win on the deal): False | True (= 'base', a 6-fan base) |"
        " 'additive' (+3 / +2 on top of the hand).",
    )
    earthly_win: str = _knob(
        "first_draw", v.enum("first_draw", "first_discard", "either"),
        "地胡 is a self-draw on the first draw | a win on the hand's first discard | either.",
    )
    kaertiao: bool = _knob(
        False, v.boolean, "卡二条: +1 fan when the winning 2s is the middle of a 123s chow."
    )
    single_wait: bool = _knob(
        False, v.boolean, "卡边吊: +1 fan when the hand before the win had exactly one wait."
    )
    haidi: bool = _knob(False, v.boolean, "海底捞月: +1 fan for a self-draw on the last wall tile.")
    self_draw_bonus: str = _knob(
        "base", v.enum("base", "none", "fan"),
        "自摸 bonus: 'base' (each payer adds 1 base) | 'none' | 'fan' (+1 fan).",
    )
    menqing: bool = _knob(False, v.boolean, "门清: +1 fan with no peng and no exposed kong.")
    gen_counts: str = _knob(
        "all_fours", v.enum("all_fours", "kongs_only", "none"),
        "根: 'all_fours' (every kind held 4 times) | 'kongs_only' | 'none'.",
    )
    duanyaojiu: bool = _knob(False, v.boolean, "断幺九: +1 fan with no 1 or 9 anywhere.")
    yitiaolong: bool = _knob(False, v.boolean, "一条龙: +1 fan for 123, 456 and 789 of one suit.")
    jiaxinwu: bool = _knob(False, v.boolean, "夹心五: +1 fan when the winning 5 is the middle of a 456.")
    haidipao: bool = _knob(False, v.boolean, "海底炮: +1 fan for a discard win after the last wall tile.")
    fan_table: Mapping[str, int] = _knob(
        _STANDARD_FAN_TABLE, v.fan_table,
        "Fan of each base pattern id; partial overrides {id: fan} merge onto the standard table.",
    )
    multipliers: Optional[tuple[int, ...]] = _knob(
        None, v.multipliers,
        "None (2 ** (fan - 1)) or a tuple whose entry i is the multiplier of fan i + 1.",
    )
    max_fan: Optional[int] = _knob(None, v.max_fan, "封顶: cap on the total fan (None: no cap).")
    # -- settlement (docs/rules.md §7) --
    direct_kong_others: int = _knob(
        1, v.int_at_least(0), "刮风 direct kong: what each seat other than the discarder pays."
    )
    kong_settle: str = _knob(
        "immediate", v.enum("immediate", "on_win"),
        "Kong payments: 'immediate' | 'on_win' (collected only if the konger later wins).",
    )
    call_transfer: Union[bool, str] = _knob(
        True, v.call_transfer,
        "呼叫转移 on 杠上炮: True (= 'each' winner gets the kong's income) | False | 'split' (shared"
        " in whole units, the rest to the first winner) | 'single_only' (only with one winner).",
    )
    pig_penalty: int = _knob(16, v.int_at_least(0), "查花猪: base units a flower pig pays each payee.")
    pig_payees: str = _knob(
        "unwon_non_pig", v.enum("unwon_non_pig", "all_non_pig"),
        "Who a flower pig pays: 'unwon_non_pig' | 'all_non_pig' (winners included).",
    )
    ready_check_payees: str = _knob(
        "unwon", v.enum("unwon", "all"), "查大叫: which ready seats a not-ready seat pays: 'unwon' | 'all'."
    )
    dead_waits_ready: bool = _knob(
        True, v.boolean, "A hand whose every wait is fully visible still counts as ready (off: 死叫)."
    )
    refund_kongs: bool = _knob(True, v.boolean, "退税: not-ready seats return their kong income.")
    dian_gang_hua: str = _knob(
        "self_draw", v.enum("self_draw", "discarder"),
        "点杠花: 'self_draw' (paid as a self-draw) | 'discarder' (the konged discarder pays alone).",
    )
    escape_penalty: int = _knob(3, v.int_at_least(0), "逃跑: base units an escaper pays the house.")
    base: Union[int, str] = _knob(
        1, v.base, "底分: base stake, an int >= 1 or 'auto' (1% of the smallest stack, needs coins)."
    )
    room: int = _knob(1, v.int_at_least(1), "房间系数: room coefficient multiplying every payment.")
    service_fee: int = _knob(0, v.int_at_least(0), "Service fee each seat pays the house per hand.")
    # -- wild tiles (docs/rules.md §12; checked in wilds.py, played by game/wild_play.py) --
    wild_kinds: Union[tuple[str, ...], str] = _knob(
        (), w.wild_kinds,
        "听用: () none | kinds of suits in play, every copy wild ('1s',) 幺鸡 | 'benjin' (宜宾: the"
        " 本金's two neighbours) | 'benjin_plus' (and the 本金's kind).",
    )
    extra_wilds: int = _knob(
        0, v.one_of_ints(0, 4, 8, 12), "红中 (7z) added to the wall, every one wild: 0, 4, 8 or 12."
    )
    wild_gen: str = _knob(
        "fours", v.enum("fours", "natural", "per_wild"),
        "根 with wilds: 'fours' (any four of the reading) | 'natural' (no concealed wild in it) |"
        " 'per_wild' (one per wild held, plus natural fours).",
    )
    no_wild_bonus: int = _knob(
        0, v.one_of_ints(0, 1, 2, 3), "无鸡 / 无听用 / 无鬼: fan added to a win holding no wild."
    )
    four_wilds: Union[None, str, int] = _knob(
        None, w.four_wilds,
        "四鸡: None | 'cap' (four concealed wilds win at max_fan) | an int N (they win at N fan).",
    )
    wild_fifth_copy: bool = _knob(
        False, v.boolean, "A wild may be read as a fifth copy of a kind."
    )
    wild_discard: str = _knob(
        "forbidden", v.enum("forbidden", "dead"),
        "Discarding a wild: 'forbidden' | 'dead' (legal; nobody may win, peng or kong on it).",
    )
    soft_peng: str = _knob(
        "off", v.enum("off", "one", "two"),
        "飞 soft peng: 'off' | 'one' (a natural and a wild) | 'two' (or a pair of wilds).",
    )
    soft_kong: bool = _knob(False, v.boolean, "软杠: kongs counting wilds (at least one natural).")
    swap_back: bool = _knob(
        False, v.boolean, "提: on its turn a seat puts a natural into its exposed meld for the wild."
    )
    soft_kong_pay: str = _knob(
        "same", v.enum("same", "hard_double"),
        "Kong pay with wilds: 'same' | 'hard_double' (a kong without wilds pays twice: 无鸡杠翻倍).",
    )

    def __post_init__(self) -> None:
        for f in _FIELDS:
            value = getattr(self, f.name)
            normal = f.metadata["check"](f.name, value)
            if normal is not value:
                object.__setattr__(self, f.name, normal)
        check_together(self)
        w.check_wilds(self)
        if self.multipliers is None and self.highest_fan() > _MAX_POWER_FAN:
            raise ValueError(
                f"bad value for knob 'fan_table': a win can reach {self.highest_fan()} fan under"
                f" these rules, and 2 ** (fan - 1) stops at {_MAX_POWER_FAN} fan (64 bits); give"
                f" a 'multipliers' table or set 'max_fan' <= {_MAX_POWER_FAN}"
            )

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> "Rules":
        """The rules of one preset (docs/rules.md §9, §11.4, §12.4): ``Rules.preset("xueliu")``,
        ``"xuezhan"``, ``"sanren_liangfang"``, ``"sanren_sanfang"``, ``"siren_liangfang"``,
        ``"erren_yifang"`` or ``"daodaohu"``; and the wild-tile rooms ``"yaoji"``, ``"leshan"``,
        ``"yibin"``, ``"luzhou_gui"``, ``"hongzhong"`` (``WILD_PRESET_NAMES``; validated rules
        that the game engine does not play yet). Sources: ``xueliu.rules.PRESET_SOURCES``."""
        try:
            overrides = PRESETS[name] if name in PRESETS else WILD_PRESETS[name]
        except (KeyError, TypeError):
            names = ", ".join(map(repr, [*PRESETS, *WILD_PRESETS]))
            raise ValueError(f"unknown preset {name!r} (expected one of {names})") from None
        if cls is Rules:
            cached = _PRESET_CACHE.get(name)
            if cached is None:
                cached = _PRESET_CACHE[name] = cls(**overrides)
            return cached
        return cls(**overrides)

    def replace(self, **knobs: Any) -> "Rules":
        """A copy with some knobs changed: ``rules.replace(menqing=True)`` (validated)."""
        _check_names(knobs)
        return dataclasses.replace(self, **knobs)

    def to_dict(self) -> dict[str, Any]:
        """The knobs as JSON-ready data (tuples -> lists, sets -> sorted lists, maps -> dicts).

        Every §3–§10 knob is written; a §11 or §12 knob (and a §11 pattern's ``fan_table`` entry)
        only when it differs from its default, so that the record of a §1–§10 table reads exactly
        as before §11 existed, and that of a table without wild tiles exactly as before §12 (each
        §12 knob is left out at its default, as the §11 ones are; ``None`` is written ``null``,
        ``wild_kinds`` a list or ``"benjin"``). :meth:`from_dict` fills the rest with the
        defaults: the round trip is exact either way."""
        out = {}
        for f in _FIELDS:
            value = getattr(self, f.name)
            if f.name in _LATER and value == f.default:
                continue
            if f.name == "fan_table":
                value = {k: x for k, x in value.items()
                         if k not in _SECTION11_PATTERNS or x != DEFAULT_FAN_TABLE[k]}
            out[f.name] = _jsonable(value)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Rules":
        """Inverse of :meth:`to_dict`; missing knobs take the ``xueliu`` defaults."""
        if not isinstance(d, Mapping):
            raise TypeError(f"Rules.from_dict needs a mapping, got {type(d).__name__}")
        _check_names(d)
        return cls(**d)

    def highest_fan(self) -> int:
        """An upper bound on the fan one win can score under these rules (capped at ``max_fan``).

        The best base pattern the knobs allow, four gens, and every additive fan that can come
        together on one win (a self-draw or a discard win, whichever allows more). A game checks
        that a ``multipliers`` table reaches this far before it starts (docs/rules.md §6: the table must
        cover every fan the configuration can reach), so a win never meets a missing entry.
        """
        gou_base = {"jingoudiao", "qingjingoudiao", "jiangjingoudiao"}
        family = {"shibaluohan", "qingshibaluohan", "jiulianbaodeng"}
        seven = {"qidui", "longqidui", "qingqidui", "qinglongqidui", "qingsanlongqidui",
                 "jiangqidui"}
        jiang = {"jiangqidui", "jiangjingoudiao"}
        allowed = [pid for pid in PATTERN_IDS
                   if (pid not in gou_base or self.jingoudiao is True)
                   and (pid not in family or self.jingoudiao)
                   and (pid not in seven or self.seven_pairs)
                   and (pid not in jiang or self.jiang_patterns)
                   and (pid not in ("tianhu", "dihu") or self.heavenly_earthly is True)]
        base = max(self.fan_table[pid] for pid in allowed)
        gens = 0 if self.gen_counts == "none" else w.gens_bound(self)
        # 一条龙 and 夹心五 / 卡二条 (one winning tile: at most one of the last two), 卡边吊, 金钩,
        # 无鸡 (docs/rules.md §12.2).
        shared = (self.menqing + self.duanyaojiu + self.yitiaolong
                  + (self.jiaxinwu or self.kaertiao) + self.single_wait
                  + (self.jingoudiao == "additive") + self.no_wild_bonus)
        heaven = max(self._stacked_amounts) if self.heavenly_earthly == "additive" else 0
        self_draw = 1 + self.haidi + (self.self_draw_bonus == "fan") + heaven  # 杠上花, 海底, 自摸
        discard = 1 + self.haidipao + (heaven if self.earthly_win != "first_draw" else 0)
        total = base + gens + shared + max(self_draw, discard)
        if isinstance(self.four_wilds, int):  # 四鸡 at N fan, alone (docs/rules.md §12.2)
            total = max(total, self.four_wilds)
        return min(total, self.max_fan) if self.max_fan else total

    # -- derived ---------------------------------------------------------------------------

    @property
    def has_wilds(self) -> bool:
        """Whether the wall set holds any wild (docs/rules.md §12.1): ``wild_kinds`` names some, or
        is a 本金 rule, or ``extra_wilds`` adds 红中. False for every §9 and §11.4 preset."""
        return w.has_wilds(self)

    @property
    def uses_benjin(self) -> bool:
        """Whether each hand turns up a 本金 that decides its wilds (``wild_kinds`` ``"benjin"`` or
        ``"benjin_plus"``, docs/rules.md §12.1)."""
        return w.uses_benjin(self)

    def wild_set(self, benjin: Union[None, str, int] = None) -> frozenset[int]:
        """The wild kinds of a hand as kind indices (27 is 红中), docs/rules.md §12.1; ``benjin``
        (a tile name or kind) is the hand's 本金, required under ``"benjin"`` /
        ``"benjin_plus"`` and refused otherwise: ``Rules.preset("yibin").wild_set(benjin="9s")``
        is ``frozenset({25, 18})`` (8条 and 1条). See :func:`xueliu.rules.wilds.wild_set`."""
        return w.wild_set(self, benjin)

    def wild_count_in_wall(self) -> int:
        """The wilds of the wall set (docs/rules.md §12.1): 4 per wild kind (8 under ``"benjin"``,
        11 under ``"benjin_plus"``) plus ``extra_wilds``; 0 without wilds."""
        return w.wild_count_in_wall(self)

    @functools.cached_property
    def shape(self) -> Shape:
        """The table shape (docs/rules.md §11.1): seats, suits and kinds in play, wall size, deal plan,
        sets needed, pairs family; see :class:`xueliu.rules.Shape`."""
        return shape_of(self)

    @functools.cached_property
    def _shape_code(self) -> int:
        """The native shape code the core's is_win / waits / shanten take."""
        return self.shape.code

    @property
    def _stacked_amounts(self) -> tuple[int, int]:
        """Under ``heavenly_earthly = "additive"``: what 天胡 and 地胡 add (docs/rules.md §11.3). A
        ``fan_table`` entry other than its standard 6 sets the amount; the standard entry means
        +3 and +2."""
        t = self.fan_table
        return (t["tianhu"] if t["tianhu"] != DEFAULT_FAN_TABLE["tianhu"] else 3,
                t["dihu"] if t["dihu"] != DEFAULT_FAN_TABLE["dihu"] else 2)

    # -- native ------------------------------------------------------------------------------

    @functools.cached_property
    def _scoring(self) -> _core.ScoringRules:
        """The cached native ``_core.ScoringRules`` of these rules (under a 本金 rule, without the
        hand's wild set: :meth:`_scoring_for`)."""
        from .. import _core

        return _core.ScoringRules(**self._scoring_arguments(), **self._wild_scoring(
            None if self.uses_benjin else frozenset(self.wild_set())))

    def _scoring_arguments(self) -> dict[str, Any]:
        """The §6-§11 arguments of ``_core.ScoringRules``."""
        table = self.fan_table
        tianhu, dihu = self._stacked_amounts
        return dict(
            seven_pairs=self.seven_pairs,
            jingoudiao=_STACKING[self.jingoudiao],
            heavenly_earthly=_STACKING[self.heavenly_earthly],
            haidi=self.haidi,
            zimo_fan=self.self_draw_bonus == "fan",
            menqing=self.menqing,
            duanyaojiu=self.duanyaojiu,
            yitiaolong=self.yitiaolong,
            jiaxinwu=self.jiaxinwu,
            haidipao=self.haidipao,
            gen_counts=_GEN_COUNTS[self.gen_counts],
            max_fan=self.max_fan or 0,
            fan_table=[table[pid] for pid in PATTERN_IDS],
            multipliers=self.multipliers or (),
            shape=self._shape_code,
            jiang_patterns=self.jiang_patterns,
            kaertiao=self.kaertiao,
            single_wait=self.single_wait,
            earthly_win=_EARTHLY_WIN[self.earthly_win],
            tianhu_extra=tianhu,
            dihu_extra=dihu,
        )

    def _wild_scoring(self, wilds: Optional[frozenset[int]]) -> dict[str, Any]:
        """The §12 arguments of ``_core.ScoringRules``: the wild set (``None``: none yet, a 本金
        rule before the 本金 is known), wild_fifth_copy, wild_gen, 无鸡 and 四鸡."""
        four = self.four_wilds
        return {"wild_kinds": sum(1 << k for k in wilds or ()),
                "wild_fifth_copy": self.wild_fifth_copy,
                "wild_gen": ("fours", "natural", "per_wild").index(self.wild_gen),
                "no_wild_bonus": self.no_wild_bonus,
                "four_wilds": 0 if four is None else -1 if four == "cap" else four}

    def _scoring_for(self, benjin: Optional[int]) -> _core.ScoringRules:
        """The native scoring of one hand: :attr:`_scoring`, or under a 本金 rule the scoring with
        that hand's wild set (built once per 本金 kind)."""
        if benjin is None or not self.uses_benjin:
            return self._scoring
        cache: dict[int, _core.ScoringRules] = self.__dict__.setdefault("_benjin_scoring", {})
        scoring = cache.get(benjin)
        if scoring is None:
            from .. import _core

            scoring = _core.ScoringRules(**self._scoring_arguments(),
                                         **self._wild_scoring(self.wild_set(benjin)))
            cache[benjin] = scoring
        return scoring

    # -- dunder ------------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        # The cached native object is not picklable; it is rebuilt on first use.
        return {f.name: getattr(self, f.name) for f in _FIELDS}

    def __repr__(self) -> str:
        best_name, best_diff = "xueliu", None
        # A wild-tile preset is the nearest only to rules with some §12 knob set.
        wild = any(getattr(self, f.name) != f.default for f in _FIELDS if f.name in _SECTION12)
        for name in [*PRESETS, *(WILD_PRESETS if wild else ())]:
            p = Rules.preset(name)
            diff = {f.name: getattr(self, f.name) for f in _FIELDS
                    if getattr(self, f.name) != getattr(p, f.name)}
            if best_diff is None or len(diff) < len(best_diff):
                best_name, best_diff = name, diff
        assert best_diff is not None
        args = ", ".join(f"{k}={_repr_value(k, v)}" for k, v in best_diff.items())
        if best_name == "xueliu":
            return f"Rules({args})"
        return f"Rules.preset({best_name!r})" + (f".replace({args})" if args else "")


_FIELDS = dataclasses.fields(Rules)
KNOBS: tuple[str, ...] = tuple(f.name for f in _FIELDS)
"""Every knob name, in declaration order."""


SECTION11_KNOBS: tuple[str, ...] = (
    "players", "suits", "hand_size", "exchange_count", "self_draw_only", "min_fan_discard_win",
    "rob_kong", "added_kong_payment", "jiang_patterns", "earthly_win", "kaertiao", "single_wait",
)
"""The knobs docs/rules.md §11 added (values §11 added to older knobs, like mode 'daodaohu', need no
list: they are never defaults). ``to_dict`` writes them only away from their defaults."""
_SECTION11 = frozenset(SECTION11_KNOBS)

SECTION12_KNOBS: tuple[str, ...] = (
    "wild_kinds", "extra_wilds", "wild_gen", "no_wild_bonus", "four_wilds", "wild_fifth_copy",
    "wild_discard", "soft_peng", "soft_kong", "swap_back", "soft_kong_pay",
)
"""The wild-tile knobs of docs/rules.md §12. ``to_dict`` writes them only away from their defaults,
so a table without wilds is written as it was before §12."""
_SECTION12 = frozenset(SECTION12_KNOBS)
_LATER = _SECTION11 | _SECTION12
_SECTION11_PATTERNS = frozenset({"jiangqidui", "jiangjingoudiao"})

_GEN_COUNTS = {"all_fours": 0, "kongs_only": 1, "none": 2}
_STACKING: dict[Union[bool, str], int] = {False: 0, True: 1, "additive": 2}
_EARTHLY_WIN = {"first_draw": 0, "first_discard": 1, "either": 2}

_PRESET_CACHE: dict[str, Rules] = {}


def _check_names(knobs: Mapping[str, Any]) -> None:
    for name in knobs:
        if name not in KNOBS:
            raise ValueError(f"unknown knob {name!r}")


def _jsonable(v: Any) -> Any:
    if isinstance(v, (frozenset, set)):
        return sorted(v)
    if isinstance(v, (tuple, list)):
        return [_jsonable(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


def _repr_value(name: str, v: Any) -> str:
    if name == "fan_table":
        v = {k: x for k, x in v.items() if DEFAULT_FAN_TABLE[k] != x}
    if isinstance(v, frozenset):
        return "{" + ", ".join(map(repr, sorted(v))) + "}" if v else "frozenset()"
    return repr(v)


# The class docstring lists every knob with its default and meaning (help(Rules)).
Rules.__doc__ = (Rules.__doc__ or "").rstrip() + "\n" + "".join(
    f"\n    - ``{f.name}`` = "
    f"{'the standard table' if f.name == 'fan_table' else '``' + _repr_value(f.name, f.default) + '``'}:"
    f" {f.metadata['doc']}"
    for f in _FIELDS
) + "\n"
