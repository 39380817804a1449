"""Measures the prior of :mod:`xueliu.game.likely_hands` and writes it as package data: it
reproduces ``python/xueliu/game/likely_hands.npz``, which the likely redeals of the shipped
weights' recipe deal by (``--improve-redeal-hands likely``, docs/training.md; ≈ 4.5 min)::

    python tools/make_likely_hands.py --hands 2000 --rounds 3 --seed 15 --workers 2

For each preset of ``likely_hands.PRESETS``: ``--hands`` hands of four ``ExpertBot``\\ s, the
other seats' shanten counted at every turn decision as dealt and as a uniform redeal deals them
(:func:`~xueliu.train.hand_prior.measure`), then the ratios
(:func:`~xueliu.game.likely_hands.ratios_from_counts`); each further round measures again with
the redeal using the ratios so far and corrects them by what it dealt (a seat's hand is drawn from
the tiles left by the seats dealt before it, so the first ratios fall short of the real shares).
Writes ``likely_hands.npz``: ``meta`` (JSON: presets, hands, rounds, seed), each preset's ratios
under its name and the last round's counts as ``<preset>_real`` / ``<preset>_dealt``; prints
each round's mean shanten of a seat without melds, real and dealt, by bucket of the live wall
(the last round's dealt: the prior before that round's correction). Same arguments, same file.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import List, Optional, Tuple

import numpy as np

from xueliu.game import likely_hands
from xueliu.train import hand_prior


def _measure(job: Tuple[str, int, int, Optional[np.ndarray]]) -> Tuple[np.ndarray, np.ndarray]:
    return hand_prior.measure(*job)


def _report(preset: str, round_: int, real: np.ndarray, dealt: np.ndarray) -> None:
    steps = np.arange(likely_hands.SHANTEN)
    print(f"{preset}, round {round_}: mean shanten of a seat without melds, real / "
          f"{'uniform' if round_ == 0 else 'with the prior'}, by live wall left")
    for b in range(likely_hands.BUCKETS):
        r, d = real[b, 0], dealt[b, 0]
        if r.sum():
            lo = b * likely_hands.WALL_STEP
            print(f"  {lo:2d}-{lo + likely_hands.WALL_STEP - 1:2d}: {r @ steps / r.sum():.2f} / "
                  f"{d @ steps / d.sum():.2f}  ({r.sum()} seats)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=likely_hands.TABLE_PATH)
    args = ap.parse_args()
    presets = likely_hands.PRESETS
    ratios: List[Optional[np.ndarray]] = [None] * len(presets)
    arrays = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for round_ in range(args.rounds):
            jobs = [(p, args.hands, args.seed, r) for p, r in zip(presets, ratios)]
            for n, (p, (real, dealt)) in enumerate(zip(presets, pool.map(_measure, jobs))):
                _report(p, round_, real, dealt)
                ratios[n] = likely_hands.ratios_from_counts(real, dealt, ratios[n])
                arrays[p], arrays[f"{p}_real"], arrays[f"{p}_dealt"] = ratios[n], real, dealt
    meta = {"presets": list(presets), "hands": args.hands, "rounds": args.rounds,
            "seed": args.seed}
    np.savez(args.out, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8), **arrays)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
