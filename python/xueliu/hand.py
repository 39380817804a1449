"""Single-hand analysis (docs/rules.md §5, §6): is_win, waits (下叫), shanten (向听数), evaluate,
best_discards (查听).

Each function takes the hand as a :class:`~xueliu.tiles.Hand`, notation text, a sequence of tile
names or 27 counts (``uint8[27]`` or a sequence of ints; with those two, ``melds=`` takes ``Meld``
or ``(kind, tile)`` pairs), ``void=None | "m" | "p" | "s"`` (or 万/筒/条) and ``rules=None`` (the
``xueliu`` preset), a :class:`~xueliu.rules.Rules` or a preset name:

>>> waits("12334577m23345p")
['1p', '4p']
>>> is_win(["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m", "9m"])
True
>>> evaluate("11112345678999m").describe()
'清一色 3 + 根 ×1 = 4 番 ×8'

These are thin wrappers over the native core, kept lean: the core reads every form of the hand
itself (no Python loop builds a ``Hand``), a ``Hand`` passes its cached native twin, and the
discard options of :func:`best_discards` are built natively.
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _core
from .patterns import ADDITIVE_NAMES, EXTRA_IDS, PATTERN_CODES, PATTERN_NAMES
from .rules import PRESETS, Rules
from .hand_wilds import wild_args as _wild_args
from .hand_wilds import wild_hand as _wild_hand
from .hand_wilds import wild_left as _wild_left
from .hand_wilds import wild_visible as _wild_visible
from .hand_wilds import wild_win_tile as _wild_win_tile
from .tiles import _INDEX_OF, _SUIT_OF, TILE_NAMES, Hand, Meld, _melds_tuple

__all__ = [
    "FanResult",
    "WaitOption",
    "DiscardOption",
    "is_win",
    "waits",
    "shanten",
    "evaluate",
    "best_discards",
    "jinzhang",
]

HandLike = Union[Hand, str, Sequence[str], Sequence[int], np.ndarray]
"""A hand: a ``Hand``, notation text, a sequence of tile names, or 27 counts."""
MeldsLike = Optional[Iterable[Union[Meld, tuple[str, Union[str, int]]]]]
"""Melds beside a tile list or counts: ``Meld`` or ``(kind, tile)`` pairs."""
RulesLike = Union[Rules, str, None]
"""A ``Rules``, a preset name (``"xueliu"``, ``"xuezhan"``) or None (the ``xueliu`` preset)."""

# Module globals: one lookup on the hot path instead of two.
_is_win = _core.is_win
_waits = _core.waits
_shanten = _core.shanten
_evaluate = _core.evaluate
_discard_options = _core.discard_options
_jinzhang = _core.jinzhang

_SELF_DRAW = _core.SELF_DRAW
_KONG_REPLACEMENT = _core.KONG_REPLACEMENT
_AFTER_KONG_DISCARD = _core.AFTER_KONG_DISCARD
_ROBBED_KONG = _core.ROBBED_KONG
_LAST_TILE = _core.LAST_TILE
_HEAVENLY = _core.HEAVENLY
_EARTHLY = _core.EARTHLY

_DEFAULT_RULES = Rules.preset("xueliu")
# The core's shape code of the default table (1: 13 tiles, three suits, seven pairs on); a Rules
# passes its own (rules._shape_code: hand size, suits in play, seven_pairs; docs/rules.md §11.1).
_DEFAULT_SHAPE = _DEFAULT_RULES._shape_code

# void spelling -> native suit (-1 none).
_VOID: dict[Any, int] = {None: -1, **_SUIT_OF}
# win_tile: tile names (every suit spelling) and kind ints -> kind.
_TILE_ARG: dict[Any, int] = {**_INDEX_OF, **{k: k for k in range(27)}}


def _void(void: object) -> int:
    try:
        return _VOID[void]
    except (KeyError, TypeError):
        raise ValueError(
            f"void must be None, 'm', 'p', 's', '万', '筒' or '条', got {void!r}"
        ) from None


def _native(hand: object) -> Any:
    """What the core takes for ``hand``: a Hand's native twin, anything else as it is (the core
    reads text, tile names and counts itself, and raises TypeError for other types)."""
    if isinstance(hand, Hand):
        n = hand._nat
        return hand._native if n is None else n
    return hand


def _meld_pairs(melds: MeldsLike) -> list[tuple[int, int]]:
    """The core's ``(type, kind)`` pairs of ``melds=`` (``Meld`` or ``(kind, tile)`` pairs)."""
    return [(m.type, m.index) for m in _melds_tuple(melds)]  # type: ignore[arg-type]


def _evaluate_flags(self_draw: object, kong_replacement: object, after_kong_discard: object,
                    robbed_kong: object, last_tile: object, heavenly: object,
                    earthly: object) -> int:
    """The ``flags`` argument of ``_core.evaluate``: a bit per circumstance of the win (docs/rules.md §6.1);
    shared by :func:`evaluate`, :func:`xueliu.batch.evaluate` and the game engine."""
    return ((_SELF_DRAW if self_draw else 0) | (_KONG_REPLACEMENT if kong_replacement else 0)
            | (_AFTER_KONG_DISCARD if after_kong_discard else 0)
            | (_ROBBED_KONG if robbed_kong else 0) | (_LAST_TILE if last_tile else 0)
            | (_HEAVENLY if heavenly else 0) | (_EARTHLY if earthly else 0))


def _rules(rules: Any) -> Rules:
    """The Rules of a ``rules=`` argument: a Rules, or a preset name (None is the caller's)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)  # ValueError naming the presets for an unknown name
    raise TypeError(
        f"rules must be a Rules, a preset name ({', '.join(map(repr, PRESETS))}) or None, "
        f"got {type(rules).__name__}"
    )


# -- results --------------------------------------------------------------------------------------


class FanResult(NamedTuple):
    """The score of a win (docs/rules.md §6): ``fan`` (capped) and its ``multiplier``, the ``base`` pattern
    id with its ``base_fan`` (uncapped), ``gen`` (after the pattern's exceptions), ``extras`` (the
    other additive fan ids, table order) and the Chinese names for display; ``stacked_fan`` is
    what an additive 天胡 / 地胡 (docs/rules.md §11.3) or 无鸡 (``no_wild_bonus``, §12.2) adds
    beyond the one fan every extra counts (0 otherwise), so the uncapped total is ``base_fan + gen
    + len(extras) + stacked_fan``.

    ``base_name`` is the 13-tile name; :func:`xueliu.patterns.pattern_name` gives the 四对 names
    of 7-tile hands."""

    fan: int
    multiplier: int
    base: str
    base_fan: int
    gen: int
    extras: tuple[str, ...]
    base_name: str
    extra_names: tuple[str, ...]
    stacked_fan: int = 0

    def __repr__(self) -> str:
        # stacked_fan only where it says something (an additive 天胡 / 地胡), so a §1-§10 result
        # reads as it always did.
        fields = self._fields if self.stacked_fan else self._fields[:-1]
        return "FanResult(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in fields) + ")"

    def describe(self) -> str:
        """One line for display: ``"清一色 3 + 根 ×1 + 自摸 1 = 5 番 ×16"``."""
        parts = [f"{self.base_name} {self.base_fan}"]
        if self.gen:
            parts.append(f"{ADDITIVE_NAMES['gen']} ×{self.gen}")
        stacked = self.stacked_fan  # shown on the first extra that may stack (one in practice)
        for e, name in zip(self.extras, self.extra_names):
            more = stacked if e in _STACKED else 0
            stacked -= more
            parts.append(f"{name} {1 + more}")
        raw = self.base_fan + self.gen + len(self.extras) + self.stacked_fan
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
    """One discard of a hand one tile over (查听): the tile, the shanten after it, where ready
    (shanten 0) the waits with their remaining counts (``total_remaining`` sums them), and its
    进张 ``jinzhang``: ``(tile, remaining)`` for every kind whose draw lowers the shanten (for a
    ready option, its waits; remaining 0 when every copy is in sight), ``jinzhang_total`` their
    remaining summed."""

    discard: str
    shanten: int
    total_remaining: int
    waits: tuple[WaitOption, ...]
    jinzhang: tuple[tuple[str, int], ...]
    jinzhang_total: int


_STACKED = frozenset({"tianhu", "dihu", "wuji"})  # the extras worth more than one fan
_EXTRA_NAME_LIST = tuple(ADDITIVE_NAMES[e] for e in EXTRA_IDS)
# The extras of a mask, built on first use (16 extras: 65536 masks, few of them ever met).
_EXTRAS_OF: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _extras_of(mask: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    t = _EXTRAS_OF.get(mask)
    if t is None:
        bits = [i for i in range(len(EXTRA_IDS)) if mask >> i & 1]
        t = _EXTRAS_OF[mask] = (tuple(EXTRA_IDS[i] for i in bits),
                                tuple(_EXTRA_NAME_LIST[i] for i in bits))
    return t


_PATTERN_NAME_LIST = tuple(PATTERN_NAMES[p] for p in PATTERN_CODES)

_FAN_CACHE: dict[_core.FanTuple, FanResult] = {}


def _fan_result(t: _core.FanTuple) -> FanResult:
    """FanResult of a native fan tuple (fan, multiplier, code, base_fan, gen, extras: the mask in
    bits 0..15, the stacked fan of an additive 天胡 / 地胡 above them)."""
    r = _FAN_CACHE.get(t)
    if r is None:
        fan, mult, code, base_fan, gen, packed = t
        extras, names = _extras_of(packed & 0xFFFF)
        r = FanResult(
            fan, mult, PATTERN_CODES[code], base_fan, gen,
            extras, _PATTERN_NAME_LIST[code], names, packed >> 16,
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


def _wild_call(call: Any, hand: Any, melds: Any, v: int, rules: Rules,
               benjin: Union[str, int, None]) -> Any:
    """is_win, waits or shanten under rules with wild tiles (or a stray ``benjin=``, which
    wild_args refuses): the hand as the core takes it (hand_wilds.py), then the call."""
    wild = _wild_args(rules, benjin)
    return call(_wild_hand(hand, melds, wild), v, rules._shape_code, wild.mask,
                rules.wild_fifth_copy)


# The core builds DiscardOption, WaitOption and FanResult itself (_core.discard_options); results
# are plain immutable values, shared FanResults come from _fan_result's cache by content.
_core._register_results(FanResult, WaitOption, DiscardOption, _fan_result)


# -- the API ----------------------------------------------------------------------------------------
# is_win, waits and shanten resolve their arguments inline (the same dozen lines in each) rather
# than through a helper like _native: a Python call is ~60 ns of a ~200-250 ns call, and these
# three have per-call targets (benchmarks/test_bench_api.py). The slower calls use the helpers.


def is_win(hand: HandLike, *, melds: MeldsLike = None, void: Optional[str] = None,
           rules: RulesLike = None, benjin: Union[str, int, None] = None) -> bool:
    """Whether a hand of 14 - 3k concealed tiles (the winning tile included) is a complete win
    that respects 缺一门 and ``void``: ``is_win("23445677p345789s") is True``.

    Here and below "14 - 3k" and "13 - 3k" read ``rules.hand_size + 1 - 3k`` and
    ``rules.hand_size - 3k`` (docs/rules.md §11.1: 10- and 7-tile hands need 3 and 2 sets), and a tile
    of a suit not in ``rules.suits`` is a ``ValueError`` naming it.

    With wild tiles (docs/rules.md §12) the hand is written as held — ``is_win("123456789m55p46p1s",
    rules="yaoji")`` (the 1条 is wild and reads 5p) — and ``benjin=`` names the 本金 under
    ``wild_kinds = "benjin"`` / ``"benjin_plus"``; a hand is complete when some reading of its
    wilds is."""
    h: Any = hand
    if h.__class__ is Hand:  # a Hand's native twin, without a call
        n = h._nat
        h = h._native if n is None else n
    elif isinstance(h, Hand):
        h = h._native
    try:
        v = _VOID[void]
    except (KeyError, TypeError):
        v = _void(void)
    if rules is None:
        sp = _DEFAULT_SHAPE
    else:
        r = _rules(rules)
        if r.wild_kinds or r.extra_wilds or benjin is not None:
            return bool(_wild_call(_core.is_win_wild, hand, melds, v, r, benjin))
        sp = r._shape_code
    if benjin is not None:
        _wild_args(_DEFAULT_RULES, benjin)  # the error: no 本金 without wild rules
    if melds is None:
        return _is_win(h, v, sp)
    return _is_win(h, v, sp, _meld_pairs(melds))


def waits(hand: HandLike, *, melds: MeldsLike = None, void: Optional[str] = None,
          rules: RulesLike = None, benjin: Union[str, int, None] = None) -> list[str]:
    """The tiles that complete a 13 - 3k hand, in kind order: ``waits("12334577m23345p") ==
    ["1p", "4p"]`` (kinds already held four times, melds included, are not waits). With wild
    tiles, natural kinds only: a drawn wild completes every ready hand."""
    h: Any = hand
    if h.__class__ is Hand:  # a Hand's native twin, without a call
        n = h._nat
        h = h._native if n is None else n
    elif isinstance(h, Hand):
        h = h._native
    try:
        v = _VOID[void]
    except (KeyError, TypeError):
        v = _void(void)
    if rules is None:
        sp = _DEFAULT_SHAPE
    else:
        r = _rules(rules)
        if r.wild_kinds or r.extra_wilds or benjin is not None:
            return list(_wait_names(_wild_call(_core.waits_wild, hand, melds, v, r, benjin)))
        sp = r._shape_code
    if benjin is not None:
        _wild_args(_DEFAULT_RULES, benjin)
    if melds is None:
        mask = _waits(h, v, sp)
    else:
        mask = _waits(h, v, sp, _meld_pairs(melds))
    t = _WAITS_CACHE.get(mask)  # the usual cache hit without a call (as in evaluate)
    if t is None:
        t = _wait_names(mask)
    return list(t)


def shanten(hand: HandLike, *, melds: MeldsLike = None, void: Optional[str] = None,
            rules: RulesLike = None, benjin: Union[str, int, None] = None) -> int:
    """Exact shanten of a 13 - 3k or 14 - 3k hand (docs/rules.md §5): -1 complete, 0 ready, ...
    ``shanten("12334577m23345p") == 0``. With wild tiles, the natural tiles' shanten less one per
    wild (docs/rules.md §12.2)."""
    h: Any = hand
    if h.__class__ is Hand:  # a Hand's native twin, without a call
        n = h._nat
        h = h._native if n is None else n
    elif isinstance(h, Hand):
        h = h._native
    try:
        v = _VOID[void]
    except (KeyError, TypeError):
        v = _void(void)
    if rules is None:
        sp = _DEFAULT_SHAPE
    else:
        r = _rules(rules)
        if r.wild_kinds or r.extra_wilds or benjin is not None:
            return int(_wild_call(_core.shanten_wild, hand, melds, v, r, benjin))
        sp = r._shape_code
    if benjin is not None:
        _wild_args(_DEFAULT_RULES, benjin)
    if melds is None:
        return _shanten(h, v, sp)
    return _shanten(h, v, sp, _meld_pairs(melds))


def evaluate(
    hand: HandLike,
    *,
    melds: MeldsLike = None,
    void: Optional[str] = None,
    win_tile: Union[str, int, None] = None,
    self_draw: bool = False,
    kong_replacement: bool = False,
    after_kong_discard: bool = False,
    robbed_kong: bool = False,
    last_tile: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    rules: RulesLike = None,
    benjin: Union[str, int, None] = None,
) -> FanResult:
    """Score a winning hand (14 - 3k concealed tiles, the winning tile included; docs/rules.md §6, §6.1):
    ``evaluate("11122233345678m", self_draw=True).base == "qingyise"``. ``win_tile`` (only 夹心五
    reads it) must be one of the concealed tiles. A hand that is not a win, a wrong tile count or
    contradictory flags are a ``ValueError``.

    With wild tiles (docs/rules.md §12.2) the win scores its best reading (or 四鸡), the hand is
    written as held and ``win_tile`` may be a wild (``"1s"`` under 幺鸡, ``"7z"``): ``evaluate(
    "123456789m55p46p1s", rules="yaoji").base == "pinghu"``; ``benjin=`` as in :func:`is_win`."""
    flags = _evaluate_flags(self_draw, kong_replacement, after_kong_discard, robbed_kong,
                            last_tile, heavenly, earthly)
    if rules is not None or benjin is not None:
        r = _DEFAULT_RULES if rules is None else _rules(rules)
        if r.has_wilds or benjin is not None:
            wild = _wild_args(r, benjin)
            t = _core.evaluate(_wild_hand(hand, melds, wild), _void(void),
                               r._scoring_for(wild.benjin), _wild_win_tile(win_tile, wild), flags)
            cached = _FAN_CACHE.get(t)
            return cached if cached is not None else _fan_result(t)
    h = _native(hand)
    v = _void(void)
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
    if melds is None:
        t = _evaluate(h, v, sc, wt, flags)
    else:
        t = _evaluate(h, v, sc, wt, flags, _meld_pairs(melds))
    got = _FAN_CACHE.get(t)
    return got if got is not None else _fan_result(t)


def best_discards(
    hand: HandLike,
    *,
    melds: MeldsLike = None,
    visible: Union[np.ndarray, Sequence[int], str, Hand, None] = None,
    void: Optional[str] = None,
    rules: RulesLike = None,
    benjin: Union[str, int, None] = None,
) -> list[DiscardOption]:
    """查听 for a hand one tile over (14 - 3k concealed tiles): one option per distinct discard,
    best first: lower shanten, then more tiles to draw (the winning tiles when ready, the 进张
    otherwise: ``jinzhang_total``), then higher fan, then tile order. With ``void`` declared and
    tiles of that suit in the hand, only they may be discarded (docs/rules.md §4), so only they are
    options. ``visible`` counts the tiles seen elsewhere (discards, others' melds; ``uint8[27]``,
    27 ints, notation or a Hand) for the remaining counts:
    ``best_discards("123456789m12345p")[0].discard == "1p"``.

    With wild tiles (docs/rules.md §12.2) the wild is a wait (and a 进张) of its own, named
    ``"wild"``, with the wall set's wilds not seen and its best reading's fan; a wild is a discard
    option (``"wild"``) where ``wild_discard`` is ``"dead"`` or the hand holds nothing else;
    ``benjin=`` as in :func:`is_win` (the face-up 本金 counts as seen)."""
    v = _void(void)
    if rules is not None or benjin is not None:
        r = _DEFAULT_RULES if rules is None else _rules(rules)
        if r.has_wilds or benjin is not None:
            wild = _wild_args(r, benjin)
            nat = _wild_hand(hand, melds, wild)
            seen, wild_seen = _wild_visible(visible, wild)
            return _core.discard_options_wild(nat, seen, v, r._scoring_for(wild.benjin),
                                              _wild_left(r, nat, wild_seen),
                                              r.wild_discard == "dead")
    h = _native(hand)
    sc = _DEFAULT_RULES._scoring if rules is None else _rules(rules)._scoring
    vis: Any = visible._native if isinstance(visible, Hand) else visible
    if melds is None:
        return _discard_options(h, vis, v, sc)
    return _discard_options(h, vis, v, sc, _meld_pairs(melds))


def jinzhang(
    hand: HandLike,
    *,
    melds: MeldsLike = None,
    visible: Union[np.ndarray, Sequence[int], str, Hand, None] = None,
    void: Optional[str] = None,
    rules: RulesLike = None,
    benjin: Union[str, int, None] = None,
) -> tuple[tuple[str, int], ...]:
    """进张 of a 13 - 3k hand: ``(tile, remaining)`` for every kind whose draw lowers its shanten,
    in kind order (for a ready hand, its waits), the copies left counted as in
    :func:`best_discards` (4 - the hand and melds - ``visible``, 0 allowed):
    ``jinzhang("12334577m23345p") == (("1p", 4), ("4p", 3))``. The same as the ``jinzhang`` of the
    :class:`DiscardOption` that leaves this hand.

    With wild tiles (docs/rules.md §12.2) the natural kinds come first, then ``("wild", n)``: a
    drawn wild always lowers the shanten, and ``n`` is the wall set's wilds less the hand's own
    and those ``visible`` shows (the face-up 本金 counts as seen)."""
    v = _void(void)
    if rules is not None:
        r = _rules(rules)
        if r.has_wilds or benjin is not None:
            wild = _wild_args(r, benjin)
            nat = _wild_hand(hand, melds, wild)
            seen, wild_seen = _wild_visible(visible, wild)
            return _core.jinzhang_wild(nat, seen, v, r._shape_code, wild.mask, r.wild_fifth_copy,
                                       _wild_left(r, nat, wild_seen))
    elif benjin is not None:
        _wild_args(_DEFAULT_RULES, benjin)  # the error: no 本金 without wild rules
    h = _native(hand)
    sp = _DEFAULT_SHAPE if rules is None else _rules(rules)._shape_code
    vis: Any = visible._native if isinstance(visible, Hand) else visible
    if melds is None:
        return _jinzhang(h, vis, v, sp)
    return _jinzhang(h, vis, v, sp, _meld_pairs(melds))
