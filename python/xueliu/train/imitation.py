"""Behaviour cloning: an epoch over the demonstrations (the teacher's hands and the DAgger rounds'),
imitating the recorded choice, the teacher's soft targets (``--bc-soft``) or an ensemble's policy
(``--distill``), with the danger head's loss beside it (``--danger-loss``)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
import torch

from ..bots.neural_net import DANGER_KINDS, Network
from ..learn import renamings
from ..learn.won_waits import won_wait_choice
from . import demos as demo_mod
from .checkpoint import Progress
from .config import Config
from .console import Bar
from .distill import ensemble_policy, soft_targets
from .torch_model import PolicyNet, masked_logits

__all__ = ["demo_batch", "renamed", "imitation_losses", "bc_epoch", "danger_loss"]


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
    return renamed(cfg, batch, rng)


def renamed(cfg: Config, batch: Dict[str, np.ndarray], rng: np.random.Generator
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
             rng: np.random.Generator, prog: Progress,
             teachers: Sequence[Network] = ()) -> float:
    """One epoch of behaviour cloning: the cross-entropy of the recorded index, or with
    ``teachers`` (``--distill``) of their :func:`ensemble_policy` (Hinton et al. 2015: an
    ensemble's averaged imitation errors, distilled into one network); returns the plain
    imitation loss either way."""
    n = len(samples["index"])
    order = rng.permutation(n)
    per_epoch = (n + cfg.bc_batch - 1) // cfg.bc_batch
    bar = Bar(f"BC epoch {prog.epoch + 1}/{cfg.bc_epochs}", per_epoch)
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
    batch without a turn. Why a chance and not the cost: regressed on costs (v12), the
    head chased the rare 血战 deal-ins worth a thousand points and told the common ones apart
    barely better than chance (AUC 0.67)."""
    target = torch.from_numpy((cost > 0).astype(np.float32))
    where = mask[:, :DANGER_KINDS] & torch.from_numpy(cost >= 0)
    if not bool(where.any()):
        return estimate.sum() * 0.0
    return torch.nn.functional.binary_cross_entropy_with_logits(estimate[where], target[where])
