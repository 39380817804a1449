"""One rating scale for the arena's bots: a Bradley–Terry model fitted to duplicate wall results,
shown as Elo points.

A *comparison* is one wall of one match "bot A in one seat against three copies of bot B": A
wins it when its score summed over the wall's four seatings is above 0 (the three B seats then
lost as much together), loses it below 0, and a total of exactly 0 is a draw, half a win each.
Bradley–Terry gives each bot a strength p with P(A beats B) = p_A / (p_A + p_B); the fit is the
maximum-likelihood one, by the MM iteration of Hunter (2004, "MM algorithms for generalized
Bradley–Terry models"):

    p_i ← W_i / Σ_j n_ij / (p_i + p_j)

(W_i: i's wins, draws as halves; n_ij: comparisons of i and j), rescaled to a geometric mean of 1
after each step, until no log-strength moves by more than 1e-12. Every pair that met also gets
one virtual draw (``prior_draws``), so a bot that won every wall still has a finite rating; at
the arena's thousands of walls it moves a rating by under a point, unless a bot won or lost
nearly every wall.

The Elo figure is 400·log10(p / p_anchor): 0 is the anchor bot, +100 means winning a wall against
it 64 % of the time. Win/loss of a wall, not its score, feeds the fit on purpose: mahjong scores
are heavy-tailed (one 清一色 outweighs many small hands), the mean per hand already reports them,
and the rating says how *often* a bot comes out ahead.
"""

from __future__ import annotations

import math
from typing import Dict, List, Mapping, Sequence, Tuple

__all__ = ["fit_bradley_terry", "elo", "PRIOR_DRAWS"]

PRIOR_DRAWS = 1.0
"""Virtual draws given to every pair that met (keeps a bot that won every wall finite)."""

Pair = Tuple[int, int]


def fit_bradley_terry(players: int, wins: Mapping[Pair, float], *, prior_draws: float = PRIOR_DRAWS,
                      tol: float = 1e-12, max_iter: int = 100_000) -> List[float]:
    """Bradley–Terry log-strengths (natural log, mean 0) of ``players`` players from ``wins``:
    ``wins[(i, j)]`` is how often i beat j (draws counted as half a win for each). Each pair with
    any comparison gets ``prior_draws`` virtual draws. Raises ``ValueError`` if the players who
    met do not form one connected group (their ratings would not be on one scale)."""
    if players < 1:
        raise ValueError(f"a rating needs at least one player, got {players}")
    n: Dict[Pair, float] = {}
    w = [0.0] * players
    for (i, j), x in sorted(wins.items()):
        if not (0 <= i < players and 0 <= j < players) or i == j:
            raise ValueError(f"bad comparison pair {(i, j)} for {players} players")
        if x < 0:
            raise ValueError(f"a negative win count {x} for {(i, j)}")
        key = (min(i, j), max(i, j))
        n[key] = n.get(key, 0.0) + x
        w[i] += x
    for key in list(n):
        if n[key] == 0 and prior_draws == 0:
            del n[key]
            continue
        n[key] += prior_draws
        w[key[0]] += prior_draws / 2
        w[key[1]] += prior_draws / 2
    _check_connected(players, n)
    neighbours: List[List[Tuple[int, float]]] = [[] for _ in range(players)]
    for (i, j), count in sorted(n.items()):
        neighbours[i].append((j, count))
        neighbours[j].append((i, count))
    for i in range(players):
        if players > 1 and w[i] <= 0:
            raise ValueError(f"player {i} never won nor drew a comparison: its strength is 0 "
                             "(give prior_draws > 0)")
    p = [1.0] * players
    for _ in range(max_iter):
        new = []
        for i in range(players):
            denom = math.fsum(count / (p[i] + p[j]) for j, count in neighbours[i])
            new.append(w[i] / denom if denom > 0 else 1.0)
        scale = math.exp(math.fsum(math.log(x) for x in new) / players)
        new = [x / scale for x in new]
        moved = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, p))
        p = new
        if moved < tol:
            break
    return [math.log(x) for x in p]


def elo(log_strengths: Sequence[float], anchor: int) -> List[float]:
    """Elo points (400·log10 of the strength ratio) relative to player ``anchor``."""
    base = log_strengths[anchor]
    return [400.0 * (s - base) / math.log(10.0) for s in log_strengths]


def _check_connected(players: int, n: Mapping[Pair, float]) -> None:
    if players < 2:
        return
    linked: List[List[int]] = [[] for _ in range(players)]
    for i, j in n:
        linked[i].append(j)
        linked[j].append(i)
    seen = {0}
    todo = [0]
    while todo:
        for j in linked[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) != players:
        missing = sorted(set(range(players)) - seen)
        raise ValueError(f"players {missing} never met the others: no common rating scale")
