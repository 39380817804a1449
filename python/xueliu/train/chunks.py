"""The run directory's data, in chunks made when missing (``--workers`` processes; a resumed run
makes only what is missing): the demonstrations (``demos/chunk_*.npz``, of :mod:`.demos`:
the teacher's hands, then each DAgger round's) and the improvement stage's branch points or close
calls (``branches/chunk_*.npz``, of :mod:`.branches` or :mod:`.close_calls`). numpy only.
"""

from __future__ import annotations

import os
from typing import Dict, Tuple

import numpy as np

from ..bots.neural_net import load_network
from . import branches as branch_mod
from . import close_calls
from . import demos as demo_mod
from .config import Config
from .console import Bar

__all__ = ["make_demos", "make_branches"]


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
    bar = Bar(f"demonstrations ({cfg.teacher}, {cfg.chunk} hands a chunk)", len(chunks))
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
    """The network that plays the branch hands: ``--improve-actor`` (``bc``: BC's result)."""
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
    bar = Bar(f"branch points ({cfg.chunk} hands a chunk)", chunks)
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
