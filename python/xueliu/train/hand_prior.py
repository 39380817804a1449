"""Measuring the prior of :mod:`xueliu.game.likely_hands` (how ready real players' hidden hands
are): the other seats' shanten at a table of four experts, as dealt and as a redeal deals them
(numpy only; ``tools/make_likely_hands.py`` writes the shipped table with it)."""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np

from ..bots import ExpertBot, bot_seed, start_hand_for
from ..game import new_game
from ..game.likely_hands import BUCKETS, MELDS, SHANTEN, context_of, shanten_of
from ..game.redeal import redealt_with
from ..rules import Rules
from ..simulate.play import hand_seed

__all__ = ["measure"]


def measure(preset: str, hands: int, seed: int, ratios: Optional[np.ndarray] = None
            ) -> Tuple[np.ndarray, np.ndarray]:
    """Counts ``int64[BUCKETS, MELDS, SHANTEN]`` of the other seats' shanten in ``hands`` hands of
    four ``ExpertBot``\\ s under ``preset`` (hand ``i`` dealt from ``hand_seed(seed, i)``, dealer
    ``i % 4``, bots started with ``bot_seed(seed, i, seat)``), at every turn decision after the
    voids are declared: as the hands are, and as a redeal for the deciding seat deals them
    (``[seed, i, j]`` at the hand's ``j``-th such decision; uniform, or with the prior
    ``ratios``). A preset of another table (fewer seats, no 定缺) is a ``ValueError``: no count
    would be taken there."""
    rules = Rules.preset(preset)
    if rules.players != 4 or not rules.declare_void:  # no count would be taken, or a bad dealer
        raise ValueError(f"a prior is measured at a table of four seats with 定缺 (declare_void), "
                         f"counted once the voids are declared; {preset!r} has {rules.players} "
                         f"seats{'' if rules.declare_void else ' and no 定缺'}")
    real = np.zeros((BUCKETS, MELDS, SHANTEN), np.int64)
    dealt = np.zeros_like(real)
    for i in range(hands):
        st = new_game(rules, seed=hand_seed(seed, i), dealer=i % 4)
        bots: Dict[int, ExpertBot] = {}
        for q in range(rules.players):
            bots[q] = ExpertBot(seed=bot_seed(seed, i, q), rules=rules)
            start_hand_for(bots[q], q, rules, bot_seed(seed, i, q))
        j = 0
        while not st.is_over:
            pending = list(st.pending())
            if st.phase == "turn" and len(pending) == 1 and st._void[pending[0]] >= 0:
                q = pending[0]
                twin = redealt_with(st, q, [seed, i, j], "keep", ratios)
                j += 1
                for o in range(rules.players):
                    if o != q and st._in_play[o] and not st._frozen[o]:
                        b, m = context_of(st.wall_remaining, len(st._core_melds[o]))
                        real[b, m, min(shanten_of(st, o), SHANTEN - 1)] += 1
                        dealt[b, m, min(shanten_of(twin, o), SHANTEN - 1)] += 1
            st.step({q: bots[q].act_view(st.view(q), st.legal_actions(q)) for q in pending})
    return real, dealt
