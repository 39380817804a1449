"""Kongs (杠, docs/rules.md §4, §7 刮风下雨, §10 "Payments"): the meld, its payments and the replacement
draw.

A direct kong (直杠/点杠) is made on another seat's discard, a concealed kong (暗杠) of four held
tiles, an added kong (补杠/面下杠) onto an own peng once nobody robs it (the declaration and the
robbing window are in ``turn.py`` and ``claims.py``). A kong is paid at once (``kong_settle =
"immediate"``: the discarder 2 and the others ``direct_kong_others`` for a direct kong, 1 each for an
added one, 2 each for a concealed one) or, under ``"on_win"``, its dues are fixed now and collected
at the konger's next win. Then the konger draws a replacement tile.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..tiles import PHYSICAL_NAMES as TILE_NAMES
from .data import MELD_TYPE, HandData, Kong
from .draw import draw


def add_meld(g: HandData, s: int, how: str, k: int, frm: Optional[int],
             wilds: Sequence[int] = ()) -> None:
    """A new meld of kind ``k``; ``wilds`` the physical wilds in it (docs/rules.md §12.3)."""
    g._melds[s].append([how, k, frm])
    code = MELD_TYPE[how]
    g._core_melds[s].append((code, k, len(wilds)) if wilds else (code, k))
    g._open_melds[s].append((code, -1 if how == "concealed" else k))
    if g._wild is not None:
        g._wild.meld_wilds[s].append(list(wilds))
    g._any_meld = True


def concealed_kong(g: HandData, s: int, k: int) -> None:
    if g._wild is None:
        g._hands[s][k] -= 4
        add_meld(g, s, "concealed", k, None)
        g._ev.append(("ankan", s, k))
    else:
        wilds = g._wild.take(g._hands[s], k, 4)
        add_meld(g, s, "concealed", k, None, wilds)
        g._ev.append(("ankan", s, k, (k,) * (4 - len(wilds)) + tuple(wilds)))
    kong_made(g, s, k, "concealed", None)


def direct_kong(g: HandData, s: int) -> None:
    """Seat ``s`` kongs the discard of the claim window."""
    k, frm = g._c_tile, g._c_from
    g._rivers[frm].pop()
    if g._wild is None:
        g._seen[k] += 3  # the discard (already seen) and three more, in the kong
        g._hands[s][k] -= 3
        add_meld(g, s, "direct", k, frm)
        g._ev.append(("daiminkan", s, frm, k))
    else:
        wilds = g._wild.take(g._hands[s], k, 3)
        consumed = (k,) * (3 - len(wilds)) + tuple(wilds)
        for j in consumed:
            g._seen[j] += 1
        add_meld(g, s, "direct", k, frm, wilds)
        g._ev.append(("daiminkan", s, frm, k, consumed))
    kong_made(g, s, k, "direct", frm)


def complete_added_kong(g: HandData) -> None:
    """Nobody robbed the added kong of the claim window: the peng becomes a kong."""
    s, t = g._c_from, g._c_tile  # t: the added tile (a wild's own kind at a table with wilds)
    k = t if g._wild is None else g._wild.adding[0]
    i = next(i for i, m in enumerate(g._melds[s]) if m[0] == "peng" and m[1] == k)
    g._melds[s][i][0] = "added"
    cm = g._core_melds[s]
    if g._wild is not None and t != k:
        g._wild.meld_wilds[s][i].append(t)
    left = 0 if g._wild is None else len(g._wild.meld_wilds[s][i])
    cm[i] = (1, k, left) if left else (1, k)
    om = g._open_melds[s]
    om[om.index((0, k))] = (1, k)
    g._seen[t] += 1
    g._any_meld = True
    # added_kong_payment = "fresh_only" (过手杠): the added tile came from a draw of this turn.
    paid = not g._fresh_only or bool(g._fresh >> t & 1 if g._rinshan else g._drawn == t)
    kong_made(g, s, k, "added", None, paid)


def kong_made(g: HandData, s: int, k: int, how: str, frm: Optional[int],
              paid: bool = True) -> None:
    """A kong is complete: it is paid for (unless an added kong that is not fresh under
    ``added_kong_payment = "fresh_only"``: a kong everywhere, but no dues, so nothing of it is
    ever refunded or handed over), then its maker draws a replacement tile."""
    kong = Kong(s, k, how, frm)
    kong_payments(g, kong, paid)
    g._update_waits(s)
    draw(g, s, True, kong)


def kong_payments(g: HandData, kong: Kong, paid: bool = True) -> None:
    s = kong.seat
    others = [p for p in g._after[s] if g._in_play[p]]
    how = kong.how
    if how == "direct":
        frm = kong.from_seat
        assert frm is not None  # a direct kong is made on someone's discard
        dko = int(g.rules.direct_kong_others)
        dues = [(frm, 2)] + [(p, dko) for p in others if p != frm]
        label = f"direct kong {TILE_NAMES[kong.kind]} on seat {frm}'s discard"
    elif how == "added":
        dues = [(p, 1) for p in others] if paid else []
        label = f"added kong {TILE_NAMES[kong.kind]}"
    else:
        dues = [(p, 2) for p in others]
        label = "concealed kong"
    if g._hard_double and not (g._wild is not None and g._wild.meld_wilds[s][-1 if how != "added"
                                                     else _meld_index(g, s, kong.kind)]):
        # soft_kong_pay = "hard_double" (无鸡杠翻倍, docs/rules.md §12.3): a kong holding no wild
        # when it is declared pays twice.
        dues = [(p, 2 * u) for p, u in dues]
        label += " without wilds, doubled"
    g._kongs.append(kong)
    if g._immediate:
        pay = g._ledger.pay
        for p, units in dues:
            if units:
                amt = pay(p, s, units * g._unit(p, s), "gang", f"seat {s} {label}")
                if amt:
                    kong.collected.append((p, amt))
    else:
        kong.dues = [(p, u) for p, u in dues if u]
        g._pending_kongs[s].append(kong)


def _meld_index(g: HandData, s: int, k: int) -> int:
    return next(i for i, m in enumerate(g._melds[s]) if m[1] == k)


def collect_on_win(g: HandData, w: int) -> None:
    """``kong_settle = "on_win"``: seat ``w`` has won; its kongs' dues are collected now."""
    pending = g._pending_kongs[w]
    if not pending:
        return
    g._pending_kongs[w] = []
    for kong in pending:
        label = {"direct": "direct kong", "added": "added kong",
                 "concealed": "concealed kong"}[kong.how]
        for p, units in kong.dues:
            if g._in_play[p]:
                amt = g._ledger.pay(p, w, units * g._unit(p, w), "gang",
                                    f"seat {w} {label} collected on win")
                if amt:
                    kong.collected.append((p, amt))
