"""Wild tiles (docs/rules.md §12): the value checks of the §12 knobs, their checks across knobs,
and the small pure answers the rest of the package reads — which kinds are wild, how many wilds
the wall holds, whether a table has wilds at all. ``Rules`` calls them and offers them as
``rules.has_wilds``, ``rules.uses_benjin``, ``rules.wild_set(benjin=…)`` and
``rules.wild_count_in_wall()``; the wall size with 红中 is ``rules.shape.wall_tiles``.

>>> from xueliu.rules import Rules
>>> sorted(Rules.preset("yibin").wild_set(benjin="1p"))   # 本金 1筒: 9筒 and 2筒 are wild
[10, 17]
>>> r = Rules.preset("hongzhong")
>>> sorted(r.wild_set()), r.wild_count_in_wall(), r.shape.wall_tiles
([27], 4, 112)

The game engine plays them (python/xueliu/game/wild_play.py and the flow modules beside it).
"""

from __future__ import annotations

import numbers
from typing import Any, Optional, Protocol, Union

from ..tiles import TILE_NAMES, tile_index
from .values import MAX_TABLE_FAN, SUIT_LETTERS, bad

__all__ = ["HONGZHONG", "BENJIN_KINDS", "wild_kinds", "four_wilds", "check_wilds", "has_wilds",
           "uses_benjin", "wild_set", "wild_count_in_wall", "gens_bound"]

HONGZHONG = 27
"""红中's kind index (written ``7z``, ``中`` or ``红中``): the wild that ``extra_wilds`` adds."""

BENJIN_KINDS = ("benjin", "benjin_plus")
"""The ``wild_kinds`` values of a 本金 room (宜宾 听用): the wilds follow a tile turned up each hand."""

_HONGZHONG_NAMES = ("7z", "中", "红中")


class WildKnobs(Protocol):
    """The knobs the §12 checks and helpers read (a Rules; not imported, as knobs.py imports this
    module)."""

    @property
    def suits(self) -> tuple[str, ...]: ...
    @property
    def players(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def max_fan(self) -> Optional[int]: ...
    @property
    def wild_kinds(self) -> Union[tuple[str, ...], str]: ...
    @property
    def extra_wilds(self) -> int: ...
    @property
    def wild_gen(self) -> str: ...
    @property
    def no_wild_bonus(self) -> int: ...
    @property
    def four_wilds(self) -> Union[None, str, int]: ...
    @property
    def soft_peng(self) -> str: ...
    @property
    def soft_kong(self) -> bool: ...
    @property
    def swap_back(self) -> bool: ...
    @property
    def soft_kong_pay(self) -> str: ...


# -- value checks (each takes (knob, value), as the checks of values.py) --------------------------

_WILD_KINDS_EXPECTED = ("(), a tuple of distinct kinds of suits in play such as ('1s',), "
                        "('1s', '1p') or ('1m', '1s', '1p'), 'benjin' or 'benjin_plus'")


def wild_kinds(knob: str, v: Any) -> Union[tuple[str, ...], str]:
    """``()``, a tuple of distinct kind names (kept as canonical names in kind order: ``("1p",
    "1s")`` however they were given, so equal sets are equal rules), ``"benjin"`` or
    ``"benjin_plus"``. Whether the kinds' suits are in play is :func:`check_wilds`' business."""
    if isinstance(v, str):
        if v in BENJIN_KINDS:
            return v
        hint = f"; one kind is written as a tuple: ({v!r},)" if v and v[0].isdigit() else ""
        raise bad(knob, v, _WILD_KINDS_EXPECTED + hint)
    if not isinstance(v, (list, tuple)):
        raise bad(knob, v, _WILD_KINDS_EXPECTED)
    kinds = [_wild_kind(knob, x, v) for x in v]
    for k in kinds:
        if kinds.count(k) > 1:
            raise ValueError(f"bad value for knob {knob!r}: {v!r} names {TILE_NAMES[k]} twice "
                             f"(expected {_WILD_KINDS_EXPECTED})")
    return tuple(TILE_NAMES[k] for k in sorted(kinds))


def _wild_kind(knob: str, x: Any, v: Any) -> int:
    if not isinstance(x, str):
        raise ValueError(f"bad value for knob {knob!r}: {x!r} in {v!r} is not a kind name "
                         f"(expected {_WILD_KINDS_EXPECTED})")
    if "".join(x.split()) in _HONGZHONG_NAMES:
        raise ValueError(f"bad value for knob {knob!r}: {x!r} in {v!r} — wild_kinds never names "
                         "红中 7z; 红中 wilds are added to the wall with extra_wilds=4, 8 or 12")
    try:
        k = tile_index(x)
    except ValueError:
        raise ValueError(f"bad value for knob {knob!r}: {x!r} in {v!r} is not a tile kind "
                         "(expected a rank 1-9 and a suit m, p or s, e.g. '1s')") from None
    return k


def four_wilds(knob: str, v: Any) -> Union[None, str, int]:
    """``None`` (off), ``"cap"`` or an int N, the fan of 四鸡."""
    if v is None or (isinstance(v, str) and v == "cap"):
        return v
    if isinstance(v, numbers.Integral) and not isinstance(v, bool) and 1 <= int(v) <= MAX_TABLE_FAN:
        return int(v)
    raise bad(knob, v, f"None, 'cap' or an int 1..{MAX_TABLE_FAN}, the fan of 四鸡")


# -- checks across knobs -------------------------------------------------------------------------


def check_wilds(r: WildKnobs) -> None:
    """Raise ValueError, naming the knob, when the §12 knobs of ``r`` contradict the others
    (docs/rules.md §12.1, §12.5). §11.1's fit check, which counts ``extra_wilds``, is in
    :mod:`.consistency`."""
    if isinstance(r.wild_kinds, tuple):
        for name in r.wild_kinds:
            suit = name[-1]
            if suit not in r.suits:
                raise ValueError(
                    f"bad value for knob 'wild_kinds': {name!r} is a kind of suit {suit!r}, which "
                    f"is not in play (suits {r.suits!r}); a wild kind must be of a suit in play")
    elif r.extra_wilds:
        raise ValueError(
            f"bad value for knob 'extra_wilds': {r.extra_wilds} with wild_kinds {r.wild_kinds!r} "
            "(a 本金 room's wilds are the 本金's neighbours: 'benjin' / 'benjin_plus' cannot be "
            "combined with extra_wilds; use extra_wilds=0)")
    if r.four_wilds == "cap" and r.max_fan is None:
        raise ValueError(
            "bad value for knob 'four_wilds': 'cap' with max_fan None (四鸡 'cap' scores the cap; "
            "set max_fan, or give four_wilds an int: the fan of 四鸡)")
    if has_wilds(r):
        return
    why = "without any wild in the wall set (set wild_kinds or extra_wilds first)"
    if r.no_wild_bonus:
        raise ValueError(f"bad value for knob 'no_wild_bonus': {r.no_wild_bonus} {why}; 无鸡 "
                         "rewards a win with no wild, which needs a table with wilds")
    if r.four_wilds is not None:
        raise ValueError(f"bad value for knob 'four_wilds': {r.four_wilds!r} {why}")
    for knob, off in (("soft_peng", "off"), ("soft_kong", False), ("swap_back", False)):
        value = getattr(r, knob)
        if value != off:
            raise ValueError(f"bad value for knob {knob!r}: {value!r} {why}; soft melds "
                             "(飞, 软杠) and 提 are made with wilds")


# -- what a table's wilds are --------------------------------------------------------------------


def has_wilds(r: WildKnobs) -> bool:
    """Whether the wall set holds any wild: ``wild_kinds`` names some (or a 本金 rule) or
    ``extra_wilds`` adds 红中."""
    return bool(r.wild_kinds) or r.extra_wilds > 0


def uses_benjin(r: WildKnobs) -> bool:
    """Whether each hand turns up a 本金 that decides its wilds (``"benjin"``, ``"benjin_plus"``)."""
    return isinstance(r.wild_kinds, str) and r.wild_kinds in BENJIN_KINDS


def wild_set(r: WildKnobs, benjin: Union[None, str, int] = None) -> frozenset[int]:
    """The wild kinds of one hand as kind indices: 0..26 for suit kinds, 27 for 红中 when
    ``extra_wilds > 0``. Under ``"benjin"`` / ``"benjin_plus"`` the hand's 本金 (a tile name or
    kind index) is required: its suit's kinds at rank −1 and +1, wrapping (本金 1 → 9 and 2,
    本金 9 → 8 and 1), and the 本金's own kind too under ``"benjin_plus"``. A 本金 given without
    本金 rules, or missing with them, or of a suit not in play, is a ValueError."""
    if uses_benjin(r):
        if benjin is None:
            raise ValueError(f"wild_kinds {r.wild_kinds!r} needs the hand's 本金: give benjin=, "
                             "the tile turned up (e.g. benjin='1p')")
        k = _benjin_kind(r, benjin)
        base, rank = k - k % 9, k % 9
        wilds = {base + (rank - 1) % 9, base + (rank + 1) % 9}
        if r.wild_kinds == "benjin_plus":
            wilds.add(k)
    else:
        if benjin is not None:
            raise ValueError(f"benjin={benjin!r} given with wild_kinds {r.wild_kinds!r}: a 本金 "
                             "exists only under wild_kinds 'benjin' or 'benjin_plus'")
        wilds = {tile_index(name) for name in r.wild_kinds}
    if r.extra_wilds:
        wilds.add(HONGZHONG)
    return frozenset(wilds)


def _benjin_kind(r: WildKnobs, benjin: Union[str, int]) -> int:
    if isinstance(benjin, str):
        if "".join(benjin.split()) in _HONGZHONG_NAMES:
            raise ValueError(f"benjin={benjin!r}: the 本金 is a suit tile, never 红中")
        k = tile_index(benjin)
    elif isinstance(benjin, numbers.Integral) and not isinstance(benjin, bool):
        if not 0 <= benjin < 27:
            raise ValueError(f"benjin={benjin!r}: a 本金 is a suit kind 0..26")
        k = int(benjin)
    else:
        raise TypeError(f"benjin must be a tile name like '5m' or a kind 0..26, got {benjin!r}")
    suit = SUIT_LETTERS[k // 9]
    if suit not in r.suits:
        raise ValueError(f"benjin={benjin!r} is of suit {suit!r}, which is not in play "
                         f"(suits {r.suits!r})")
    return k


def wild_count_in_wall(r: WildKnobs) -> int:
    """How many wilds the wall set holds: 4 per wild kind (8 for ``"benjin"``), 11 for
    ``"benjin_plus"`` (its own kind's fourth copy is the tile turned up), plus ``extra_wilds``."""
    if uses_benjin(r):
        kinds = 8 if r.wild_kinds == "benjin" else 11
    else:
        kinds = 4 * len(r.wild_kinds)
    return kinds + r.extra_wilds


def gens_bound(r: WildKnobs) -> int:
    """The most 根 one win can count (before ``gen_counts``), for ``Rules.highest_fan``: 4 (four
    fours at most), and under ``wild_gen = "per_wild"`` one per wild held — at most the wall's
    wilds or the hand's tiles (every set a kong) — plus natural fours of the other tiles."""
    if r.wild_gen != "per_wild":
        return 4
    sets = (r.hand_size - 1) // 3
    tiles = r.hand_size + 1 + sets
    held = min(wild_count_in_wall(r), tiles)
    return held + (tiles - held) // 4

