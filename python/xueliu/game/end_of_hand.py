"""The end of the hand (docs/rules.md §7, §10 "End of hand"): 查花猪 flower pigs, 查大叫 ready checks and
退税 refunds when the wall runs out, then the service fee and the closing event."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..hand import FanResult
from ..rules import Rules
from ..settlement import EndCheck, settle_end_of_hand
from ..tiles import PHYSICAL_NAMES as TILE_NAMES
from .data import PH_OVER, HandData


def end_by_wall(g: HandData) -> None:
    """查花猪, 查大叫 and 退税 for the seats that never won, then the end."""
    if g._wild is not None:
        return wild_end_by_wall(g)
    r = g.rules
    won = [bool(w) for w in g._won]
    checks: List[EndCheck] = []
    visible = None  # what every seat sees: only the dead-waits knob needs it
    dajiao = dajiao_rules(r)
    for s in range(g._n):
        held = g._hands[s]
        if g._melds[s]:  # its melds are its tiles too (a peng of a third suit makes a pig)
            held = bytearray(held)
            for m in g._melds[s]:
                held[m[1]] += 3 if m[0] == "peng" else 4
        # 花猪: never won and still holds all three suits (three slices, no generator per seat)
        pig = not won[s] and any(held[0:9]) and any(held[9:18]) and any(held[18:27])
        wait_mask = 0 if pig else g._waits[s]
        waits = [k for k in range(27) if wait_mask >> k & 1] if wait_mask else []
        ready = bool(waits)
        if ready and not r.dead_waits_ready:
            if visible is None:
                visible = public_counts(g)
            own_exposed = exposed_counts(g, s)
            ready = any(4 - held[k] - (visible[k] - own_exposed[k]) > 0 for k in waits)
        # Every ready seat's 大叫 fan, also when nobody owes it: the report shows it.
        best: Optional[FanResult] = None
        for k in waits if ready else ():
            counts = list(g._hands[s])
            counts[k] += 1
            res = g._evaluate(s, counts, k, rules=dajiao)
            if best is None or res.multiplier > best.multiplier:
                best = res
        checks.append({"seat": s, "won": won[s], "pig": pig, "ready": ready,
                       "waits": [TILE_NAMES[k] for k in waits],
                       "best_fan": None if best is None else best.fan,
                       "best_multiplier": None if best is None else best.multiplier})
    g._end_checks = checks
    g._ev.append(("end_checks",))
    settle_end_of_hand(g._ledger, r, g._unit, checks,
                       [(k.seat, k.collected) for k in g._kongs if not k.handed_over])
    end(g, "wall_exhausted")


def wild_end_by_wall(g: HandData) -> None:
    """:func:`end_by_wall` at a table with wild tiles (docs/rules.md §12.2, §12.5): wilds belong
    to no suit (they never make a 花猪), and a ready seat's 大叫 is its best wait, the wild's best
    reading included. Under ``dead_waits_ready`` off a natural wait counts while a copy is unseen,
    the wild wait while a wild of the wall set is; a wait on the 本金's kind held three times (the
    fourth is face up) is scored through the wild wait only."""
    r = g.rules
    w = g._wild
    assert w is not None
    won = [bool(x) for x in g._won]
    checks: List[EndCheck] = []
    visible = public_counts(g)
    dajiao = dajiao_rules(r)
    for s in range(g._n):
        held = bytearray(g._hands[s])  # its tiles, melds included, at their physical kinds
        own_exposed = exposed_counts(g, s)
        for (how, k, _), wilds in zip(g._melds[s], w.meld_wilds[s]):
            held[k] += (3 if how == "peng" else 4) - len(wilds)
            for j in wilds:
                held[j] += 1
        natural = [0 if w.is_wild[k] else held[k] for k in range(27)]
        pig = not won[s] and any(natural[0:9]) and any(natural[9:18]) and any(natural[18:27])
        wait_mask = 0 if pig else g._waits[s]
        waits = [k for k in range(27) if wait_mask >> k & 1]
        wild_wait = bool(wait_mask >> 27 & 1)
        own_wilds = sum(held[j] for j in w.kinds)
        if not r.dead_waits_ready:
            waits = [k for k in waits if 4 - held[k] - (visible[k] - own_exposed[k]) > 0]
            seen_wilds = sum(visible[j] - own_exposed[j] for j in w.kinds)
            wild_wait = wild_wait and w.in_wall - own_wilds - seen_wilds > 0
        wild_wait = wild_wait and own_wilds < w.in_wall  # every wild held: no wild wait
        ready = bool(waits) or wild_wait
        best: Optional[FanResult] = None
        candidates = [k for k in waits if held[k] + (k == w.benjin) < 4]
        if wild_wait:
            candidates.append(w.kinds[0])
        for k in candidates if ready else ():
            counts = list(g._hands[s])
            counts[k] += 1
            res = g._evaluate(s, counts, k, rules=dajiao)
            if best is None or res.multiplier > best.multiplier:
                best = res
        checks.append({"seat": s, "won": won[s], "pig": pig, "ready": ready,
                       "waits": [TILE_NAMES[k] for k in waits] + (["wild"] if wild_wait else []),
                       "best_fan": None if best is None else best.fan,
                       "best_multiplier": None if best is None else best.multiplier})
    g._end_checks = checks
    g._ev.append(("end_checks",))
    settle_end_of_hand(g._ledger, r, g._unit, checks,
                       [(k.seat, k.collected) for k in g._kongs if not k.handed_over])
    end(g, "wall_exhausted")


def public_counts(g: HandData) -> List[int]:
    """Copies of each kind every seat can see: discards, exposed melds, set-aside wins."""
    seen = [0] * len(g._seen)
    for river in g._rivers:
        for k in river:
            seen[k] += 1
    for k in g._set_aside:
        seen[k] += 1
    for s in range(g._n):
        for k, c in enumerate(exposed_counts(g, s)):
            seen[k] += c
    if g._wild is not None and g._wild.benjin >= 0:
        seen[g._wild.benjin] += 1  # the face-up 本金 (docs/rules.md §12.1)
    return seen


def exposed_counts(g: HandData, s: int) -> List[int]:
    """The tiles of seat ``s``'s exposed melds by kind (a soft meld's wilds at their own kinds)."""
    out = [0] * len(g._seen)
    meld_wilds = g._wild.meld_wilds[s] if g._wild is not None else [()] * len(g._melds[s])
    for (how, k, _), wilds in zip(g._melds[s], meld_wilds):
        if how != "concealed":
            out[k] += (3 if how == "peng" else 4) - len(wilds)
            for j in wilds:
                out[j] += 1
    return out


def end(g: HandData, reason: str) -> None:
    """Takes the service fee and closes the hand."""
    fee = int(g.rules.service_fee)
    if fee:
        for s in range(g._n):
            g._ledger.pay(s, None, fee, "fee", "service fee")
    g._end_reason = reason
    g._phase = PH_OVER
    g._pending = []
    g._legal = {}
    g._auto_move = None
    g._ev.append(("end_hand", reason))


_DAJIAO_CACHE: Dict[int, Tuple[Rules, Rules]] = {}


def dajiao_rules(rules: Rules) -> Rules:
    """The rules 查大叫 scores with: 门清 and the optional fans off (docs/rules.md §10), 卡二条 and 卡边吊
    included (§11.3: a wait is scored as a discard win with no flags; 金钩 is the hand's shape
    and stays)."""
    hit = _DAJIAO_CACHE.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    derived = rules.replace(menqing=False, duanyaojiu=False, yitiaolong=False, jiaxinwu=False,
                            haidipao=False, kaertiao=False, single_wait=False)
    if len(_DAJIAO_CACHE) > 64:
        _DAJIAO_CACHE.clear()
    _DAJIAO_CACHE[id(rules)] = (rules, derived)
    return derived
