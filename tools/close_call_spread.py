"""How much does a close call's value vary from state to state? (docs/training.md, session 10)

Session 9's outcome tables showed that where the network's two best discards are close (a small
logit gap) they win the same on average; one sample of their difference carries ≈ 17 points of
noise, so those tables cannot say whether the two differ *state by state* by a few points (then
a search or a rollout teacher could pick the better one) or by tenths (then nothing can). This
measures it.

The close calls of :mod:`xueliu.train.close_calls` (self-play, the network in every seat; a
turn whose two best allowed indices are discards within ``--gap`` logits; each redealt
``--redeals`` times and both candidates played on every redeal): ``d[i, k]`` is the runner-up's
net minus the first's on redeal ``k`` of close call ``i``. Then

- the spread of the close calls' true values, ``σ² = var(mean_k d) − mean(var_k d) / K`` (the
  variance of the per-state means less the part the redeals' own noise puts there);
- what a chooser that played ``K/2`` redeals and took the better candidate would gain: it
  chooses on the first half, and is scored on the second half (an unbiased estimate, a seat-hand
  per close call, with its standard error)::

    python tools/close_call_spread.py --hands 4000 --rate 0.25 --redeals 16 --workers 2 --seed 95
    python tools/close_call_spread.py --read runs/v18/branches   # the chunks a training run made
    python tools/close_call_spread.py --read runs/v22/branches --first 140   # held out of a run
    python tools/close_call_spread.py --read DIR --policy W      # how W chooses on close calls
    python tools/close_call_spread.py --read DIR --by-pair       # by the kinds of the two
                                                                 # candidates (session 14's melds)
"""

from __future__ import annotations

import argparse
import glob
import json
import multiprocessing
import os
from typing import Dict, List, Optional, Tuple

import numpy as np

from xueliu.bots.neural_net import load_network
from xueliu.game.actions import Action
from xueliu.train import close_calls, demos


_KEYS = ("x", "cand", "diffs", "turns")


def _chunk(args: Tuple[Optional[str], str, int, int, int, float, float, int, Optional[str]]
           ) -> Dict[str, np.ndarray]:
    weights, preset, seed, first, last, gap, rate, redeals, keep = args
    path = os.path.join(keep, f"chunk_{first:08d}.npz") if keep else ""
    if path and os.path.exists(path):
        with np.load(path) as z:
            return {k: z[k] for k in _KEYS}
    rows = close_calls.generate(load_network(weights), [preset], range(first, last), seed,
                                gap=gap, rate=rate, redeals=redeals)
    out = {k: rows[k] for k in _KEYS}
    if path:
        np.savez(path + ".tmp.npz", **out)  # type: ignore[arg-type]
        os.replace(path + ".tmp.npz", path)
    return out


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=4000)
    p.add_argument("--chunk", type=int, default=100)
    p.add_argument("--redeals", type=int, default=16)
    p.add_argument("--gap", type=float, default=0.5)
    p.add_argument("--rate", type=float, default=0.25)
    p.add_argument("--preset", default="xueliu")
    p.add_argument("--seed", type=int, default=95)
    p.add_argument("--weights", default=None)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--read", default=None, metavar="DIR",
                   help="report on the close-call chunks in DIR (a training run's branches/), "
                        "preset by preset")
    p.add_argument("--first", type=int, default=0, metavar="N",
                   help="with --read: only chunks numbered N or more (those a run was not "
                        "trained on)")
    p.add_argument("--last", type=int, default=None, metavar="N",
                   help="with --read: only chunks numbered below N")
    p.add_argument("--chunks", default=None, metavar="DIR",
                   help="keep each chunk's close calls in DIR, and reuse those already there "
                        "(made with the same arguments: this is not checked)")
    p.add_argument("--policy", action="append", default=[], metavar="WEIGHTS",
                   help="also score this network's choice between the two candidates of each "
                        "close call by their outcomes (repeatable; on close calls it was not "
                        "trained on)")
    p.add_argument("--by-pair", action="store_true",
                   help="also report each pair of candidate kinds (first > second: the actions' "
                        "kinds, discard, peng, kong, concealed_kong, added_kong, hu, pass) apart")
    a = p.parse_args(argv)
    if a.read:
        parts = []
        for path in sorted(glob.glob(os.path.join(a.read, "chunk_*.npz"))):
            number = int(os.path.basename(path)[len("chunk_"):-len(".npz")])
            if number < a.first or (a.last is not None and number >= a.last):
                continue
            with np.load(path) as z:
                # a training run's chunks mix its presets: indices into its config's list
                parts.append({k: z[k] for k in _KEYS + ("preset",) if k in z.files})
        if not parts:
            p.error(f"no close-call chunks in {a.read} in that range")
        presets = _run_presets(a.read) if "preset" in parts[0] else [a.preset]
        hands = None
    else:
        if a.redeals < 2 or a.redeals % 2:
            p.error("--redeals must be an even number, at least 2")
        if a.chunks:
            os.makedirs(a.chunks, exist_ok=True)
        jobs = [(a.weights, a.preset, a.seed, s, min(s + a.chunk, a.hands), a.gap, a.rate,
                 a.redeals, a.chunks) for s in range(0, a.hands, a.chunk)]
        with multiprocessing.Pool(a.workers) as pool:
            parts = pool.map(_chunk, jobs, chunksize=1)
        hands = a.hands
        presets = [a.preset]
    d = np.concatenate([q["diffs"] for q in parts]).astype(np.float64)
    which = np.concatenate([q.get("preset", np.zeros(len(q["diffs"]), np.int8)) for q in parts])
    cand = np.concatenate([q["cand"] for q in parts]).astype(np.int64)
    logits: Dict[str, np.ndarray] = {}
    if a.policy:
        x = demos.unpack_x(np.concatenate([q["x"] for q in parts]))
        logits = {w: load_network(w).forward(x) for w in a.policy}
    turns: Optional[int] = sum(int(q["turns"][0]) for q in parts)
    if len(presets) > 1:  # counted over the chunks' hands of every preset
        print(f"{turns} decisions of the kind looked at (for discards: turns with a choice of "
              f"discards), all presets")
        turns = None
    for i, name in enumerate(presets):
        rows = np.flatnonzero(which == i)
        if not len(rows):
            continue
        if len(presets) > 1:  # one preset's points are not on another's scale
            print(f"-- {name}")
        groups = [("", rows)]
        if a.by_pair:
            kind = [Action.from_id(int(k)).kind for k in range(137)]  # the candidates' ids
            pair = np.array([f"{kind[f]} > {kind[s]}" for f, s in cand[rows]])
            groups += [(f"{name}: ", rows[pair == name])
                       for name in sorted(set(pair), key=lambda n: -int(np.sum(pair == n)))]
        for label, part in groups:
            if len(part) < 2:
                continue
            if label:
                print(f"- {label}", end="")
            report(d[part], turns if not label else None, a.rate, hands if not label else None)
            for weights, lg in logits.items():
                second = lg[part, cand[part, 1]] > lg[part, cand[part, 0]]
                gain = np.where(second, d[part].mean(axis=1), 0.0)
                print(f"{weights}: takes the second {second.mean():.1%} of the time, gains "
                      f"{gain.mean():+.3f} ± {gain.std(ddof=1) / np.sqrt(len(gain)):.3f} a "
                      f"close call over the first")


def _run_presets(branches: str) -> List[str]:
    """The presets of the training run whose ``branches/`` directory this is (its config)."""
    with open(os.path.join(branches, os.pardir, "config.json")) as f:
        return list(json.load(f)["presets"])


def report(d: np.ndarray, turns: Optional[int], rate: float, hands: Optional[int]) -> None:
    n, k = d.shape
    per_hand = f" ({n / rate / hands:.2f} close calls a hand, all seats)" if hands else ""
    of_turns = f"; {turns} decisions of the kind looked at" if turns is not None else ""
    print(f"{n} close calls, {k} redeals each{of_turns}{per_hand}")
    m = d.mean(axis=1)
    within = d.var(axis=1, ddof=1).mean()
    spread = m.var(ddof=1) - within / k
    half = k // 2
    second = d[:, :half].mean(axis=1) > 0
    gain = np.where(second, d[:, half:].mean(axis=1), 0.0)
    print(f"second − first: mean {m.mean():+.3f} ± {m.std(ddof=1) / np.sqrt(n):.3f}; one "
          f"redeal's sd {np.sqrt(within):.2f} ({np.mean(d == 0):.0%} exactly 0); the true "
          f"values' spread σ = {np.sqrt(max(spread, 0.0)):.2f} (σ² {spread:+.2f})")
    print(f"a chooser on {half} redeals takes the second {second.mean():.0%} of the time and "
          f"gains {gain.mean():+.3f} ± {gain.std(ddof=1) / np.sqrt(n):.3f} a close call "
          f"(scored on the other {k - half})")


if __name__ == "__main__":
    main()
