"""Close calls valued on redealt walls: where the network's two best discards are near tied, what
each is worth to a seat that sees what the seat sees — the teacher signal that can beat the
teacher, since it comes from outcomes, not from the expert (numpy only).

Hand ``i`` of a run with seed ``S`` is dealt from ``hand_seed(S, i)`` under the preset
``presets[i % len(presets)]``, dealer ``(i // 4) % 4``, and played by the network in every seat
(its best allowed index; all hands in lockstep, one forward pass a step) — or, given an
``opponent``, by the network at seat ``i % 4`` and three of those bots. A turn where its two
best allowed indices are both discards less than ``gap`` logits apart is a close call; a draw of
``default_rng([S, i])`` (in the order the hand's turns come) keeps it with chance ``rate``. A kept
close call is redealt ``redeals`` times (:func:`xueliu.game.redeal.redealt` from ``[S, i, j, k]``
for the hand's ``j``-th kept close call: the tiles the seat cannot see dealt again), both
candidates are played on each redeal, and every copy is played to its end by the same players. A
candidate's value is the seat's mean net over the redeals (the same redeals for both: their
difference is not blurred by which redeal was dealt), so one value is the average of ``redeals``
outcomes where a branch point of :mod:`.branches` is one.

v17's close calls measured why (docs/training.md): in self-play 血流 a close call's two candidates
differ, state by state, by ≈ 2 points (standard deviation of the true difference; one outcome's
noise is ≈ 14), and choosing by 4 to 8 redeals gains ≈ 0.1 points a close call, at ≈ 2 close
calls a seat-hand.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..bots import bot_seed, make_bot, start_hand_for
from ..bots.neural import decide_batch, decide_logged
from ..bots.neural_net import Network
from ..game import Action, GameState, new_game
from ..game.actions import HU_ID, PASS_ID, PENG
from ..game import likely_hands
from ..game.redeal import HANDS, clone, redealt
from ..rules import Rules
from ..simulate.play import hand_seed
from .branches import Branches, candidates, pack

__all__ = ["DECISIONS", "REDEAL", "generate", "play_out", "source_opponent"]

def _is_meld(index: int) -> bool:
    return PENG[0].id <= index < HU_ID  # 碰, or a 杠 of any kind


_PAIRS: Dict[str, Callable[[int, int], bool]] = {
    "discards": lambda a, b: a < 27 and b < 27,
    "melds": lambda a, b: a >= 27 or b >= 27,
    "melds_no_pass": lambda a, b: (_is_meld(a) or _is_meld(b)) and PASS_ID not in (a, b),
    "win_or_meld": lambda a, b: HU_ID in (a, b) and (_is_meld(a) or _is_meld(b)),
}
"""Whether a decision whose two best indices are these is of a kind :func:`generate` looks at."""

DECISIONS = tuple(_PAIRS)
"""What :func:`generate` may look at: the turns whose two best indices are discards; the
decisions whose two best are not both discards (碰/杠/胡/pass, on a turn or at a claim); or those
of them where one of the two is a 碰 or 杠 and the other is not pass (a meld against a win, a
discard or another meld: where v24's close calls had values differing from state to state, unlike
a meld or a win against passing); or those whose two best are a win (胡) and a 碰 or 杠 — where
the redeals valued the meld above the win the network (and the expert) always takes, and the
table did not bear it out (v48): a redeal's hidden hands are weaker than real players'."""

REDEAL = "redeal"
"""The improvement stage's source in place of opponents (``--improve-opponents redeal``): the
actor's own close calls in self-play; ``redeal:BOT`` the same with the actor in one seat against
three ``BOT``."""


def source_opponent(name: str) -> Tuple[bool, Optional[str]]:
    """Whether an ``--improve-opponents`` entry names close calls, and then their opponent bot
    (``None``: self-play)."""
    if name == REDEAL or name.startswith(REDEAL + ":"):
        return True, name.partition(":")[2] or None
    return False, None


Bots = Dict[int, Any]
"""The bots of a hand's other seats (seat → bot; empty in self-play)."""

Call = Tuple[GameState, Bots, int, int, int]
"""A kept close call: a copy of the hand there, copies of its bots, the seat, the hand's number
and the close call's number in that hand (:func:`_find`)."""


def _decide(network: Network, states: Dict[int, GameState], bots: Dict[int, Bots]
            ) -> Tuple[Dict[int, Dict[int, Action]], List[Tuple[int, int]],
                       Optional[Tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """One step's answers of every pending seat of ``states``: ``bots`` asked one by one, every
    other seat by the network in one batch; also that batch's ``(hand, seat)`` rows and what
    its first round saw (:func:`~xueliu.bots.neural.decide_logged`)."""
    answers: Dict[int, Dict[int, Action]] = {i: {} for i in states}
    batch: List[Tuple[int, int]] = []
    for i, st in states.items():
        for q in st.pending():
            if q in bots[i]:
                answers[i][q] = bots[i][q].act_view(st.view(q), st.legal_actions(q))
            else:
                batch.append((i, q))
    chosen, first = decide_logged(network, [states[i] for i, _ in batch], [q for _, q in batch])
    for (i, q), a in zip(batch, chosen):
        answers[i][q] = a
    return answers, batch, first


def play_out(network: Network, states: Sequence[GameState], seats: Sequence[int],
             first: Sequence[int], bots: Optional[Sequence[Bots]] = None) -> np.ndarray:
    """Plays every ``states[i]`` to its end, all in lockstep: ``seats[i]``, pending alone, plays
    index ``first[i]``, then ``bots[i]`` decide their seats (asked one by one) and the network
    every other seat (one forward pass a step). The seats' nets, ``float64[n]``."""
    table = dict(enumerate(bots)) if bots is not None else {i: {} for i in range(len(states))}
    pick = np.array(first, np.int64)
    for st, q, a in zip(states, seats, decide_batch(states, seats, lambda x, m: pick)):
        st.step({q: a})
    live = {i: st for i, st in enumerate(states) if not st.is_over}
    while live:
        answers, _, _ = _decide(network, live, table)
        for i, ans in answers.items():
            live[i].step(ans)
        live = {i: st for i, st in live.items() if not st.is_over}
    return np.array([st.settlement().net[q] for st, q in zip(states, seats)], np.float64)


def _find(network: Network, presets: Sequence[str], hands: range, seed: int, gap: float,
          rate: float, opponent: Optional[str], decisions: str = "discards"
          ) -> Tuple[List[Call], Branches, int]:
    """The kept close calls of hands ``hands``: (copy of the hand there, copies of its bots, seat,
    hand number, its close call's number in that hand) each, their rows (values not yet filled),
    and how many of the network's decisions were of the kind ``decisions`` looks at (turns that
    offered two discards; decisions that offered a meld, a win or a pass)."""
    rules = [Rules.preset(p) for p in presets]
    states = {i: new_game(rules[i % len(presets)], seed=hand_seed(seed, i), dealer=(i // 4) % 4)
              for i in hands}
    rngs = {i: np.random.default_rng([seed, i]) for i in hands}
    bots: Dict[int, Bots] = {i: {} for i in hands}
    if opponent is not None:  # the network at seat i % 4, three bots around it
        for i in hands:
            for q in range(4):
                if q != i % 4:
                    hand_rules, bseed = rules[i % len(presets)], bot_seed(seed, i, q)
                    bots[i][q] = make_bot(opponent, seed=bseed, rules=hand_rules)
                    start_hand_for(bots[i][q], q, hand_rules, bseed)
    calls: List[Call] = []
    kept = {i: 0 for i in hands}
    xs: List[np.ndarray] = []
    masks: List[np.ndarray] = []
    cands: List[np.ndarray] = []
    preset_of: List[int] = []
    turns = 0
    while states:
        answers, batch, first = _decide(network, states, bots)
        x0, mask0, logits0 = first if first is not None else (None, None, None)
        for r, (i, q) in enumerate(batch):
            assert x0 is not None and mask0 is not None and logits0 is not None
            allowed = mask0[r].astype(bool)
            st = states[i]
            if decisions == "discards":
                if st.phase != "turn" or int(allowed[:27].sum()) < 2:
                    continue
            elif st.phase not in ("turn", "claim") or int(allowed[27:].sum()) < 1 \
                    or int(allowed.sum()) < 2 or st.wall_remaining < st.rules.forced_win_last_n:
                continue  # (no redeal where a forced win could close the window)
            turns += 1
            z = logits0[r]
            top = candidates(z, allowed, 2)
            if _PAIRS[decisions](*top) and z[top[0]] - z[top[1]] < gap \
                    and rngs[i].random() < rate:
                calls.append((clone(states[i]), copy.deepcopy(bots[i]), q, i, kept[i]))
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


def _play_redeals(network: Network, calls: Sequence[Call], cand: np.ndarray, seed: int,
                  redeals: int, won_hands: str, hands: str) -> np.ndarray:
    """The seat's nets of every close call's two candidates ``cand[c]`` on each of its redeals
    (``[seed, hand, call, k]``, ``won_hands`` and ``hands`` as
    :func:`~xueliu.game.redeal.redealt`'s), all played out in lockstep:
    ``float64[len(calls), redeals, 2]``."""
    states: List[GameState] = []
    tables: List[Bots] = []
    seats: List[int] = []
    picks: List[int] = []
    for c, (st, bots, q, i, j) in enumerate(calls):
        first, second = (int(k) for k in cand[c])
        for k in range(redeals):
            twin = redealt(st, q, [seed, i, j, k], won_hands=won_hands, hands=hands)
            states += [twin, clone(twin)]
            tables += [copy.deepcopy(bots), copy.deepcopy(bots)]
            seats += [q, q]
            picks += [first, second]
    return play_out(network, states, seats, picks, tables).reshape(len(calls), redeals, 2)


def generate(network: Network, presets: Sequence[str], hands: range, seed: int,
             gap: float = 0.5, rate: float = 1.0, redeals: int = 8,
             opponent: Optional[str] = None, won_hands: str = "keep",
             decisions: str = "discards", redeal_hands: str = "uniform") -> Branches:
    """The close calls of self-play hands ``hands`` (a range: chunks are made apart and joined),
    as :data:`.branches.Branches` with two candidates (the network's first, then its second)
    whose ``value`` is the mean net over ``redeals`` redeals; also ``diffs`` ``float32[n,
    redeals]`` (second's net less first's, redeal by redeal) and ``turns`` (``int64[1]``: the
    decisions of the kind looked at, the close calls' denominator). With ``opponent`` (a bot
    name) the network plays seat ``i % 4`` of hand ``i`` against three of those bots (started with
    ``bot_seed(S, i, seat)``; every copy of a hand gets copies of its bots), and only its own
    turns are close calls. ``won_hands`` is :func:`~xueliu.game.redeal.redealt`'s: ``"keep"``
    (the won hands keep their tiles, as in v24's close calls) or ``"redeal"`` (dealt again: only
    what the seat can see decides the values). ``decisions`` says which decisions are looked
    at: ``"discards"`` (the turns whose two best indices are discards: every shipped network's
    close calls) or ``"melds"`` (those whose two best indices are not both discards: 碰, 杠, 胡
    or pass against the other, on a turn or at a claim window — a claim's redeal opens the
    window again on the new hands, :func:`~xueliu.game.redeal.redealt`) or
    ``"melds_no_pass"`` (of those, where one is a 碰 or 杠 and the other is not pass) or
    ``"win_or_meld"`` (a 胡 against a 碰 or 杠). ``redeal_hands`` is the ``hands`` of
    :func:`~xueliu.game.redeal.redealt`: ``"uniform"`` (the other seats dealt at random, as
    up to v24) or ``"likely"`` (as near a win as real players' hands are,
    :mod:`xueliu.game.likely_hands`, as from v53 on)."""
    if gap <= 0 or not 0 < rate <= 1 or redeals < 1 or won_hands not in ("keep", "redeal") \
            or decisions not in DECISIONS or redeal_hands not in HANDS:
        raise ValueError(f"gap must be > 0, rate in (0, 1], redeals >= 1, won_hands 'keep' or "
                         f"'redeal', decisions one of {DECISIONS} and redeal_hands 'uniform' or "
                         f"'likely'; got gap={gap}, rate={rate}, redeals={redeals}, "
                         f"won_hands={won_hands!r}, decisions={decisions!r}, "
                         f"redeal_hands={redeal_hands!r}")
    for p in presets if redeal_hands == "likely" else ():
        likely_hands.ratios_for(Rules.preset(p))  # a shape without a prior: refused at once
    calls, rows, turns = _find(network, presets, hands, seed, gap, rate, opponent, decisions)
    nets = _play_redeals(network, calls, rows["cand"], seed, redeals, won_hands, redeal_hands)
    rows["value"] = nets.mean(axis=1).astype(np.float32)
    rows["diffs"] = (nets[:, :, 1] - nets[:, :, 0]).astype(np.float32)
    rows["turns"] = np.array([turns], np.int64)
    return rows
