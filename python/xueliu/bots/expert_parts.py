"""What the expert's decisions share (``expert.py``): its tuning constants, the record of a
valued option, two measures of a hand's shape, and the pieces of its play at a table with wild
tiles (docs/rules.md §12) that need no bot state."""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence, Tuple

from .. import _core
from ..rules import Rules
from .expert_wild import WildPlanner
from .expert_wild_choice import Weights

__all__ = ["CLAIM_PREFILTER", "ON_WIN_KEEP", "MULTIPLIER_MAX_SHANTEN", "DANGER_WEIGHT",
           "FAR_HAND_LOSS", "OptionValue", "wild_weights", "wild_hand_value"]

CLAIM_PREFILTER = True
"""Pass without valuing a peng or kong that raises the shanten (it is never the better choice)."""
ON_WIN_KEEP = 0.6
"""Under ``kong_settle = "on_win"``: the chance a ready seat wins after its kong (to collect it)."""
MULTIPLIER_MAX_SHANTEN = 2
"""Highest shanten (after the void) at which the bot picks the largest player multiplier."""
DANGER_WEIGHT = 0.6
"""Weight of the expected deal-in cost against the hand's value: a tile held back now is only
partly saved (it may have to go later), and 0.3 to 1 played alike in the arena."""
FAR_HAND_LOSS = 1.0
""":meth:`ExpertBot.option_values` of 选倍 for a hand farther than ``MULTIPLIER_MAX_SHANTEN``
from ready: what it expects to pay per multiplier step (the rule reads it as a losing hand)."""


class OptionValue(NamedTuple):
    """One legal option as :meth:`ExpertBot.valued_options` lists it: the ``action``, its
    ``value`` (what :meth:`ExpertBot.option_values` shows) and whether the model ``valued`` it.
    ``valued`` is False for an option the model skips (a discard more than ``SPAN`` steps behind
    the best with no 清一色 plan, a peng with no discard after it, an option no formula covers):
    its value is then 0.0, less a discard's deal-in danger, and says nothing of the option."""

    action: Any
    value: float
    valued: bool


def _connection(counts: Sequence[int], k: int) -> float:
    """How much one copy of kind ``k`` adds to the shape (pairs, neighbours, middle ranks)."""
    r = k % 9
    v = (counts[k] - 1) * 4.0 - abs(r - 4) * 0.25
    if r >= 1:
        v += counts[k - 1] * 3.0 + (counts[k - 2] * 1.5 if r >= 2 else 0.0)
    if r <= 7:
        v += counts[k + 1] * 3.0 + (counts[k + 2] * 1.5 if r <= 6 else 0.0)
    return v


def _shanten_of(counts: Sequence[int], melds: Sequence[Tuple[int, int]], void: int,
                rules: Rules) -> int:
    try:
        # The shape code: seven pairs, the suits and hand size in play (1 = True at the default).
        return _core.shanten(_core.Hand(bytes(counts), list(melds)), void, rules._shape_code)
    except ValueError:  # melds that break the void or 缺一门: no complete hand exists
        return 99


def wild_weights(rules: Rules) -> Weights:
    # 只能自摸 (self_draw_only): nobody wins on a discard, so no discard deals in.
    return Weights(0.0 if rules.self_draw_only else DANGER_WEIGHT, ON_WIN_KEEP, _connection)


def wild_hand_value(planner: WildPlanner, hand: Any, void: int) -> float:
    """The value of a hand before play at a table with wilds with ``void`` declared (the
    dealer's 14: its best natural discard)."""
    if (sum(hand.nat) + hand.wilds) % 3 == 2:
        kinds = [k for k in range(27) if hand.nat[k]]
        return max(planner.discard_values(hand, void, kinds).values(), default=0.0)
    return planner.hand_value(hand, void)
