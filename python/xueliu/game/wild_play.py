"""Wild tiles in play (docs/rules.md §12.3): which physical tiles of a hand are wild, the hand as the
core reads it, and the options wilds open on a turn and in a claim window.

At a table with wilds (``rules.has_wilds``) every hand, river and count the engine keeps is
indexed by the 28 physical kinds (``PHYSICAL_NAMES``: the 27 suit kinds, then 27 = 红中), and the
hand's :class:`WildPlay` says which of those kinds are wild (under a 本金 rule, from the tile
turned up after the deal). The core takes a hand as its natural counts plus a number of wilds,
with soft melds as ``(type, kind, wilds)``; the physical wild tiles of each meld are kept here,
because they are public and 提 gives them back. Tables without wilds never build a
:class:`WildPlay` (``HandData._wild is None``) and keep the native hot paths.

The functions below read the hand's data and decide nothing about the flow. What wilds change in a
rule is written in that rule's module: a turn's options in ``draw.py``, a claim window's in
``claims.py``, the soft kongs in ``kongs.py``, 提 and the dead discard in ``turn.py``, 四鸡 in
``wins.py``, 查大叫 in ``end_of_hand.py``, the 本金 and the exchange in ``before_play.py``.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

from .. import _core
from ..rules import Rules
from ..tiles import HONGZHONG, PHYSICAL_NAMES

CoreMeld = Union[Tuple[int, int], Tuple[int, int, int]]
"""A meld as the core reads it: ``(type, kind)``, or ``(type, kind, wilds)`` for a soft meld."""

SOFT_PENG = {"off": 0, "one": 1, "two": 2}


class WildPlay:
    """The wild tiles of one hand: the rules' §12 knobs read once, the wild kinds (set when the
    本金 is turned up under a 本金 rule), and the physical wilds of every seat's melds."""

    __slots__ = ("rules", "sp", "benjin", "kinds", "mask", "is_wild", "bit", "scoring", "fifth",
                 "dead_discard", "soft_peng", "soft_kong", "swap_back", "four_wilds",
                 "in_wall", "meld_wilds", "adding")

    def __init__(self, rules: Rules, seats: int) -> None:
        self.rules = rules
        self.sp = rules._shape_code  # the core's shape code (seven pairs, suits, hand size)
        self.fifth = bool(rules.wild_fifth_copy)
        self.dead_discard = rules.wild_discard == "dead"
        self.soft_peng = SOFT_PENG[rules.soft_peng]
        self.soft_kong = bool(rules.soft_kong)
        self.swap_back = bool(rules.swap_back)
        self.four_wilds = rules.four_wilds is not None
        self.in_wall = rules.wild_count_in_wall()
        # Per seat, aligned with HandData._melds[seat]: the physical kinds of the wilds in each
        # meld (lowest kind first), public like the meld (a concealed kong's only to its owner).
        self.meld_wilds: List[List[List[int]]] = [[] for _ in range(seats)]
        self.adding: Tuple[int, int] = (-1, -1)  # an added kong declared: (meld kind, added tile)
        self.benjin = -1
        self.set_kinds(None if rules.uses_benjin else rules.wild_set())

    def set_kinds(self, kinds: Optional[frozenset[int]]) -> None:
        """The hand's wild kinds (None: a 本金 rule before the turn-up, no wild yet)."""
        ks = sorted(kinds or ())
        self.kinds: Tuple[int, ...] = tuple(ks)
        self.mask = sum(1 << k for k in ks)
        self.is_wild: Tuple[bool, ...] = tuple(k in ks for k in range(28))
        # The waits bit a drawn or robbed tile of each kind tests: its own, or 27 for a wild
        # (HandData._waits holds the natural waits and, in bit 27, "a wild completes the hand").
        self.bit: Tuple[int, ...] = tuple(HONGZHONG if k in ks else k for k in range(28))
        self.scoring = self.scoring_for(self.rules)

    def turn_up(self, benjin: int) -> None:
        """The 本金 ``benjin`` was turned up: it decides the wild kinds (docs/rules.md §12.1)."""
        self.benjin = benjin
        self.set_kinds(self.rules.wild_set(benjin))

    def scoring_for(self, rules: Rules) -> _core.ScoringRules:
        """``rules``' native scoring with this hand's wild set (查大叫 scores with its own rules)."""
        return rules._scoring_for(self.benjin if self.benjin >= 0 else None)

    # ---- a hand's tiles
    def split(self, counts: Sequence[int]) -> Tuple[bytes, int]:
        """(the 27 natural counts, the number of wilds) of 28 physical counts."""
        natural = bytearray(counts[:27])
        wilds = 0
        for k in self.kinds:  # (one to three kinds: cheaper than a pass over the 28)
            wilds += counts[k]
            if k < 27:
                natural[k] = 0
        return bytes(natural), wilds

    def wilds_held(self, counts: Sequence[int]) -> List[int]:
        """The physical wilds among ``counts``, lowest kind first (the order they go into melds)."""
        out: List[int] = []
        for k in self.kinds:
            out.extend([k] * counts[k])
        return out

    def naturals(self, counts: Sequence[int]) -> int:
        """How many natural tiles ``counts`` holds."""
        return sum(counts) - sum(counts[k] for k in self.kinds)

    # ---- a hand as the core reads it
    def hand(self, counts: Sequence[int], melds: Sequence[CoreMeld]) -> _core.Hand:
        """The core's hand of 28 physical ``counts`` and the core's ``melds`` (soft ones as
        ``(type, kind, wilds)``)."""
        nat, wilds = self.split(counts)
        return _core.Hand(nat, melds, wilds)

    def waits(self, hand: _core.Hand, void: int) -> int:
        """The waits word of a hand: its natural waits, and bit 27 when a drawn wild completes it
        (every ready hand: docs/rules.md §12.2)."""
        mask = _core.waits_wild(hand, void, self.sp, self.mask, self.fifth)
        if mask or (self.mask and _core.is_win_wild(
                _core.Hand(hand.counts, hand.melds, hand.wilds + 1), void, self.sp, self.mask,
                self.fifth)):
            mask |= 1 << HONGZHONG
        return mask

    def complete(self, hand: _core.Hand, void: int) -> bool:
        return bool(_core.is_win_wild(hand, void, self.sp, self.mask, self.fifth))

    def take(self, h: bytearray, k: int, need: int) -> List[int]:
        """Takes ``need`` tiles for a meld of kind ``k`` out of the hand ``h``: its natural ``k``
        first, then wilds, lowest kind first (docs/rules.md §12.3). Returns the wilds taken."""
        nat = min(h[k], need)
        h[k] -= nat
        wilds = self.wilds_held(h)[:need - nat]
        assert len(wilds) == need - nat, "a meld without the tiles it needs"
        for j in wilds:
            h[j] -= 1
        return wilds

    def text(self, counts: Sequence[int], melds: Sequence[Sequence[Any]],
             meld_wilds: Sequence[Sequence[int]]) -> str:
        """A hand in the notation of docs/rules.md §12.5: the concealed ``counts`` (28 physical
        kinds), then the engine's ``melds`` with their wilds (``(55m1s)``, ``[555m7z]``)."""
        parts = [_group(counts)]
        for m, wilds in zip(melds, meld_wilds):
            how, k = m[0], m[1]
            size = 3 if how == "peng" else 4
            tiles = [0] * 28
            tiles[k] = size - len(wilds)
            for j in wilds:
                tiles[j] += 1
            natural = _group([tiles[j] if j == k else 0 for j in range(28)])
            rest = _group([0 if j == k else tiles[j] for j in range(28)])
            left, right = ("[", "]") if how == "concealed" else ("(", ")")
            parts.append(f"{left}{natural}{rest}{right}")
        return _core.format_physical("".join(parts))


def melded_kinds(melds: Sequence[Sequence[Any]]) -> int:
    """Bits of the kinds of the engine's ``melds`` (a seat never makes a second meld of a kind:
    docs/rules.md §12.5)."""
    bits = 0
    for m in melds:
        bits |= 1 << m[1]
    return bits


def _group(counts: Sequence[int]) -> str:
    out = []
    for suit, letter in enumerate("mps"):
        digits = "".join(str(r + 1) * counts[9 * suit + r] for r in range(9))
        if digits:
            out.append(digits + letter)
    if len(counts) > HONGZHONG and counts[HONGZHONG]:
        out.append("7" * counts[HONGZHONG] + "z")
    return "".join(out)


def names(kinds: Sequence[int]) -> List[str]:
    return [PHYSICAL_NAMES[k] for k in kinds]
