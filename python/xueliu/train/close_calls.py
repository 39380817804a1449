"""Close calls valued on redealt walls: where the network's two best discards are near tied, what
each is worth to a seat that sees what the seat sees — the teacher signal that can beat the
teacher, since it comes from outcomes, not from the expert (numpy only).

Hand ``i`` of a run with seed ``S`` is dealt from ``hand_seed(S, i)`` under the preset
``presets[i % len(presets)]``, dealer ``(i // 4) % 4``, and played by the network in every seat
(its best allowed index; all hands in lockstep, one forward pass a step). A turn where its two
best allowed indices are both discards less than ``gap`` logits apart is a close call; a draw of
``default_rng([S, i])`` (in the order the hand's turns come) keeps it with chance ``rate``. A kept
close call is redealt ``redeals`` times (:func:`xueliu.game.redeal.redealt`, from
``[S, i, j, k]`` for the hand's ``j``-th kept close call: the tiles the seat cannot see dealt again), both candidates are played on
each redeal and every copy is played to its end by the network in every seat. A candidate's value
is the seat's mean net over the redeals (the same redeals for both: their difference is not
blurred by which redeal was dealt), so one value is the average of ``redeals`` outcomes where a
branch point of :mod:`.branches` is one.

Session 10 measured why (docs/training.md): in self-play 血流 a close call's two candidates
differ, state by state, by ≈ 2.2 points (standard deviation of the true difference; one outcome's
noise is ≈ 14), and choosing by 8 redeals gains ≈ 0.2 points a close call, at ≈ 2 close calls a
seat-hand.
"""

from __future__ import annotations

import pickle
from typing import Dict, List, Sequence, Tuple

import numpy as np

from ..bots.neural import decide_batch, masked_argmax
from ..bots.neural_net import Network
from ..game import Action, GameState, new_game
from ..game.redeal import redealt
from ..rules import Rules
from ..simulate.play import hand_seed
from .branches import Branches, candidates, pack

__all__ = ["generate", "play_out"]


def _clone(state: GameState) -> GameState:
    twin: GameState = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return twin


def play_out(network: Network, states: Sequence[GameState], seats: Sequence[int],
             first: Sequence[int]) -> np.ndarray:
    """Plays every ``states[i]`` to its end, all in lockstep: ``seats[i]``, pending alone, plays
    index ``first[i]``, then the network decides every seat. The seats' nets, ``float64[n]``."""
    pick = np.array(first, np.int64)
    for st, q, a in zip(states, seats, decide_batch(states, seats, lambda x, m: pick)):
        st.step({q: a})
    live = [i for i, st in enumerate(states) if not st.is_over]
    while live:
        batch = [(i, q) for i in live for q in states[i].pending()]
        chosen = decide_batch([states[i] for i, _ in batch], [q for _, q in batch],
                              lambda x, m: masked_argmax(network.forward(x), m))
        answers: Dict[int, Dict[int, Action]] = {}
        for (i, q), a in zip(batch, chosen):
            answers.setdefault(i, {})[q] = a
        for i, ans in answers.items():
            states[i].step(ans)
        live = [i for i in live if not states[i].is_over]
    return np.array([st.settlement().net[q] for st, q in zip(states, seats)], np.float64)


def _find(network: Network, presets: Sequence[str], hands: range, seed: int, gap: float,
          rate: float) -> Tuple[List[Tuple[GameState, int, int, int]], Branches, int]:
    """The kept close calls of the self-play hands ``hands``: (copy of the hand there, seat, hand
    number, its close call's number in that hand) each, their rows (values not yet filled), and how many turns offered two
    discards."""
    rules = [Rules.preset(p) for p in presets]
    states = {i: new_game(rules[i % len(presets)], seed=hand_seed(seed, i), dealer=(i // 4) % 4)
              for i in hands}
    rngs = {i: np.random.default_rng([seed, i]) for i in hands}
    calls: List[Tuple[GameState, int, int, int]] = []
    kept = {i: 0 for i in hands}
    xs: List[np.ndarray] = []
    masks: List[np.ndarray] = []
    cands: List[np.ndarray] = []
    preset_of: List[int] = []
    turns = 0
    while states:
        batch = [(i, q) for i, st in states.items() for q in st.pending()]
        seen: List[np.ndarray] = []

        def choose(x: np.ndarray, m: np.ndarray) -> np.ndarray:
            logits = network.forward(x)
            seen.append(logits)
            return masked_argmax(logits, m)

        rounds: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        chosen = decide_batch([states[i] for i, _ in batch], [q for _, q in batch], choose,
                              record=rounds)
        _, x0, mask0, _ = rounds[0]
        answers: Dict[int, Dict[int, Action]] = {}
        for r, ((i, q), a) in enumerate(zip(batch, chosen)):
            answers.setdefault(i, {})[q] = a
            allowed = mask0[r].astype(bool)
            if states[i].phase != "turn" or int(allowed[:27].sum()) < 2:
                continue
            turns += 1
            top = candidates(seen[0][r], allowed, 2)
            z = seen[0][r]
            if max(top) < 27 and z[top[0]] - z[top[1]] < gap and rngs[i].random() < rate:
                calls.append((_clone(states[i]), q, i, kept[i]))
                kept[i] += 1
                xs.append(x0[r:r + 1])
                masks.append(allowed[None])
                cands.append(np.array([top], np.int16))
                preset_of.append(i % len(presets))
        for i, ans in answers.items():
            states[i].step(ans)
        states = {i: st for i, st in states.items() if not st.is_over}
    values = [np.zeros((1, 2), np.float32) for _ in calls]
    return calls, pack(xs, masks, cands, values, preset_of, 2), turns


def generate(network: Network, presets: Sequence[str], hands: range, seed: int,
             gap: float = 0.5, rate: float = 1.0, redeals: int = 8) -> Branches:
    """The close calls of self-play hands ``hands`` (a range: chunks are made apart and joined),
    as :data:`.branches.Branches` with two candidates (the network's first, then its second)
    whose ``value`` is the mean net over ``redeals`` redeals; also ``diffs`` ``float32[n,
    redeals]`` (second's net less first's, redeal by redeal) and ``turns`` (``int64[1]``: the
    turns that offered two discards, the close calls' denominator)."""
    if gap <= 0 or not 0 < rate <= 1 or redeals < 1:
        raise ValueError(f"gap must be > 0, rate in (0, 1] and redeals >= 1; got gap={gap}, "
                         f"rate={rate}, redeals={redeals}")
    calls, rows, turns = _find(network, presets, hands, seed, gap, rate)
    states: List[GameState] = []
    seats: List[int] = []
    picks: List[int] = []
    for c, (st, q, i, j) in enumerate(calls):
        first, second = (int(k) for k in rows["cand"][c])
        for k in range(redeals):
            twin = redealt(st, q, [seed, i, j, k])
            states += [twin, _clone(twin)]
            seats += [q, q]
            picks += [first, second]
    nets = play_out(network, states, seats, picks).reshape(len(calls), redeals, 2)
    rows["value"] = nets.mean(axis=1).astype(np.float32)
    rows["diffs"] = (nets[:, :, 1] - nets[:, :, 0]).astype(np.float32)
    rows["turns"] = np.array([turns], np.int64)
    return rows
