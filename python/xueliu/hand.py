"""Single-hand analysis (RULES.md §5, §6): is_win, waits (下叫), shanten (向听数), evaluate,
best_discards (查听).

Each function takes a :class:`~xueliu.tiles.Hand` or notation text, ``void=None | "m" | "p" | "s"``
(or 万/筒/条) and ``rules=None`` (the ``xueliu`` preset):

>>> waits("12334577m23345p")
['1p', '4p']
>>> evaluate("11112345678999m").describe()
'清一色 3 + 根 ×1 = 4 番 ×8'

These are thin wrappers over the native core, kept lean: a ``Hand`` is not re-parsed, its native
twin and the default rules' native object are cached, and results come from precomputed tables.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _core
from .patterns import ADDITIVE_NAMES, EXTRA_IDS, PATTERN_IDS, PATTERN_NAMES
from .rules import Rules
from .tiles import _INDEX_OF, _SUIT_OF, TILE_NAMES, Hand, _counts_bytes, parse_hand

__all__ = [
    "FanResult",
    "WaitOption",
    "DiscardOption",
    "is_win",
    "waits",
    "shanten",
    "evaluate",
    "best_discards",
]

HandLike = Union[Hand, str]

# Module globals: one lookup on the hot path instead of two.
_is_win = _core.is_win
_waits = _core.waits
_shanten = _core.shanten
_evaluate = _core.evaluate
_best_discards_keys = _core.best_discards_keys

_SELF_DRAW = _core.SELF_DRAW
_KONG_REPLACEMENT = _core.KONG_REPLACEMENT
_AFTER_KONG_DISCARD = _core.AFTER_KONG_DISCARD
_ROBBED_KONG = _core.ROBBED_KONG
_LAST_TILE = _core.LAST_TILE
_HEAVENLY = _core.HEAVENLY
_EARTHLY = _core.EARTHLY

_DEFAULT_RULES = Rules.preset("xueliu")
_DEFAULT_SEVEN_PAIRS = _DEFAULT_RULES.seven_pairs

# void spelling -> native suit (-1 none).
_VOID: dict[Any, int] = {None: -1, **_SUIT_OF}
# win_tile: tile names (every suit spelling) and kind ints -> kind.
_TILE_ARG: dict[Any, int] = {**_INDEX_OF, **{k: k for k in range(27)}}

_TEXT_CACHE: dict[str, Hand] = {}


def _native_args(hand: object, void: object) -> tuple[_core.Hand, int]:
    """The native hand and the native void suit of the public arguments."""
    n = hand._nat if hand.__class__ is Hand else None  # a Hand's cached twin, without a call
    if n is None:
        n = _native_hand(hand)
    try:
        return n, _VOID[void]
    except (KeyError, TypeError):
        raise ValueError(
            f"void must be None, 'm', 'p', 's', '万', '筒' or '条', got {void!r}"
        ) from None


def _native_hand(hand: object) -> _core.Hand:
    """The native hand of a Hand or notation text (parsed hands are cached by text)."""
    if isinstance(hand, Hand):
        return hand._native
    if isinstance(hand, str):
        h = _TEXT_CACHE.get(hand)
        if h is None:
            h = parse_hand(hand)
            if len(_TEXT_CACHE) >= 4096:
                _TEXT_CACHE.clear()
            _TEXT_CACHE[hand] = h
        return h._native
    raise TypeError(f"hand must be a Hand or notation text, got {type(hand).__name__}")


def _evaluate_flags(self_draw: object, kong_replacement: object, after_kong_discard: object,
                    robbed_kong: object, last_tile: object, heavenly: object,
                    earthly: object) -> int:
    """The ``flags`` argument of ``_core.evaluate``: a bit per circumstance of the win (RULES §6.1);
    shared by :func:`evaluate`, :func:`xueliu.batch.evaluate` and the game engine."""
    return ((_SELF_DRAW if self_draw else 0) | (_KONG_REPLACEMENT if kong_replacement else 0)
            | (_AFTER_KONG_DISCARD if after_kong_discard else 0)
            | (_ROBBED_KONG if robbed_kong else 0) | (_LAST_TILE if last_tile else 0)
            | (_HEAVENLY if heavenly else 0) | (_EARTHLY if earthly else 0))


def _rules(rules: Any) -> Rules:
    if isinstance(rules, Rules):
        return rules
    raise TypeError(
        f"rules must be a Rules (or None for the xueliu preset), got {type(rules).__name__}"
    )


# -- results --------------------------------------------------------------------------------------


class FanResult(NamedTuple):
    """The score of a win (RULES §6): ``fan`` (capped) and its ``multiplier``, the ``base`` pattern
    id with its ``base_fan`` (uncapped), ``gen`` (after the pattern's exceptions), ``extras`` (the
    other additive fan ids, table order) and the Chinese names for display."""

    fan: int
    multiplier: int
    base: str
    base_fan: int
    gen: int
    extras: tuple[str, ...]
    base_name: str
    extra_names: tuple[str, ...]

    def describe(self) -> str:
        """One line for display: ``"清一色 3 + 根 ×1 + 自摸 1 = 5 番 ×16"``."""
        parts = [f"{self.base_name} {self.base_fan}"]
        if self.gen:
            parts.append(f"{ADDITIVE_NAMES['gen']} ×{self.gen}")
        parts.extend(f"{name} 1" for name in self.extra_names)
        raw = self.base_fan + self.gen + len(self.extras)
        total = f"{raw} 番" if raw == self.fan else f"{raw} 番, 封顶 {self.fan} 番"
        return f"{' + '.join(parts)} = {total} ×{self.multiplier}"


class WaitOption(NamedTuple):
    """One wait of a ready hand: the ``tile``, how many copies remain unseen, and the fan it scores
    won on a discard (``discard_win``) and by self-draw (``self_draw``)."""

    tile: str
    remaining: int
    discard_win: FanResult
    self_draw: FanResult


class DiscardOption(NamedTuple):
    """One discard of a hand one tile over (查听): the tile, the shanten after it, and where ready
    (shanten 0) the waits with their remaining counts (``total_remaining`` sums them)."""

    discard: str
    shanten: int
    total_remaining: int
    waits: tuple[WaitOption, ...]


_EXTRA_NAME_LIST = tuple(ADDITIVE_NAMES[e] for e in EXTRA_IDS)
_EXTRAS_OF = tuple(
    tuple(e for i, e in enumerate(EXTRA_IDS) if mask >> i & 1) for mask in range(1 << len(EXTRA_IDS))
)
_EXTRA_NAMES_OF = tuple(
    tuple(n for i, n in enumerate(_EXTRA_NAME_LIST) if mask >> i & 1)
    for mask in range(1 << len(EXTRA_IDS))
)
_PATTERN_NAME_LIST = tuple(PATTERN_NAMES[p] for p in PATTERN_IDS)

_FAN_CACHE: dict[_core.FanTuple, FanResult] = {}


def _fan_result(t: _core.FanTuple) -> FanResult:
    """FanResult of a native fan tuple (fan, multiplier, code, base_fan, gen, extras mask)."""
    r = _FAN_CACHE.get(t)
    if r is None:
        fan, mult, code, base_fan, gen, mask = t
        r = FanResult(
            fan, mult, PATTERN_IDS[code], base_fan, gen,
            _EXTRAS_OF[mask], _PATTERN_NAME_LIST[code], _EXTRA_NAMES_OF[mask],
        )
        if len(_FAN_CACHE) >= 65536:
            _FAN_CACHE.clear()
        _FAN_CACHE[t] = r
    return r


_WAITS_CACHE: dict[int, tuple[str, ...]] = {}


def _wait_names(mask: int) -> tuple[str, ...]:
    t = _WAITS_CACHE.get(mask)
    if t is None:
        t = tuple(TILE_NAMES[k] for k in range(27) if mask >> k & 1)
        if len(_WAITS_CACHE) >= 65536:
            _WAITS_CACHE.clear()
        _WAITS_CACHE[mask] = t
    return t


# -- the API ----------------------------------------------------------------------------------------


def is_win(hand: HandLike, *, void: Optional[str] = None, rules: Optional[Rules] = None) -> bool:
    """Whether a hand of 14 - 3k concealed tiles (the winning tile included) is a complete win
    that respects 缺一门 and ``void``: ``is_win("23445677p345789s") is True``."""
    n, v = _native_args(hand, void)
    return _is_win(n, v, _DEFAULT_SEVEN_PAIRS if rules is None else _rules(rules).seven_pairs)


def waits(hand: HandLike, *, void: Optional[str] = None, rules: Optional[Rules] = None) -> list[str]:
    """The tiles that complete a 13 - 3k hand, in kind order: ``waits("12334577m23345p") ==
    ["1p", "4p"]`` (kinds already held four times, melds included, are not waits)."""
    n, v = _native_args(hand, void)
    mask = _waits(n, v, _DEFAULT_SEVEN_PAIRS if rules is None else _rules(rules).seven_pairs)
    t = _WAITS_CACHE.get(mask)  # the usual cache hit without a call (as in evaluate)
    if t is None:
        t = _wait_names(mask)
    return list(t)


def shanten(hand: HandLike, *, void: Optional[str] = None, rules: Optional[Rules] = None) -> int:
    """Exact shanten of a 13 - 3k or 14 - 3k hand (RULES §5): -1 complete, 0 ready, ...
    ``shanten("12334577m23345p") == 0``."""
    n, v = _native_args(hand, void)
    return _shanten(n, v, _DEFAULT_SEVEN_PAIRS if rules is None else _rules(rules).seven_pairs)


def evaluate(
    hand: HandLike,
    *,
    void: Optional[str] = None,
    win_tile: Union[str, int, None] = None,
    self_draw: bool = False,
    kong_replacement: bool = False,
    after_kong_discard: bool = False,
    robbed_kong: bool = False,
    last_tile: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    rules: Optional[Rules] = None,
) -> FanResult:
    """Score a winning hand (14 - 3k concealed tiles, the winning tile included; RULES §6, §6.1):
    ``evaluate("11122233345678m", self_draw=True).base == "qingyise"``. ``win_tile`` (only 夹心五
    reads it) must be one of the concealed tiles. A hand that is not a win, a wrong tile count or
    contradictory flags are a ``ValueError``."""
    n, v = _native_args(hand, void)
    sc = _DEFAULT_RULES._scoring if rules is None else _rules(rules)._scoring
    if win_tile is None:
        wt = -1
    else:
        if isinstance(win_tile, (bool, np.bool_)):
            raise TypeError(
                f"win_tile must be a tile name like '5m' or a kind 0..26, got {win_tile!r}"
            )
        try:
            wt = _TILE_ARG[win_tile]
        except (KeyError, TypeError):
            raise ValueError(
                f"win_tile {win_tile!r} is not a tile (expected e.g. '5m' or a kind 0..26)"
            ) from None
    flags = _evaluate_flags(self_draw, kong_replacement, after_kong_discard, robbed_kong,
                            last_tile, heavenly, earthly)
    t = _evaluate(n, v, sc, wt, flags)
    r = _FAN_CACHE.get(t)
    return r if r is not None else _fan_result(t)


_U8 = np.dtype(np.uint8)
_tuple_new = tuple.__new__  # skips the NamedTuple __new__ wrapper: results are built in hot loops

# Discard options without waits are shared (they are immutable): by shanten, then kind.
_NO_WAITS = [
    [_tuple_new(DiscardOption, (TILE_NAMES[d], sh, 0, ())) for d in range(27)] for sh in range(16)
]
# WaitOption by wait key and DiscardOption by native option of _core.best_discards_keys, one pair
# of tables per native rules object (a key leaves out the multipliers, which follow from the fan
# and the rules). All are immutable, so they are shared.
_WAIT_CACHES: dict[
    int, tuple[_core.ScoringRules, dict[Any, WaitOption], dict[Any, DiscardOption]]
] = {}
_ZIMO_BIT = 1 << EXTRA_IDS.index("zimo")
# Bounds that keep the caches to a few tens of MB in the worst case (a server juggling many Rules).
_MAX_RULES_CACHED = 8
_MAX_OPTIONS_CACHED = 8192


def _wait_cache(
    sc: _core.ScoringRules,
) -> tuple[_core.ScoringRules, dict[Any, WaitOption], dict[Any, DiscardOption]]:
    """The tables of a native rules object (the entry keeps the object alive, so its id is not
    reused while the entry lives)."""
    if len(_WAIT_CACHES) >= _MAX_RULES_CACHED:
        _WAIT_CACHES.clear()
    entry = _WAIT_CACHES[id(sc)] = (sc, {}, {})
    return entry


def _wait_option(key: Any, sc: _core.ScoringRules, cache: dict[Any, WaitOption]) -> WaitOption:
    """WaitOption of a wait key of ``_core.best_discards_keys`` (see there for the bits)."""
    if key.__class__ is tuple:
        w, rem, a, b = key
    else:
        w, rem = key & 31, key >> 5 & 7
        code, mask, zimo = key >> 8 & 31, key >> 13 & 1023, key >> 23 & 1
        gen, base_fan, fan_a, fan_b = key >> 24 & 63, key >> 30 & 1023, key >> 40 & 4095, key >> 52
        # The core has checked that the multipliers table reaches both fans.
        table = sc.multipliers
        mult_a = table[fan_a - 1] if table else 1 << (fan_a - 1)
        mult_b = table[fan_b - 1] if table else 1 << (fan_b - 1)
        a = (fan_a, mult_a, code, base_fan, gen, mask)
        b = (fan_b, mult_b, code, base_fan, gen, mask | (_ZIMO_BIT if zimo else 0))
    o = _tuple_new(WaitOption, (TILE_NAMES[w], rem, _fan_result(a), _fan_result(b)))
    if len(cache) >= _MAX_OPTIONS_CACHED:
        cache.clear()
    cache[key] = o
    return o


def _visible_bytes(visible: Any) -> bytes:
    """27 visible counts as bytes, from uint8[27], a sequence of 27 ints, notation text or a Hand
    (its tiles, melds included)."""
    if visible.__class__ is np.ndarray and visible.dtype is _U8 and visible.shape == (27,):
        b = visible.tobytes()
        if max(b) <= 4:
            return b
        k = next(k for k in range(27) if b[k] > 4)
        raise ValueError(f"visible: count {b[k]} of {TILE_NAMES[k]} out of range 0..4")
    if isinstance(visible, str):
        return parse_hand(visible).held().tobytes()
    if isinstance(visible, Hand):
        return visible.held().tobytes()
    try:
        return _counts_bytes(visible)
    except (ValueError, TypeError) as e:
        raise type(e)(f"visible: {e}") from None


def best_discards(
    hand: HandLike,
    *,
    visible: Union[np.ndarray, Sequence[int], str, None] = None,
    void: Optional[str] = None,
    rules: Optional[Rules] = None,
) -> list[DiscardOption]:
    """查听 for a hand one tile over (14 - 3k concealed tiles): one option per distinct discard,
    best first (lower shanten, more remaining winning tiles, higher fan). ``visible`` counts the
    tiles seen elsewhere (discards, others' melds) for the remaining counts:
    ``best_discards("123456789m12345p")[0].discard == "1p"``."""
    n, v = _native_args(hand, void)
    sc = _DEFAULT_RULES._scoring if rules is None else _rules(rules)._scoring
    vis = None if visible is None else _visible_bytes(visible)
    entry = _WAIT_CACHES.get(id(sc))
    if entry is None:
        entry = _wait_cache(sc)
    raw = _best_discards_keys(n, vis, v, sc)
    try:
        return list(map(entry[2].__getitem__, raw))  # the usual case: every option seen before
    except KeyError:
        options = entry[2]
        return [options[r] if r in options else _discard_option(r, sc, entry) for r in raw]


def _discard_option(raw: tuple[int, int, int, tuple[Any, ...]], sc: _core.ScoringRules,
                    entry: tuple[Any, dict[Any, WaitOption], dict[Any, DiscardOption]]
                    ) -> DiscardOption:
    """DiscardOption of a native option of ``_core.best_discards_keys``, cached in ``entry``."""
    d, sh, total, ks = raw
    if not ks and total == 0 and 0 <= sh < 16:
        o = _NO_WAITS[sh][d]
    else:
        cache = entry[1]
        opts = tuple(cache[k] if k in cache else _wait_option(k, sc, cache) for k in ks)
        o = _tuple_new(DiscardOption, (TILE_NAMES[d], sh, total, opts))
    options = entry[2]
    if len(options) >= _MAX_OPTIONS_CACHED:
        options.clear()
    options[raw] = o
    return o
