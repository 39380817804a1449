"""One bot's mean a hand pooled over arenas on different seeds (``xueliu arena --json``): it
reproduces the shipped bot's 血流 figure of docs/strength.md, +0.11 [+0.06, +0.17] a hand over
the expert pooled over seven seeds' arenas::

    python tools/pool_arenas.py a110.json a111.json a112.json a113.json a114.json a115.json \
        a2026.json --bot neural

Each file is one seed's arena; ``PATH=BOT`` reads the line of ``BOT`` there instead of
``--bot``'s (the same bot under another name). Walls of different seeds are independent, so
the pooled mean is the mean of the seeds' means (each has as many walls) and its variance the
sum of theirs over the count squared. Every seed's interval is its standard error times the
same Student quantile (:mod:`xueliu.arena.stats`: equal walls, equal degrees of freedom), so
the pooled half-width is the seeds' half-widths added in quadrature over their count — at that
quantile, not the pooled walls' smaller one: a little wider than it need be, never narrower.
"""

from __future__ import annotations

import argparse
import json
import math


def seed_line(path: str, default_bot: str) -> tuple[int, int, float, float]:
    """(seed, walls, mean, 95 % half-width) of one bot in one arena file."""
    path, _, bot = path.partition("=")
    with open(path) as f:
        arena = json.load(f)
    lines = [b for b in arena["bots"] if b["bot"] == (bot or default_bot)]
    if not lines:
        raise SystemExit(f"{path}: no bot {bot or default_bot!r} "
                         f"(it has {[b['bot'] for b in arena['bots']]})")
    if lines[0]["ci95"] is None:
        raise SystemExit(f"{path}: one wall has no interval to pool")
    low, high = lines[0]["ci95"]
    return arena["seed"], lines[0]["walls"], lines[0]["mean"], (high - low) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("arenas", nargs="+", help="arena JSON files, PATH or PATH=BOT")
    parser.add_argument("--bot", default="neural", help="the bot's name in the files")
    args = parser.parse_args()
    lines = [seed_line(p, args.bot) for p in args.arenas]
    seeds = [s for s, *_ in lines]
    if len(set(seeds)) != len(seeds):
        raise SystemExit(f"a seed appears twice: {seeds} (its walls would count twice)")
    if len({w for _, w, _, _ in lines}) != 1:
        raise SystemExit("the arenas have different numbers of walls; pool equal ones")
    for seed, walls, mean, half in lines:
        print(f"seed {seed:>6}  {walls} walls  {mean:+.3f}  [{mean - half:+.3f}, {mean + half:+.3f}]")
    n = len(lines)
    mean = sum(m for _, _, m, _ in lines) / n
    half = math.hypot(*(h for *_, h in lines)) / n
    print(f"pooled {n} seeds  {mean:+.3f}  [{mean - half:+.3f}, {mean + half:+.3f}]")


if __name__ == "__main__":
    main()
