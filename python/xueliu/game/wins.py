"""Wins (胡, docs/rules.md §5, §7, §10): a self-draw (自摸) on a seat's own turn, a discard win (点炮, several
seats at once with 一炮多响), a win by robbing an added kong (抢杠胡); their payments, 点杠花 and
呼叫转移; then who plays on (xueliu: the winner's hand is frozen; xuezhan: the winner leaves, and
the third win ends the hand; daodaohu 倒倒胡: the first win ends it, docs/rules.md §11.2).
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..hand import FanResult
from ..settlement import Win
from ..tiles import PHYSICAL_NAMES as TILE_NAMES
from .data import TK_FIRST, HandData, Kong
from .draw import draw
from .end_of_hand import end
from .kongs import collect_on_win


def claim_fan(g: HandData, s: int) -> FanResult:
    """What seat ``s`` would score by winning on the tile of the claim window."""
    counts = list(g._hands[s])
    counts[g._c_tile] += 1
    return g._evaluate(s, counts, g._c_tile, robbed=g._c_rob, after_kong=g._c_after_kong,
                       last=g._c_last, earthly=g._c_earthly)


def record_win(g: HandData, s: int, k: int, source: str, frm: Optional[int], res: FanResult,
               counts: Sequence[int], flags: Tuple[str, ...], winners: Tuple[int, ...]) -> Win:
    w = Win(order=len(g._wins) + 1, seat=s, tile=TILE_NAMES[k], source=source,
            from_seat=frm, fan_result=res, hand=g._hand_text(counts, s), flags=flags,
            winners=winners)
    g._wins.append(w)
    g._won[s].append(w.order)
    g._win_tiles.append((s, k))
    g._ev.append(("hora", w.order - 1))
    return w


def self_draw_win(g: HandData, s: int) -> None:
    h = g._hands[s]
    heavenly = g._turn_kind == TK_FIRST
    k = max(j for j in range(len(h)) if h[j]) if heavenly else g._drawn
    earthly = g._earthly and not heavenly  # set by first draws only where earthly_win counts them
    res = g._evaluate(s, h, k, self_draw=True, replacement=g._rinshan,
                      last=g._haitei, heavenly=heavenly and g._he,
                      earthly=earthly and g._he)
    wild = g._wild
    if wild is not None and res.base == "siji" and not wild.is_wild[k]:
        k = wild.wilds_held(h)[0]  # 四鸡 sets a wild aside: the lowest (docs/rules.md §12.5)
    flags = tuple(name for name, on in (
        ("self_draw", True), ("kong_replacement", g._rinshan), ("last_tile", g._haitei),
        ("heavenly", heavenly), ("earthly", earthly)) if on)
    w = record_win(g, s, k, "self_draw", None, res, h, flags, (s,))
    h[k] -= 1
    g._set_aside.append(k)
    g._seen[k] += 1
    mult = res.multiplier
    pay = g._ledger.pay
    lk = g._last_kong
    detail = f"win {w.order}: {TILE_NAMES[k]} self-draw by seat {s}, {res.fan} fan"
    if g._dgh_discarder and g._rinshan and lk is not None and lk.how == "direct":
        p = lk.from_seat
        pay(p, s, g._unit(p, s) * mult, "hu", detail + " (点杠花: the kong's discarder pays)")
    else:
        bonus = 1 if g._base_bonus else 0
        if bonus:
            detail += " + 1 base (自摸加底)"
        for p in g._after[s]:
            if g._in_play[p]:
                pay(p, s, g._unit(p, s) * (mult + bonus), "hu", detail)
    collect_on_win(g, s)
    if heavenly or wild is not None:  # (a 提 or 四鸡 may have changed the hand since its draw)
        g._update_waits(s)
    if after_win(g, [s]):
        draw(g, g._next_in_play(s))


def discard_wins(g: HandData, winners: List[int]) -> None:
    """``winners`` (turn order from the discarder) win on the tile of the claim window."""
    k, frm, rob = g._c_tile, g._c_from, g._c_rob
    results = []
    for s in winners:
        counts = list(g._hands[s])
        counts[k] += 1
        res = g._evaluate(s, counts, k, robbed=rob, after_kong=g._c_after_kong,
                          last=g._c_last, earthly=g._c_earthly)
        flags = tuple(name for name, on in (
            ("robbed_kong", rob), ("after_kong_discard", g._c_after_kong),
            ("last_tile", g._c_last), ("earthly", g._c_earthly)) if on)
        w = record_win(g, s, k, "robbed_kong" if rob else "discard", frm, res, counts, flags,
                       tuple(winners))
        results.append((s, w))
    if not rob:
        g._rivers[frm].pop()
    else:
        g._seen[k] += 1  # the robbed tile was in no river
    g._set_aside.append(k)
    pay = g._ledger.pay
    how = "robbing the kong" if rob else "discard"
    for s, w in results:
        pay(frm, s, g._unit(frm, s) * w.fan_result.multiplier, "hu",
            f"win {w.order}: {TILE_NAMES[k]} {how} of seat {frm} to seat {s}, "
            f"{w.fan_result.fan} fan")
    kong = g._c_kong
    if g._c_after_kong and kong is not None:
        call_transfer(g, frm, kong, results)
    mark_won(g, winners)
    # Co-winners of one discard leave (xuezhan) together, before on-win kong collections.
    for s in winners:
        collect_on_win(g, s)
    if rob:
        g._update_waits(frm)
    if after_win(g, winners):
        draw(g, g._next_in_play(winners[-1]))


def call_transfer(g: HandData, frm: int, kong: Kong, results: Sequence[Tuple[int, Win]]) -> None:
    """呼叫转移 on 杠上炮 (docs/rules.md §7, §11.3): the konger ``frm`` hands the amount actually collected
    for ``kong`` to the winners of its replacement discard, ``results`` in turn order from ``frm``.
    ``True`` ("each"): every winner gets that amount; ``"split"``: it is shared in whole units, the
    remainder to the first winner; ``"single_only"``: only a lone winner gets it (with several,
    nothing moves and the kong can still be refunded); ``False``: nothing moves."""
    mode = g.rules.call_transfer
    amount = sum(a for _, a in kong.collected)
    if not mode or not amount or (mode == "single_only" and len(results) > 1):
        return
    if mode == "split":
        share, rest = divmod(amount, len(results))
        shares = [share + rest] + [share] * (len(results) - 1)
    else:
        shares = [amount] * len(results)
    kong.handed_over = True
    for (s, w), a in zip(results, shares):  # a zero share records nothing (Ledger.pay)
        g._ledger.pay(frm, s, a, "hujiaozhuanyi",
                      f"win {w.order}: seat {frm}'s kong income handed to seat {s}"
                      + (f" ({a} of {amount}, split)" if mode == "split" else ""))


def mark_won(g: HandData, winners: List[int]) -> None:
    """xueliu winners are frozen; xuezhan and daodaohu winners leave play. A daodaohu hand ends
    with its first win anyway; leaving (not frozen) means that the co-winners of one discard do
    not pay each other's ``on_win`` kong dues, as xuezhan's co-winners do not (docs/rules.md §10: payers
    that have left play pay nothing)."""
    for s in winners:
        if g._xueliu:
            g._frozen[s] = True
        else:
            g._in_play[s] = False


def after_win(g: HandData, winners: List[int]) -> bool:
    """Marks the winners; ends a daodaohu hand at its first win (docs/rules.md §11.2: the win's payments,
    call transfers and on_win collections are made by then; no end checks, fees are taken) and a
    xuezhan hand once all seats but one have won (the third win at four seats, docs/rules.md §11.1:
    n - 1). True if play goes on."""
    mark_won(g, winners)
    if g._first_win_ends:
        end(g, END_FIRST_WIN)
        return False
    if not g._xueliu and g._in_play.count(False) >= g._wins_to_end:
        end(g, END_BY_WINS[g._n])
        return False
    return True


END_BY_WINS = {4: "three_wins", 3: "two_wins", 2: "one_win"}
"""The end reason of a xuezhan hand that all seats but one have won, by seat count."""
END_FIRST_WIN = "first_win"
"""The end reason of a daodaohu hand: its first win (one self-draw or one 一炮多响) ended it."""
