"""The learning curve: mean per hand against three greedy bots and against three experts, by
training step, from a run's ``curve.jsonl`` (one line per evaluation), drawn with matplotlib."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

__all__ = ["read_curve", "plot_curve"]

_STAGE_NAMES = {"bc": "BC", "improve": "improvement", "ppo": "PPO"}


def _stage_names(stages: List[Tuple[int, str]]) -> List[str]:
    """The stages a curve went through, in order, by name (a fine-tune may skip BC or PPO)."""
    return list(dict.fromkeys(_STAGE_NAMES.get(stage, stage) for _, stage in stages))


def read_curve(path: str) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def plot_curve(curve_path: str, png_path: str, title: str = "NeuralBot learning curve") -> None:
    """Writes ``png_path``: one panel per preset, one line (with its 95 % band) per opponent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_curve(curve_path)
    presets = sorted({r["preset"] for r in rows})
    fig, axes = plt.subplots(1, max(1, len(presets)), figsize=(5.5 * max(1, len(presets)), 4),
                             squeeze=False)
    for ax, preset in zip(axes[0], presets):
        by_opponent: Dict[str, List[Tuple[int, float, float, float]]] = {}
        for r in rows:
            if r["preset"] == preset:
                by_opponent.setdefault(r["opponent"], []).append(
                    (r["step"], r["mean"], r["low"], r["high"]))
        for opponent, pts in sorted(by_opponent.items()):
            pts.sort()
            xs = [p[0] for p in pts]
            ax.plot(xs, [p[1] for p in pts], marker="o", label=f"vs 3 {opponent}")
            ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], alpha=0.2)
        stages = sorted({(r["step"], r["stage"]) for r in rows if r["preset"] == preset})
        for (step, stage), nxt in zip(stages, stages[1:]):
            if nxt[1] != stage:
                ax.axvline(nxt[0], color="grey", linestyle=":", linewidth=1)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_title(f"{preset}")
        ax.set_xlabel(f"training step ({', then '.join(_stage_names(stages))})")
        ax.set_ylabel("mean net per hand (duplicate)")
        ax.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)
