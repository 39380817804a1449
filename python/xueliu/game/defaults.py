"""The default action of RULES §8, taken on a timeout, for a seat on auto-play (托管) and for an
escaped seat: the exchange and void defaults of §3, the multiplier knob's default, a win when one
is offered, else the tile just drawn (or the highest-index legal discard), else pass."""

from __future__ import annotations

from typing import List

from .actions import DISCARD, HU, PASS, VOID, Action, exchange_action, multiplier_action
from .data import PH_CLAIM, PH_EXCHANGE, PH_MULTIPLIER, PH_VOID, HandData


def default_action(g: HandData, s: int) -> Action:
    ph = g._phase
    h = g._hands[s]
    if ph == PH_EXCHANGE:
        sizes = [sum(h[9 * u:9 * u + 9]) for u in range(3)]
        u = min((n, u) for u, n in enumerate(sizes) if n >= 3)[1]  # shortest suit of 3+
        picked: List[int] = []
        for j in range(9 * u + 8, 9 * u - 1, -1):
            picked.extend([j] * min(h[j], 3 - len(picked)))
            if len(picked) == 3:
                break
        picked.sort()
        return exchange_action(*picked)
    if ph == PH_VOID:
        sizes = [sum(h[9 * u:9 * u + 9]) for u in range(3)]
        return VOID[sizes.index(min(sizes))]
    if ph == PH_MULTIPLIER:
        return multiplier_action(g._pm_default)
    if ph == PH_CLAIM:
        return HU if g._c_opts.get(s, 0) & 1 else PASS
    legal = g._legal.get(s, ())
    if HU in legal:
        return HU
    k = g._drawn
    if k >= 0 and DISCARD[k] in legal:
        return DISCARD[k]
    return max((a for a in legal if a.id < 27), key=lambda a: a.id)
