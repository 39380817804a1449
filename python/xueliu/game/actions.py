"""Actions a seat can take, each with a stable integer id for bots and learning code.

An action is small and immutable: ``Action(kind, tile=None, tiles=None, suit=None, value=None)``.
``kind`` is one of ``"discard"``, ``"peng"``, ``"kong"`` (direct kong on a discard, 直杠/点杠),
``"concealed_kong"`` (暗杠), ``"added_kong"`` (补杠/面下杠), ``"hu"`` (胡, self-draw or on a discard),
``"pass"``, ``"exchange"`` (换三张 / 换四张: ``tiles`` the three or four tile names, sorted, as the
table's ``exchange_count`` asks), ``"void"`` (定缺: ``suit`` ``"m"``/``"p"``/``"s"``) and
``"multiplier"`` (选倍: ``value``).

Ids (stable; never renumber):

======================  ===============================================
0 – 26                  discard of kind k
27 – 53                 peng of kind k
54 – 80                 kong (direct) of kind k
81 – 107                concealed_kong of kind k
108 – 134               added_kong of kind k
135                     hu
136                     pass
137 – 139               void m, p, s
140 – 3793              exchange: index of the sorted kind triple a <= b <= c
                        in lexicographic order (3654 triples)
3794 + value - 1        multiplier ``value`` (1 <= value <= 1024)
4818 – 32222            exchange of four (换四张, ``exchange_count = 4``):
                        index of the sorted kind quadruple a <= b <= c <= d
                        in lexicographic order (27405 quadruples)
32223                   discard of 7z (红中, a wild: docs/rules.md §12)
32224 – 32250           swap_back (提) onto the own exposed meld of kind k
======================  ===============================================

Every other id is a ``ValueError`` (``NUM_ACTIONS`` = 32251 ids in all). The four-tile exchanges
came after the multipliers were numbered, so they follow them, and the wild-tile actions (§12.3)
follow those: no earlier id moved. ``"swap_back"`` (提) names the kind of the meld: the seat puts
its natural tile of that kind into the meld and takes the meld's wild back. A wild of a suit kind
(``1s`` under 幺鸡) is discarded with that kind's discard id; a soft peng or kong is the ``peng`` /
``kong`` / ``concealed_kong`` / ``added_kong`` of its kind (the engine puts in as few wilds as it
can). 1024 bounds the 选倍 values an
action can carry (the seeds' tables use up to 32); a table that allows more is refused by
:func:`~xueliu.new_game`.

>>> Action("discard", "5p").id
13
>>> Action.from_id(13)
Action('discard', '5p')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from math import comb
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from ..tiles import TILE_NAMES

_KIND = {name: k for k, name in enumerate(TILE_NAMES)}
SUITS = ("m", "p", "s")

KINDS = (
    "discard", "peng", "kong", "concealed_kong", "added_kong",
    "hu", "pass", "exchange", "void", "multiplier", "swap_back",
)
_TILE_KINDS = {"discard": 0, "peng": 27, "kong": 54, "concealed_kong": 81, "added_kong": 108}
HU_ID = 135
PASS_ID = 136
VOID_BASE = 137
EXCHANGE_BASE = 140
TRIPLES: Tuple[Tuple[int, int, int], ...] = tuple(combinations_with_replacement(range(27), 3))
_TRIPLE_INDEX: dict[tuple[int, ...], int] = {t: i for i, t in enumerate(TRIPLES)}
MULTIPLIER_BASE = EXCHANGE_BASE + len(TRIPLES)  # 3794
NUM_FIXED_ACTIONS = MULTIPLIER_BASE
"""Ids below this cover every action of the default table (discards .. three-tile exchanges);
multipliers (whose ids grow with the value) and four-tile exchanges come after."""
MAX_MULTIPLIER = 1024
"""The largest player multiplier (选倍 value) an action carries."""
EXCHANGE4_BASE = MULTIPLIER_BASE + MAX_MULTIPLIER  # 4818
NUM_QUADRUPLES = comb(27 + 3, 4)  # 27405 sorted kind quadruples a <= b <= c <= d
EXCHANGE4_END = EXCHANGE4_BASE + NUM_QUADRUPLES  # 32223: the first id after the exchanges
DISCARD_HONGZHONG_ID = EXCHANGE4_END  # 32223: discard 7z (红中)
SWAP_BACK_BASE = DISCARD_HONGZHONG_ID + 1  # 32224 + k: swap_back (提) onto the meld of kind k
NUM_ACTIONS = SWAP_BACK_BASE + 27  # 32251
"""Action ids are ``0 .. NUM_ACTIONS - 1``."""

_BY_ID: Dict[int, Action] = {}


@dataclass(frozen=True, eq=False, init=False)
class Action:
    """One decision of one seat. Actions are interned: equal actions are the same object, so
    equality is identity and ``id`` is the stable integer id.

    >>> Action("exchange", tiles=("9m", "1m", "5m")).tiles
    ('1m', '5m', '9m')
    >>> Action("discard", "5p") is Action.from_id(13)
    True
    """

    kind: str
    tile: Optional[str] = None
    tiles: Optional[Tuple[str, ...]] = None
    suit: Optional[str] = None
    value: Optional[int] = None
    id: int = field(default=-1, init=False, repr=False)

    def __new__(cls, kind: str, tile: Optional[str] = None, tiles: Optional[Sequence[str]] = None,
                suit: Optional[str] = None, value: Optional[int] = None) -> "Action":
        if not isinstance(kind, str):
            raise TypeError(f"action kind must be a str, got {type(kind).__name__}")
        if kind in _TILE_KINDS or kind == "swap_back":
            if tiles is not None or suit is not None or value is not None:
                raise ValueError(f"a {kind} action takes only a tile")
            if kind == "discard" and tile in ("7z", "中", "红中"):
                tile = "7z"
                aid = DISCARD_HONGZHONG_ID
            elif tile not in _KIND:
                raise ValueError(f"a {kind} action needs a tile name such as '5m', got {tile!r}")
            elif kind == "swap_back":
                aid = SWAP_BACK_BASE + _KIND[tile]
            else:
                aid = _TILE_KINDS[kind] + _KIND[tile]
        elif kind in ("hu", "pass"):
            if tile is not None or tiles is not None or suit is not None or value is not None:
                raise ValueError(f"a {kind} action takes no tile, tiles, suit or value")
            aid = HU_ID if kind == "hu" else PASS_ID
        elif kind == "void":
            if tile is not None or tiles is not None or value is not None:
                raise ValueError("a void action takes only a suit")
            suit = {"万": "m", "筒": "p", "条": "s"}.get(suit, suit)  # type: ignore[arg-type]
            if suit not in SUITS:
                raise ValueError(f"a void action needs suit 'm', 'p' or 's', got {suit!r}")
            aid = VOID_BASE + SUITS.index(suit)
        elif kind == "exchange":
            if tile is not None or suit is not None or value is not None:
                raise ValueError("an exchange action takes only tiles")
            if isinstance(tiles, str) or tiles is None:
                raise ValueError(f"an exchange action needs three or four tile names, got "
                                 f"{tiles!r}")
            tiles = tuple(tiles)
            if len(tiles) not in (3, 4) or any(t not in _KIND for t in tiles):
                raise ValueError(f"an exchange action needs three or four tile names, got "
                                 f"{tiles!r}")
            kinds = tuple(sorted(_KIND[t] for t in tiles))
            tiles = tuple(TILE_NAMES[k] for k in kinds)
            aid = EXCHANGE_BASE + _TRIPLE_INDEX[kinds] if len(kinds) == 3 \
                else EXCHANGE4_BASE + quadruple_index(kinds)
        elif kind == "multiplier":
            if tile is not None or tiles is not None or suit is not None:
                raise ValueError("a multiplier action takes only a value")
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not 1 <= value <= MAX_MULTIPLIER:
                raise ValueError(f"a multiplier action needs an int value 1..{MAX_MULTIPLIER}, "
                                 f"got {value!r}")
            aid = MULTIPLIER_BASE + value - 1
        else:
            raise ValueError(f"unknown action kind {kind!r}; expected one of {', '.join(KINDS)}")
        existing = _BY_ID.get(aid)
        if existing is not None:
            return existing
        self = object.__new__(cls)
        for name, v in (("kind", kind), ("tile", tile), ("tiles", tiles), ("suit", suit),
                        ("value", value), ("id", aid)):
            object.__setattr__(self, name, v)
        _BY_ID[aid] = self
        return self

    def __reduce__(self) -> Tuple[Callable[[int], Action], Tuple[int]]:
        return (Action.from_id, (self.id,))

    def __repr__(self) -> str:
        if self.tile is not None:
            return f"Action({self.kind!r}, {self.tile!r})"
        if self.tiles is not None:
            return f"Action('exchange', tiles={self.tiles!r})"
        if self.suit is not None:
            return f"Action('void', suit={self.suit!r})"
        if self.value is not None:
            return f"Action('multiplier', value={self.value!r})"
        return f"Action({self.kind!r})"

    def to_dict(self) -> Dict[str, Any]:
        """JSON-friendly form: ``{"kind": "discard", "tile": "5m"}`` (unused fields left out)."""
        d: Dict[str, Any] = {"kind": self.kind}
        if self.tile is not None:
            d["tile"] = self.tile
        if self.tiles is not None:
            d["tiles"] = list(self.tiles)
        if self.suit is not None:
            d["suit"] = self.suit
        if self.value is not None:
            d["value"] = self.value
        return d

    @staticmethod
    def from_id(action_id: int) -> "Action":
        """The action with this id (the same object every time)."""
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise TypeError(f"an action id is an int, got {type(action_id).__name__}")
        a = _BY_ID.get(action_id)
        if a is None:
            if not 0 <= action_id < NUM_ACTIONS:
                raise ValueError(f"no action has id {action_id} (ids are 0..{NUM_ACTIONS - 1})")
            a = _make(action_id)
        return a


def _make(aid: int) -> Action:
    if aid < 135:
        kind = ("discard", "peng", "kong", "concealed_kong", "added_kong")[aid // 27]
        return Action(kind, TILE_NAMES[aid % 27])
    if aid == HU_ID:
        return Action("hu")
    if aid == PASS_ID:
        return Action("pass")
    if aid < EXCHANGE_BASE:
        return Action("void", suit=SUITS[aid - VOID_BASE])
    if aid == DISCARD_HONGZHONG_ID:
        return Action("discard", "7z")
    if aid >= SWAP_BACK_BASE:
        return Action("swap_back", TILE_NAMES[aid - SWAP_BACK_BASE])
    if aid < MULTIPLIER_BASE or aid >= EXCHANGE4_BASE:
        return Action("exchange", tiles=tuple(TILE_NAMES[k] for k in exchange_kinds(aid)))
    return Action("multiplier", value=aid - MULTIPLIER_BASE + 1)


# Interned actions the engine hands out, indexed by kind (the hot path never builds an Action).
DISCARD = tuple(Action.from_id(k) for k in range(27))
PENG = tuple(Action.from_id(27 + k) for k in range(27))
KONG = tuple(Action.from_id(54 + k) for k in range(27))
CONCEALED_KONG = tuple(Action.from_id(81 + k) for k in range(27))
ADDED_KONG = tuple(Action.from_id(108 + k) for k in range(27))
DISCARD_PHYSICAL = DISCARD + (Action.from_id(DISCARD_HONGZHONG_ID),)
"""The discard of each of the 28 physical kinds (docs/rules.md §12: 27 is 红中)."""
SWAP_BACK = tuple(Action.from_id(SWAP_BACK_BASE + k) for k in range(27))
HU = Action.from_id(HU_ID)
PASS = Action.from_id(PASS_ID)
VOID = tuple(Action.from_id(VOID_BASE + s) for s in range(3))


def exchange_action(*kinds: int) -> Action:
    """The interned exchange action of the sorted kinds ``a <= b <= c`` (换三张) or
    ``a <= b <= c <= d`` (换四张)."""
    if len(kinds) == 3:
        return Action.from_id(EXCHANGE_BASE + _TRIPLE_INDEX[kinds])
    return Action.from_id(EXCHANGE4_BASE + quadruple_index(kinds))


def exchange_kinds(action_id: int) -> Tuple[int, ...]:
    """The sorted kinds an exchange id gives: its triple (ids 140..3793) or its quadruple
    (ids from 4818). ``ValueError`` for an id that is no exchange."""
    if EXCHANGE_BASE <= action_id < MULTIPLIER_BASE:
        return TRIPLES[action_id - EXCHANGE_BASE]
    if EXCHANGE4_BASE <= action_id < EXCHANGE4_END:
        return _quadruple(action_id - EXCHANGE4_BASE)
    raise ValueError(f"id {action_id} is no exchange (ids 140..3793 and 4818..{EXCHANGE4_END - 1})")


def multiplier_action(value: int) -> Action:
    return Action.from_id(MULTIPLIER_BASE + value - 1)


# The quadruples are ranked by arithmetic rather than a table (27405 entries would cost every
# process that imports the engine some 12 ms and 3 MB, for a knob most tables leave off). A
# sorted multiset a <= b <= c <= d of range(27) is the set {a, b + 1, c + 2, d + 3} of range(30);
# its place in lexicographic order counts the 4-sets that come after it, by their complements.
_N, _K = 27 + 3, 4
_LAST = comb(_N, _K) - 1


def quadruple_index(kinds: Tuple[int, ...]) -> int:
    """The index of sorted kinds ``a <= b <= c <= d`` in the lexicographic order of
    ``combinations_with_replacement(range(27), 4)`` (``ValueError`` for anything else).

    >>> quadruple_index((0, 0, 0, 0)), quadruple_index((0, 0, 0, 1)), quadruple_index((26,) * 4)
    (0, 1, 27404)
    """
    if len(kinds) != _K or any(not 0 <= k < 27 for k in kinds) or list(kinds) != sorted(kinds):
        raise ValueError(f"a four-tile exchange is four sorted kinds 0..26, got {kinds!r}")
    after = 0
    for i, k in enumerate(reversed(kinds)):  # x = k + its place; the complement _N - 1 - x
        after += comb(_N - 1 - (k + _K - 1 - i), i + 1)
    return _LAST - after


def _quadruple(index: int) -> Tuple[int, ...]:
    """The sorted kinds of quadruple ``index`` (the inverse of :func:`quadruple_index`)."""
    out = []
    x = 0  # the next candidate element of the 4-set of range(30)
    rank = index
    for i in range(_K):
        while True:
            block = comb(_N - 1 - x, _K - 1 - i)  # the 4-sets whose i-th element is x
            if rank < block:
                break
            rank -= block
            x += 1
        out.append(x - i)
        x += 1
    return tuple(out)
