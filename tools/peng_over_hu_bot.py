"""The shipped network, except where it may both win on a discard (胡) and 碰 it — measurement
bots, not bots to ship (docs/training.md, sessions 14 and 15). The close calls of a 胡 against a
碰, valued on redeals, said the 碰 was worth more on average where the network ranks it second;
these play that at a real table. Arena bots, ``module:Class`` from this folder::

    cd tools && xueliu arena --bots neural,peng_over_hu_bot:RunnerUpPengBot --reference expert \\
        --games 10000 --preset xuezhan --workers 2 --seed 90

- :class:`PengOverHuBot` takes the 碰 wherever both are offered;
- :class:`RunnerUpPengBot` takes it only where the network ranks it second, after the 胡: the
  decisions the redeals valued (``--improve-decisions win_or_meld``). Where 胡 and 碰 are both
  offered the network ranks the 碰 second about half the time and below passing the other half
  (174 and 173 of 347 in 3,000 血流 hands against three experts, session 15).

Session 14's PengOverHuBot masked the 胡 and took the best index left, which is passing wherever
the network ranks the 碰 below it: it declined half of those wins outright, and its loss (血战
−2.31 [−5.55, +0.93] a hand, 血流 −0.10 [−0.17, −0.04] paired with the network) measured that
mistake, not the 碰.
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
        only_peng = np.zeros_like(mask)
        only_peng[:, PENG] = mask[:, PENG]  # one 碰 is offered: the discarded tile's
        return np.where(both, masked_argmax(logits, only_peng), masked_argmax(logits, mask))


class RunnerUpPengBot(NeuralBot):
    """:class:`NeuralBot` with the 碰 taken over a 胡 where the network ranks the 碰 second."""

    name = "runner_up_peng"

    def choose(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.network.forward(x)
        best = masked_argmax(logits, mask)
        second_mask = mask.copy()
        second_mask[np.arange(len(best)), best] = 0
        second = masked_argmax(logits, second_mask)
        swap = (best == HU) & (second >= PENG.start) & (second < PENG.stop)
        return np.where(swap, second, best)
