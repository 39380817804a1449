"""The fast path of the encoders: ``obs_v1`` (and ``oracle_v1``) of many seats at once, read from
the engine's seat views (:func:`xueliu.game.view.public_pieces`) instead of JSON observations.

The observation-dict path in :mod:`xueliu.learn.encoders` stays the definition of ``obs_v1`` (a
function of ``state.observation(seat)`` alone); this path gives the same values bit for bit
(tests/learn/test_view_encoding.py checks every seat at every decision of hundreds of hands) and
reads only what ``public_pieces`` and ``hand_sizes`` hand out, which the seat may see (RULES §7).

Why it is fast: per view, Python only calls ``public_pieces`` (the engine's own small pieces: a
hand's 27 counts as bytes, the rivers as lists of kinds, a few flags); the views are transposed by
``zip`` and flattened by ``itertools.chain`` (C loops), and numpy builds every channel for the
whole batch: one ``bincount`` counts every tile list of every view into groups (rivers, melds,
wins, the exchange, what is on view …), one gather-and-compare turns the counts into the 43 tile
planes, and one ``take`` from a table of precomputed rows (zeros, ones, bars, one-hots, suits)
writes the 49 flag, bar and one-hot channels — both straight into the caller's ``float32`` array.
Seats are turned to the relative order (self, next, across, prev) by fancy indexing. Its fixed
cost (some 80 numpy calls) pays from about ten views up; ``encode`` of one view keeps the
plain-Python path.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..game import GameState
from ..game.view import hand_sizes, hidden_pieces, public_pieces
from .channels import OBS_V1, ORACLE_V1

__all__ = ["obs_v1_from_views", "oracle_extra_from_states", "views_of"]

_flat = chain.from_iterable
_AR4 = np.arange(4)
_AR5 = np.arange(5)
_T4 = np.arange(1, 5, dtype=np.uint8)[:, None]  # thresholds of the "at least i" planes
_REL = ("self", "next", "across", "prev")

# Groups of 27 counts per view, filled by one bincount (rivers, melds, wins per relative seat).
G_DRAWN, G_CLAIM, G_GIVEN, G_RECEIVED, G_PICKS = range(5)
G_RIVER, G_LAST, G_PENG, G_KONG = 5, 9, 13, 17
G_OWN_CONCEALED, G_WON, G_VISIBLE = 21, 22, 26
_GROUPS = 27
# Each tile-plane channel of obs_v1 after the hand (4 … 42): the group it reads, its threshold.
_PLANE: Dict[str, Tuple[int, int]] = {
    "drawn": (G_DRAWN, 1), "claim_tile": (G_CLAIM, 1),
    **{f"exchange_given_{i}": (G_GIVEN, i) for i in (1, 2, 3)},
    **{f"exchange_received_{i}": (G_RECEIVED, i) for i in (1, 2, 3)},
    **{f"exchange_picks_{i}": (G_PICKS, i) for i in (1, 2)},
    **{f"discards_{r}": (G_RIVER + j, 1) for j, r in enumerate(_REL)},
    **{f"discards_{r}_2": (G_RIVER + j, 2) for j, r in enumerate(_REL)},
    **{f"last_discard_{r}": (G_LAST + j, 1) for j, r in enumerate(_REL)},
    **{f"pengs_{r}": (G_PENG + j, 1) for j, r in enumerate(_REL)},
    **{f"kongs_{r}": (G_KONG + j, 1) for j, r in enumerate(_REL)},
    "concealed_kongs_self": (G_OWN_CONCEALED, 1),
    **{f"won_tiles_{r}": (G_WON + j, 1) for j, r in enumerate(_REL)},
    **{f"visible_{i}": (G_VISIBLE, i) for i in (1, 2, 3, 4)},
}
_OBS_NAMES = [n for n, _ in OBS_V1]
_PLANES = 43  # channels 0 … 42 are tile planes, 43 … 91 flags, bars and one-hots
if set(_OBS_NAMES[4:_PLANES]) != set(_PLANE) or len(_OBS_NAMES) != 92:  # pragma: no cover
    raise AssertionError("obs_v1's channel table and its fast path disagree")
_SRC = np.array([_PLANE[n][0] for n in _OBS_NAMES[4:_PLANES]], np.intp)
_THR = np.array([_PLANE[n][1] for n in _OBS_NAMES[4:_PLANES]], np.uint8)[:, None]
# Meld (code, relative seat) -> group (-1: another seat's concealed kong, counted, kind unseen)
# and copies on view (a peng 3, a kong 4, an own concealed kong 4).
_MELD_GROUP = np.array([[G_PENG + r for r in range(4)], [G_KONG + r for r in range(4)],
                        [G_OWN_CONCEALED, -1, -1, -1]], np.intp)
_MELD_SEEN = np.array([[3] * 4, [4] * 4, [4, 0, 0, 0]], np.intp)

# Rows the flag, bar and one-hot channels are taken from, by code.
_ZERO, _ONE, _BAR0, _HOT0, _SUIT0 = 0, 1, 2, 30, 57
_ROWS = np.zeros((60, 27), np.uint8)
_ROWS[_ONE] = 1
for _n in range(28):
    _ROWS[_BAR0 + _n, :_n] = 1
for _k in range(27):
    _ROWS[_HOT0 + _k, _k] = 1
for _s in range(3):
    _ROWS[_SUIT0 + _s, 9 * _s:9 * _s + 9] = 1
_CODED = ["void_{r}", "phase_exchange", "phase_void", "phase_multiplier", "phase_turn",
          "phase_claim", "claim_is_rob", "pending", "mode_xuezhan", "dealer_{r}", "turn_{r}",
          "in_play_{r}", "frozen_{r}", "auto_play_{r}", "hand_size_{r}", "wins_{r}",
          "multiplier_{r}", "hidden_kongs_{r}", "wall_0_27", "wall_28_54"]
if _OBS_NAMES[_PLANES:] != [n.format(r=r) for n in _CODED
                            for r in (_REL if n.endswith("{r}") and not n.startswith("hidden")
                                      else _REL[1:] if n.startswith("hidden") else ("",))]:
    raise AssertionError("obs_v1's flag channels moved: update the fast path")  # pragma: no cover
_EMPTY: Tuple[Tuple[int, ...], Tuple[int, ...]] = ((), ())
_ZI4 = (0, 0, 0, 0)


def views_of(states: Sequence[Any],
             seats: Sequence[Any]) -> Tuple[List[Tuple[Any, ...]], List[int]]:
    """``public_pieces`` of each (state, seat), and the seats as ints; ``TypeError`` /
    ``ValueError`` naming a bad one."""
    views = []
    ints = []
    for i, (state, seat) in enumerate(zip(states, seats)):
        if not isinstance(state, GameState):
            raise TypeError(f"states[{i}] is a {type(state).__name__}, not a GameState")
        if seat.__class__ is not int or not 0 <= seat <= 3:
            seat = state._seat(seat)
        views.append(public_pieces(state, seat))
        ints.append(seat)
    return views, ints


def _ints(values: Any, n: int = -1) -> np.ndarray:
    return np.fromiter(values, np.intp, n)


def obs_v1_from_views(views: Sequence[Tuple[Any, ...]], seats: Sequence[int], sizes: np.ndarray,
                      picks: Optional[Sequence[Sequence[int]]], out: np.ndarray) -> None:
    """Fills ``out[:, :92]`` (``uint8[n, >=92, 27]``, any content) with the ``obs_v1`` channels of
    ``views`` (``public_pieces`` of ``seats``; ``sizes``: their ``hand_sizes``), ``picks`` the
    exchange picks per view (kinds 0..26)."""
    n = len(views)
    if n == 0:
        return
    (phase, dealer, turn, pending, xuezhan, hand, drawn, claim, robbing, exchange, rivers, melds,
     won, aside, void, voids, mults, in_play, frozen, auto, wall) = zip(*views)
    ar = np.arange(n)
    seat = np.array(seats, np.intp)
    rot = (seat[:, None] + _AR4) & 3  # [i, r]: the absolute seat of relative seat r
    rel = (_AR4 - seat[:, None]) & 3  # [i, q]: the relative seat of absolute seat q
    base = ar * (_GROUPS * 27)
    parts = []  # flat indices into the counts, one per tile counted

    # Rivers (absolute order in the views): counts, latest discards, on view.
    lens = _ints(map(len, _flat(rivers)), 4 * n)
    kinds = np.frombuffer(bytes(_flat(_flat(rivers))), np.uint8).astype(np.intp)
    slot = (base[:, None] + (G_RIVER + rel) * 27).ravel()
    parts.append(np.repeat(slot, lens) + kinds)
    has = lens > 0
    parts.append(slot[has] + (G_LAST - G_RIVER) * 27 + kinds[np.cumsum(lens)[has] - 1])
    parts.append(np.repeat(np.repeat(base + G_VISIBLE * 27, 4), lens) + kinds)
    # The set-aside winning tiles (on view) and the own exchange.
    parts.append(np.repeat(base + G_VISIBLE * 27, _ints(map(len, aside), n))
                 + _ints(_flat(aside)))
    ex = [e or _EMPTY for e in exchange]
    if any(exchange):
            parts.append(np.repeat((base[:, None] + np.array([G_GIVEN, G_RECEIVED]) * 27).ravel(),
                               _ints(map(len, _flat(ex)), 2 * n)) + _ints(_flat(_flat(ex))))
    if picks is not None:
        parts.append(np.repeat(base + G_PICKS * 27, _ints(map(len, picks), n))
                     + _ints(_flat(picks)))
    # The drawn tile and the tile on offer (a robbed one is on view).
    d = np.array(drawn, np.intp)
    has = d >= 0
    parts.append(base[has] + G_DRAWN * 27 + d[has])
    c = np.array(claim, np.intp)
    has = c >= 0
    parts.append(base[has] + G_CLAIM * 27 + c[has])
    rob = np.array(robbing, np.bool_)
    parts.append(base[rob] + G_VISIBLE * 27 + c[rob])
    # Melds: tile planes, copies on view, others' concealed kongs as counts.
    hidden = np.zeros((n, 4), np.intp)
    mlens = _ints(map(len, _flat(melds)), 4 * n)
    if mlens.any():
        pairs = _ints(_flat(_flat(_flat(melds)))).reshape(-1, 2)
        at = np.repeat(np.arange(4 * n), mlens)
        i = at >> 2
        r = rel[i, at & 3]
        code, k = pairs[:, 0], pairs[:, 1]
        group = _MELD_GROUP[code, r]
        shown = group >= 0
        parts.append(base[i[shown]] + group[shown] * 27 + k[shown])
        parts.append(np.repeat(base[i] + G_VISIBLE * 27 + k, _MELD_SEEN[code, r]))
        hidden = np.bincount((4 * i + r)[~shown], minlength=4 * n).reshape(n, 4)
    # Wins: the tiles each seat won on, and how many times it won.
    wins = np.zeros((n, 4), np.intp)
    wlens = _ints(map(len, won), n)
    if wlens.any():
        pairs = _ints(_flat(_flat(won))).reshape(-1, 2)
        i = np.repeat(ar, wlens)
        r = rel[i, pairs[:, 0]]
        parts.append(base[i] + (G_WON + r) * 27 + pairs[:, 1])
        wins = np.bincount(4 * i + r, minlength=4 * n).reshape(n, 4)

    counts = np.bincount(np.concatenate(parts), minlength=n * _GROUPS * 27).astype(
        np.uint8).reshape(n, _GROUPS, 27)
    planes = out.view(np.bool_)
    planes[:, 0:4] = np.frombuffer(b"".join(hand), np.uint8).reshape(n, 1, 27) >= _T4
    planes[:, 4:_PLANES] = counts.take(_SRC, axis=1) >= _THR

    # Flags, bars and one-hots: a row code per channel, then one take from _ROWS.
    code = np.empty((n, 92 - _PLANES), np.intp)
    v = _ints(_flat(voids), 4 * n).reshape(n, 4)[ar[:, None], rot]
    v[:, 0] = void
    code[:, 0:4] = np.where(v >= 0, _SUIT0 + v, _ZERO)
    code[:, 4:9] = np.array(phase, np.intp)[:, None] == _AR5
    code[:, 9] = rob
    code[:, 10] = pending
    code[:, 11] = xuezhan
    code[:, 12:16] = ((np.array(dealer, np.intp) - seat) & 3)[:, None] == _AR4
    t = np.array(turn, np.intp)
    code[:, 16:20] = np.where(t >= 0, (t - seat) & 3, 4)[:, None] == _AR4
    flags = np.frombuffer(bytes(_flat(_flat((in_play, frozen, auto)))), np.bool_)
    code[:, 20:32] = flags.reshape(3, n, 4)[:, ar[:, None], rot].transpose(1, 0, 2).reshape(n, 12)
    code[:, 32:36] = _BAR0 + np.minimum(sizes[ar[:, None], rot], 27)
    code[:, 36:40] = _BAR0 + np.minimum(wins, 27)
    if any(mults):
        m = _ints(_flat(_ZI4 if x is None else x for x in mults), 4 * n).reshape(n, 4)
        m = m[ar[:, None], rot]
        code[:, 40:44] = np.where(m > 0, _HOT0 - 1 + np.minimum(m, 27), _ZERO)
    else:
        code[:, 40:44] = _ZERO
    code[:, 44:47] = _BAR0 + np.minimum(hidden[:, 1:], 27)
    w = np.array(wall, np.intp)
    code[:, 47] = _BAR0 + np.minimum(w, 27)
    code[:, 48] = _BAR0 + np.clip(w - 27, 0, 27)
    np.take(_ROWS, code, axis=0, out=out[:, _PLANES:92], mode="clip")  # codes are in range


_ORACLE_AT = {n: i for i, (n, _) in enumerate(ORACLE_V1)}
_HANDS = _ORACLE_AT["hand_next_1"]
_CONCEALED = _ORACLE_AT["concealed_kongs_next"]
_WALL = _ORACLE_AT["live_wall_1"]
_NEXT_DRAW = _ORACLE_AT["next_draw"]


def oracle_extra_from_states(states: Sequence[GameState], seats: Sequence[int],
                             out: np.ndarray) -> None:
    """Fills ``out[:, 92:112]`` (``uint8``) with the hidden channels of ``oracle_v1`` (the other hands, their
    concealed kongs, the live wall, its next tile) read from the engine: everything, for oracle
    training only."""
    n = len(states)
    if n == 0:
        return
    hands, concealed, walls = zip(*map(hidden_pieces, states))
    ar = np.arange(n)
    seat = np.array(seats, np.intp)
    others = (seat[:, None] + _AR4[1:]) & 3
    held = np.frombuffer(b"".join(_flat(hands)), np.uint8).reshape(n, 4, 27)[ar[:, None], others]
    planes = out.view(np.bool_)
    planes[:, _HANDS:_HANDS + 12] = (held[:, :, None, :] >= _T4).reshape(n, 12, 27)
    lens = _ints(map(len, _flat(concealed)), 4 * n)
    kongs = np.bincount(np.repeat(np.arange(4 * n) * 27, lens) + _ints(_flat(_flat(concealed))),
                        minlength=4 * n * 27).reshape(n, 4, 27)
    planes[:, _CONCEALED:_CONCEALED + 3] = kongs[ar[:, None], others] > 0
    lens = _ints(map(len, walls), n)
    kinds = _ints(_flat(walls))
    left = np.bincount(np.repeat(ar * 27, lens) + kinds, minlength=n * 27).reshape(n, 27)
    planes[:, _WALL:_WALL + 4] = left.astype(np.uint8)[:, None, :] >= _T4
    out[:, _NEXT_DRAW] = 0
    has = lens > 0
    out[ar[has], _NEXT_DRAW, kinds[(np.cumsum(lens) - lens)[has]]] = 1
