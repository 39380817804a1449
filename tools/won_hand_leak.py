"""How much of what the close calls measure is a won hand's hidden tiles? (docs/training.md,
session 13)

The close calls of :mod:`xueliu.train.close_calls` are valued on redeals that keep every won
血流 hand's concealed tiles (:func:`xueliu.game.redeal.redealt`'s default): their values know
those hands' other waits, which the seat deciding cannot see. Two measurements:

- ``--split DIR``: a run's close-call chunks split by whether another seat's hand has won (the
  ``obs_v1`` frozen flags), the spread of the true values and a 4-redeal chooser's gain in each;
- otherwise: new 血流 close calls of ``--weights`` (self-play, or against three ``--opponent``),
  those at a table with a won hand only, each valued twice on ``--redeals`` redeals — keeping the
  won hands (K, the teacher's) and dealing them again (F, ``won_hands="redeal"``: only what the
  seat sees). A chooser on half of K scored on the other half is what the teacher measures; a
  chooser on F scored on the same half of K is what a seat that cannot see the won hands gets
  (K, which keeps the real won hands, stands for the truth)::

    python tools/won_hand_leak.py --split runs/v25/branches
    python tools/won_hand_leak.py --weights v24.npz --hands 4000 --seed 31 --workers 2 --chunks DIR
"""

from __future__ import annotations

import argparse
import glob
import multiprocessing
import os
from typing import List, Optional, Tuple

import numpy as np

from xueliu.bots.neural_net import load_network
from xueliu.learn.won_waits import _won_on
from xueliu.train import close_calls, demos


def _chunk(args: Tuple[str, int, int, int, int, Optional[str], str]) -> str:
    weights, seed, first, last, redeals, opponent, keep = args
    path = os.path.join(keep, f"chunk_{first:08d}.npz")
    if os.path.exists(path):
        return path
    net = load_network(weights)
    calls, rows, _ = close_calls._find(net, ["xueliu"], range(first, last), seed, 0.5, 1.0,
                                       opponent)
    won = [c for c, (st, _, q, _, _) in enumerate(calls)
           if any(st._won[o] for o in range(st.seats) if o != q)]
    out = {}
    for mode in ("keep", "redeal"):
        nets = close_calls._play_redeals(net, [calls[c] for c in won], rows["cand"][won], seed,
                                         redeals, mode)
        out[mode] = (nets[:, :, 1] - nets[:, :, 0]).astype(np.float32)
    np.savez(path + ".tmp.npz", keep=out["keep"], redeal=out["redeal"],
             calls=np.array([len(calls)]))
    os.replace(path + ".tmp.npz", path)
    return path


def _spread(d: np.ndarray) -> float:
    """σ² of the close calls' true values: the per-state means' variance less the redeals'."""
    return float(d.mean(1).var() - d.var(1, ddof=1).mean() / d.shape[1])


def _gain(choose: np.ndarray, score: np.ndarray) -> str:
    g = np.where(choose > 0, score, 0.0)
    return f"{g.mean():+.3f} ± {g.std(ddof=1) / np.sqrt(len(g)):.3f}"


def split(directory: str, first: int) -> None:
    diffs, won, preset = [], [], []
    for path in sorted(glob.glob(os.path.join(directory, "chunk_*.npz"))):
        if int(os.path.basename(path)[len("chunk_"):-len(".npz")]) < first:
            continue
        with np.load(path) as z:
            diffs.append(z["diffs"].astype(np.float64))
            won.append(_won_on(demos.unpack_x(z["x"]))[1] > 0)
            preset.append(z["preset"])
    d, w, p = np.concatenate(diffs), np.concatenate(won), np.concatenate(preset)
    half = d.shape[1] // 2
    for name, rows in (("no won hand at the table", ~w & (p == 0)),
                       ("a won hand at the table", w & (p == 0))):
        x = d[rows]
        print(f"血流, {name}: {len(x)} close calls, σ² {_spread(x):+.2f}, a chooser on "
              f"{half} redeals gains {_gain(x[:, :half].mean(1), x[:, half:].mean(1))}")


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--split", default=None, metavar="DIR")
    p.add_argument("--first", type=int, default=0, metavar="N",
                   help="with --split: only chunks numbered N or more")
    p.add_argument("--weights", default=None)
    p.add_argument("--opponent", default=None, help="three of this bot around the network")
    p.add_argument("--hands", type=int, default=4000)
    p.add_argument("--chunk", type=int, default=50)
    p.add_argument("--redeals", type=int, default=8)
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--chunks", required=False, default=None, metavar="DIR",
                   help="keep each chunk's values in DIR and reuse those there")
    a = p.parse_args(argv)
    if a.split:
        split(a.split, a.first)
        return
    if not a.weights or not a.chunks or a.redeals < 2 or a.redeals % 2:
        p.error("give --weights, --chunks and an even --redeals of at least 2 (or --split)")
    os.makedirs(a.chunks, exist_ok=True)
    jobs = [(a.weights, a.seed, s, min(s + a.chunk, a.hands), a.redeals, a.opponent, a.chunks)
            for s in range(0, a.hands, a.chunk)]
    with multiprocessing.Pool(a.workers) as pool:
        paths = pool.map(_chunk, jobs, chunksize=1)
    parts = [np.load(q) for q in paths]
    k = np.concatenate([z["keep"] for z in parts]).astype(np.float64)
    f = np.concatenate([z["redeal"] for z in parts]).astype(np.float64)
    half = a.redeals // 2
    print(f"{len(k)} close calls at a table with a won hand, of "
          f"{sum(int(z['calls'][0]) for z in parts)}; {a.redeals} redeals each way")
    print(f"σ² of the true values: won hands kept {_spread(k):+.2f}, dealt again {_spread(f):+.2f}")
    print(f"chooser on {half} redeals keeping them, scored on the other {half}: "
          f"{_gain(k[:, :half].mean(1), k[:, half:].mean(1))}")
    print(f"chooser on {half} redeals dealing them again, scored the same: "
          f"{_gain(f[:, :half].mean(1), k[:, half:].mean(1))}")
    print(f"chooser on all {a.redeals} dealing them again, scored the same: "
          f"{_gain(f.mean(1), k[:, half:].mean(1))}")
    d = (np.where(k[:, :half].mean(1) > 0, k[:, half:].mean(1), 0.0)
         - np.where(f[:, :half].mean(1) > 0, k[:, half:].mean(1), 0.0))
    print(f"what keeping them adds ({half} redeals each): "
          f"{d.mean():+.3f} ± {d.std(ddof=1) / np.sqrt(len(d)):.3f} a close call")


if __name__ == "__main__":
    main()
