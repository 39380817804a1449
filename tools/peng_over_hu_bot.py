"""The shipped network, except that where it may both win on a discard (胡) and 碰 it, it always
takes the 碰 — a measurement, not a bot to ship (docs/training.md, session 14): the close calls
of a 胡 against a 碰, valued on redeals, said the 碰 was worth more on average; this plays that
rule at a real table. An arena bot, ``module:Class`` from this folder::

    cd tools && xueliu arena --bots neural,peng_over_hu_bot:PengOverHuBot --reference expert \\
        --games 10000 --preset xuezhan --workers 2 --seed 88

Measured so (session 14), paired with the network it changes: 血战 −2.31 [−5.55, +0.93] a hand,
血流 −0.10 [−0.17, −0.04], where the redeals had said about +8.5 and +0.07: their hidden hands
are weaker than the experts' real ones, and a win now is worth more than they say.
"""

from __future__ import annotations

import numpy as np

from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax

HU = 135
PENG = slice(27, 54)


class PengOverHuBot(NeuralBot):
    """:class:`NeuralBot` with the 碰 taken over a 胡 on the same discard."""

    name = "peng_over_hu"

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.network.forward(x)
        both = mask[:, HU].astype(bool) & mask[:, PENG].astype(bool).any(axis=1)
        logits[both, HU] = -np.inf  # the best remaining index: the 碰, it is the second
        return masked_argmax(logits, mask)
