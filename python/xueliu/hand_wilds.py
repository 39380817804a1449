"""The hand argument of the single-hand calls under rules with wild tiles (docs/rules.md §12).

A hand is given as it is held, every tile at its own kind: notation text with 红中 (``7z``, ``中``)
and soft melds (``(55m1s)``), tile names, a :class:`~xueliu.tiles.Hand` or 27 counts. The rules (and,
under ``wild_kinds = "benjin"`` / ``"benjin_plus"``, the hand's 本金, ``benjin=``) say which of those
tiles are wild; the core then takes the natural tiles and a count of wilds
(``_core.Hand(counts, melds, wilds)``). Tables without wilds never come here: their calls stay on
hand.py's fast paths.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from . import _core
from .rules import Rules
from .tiles import Hand, _melds_tuple, tile_index

__all__ = ["WildArgs", "wild_args", "wild_hand"]

HONGZHONG = 27


class WildArgs:
    """The wild set of one call: the core's keyword arguments and what bounds a hand."""

    __slots__ = ("mask", "kw", "benjin", "kinds", "extra_wilds")

    def __init__(self, rules: Rules, benjin: Union[None, str, int]) -> None:
        self.kinds = rules.wild_set(benjin)  # ValueError for a 本金 missing or out of place
        self.mask = sum(1 << k for k in self.kinds)
        self.kw = {"wild_kinds": self.mask, "wild_fifth_copy": rules.wild_fifth_copy}
        self.benjin = None if benjin is None else _benjin_kind(benjin)
        self.extra_wilds = rules.extra_wilds


def _benjin_kind(benjin: Union[str, int]) -> int:
    return benjin if isinstance(benjin, int) else tile_index("".join(benjin.split()))


def wild_args(rules: Rules, benjin: Union[None, str, int]) -> WildArgs:
    """The wild set of a call under rules with wilds; a ValueError for rules without (naming a
    ``benjin`` given there)."""
    if not rules.has_wilds:
        if benjin is not None:
            raise ValueError(f"benjin={benjin!r} given with rules that have no wild tiles: a 本金 "
                             "exists only under wild_kinds 'benjin' or 'benjin_plus'")
        raise ValueError("the rules have no wild tiles (docs/rules.md §12)")
    return WildArgs(rules, benjin)


def _physical_text(hand: Any, melds: Any) -> Optional[str]:
    """Notation text for the hand forms that may hold 红中 or soft melds; None for the others."""
    if isinstance(hand, str):
        if melds is not None:
            raise TypeError("melds= goes with a tile list or counts; notation text carries its "
                            "own melds")
        return hand
    if isinstance(hand, (list, tuple)) and (not hand or isinstance(hand[0], str)):
        text = "".join("".join(str(t).split()) for t in hand)
        if melds is not None:
            text += "".join(str(m) for m in _melds_tuple(melds))
        return text
    return None


def wild_hand(hand: Any, melds: Any, wild: WildArgs) -> _core.Hand:
    """The core's Hand of a call's hand argument under a wild set: every tile of a wild kind and
    every 红中 counted as a wild (in its soft meld, or concealed). ValueError for a 红中 at a table
    without red dragons, more 红中 than ``extra_wilds``, a soft meld's wild that is not wild here,
    a meld of a wild kind, and under a 本金 a fourth copy of the 本金's kind (the fourth is face up)."""
    text = _physical_text(hand, melds)
    if text is not None:
        red = _core.parse_physical(text)[0][HONGZHONG]
        if red > wild.extra_wilds:
            raise ValueError(f"{red} 红中 in the hand, but the wall holds {wild.extra_wilds} "
                             "(extra_wilds)")
        native = _core.hand_of_physical(text, wild.mask)
    else:
        plain: Any = hand._native if isinstance(hand, Hand) else _core.hand_of(
            hand, None if melds is None else [(m.type, m.index) for m in _melds_tuple(melds)])
        counts = bytearray(plain.counts)
        wilds = 0
        for k in range(27):
            if wild.mask >> k & 1:
                wilds += counts[k]
                counts[k] = 0
        for _, kind in plain.melds:
            if wild.mask >> kind & 1:
                raise ValueError(f"a meld of {_core.tile_name(kind)}, a wild kind")
        native = _core.Hand(bytes(counts), plain.melds, wilds)
    b = wild.benjin
    if b is not None and not (wild.mask >> b & 1):
        held = native.counts[b]
        for meld in native.melds:  # (type, kind) or (type, kind, wilds)
            if meld[1] == b:
                held += (3 if meld[0] == 0 else 4) - (meld[2] if len(meld) == 3 else 0)
        if held > 3:
            raise ValueError(f"{held} copies of the 本金's kind {_core.tile_name(b)}: one of the four "
                             "is turned up, so a hand holds at most 3")
    return native


def wild_visible(visible: Any, wild: WildArgs) -> tuple[Optional[bytes], int]:
    """``visible=`` under a wild set: (the natural tiles seen as 27 counts, the wilds seen). Text
    may hold 红中 and soft melds (each of their tiles is seen); a Hand or counts hold suit kinds.
    The face-up 本金 is seen by every seat (docs/rules.md §12.5), so it is counted here."""
    if visible is None:
        physical = [0] * 28
    elif isinstance(visible, str):
        counts, melds = _core.parse_physical(visible)
        physical = list(counts)
        for mtype, kind, wild_tiles in melds:
            physical[kind] += (3 if mtype == 0 else 4) - len(wild_tiles)
            for t in wild_tiles:
                physical[t] += 1
    else:
        held = visible.held() if isinstance(visible, Hand) else _core.hand_of(visible).counts
        physical = list(held) + [0]
    if wild.benjin is not None:
        physical[wild.benjin] += 1
    seen = sum(physical[k] for k in wild.kinds)
    natural = bytes(0 if k in wild.kinds else physical[k] for k in range(27))
    return natural, seen


def wild_left(rules: Rules, hand: _core.Hand, seen: int) -> int:
    """The wall set's wilds a seat holding ``hand`` has not seen (docs/rules.md §12.1's
    ``remaining(wild)``): all of them, less its own (concealed and in its melds), less ``seen``."""
    melded = sum(m[2] for m in hand.melds if len(m) == 3)
    left = rules.wild_count_in_wall() - hand.wilds - melded - seen
    if left < 0:
        raise ValueError(f"visible shows {seen} wilds and the hand holds {hand.wilds + melded}, "
                         f"but the wall set has {rules.wild_count_in_wall()}")
    return left


def wild_win_tile(win_tile: Union[str, int, None], wild: WildArgs) -> int:
    """The core's win tile under a wild set: -1 for none, 27 (the wild) for a tile of a wild kind
    or 红中, else the kind of a tile name or a kind 0..26."""
    if win_tile is None:
        return -1
    if isinstance(win_tile, bool) or not isinstance(win_tile, (str, int)):
        raise TypeError(f"win_tile must be a tile name like '5m' or a kind 0..26, got {win_tile!r}")
    if isinstance(win_tile, str) and "".join(win_tile.split()) in ("7z", "中", "红中"):
        kind = HONGZHONG
    elif isinstance(win_tile, str):
        kind = tile_index("".join(win_tile.split()))
    elif 0 <= win_tile < 27:
        kind = win_tile
    else:
        raise ValueError(f"win_tile {win_tile!r} is not a tile (expected e.g. '5m' or a kind 0..26)")
    if kind in wild.kinds:
        return HONGZHONG  # 27: the winning tile is a wild
    if kind == HONGZHONG:
        raise ValueError("win_tile 7z (红中) is in play only when the rules add red dragons")
    return kind
