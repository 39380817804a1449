"""The arena's statistics: a mean per hand with its 95 % interval clustered by wall.

A bot's hands are not independent: the four seatings of one wall share every tile, so their
scores move together. The unit of independence is the wall (a *cluster*): with G clusters,
cluster g holding n_g hands whose scores sum to y_g,

    mean  μ = Σ y_g / Σ n_g
    var   V = G / (G − 1) · Σ (y_g − μ·n_g)² / (Σ n_g)²        (cluster-robust, ratio estimator)
    95 %  μ ± t(0.975, G − 1) · √V

With equal clusters (every wall played in its four seatings) V is the plain variance of the wall
means over G, so the interval is the t interval of the per-wall means. With one cluster there is
no interval (``None``). Student's quantile comes from the regularized incomplete beta function
(Numerical Recipes' continued fraction), not from SciPy: the default install has none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

__all__ = ["ClusteredMean", "clustered_mean", "t_quantile", "t_cdf"]


@dataclass(frozen=True)
class ClusteredMean:
    """A mean per hand over clusters of hands, and its 95 % interval (``None`` below 2 clusters)."""

    mean: float
    interval: Optional[Tuple[float, float]]
    clusters: int
    hands: int

    @property
    def half_width(self) -> Optional[float]:
        if self.interval is None:
            return None
        return (self.interval[1] - self.interval[0]) / 2


def clustered_mean(totals: Sequence[int], sizes: Sequence[int],
                   level: float = 0.95) -> ClusteredMean:
    """The mean per hand of clusters with score sums ``totals`` and hand counts ``sizes`` (module
    docstring: the formulas). Sums of ints first, so the result does not depend on the order in
    which the hands were played."""
    if len(totals) != len(sizes):
        raise ValueError(f"{len(totals)} cluster totals but {len(sizes)} cluster sizes")
    if not totals:
        raise ValueError("no clusters: nothing was played")
    if any(n < 1 for n in sizes):
        raise ValueError("every cluster needs at least one hand")
    g = len(totals)
    hands = sum(sizes)
    mean = sum(totals) / hands
    if g < 2:
        return ClusteredMean(mean, None, g, hands)
    # Σ (y_g − μ n_g)² as (Σ y² − 2μ Σ y n + μ² Σ n²) would cancel badly; the direct form is exact
    # enough and its order is fixed.
    ss = math.fsum((y - mean * n) ** 2 for y, n in zip(totals, sizes))
    var = g / (g - 1) * ss / hands ** 2
    half = t_quantile(0.5 + level / 2, g - 1) * math.sqrt(var)
    return ClusteredMean(mean, (mean - half, mean + half), g, hands)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
          + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(ln)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (bisection on
    :func:`t_cdf`, to 1e-12)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, got {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2
