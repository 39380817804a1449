"""How far is a network from a teacher's renamed views? (docs/training.md, sessions 17–18)

Sichuan mahjong plays alike with its suits permuted and its ranks reversed
(:mod:`xueliu.learn.renamings`); averaging a network over those views
(:func:`xueliu.train.distill.ensemble_log_policy`) plays better than the network alone, and
distillation tries to put that average back into one network. This counts, over hands of the
student's own self-play, the decisions with a choice where

- the student's choice differs from the teacher's,
- the student's choice differs from the teacher's ``--views`` views,
- the teacher's choice differs from its own views,

by kind of decision (exchange picks, discards, the others)::

    python tools/view_agreement.py runs/v58/final.npz                       # a network and its views
    python tools/view_agreement.py runs/v60/final.npz --teacher runs/v59/final.npz

A student that kept all of its teacher's views would have the middle column at zero.
"""

from __future__ import annotations

import argparse
from typing import Dict

import numpy as np

import xueliu
from xueliu.bots.neural import decide_batch, masked_argmax
from xueliu.bots.neural_net import load_network
from xueliu.learn.actions import ENGINE_IDS, EXCHANGE_PICK, MULTIPLIER_SLOT
from xueliu.tiles import N_KINDS
from xueliu.train.distill import ensemble_log_policy


def kind_of(mask: np.ndarray) -> str:
    """``exchange``, ``discard`` (a turn with discards and no other engine action) or ``other``."""
    if mask[EXCHANGE_PICK:MULTIPLIER_SLOT].any():
        return "exchange"
    if mask[:N_KINDS].any() and not mask[N_KINDS:ENGINE_IDS].any():
        return "discard"
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("student", help="weights file of the network that plays")
    parser.add_argument("--teacher", help="weights file whose views are the target (default: "
                        "the student)")
    parser.add_argument("--views", type=int, default=12, help="renamings averaged (6 or 12)")
    parser.add_argument("--hands", type=int, default=60, help="self-play hands, presets in turn")
    parser.add_argument("--seed", type=int, default=1000, help="hand i is dealt from seed + i")
    args = parser.parse_args()
    student = load_network(args.student)
    teacher = load_network(args.teacher) if args.teacher else student
    counts: Dict[str, np.ndarray] = {}

    def choose(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        own = masked_argmax(student.forward(x), mask)
        alone = masked_argmax(teacher.forward(x), mask)
        views = masked_argmax(ensemble_log_policy([teacher], x, mask, args.views), mask)
        for i in np.flatnonzero(mask.sum(1) > 1):
            row = counts.setdefault(kind_of(mask[i]), np.zeros(4, dtype=np.int64))
            row += [1, own[i] != alone[i], own[i] != views[i], alone[i] != views[i]]
        return own

    for h in range(args.hands):
        state = xueliu.new_game(("xueliu", "xuezhan")[h % 2], seed=args.seed + h)
        while state.pending():
            seats = state.pending()
            state.step(dict(zip(seats, decide_batch([state] * len(seats), seats, choose))))
    print(f"{'decisions with a choice':<24}{'n':>6}  student≠teacher  student≠views  "
          f"teacher≠views   ({args.views} views, {args.hands} hands)")
    for kind, (n, *differ) in sorted(counts.items()):
        print(f"{kind:<24}{n:>6}  " + "  ".join(f"{100 * d / n:>13.1f}%" for d in differ))


if __name__ == "__main__":
    main()
