"""The claim window (docs/rules.md §4, §10 "Turns and claims"): after a discard, and on an added kong that
may be robbed (抢杠胡).

Every other seat still in play with an option besides pass decides at once (a joint decision):
胡 win (several may win: 一炮多响 with ``multiple_winners``), 直杠 direct kong (holding three), 碰
peng (holding two), or pass. A win beats a kong, a kong beats a peng; with nobody claiming, the next
seat in play draws (or the added kong is made). No peng or kong while the wall is empty or while a
seat holds tiles of its void suit. 过水 (``pass_blocks_discard_win``) blocks a seat that passed a win
until its own next draw; ``forced_win_last_n`` takes every win automatically near the end.
``self_draw_only`` (只能自摸) offers no win here, ``min_fan_discard_win`` (起胡番) only a win scoring at
least that fan (with every flag the win would be paid with, 地胡 on the dealer's opening discard
under ``earthly_win`` included: claim_fan), and ``rob_kong`` off opens
no window on an added kong at all.
"""

from __future__ import annotations

from typing import Dict

from .actions import HU, KONG, PASS, PENG, Action
from .data import BLOCK_ANY, PH_CLAIM, PH_TURN, TK_FIRST, TK_PENG, HandData
from .draw import draw, open_turn
from .kongs import add_meld, complete_added_kong, direct_kong
from .wild_play import melded_kinds
from .wins import claim_fan, discard_wins


def open_claims(g: HandData, frm: int, k: int, rob: bool) -> None:
    """Seat ``frm`` discarded ``k`` (or declared an added kong of ``k`` when ``rob``)."""
    # The tile and its circumstances first: a 过水 block's fan comparison (claim_fan) reads them.
    g._c_tile = k
    g._c_from = frm
    g._c_rob = rob
    if rob:
        g._c_after_kong = False
        g._c_last = False
        g._c_kong = None
        g._c_earthly = False  # a robbing win is never 地胡 (docs/rules.md §11.3)
    else:
        g._c_after_kong = g._rinshan
        g._c_last = g._haitei
        g._c_kong = g._last_kong
        # 地胡 on a discard (earthly_win "first_discard" / "either", docs/rules.md §11.3): the dealer's
        # opening discard, before any peng or kong. A concealed kong on that turn spoils it (the
        # turn then goes on from a replacement draw); after a xueliu 天胡 the dealer never makes
        # that discard (play goes on with the next seat's draw).
        g._c_earthly = g._earthly_discard and g._turn_kind == TK_FIRST and not g._any_meld
    if rob and not g._rob_kong:
        complete_added_kong(g)  # rob_kong off: the added kong is made at once
        return
    live = g._back - g._front + 1
    no_hu = g._self_draw_only
    min_fan = g._min_fan
    hands = g._hands
    waits = g._waits
    wild = g._wild
    kb = k if wild is None else wild.bit[k]  # a robbed wild: every ready hand wins on it
    opts: Dict[int, int] = {}
    for s in g._after[frm]:
        if not g._in_play[s]:
            continue
        o = 0
        if (waits[s] >> kb) & 1 and not no_hu \
                and (g._pass_block[s] is None or beats_block(g, s)) \
                and (min_fan <= 1 or claim_fan(g, s).fan >= min_fan):
            o = 1  # a win not offered (只能自摸, 起胡番) is no pass for 过水
        if not rob and live > 0 and not g._void_count[s]:
            c = hands[s][k]
            if wild is not None:
                o |= wild_claim_options(g, s, k)  # 4 a natural peng, 8 a soft one (docs/rules.md §12.3)
            elif c >= 2:
                if g._frozen[s]:
                    if c == 3 and "direct" in g._pwk \
                            and g._waits_after_kong(s, k, "direct") == waits[s]:
                        o |= 2
                else:
                    o |= 6 if c == 3 else 4
        if o:
            opts[s] = o
    if not opts:
        # Nobody may claim after all (the discard's quick test does not look at void tiles, 过水
        # or the live wall): the window never opens, as when that test finds nobody.
        no_claim(g)
        return
    g._phase = PH_CLAIM
    g._c_forced = False
    g._c_opts = opts
    g._answers = {}
    if g._forced_n and live < g._forced_n and any(o & 1 for o in opts.values()):
        g._c_forced = True
        g._answers = {s: HU for s, o in opts.items() if o & 1}
        g._pending = []
        g._legal = {}
        resolve_claims(g)
        return
    pending = []
    legal = {}
    for s in sorted(opts):
        o = opts[s]
        lst = []
        if o & 12:
            lst.append(PENG[k])
        if o & 2:
            lst.append(KONG[k])
        if o & 1:
            lst.append(HU)
        lst.append(PASS)
        legal[s] = lst
        if g._auto[s]:
            g._answers[s] = HU if o & 1 else PASS
        else:
            pending.append(s)
    g._legal = legal
    g._pending = pending
    if not pending:
        resolve_claims(g)


def answer_claim(g: HandData, seat: int, action: Action) -> None:
    """A pending seat answers; the window resolves with the last answer."""
    g._answers[seat] = action
    pending = g._pending
    assert isinstance(pending, list)  # this phase's own list (a turn's is a shared tuple)
    pending.remove(seat)
    if not pending:
        resolve_claims(g)


def beats_block(g: HandData, s: int) -> bool:
    """Whether a discard win now is allowed despite the seat's 过水 block."""
    if g._pass_rule == 2:
        return False
    block = g._pass_block[s]
    return block is None or claim_fan(g, s).fan > block


def no_claim(g: HandData) -> None:
    if g._c_rob:
        complete_added_kong(g)
    else:
        draw(g, g._next_in_play(g._c_from))


def resolve_claims(g: HandData) -> None:
    ans = g._answers
    frm = g._c_from
    order = g._after[frm]
    g._pending = []
    g._legal = {}
    if g._pass_rule and not g._c_forced:
        for s, o in g._c_opts.items():
            if o & 1 and ans.get(s) is not HU:
                if g._pass_rule == 2:
                    g._pass_block[s] = BLOCK_ANY
                else:
                    fan = claim_fan(g, s).fan
                    prev = g._pass_block[s]
                    g._pass_block[s] = fan if prev is None else max(prev, fan)
    if HU in ans.values():
        winners = [s for s in order if ans.get(s) is HU]
        if not g._multi:
            del winners[1:]
        discard_wins(g, winners)
        return
    # A kong beats a natural peng, which beats a soft peng (docs/rules.md §12.3); among equals the
    # first seat in turn order from the discarder. Without wilds one seat at most can claim.
    best, best_rank = -1, 3
    for s in order:
        a = ans.get(s)
        if a is not None and a is not PASS:
            rank = 0 if a.id >= 54 else 1 if g._c_opts[s] & 4 else 2
            if rank < best_rank:
                best, best_rank = s, rank
    if best_rank == 0:
        direct_kong(g, best)
    elif best >= 0:
        peng(g, best)
    else:
        no_claim(g)


def peng(g: HandData, s: int) -> None:
    """Seat ``s`` pengs the discard of the claim window; its turn opens (discard only)."""
    k, frm = g._c_tile, g._c_from
    g._rivers[frm].pop()
    if g._wild is None:
        g._seen[k] += 2  # the discard (already seen) and two more, in the peng
        g._hands[s][k] -= 2
        add_meld(g, s, "peng", k, frm)
        g._ev.append(("pon", s, frm, k))
    else:  # naturals first, then wilds lowest kind first (docs/rules.md §12.3)
        wilds = g._wild.take(g._hands[s], k, 2)
        consumed = (k,) * (2 - len(wilds)) + tuple(wilds)
        for j in consumed:
            g._seen[j] += 1
        add_meld(g, s, "peng", k, frm, wilds)
        g._ev.append(("pon", s, frm, k, consumed))
    g._phase = PH_TURN
    g._turn = s
    g._drawn = -1
    g._turn_kind = TK_PENG
    g._rinshan = False
    g._last_kong = None
    g._haitei = False
    open_turn(g, s, -1, TK_PENG)


def wild_claim_options(g: HandData, s: int, k: int) -> int:
    """Seat ``s``'s peng and kong options on the natural discard ``k`` at a table with wilds:
    bits 2 kong (three of ``k`` counting wilds under ``soft_kong``), 4 a natural peng, 8 a soft
    peng (``soft_peng``); the caller has checked the live wall and the seat's void tiles."""
    w = g._wild
    assert w is not None
    if k // 9 == g._void[s] or melded_kinds(g._melds[s]) >> k & 1:
        return 0  # void-suit kinds are never melded; never a second meld of a kind
    h = g._hands[s]
    c = h[k]
    if g._frozen[s]:
        return 2 if c == 3 and "direct" in g._pwk \
            and g._waits_after_kong(s, k, "direct") == g._waits[s] else 0
    wilds = 0
    for j in w.kinds:
        wilds += h[j]
    o = 0
    if c == 3 or (w.soft_kong and c + wilds >= 3):
        o |= 2
    if c >= 2:
        o |= 4
    elif (w.soft_peng >= 1 and c == 1 and wilds >= 1) or (w.soft_peng == 2 and c == 0
                                                          and wilds >= 2):
        o |= 8
    return o
