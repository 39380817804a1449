"""The improvement stage (``--improve-epochs``): epochs over the branch points or close calls of
:mod:`.chunks`, each candidate's value on its wall turned into an advantage the policy follows,
beside a batch of the demonstrations that keeps it what BC made it elsewhere."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.nn.functional as F

from ..bots.neural_net import Network
from ..game.actions import HU_ID, PENG
from . import demos as demo_mod
from .checkpoint import Progress
from .config import ADVANTAGE_CLIP, REWARD_SCALE, Config
from .console import Bar
from .imitation import demo_batch, imitation_losses, renamed
from .torch_model import PolicyNet, masked_logits

__all__ = ["peng_claims", "improve_epoch"]


def peng_claims(samples: Any) -> np.ndarray:
    """The demonstrations' decisions that offer a 碰 and no 胡 (``--improve-anchor``'s: the close
    calls of a 胡 against a 碰 should not move them), as row numbers."""
    bits = np.unpackbits(samples["mask"][:, :HU_ID // 8 + 1], axis=1)  # indices 0..HU_ID
    return np.flatnonzero(bits[:, PENG[0].id:PENG[-1].id + 1].any(axis=1) & (bits[:, HU_ID] == 0))


def improve_epoch(cfg: Config, model: PolicyNet, opt: torch.optim.Optimizer, samples: Any,
                  points: Any, rng: np.random.Generator, prog: Progress,
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
    bar = Bar(f"improve epoch {prog.epoch + 1}/{cfg.improve_epochs}", (n + batch - 1) // batch)
    scale = torch.tensor([REWARD_SCALE.get(p, 16.0) for p in cfg.presets])
    m = len(samples["index"])
    total_a = total_bc = 0.0
    count = 0
    for start in range(0, n, batch):
        pick = np.sort(order[start:start + batch])
        seen = renamed(cfg, {"x": demo_mod.unpack_x(points["x"][pick]),
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
            # sure of the worse one, as the policy gradient below does (v37: a 胡 the
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
        if anchors is not None and len(anchors):  # (v38, v39: close calls of 胡 against
            k = int(round(cfg.improve_anchor * len(pick)))  # 碰 move other claims' 碰 too)
            demo[:k] = anchors[rng.integers(0, len(anchors), k)]
        demo = np.sort(demo)
        dbatch = demo_batch(cfg, samples, demo, rng)
        dx = torch.from_numpy(dbatch["x"])
        dlogits, _ = model(dx)
        # what BC imitated (--bc-soft's targets, --distill's teachers: until v55 the
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
