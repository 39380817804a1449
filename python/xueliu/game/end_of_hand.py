"""The end of the hand (docs/rules.md §7, §10 "End of hand"): 查花猪 flower pigs, 查大叫 ready checks and
退税 refunds when the wall runs out, then the service fee and the closing event."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..hand import FanResult
from ..rules import Rules
from ..settlement import EndCheck, settle_end_of_hand
from ..tiles import TILE_NAMES
from .data import PH_OVER, HandData


def end_by_wall(g: HandData) -> None:
    """查花猪, 查大叫 and 退税 for the seats that never won, then the end."""
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


def public_counts(g: HandData) -> List[int]:
    """Copies of each kind every seat can see: discards, exposed melds, set-aside wins."""
    seen = [0] * 27
    for river in g._rivers:
        for k in river:
            seen[k] += 1
    for k in g._set_aside:
        seen[k] += 1
    for s in range(g._n):
        for k, c in enumerate(exposed_counts(g, s)):
            seen[k] += c
    return seen


def exposed_counts(g: HandData, s: int) -> List[int]:
    out = [0] * 27
    for how, k, _ in g._melds[s]:
        if how != "concealed":
            out[k] += 3 if how == "peng" else 4
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
