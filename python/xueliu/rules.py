"""Rule configuration: every knob of RULES.md §3–§10 in one frozen, validated object.

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
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Iterator, Optional, TypeVar, Union

from .patterns import DEFAULT_FAN_TABLE, PATTERN_IDS

if TYPE_CHECKING:
    from . import _core

__all__ = ["Rules", "FrozenMap", "KNOBS", "PRESETS"]

# The largest fan_table value (the native core's limit too). A `multipliers` table gives large
# values a meaning; without one, 2 ** (fan - 1) must fit in 64 bits, which __post_init__ checks for
# the whole configuration (_MAX_POWER_FAN).
_MAX_TABLE_FAN = 1000
_MAX_POWER_FAN = 63


_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenMap(Mapping[_K, _V], Generic[_K, _V]):
    """A read-only, hashable mapping (used for ``fan_table`` and ``player_multipliers``)."""

    __slots__ = ("_d", "_h")
    _d: dict[_K, _V]
    _h: Optional[int]  # the hash, computed on first use

    def __init__(self, items: Union[Mapping[_K, _V], Iterable[tuple[_K, _V]]] = ()) -> None:
        object.__setattr__(self, "_d", dict(items))
        object.__setattr__(self, "_h", None)

    def __getitem__(self, key: _K) -> _V:
        return self._d[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        h = self._h
        if h is None:
            h = hash(frozenset(self._d.items()))
            object.__setattr__(self, "_h", h)
        return h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._d == dict(other.items())
        return NotImplemented

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("FrozenMap is read-only")

    def __repr__(self) -> str:
        return repr(self._d)

    def __reduce__(self) -> tuple[type[FrozenMap[_K, _V]], tuple[dict[_K, _V]]]:
        return (FrozenMap, (self._d,))


# ---------------------------------------------------------------------------------------------
# Validators: each takes (knob, value) and returns the normalised value or raises ValueError
# naming the knob and the bad value.


def _bad(knob: str, value: Any, expected: str) -> ValueError:
    return ValueError(f"bad value for knob {knob!r}: {value!r} (expected {expected})")


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _bool(knob: str, v: Any) -> bool:
    if type(v) is not bool:
        raise _bad(knob, v, "True or False")
    return v


def _enum(*choices: str) -> Callable[[str, Any], str]:
    def check(knob: str, v: Any) -> str:
        if not isinstance(v, str) or v not in choices:
            raise _bad(knob, v, "one of " + ", ".join(repr(c) for c in choices))
        return v

    return check


def _int_at_least(lo: int) -> Callable[[str, Any], int]:
    def check(knob: str, v: Any) -> int:
        if not _is_int(v) or v < lo:
            raise _bad(knob, v, f"an int >= {lo}")
        return int(v)

    return check


def _max_fan(knob: str, v: Any) -> Optional[int]:
    if v is None:
        return None
    if not _is_int(v) or v < 1:
        raise _bad(knob, v, "None or an int >= 1")
    return int(v)


def _base(knob: str, v: Any) -> Union[int, str]:
    if isinstance(v, str) and v == "auto":
        return v
    if not _is_int(v) or v < 1:
        raise _bad(knob, v, "an int >= 1 or 'auto'")
    return int(v)


def _sequence(v: Any) -> bool:
    return isinstance(v, (list, tuple))


_KONG_KINDS = ("concealed", "direct", "added")


def _post_win_kongs(knob: str, v: Any) -> frozenset[str]:
    if not isinstance(v, (set, frozenset, list, tuple)):
        raise _bad(knob, v, "a set of 'concealed', 'direct', 'added'")
    for m in v:
        if not isinstance(m, str) or m not in _KONG_KINDS:
            raise ValueError(
                f"bad value for knob {knob!r}: member {m!r} of {v!r}"
                " (expected a subset of 'concealed', 'direct', 'added')"
            )
    return frozenset(v)


def _multipliers(knob: str, v: Any) -> Optional[tuple[int, ...]]:
    if v is None:
        return None
    if not _sequence(v) or not v:
        raise _bad(knob, v, "None or a non-empty list of ints >= 0 (entry i = multiplier of fan i+1)")
    for i, m in enumerate(v):
        if not _is_int(m) or not 0 <= m < 2**63:
            raise ValueError(
                f"bad value for knob {knob!r}: entry {i} is {m!r} (expected an int >= 0)"
            )
    return tuple(int(m) for m in v)


def _fan_table(knob: str, v: Any) -> FrozenMap[str, int]:
    if v is None:
        return _STANDARD_FAN_TABLE
    if not isinstance(v, Mapping):
        raise _bad(knob, v, "a mapping {pattern_id: fan}")
    for pid, fan in v.items():
        if pid not in DEFAULT_FAN_TABLE:
            raise ValueError(
                f"bad value for knob {knob!r}: unknown pattern id {pid!r}"
                f" (expected one of {', '.join(PATTERN_IDS)})"
            )
        if not _is_int(fan) or not 1 <= fan <= _MAX_TABLE_FAN:
            raise ValueError(
                f"bad value for knob {knob!r}: fan {fan!r} for {pid!r}"
                f" (expected an int 1..{_MAX_TABLE_FAN})"
            )
    merged = dict(DEFAULT_FAN_TABLE)
    merged.update((pid, int(fan)) for pid, fan in v.items())
    if merged == DEFAULT_FAN_TABLE:
        return _STANDARD_FAN_TABLE
    return FrozenMap(merged)


def _player_multipliers(knob: str, v: Any) -> Optional[FrozenMap[str, Any]]:
    if v is None:
        return None
    expected = "None or {'allowed': (2, 4, 8), 'default': 8}"
    if not isinstance(v, Mapping):
        raise _bad(knob, v, expected)
    if set(v) != {"allowed", "default"}:
        raise _bad(knob, v, expected + " with exactly the keys 'allowed' and 'default'")
    allowed, default = v["allowed"], v["default"]
    if not _sequence(allowed) or not allowed or not all(_is_int(a) and a >= 1 for a in allowed):
        raise ValueError(
            f"bad value for knob {knob!r}: allowed {allowed!r} (expected a non-empty list of ints >= 1)"
        )
    if len(set(allowed)) != len(allowed):
        raise ValueError(f"bad value for knob {knob!r}: allowed {allowed!r} repeats a value")
    if not _is_int(default) or default not in allowed:
        raise ValueError(
            f"bad value for knob {knob!r}: default {default!r} is not one of allowed {allowed!r}"
        )
    return FrozenMap({"allowed": tuple(int(a) for a in allowed), "default": int(default)})


_STANDARD_FAN_TABLE = FrozenMap(DEFAULT_FAN_TABLE)


def _knob(default: Any, check: Callable[[str, Any], Any], doc: str) -> Any:
    return field(default=default, metadata={"doc": doc, "check": check})


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Rules:
    """A complete rule configuration (RULES.md §9): one value per knob, validated, immutable.

    ``Rules()`` is the ``xueliu`` preset; ``Rules.preset("xuezhan")`` the other one;
    ``rules.replace(**knobs)`` derives a variant. Rule values shown as tuples or sets in RULES may be
    given as lists (rules travel through JSON: ``to_dict`` / ``from_dict``).

    Knobs (default = the ``xueliu`` preset):
    """

    # -- game flow (RULES §3, §4, §5, §8) --
    mode: str = _knob(
        "xueliu", _enum("xueliu", "xuezhan"),
        "'xueliu' 血流成河: nobody leaves after a win | 'xuezhan' 血战到底: the winner leaves play.",
    )
    exchange_three: bool = _knob(True, _bool, "换三张: each seat passes three tiles before play.")
    exchange_direction: str = _knob(
        "dice", _enum("dice", "random", "next", "opposite", "previous"),
        "Whom each seat receives the three tiles from: 'dice' (one die) | 'random' | 'next' |"
        " 'opposite' | 'previous'.",
    )
    exchange_same_suit: bool = _knob(True, _bool, "The three exchanged tiles must be of one suit.")
    declare_void: bool = _knob(True, _bool, "定缺: each seat declares a suit it must shed.")
    player_multipliers: Optional[Mapping[str, Any]] = _knob(
        None, _player_multipliers,
        "选倍/加倍: None (off) or {'allowed': (2, 4, 8), 'default': 8}; payments use both seats' choices.",
    )
    kong_draw_from: str = _knob(
        "front", _enum("front", "back"), "Where kong replacement tiles come from: 'front' | 'back'."
    )
    pass_blocks_discard_win: str = _knob(
        "off", _enum("off", "not_higher", "any"),
        "过水不胡: after passing a discard win, 'off' | 'not_higher' (no discard win worth the same or"
        " less) | 'any' (no discard win) until the seat's next draw.",
    )
    forced_win_last_n: int = _knob(
        0, _int_at_least(0), "Within the last N wall tiles every possible win is taken automatically."
    )
    multiple_winners: bool = _knob(
        True, _bool, "一炮多响: several seats may win on one discard (off: first in turn order)."
    )
    post_win_kongs: frozenset[str] = _knob(
        frozenset({"concealed", "direct"}), _post_win_kongs,
        "xueliu: kongs a winner may still make, a subset of {'concealed', 'direct', 'added'}.",
    )
    next_dealer: str = _knob(
        "dice", _enum("dice", "first_winner", "rotate"),
        "Dealer of the next hand in a match: 'dice' | 'first_winner' | 'rotate'.",
    )
    # -- scoring (RULES §6) --
    seven_pairs: bool = _knob(True, _bool, "七对 family: seven-pairs hands win.")
    jingoudiao: bool = _knob(
        False, _bool, "金钩钓 family: 金钩钓, 清金钩钓, 十八罗汉, 清十八罗汉, 九莲宝灯 score."
    )
    heavenly_earthly: bool = _knob(False, _bool, "天胡/地胡 score (and the dealer may win on 14).")
    haidi: bool = _knob(False, _bool, "海底捞月: +1 fan for a self-draw on the last wall tile.")
    self_draw_bonus: str = _knob(
        "base", _enum("base", "none", "fan"),
        "自摸 bonus: 'base' (each payer adds 1 base) | 'none' | 'fan' (+1 fan).",
    )
    menqing: bool = _knob(False, _bool, "门清: +1 fan with no peng and no exposed kong.")
    gen_counts: str = _knob(
        "all_fours", _enum("all_fours", "kongs_only", "none"),
        "根: 'all_fours' (every kind held 4 times) | 'kongs_only' | 'none'.",
    )
    duanyaojiu: bool = _knob(False, _bool, "断幺九: +1 fan with no 1 or 9 anywhere.")
    yitiaolong: bool = _knob(False, _bool, "一条龙: +1 fan for 123, 456 and 789 of one suit.")
    jiaxinwu: bool = _knob(False, _bool, "夹心五: +1 fan when the winning 5 is the middle of a 456.")
    haidipao: bool = _knob(False, _bool, "海底炮: +1 fan for a discard win after the last wall tile.")
    fan_table: Mapping[str, int] = _knob(
        _STANDARD_FAN_TABLE, _fan_table,
        "Fan of each base pattern id; partial overrides {id: fan} merge onto the standard table.",
    )
    multipliers: Optional[tuple[int, ...]] = _knob(
        None, _multipliers,
        "None (2 ** (fan - 1)) or a tuple whose entry i is the multiplier of fan i + 1.",
    )
    max_fan: Optional[int] = _knob(None, _max_fan, "封顶: cap on the total fan (None: no cap).")
    # -- settlement (RULES §7) --
    direct_kong_others: int = _knob(
        1, _int_at_least(0), "刮风 direct kong: what each seat other than the discarder pays."
    )
    kong_settle: str = _knob(
        "immediate", _enum("immediate", "on_win"),
        "Kong payments: 'immediate' | 'on_win' (collected only if the konger later wins).",
    )
    call_transfer: bool = _knob(True, _bool, "呼叫转移: on 杠上炮 the konger hands that kong's income to the winner.")
    pig_penalty: int = _knob(16, _int_at_least(0), "查花猪: base units a flower pig pays each payee.")
    pig_payees: str = _knob(
        "unwon_non_pig", _enum("unwon_non_pig", "all_non_pig"),
        "Who a flower pig pays: 'unwon_non_pig' | 'all_non_pig' (winners included).",
    )
    ready_check_payees: str = _knob(
        "unwon", _enum("unwon", "all"), "查大叫: which ready seats a not-ready seat pays: 'unwon' | 'all'."
    )
    dead_waits_ready: bool = _knob(
        True, _bool, "A hand whose every wait is fully visible still counts as ready (off: 死叫)."
    )
    refund_kongs: bool = _knob(True, _bool, "退税: not-ready seats return their kong income.")
    dian_gang_hua: str = _knob(
        "self_draw", _enum("self_draw", "discarder"),
        "点杠花: 'self_draw' (paid as a self-draw) | 'discarder' (the konged discarder pays alone).",
    )
    escape_penalty: int = _knob(3, _int_at_least(0), "逃跑: base units an escaper pays the house.")
    base: Union[int, str] = _knob(
        1, _base, "底分: base stake, an int >= 1 or 'auto' (1% of the smallest stack, needs coins)."
    )
    room: int = _knob(1, _int_at_least(1), "房间系数: room coefficient multiplying every payment.")
    service_fee: int = _knob(0, _int_at_least(0), "Service fee each seat pays the house per hand.")

    def __post_init__(self) -> None:
        for f in _FIELDS:
            value = getattr(self, f.name)
            normal = f.metadata["check"](f.name, value)
            if normal is not value:
                object.__setattr__(self, f.name, normal)
        if self.multipliers is None and self.highest_fan() > _MAX_POWER_FAN:
            raise ValueError(
                f"bad value for knob 'fan_table': a win can reach {self.highest_fan()} fan under"
                f" these rules, and 2 ** (fan - 1) stops at {_MAX_POWER_FAN} fan (64 bits); give"
                f" a 'multipliers' table or set 'max_fan' <= {_MAX_POWER_FAN}"
            )

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> "Rules":
        """The rules of one preset (RULES §9): ``Rules.preset("xueliu")`` or ``"xuezhan"``."""
        try:
            overrides = PRESETS[name]
        except (KeyError, TypeError):
            raise ValueError(
                f"unknown preset {name!r} (expected one of {', '.join(map(repr, PRESETS))})"
            ) from None
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
        """Every knob as JSON-ready data (tuples -> lists, sets -> sorted lists, maps -> dicts)."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in _FIELDS}

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
        that a ``multipliers`` table reaches this far before it starts (RULES §6: the table must
        cover every fan the configuration can reach), so a win never meets a missing entry.
        """
        family = {"jingoudiao", "qingjingoudiao", "shibaluohan", "qingshibaluohan", "jiulianbaodeng"}
        seven = {"qidui", "longqidui", "qingqidui", "qinglongqidui", "qingsanlongqidui"}
        allowed = [pid for pid in PATTERN_IDS
                   if (pid not in family or self.jingoudiao)
                   and (pid not in seven or self.seven_pairs)
                   and (pid not in ("tianhu", "dihu") or self.heavenly_earthly)]
        base = max(self.fan_table[pid] for pid in allowed)
        gens = 0 if self.gen_counts == "none" else 4
        shared = self.menqing + self.duanyaojiu + self.yitiaolong + self.jiaxinwu
        self_draw = 1 + self.haidi + (self.self_draw_bonus == "fan")  # 杠上花, 海底捞月, 自摸
        discard = 1 + self.haidipao  # 杠上炮 or 抢杠胡, 海底炮
        total = base + gens + shared + max(self_draw, discard)
        return min(total, self.max_fan) if self.max_fan else total

    # -- native ------------------------------------------------------------------------------

    @functools.cached_property
    def _scoring(self) -> _core.ScoringRules:
        """The cached native ``_core.ScoringRules`` of these rules."""
        from . import _core

        table = self.fan_table
        return _core.ScoringRules(
            seven_pairs=self.seven_pairs,
            jingoudiao=self.jingoudiao,
            heavenly_earthly=self.heavenly_earthly,
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
        )

    # -- dunder ------------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        # The cached native object is not picklable; it is rebuilt on first use.
        return {f.name: getattr(self, f.name) for f in _FIELDS}

    def __repr__(self) -> str:
        best_name, best_diff = "xueliu", None
        for name in PRESETS:
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


_GEN_COUNTS = {"all_fours": 0, "kongs_only": 1, "none": 2}

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
}
"""Knob overrides of each preset on the defaults (RULES §9); use :meth:`Rules.preset`."""

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
