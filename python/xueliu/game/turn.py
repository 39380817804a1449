"""What the seat on turn does (RULES §4): discard (the claim window follows), a concealed kong,
an added kong (declared: the others may rob it first), or 自摸. Automatic moves — auto-play, a
forced last-tile win, a frozen xueliu hand's discard — are played here too, until a seat must
decide."""

from __future__ import annotations

from .actions import HU_ID, Action
from .claims import open_claims
from .data import HandData
from .kongs import concealed_kong
from .wins import self_draw_win


def play_automatic_moves(g: HandData) -> None:
    """Plays automatic turn moves until a seat must decide or the hand is over."""
    while g._auto_move is not None:
        seat, action = g._auto_move
        g._auto_move = None
        g._auto_flag = True
        apply_turn(g, seat, action)
        g._auto_flag = False


def apply_turn(g: HandData, s: int, action: Action) -> None:
    aid = action.id
    g._legal = {}
    if aid < 27:
        discard(g, s, aid)
    elif aid == HU_ID:
        self_draw_win(g, s)
    elif aid < 108:
        concealed_kong(g, s, aid - 81)
    else:
        declare_added_kong(g, s, aid - 108)


def discard(g: HandData, s: int, k: int) -> None:
    g._hands[s][k] -= 1
    if k // 9 == g._void[s]:
        g._void_count[s] -= 1
    g._rivers[s].append(k)
    g._ev.append(("dahai", s, k, k == g._drawn, g._auto_flag))
    g._update_waits(s)
    open_claims(g, s, k, False)


def declare_added_kong(g: HandData, s: int, k: int) -> None:
    # The tile leaves the hand now; it becomes a kong only if nobody robs it.
    g._hands[s][k] -= 1
    g._ev.append(("kakan", s, k))
    open_claims(g, s, k, True)
