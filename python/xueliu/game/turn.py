"""What the seat on turn does (RULES §4): discard (the claim window follows), a concealed kong,
an added kong (declared: the others may rob it first), or 自摸. Automatic moves — auto-play, a
forced last-tile win, a frozen xueliu hand's discard — are played here too, until a seat must
decide."""

from __future__ import annotations

from .. import _core
from .actions import HU_ID, Action
from .claims import open_claims
from .data import AFTER, HandData
from .draw import draw
from .kongs import concealed_kong
from .wins import self_draw_win

_Hand = _core.Hand  # module globals: one lookup on the hottest path instead of two
_waits = _core.waits


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
    elif aid == HU_ID:
        self_draw_win(g, s)
    elif aid < 108:
        concealed_kong(g, s, aid - 81)
    else:
        declare_added_kong(g, s, aid - 108)


def discard(g: HandData, s: int, k: int) -> None:
    """Seat ``s`` discards kind ``k``: the claim window opens if anyone may claim it, else the
    next seat in play draws."""
    h = g._hands[s]
    h[k] -= 1
    vc = g._void_count
    if vc[s] and k // 9 == g._void[s]:
        vc[s] -= 1
    g._rivers[s].append(k)
    g._seen[k] += 1
    drawn = g._drawn
    g._ev.append(("dahai", s, k, k == drawn, g._auto_flag))
    # A seat's waits always describe its hand without the tile just drawn (a draw does not
    # recompute them), so discarding that tile leaves them as they are. (HandData._update_waits,
    # inline: this is the engine's hottest line.)
    w = g._waits
    if k != drawn:
        w[s] = 0 if vc[s] else _waits(_Hand(bytes(h), g._core_melds[s]), g._void[s], g._sp)
    # Most discards interest nobody: no other seat waits on the tile or holds two of it (counts are
    # 0..4, so an OR of three counts exceeds 1 exactly when one of them does). Then the claim
    # window would open and close at once (it has no event), so the next seat draws now.
    a, b, c = AFTER[s]
    hands = g._hands
    if ((w[a] | w[b] | w[c]) >> k) & 1 or (hands[a][k] | hands[b][k] | hands[c][k]) > 1:
        open_claims(g, s, k, False)
    else:
        draw(g, a if g._in_play[a] else g._next_in_play(s))


def declare_added_kong(g: HandData, s: int, k: int) -> None:
    # The tile leaves the hand now; it becomes a kong only if nobody robs it.
    g._hands[s][k] -= 1
    g._ev.append(("kakan", s, k))
    open_claims(g, s, k, True)
