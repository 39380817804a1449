"""Is the network's ranking of its candidates right, by outcome? (docs/training.md, session 9)

Branch points (xueliu.train.branches: the network in one seat, three bots around it;
xueliu.train.selfplay_branches: the network in every seat, many hands in lockstep) play the
network's runner-up candidates on copies of the same hand. Here they are grouped by the kind of
the first and the second candidate (discard, peng, kong, hu, pass, void) and, within a group, by
how close the network thought they were (the gap of their logits). Each line gives the mean of
(second's net − first's net) with its standard error: a policy whose logits rank by value shows
negative means that shrink to zero as the gap closes; a group whose close calls come out
positive is one where a push toward the second candidate would win points::

    python tools/branch_calibration.py --opponents self --hands 20000 --workers 2 --chunks DIR
    python tools/branch_calibration.py --opponents expert --hands 5000 --workers 2 --chunks DIR2

``--chunks DIR`` keeps each chunk's branch points in DIR and reuses those already made (a long
run resumes); DIR remembers the weights and arguments that made them and refuses others. The walls are those of ``--seed`` (never the gate's seed 2026).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
from typing import Dict, List, Optional, Tuple

import numpy as np

from xueliu.bots.neural_net import DEFAULT_WEIGHTS, load_network
from xueliu.learn.actions import NUM_ACTIONS, describe_index
from xueliu.train import branches, demos, selfplay_branches

_GAPS = (0.25, 0.5, 1.0, 2.0)


_KIND = np.array(["kong" if name.endswith("kong") else name
                  for name in (describe_index(i).split()[0] for i in range(NUM_ACTIONS))])
"""Each index's kind of decision, by the action space's own names (every kong as ``kong``)."""


def _kind(index: np.ndarray) -> np.ndarray:
    kinds: np.ndarray = _KIND[index]
    return kinds


def _chunk(args: Tuple[str, Optional[str], str, str, int, int, int, float]) -> str:
    out, weights, opponents, preset, seed, first, last, rate = args
    path = os.path.join(out, f"chunk_{first:08d}.npz")
    if not os.path.exists(path):
        net = load_network(weights)
        hands = range(first, last)
        points = (selfplay_branches.generate(net, [preset], hands, seed, rate=rate)
                  if opponents == "self"
                  else branches.generate(net, opponents, [preset], hands, seed, rate=rate))
        np.savez(path + ".tmp.npz", **points)  # type: ignore[arg-type]
        os.replace(path + ".tmp.npz", path)
    return path


def table(points: Dict[str, np.ndarray], weights: Optional[str], min_rows: int = 500
          ) -> List[str]:
    """The report's lines for branch points ``points``."""
    net = load_network(weights)
    cand = points["cand"].astype(np.int64)
    value = points["value"]
    logits = np.zeros((len(cand), NUM_ACTIONS), np.float32)
    for s in range(0, len(cand), 4096):
        logits[s:s + 4096] = net.forward(demos.unpack_x(points["x"][s:s + 4096]))
    ranked = np.take_along_axis(logits, np.maximum(cand, 0), axis=1)
    lines = [f"{len(cand)} branch points"]
    for j in range(1, cand.shape[1]):
        has = cand[:, j] >= 0
        gap = ranked[:, 0] - ranked[:, j]
        diff = value[:, j] - value[:, 0]
        first, other = _kind(cand[:, 0]), _kind(np.maximum(cand[:, j], 0))
        for a in np.unique(first):
            for b in np.unique(other):
                m = has & (first == a) & (other == b)
                if m.sum() < min_rows:
                    continue
                cells = [f"candidate {j + 1} {a:>7} -> {b:<7} {int(m.sum()):>8}: "
                         f"{diff[m].mean():+6.2f} ± {diff[m].std() / np.sqrt(m.sum()):.2f}"]
                for g in _GAPS:
                    near = m & (gap < g)
                    if near.sum() >= 30:
                        cells.append(f"gap < {g}: {int(near.sum())} {diff[near].mean():+.2f} ± "
                                     f"{diff[near].std() / np.sqrt(near.sum()):.2f}")
                lines.append("   ".join(cells))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opponents", default="self", help="self, or a bot name (expert, greedy)")
    ap.add_argument("--weights", default=None, help="weights file (default: the shipped)")
    ap.add_argument("--preset", default="xueliu")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=91)
    ap.add_argument("--rate", type=float, default=0.25)
    ap.add_argument("--chunk", type=int, default=200)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunks", required=True, help="folder of the chunks (made when missing)")
    a = ap.parse_args()
    os.makedirs(a.chunks, exist_ok=True)
    # The gaps are the logits of the network that chose the candidates: chunks made by another
    # network, or on other walls, would be read with the wrong ones without a word.
    with open(a.weights or DEFAULT_WEIGHTS, "rb") as f:
        made_by = {"weights": hashlib.sha256(f.read()).hexdigest(), "opponents": a.opponents,
                   "preset": a.preset, "seed": a.seed, "rate": a.rate, "chunk": a.chunk}
    run = os.path.join(a.chunks, "run.json")
    if os.path.exists(run):
        with open(run, encoding="utf-8") as f:
            theirs = json.load(f)
        if theirs != made_by:
            raise SystemExit(f"{a.chunks} holds chunks made with other arguments or weights "
                             f"({run}); give another --chunks")
    else:
        with open(run, "w", encoding="utf-8") as f:
            json.dump(made_by, f, indent=1)
    jobs = [(a.chunks, a.weights, a.opponents, a.preset, a.seed, s, min(a.hands, s + a.chunk),
             a.rate) for s in range(0, a.hands, a.chunk)]
    if a.workers > 1:
        with multiprocessing.Pool(a.workers) as pool:
            paths = pool.map(_chunk, jobs)
    else:
        paths = [_chunk(j) for j in jobs]
    points = branches.concat([dict(np.load(p)) for p in paths])
    print("\n".join(table(points, a.weights)))


if __name__ == "__main__":
    main()
