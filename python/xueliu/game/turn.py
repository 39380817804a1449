"""What the seat on turn does (docs/rules.md §4): discard (the claim window follows), a concealed kong,
an added kong (declared: the others may rob it first), or 自摸. Automatic moves — auto-play, a
forced last-tile win, a frozen xueliu hand's discard — are played here too, until a seat must
decide."""

from __future__ import annotations

from .. import _core
from .actions import HU_ID, Action
from .claims import open_claims
from .data import TK_DRAW, HandData
from .draw import open_turn
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
    after_discard(g, s, k, _turn_discard(g, s, k))


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
    g._hands[s][k] -= 1
    g._ev.append(("kakan", s, k))
    open_claims(g, s, k, True)
