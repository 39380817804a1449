"""What the expert bot reads from one observation, as counts (and what it remembers between calls).

Everything here comes from the JSON observation a seat is given (docs/rules.md §7): its own hand and
melds, every discard, exposed meld and set-aside winning tile, the voids and multipliers once
revealed, who has won and who is still in play. Nothing else is read. The one memory kept between
calls is :class:`HandMemory`: the tiles discarded while a seat's hand was frozen (a won xueliu hand
always wins on its waits, so whatever it let pass is safe against it).

At a table with wild tiles (docs/rules.md §12; the observation's ``"wilds"``) the counts are of the
natural kinds only: the seat's wilds are a number of their own (``wilds``), every wild it cannot
see is counted in ``wild_left`` rather than in ``remaining``, the face-up 本金 is a seen tile, and
a soft meld's wilds are counted as wilds, not as tiles of its kind.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Shape

__all__ = ["KIND", "SUIT", "MELD_TYPE", "WILD_WIN", "TableView", "HandMemory", "read_view"]

KIND: Dict[str, int] = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}
"""Tile name -> kind 0..26 (suit = kind // 9)."""
SUIT: Dict[str, int] = {"m": 0, "p": 1, "s": 2}
MELD_TYPE: Dict[str, int] = {"peng": 0, "kong": 1, "concealed_kong": 2}
"""Observation meld type -> the core's meld type."""
PHYSICAL_KIND: Dict[str, int] = {**KIND, "7z": 27}
"""Tile name -> physical kind 0..27 at a table with wilds (27 is 红中)."""
WILD_WIN = -9
"""``TableView.won_tiles`` entry of a win on a wild: no kind, no suit (``-9 // 9`` is -1) and no
rank near any kind's."""
_MELD_SIZE = {"peng": 3, "kong": 4, "concealed_kong": 4}
QING_PATTERNS = frozenset({"qingyise", "qingdui", "qingqidui", "qingyaojiu", "qinglongqidui",
                           "qingjingoudiao", "qingshibaluohan", "qingsanlongqidui",
                           "jiulianbaodeng"})
"""Base patterns of one suit (a hand won with one of them waits only in that suit)."""


class TableView:
    """One seat's view of the table as plain lists of ints (built once per decision).

    ``counts`` own concealed tiles; ``melds`` own melds as core pairs ``(type, kind)``; ``void``
    own void suit (-1 none); ``remaining[k]`` copies of kind ``k`` this seat has not seen
    (4 − own − visible, docs/rules.md §5 张数; 0 for a kind not in play, docs/rules.md §11.1); ``unseen`` their
    sum (a 两房 wall: 72 − seen, not 108 − seen); ``seats`` the table's seats (``range(players)``),
    ``suits`` the suit indices in play, ``live_wall`` the wall after the deal, ``hand_size`` the
    tiles dealt a seat; ``draws_left`` the seat's own draws
    expected before the wall ends; per seat ``voids`` (-1 unknown), ``mults`` (1 when not
    revealed), ``rivers`` (kinds), ``meld_kinds`` (exposed kinds; -1 a hidden concealed kong),
    ``won_tiles`` (kinds it won on), ``win_mult`` (its best win multiplier so far), ``qing`` (the
    suit of a one-suit win, else -1), ``hand_sizes`` (concealed tiles), ``void_clear`` (known to
    hold no tile of its void suit any more).

    With wild tiles (docs/rules.md §12): ``wilds`` the wilds among the own concealed tiles (not in
    ``counts``), ``wild_kinds`` the hand's wild kinds, ``soft`` the wilds in each own meld (the
    order of ``melds``), ``wild_left`` the wilds this seat has not seen (a wild kind's
    ``remaining`` is 0: every wild is one pool), ``benjin`` the face-up 本金 (-1 none; it counts as
    seen). Without wilds these are 0, ``()``, zeros, 0 and -1; a win on a wild is
    :data:`WILD_WIN` in ``won_tiles``.
    """

    __slots__ = ("seat", "counts", "melds", "void", "visible", "remaining", "unseen", "wall",
                 "in_play", "frozen", "voids", "mults", "rivers", "meld_kinds", "meld_types",
                 "won_tiles", "win_mult", "qing", "draws_left", "mode", "n_in_play", "my_mult",
                 "hand_sizes", "void_clear", "seats", "suits", "live_wall", "hand_size",
                 "wilds", "wild_kinds", "soft", "wild_left", "benjin")

    seat: int
    counts: List[int]
    melds: List[Tuple[int, int]]
    void: int
    visible: List[int]
    remaining: List[int]
    unseen: int
    wall: int
    in_play: List[bool]
    frozen: List[bool]
    voids: List[int]
    mults: List[int]
    rivers: List[List[int]]
    meld_kinds: List[List[int]]
    meld_types: List[List[int]]
    won_tiles: List[List[int]]
    win_mult: List[int]
    qing: List[int]
    hand_sizes: List[int]
    void_clear: List[bool]
    seats: range
    suits: Tuple[int, ...]
    live_wall: int
    hand_size: int
    draws_left: float
    mode: str
    n_in_play: int
    my_mult: int
    wilds: int
    wild_kinds: Tuple[int, ...]
    soft: List[int]
    wild_left: int
    benjin: int

    def unit(self, other: int) -> int:
        """Payment units between this seat and ``other`` (the two player multipliers)."""
        return self.my_mult * self.mults[other]


def read_view(obs: Mapping[str, Any], shape: Optional[Shape] = None) -> TableView:
    """The :class:`TableView` of an observation (see the module docstring for what is read) at a
    table of ``shape`` (``rules.shape``; by default the §1–§10 table of four seats, three suits
    and 13 tiles)."""
    if shape is None:
        from ..rules import Rules
        shape = Rules.preset("xueliu").shape
    v = TableView()
    v.seats = shape.seats
    v.suits = shape.suit_indices
    v.live_wall = shape.wall_tiles - shape.dealt_tiles
    v.hand_size = shape.hand_size
    wild = obs.get("wilds")
    if wild is not None:
        _read_wild(v, obs, shape, wild)
        return _read_rest(v, obs, shape)
    v.wilds = v.wild_left = 0
    v.wild_kinds = ()
    v.benjin = -1
    me = v.seat = int(obs["seat"])
    n = shape.players
    counts = [0] * 27
    kind = KIND
    for t in obs["hand"]:
        counts[kind[t]] += 1
    v.counts = counts
    own = list(counts)
    seen = [0] * 27
    all_melds = obs["melds"]
    v.meld_kinds = [[] for _ in range(n)]
    v.meld_types = [[] for _ in range(n)]
    melds: List[Tuple[int, int]] = []
    for s, ms in enumerate(all_melds):
        for m in ms:
            t = m["tile"]
            typ = m["type"]
            k = kind.get(t, -1)  # another seat's concealed kong is "?"
            v.meld_kinds[s].append(k)
            v.meld_types[s].append(MELD_TYPE[typ])
            if s == me:
                melds.append((MELD_TYPE[typ], k))
                own[k] += _MELD_SIZE[typ]
            elif k >= 0:
                seen[k] += _MELD_SIZE[typ]
    v.melds = melds
    v.soft = [0] * len(melds)
    get = kind.__getitem__
    discards = obs["discards"]
    v.rivers = [list(map(get, river)) for river in discards]
    for t, copies in Counter(chain(chain.from_iterable(discards), obs["set_aside"])).items():
        seen[kind[t]] += copies
    v.visible = seen
    rem = [4 - a - b for a, b in zip(own, seen)]
    v.remaining = [x if x > 0 else 0 for x in rem]
    if len(shape.kinds) < 27:  # a kind not in play has no unseen copy
        in_play = shape.kind_mask
        v.remaining = [x if in_play >> k & 1 else 0 for k, x in enumerate(v.remaining)]
    v.unseen = max(1, sum(v.remaining))
    return _read_rest(v, obs, shape)


def _read_rest(v: TableView, obs: Mapping[str, Any], shape: Shape) -> TableView:
    """What :func:`read_view` reads besides the tiles (the same with and without wilds)."""
    n = shape.players
    me = v.seat
    kind = PHYSICAL_KIND  # (KIND's names and 红中)
    vd = obs.get("void")
    v.void = -1 if vd is None else SUIT[vd]
    voids = obs.get("voids") or [None] * n
    v.voids = [-1 if x is None else SUIT[x] for x in voids]
    if v.void >= 0:
        v.voids[me] = v.void
    mults = obs.get("multipliers")
    v.mults = [int(x) for x in mults] if mults else [1] * n
    v.my_mult = v.mults[me]
    v.in_play = list(obs.get("in_play") or [True] * n)
    v.frozen = list(obs.get("frozen") or [False] * n)
    wins = obs.get("wins") or [[] for _ in range(n)]
    if v.wild_kinds:  # a win on a wild names no kind (and no suit of a one-suit win)
        wild = set(v.wild_kinds)
        v.won_tiles = [[WILD_WIN if kind[w["tile"]] in wild else kind[w["tile"]] for w in ws]
                       for ws in wins]
    else:
        v.won_tiles = [[kind[w["tile"]] for w in ws] for ws in wins]
    v.win_mult = [max((int(w["multiplier"]) for w in ws), default=0) for ws in wins]
    # The suit of a one-suit win (清一色 family): that seat's waits are all of that suit.
    v.qing = [next((t // 9 for t, w in zip(won, ws) if w["base"] in QING_PATTERNS and t >= 0),
                   -1) for won, ws in zip(v.won_tiles, wins)]
    v.wall = int(obs.get("wall_remaining", v.live_wall))
    sizes = obs.get("hand_sizes")
    v.hand_sizes = [int(x) for x in sizes] if sizes else [shape.hand_size] * n
    v.void_clear = [_void_clear(v, s) for s in v.seats]
    v.mode = obs.get("mode", "xueliu")
    n = sum(1 for x in v.in_play if x)
    v.n_in_play = max(1, n)
    v.draws_left = v.wall / v.n_in_play
    return v


def _read_wild(v: TableView, obs: Mapping[str, Any], shape: Shape,
               wild: Mapping[str, Any]) -> None:
    """The tiles of :func:`read_view` at a table with wilds (the class docstring)."""
    n = shape.players
    me = v.seat = int(obs["seat"])
    kind = PHYSICAL_KIND
    v.wild_kinds = tuple(sorted(kind[t] for t in wild["kinds"]))
    is_wild = [False] * 28
    for k in v.wild_kinds:
        is_wild[k] = True
    benjin = wild.get("benjin")
    v.benjin = -1 if benjin is None else kind[benjin]
    counts = [0] * 28
    for t in obs["hand"]:
        counts[kind[t]] += 1
    v.wilds = sum(counts[k] for k in v.wild_kinds)
    for k in v.wild_kinds:
        counts[k] = 0
    del counts[27]
    v.counts = counts
    own = list(counts)
    own_wilds = v.wilds
    seen = [0] * 28
    v.meld_kinds = [[] for _ in range(n)]
    v.meld_types = [[] for _ in range(n)]
    melds: List[Tuple[int, int]] = []
    soft: List[int] = []
    for s, ms in enumerate(obs["melds"]):
        for m in ms:
            k = kind.get(m["tile"], -1)  # another seat's concealed kong is "?"
            typ = m["type"]
            v.meld_kinds[s].append(k)
            v.meld_types[s].append(MELD_TYPE[typ])
            wilds = m.get("wilds") or ()
            if s == me:
                melds.append((MELD_TYPE[typ], k))
                soft.append(len(wilds))
                own[k] += _MELD_SIZE[typ] - len(wilds)
                own_wilds += len(wilds)
            elif k >= 0:
                seen[k] += _MELD_SIZE[typ] - len(wilds)
                for t in wilds:
                    seen[kind[t]] += 1
    v.melds = melds
    v.soft = soft
    discards = obs["discards"]
    v.rivers = [[kind[t] for t in river] for river in discards]
    for t in chain(chain.from_iterable(discards), obs["set_aside"]):
        seen[kind[t]] += 1
    if v.benjin >= 0:
        seen[v.benjin] += 1  # face up for the whole hand
    seen_wilds = sum(seen[k] for k in v.wild_kinds)
    for k in v.wild_kinds:
        seen[k] = 0
    del seen[27]
    v.visible = seen
    in_play = shape.kind_mask
    v.remaining = [0 if is_wild[k] or not in_play >> k & 1 else max(0, 4 - own[k] - seen[k])
                   for k in range(27)]
    v.wild_left = max(0, int(wild.get("in_wall", 0)) - own_wilds - seen_wilds)
    v.unseen = max(1, sum(v.remaining) + v.wild_left)


class HandMemory:
    """What the bot remembers within one hand: the rivers' lengths when each seat was first seen
    frozen, so the tiles discarded after that (and not won on) are known safe against that seat.
    It notices a new hand by the dice, dealer and break point changing, or the rivers shrinking."""

    def __init__(self) -> None:
        self._key: Optional[Tuple[Any, ...]] = None
        self._marks: List[Optional[List[int]]] = []
        self._total = 0

    def update(self, obs: Mapping[str, Any], view: TableView) -> None:
        key = (tuple(obs.get("dice") or ()), obs.get("dealer"), tuple(obs.get("break") or ()))
        total = sum(len(r) for r in view.rivers)
        if key != self._key or total < self._total - 4 or len(self._marks) != len(view.seats):
            self._key = key
            self._marks = [None] * len(view.seats)
        self._total = total
        for s in view.seats:
            if view.frozen[s] and self._marks[s] is None:
                self._marks[s] = [len(r) for r in view.rivers]

    def safe_against(self, seat: int, view: TableView) -> Set[int]:
        """Kinds discarded (by anyone) since ``seat`` was first seen frozen: not its waits."""
        mark = self._marks[seat]
        if mark is None:
            return set()
        out: Set[int] = set()
        for river, m in zip(view.rivers, mark):
            out.update(river[m:])
        return out


def _void_clear(view: TableView, seat: int) -> bool:
    """Whether ``seat`` is known to hold no tile of its void suit (it may win only then): it has
    discarded a tile of another suit (the void suit must go first, docs/rules.md §3.2) or made a meld."""
    vd = view.voids[seat]
    if vd < 0:
        return False
    if view.meld_kinds[seat]:
        return True
    return any(k // 9 != vd for k in view.rivers[seat])


def unseen_in(view: TableView, kinds: Sequence[int]) -> int:
    return sum(view.remaining[k] for k in kinds)
