"""A draw and the turn decision it opens (docs/rules.md §4, §10 "Turns and claims").

Each turn but the dealer's first starts with a draw from the live wall (a kong replacement from
the front or, with ``kong_draw_from = "back"``, the back); an empty wall ends the hand instead.
:func:`open_turn` then lists what the seat on turn may do: discard (only void-suit tiles while it
holds any), a concealed or added kong while tiles are left, 自摸 when the drawn tile completes its
hand. A frozen xueliu winner may only win, make a kong that keeps its waits, or discard the drawn
tile (played automatically when it is the only choice).
"""

from __future__ import annotations

from itertools import compress
from typing import Any, List, Optional, Tuple

from .. import _core
from .actions import (ADDED_KONG, CONCEALED_KONG, DISCARD, DISCARD_PHYSICAL, EXCHANGE_BASE, HU,
                      SWAP_BACK, Action)
from .data import PH_TURN, TK_DRAW, TK_FIRST, TK_PENG, HandData, Kong
from .defaults import default_action
from .end_of_hand import end_by_wall
from .wild_play import melded_kinds


_SUIT_DISCARDS = (DISCARD[0:9], DISCARD[9:18], DISCARD[18:27])
# The pending seats of a turn: one seat or none. Tuples shared by every turn (nothing changes a
# turn's pending seats in place; the claim window and the joint phases build their own lists).
ONLY = ((0,), (1,), (2,), (3,))
_NOBODY = ()
# The native engine hooks (cpp/bindings/bind_engine.cpp: turn.py's discard with this module's
# draw and open_turn on their common path; before_play.py's exchange options) put these same
# interned objects into a hand's state.
_core.register_engine(HandData, DISCARD, CONCEALED_KONG, ADDED_KONG, HU, ONLY,
                      lambda i: Action.from_id(EXCHANGE_BASE + i))
_turn_draw = _core.turn_draw
_EMPTY_WALL, _OPEN_TURN = 2, 3  # what the native hooks leave to Python (0: the turn is open)


def _added_kongs(melds: List[List[Any]], h: bytearray) -> List[Action]:
    """The added kongs a seat may declare: onto each of its pengs whose fourth tile it holds."""
    return [ADDED_KONG[j] for j in sorted(m[1] for m in melds if m[0] == "peng" and h[m[1]])]


def draw(g: HandData, s: int, replacement: bool = False, kong: Optional[Kong] = None) -> None:
    """Seat ``s`` draws (a kong replacement when ``replacement``) and its turn opens.

    A plain draw is played by the native core (``_core.turn_draw``: this function and
    :func:`open_turn`, line for line, on the common path), which hands back here for an empty
    wall and for a turn it does not open itself (a frozen or auto-played seat, a forced win)."""
    if not replacement and g._native:
        then = _turn_draw(g, s) & 3
        if then == _EMPTY_WALL:
            end_by_wall(g)
        elif then == _OPEN_TURN:
            open_turn(g, s, g._drawn, TK_DRAW)
        return
    front, back = g._front, g._back
    if back < front:
        end_by_wall(g)
        return
    if replacement and g._kong_back:
        k = g._wall[back]
        g._back = back = back - 1
    else:
        k = g._wall[front]
        g._front = front = front + 1
    if g._fresh_only:
        # The turn's draws so far: its live draw (g._drawn at its first replacement; none after a
        # direct kong, which opens the turn on another seat's discard) and every replacement.
        if g._rinshan and g._turn == s:
            fresh = g._fresh
        else:
            fresh = 1 << g._drawn if g._turn == s and g._drawn >= 0 else 0
        g._fresh = fresh | 1 << k
    h = g._hands[s]
    h[k] += 1
    if k // 9 == g._void[s] and (g._wild is None or not g._wild.is_wild[k]):
        g._void_count[s] += 1
    if g._pass_rule:
        g._pass_block[s] = None  # 过水 lasts until the seat's own next draw
    if g._earthly_draw:  # 地胡 on a first draw (earthly_win "first_draw" or "either")
        g._earthly = g._first_draw[s] and not g._any_meld and not replacement
        g._first_draw[s] = False
    g._phase = PH_TURN
    g._turn = s
    g._drawn = k
    g._turn_kind = TK_DRAW
    g._rinshan = replacement
    g._last_kong = kong
    g._haitei = back < front  # this draw emptied the live wall (海底)
    g._ev.append(("tsumo", s, k, replacement))
    open_turn(g, s, k, TK_DRAW)


def open_turn(g: HandData, s: int, k: int, tk: int) -> None:
    """The decision point of seat ``s`` on turn (``g._turn``), which got its tiles by ``tk`` (a
    draw of ``k``, the dealer's first 14 or a peng; ``g._drawn``, ``g._turn_kind``): its legal
    actions, or an automatic move."""
    h = g._hands[s]
    if g._wild is not None:
        legal, regular = wild_turn_options(g, s, k, tk)
        if g._frozen[s] and len(legal) == 1 and legal[0].kind == "discard":
            g._legal = {s: legal}  # only the drawn tile's discard: played for it
            g._pending = _NOBODY
            g._auto_move = (s, legal[0])
            return
        if regular and _forced_win(g, s, legal):  # (never 四鸡 alone)
            return
    elif g._frozen[s]:  # (it may hold a void tile: one just drawn)
        legal = _frozen_options(g, s, k)
        if len(legal) == 1:  # only the drawn tile's discard: played for it
            g._legal = {s: legal}
            g._pending = _NOBODY
            g._auto_move = (s, legal[0])
            return
        if legal[-1] is HU and _forced_win(g, s, legal):
            return
    elif g._void_count[s]:  # it must discard a tile of its void suit, and may do nothing else
        v = g._void[s]
        legal = [*compress(_SUIT_DISCARDS[v], h[9 * v:9 * v + 9])]
    else:
        legal = [*compress(DISCARD, h)]
        if tk != TK_PENG:
            if g._back >= g._front:  # no kong when the wall is empty
                if 4 in h:
                    legal.extend(CONCEALED_KONG[j] for j, c in enumerate(h) if c == 4)
                if g._melds[s]:
                    legal.extend(_added_kongs(g._melds[s], h))
            if (g._waits[s] >> k) & 1 if tk == TK_DRAW else g._he and _core.is_win(
                    _core.Hand(bytes(h), g._core_melds[s]), g._void[s], g._sp):
                legal.append(HU)
                if _forced_win(g, s, legal):
                    return
    g._legal = {s: legal}
    if g._auto[s]:
        g._pending = _NOBODY
        g._auto_move = (s, default_action(g, s))
    else:
        g._pending = ONLY[s]


def _frozen_options(g: HandData, s: int, k: int) -> List[Action]:
    """A frozen xueliu winner's turn: discard the drawn tile, a kong that keeps its waits, 胡."""
    h = g._hands[s]
    legal = [DISCARD[k]]
    if g._back >= g._front:
        pwk = g._pwk
        if h[k] == 4 and "concealed" in pwk \
                and g._waits_after_kong(s, k, "concealed") == g._waits[s]:
            legal.append(CONCEALED_KONG[k])
        if "added" in pwk and (0, k) in g._core_melds[s] \
                and g._waits_after_kong(s, k, "added") == g._waits[s]:
            legal.append(ADDED_KONG[k])
    if (g._waits[s] >> k) & 1:
        legal.append(HU)
    return legal


def _forced_win(g: HandData, s: int, legal: List[Action]) -> bool:
    """``forced_win_last_n``: near the end of the wall an offered win is taken automatically."""
    if g._forced_n and g._back - g._front + 1 < g._forced_n:
        g._legal = {s: legal}
        g._pending = _NOBODY
        g._auto_move = (s, HU)
        return True
    return False


def wild_turn_options(g: HandData, s: int, k: int, tk: int) -> Tuple[List[Action], bool]:
    """Seat ``s``'s legal actions on its turn at a table with wilds, and whether its 胡 (last when
    offered) is a complete hand (False: only 四鸡, which ``forced_win_last_n`` never takes).

    ``k`` is the drawn tile (``tk`` TK_DRAW), or -1 on the dealer's first turn (TK_FIRST) and
    after a peng (TK_PENG). The order is the one of a table without wilds — discards by kind
    (红中 last), kongs, then 提, then 胡."""
    w = g._wild
    assert w is not None
    h = g._hands[s]
    is_wild = w.is_wild
    natural, wilds = w.split(h)
    live = g._back >= g._front
    legal: List[Action] = []
    if g._frozen[s]:  # a xueliu winner: the drawn tile's discard, kongs keeping the waits, 胡
        if not is_wild[k] or w.dead_discard:
            legal.append(DISCARD_PHYSICAL[k])
        if live and not is_wild[k]:
            pwk = g._pwk
            if h[k] == 4 and "concealed" in pwk \
                    and g._waits_after_kong(s, k, "concealed") == g._waits[s]:
                legal.append(CONCEALED_KONG[k])
            if "added" in pwk and any(m[0] == "peng" and m[1] == k and (w.soft_kong or not mw)
                                      for m, mw in zip(g._melds[s], w.meld_wilds[s])) \
                    and g._waits_after_kong(s, k, "added") == g._waits[s]:
                legal.append(ADDED_KONG[k])
        regular = bool(g._waits[s] >> w.bit[k] & 1)
        if regular or (w.four_wilds and is_wild[k] and wilds >= 4):
            legal.append(HU)
        return legal, regular
    void = g._void[s]
    holding_void = g._void_count[s] > 0
    if holding_void:  # it must discard a natural tile of its void suit
        legal.extend(DISCARD[j] for j in range(9 * void, 9 * void + 9) if h[j] and not is_wild[j])
    else:  # (DISCARD_PHYSICAL is in kind order, 红中 last: the order of the discards)
        legal.extend(compress(DISCARD_PHYSICAL, h) if w.dead_discard
                     else compress(DISCARD, natural))
        if tk != TK_PENG and live and (4 in natural or (w.soft_kong and wilds and
                                                        max(natural) + wilds >= 4)):
            melded = melded_kinds(g._melds[s])
            for j in range(27):
                c = natural[j]
                if not c or j // 9 == void or melded >> j & 1:
                    continue
                if c == 4 or (w.soft_kong and c + wilds >= 4):
                    legal.append(CONCEALED_KONG[j])
        if tk != TK_PENG and live and g._melds[s]:
            for m, mw in sorted(zip(g._melds[s], w.meld_wilds[s]), key=_meld_kind):
                if m[0] == "peng":
                    j = m[1]
                    if (h[j] and (w.soft_kong or not mw)) or (w.soft_kong and wilds):
                        legal.append(ADDED_KONG[j])
    if w.swap_back and tk != TK_PENG:
        legal.extend(SWAP_BACK[m[1]] for m, mw in sorted(zip(g._melds[s], w.meld_wilds[s]),
                                                           key=_meld_kind)
                     if mw and m[0] != "concealed" and h[m[1]])
    regular = False
    if not holding_void:
        if tk == TK_DRAW:
            regular = bool(g._waits[s] >> w.bit[k] & 1)
        elif tk == TK_FIRST:
            regular = g._he and w.complete(g._wild_hand(s), g._void[s])
    siji = w.four_wilds and wilds >= 4 and (tk == TK_DRAW or (tk == TK_FIRST and g._he))
    if regular or siji:
        legal.append(HU)
    elif not w.dead_discard and wilds and not any(natural) and not h[27] * (not is_wild[27]):
        # Nothing but wilds and no 胡: a wild is discarded as under "dead" (docs/rules.md §12.3).
        legal[:0] = [DISCARD_PHYSICAL[j] for j in w.kinds if h[j]]
    return legal, regular


def _meld_kind(pair: Tuple[List[Any], List[int]]) -> int:
    kind: int = pair[0][1]
    return kind
