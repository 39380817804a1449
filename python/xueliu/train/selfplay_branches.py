"""Branch points of self-play, many hands in lockstep: the network plays all four seats of every
hand, and at some of its decisions the runner-up candidates are played out on copies of the hand
— the outcome signal of :mod:`.branches`, made fast enough to collect millions of (numpy only).

:mod:`.branches` plays one hand at a time against bots that are asked one by one; here every
hand of a chunk and every copy of one are stepped together and all their pending seats are
decided by one forward pass of the network (:func:`~xueliu.bots.neural.decide_batch`), so a
branch point costs about what the network's own batched arena spends on the rest of a hand.

Hand ``i`` of a run with seed ``S`` is dealt from ``hand_seed(S, i)`` under the preset
``presets[i % len(presets)]``, dealer ``(i // 4) % 4``. At each decision with more than one
allowed index (the exchange's picks aside), a draw of ``default_rng([S, i])`` (in the order the
hand's decisions are made, seats in the order :meth:`GameState.pending` gives them) makes it a
branch point with chance ``rate``: the network's ``top`` best allowed indices are its candidates,
the first its own choice, which the hand goes on with; each other one is played on a copy of the
hand (the other seats' answers of that moment kept) and the copy played to its end by the
network in every seat. A candidate's value is the deciding seat's net at the end. Everything is
deterministic, so the difference of two candidates' values is what that one decision changed on
this wall (an unbiased sample of it to a seat that sees what the seat sees).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..bots.neural import decide_batch, decide_logged
from ..bots.neural_net import Network
from ..game import Action, GameState, new_game
from ..game.redeal import clone
from ..rules import Rules
from ..simulate.play import hand_seed
from .branches import Branches, candidates, pack

__all__ = ["generate"]


class _Job:
    """A hand being played: a dealt hand (``row is None``) or the copy playing candidate ``cand``
    of branch point ``row`` for ``seat``."""

    __slots__ = ("state", "hand", "row", "cand", "seat")

    def __init__(self, state: GameState, hand: int, row: Optional[int] = None, cand: int = 0,
                 seat: int = -1) -> None:
        self.state = state
        self.hand = hand
        self.row = row
        self.cand = cand
        self.seat = seat


def generate(network: Network, presets: Sequence[str], hands: range, seed: int,
             rate: float = 0.25, top: int = 3, verify: bool = False) -> Branches:
    """The branch points of self-play hands ``hands`` (a range, so chunks are made apart and
    joined; the format of :data:`.branches.Branches`). ``verify`` also plays the network's own
    choice on a copy and insists that it wins what the hand itself wins (the copies are
    faithful; the tests use it)."""
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"rate must be in [0, 1], not {rate}")
    if top < 2:
        raise ValueError(f"top must be at least 2, not {top}")
    rules = [Rules.preset(p) for p in presets]
    jobs: List[_Job] = []
    rngs: Dict[int, np.random.Generator] = {}
    for i in hands:
        state = new_game(rules[i % len(presets)], seed=hand_seed(seed, i), dealer=(i // 4) % 4)
        jobs.append(_Job(state, i))
        rngs[i] = np.random.default_rng([seed, i])
    xs: List[np.ndarray] = []
    masks: List[np.ndarray] = []
    cands: List[np.ndarray] = []
    values: List[np.ndarray] = []
    preset_of: List[int] = []
    owner: List[Tuple[int, int]] = []  # (hand, seat) of each row: its first value is that net
    open_rows: Dict[int, List[int]] = {}
    copies: Dict[int, float] = {}  # with verify: each row's own choice, as played on a copy
    while jobs:
        batch: List[Tuple[int, int]] = [(j, q) for j, job in enumerate(jobs)
                                        for q in job.state.pending()]
        legal = [jobs[j].state.legal_actions(q) for j, q in batch]
        chosen, first = decide_logged(network, [jobs[j].state for j, _ in batch],
                                      [q for _, q in batch], legal=legal)
        answers: List[Dict[int, Action]] = [{} for _ in jobs]
        for (j, q), action in zip(batch, chosen):
            answers[j][q] = action
        twins: List[_Job] = []
        forced: List[int] = []
        if first is not None:
            x0, mask0, logits0 = first
            for r, (j, q) in enumerate(batch):
                job = jobs[j]
                allowed = mask0[r]
                if job.row is not None or int(allowed.sum()) < 2:
                    continue
                if any(a.kind == "exchange" for a in legal[r]):
                    continue
                if rngs[job.hand].random() >= rate:
                    continue
                picked = candidates(logits0[r], allowed, top)
                row = len(values)
                xs.append(x0[r:r + 1])
                masks.append(allowed[None])
                cands.append(np.array([picked + [-1] * (top - len(picked))], np.int16))
                values.append(np.full((1, top), np.nan, np.float32))
                preset_of.append(job.hand % len(presets))
                owner.append((job.hand, q))
                open_rows.setdefault(job.hand, []).append(row)
                for c, k in enumerate(picked[0 if verify else 1:], start=0 if verify else 1):
                    twin = _Job(clone(job.state), job.hand, row, c, q)
                    twins.append(twin)
                    forced.append(k)
                    answers.append(dict(answers[j]))
        if twins:
            # The copies' own seat answers with its candidate (an index of one round: the
            # exchange is never branched, so no picks).
            pick = np.array(forced, np.int64)
            moved = decide_batch([t.state for t in twins], [t.seat for t in twins],
                                 lambda x, m: pick)
            base = len(jobs)
            for t, (twin, action) in enumerate(zip(twins, moved)):
                answers[base + t][twin.seat] = action
            jobs = jobs + twins
        still: List[_Job] = []
        for job, ans in zip(jobs, answers):
            if ans:
                job.state.step(ans)
            if not job.state.is_over:
                still.append(job)
                continue
            net = job.state.settlement().net
            if job.row is not None and job.cand == 0:
                copies[job.row] = float(net[job.seat])
            elif job.row is not None:
                values[job.row][0, job.cand] = float(net[job.seat])
            else:
                for row in open_rows.pop(job.hand, []):
                    values[row][0, 0] = float(net[owner[row][1]])
        jobs = still
    for row, net_of_copy in copies.items():
        if net_of_copy != values[row][0, 0]:
            raise AssertionError(f"hand {owner[row][0]}: a copy of the hand won {net_of_copy}, "
                                 f"the hand {values[row][0, 0]}")
    return pack(xs, masks, cands, values, preset_of, top)
