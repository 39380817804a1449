"""What each discard would cost the seat on turn at once (点炮, docs/rules.md §5, §10): hidden
information, for training labels and analysis, never for a bot.

On the turn of seat ``s``, the cost of kind ``k`` is what ``s`` would pay in ``hu`` transfers if it
discarded ``k`` now and every seat that may win on it did (一炮多响: all of them): the sum over
those seats of one stake between the two times the win's multiplier, exactly as
:func:`xueliu.game.wins.discard_wins` pays them. 呼叫转移 after a kong and coins running out are
left out: the cost is the discard's own price, not what else moves with it.

A seat may win on ``k`` exactly when the claim window would offer it ``hu``
(:func:`xueliu.game.claims.open_claims`): in play, waiting on ``k``, discard wins allowed
(not 只能自摸), 过水 not blocking, the win worth the minimum fan.
"""

from __future__ import annotations

from typing import List

from .data import PH_TURN, TK_FIRST, HandData

__all__ = ["deal_in_costs"]


def deal_in_costs(g: HandData) -> List[int]:
    """The 27 costs (one per kind, 0 for a kind the seat on turn does not hold or nobody wins
    on) of the seat whose turn it is; ``ValueError`` outside a turn."""
    if g._phase != PH_TURN:
        raise ValueError("deal-in costs are those of a discard: the hand is not on a turn")
    frm = g._turn
    costs = [0] * 27
    if g._self_draw_only:
        return costs
    # The circumstances a discard now would be claimed in (open_claims sets them so).
    after_kong = g._rinshan
    last = g._haitei
    earthly = g._earthly_discard and g._turn_kind == TK_FIRST and not g._any_meld
    held = g._hands[frm]
    for s in g._after[frm]:
        waits = g._waits[s]
        if not g._in_play[s] or not waits:
            continue
        block = g._pass_block[s]
        if block is not None and g._pass_rule == 2:
            continue
        unit = g._unit(frm, s)
        for k in range(27):
            if not held[k] or not (waits >> k) & 1:
                continue
            counts = list(g._hands[s])
            counts[k] += 1
            res = g._evaluate(s, counts, k, after_kong=after_kong, last=last, earthly=earthly)
            if (g._min_fan > 1 and res.fan < g._min_fan) or (block is not None and res.fan <= block):
                continue
            costs[k] += unit * res.multiplier
    return costs
