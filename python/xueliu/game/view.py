"""A seat's view for bots in the same process: what ``observation(seat)`` shows (docs/rules.md §7), as tile
counts and small tuples instead of JSON, each piece read from the hand only when asked for.

>>> import xueliu
>>> state = xueliu.new_game("xueliu", seed=3)
>>> view = state.view(0)
>>> sum(view.hand), view.void, view.phase
(14, -1, 'exchange')

Tiles are kinds 0..26 (``suit = k // 9``: 0 万 m, 1 筒 p, 2 条 s; ``rank = k % 9 + 1``), so the
counts go straight to the core (``xueliu._core``) without turning names back into counts. A view
describes one moment: read it before the next ``step``, ``apply_timeout`` or ``escape``; after
that its reads raise ``ValueError`` (ask ``state.view(seat)`` again). Bots that run elsewhere
(another process, another language) read the JSON observation instead.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .. import _core
from ..rules import Rules
from .actions import VOID, Action
from .before_play import joint_legal
from .data import PH_CLAIM, PH_TURN, PH_VOID, PHASE_NAMES, HandData
from .wild_play import CoreMeld
from .observation import ViewCache, observation


class SeatView:
    """What seat ``seat`` sees now, for in-process bots (see the module docstring).

    - ``seat``, ``rules`` (the :class:`~xueliu.Rules` of the table), ``mode``, ``phase``
      (``"exchange"`` … ``"over"``), ``pending`` (this seat must decide now),
      ``legal_actions`` (as ``state.legal_actions(seat)``);
    - ``hand``: this seat's concealed tiles as ``bytes`` of 27 counts (``hand[k]`` copies of kind
      ``k``; 28 at a table with wild tiles, ``hand[27]`` its 红中); ``drawn``: the kind it just
      drew on its turn, else -1; ``melds``: its melds as the core's ``(type, kind)`` pairs (0
      peng, 1 exposed kong, 2 concealed kong; ``(type, kind, wilds)`` for a soft meld);
    - with wild tiles (docs/rules.md §12): ``wild_kinds``, ``benjin`` and ``meld_wilds`` (the
      physical wilds of each own meld);
    - ``void``: its void suit 0..2 (its own choice also before the reveal), -1 for none;
      ``voids``: the four revealed voids (-1 before the reveal);
    - ``visible``: ``bytes`` of 27 counts (28 with wilds) of the copies it sees outside its own
      hand and melds —
      every discard still in a river, the others' pengs and exposed kongs, the winning tiles set
      aside (not another seat's concealed kong): ``4 - hand[k] - own melds - visible[k]`` copies
      of ``k`` are unseen;
    - ``turn`` (the seat on turn or whose discard is claimed, ``None`` outside play), ``claim``
      (``(kind, from seat, robbing)`` while a claim window is open, else ``None``),
      ``wall_remaining``, ``in_play``, ``frozen`` (four bools each), ``multiplier_default``
      (the 选倍 timeout default, ``None`` without the phase);
    - :meth:`observation`: the JSON observation of docs/events.md.
    """

    __slots__ = ("seat", "_g", "_at", "_views", "_hand", "_visible")

    def __init__(self, state: HandData, seat: int, views: ViewCache) -> None:
        self.seat = seat
        self._g = state
        self._at = len(state._decisions)  # grows with every decision: the moment of this view
        self._views = views
        self._hand: Optional[bytes] = None
        self._visible: Optional[bytes] = None

    def _now(self) -> HandData:
        g = self._g
        if len(g._decisions) != self._at:
            raise ValueError(f"this view of seat {self.seat} is of an earlier moment of the hand; "
                             "ask state.view(seat) again")
        return g

    @property
    def rules(self) -> Rules:
        return self._g.rules

    @property
    def mode(self) -> str:
        return self._g.rules.mode

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._now()._phase]

    @property
    def pending(self) -> bool:
        return self.seat in self._now()._pending

    @property
    def legal_actions(self) -> List[Action]:
        g = self._now()
        if self.seat not in g._pending:
            return []
        lst = g._legal.get(self.seat)
        return list(lst if lst is not None else joint_legal(g, self.seat))

    @property
    def hand(self) -> bytes:
        g = self._now()
        h = self._hand
        if h is None:
            h = self._hand = bytes(g._hands[self.seat])
        return h

    @property
    def drawn(self) -> int:
        g = self._now()
        return g._drawn if g._phase == PH_TURN and g._turn == self.seat else -1

    @property
    def melds(self) -> Tuple[CoreMeld, ...]:
        return tuple(self._now()._core_melds[self.seat])

    @property
    def void(self) -> int:
        g = self._now()
        v = g._void[self.seat]
        if v < 0 and g._phase == PH_VOID:
            answer = g._answers.get(self.seat)
            if answer is not None:
                v = VOID.index(answer)  # its own choice, before the reveal
        return v

    @property
    def voids(self) -> Tuple[int, ...]:
        g = self._now()
        return tuple(g._void) if g._voids_revealed else (-1,) * g._n

    @property
    def visible(self) -> bytes:
        g = self._now()
        seen = self._visible
        if seen is None:
            counts = list(g._seen)
            w = g._wild
            meld_wilds = w.meld_wilds[self.seat] if w is not None else [()] * len(
                g._melds[self.seat])
            for (how, k, _), wilds in zip(g._melds[self.seat], meld_wilds):
                if how != "concealed":  # its own exposed melds are its own tiles
                    counts[k] -= (3 if how == "peng" else 4) - len(wilds)
                    for j in wilds:
                        counts[j] -= 1
            seen = self._visible = bytes(counts)
        return seen

    @property
    def wild_kinds(self) -> Tuple[int, ...]:
        """The kinds that are wild in this hand (docs/rules.md §12.1; 27 is 红中), lowest first;
        empty at a table without wilds."""
        w = self._now()._wild
        return () if w is None else w.kinds

    @property
    def benjin(self) -> int:
        """The kind of the 本金 turned up for this hand, -1 without one (docs/rules.md §12.1)."""
        w = self._now()._wild
        return -1 if w is None else w.benjin

    @property
    def meld_wilds(self) -> Tuple[Tuple[int, ...], ...]:
        """Per own meld (the order of :attr:`melds`), the kinds of the wilds in it."""
        g = self._now()
        w = g._wild
        if w is None:
            return ((),) * len(g._melds[self.seat])
        return tuple(tuple(m) for m in w.meld_wilds[self.seat])

    @property
    def turn(self) -> Optional[int]:
        g = self._now()
        if g._phase == PH_CLAIM:
            return g._c_from
        return g._turn if g._phase == PH_TURN else None

    @property
    def claim(self) -> Optional[Tuple[int, int, bool]]:
        g = self._now()
        return (g._c_tile, g._c_from, g._c_rob) if g._phase == PH_CLAIM else None

    @property
    def wall_remaining(self) -> int:
        g = self._now()
        return g._back - g._front + 1

    @property
    def in_play(self) -> Tuple[bool, ...]:
        return tuple(self._now()._in_play)

    @property
    def frozen(self) -> Tuple[bool, ...]:
        return tuple(self._now()._frozen)

    @property
    def multiplier_default(self) -> Optional[int]:
        g = self._g
        return g._pm_default if g._pm_allowed else None

    def observation(self) -> Dict[str, Any]:
        """The JSON observation of this seat now (``state.observation(seat)``)."""
        return observation(self._now(), self.seat, self._views)

    def __repr__(self) -> str:
        return f"<SeatView seat={self.seat} phase={self.phase}>"


def public_pieces(state: HandData, seat: int) -> Tuple[Any, ...]:
    """What ``observation(seat)`` shows, as the engine's own small pieces, for tensor encoders
    that read many seats' views a step (``xueliu.learn``'s ``encode_batch``): no JSON, no names.

    Read-only and valid for the current moment only (lists are the engine's own, not copies).
    Nothing here is hidden from ``seat`` (docs/rules.md §7): another seat's concealed kong has kind -1, its
    void and multiplier are absent before the reveal, and of the other hands only sizes are given.
    A tuple, in this order (tiles are kinds 0..26, seats absolute 0..3):

    ``phase`` (index in ``PHASE_NAMES``), ``dealer``, ``turn`` (-1 outside play; the discarder in a
    claim window), ``pending``, ``xuezhan`` (the mode), ``hand`` (this seat's 27 counts),
    ``drawn`` (-1: none), ``claim_tile`` (-1 without a claim window), ``robbing`` (the window
    offers robbing an added kong), ``exchange`` (``(given, received)`` kinds of this seat, or
    ``None``), ``rivers`` (four lists of kinds), ``melds`` (per seat ``(code, kind)`` as every
    seat sees them: code 0 peng, 1 exposed kong, 2 concealed kong with kind -1), ``own_melds``
    (this seat's ``(code, kind)``, its concealed kongs' kinds shown), ``won`` (``(seat, kind)`` of
    each win so far), ``set_aside`` (kinds), ``void`` (this seat's own, its choice before the
    reveal included; -1 none), ``voids`` (four, -1 before the reveal), ``multipliers`` (four,
    ``None`` before the reveal), ``in_play``, ``frozen``, ``auto_play`` (four bools each),
    ``wall_remaining``. The hand sizes (public too) are the sums of ``state._hands``.
    """
    g = state
    ph = g._phase
    if ph == PH_CLAIM:
        turn, claim_tile, robbing = g._c_from, g._c_tile, g._c_rob
    else:
        turn = g._turn if ph == PH_TURN else -1
        claim_tile, robbing = -1, False
    drawn = g._drawn if ph == PH_TURN and g._turn == seat else -1
    e = g._exchange
    exchange = None if e is None else (e["given"][seat], e["received"][seat])
    void = g._void[seat]
    if void < 0 and ph == PH_VOID:
        answer = g._answers.get(seat)
        if answer is not None:
            void = VOID.index(answer)  # its own choice, before the reveal
    return (ph, g.dealer, turn, seat in g._pending, not g._xueliu, g._hands[seat], drawn,
            claim_tile, robbing, exchange, g._rivers, g._open_melds, g._core_melds[seat],
            g._win_tiles, g._set_aside, void, g._void if g._voids_revealed else _NO_VOIDS[g._n],
            g._mult if g._mult_revealed else None, g._in_play, g._frozen, g._auto,
            g._back - g._front + 1)


_NO_VOIDS = {n: (-1,) * n for n in (2, 3, 4)}  # voids before the reveal, by seat count
def hidden_pieces(state: HandData) -> Tuple[Any, ...]:
    """What no seat sees, for oracle encoders only (``oracle_v1``): the four hands (27 counts
    each), each seat's concealed kong kinds, and the live wall in draw order (a new list). Like
    :func:`public_pieces`, read-only and valid for the current moment only."""
    g = state
    return (g._hands, [[k for how, k, _ in ms if how == "concealed"] for ms in g._melds],
            g._wall[g._front:g._back + 1])


# The native encoder reads a seat's view straight from a hand's fields, as public_pieces does
# (cpp/bindings/bind_encode.cpp; tests/learn/test_view_encoding.py holds the two together).
_core.register_views(HandData, VOID)
