"""The fast path of the encoders: ``obs_v1`` (and ``oracle_v1``) of many seats at once, read from
the engine's seat views (:func:`xueliu.game.view.public_pieces`) instead of JSON observations.

The observation-dict path in :mod:`xueliu.learn.encoders` stays the definition of ``obs_v1`` (a
function of ``state.observation(seat)`` alone); this path gives the same values bit for bit
(tests/learn/test_view_encoding.py checks every seat at every decision of hundreds of hands) and
reads only what ``public_pieces`` hands out, which is what the seat may see (RULES §7).

Why it is fast: per view the Python work is a few appends of the engine's own small pieces (a
hand's 27 counts as bytes, the rivers as lists of kinds, a few flags); every channel is then built
for the whole batch at once by numpy — one ``bincount`` for all tile lists, comparisons against
precomputed rows for the planes, bars and flags, one fancy-index scatter per group of single
tiles — and seats are turned to the relative order (self, next, across, prev) by fancy indexing.
Its fixed cost (some 60 numpy calls) pays from about ten views up; ``encode`` of one view keeps
the plain-Python path.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from ..game import GameState
from ..game.view import hidden_pieces, public_pieces
from .channels import OBS_V1, offsets

__all__ = ["obs_v1_from_views", "oracle_extra_from_states", "views_of"]

_O = {name: at // 27 for name, at in offsets(OBS_V1).items()}  # channel index by name
_REL = ("self", "next", "across", "prev")
_AR4 = np.arange(4)
_AR5 = np.arange(5)
_AR27 = np.arange(27)
_SUIT27 = _AR27 // 9
_T4 = np.arange(1, 5)[:, None]  # thresholds of the "at least i" planes
_T3 = _T4[:3]
_T2 = _T4[:2]


def _chs(name: str) -> np.ndarray:
    return np.array([_O[name.format(r=r)] for r in _REL])


_CH_DISCARDS = _chs("discards_{r}")
_CH_DISCARDS_2 = _chs("discards_{r}_2")
_CH_LAST = _chs("last_discard_{r}")
_CH_PENGS = _chs("pengs_{r}")
_CH_KONGS = _chs("kongs_{r}")
_CH_WON = _chs("won_tiles_{r}")
_CH_OWN_CONCEALED = _O["concealed_kongs_self"]
# Meld channel by (code, relative seat); -1: another seat's concealed kong (a hidden-kong count).
_CH_MELD = np.array([_CH_PENGS, _CH_KONGS, [_CH_OWN_CONCEALED, -1, -1, -1]])
_GROUPS = 8  # tile lists per view: four rivers (absolute seats), given, received, picks, set aside
_NB = 22  # small values per view in the byte stream
_NI = 12  # values per view in the int stream
_ZI4 = (0, 0, 0, 0)
_EMPTY = ((), ())
_KIND = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}


def views_of(states: Sequence[Any],
             seats: Sequence[Any]) -> Tuple[List[Tuple[Any, ...]], List[int]]:
    """``public_pieces`` of each (state, seat), and the seats as ints; ``TypeError`` /
    ``ValueError`` naming a bad one."""
    views = []
    ints = []
    for i, (state, seat) in enumerate(zip(states, seats)):
        if not isinstance(state, GameState):
            raise TypeError(f"states[{i}] is a {type(state).__name__}, not a GameState")
        s = state._seat(seat)
        views.append(public_pieces(state, s))
        ints.append(s)
    return views, ints


def obs_v1_from_views(views: Sequence[Tuple[Any, ...]], seats: Sequence[int],
                      picks: Optional[Sequence[Sequence[int]]], x: np.ndarray) -> None:
    """Fills ``x[:, :92]`` (``uint8[n, >=92, 27]``, zeros on entry) with the ``obs_v1`` channels
    of ``views`` (``public_pieces`` of ``seats``), ``picks`` the exchange picks per view."""
    n = len(views)
    if n == 0:
        return
    hands = bytearray()
    small = bytearray()
    ints: List[int] = []
    kinds: List[int] = []
    lens: List[int] = []
    meld_at: List[int] = []  # 4 * view + seat, per meld
    meld_code: List[int] = []
    meld_kind: List[int] = []
    win_at: List[int] = []
    win_kind: List[int] = []
    K = _KIND
    for i in range(n):
        (ph, dealer, turn, pending, xuezhan, hand, drawn, claim_tile, robbing, exchange, rivers,
         melds, wins, aside, void, voids, mults, in_play, frozen, auto, sizes, wall) = views[i]
        hands += hand
        small += bytes((ph, dealer, pending, xuezhan, robbing, wall))
        small += bytes(in_play)
        small += bytes(frozen)
        small += bytes(auto)
        small += bytes(sizes)
        ints += (turn, drawn, claim_tile, void)
        ints += voids
        ints += _ZI4 if mults is None else mults
        r0, r1, r2, r3 = rivers
        kinds += r0
        kinds += r1
        kinds += r2
        kinds += r3
        given, received = _EMPTY if exchange is None else exchange
        kinds += given
        kinds += received
        p = () if picks is None else picks[i]
        kinds += p
        kinds += aside
        lens += (len(r0), len(r1), len(r2), len(r3), len(given), len(received), len(p),
                 len(aside))
        if melds[0] or melds[1] or melds[2] or melds[3]:
            for q in range(4):
                for code, k in melds[q]:
                    meld_at.append(4 * i + q)
                    meld_code.append(code)
                    meld_kind.append(k)
        for q, t in wins:
            win_at.append(4 * i + q)
            win_kind.append(K[t])

    ar = np.arange(n)
    seat = np.asarray(seats, np.intp)
    rot = (seat[:, None] + _AR4) & 3  # the absolute seat of each relative one
    x[:, 0:4] = np.frombuffer(bytes(hands), np.uint8).reshape(n, 1, 27) >= _T4
    sm = np.frombuffer(bytes(small), np.uint8).reshape(n, _NB).astype(np.intp)
    iv = np.array(ints, np.intp).reshape(n, _NI)

    # Tile lists: every count of the batch in one bincount.
    ks = np.array(kinds, np.intp)
    ln = np.array(lens, np.intp)
    cnt = np.bincount(np.repeat(np.arange(n * _GROUPS) * 27, ln) + ks,
                      minlength=n * _GROUPS * 27).reshape(n, _GROUPS, 27)
    rivers_rel = cnt[ar[:, None], rot]  # (n, 4, 27)
    x[:, _CH_DISCARDS] = rivers_rel >= 1
    x[:, _CH_DISCARDS_2] = rivers_rel >= 2
    ln4 = ln.reshape(n, _GROUPS)
    ends = np.cumsum(ln).reshape(n, _GROUPS)[:, :4]
    vi, vq = np.nonzero(ln4[:, :4])
    x[vi, _CH_LAST[(vq - seat[vi]) & 3], ks[ends[vi, vq] - 1]] = 1
    x[:, 6:9] = cnt[:, 4, None] >= _T3
    x[:, 9:12] = cnt[:, 5, None] >= _T3
    x[:, 12:14] = cnt[:, 6, None] >= _T2

    # Single tiles: the draw, the claim, melds, wins.
    drawn_ = iv[:, 1]
    has = drawn_ >= 0
    x[ar[has], _O["drawn"], drawn_[has]] = 1
    claim = iv[:, 2]
    has = claim >= 0
    x[ar[has], _O["claim_tile"], claim[has]] = 1
    hidden = np.zeros((n, 4), np.intp)
    if meld_at:
        at = np.array(meld_at, np.intp)
        vi = at >> 2
        rel = ((at & 3) - seat[vi]) & 3
        ch = _CH_MELD[np.array(meld_code, np.intp), rel]
        shown = ch >= 0
        x[vi[shown], ch[shown], np.array(meld_kind, np.intp)[shown]] = 1
        hidden = np.bincount((4 * vi + rel)[~shown], minlength=4 * n).reshape(n, 4)
    x[:, _O["hidden_kongs_next"]:_O["hidden_kongs_prev"] + 1] = _AR27 < hidden[:, 1:, None]
    won = np.zeros((n, 4), np.intp)
    if win_at:
        at = np.array(win_at, np.intp)
        vi = at >> 2
        rel = ((at & 3) - seat[vi]) & 3
        x[vi, _CH_WON[rel], np.array(win_kind, np.intp)] = 1
        won = np.bincount(4 * vi + rel, minlength=4 * n).reshape(n, 4)
    x[:, _O["wins_self"]:_O["wins_prev"] + 1] = _AR27 < won[:, :, None]

    # What the seat sees outside its hand: rivers, set-aside tiles, a robbed tile, melds shown.
    robbing = sm[:, 4]
    visible = (rivers_rel.sum(1) + cnt[:, 7] + x[:, _O["claim_tile"]] * robbing[:, None]
               + 3 * x[:, _CH_PENGS].sum(1, dtype=np.intp)
               + 4 * (x[:, _CH_KONGS].sum(1, dtype=np.intp) + x[:, _CH_OWN_CONCEALED]))
    x[:, _O["visible_1"]:_O["visible_4"] + 1] = visible[:, None] >= _T4

    # Voids (own: its choice also before the reveal), flags, bars.
    voids = iv[:, 4:8][ar[:, None], rot]
    voids[:, 0] = iv[:, 3]
    x[:, _O["void_self"]:_O["void_prev"] + 1] = _SUIT27 == voids[:, :, None]
    x[:, _O["phase_exchange"]:_O["phase_claim"] + 1] = (sm[:, 0, None] == _AR5)[:, :, None]
    x[:, _O["claim_is_rob"]] = robbing[:, None]
    x[:, _O["pending"]] = sm[:, 2, None]
    x[:, _O["mode_xuezhan"]] = sm[:, 3, None]
    dealer_rel = (sm[:, 1] - seat) & 3
    x[:, _O["dealer_self"]:_O["dealer_prev"] + 1] = (dealer_rel[:, None] == _AR4)[:, :, None]
    turn = iv[:, 0]
    turn_rel = np.where(turn >= 0, (turn - seat) & 3, 4)
    x[:, _O["turn_self"]:_O["turn_prev"] + 1] = (turn_rel[:, None] == _AR4)[:, :, None]
    per_seat = sm[:, 6:22].reshape(n, 4, 4)[ar[:, None, None], _AR4[:, None], rot[:, None, :]]
    x[:, _O["in_play_self"]:_O["auto_play_prev"] + 1] = per_seat[:, :3].reshape(n, 12, 1)
    x[:, _O["hand_size_self"]:_O["hand_size_prev"] + 1] = _AR27 < per_seat[:, 3, :, None]
    mults = np.minimum(iv[:, 8:12][ar[:, None], rot], 27) - 1  # none: 0 - 1, no index
    x[:, _O["multiplier_self"]:_O["multiplier_prev"] + 1] = _AR27 == mults[:, :, None]
    wall = sm[:, 5, None]
    x[:, _O["wall_0_27"]] = _AR27 < wall
    x[:, _O["wall_28_54"]] = _AR27 < wall - 27


def oracle_extra_from_states(states: Sequence[GameState], seats: Sequence[int],
                             x: np.ndarray) -> None:
    """Fills ``x[:, 92:112]`` with the hidden channels of ``oracle_v1`` (the other hands, their
    concealed kongs, the live wall, its next tile) read from the engine: everything, for oracle
    training only."""
    n = len(states)
    if n == 0:
        return
    hands = bytearray()
    kinds: List[int] = []
    lens: List[int] = []
    for i in range(n):
        h, concealed, wall = hidden_pieces(states[i])
        s = seats[i]
        for r in (1, 2, 3):
            hands += h[(s + r) & 3]
        for r in (1, 2, 3):
            kinds += concealed[(s + r) & 3]
        kinds += wall
        lens += (len(concealed[(s + 1) & 3]), len(concealed[(s + 2) & 3]),
                 len(concealed[(s + 3) & 3]), len(wall))
    ks = np.array(kinds, np.intp)
    ln = np.array(lens, np.intp)
    cnt = np.bincount(np.repeat(np.arange(n * 4) * 27, ln) + ks,
                      minlength=n * 4 * 27).reshape(n, 4, 27)
    h3 = np.frombuffer(bytes(hands), np.uint8).reshape(n, 3, 1, 27)
    x[:, 92:104] = (h3 >= _T4).reshape(n, 12, 27)
    x[:, 104:107] = cnt[:, :3] > 0
    x[:, 107:111] = cnt[:, 3, None] >= _T4
    starts = np.cumsum(ln).reshape(n, 4)[:, 3] - ln[3::4]
    has = ln[3::4] > 0
    x[np.arange(n)[has], 111, ks[starts[has]]] = 1
