"""Before play (docs/rules.md §3, §10 "Deal and phases"): 换三张 exchange three (换四张 with
``exchange_count = 4``, §11.1), 定缺 declare void and
选倍 player multipliers, in that order, each skipped when its knob is off.

Each is a joint decision: every seat answers (hidden from the others), a seat that has answered
leaves ``pending()``, and the phase resolves when the last one answers. Then the dealer's first
turn opens.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from .. import _core
from .actions import (MULTIPLIER_BASE, VOID, Action, exchange_action, exchange_kinds,
                      multiplier_action)
from .data import PH_EXCHANGE, PH_MULTIPLIER, PH_TURN, PH_VOID, TK_FIRST, HandData
from .defaults import default_action
from .draw import open_turn

_exchange_options = _core.exchange_options

_DIRECTIONS = ("next", "opposite", "previous")


def begin(g: HandData) -> None:
    """Opens the first decision point of a freshly dealt hand. Under a 本金 rule the wall's last
    tile is turned up first (docs/rules.md §12.1, §12.5); the exchange is skipped when some seat
    holds fewer natural tiles than it would give (wilds are never exchanged, §12.3)."""
    w = g._wild
    if w is not None and g.rules.uses_benjin:
        k = g._wall[g._back]
        g._back -= 1  # out of play: a "back" replacement starts at the index before it
        w.turn_up(k)
        g._seen[k] += 1
        g._ev.append(("benjin", k))
    if g.rules.exchange_three:
        count = g.rules.exchange_count
        if w is not None and any(w.naturals(h) < count for h in g._hands):
            g._ev.append(("huansanzhang_skipped",))
            after_exchange(g)
        else:
            enter_joint(g, PH_EXCHANGE)
    else:
        after_exchange(g)


def enter_joint(g: HandData, ph: int) -> None:
    g._phase = ph
    g._answers = {}
    g._legal = {}
    g._pending = [s for s in range(g._n) if not g._auto[s]]
    for s in range(g._n):
        if g._auto[s]:
            g._answers[s] = default_action(g, s)
    if not g._pending:
        resolve_joint(g)


def answer_joint(g: HandData, seat: int, action: Action) -> None:
    g._answers[seat] = action
    pending = g._pending
    assert isinstance(pending, list)  # this phase's own list (a turn's is a shared tuple)
    pending.remove(seat)
    if not pending:
        resolve_joint(g)


def joint_legal(g: HandData, seat: int) -> List[Action]:
    """A seat's options in a joint phase, built when first asked for (exchange lists are long)."""
    ph = g._phase
    if ph == PH_EXCHANGE:
        lst = exchange_options(g, seat)
    elif ph == PH_VOID:
        lst = list(VOID)
    elif ph == PH_MULTIPLIER:
        assert g._pm_allowed is not None  # the phase exists only with the knob
        lst = [multiplier_action(v) for v in g._pm_allowed]
    else:
        return []
    g._legal[seat] = lst
    return lst


def exchange_options(g: HandData, seat: int) -> List[Action]:
    """Every distinct sorted multiset of ``exchange_count`` kinds the seat can give (of one suit
    with ``exchange_same_suit``), in lexicographic order. A seat with no suit holding that many
    may give any tiles (docs/rules.md §11.1: possible only with 换四张 and 7-tile hands; every hand of 7
    or more tiles has a suit of three)."""
    h = g._hands[seat]
    count = g.rules.exchange_count
    same_suit = g.rules.exchange_same_suit
    if g._wild is not None:  # natural tiles only (docs/rules.md §12.3)
        return _multisets(bytearray(g._wild.split(h)[0]), count, same_suit)
    if count == 3:  # some suit always holds three: the native listing of the default table
        return _exchange_options(h, same_suit)
    return _multisets(h, count, same_suit)


def _multisets(h: bytearray, count: int, same_suit: bool) -> List[Action]:
    """The exchange actions of ``count`` tiles of ``h``, in lexicographic order of their kinds:
    within one suit when ``same_suit`` and some suit holds ``count``, else over the whole hand
    (a plain Python listing: at most a few hundred per suit)."""
    ranges = [(9 * u, 9 * u + 9) for u in range(3) if sum(h[9 * u:9 * u + 9]) >= count] \
        if same_suit else []
    if not ranges:
        ranges = [(0, 27)]
    out: List[Action] = []
    picked: List[int] = []

    def extend(lo: int, hi: int) -> None:
        if len(picked) == count:
            out.append(exchange_action(*picked))
            return
        for k in range(lo, hi):
            if h[k] > picked.count(k):
                picked.append(k)
                extend(k, hi)
                picked.pop()

    for lo, hi in ranges:
        extend(lo, hi)
    return out


def resolve_joint(g: HandData) -> None:
    ph = g._phase
    ans = g._answers
    if ph == PH_EXCHANGE:
        n = g._n
        direction, die = exchange_direction(g)
        shift = {"next": 1, "opposite": 2, "previous": n - 1}[direction]
        # An exchange action's id is its sorted kind triple (quadruple under 换四张).
        given = [list(exchange_kinds(ans[s].id)) for s in range(n)]
        received = [given[(s + shift) % n] for s in range(n)]
        for s in range(n):
            h = g._hands[s]
            for k in given[s]:
                h[k] -= 1
            for k in received[s]:
                h[k] += 1
        g._exchange = {"direction": direction, "die": die, "given": given,
                       "received": received}
        g._ev.append(("huansanzhang", direction, die, given, received))
        after_exchange(g)
    elif ph == PH_VOID:
        for s in range(g._n):
            v = VOID.index(ans[s])
            g._void[s] = v
            held = g._hands[s] if g._wild is None else g._wild.split(g._hands[s])[0]
            g._void_count[s] = sum(held[9 * v:9 * v + 9])  # natural tiles (wilds: no suit)
        g._voids_revealed = True
        g._ev.append(("dingque", list(g._void)))
        after_void(g)
    elif ph == PH_MULTIPLIER:
        g._mult = [ans[s].id - MULTIPLIER_BASE + 1 for s in range(g._n)]  # id -> value
        g._mult_revealed = True
        g._ev.append(("xuanbei", list(g._mult)))
        start_play(g)


def exchange_direction(g: HandData) -> Tuple[str, Optional[int]]:
    """(direction, die) of the exchange (docs/rules.md §3.1, §11.1): the seat each seat receives from.

    Four seats: ``"dice"`` 1–2 next, 3–4 opposite, 5–6 previous; ``"random"`` the stream's pick of
    three. Three seats (no opposite): ``"dice"`` 1–3 next, 4–6 previous, and ``"random"`` — uniform
    over the two — reads the same die (the stream's pick is a draw of three), not shown as a die.
    Two seats: every direction is the other seat, named ``"next"``."""
    rule = g.rules.exchange_direction
    n = g._n
    if n == 2:
        return "next", (g._exchange_die if rule == "dice" else None)
    if rule == "dice" or (rule == "random" and n == 3):
        die = g._exchange_die
        direction = _DIRECTIONS[(die - 1) // 2] if n == 4 else ("next", "previous")[(die - 1) // 3]
        return direction, (die if rule == "dice" else None)
    if rule == "random":
        return _DIRECTIONS[g._exchange_pick], None
    return rule, None


def after_exchange(g: HandData) -> None:
    if g.rules.declare_void:
        enter_joint(g, PH_VOID)
    else:
        after_void(g)


def after_void(g: HandData) -> None:
    if g._pm_allowed:
        enter_joint(g, PH_MULTIPLIER)
    else:
        start_play(g)


def start_play(g: HandData) -> None:
    for s in range(g._n):
        if s != g.dealer:
            g._update_waits(s)
    g._answers = {}
    g._phase = PH_TURN
    g._turn = g.dealer
    g._drawn = -1
    g._turn_kind = TK_FIRST
    open_turn(g, g.dealer, -1, TK_FIRST)
