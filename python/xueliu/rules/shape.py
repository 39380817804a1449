"""The table shape (docs/rules.md §11.1), derived once from a Rules: what the engine, bots, encoders,
server and page read instead of the constants 4, 3, 108 and 13.

>>> from xueliu.rules import Rules
>>> s = Rules.preset("sanren_liangfang").shape
>>> s.players, s.suits, s.wall_tiles, s.sets, s.deal_rounds, s.deal_rest
(3, ('p', 's'), 72, 4, 3, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Protocol

from .values import SUIT_LETTERS


class ShapeKnobs(Protocol):
    """The knobs a table's shape and its consistency checks read (a Rules; not imported, so that
    knobs.py may import this module and consistency.py)."""

    @property
    def players(self) -> int: ...
    @property
    def suits(self) -> tuple[str, ...]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def seven_pairs(self) -> bool: ...
    @property
    def declare_void(self) -> bool: ...
    @property
    def exchange_direction(self) -> str: ...
    @property
    def extra_wilds(self) -> int: ...

__all__ = ["Shape", "shape_of", "shape_code", "seat_places"]

_SIZE_INDEX = {13: 0, 10: 1, 7: 2}


@dataclass(frozen=True)
class Shape:
    """Seats, suits, wall and deal of one table (docs/rules.md §11.1); ``Rules.shape`` builds it once."""

    players: int
    """Seats ``0..players - 1``; the next seat is ``(s + 1) % players``."""
    suits: tuple[str, ...]
    """The suits in play, m, p, s order."""
    suit_indices: tuple[int, ...]
    """Their suit indices (0 m, 1 p, 2 s)."""
    kinds: tuple[int, ...]
    """The tile kinds in play (0..26), ascending."""
    kind_mask: int
    """Bit k set for each kind in play (the native waits masks use the same bits)."""
    wall_tiles: int
    """Tiles in the wall: 36 per suit (108, 72, 36), plus the ``extra_wilds`` 红中 (docs/rules.md
    §12.1: 112 in a 红中 room)."""
    hand_size: int
    """Tiles dealt to each seat (the dealer one more): 13, 10 or 7."""
    sets: int
    """Sets (pung, chow or kong) a complete hand needs besides its pair: (hand_size - 1) / 3."""
    pairs: int
    """Pairs of the pairs family (七对 7, 四对 4), 0 where it does not exist or is off."""
    melds_for_jingou: int
    """Melds that make a 金钩钓 (every set melded): the same as ``sets``."""
    deal_rounds: int
    """R = hand_size // 4: rounds of takes of 4 tiles."""
    deal_rest: int
    """r = hand_size - 4R: the tiles each non-dealer takes after the rounds (the dealer r + 1)."""
    deal_plan: tuple[tuple[int, int], ...]
    """The deal as (seat offset from the dealer, tiles) takes, in wall order (§11.1 / §10)."""
    dealt_tiles: int
    """Tiles the deal uses: players * hand_size + 1; live draws start at this wall index."""
    declare_void_possible: bool
    """定缺 needs three suits in play."""
    code: int
    """The native shape code (cpp/tiles.hpp hand_shape) the core calls take."""
    places: tuple[Optional[int], ...]
    """The seat shown in each of the four relative places of a seat's view (self, next 下家,
    across 对家, prev 上家; obs_v1, docs/learning.md) as an offset from the viewer, ``None`` where
    the table has no such seat: :func:`seat_places`."""

    @property
    def seats(self) -> range:
        """``range(players)``."""
        return range(self.players)

    @property
    def is_default(self) -> bool:
        """The §1–§10 table: four seats, three suits, 13 tiles."""
        return self.players == 4 and len(self.suits) == 3 and self.hand_size == 13


def shape_code(suits: tuple[str, ...], hand_size: int, seven_pairs: bool) -> int:
    """The native shape code: bit 0 ``seven_pairs``, bits 1..3 the suits not in play, bits 4..5
    the hand size (0: 13, 1: 10, 2: 7); so the default table is 1 (True)."""
    absent = sum(1 << i for i, s in enumerate(SUIT_LETTERS) if s not in suits)
    return int(seven_pairs) | absent << 1 | _SIZE_INDEX[hand_size] << 4


def seat_places(players: int) -> tuple[Optional[int], ...]:
    """The seat offsets shown as self, next, across and prev (``(seat + offset) % players``):
    4 seats ``(0, 1, 2, 3)``; 3 seats ``(0, 1, None, 2)`` — the seat after and the seat before,
    no one across; 2 seats ``(0, None, 1, None)`` — the other seat sits across (as the browser
    table shows it), being both the next and the previous seat.

    >>> seat_places(3)
    (0, 1, None, 2)
    """
    return {4: (0, 1, 2, 3), 3: (0, 1, None, 2), 2: (0, None, 1, None)}[players]


def shape_of(rules: ShapeKnobs) -> Shape:
    """The Shape of validated rules (use ``rules.shape``, which caches it)."""
    n, size = rules.players, rules.hand_size
    suit_indices = tuple(SUIT_LETTERS.index(s) for s in rules.suits)
    kinds = tuple(k for k in range(27) if k // 9 in suit_indices)
    rounds, rest = size // 4, size - 4 * (size // 4)
    plan = [(seat, 4) for _ in range(rounds) for seat in range(n)]
    plan.append((0, rest + 1))
    plan.extend((seat, rest) for seat in range(1, n))
    pairs = (size + 1) // 2 if rules.seven_pairs and (size + 1) % 2 == 0 else 0
    return Shape(
        players=n, suits=rules.suits, suit_indices=suit_indices, kinds=kinds,
        kind_mask=sum(1 << k for k in kinds),
        wall_tiles=36 * len(rules.suits) + rules.extra_wilds, hand_size=size,
        sets=(size - 1) // 3, pairs=pairs, melds_for_jingou=(size - 1) // 3, deal_rounds=rounds,
        deal_rest=rest, deal_plan=tuple(plan), dealt_tiles=n * size + 1,
        declare_void_possible=len(rules.suits) == 3,
        code=shape_code(rules.suits, size, rules.seven_pairs), places=seat_places(n),
    )
