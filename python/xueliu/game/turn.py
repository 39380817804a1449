"""What the seat on turn does (docs/rules.md §4): discard (the claim window follows), a concealed kong,
an added kong (declared: the others may rob it first), or 自摸. Automatic moves — auto-play, a
forced last-tile win, a frozen xueliu hand's discard — are played here too, until a seat must
decide."""

from __future__ import annotations

from .. import _core
from .actions import DISCARD_HONGZHONG_ID, HU_ID, SWAP_BACK_BASE, Action
from .claims import open_claims
from .data import TK_DRAW, HandData
from .draw import draw, open_turn
from .end_of_hand import end_by_wall
from .kongs import concealed_kong
from .wins import self_draw_win

_turn_discard = _core.turn_discard
_CLAIMS, _EMPTY_WALL = 1, 2  # what turn_discard leaves to Python (3: open the drawn seat's turn)


def play_automatic_moves(g: HandData) -> None:
    """Plays automatic turn moves until a seat must decide or the hand is over."""
    while g._auto_move is not None:
        seat, action = g._auto_move
        g._auto_move = None
        g._auto_flag = True
        apply_turn(g, seat, action)
        g._auto_flag = False


def apply_turn(g: HandData, s: int, action: Action) -> None:
    """Seat ``s`` on turn plays ``action`` (one of its legal actions)."""
    aid = action.id
    if aid < 27:
        discard(g, s, aid)
    elif aid >= DISCARD_HONGZHONG_ID:  # docs/rules.md §12.3: a 红中 discard, or 提
        if aid == DISCARD_HONGZHONG_ID:
            discard(g, s, 27)
        else:
            swap_back(g, s, aid - SWAP_BACK_BASE)
    elif aid == HU_ID:
        self_draw_win(g, s)
    elif aid < 108:
        concealed_kong(g, s, aid - 81)
    else:
        declare_added_kong(g, s, aid - 108)


def discard(g: HandData, s: int, k: int) -> None:
    """Seat ``s`` discards kind ``k``: the claim window opens if anyone may claim it, else the
    next seat in play draws.

    The discard goes to the seat's river (on view: ``_seen``), its waits are recomputed unless it
    discarded the tile it just drew (a seat's waits always describe its hand without that tile),
    and most discards interest nobody — no other seat waits on the tile or holds two of it — so
    the window would open and close at once (it has no event) and the next seat draws now. This is
    the engine's hottest path: the native core plays it (``_core.turn_discard``,
    cpp/bindings/bind_turn.cpp: this discard, then :func:`~xueliu.game.draw.draw` and
    :func:`~xueliu.game.draw.open_turn` for a plain draw) and hands back here where anything
    else must happen."""
    if g._native:
        after_discard(g, s, k, _turn_discard(g, s, k))
    else:
        wild_discard(g, s, k)


def wild_discard(g: HandData, s: int, k: int) -> None:
    """:func:`discard` at a table with wild tiles (docs/rules.md §12.3), in Python: a discarded wild
    is dead (nobody may win, peng or kong on it: the next seat draws), any other discard opens
    the claim window, which finds who may claim it. The seat's waits are recomputed every time
    (a 提 may have changed its hand since its draw)."""
    w = g._wild
    assert w is not None
    h = g._hands[s]
    h[k] -= 1
    if g._void_count[s] and k // 9 == g._void[s] and not w.is_wild[k]:
        g._void_count[s] -= 1
    g._rivers[s].append(k)
    g._seen[k] += 1
    g._ev.append(("dahai", s, k, k == g._drawn, g._auto_flag))
    g._update_waits(s)
    if w.is_wild[k]:
        draw(g, g._next_in_play(s))
    else:
        open_claims(g, s, k, False)


def swap_back(g: HandData, s: int, k: int) -> None:
    """提 (docs/rules.md §12.3, §12.5): seat ``s`` puts its natural ``k`` into its exposed meld of
    kind ``k`` and takes back the meld's wild of the lowest kind; its turn goes on. If the drawn
    tile's kind is no longer held, the wild taken back counts as the drawn tile."""
    w = g._wild
    assert w is not None
    i = next(i for i, m in enumerate(g._melds[s]) if m[1] == k)
    wild = w.meld_wilds[s][i].pop(0)
    h = g._hands[s]
    h[k] -= 1
    h[wild] += 1
    code, left = g._core_melds[s][i][0], len(w.meld_wilds[s][i])
    g._core_melds[s][i] = (code, k, left) if left else (code, k)
    g._seen[wild] -= 1  # the meld's public tiles: a wild leaves it, a natural goes in
    g._seen[k] += 1
    if g._drawn == k and not h[k]:
        g._drawn = wild
        if g._rinshan:
            g._fresh |= 1 << wild
    g._ev.append(("ti", s, k, wild))
    if g._drawn >= 0:  # the waits of the hand without its drawn tile (data.py: _waits)
        rest = bytearray(h)
        rest[g._drawn] -= 1
        g._waits[s] = 0 if g._void_count[s] else w.waits(g._wild_hand(s, rest), g._void[s])
    open_turn(g, s, g._drawn, g._turn_kind)


def after_discard(g: HandData, s: int, k: int, then: int) -> None:
    """What the native discard (``_core.turn_discard`` or ``turn_step``) left to Python: ``then``
    is its result (0: the next seat's turn is open)."""
    what = then & 3
    if what:
        if what == _CLAIMS:
            open_claims(g, s, k, False)
        elif what == _EMPTY_WALL:
            end_by_wall(g)
        else:
            open_turn(g, then >> 2 & 3, g._drawn, TK_DRAW)


def declare_added_kong(g: HandData, s: int, k: int) -> None:
    # The tile leaves the hand now; it becomes a kong only if nobody robs it.
    w = g._wild
    if w is None:
        g._hands[s][k] -= 1
        g._ev.append(("kakan", s, k))
        open_claims(g, s, k, True)
        return
    # docs/rules.md §12.5: the added tile is a natural one of the kind if the seat holds one,
    # else its lowest wild; a robber wins on that tile.
    h = g._hands[s]
    t = k if h[k] else w.wilds_held(h)[0]
    h[t] -= 1
    w.adding = (k, t)
    i = next(i for i, m in enumerate(g._melds[s]) if m[1] == k)
    peng = (k,) * (3 - len(w.meld_wilds[s][i])) + tuple(w.meld_wilds[s][i])
    g._ev.append(("kakan", s, k, t, peng))
    open_claims(g, s, t, True)
