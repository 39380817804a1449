"""PPO against a league (``--ppo-iterations``): rollouts of the learner at one seat against three
league opponents (greedy, expert, earlier snapshots of itself), then clipped PPO on its
decisions, with an optional KL to the BC policy and a value head fitted first."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Tuple

import numpy as np
import torch

from ..bots import NeuralBot, bot_seed, end_hand_for, make_bot, start_hand_for
from ..bots.neural import masked_argmax
from ..bots.neural_net import load_network
from ..bots.neural_play import POLICY, Decisions, play_batched
from ..game import GameState, new_game
from ..rules import Rules
from ..simulate.play import hand_seed
from . import demos as demo_mod
from .checkpoint import Progress
from .config import REWARD_SCALE, Config
from .export import network_of
from .torch_model import PolicyNet, masked_logits

__all__ = ["ppo_iteration"]


def _league_bots(cfg: Config, rng: np.random.Generator, rules: Rules, hand: int,
                 seed: int) -> Tuple[str, List[Any]]:
    kinds = list(cfg.league)
    snapshots = sorted(os.listdir(os.path.join(cfg.out, "league")))
    if not snapshots and "self" in kinds:
        kinds.remove("self")
    kind = kinds[int(rng.integers(0, len(kinds)))]
    if kind == "self":
        weights = os.path.join(cfg.out, "league", snapshots[int(rng.integers(0, len(snapshots)))])
        return kind, [NeuralBot(weights=weights, rules=rules) for _ in range(3)]
    return kind, [make_bot(kind, seed=bot_seed(seed, hand, q), rules=rules) for q in range(3)]


def ppo_iteration(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer,
                  rng: np.random.Generator, prog: Progress) -> Dict[str, float]:
    """Rollouts of ``ppo_hands`` hands (the learner at one seat, three league opponents), then
    ``ppo_epochs`` passes of clipped PPO on their decisions."""
    net = network_of(model)

    def sample(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask, net.forward(x), -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        u = rng.random(len(p))[:, None]
        index: np.ndarray = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), mask.shape[1] - 1)
        off = ~mask[np.arange(len(index)), index]  # rounding at the top of the cumulative sum
        index[off] = masked_argmax(logits[off], mask[off])
        return index

    seed = cfg.seed * 1_000_003 + prog.epoch
    states: List[GameState] = []
    seating: List[List[Any]] = []
    learner: List[int] = []
    presets: List[str] = []
    for h in range(cfg.ppo_hands):
        preset = cfg.presets[h % len(cfg.presets)]
        rules = Rules.preset(preset)
        state = new_game(rules, seed=hand_seed(seed, h), dealer=h % 4)
        _, others = _league_bots(cfg, rng, rules, h, seed)
        seat = int(rng.integers(0, 4))
        seats: List[Any] = []
        for q in range(4):
            if q == seat:
                seats.append(POLICY)
            else:
                bot = others.pop()
                start_hand_for(bot, q, rules, bot_seed(seed, h, q))
                seats.append(bot)
        states.append(state)
        seating.append(seats)
        learner.append(seat)
        presets.append(preset)
    record: Decisions = []
    play_batched(states, seating, sample, record=record)
    returns = np.array([states[h].settlement().net[learner[h]] / REWARD_SCALE.get(presets[h], 16.0)
                        for h in range(len(states))], np.float32)
    for h, state in enumerate(states):
        for q, bot in enumerate(seating[h]):
            if bot is not POLICY:
                end_hand_for(bot, state, q)
    hands = np.concatenate([r[0] for r in record])
    x = np.concatenate([r[2] for r in record]).reshape(-1, demo_mod.INPUT)
    mask = np.concatenate([r[3] for r in record])
    index = np.concatenate([r[4] for r in record])
    keep = mask.sum(axis=1) > 1
    hands, x, mask, index = hands[keep], x[keep], mask[keep], index[keep]
    ret = torch.from_numpy(returns[hands])
    xt, mt, it = torch.from_numpy(x), torch.from_numpy(mask), torch.from_numpy(index)
    value_only = prog.epoch < cfg.value_iterations
    reference = None
    if cfg.kl > 0 and not value_only:  # log-probabilities of the BC policy, the KL's anchor
        bc = load_network(os.path.join(cfg.out, "league", "bc.npz"))
        reference = torch.log_softmax(masked_logits(torch.from_numpy(bc.forward(x)), mt), dim=1)
    with torch.no_grad():
        logits, value = model(xt)
        old = torch.log_softmax(masked_logits(logits, mt), dim=1).gather(1, it[:, None])[:, 0]
        adv = ret - value
        adv = (adv - adv.mean()) / (adv.std() + 1e-6)
    n = len(index)
    stats = {"decisions": float(n), "mean_net": float(returns.mean())}
    for _ in range(cfg.ppo_epochs):
        order = torch.from_numpy(rng.permutation(n))
        for start in range(0, n, 256):
            b = order[start:start + 256]
            if value_only:  # fit the value head alone: the trunk (and so the policy) stays
                with torch.no_grad():
                    features = model.features(xt[b])
                vloss = ((model.v(features).squeeze(-1) - ret[b]) ** 2).mean()
                opt.zero_grad()
                vloss.backward()  # type: ignore[no-untyped-call]
                opt.step()
                prog.step += 1
                continue
            logits, value = model(xt[b])
            logp_all = torch.log_softmax(masked_logits(logits, mt[b]), dim=1)
            logp = logp_all.gather(1, it[b][:, None])[:, 0]
            ratio = torch.exp(logp - old[b])
            pg = -torch.min(ratio * adv[b],
                            torch.clamp(ratio, 1 - cfg.ppo_clip, 1 + cfg.ppo_clip) * adv[b]).mean()
            ent = -(torch.exp(logp_all) * logp_all).sum(dim=1).mean()
            vloss = ((value - ret[b]) ** 2).mean()
            loss = pg + 0.5 * vloss - cfg.entropy * ent
            if reference is not None:  # KL(policy || BC policy) over the allowed indices
                kl = torch.where(mt[b], torch.exp(logp_all) * (logp_all - reference[b]),
                                 torch.zeros_like(logp_all)).sum(dim=1).mean()
                loss = loss + cfg.kl * kl
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            prog.step += 1
    return stats
