"""``python -m xueliu.train``: expert demonstrations, behaviour cloning, PPO against a league,
evaluation, export — every stage checkpointed in the run directory, so a run resumes where it
stopped and a seed gives the same weights (docs/training.md).

The run directory holds ``config.json`` (the arguments; a resumed run must be given the same),
``demos/chunk_*.npz`` (demonstrations, :mod:`.demos`, made in chunks of ``--chunk`` hands),
``checkpoint.pt`` (model, optimiser, stage, step, random states), ``league/*.npz`` (snapshots
of the policy for the league), ``curve.jsonl`` (every evaluation), ``curve.png``,
``weights.npz`` (the export with the best evaluation so far) and ``final.npz`` (the model as
trained last), each with its ``*_reference.npz`` (PyTorch's logits of 64 inputs).
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.nn.functional as F

from ..bots import NeuralBot, bot_seed, end_hand_for, make_bot, start_hand_for
from ..bots.neural import masked_argmax
from ..bots.neural_net import DANGER_KINDS, Network, load_network
from ..bots.neural_play import POLICY, Decisions, play_batched
from ..game import GameState, new_game
from ..game.actions import HU_ID, PENG
from ..learn import renamings
from ..learn.won_waits import won_wait_choice
from ..rules import Rules
from ..simulate.play import hand_seed
from . import branches as branch_mod
from . import close_calls
from . import demos as demo_mod
from .curve import plot_curve
from .evaluate import duplicate_strength
from .distill import ensemble_policy, soft_targets
from .torch_model import PolicyNet, export, load_layers, masked_logits

__all__ = ["Config", "run"]

REWARD_SCALE = {"xueliu": 16.0, "xuezhan": 64.0}
"""A hand's net is divided by this to make the PPO return (xuezhan's stakes are larger)."""
ADVANTAGE_CLIP = 4.0
"""A branch candidate's advantage, in reward units, is clipped to ± this: one wall's 血战 hand
can differ by thousands, and one lucky wall should not steer the policy alone."""


@dataclass
class Config:
    out: str
    seed: int = 2026
    presets: Tuple[str, ...] = ("xueliu", "xuezhan")
    hidden: Tuple[int, ...] = (256, 128)
    init: str = ""  # a weights file the network starts from (else a seeded random start)
    encoder: str = "obs_v1"
    teacher: str = "expert"
    demo_hands: int = 2000
    # DAgger rounds: round r's weights file acts in dagger_hands[r] hands of demonstrations
    dagger: Tuple[str, ...] = ()
    dagger_hands: Tuple[int, ...] = ()
    chunk: int = 50
    workers: int = 1
    half: bool = False  # exports store the weights in float16
    bc_epochs: int = 4
    bc_batch: int = 512
    bc_lr: float = 1e-3
    bc_lr_end: Optional[float] = None  # None: constant; else cosine from bc_lr to it
    bc_weight_won: float = 1.0  # weight of a won-wait choice (won_wait_choice) in the BC loss
    danger_loss: float = 0.0  # > 0: a danger head (the chance each discard deals in), its weight
    danger_penalty: float = 0.0  # the exported policy's price of a discard's chance to deal in
    distill: Tuple[str, ...] = ()  # weights files whose averaged policy BC imitates instead
    distill_views: int = 1  # ... each also asked about the table renamed this many ways (session 16)
    distill_temperature: float = 1.0  # ... their policy sharpened (< 1) before it is imitated
    bc_soft: float = 0.0  # > 0: BC imitates softmax(teacher's option values / this) (session 9)
    improve_actor: str = ""  # "bc" (the BC result) or a weights file: the branches' network
    improve_hands: int = 0
    improve_opponents: Tuple[str, ...] = ("expert", "greedy")
    improve_rate: float = 0.25
    improve_top: int = 3
    improve_epochs: int = 0
    improve_lr: float = 1e-4
    improve_weight: float = 1.0
    improve_redeals: int = 8  # improve_opponents ("redeal",): redeals valuing each close call
    improve_gap: float = 0.5  # ... and the logit gap under which a turn is a close call
    improve_won_hands: str = "keep"  # ... and whether its redeals deal won hands again (session 13)
    improve_decisions: str = "discards"  # ... and which decisions are close calls (session 14)
    improve_redeal_hands: str = "uniform"  # ... and how its redeals deal hidden hands (session 15)
    improve_loss: str = "policy"  # "policy" (the gradient of the expected value) or "pairwise"
    improve_anchor: float = 0.0  # the share of each imitation batch drawn from claims (碰, no 胡)
    augment_renamings: int = 1  # > 1: each training row under one of this many renamings (session 16)
    ppo_iterations: int = 0
    ppo_hands: int = 32
    ppo_epochs: int = 2
    ppo_lr: float = 2e-4
    ppo_clip: float = 0.2
    entropy: float = 0.01
    kl: float = 0.0
    value_iterations: int = 0
    league: Tuple[str, ...] = ("greedy", "expert", "self")
    snapshot_every: int = 10
    eval_every: int = 10
    eval_walls: int = 8
    eval_opponents: Tuple[str, ...] = ("greedy", "expert")
    threads: int = 1
    extra: Dict[str, Any] = field(default_factory=dict)


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class _Bar:
    """A one-line progress bar on stderr (rewritten in place on a terminal, else every 10 %)."""

    def __init__(self, what: str, total: int) -> None:
        self.what, self.total, self.done, self.t0 = what, max(1, total), 0, time.time()
        self.tty = sys.stderr.isatty()
        self.shown = -1
        self.skipped = 0

    def skip(self, n: int) -> None:
        """``n`` items were done before this run (a resumed run): shown, not in the rate."""
        self.done += n
        self.skipped += n

    def update(self, n: int = 1, note: str = "") -> None:
        self.done += n
        tenth = 10 * self.done // self.total
        if not self.tty and tenth == self.shown and self.done < self.total:
            return
        self.shown = tenth
        rate = (self.done - self.skipped) / max(1e-9, time.time() - self.t0)
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 30
        full = width * self.done // self.total
        line = (f"{self.what} [{'#' * full}{'.' * (width - full)}] {self.done}/{self.total} "
                f"{rate:.1f}/s eta {eta:.0f}s {note}")
        print(("\r" if self.tty else "") + line, end="" if self.tty else "\n", file=sys.stderr,
              flush=True)
        if self.tty and self.done >= self.total:
            print(file=sys.stderr)


# -- demonstrations ------------------------------------------------------------------------------

def _chunk_path(cfg: Config, c: int, kind: str = "chunk") -> str:
    return os.path.join(cfg.out, "demos", f"{kind}_{c:05d}.npz")


def _save_chunk(path: str, arrays: Dict[str, np.ndarray]) -> None:
    """Written whole or not at all: a killed run never leaves half a chunk to resume from."""
    tmp = path + ".tmp.npz"
    np.savez(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)


def _make_chunk(args: Tuple[Config, str, int, range, int]) -> int:
    """Chunk ``c`` of ``kind`` (an entry of :func:`.demos.chunk_plan`), made when missing."""
    cfg, kind, c, hands, r = args
    path = _chunk_path(cfg, c, kind)
    if not os.path.exists(path):
        actor = cfg.dagger[r] if r >= 0 else None
        s = demo_mod.generate(cfg.teacher, cfg.presets, hands, cfg.seed, actor=actor,
                              values=cfg.bc_soft > 0)
        _save_chunk(path, s)
    return c


def make_demos(cfg: Config) -> demo_mod.Samples:
    """Every chunk of demonstrations (made when missing, ``--workers`` processes), joined."""
    os.makedirs(os.path.join(cfg.out, "demos"), exist_ok=True)
    chunks = demo_mod.chunk_plan(cfg.demo_hands, cfg.dagger_hands, cfg.chunk)
    todo = [(cfg, *entry) for entry in chunks
            if not os.path.exists(_chunk_path(cfg, entry[1], entry[0]))]
    bar = _Bar(f"demonstrations ({cfg.teacher}, {cfg.chunk} hands a chunk)", len(chunks))
    bar.skip(len(chunks) - len(todo))
    if todo and cfg.workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(cfg.workers) as pool:
            for _ in pool.imap_unordered(_make_chunk, todo):
                bar.update()
    else:
        for args in todo:
            _make_chunk(args)
            bar.update()
    parts = []
    for k, c, _, _ in chunks:
        with np.load(_chunk_path(cfg, c, k)) as z:
            parts.append({key: z[key] for key in z.files})
    return demo_mod.concat(parts)


def _branch_actor(cfg: Config) -> str:
    return os.path.join(cfg.out, "league", "bc.npz") if cfg.improve_actor == "bc" else cfg.improve_actor


def _make_branch_chunk(args: Tuple[Config, int]) -> int:
    cfg, c = args
    path = os.path.join(cfg.out, "branches", f"chunk_{c:05d}.npz")
    if not os.path.exists(path):
        first = cfg.demo_hands + sum(cfg.dagger_hands)  # walls of their own
        hands = range(first + c * cfg.chunk, first + min(cfg.improve_hands, (c + 1) * cfg.chunk))
        opponent = cfg.improve_opponents[c % len(cfg.improve_opponents)]
        net = load_network(_branch_actor(cfg))
        redeal, bots = close_calls.source_opponent(opponent)
        if redeal:
            b = close_calls.generate(net, cfg.presets, hands, cfg.seed, gap=cfg.improve_gap,
                                     rate=cfg.improve_rate, redeals=cfg.improve_redeals,
                                     opponent=bots, won_hands=cfg.improve_won_hands,
                                     decisions=cfg.improve_decisions,
                                     redeal_hands=cfg.improve_redeal_hands)
        else:
            b = branch_mod.generate(net, opponent, cfg.presets, hands, cfg.seed,
                                    rate=cfg.improve_rate, top=cfg.improve_top)
        _save_chunk(path, b)
    return c


def make_branches(cfg: Config) -> branch_mod.Branches:
    """Every chunk of branch points (:mod:`.branches`; made when missing), joined."""
    os.makedirs(os.path.join(cfg.out, "branches"), exist_ok=True)
    chunks = (cfg.improve_hands + cfg.chunk - 1) // cfg.chunk
    paths = [os.path.join(cfg.out, "branches", f"chunk_{c:05d}.npz") for c in range(chunks)]
    todo = [c for c in range(chunks) if not os.path.exists(paths[c])]
    bar = _Bar(f"branch points ({cfg.chunk} hands a chunk)", chunks)
    bar.skip(chunks - len(todo))
    if todo and cfg.workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(cfg.workers) as pool:
            for _ in pool.imap_unordered(_make_branch_chunk, [(cfg, c) for c in todo]):
                bar.update()
    else:
        for c in todo:
            _make_branch_chunk((cfg, c))
            bar.update()
    parts = []
    for path in paths:
        with np.load(path) as z:
            parts.append({k: z[k] for k in z.files})
    return branch_mod.concat(parts)


# -- checkpoints ---------------------------------------------------------------------------------

@dataclass
class _Progress:
    stage: str = "bc"  # "bc", then "improve" (with --improve-epochs), then "ppo"
    improved: bool = False  # the improvement stage has ended
    epoch: int = 0  # BC epochs done / PPO iterations done
    step: int = 0  # optimiser steps so far (the curve's x axis)
    best: float = -1e18  # the best evaluation score so far (mean vs greedy over the presets)


def _save(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer, prog: _Progress,
          rng: np.random.Generator) -> None:
    path = os.path.join(cfg.out, "checkpoint.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "progress": asdict(prog),
                "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state()},
               path + ".tmp")
    os.replace(path + ".tmp", path)


def _load(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer,
          rng: np.random.Generator) -> Optional[_Progress]:
    path = os.path.join(cfg.out, "checkpoint.pt")
    if not os.path.exists(path):
        return None
    ck = torch.load(path, weights_only=False)
    model.load_state_dict(ck["model"])
    opt.load_state_dict(ck["opt"])
    rng.bit_generator.state = ck["rng"]
    torch.set_rng_state(ck["torch_rng"])
    return _Progress(**ck["progress"])


# -- evaluation ----------------------------------------------------------------------------------

def _network_of(model: PolicyNet, penalty: float = 0.0) -> Network:
    """The model's policy as the bot's numpy network (its encoder and the presets' fan tables;
    ``penalty``: the danger penalty of a model with a danger head)."""
    from .torch_model import layers_of

    presets = {p: Rules.preset(p).to_dict() for p in model.presets}
    meta: Dict[str, Any] = {"encoder": model.encoder}
    if model.danger is not None:
        meta["danger"] = {"penalty": penalty}
    return Network(tuple(layers_of(model)), presets, meta)


def _numpy_chooser(model: PolicyNet, penalty: float = 0.0) -> Any:
    net = _network_of(model, penalty)
    return lambda x, mask: masked_argmax(net.forward(x), mask)


def evaluate(cfg: Config, model: PolicyNet, prog: _Progress) -> float:
    """One evaluation line per preset and opponent, appended to ``curve.jsonl``; returns the
    score (the mean against greedy, averaged over the presets, in reward units)."""
    choose = _numpy_chooser(model, cfg.danger_penalty)
    score = 0.0
    with open(os.path.join(cfg.out, "curve.jsonl"), "a", encoding="utf-8") as f:
        for preset in cfg.presets:
            for opponent in cfg.eval_opponents:
                s = duplicate_strength(choose, opponent, preset, cfg.eval_walls,
                                       seed=cfg.seed + 7919)
                _log(f"eval step {prog.step} ({prog.stage} {prog.epoch}): {s.line()}")
                f.write(json.dumps({"step": prog.step, "stage": prog.stage, "epoch": prog.epoch,
                                    "preset": preset, "opponent": opponent, "hands": s.hands,
                                    "mean": s.mean, "low": s.low, "high": s.high}) + "\n")
                if opponent == "greedy":
                    score += s.mean / REWARD_SCALE.get(preset, 16.0) / len(cfg.presets)
    plot_curve(os.path.join(cfg.out, "curve.jsonl"), os.path.join(cfg.out, "curve.png"))
    return score


def _export(cfg: Config, model: PolicyNet, prog: _Progress, name: str, samples: Any) -> str:
    path = os.path.join(cfg.out, name)
    pick = np.random.default_rng(cfg.seed).integers(0, len(samples["index"]), 64)
    x = demo_mod.unpack_x(samples["x"][pick])
    training = {"command": "python -m xueliu.train " + " ".join(cfg.extra.get("argv", [])),
                "seed": cfg.seed, "stage": prog.stage, "epoch": prog.epoch, "step": prog.step,
                "hidden": list(cfg.hidden), "teacher": cfg.teacher,
                "demo_hands": cfg.demo_hands}
    reference = ("" if name.startswith("league/")
                 else os.path.join(cfg.out, name.replace(".npz", "_reference.npz")))
    export(model, path, cfg.presets, training, x, reference=reference, half=cfg.half,
           danger_penalty=cfg.danger_penalty)
    return path


# -- behaviour cloning ---------------------------------------------------------------------------

def demo_batch(cfg: Config, samples: Any, rows: np.ndarray, rng: np.random.Generator
               ) -> Dict[str, np.ndarray]:
    """The demonstrations ``samples[rows]`` as training reads them: ``x`` (float32 ``obs_v1``),
    ``mask``, ``index``, and ``value`` and ``cost`` where the samples have them — under
    ``--augment-renamings N`` each row renamed by one of the first ``N`` renamings, drawn from
    ``rng`` (:mod:`xueliu.learn.renamings`: the same decision at a table whose tiles are called
    otherwise, which plays the same)."""
    batch = {"x": demo_mod.unpack_x(samples["x"][rows]),
             "mask": demo_mod.unpack_mask(samples["mask"][rows]),
             "index": samples["index"][rows].astype(np.int64)}
    for key in ("value", "cost"):
        if key in samples:
            batch[key] = samples[key][rows]
    return _renamed(cfg, batch, rng)


def _renamed(cfg: Config, batch: Dict[str, np.ndarray], rng: np.random.Generator
             ) -> Dict[str, np.ndarray]:
    if cfg.augment_renamings <= 1:
        return batch
    return renamings.rename_batch(batch, rng.integers(0, cfg.augment_renamings, len(batch["x"])))


def imitation_losses(cfg: Config, logits: torch.Tensor, mask: torch.Tensor,
                     batch: Dict[str, np.ndarray], teachers: Sequence[Network] = (),
                     x: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
    """Per row of a :func:`demo_batch`: the plain cross-entropy of the recorded index, and the
    loss BC trains on — the cross-entropy of ``teachers``' :func:`ensemble_policy` (``--distill``,
    on the inputs ``x``) or of the expert's soft targets (``--bc-soft``), else the plain one."""
    masked = masked_logits(logits, mask)
    target = torch.from_numpy(batch["index"])
    plain = torch.nn.functional.cross_entropy(masked, target, reduction="none")
    soft = (ensemble_policy(teachers, x.numpy(), mask.numpy(), cfg.distill_views,
                            cfg.distill_temperature)
            if teachers and x is not None
            else soft_targets(batch["value"], mask.numpy(), batch["index"],
                              cfg.bc_soft) if cfg.bc_soft > 0 and "value" in batch
            else None)
    if soft is None:
        return plain, plain
    return plain, -(torch.from_numpy(soft) * torch.log_softmax(masked, dim=1)).sum(dim=1)


def bc_epoch(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer, samples: Any,
             rng: np.random.Generator, prog: _Progress,
             teachers: Sequence[Network] = ()) -> float:
    """One epoch of behaviour cloning: the cross-entropy of the recorded index, or with
    ``teachers`` (``--distill``) of their :func:`ensemble_policy` (Hinton et al. 2015: an
    ensemble's averaged imitation errors, distilled into one network); returns the plain
    imitation loss either way."""
    n = len(samples["index"])
    order = rng.permutation(n)
    per_epoch = (n + cfg.bc_batch - 1) // cfg.bc_batch
    bar = _Bar(f"BC epoch {prog.epoch + 1}/{cfg.bc_epochs}", per_epoch)
    total, count, d_total = 0.0, 0, 0.0
    for k, start in enumerate(range(0, n, cfg.bc_batch)):
        if cfg.bc_lr_end is not None:  # cosine over the run's BC steps (by epoch and batch)
            done = (prog.epoch * per_epoch + k) / (cfg.bc_epochs * per_epoch)
            for group in opt.param_groups:
                group["lr"] = cfg.bc_lr_end + 0.5 * (cfg.bc_lr - cfg.bc_lr_end) * (
                    1 + np.cos(np.pi * done))
        pick = np.sort(order[start:start + cfg.bc_batch])
        batch = demo_batch(cfg, samples, pick, rng)
        x = torch.from_numpy(batch["x"])
        mask = torch.from_numpy(batch["mask"])
        h = model.features(x)
        logits = model.pi(h)
        plain, losses = imitation_losses(cfg, logits, mask, batch, teachers, x)
        if cfg.bc_weight_won != 1.0:
            w = 1.0 + (cfg.bc_weight_won - 1.0) * torch.from_numpy(
                won_wait_choice(x.numpy(), mask.numpy()).astype(np.float32))
            loss = (losses * w).sum() / w.sum()
        else:
            loss = losses.mean()
        if model.danger is not None:
            d_loss = danger_loss(model.danger(h), batch["cost"], mask)
            loss = loss + cfg.danger_loss * d_loss
            d_total += float(d_loss.item()) * len(pick)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        prog.step += 1
        total += float(plain.sum().item())  # the plain imitation loss, whatever the weights
        count += len(pick)
        bar.update(note=f"loss {total / count:.3f}" + (
            f", danger {d_total / count:.4f}" if model.danger is not None else ""))
    return total / max(1, count)


def danger_loss(estimate: torch.Tensor, cost: np.ndarray, mask: torch.Tensor) -> torch.Tensor:
    """Binary cross-entropy of the danger head's logits against whether each discard the turn's
    mask allows would deal in (:func:`xueliu.game.deal_in_costs.deal_in_costs` ``> 0``); 0 in a
    batch without a turn. Why a chance and not the cost: regressed on costs (session 8), the
    head chased the rare 血战 deal-ins worth a thousand points and told the common ones apart
    barely better than chance (AUC 0.67)."""
    target = torch.from_numpy((cost > 0).astype(np.float32))
    where = mask[:, :DANGER_KINDS] & torch.from_numpy(cost >= 0)
    if not bool(where.any()):
        return estimate.sum() * 0.0
    return torch.nn.functional.binary_cross_entropy_with_logits(estimate[where], target[where])


# -- improvement ---------------------------------------------------------------------------------

def _peng_claims(samples: Any) -> np.ndarray:
    """The demonstrations' decisions that offer a 碰 and no 胡 (``--improve-anchor``'s: the close
    calls of a 胡 against a 碰 should not move them), as row numbers."""
    bits = np.unpackbits(samples["mask"][:, :HU_ID // 8 + 1], axis=1)  # indices 0..HU_ID
    return np.flatnonzero(bits[:, PENG[0].id:PENG[-1].id + 1].any(axis=1) & (bits[:, HU_ID] == 0))


def improve_epoch(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer, samples: Any,
                  points: Any, rng: np.random.Generator, prog: _Progress,
                  anchors: Optional[np.ndarray] = None, teachers: Sequence[Network] = ()
                  ) -> Tuple[float, float]:
    """One pass over the branch points: each batch of them pushes the policy's log-probability
    of each candidate by its advantage on the wall (its value less the candidates' mean, in
    reward units, clipped at ±``ADVANTAGE_CLIP``) times its probability among the candidates —
    the gradient of the expected value of a candidate drawn by the policy — plus ``improve_weight`` times the cross-entropy of a batch of the teacher's
    demonstrations (of their soft targets under ``--bc-soft``, of ``teachers``' policy under
    ``--distill``: what BC imitated), which keeps the policy the teacher's where the branches
    say nothing."""
    n = len(points["preset"])
    order = rng.permutation(n)
    batch = cfg.bc_batch
    bar = _Bar(f"improve epoch {prog.epoch + 1}/{cfg.improve_epochs}", (n + batch - 1) // batch)
    scale = torch.tensor([REWARD_SCALE.get(p, 16.0) for p in cfg.presets])
    m = len(samples["index"])
    total_a = total_bc = 0.0
    count = 0
    for start in range(0, n, batch):
        pick = np.sort(order[start:start + batch])
        seen = _renamed(cfg, {"x": demo_mod.unpack_x(points["x"][pick]),
                              "mask": demo_mod.unpack_mask(points["mask"][pick]),
                              "cand": points["cand"][pick].astype(np.int64)}, rng)
        x = torch.from_numpy(seen["x"])
        mask = torch.from_numpy(seen["mask"])
        cand = torch.from_numpy(seen["cand"])
        value = torch.from_numpy(points["value"][pick])
        valid = cand >= 0
        value = torch.where(valid, value, torch.zeros_like(value))
        mean = value.sum(dim=1, keepdim=True) / valid.sum(dim=1, keepdim=True)
        adv = torch.where(valid, value - mean, torch.zeros_like(value))
        adv = adv / scale[torch.from_numpy(points["preset"][pick].astype(np.int64))][:, None]
        adv = adv.clamp(-ADVANTAGE_CLIP, ADVANTAGE_CLIP)
        logits, _ = model(x)
        logp = torch.log_softmax(masked_logits(logits, mask), dim=1)
        chosen = logp.gather(1, cand.clamp(min=0))
        if cfg.improve_loss == "pairwise":
            # the better of two candidates (by the redeals) as a logistic target on their logit
            # difference, weighted by how much better: it does not vanish where the policy is
            # sure of the worse one, as the policy gradient below does (session 14: a 胡 the
            # network takes with probability ≈ 1 where the redeals valued a 碰 more). Only the first
            # candidate's log-probability is moved: pushing that 胡 down, not every 碰 up (which
            # also moved the 碰 of claims without a 胡: tried)
            better = adv[:, 1] - adv[:, 0]
            margin = chosen[:, 1].detach() - chosen[:, 0]
            loss_a = (better.abs() * F.softplus(-torch.sign(better) * margin)
                      * valid.all(dim=1)).mean()
        else:
            # the policy gradient of the candidates' expected value under the policy restricted
            # to them: each advantage weighted by its candidate's probability among them.
            # (Unweighted, a bad candidate's log-probability is pushed down without end: tried,
            # it diverged.)
            weight = torch.where(valid, chosen.detach().exp(), torch.zeros_like(chosen))
            adv = adv * weight / weight.sum(dim=1, keepdim=True)
            loss_a = -(adv * chosen).sum(dim=1).mean()
        demo = rng.integers(0, m, len(pick))
        if anchors is not None and len(anchors):  # (session 14: close calls of 胡 against
            k = int(round(cfg.improve_anchor * len(pick)))  # 碰 move other claims' 碰 too)
            demo[:k] = anchors[rng.integers(0, len(anchors), k)]
        demo = np.sort(demo)
        dbatch = demo_batch(cfg, samples, demo, rng)
        dx = torch.from_numpy(dbatch["x"])
        dlogits, _ = model(dx)
        # what BC imitated (--bc-soft's targets, --distill's teachers: before session 16 the
        # teachers were left out here), so the stage does not pull back to the index
        loss_bc = imitation_losses(cfg, dlogits, torch.from_numpy(dbatch["mask"]), dbatch,
                                   teachers, dx)[1].mean()
        loss = loss_a + cfg.improve_weight * loss_bc
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        prog.step += 1
        total_a += loss_a.item() * len(pick)
        total_bc += loss_bc.item() * len(pick)
        count += len(pick)
        bar.update(note=f"advantage loss {total_a / count:+.4f}, BC {total_bc / count:.3f}")
    return total_a / max(1, count), total_bc / max(1, count)


# -- PPO -----------------------------------------------------------------------------------------

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
                  rng: np.random.Generator, prog: _Progress) -> Dict[str, float]:
    """Rollouts of ``ppo_hands`` hands (the learner at one seat, three league opponents), then
    ``ppo_epochs`` passes of clipped PPO on their decisions."""
    net = _network_of(model)

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


# -- the run -------------------------------------------------------------------------------------

def _check_config(cfg: Config) -> None:
    os.makedirs(cfg.out, exist_ok=True)
    path = os.path.join(cfg.out, "config.json")
    mine = {k: v for k, v in asdict(cfg).items() if k not in ("extra", "workers", "threads")}
    mine = json.loads(json.dumps(mine))
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            theirs = json.load(f)
        if isinstance(theirs.get("dagger"), str):  # a run of one DAgger round, before rounds
            one = bool(theirs["dagger"])
            theirs["dagger"] = [theirs["dagger"]] if one else []
            theirs["dagger_hands"] = [theirs.get("dagger_hands", 0)] if one else []
        defaults = json.loads(json.dumps(asdict(Config(out=cfg.out))))
        free = _GROWABLE + (() if _ppo_started(cfg.out)
                            else _PPO_ONLY)  # PPO's own settings, until PPO has started
        free += () if _improve_started(cfg.out) else _IMPROVE_ONLY
        diff = sorted(k for k in set(mine) | set(theirs)  # a key a run predates: its default
                      if mine.get(k) != theirs.get(k, defaults.get(k)) and k not in free)
        if diff:
            raise ValueError(f"{cfg.out} is a run with other arguments ({', '.join(diff)}); "
                             "resume it with the same ones or choose another --out")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(mine, f, indent=1, sort_keys=True)


def _ppo_started(out: str) -> bool:
    """Whether the run in ``out`` has made a PPO iteration (its checkpoint says so): until then a
    resumed run may still choose how to fine-tune BC's result."""
    path = os.path.join(out, "checkpoint.pt")
    if not os.path.exists(path):
        return False
    prog = torch.load(path, weights_only=False)["progress"]
    return bool(prog["stage"] == "ppo" and prog["epoch"] > 0)


def _improve_started(out: str) -> bool:
    """Whether the run in ``out`` has begun its improvement stage (until then, also after BC has
    ended, a resumed run may choose it)."""
    path = os.path.join(out, "checkpoint.pt")
    if not os.path.exists(path):
        return False
    prog = torch.load(path, weights_only=False)["progress"]
    return bool(prog.get("improved") or (prog["stage"] == "improve" and prog["epoch"] > 0)
                or (prog["stage"] == "ppo" and prog["epoch"] > 0))


_GROWABLE = ("bc_epochs", "ppo_iterations", "eval_every", "snapshot_every", "half",
             "danger_penalty")
"""Arguments a resumed run may raise: it trains longer (``half`` and ``danger_penalty`` change
only the exports and evaluations: a finished run given them writes its final weights again)."""
_IMPROVE_ONLY = ("improve_actor", "improve_hands", "improve_opponents", "improve_rate",
                 "improve_top", "improve_epochs", "improve_lr", "improve_weight",
                 "improve_redeals", "improve_gap", "improve_won_hands",
                 "improve_decisions", "improve_loss", "improve_anchor",
                 "improve_redeal_hands")
"""Arguments only the improvement stage reads: free until it has started."""
_PPO_ONLY = ("ppo_hands", "ppo_epochs", "ppo_lr", "ppo_clip", "entropy", "kl", "value_iterations",
             "league")
"""Arguments only PPO reads: a resumed run may change them until its first PPO iteration — BC's
result can be fine-tuned as wanted, also after BC has ended."""


def run(cfg: Config) -> str:
    """The whole pipeline; returns the path of the final weights (``OUT/final.npz``)."""
    for p in cfg.presets:
        Rules.preset(p)
    _check_config(cfg)
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    os.makedirs(os.path.join(cfg.out, "league"), exist_ok=True)
    model = PolicyNet(cfg.hidden, cfg.encoder, cfg.presets, danger=cfg.danger_loss > 0)
    if cfg.init:
        load_layers(model, load_network(cfg.init))
    opt = torch.optim.Adam(model.parameters(), lr=cfg.bc_lr)
    rng = np.random.default_rng(cfg.seed)
    prog = _load(cfg, model, opt, rng)
    if prog is None:
        prog = _Progress()
        open(os.path.join(cfg.out, "curve.jsonl"), "w").close()
    else:
        _log(f"resumed: stage {prog.stage}, {prog.epoch} done, step {prog.step}")
    samples = make_demos(cfg)
    dagger = (f" and {' + '.join(map(str, cfg.dagger_hands))} DAgger hands" if cfg.dagger
              else "")
    _log(f"{len(samples['index'])} demonstration decisions from {cfg.demo_hands} hands{dagger}")
    best = os.path.join(cfg.out, "weights.npz")
    teachers = [load_network(p) for p in cfg.distill]
    if prog.stage == "bc" and prog.epoch == 0 and prog.step == 0:
        prog.best = evaluate(cfg, model, prog)  # the untrained network: the curve's first point
    while prog.stage == "bc":
        if prog.epoch >= cfg.bc_epochs:
            prog.stage, prog.epoch = ("improve" if cfg.improve_epochs else "ppo"), 0
            _export(cfg, model, prog, "league/bc.npz", samples)
            _save(cfg, model, opt, prog, rng)
            break
        loss = bc_epoch(cfg, model, opt, samples, rng, prog, teachers)
        prog.epoch += 1
        _log(f"BC epoch {prog.epoch}: loss {loss:.4f}, step {prog.step}")
        score = evaluate(cfg, model, prog)
        if score > prog.best or not os.path.exists(best):
            prog.best = score
            _export(cfg, model, prog, "weights.npz", samples)
            _log(f"exported {best} (score {score:+.3f})")
        _save(cfg, model, opt, prog, rng)
    if (prog.stage == "ppo" and prog.epoch == 0 and cfg.improve_epochs
            and not prog.improved):  # a BC run resumed into the improvement stage
        prog.stage = "improve"
    if prog.stage == "improve":
        points = make_branches(cfg)
        _log(f"{len(points['preset'])} branch points from {cfg.improve_hands} hands")
        for group in opt.param_groups:
            group["lr"] = cfg.improve_lr
        anchors = _peng_claims(samples) if cfg.improve_anchor > 0 else None
        while prog.epoch < cfg.improve_epochs:
            loss_a, loss_bc = improve_epoch(cfg, model, opt, samples, points, rng, prog, anchors,
                                            teachers)
            prog.epoch += 1
            _log(f"improve epoch {prog.epoch}: advantage loss {loss_a:+.4f}, BC {loss_bc:.4f}, "
                 f"step {prog.step}")
            score = evaluate(cfg, model, prog)
            _export(cfg, model, prog, f"league/improve_{prog.epoch:03d}.npz", samples)
            if score > prog.best or not os.path.exists(best):
                prog.best = score
                _export(cfg, model, prog, "weights.npz", samples)
                _log(f"exported {best} (score {score:+.3f})")
            _save(cfg, model, opt, prog, rng)
        prog.stage, prog.epoch, prog.improved = "ppo", 0, True
        _save(cfg, model, opt, prog, rng)
    if prog.stage == "ppo":
        for group in opt.param_groups:  # --ppo-lr as given now (it may change until PPO starts)
            group["lr"] = cfg.ppo_lr
        bar = _Bar("PPO", cfg.ppo_iterations)
        bar.skip(prog.epoch)
        while prog.epoch < cfg.ppo_iterations:
            stats = ppo_iteration(cfg, model, opt, rng, prog)
            prog.epoch += 1
            bar.update(note=f"net {stats['mean_net']:+.3f} ({int(stats['decisions'])} dec.)")
            if prog.epoch % cfg.snapshot_every == 0:
                _export(cfg, model, prog, f"league/ppo_{prog.epoch:05d}.npz", samples)
            if prog.epoch % cfg.eval_every == 0 or prog.epoch == cfg.ppo_iterations:
                score = evaluate(cfg, model, prog)
                if score > prog.best:
                    prog.best = score
                    _export(cfg, model, prog, "weights.npz", samples)
                    _log(f"exported {best} (score {score:+.3f})")
            _save(cfg, model, opt, prog, rng)
    if not os.path.exists(best):  # no epoch was trained (a --init file evaluated as it is)
        _export(cfg, model, prog, "weights.npz", samples)
    final = _export(cfg, model, prog, "final.npz", samples)
    _log(f"exported {final} (the model as trained last; {best}: the best evaluation)")
    load_network(best)  # the exports read back
    return final
