"""Tiles, melds and hands in docs/rules.md §1 notation.

A tile **kind** is an int 0..26: ``suit = k // 9`` (0 万 ``m``, 1 筒 ``p``, 2 条 ``s``),
``rank = k % 9 + 1``. A hand is 27 concealed counts plus up to four melds, written
``"11p345m(777s)(8888m)[9999p]"``: ``(777s)`` a peng, ``(8888m)`` an exposed kong (direct or added),
``[9999p]`` a concealed kong, always after the concealed tiles.

>>> h = parse_hand("11p345m(777s)")
>>> str(h), h.melds[0]
('345m11p(777s)', Meld(kind='peng', tile='7s'))

Parsing and validation are native (``_core.parse_hand``, ``_core.hand_from_counts``), so a hand
costs no interpreted loop; each ``Hand`` keeps the native twin it was checked as (``_native``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Optional, Union

import numpy as np

from . import _core

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "SUITS",
    "SUIT_NAMES",
    "TILE_NAMES",
    "MELD_KINDS",
    "tile_name",
    "tile_index",
    "suit_index",
    "Meld",
    "Hand",
    "parse_hand",
]

N_KINDS = 27

SUITS: tuple[str, ...] = ("m", "p", "s")
"""Suit letters by suit index: 0 万 characters, 1 筒 dots, 2 条 bamboo."""

SUIT_NAMES: tuple[str, ...] = ("万", "筒", "条")
"""Chinese suit names by suit index."""

TILE_NAMES: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in range(1, 10))
"""``TILE_NAMES[k]`` is the name of kind ``k``: ``"1m"`` .. ``"9s"``."""

HONGZHONG = 27
"""The kind index of 红中, the red dragon that ``extra_wilds`` adds to the wall (docs/rules.md §12.1);
it belongs to no suit and is always a wild."""

PHYSICAL_NAMES: tuple[str, ...] = TILE_NAMES + ("7z",)
"""The names of the 28 physical kinds a wall with wild tiles may hold: the 27 suit kinds, then
``"7z"`` (红中). The engine's hands and rivers at a table with wilds are indexed by these."""

# Every accepted suit spelling (docs/rules.md §1) -> suit index.
_SUIT_OF: dict[str, int] = {
    "m": 0, "万": 0, "萬": 0,
    "p": 1, "筒": 1, "饼": 1, "餅": 1, "铜": 1, "銅": 1,
    "s": 2, "条": 2, "條": 2, "索": 2,
}

MELD_KINDS: tuple[str, ...] = ("peng", "kong", "concealed_kong")
"""Meld kinds; the index is the native meld type (0 peng, 1 exposed kong, 2 concealed kong)."""
_MELD_TYPE = {k: i for i, k in enumerate(MELD_KINDS)}

# Tile spellings accepted by tile_index: "5m" and "5万" .. for every suit spelling.
_INDEX_OF: dict[str, int] = {
    f"{r}{s}": 9 * suit + r - 1 for s, suit in _SUIT_OF.items() for r in range(1, 10)
}


def tile_name(kind: int) -> str:
    """Name of a kind: ``tile_name(13) == "5p"``. ``ValueError`` outside 0..26."""
    if isinstance(kind, bool) or not isinstance(kind, (int, np.integer)):
        raise TypeError(f"tile kind must be an int 0..26, got {type(kind).__name__}")
    if not 0 <= kind < N_KINDS:
        raise ValueError(f"tile kind {kind} out of range 0..26")
    return TILE_NAMES[kind]


def tile_index(name: str) -> int:
    """Kind of a tile name: ``tile_index("5m") == 4``; Chinese suffixes too (``"5筒"``)."""
    try:
        return _INDEX_OF[name]
    except KeyError:
        pass
    except TypeError:
        raise TypeError(f"tile name must be a str, got {type(name).__name__}") from None
    if not isinstance(name, str):
        raise TypeError(f"tile name must be a str, got {type(name).__name__}")
    compact = "".join(name.split())
    if compact in _INDEX_OF:
        return _INDEX_OF[compact]
    raise ValueError(f"not a tile name: {name!r} (expected a rank 1-9 and a suit, e.g. '5m')")


def suit_index(suit: str) -> int:
    """Suit index of a suit spelling: ``"m"``/``"万"`` 0, ``"p"``/``"筒"`` 1, ``"s"``/``"条"`` 2."""
    if not isinstance(suit, str):
        raise TypeError(f"suit must be a str, got {type(suit).__name__}")
    try:
        return _SUIT_OF[suit]
    except KeyError:
        raise ValueError(f"unknown suit {suit!r} (expected m, p, s or 万, 筒, 条)") from None


def _as_kind(tile: Any, what: str = "tile") -> int:
    """A kind from a tile name or an int kind."""
    if isinstance(tile, str):
        return tile_index(tile)
    if isinstance(tile, bool) or not isinstance(tile, (int, np.integer)):
        raise TypeError(f"{what} must be a tile name like '5m' or a kind 0..26, got {tile!r}")
    if not 0 <= tile < N_KINDS:
        raise ValueError(f"{what} kind {tile} out of range 0..26")
    return int(tile)


@dataclass(frozen=True, init=False)
class Meld:
    """An exposed or concealed set: ``Meld("peng", "7s")``, ``Meld("kong", "8m")``,
    ``Meld("concealed_kong", "9p")``. ``tile`` is stored as its name (a kind int is accepted)."""

    kind: str
    tile: str
    index: int = field(init=False, repr=False, compare=False)
    """Kind index of the tile (0..26)."""
    type: int = field(init=False, repr=False, compare=False)
    """Native meld type: 0 peng, 1 exposed kong, 2 concealed kong."""

    def __init__(self, kind: str, tile: Union[str, int]) -> None:
        if kind not in _MELD_TYPE:
            raise ValueError(
                f"unknown meld kind {kind!r} (expected 'peng', 'kong' or 'concealed_kong';"
                " there are no chow melds)"
            )
        k = _as_kind(tile, "meld tile")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tile", TILE_NAMES[k])
        object.__setattr__(self, "index", k)
        object.__setattr__(self, "type", _MELD_TYPE[kind])

    @property
    def size(self) -> int:
        """Tiles in the meld: 3 for a peng, 4 for a kong."""
        return 3 if self.type == 0 else 4

    @property
    def code(self) -> int:
        """Batch encoding ``27 * type + kind``."""
        return 27 * self.type + self.index

    def __str__(self) -> str:
        t = self.tile
        if self.type == 0:
            return f"({t[0] * 3}{t[1]})"
        if self.type == 1:
            return f"({t[0] * 4}{t[1]})"
        return f"[{t[0] * 4}{t[1]}]"


class Hand:
    """A seat's hand: concealed ``counts`` (numpy ``uint8[27]``, read-only) and ``melds``.

    ``Hand(counts, melds=())`` validates (0..4 per kind, at most four melds, no fifth copy counting
    melds); the tile count is checked by each operation. Hands are immutable, compare and hash by
    value (counts and melds in order), and ``str(hand)`` is the canonical notation:

    >>> Hand([0] * 26 + [2], [Meld("peng", "1m")])
    Hand('99s(111m)')
    """

    __slots__ = ("_key", "_melds", "_counts", "_nat", "_hash", "_text", "__weakref__")

    _key: bytes
    _melds: tuple[Meld, ...]
    # Built on first use:
    _counts: Optional[npt.NDArray[np.uint8]]
    _nat: Optional[_core.Hand]
    _hash: Optional[int]
    _text: Optional[str]

    def __init__(self, counts: Any, melds: Iterable[Any] = ()) -> None:
        if isinstance(counts, (str, bytes, bytearray)):
            raise TypeError("counts must be 27 ints (use parse_hand for notation text)")
        ms = _melds_tuple(melds)
        nat = _core.hand_from_counts(counts, [(m.type, m.index) for m in ms] if ms else None)
        self._init(nat.counts, ms, nat)

    def _init(self, key: bytes, melds: tuple[Meld, ...],
              nat: Optional[_core.Hand] = None) -> None:
        _set = object.__setattr__
        _set(self, "_key", key)
        _set(self, "_melds", melds)
        _set(self, "_counts", None)
        _set(self, "_nat", nat)
        _set(self, "_hash", None)
        _set(self, "_text", None)

    @classmethod
    def from_counts(cls, counts: Any, melds: Iterable[Any] = ()) -> "Hand":
        """Validating constructor from 27 counts (numpy array or sequence) and melds
        (``Meld`` or ``(kind, tile)`` pairs)."""
        return cls(counts, melds)

    @classmethod
    def _trusted(cls, key: bytes, melds: tuple[Meld, ...]) -> "Hand":
        h = cls.__new__(cls)
        h._init(key, melds)
        return h

    @classmethod
    def _of_native(cls, nat: _core.Hand) -> "Hand":
        """The Hand of a native hand the core has validated."""
        h = cls.__new__(cls)
        h._init(nat.counts, tuple([_MELD_OF[m[0]][m[1]] for m in nat.melds]), nat)
        return h

    @property
    def counts(self) -> npt.NDArray[np.uint8]:
        """Concealed tile counts by kind, ``uint8[27]``, read-only."""
        c = self._counts
        if c is None:
            c = np.frombuffer(self._key, dtype=np.uint8)  # over bytes: read-only
            object.__setattr__(self, "_counts", c)
        return c

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The melds, in the order they were written or made."""
        return self._melds

    @property
    def concealed(self) -> int:
        """Number of concealed tiles."""
        return sum(self._key)

    def held(self) -> npt.NDArray[np.uint8]:
        """Copies of each kind held anywhere (concealed + melds), ``uint8[27]``."""
        held = bytearray(self._key)
        for m in self._melds:
            held[m.index] += m.size
        return np.frombuffer(held, dtype=np.uint8)  # over a bytearray: writable, as a copy is

    @property
    def _native(self) -> _core.Hand:
        """The cached native ``_core.Hand`` (built on first use)."""
        n = self._nat
        if n is None:
            from . import _core

            n = _core.Hand(self._key, [(m.type, m.index) for m in self._melds])
            object.__setattr__(self, "_nat", n)
        return n

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Hand is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Hand is immutable")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ and not isinstance(other, Hand):
            return NotImplemented
        return self._key == other._key and self._melds == other._melds

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self._key, self._melds))
            object.__setattr__(self, "_hash", h)
        return h

    def __str__(self) -> str:
        t = self._text
        if t is None:
            t = _format(self._key, self._melds)
            object.__setattr__(self, "_text", t)
        return t

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def __reduce__(self) -> Any:
        return (parse_hand, (str(self),))


def _melds_tuple(melds: Iterable[Any]) -> tuple[Meld, ...]:
    if isinstance(melds, (str, bytes)):
        raise TypeError("melds must be a sequence of Meld (use parse_hand for notation text)")
    out = []
    for m in melds:
        if isinstance(m, Meld):
            out.append(m)
        elif isinstance(m, tuple) and len(m) == 2:
            out.append(Meld(*m))
        else:
            raise TypeError(f"a meld must be a Meld or a (kind, tile) pair, got {m!r}")
    if len(out) > 4:
        raise ValueError(f"more than 4 melds ({len(out)})")
    return tuple(out)


# Every meld as one shared object, by native (type, kind): hands built from the core reuse them.
_MELD_OF: tuple[tuple[Meld, ...], ...] = tuple(
    tuple(Meld(kind, k) for k in range(N_KINDS)) for kind in MELD_KINDS
)

_RUNS = tuple(tuple(str(r + 1) * n for n in range(5)) for r in range(9))  # _RUNS[rank-1][count]


def _format(key: bytes, melds: tuple[Meld, ...]) -> str:
    parts = []
    for s in range(3):
        seg = key[9 * s : 9 * s + 9]
        if any(seg):
            parts.append("".join([_RUNS[r][n] for r, n in enumerate(seg) if n]) + SUITS[s])
    parts.extend([str(m) for m in melds])
    return "".join(parts)


def parse_hand(text: str) -> Hand:
    """Parse docs/rules.md §1 notation: ``parse_hand("11p345m(777s)(8888m)[9999p]")``.

    Suit letters ``m``/``p``/``s`` or the Chinese suffixes 万/萬, 筒/饼/餅/铜, 条/條/索; whitespace is
    ignored; melds come after all concealed tiles. The tile count is not checked here (each operation
    checks its own); anything malformed, a rank 0 or a fifth copy (melds included) is a ``ValueError``
    naming the problem. The parser is native (``cpp/notation.cpp``).
    """
    if not isinstance(text, str):
        raise TypeError(f"hand notation must be a str, got {type(text).__name__}")
    return Hand._of_native(_core.parse_hand(text))
