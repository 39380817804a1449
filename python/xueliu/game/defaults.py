"""The default action of docs/rules.md §8, taken on a timeout, for a seat on auto-play (托管) and for an
escaped seat: the exchange and void defaults of §3, the multiplier knob's default, a win when one
is offered, else the tile just drawn (or the highest-index legal discard), else pass."""

from __future__ import annotations

from typing import List, Sequence

from .actions import DISCARD_PHYSICAL, HU, PASS, VOID, Action, exchange_action, multiplier_action
from .data import PH_CLAIM, PH_EXCHANGE, PH_MULTIPLIER, PH_VOID, HandData


def default_exchange(h: Sequence[int], count: int) -> List[int]:
    """The timeout exchange of a hand of 27 counts (docs/rules.md §3.1, §11.1), as sorted kinds: the
    ``count`` highest-index tiles of the shortest suit holding at least ``count`` (ties: the lower
    suit), or, when no suit holds that many, the ``count`` highest-index tiles of the hand.

    >>> default_exchange([1, 1, 1, 1] + [0] * 5 + [2, 2] + [0] * 16, 3)
    [1, 2, 3]
    """
    sizes = [sum(h[9 * u:9 * u + 9]) for u in range(3)]
    fits = [(n, u) for u, n in enumerate(sizes) if n >= count]
    lo = 9 * min(fits)[1] if fits else 0
    hi = lo + 9 if fits else 27
    picked: List[int] = []
    for j in range(hi - 1, lo - 1, -1):
        picked.extend([j] * min(h[j], count - len(picked)))
        if len(picked) == count:
            break
    picked.sort()
    return picked


def default_action(g: HandData, s: int) -> Action:
    ph = g._phase
    h: Sequence[int] = g._hands[s]
    if g._wild is not None and (ph == PH_EXCHANGE or ph == PH_VOID):
        h = g._wild.split(h)[0]  # natural tiles only (docs/rules.md §12.3)
    if ph == PH_EXCHANGE:
        return exchange_action(*default_exchange(h, g.rules.exchange_count))
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
    if k >= 0 and DISCARD_PHYSICAL[k] in legal:
        return DISCARD_PHYSICAL[k]
    return max((a for a in legal if a.kind == "discard"), key=_discard_order)


def _discard_order(a: Action) -> int:
    return 27 if a.tile == "7z" else a.id  # (红中's id comes after every other action's)
