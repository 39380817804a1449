"""The expert bot's hand analysis: 进张, waits with their fan, and the value of each discard.

The core is called directly (``xueliu._core``) on count vectors, as GreedyBot does: one batch
shanten call gives every discard's 进张, ``best_discards`` gives the ready discards with the fan of
each wait. What depends only on the hand (waits and their fan) is cached across decisions and
games; what depends on the table (remaining copies, draws left) is applied afterwards.

Besides the plain plan (the hand's exact shanten, RULES §5), a hand holding many tiles of one suit
is also valued as a 清一色 plan: the same shanten with every tile of the other suits counted as a
tile to replace (they are moved to a suit declared void for the call), valued at the one-suit fan.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from .expert_value import Context, draws_when_ready, wait_pays

__all__ = ["Planner", "jinzhang", "ready_discards", "ready_waits"]

Melds = Tuple[Tuple[int, int], ...]
Wait = Tuple[int, float, float]  # (kind, discard-win multiplier, self-draw multiplier)

LOOKAHEAD = 0
"""How many one-from-ready discards are valued by drawing each of their 进张 (the rest by the
typical ready hand)."""
FLUSH_MIN = 8
"""Tiles of one suit (melds included) from which a 清一色 plan is valued too."""

_CACHE_LIMIT = 200_000
_READY: Dict[Tuple[bytes, Melds, int, int], List[Tuple[int, Tuple[Wait, ...]]]] = {}
_WAITS: Dict[Tuple[bytes, Melds, int, int], Tuple[Wait, ...]] = {}
_SCORING_KEEP: Dict[int, Any] = {}  # keeps each ScoringRules alive while its id keys the caches


def _sid(scoring: Any) -> int:
    i = id(scoring)
    if i not in _SCORING_KEEP:
        _SCORING_KEEP[i] = scoring
    return i


def ready_discards(counts: bytes, melds: Melds, void: int, scoring: Any
                   ) -> List[Tuple[int, Tuple[Wait, ...]]]:
    """The discards of a 14 − 3k tile hand that leave it ready, each with its waits
    ``(kind, discard-win multiplier, self-draw multiplier)`` (cached: a function of the hand)."""
    key = (counts, melds, void, _sid(scoring))
    got = _READY.get(key)
    if got is None:
        if len(_READY) >= _CACHE_LIMIT:
            _READY.clear()
        got = []
        try:
            options = _core.best_discards(_core.Hand(counts, list(melds)), None, void, scoring)
        except ValueError:
            options = []
        for d, sh, _total, waits in options:
            if sh == 0:
                got.append((d, tuple((w, float(dw[1]), float(sd[1])) for w, _r, dw, sd in waits)))
        _READY[key] = got
    return got


def ready_waits(counts: bytes, melds: Melds, void: int, scoring: Any) -> Tuple[Wait, ...]:
    """Waits of a 13 − 3k tile hand with the fan of each (cached; empty when not ready)."""
    key = (counts, melds, void, _sid(scoring))
    got = _WAITS.get(key)
    if got is None:
        if len(_WAITS) >= _CACHE_LIMIT:
            _WAITS.clear()
        out: List[Wait] = []
        ml = list(melds)
        try:
            mask = _core.waits(_core.Hand(counts, ml), void, scoring.seven_pairs)
        except ValueError:
            mask = 0
        k = 0
        while mask:
            if mask & 1:
                c = bytearray(counts)
                c[k] += 1
                h = _core.Hand(bytes(c), ml)
                dw = _core.evaluate(h, void, scoring, k, 0)
                sd = _core.evaluate(h, void, scoring, k, _core.SELF_DRAW)
                out.append((k, float(dw[1]), float(sd[1])))
            mask >>= 1
            k += 1
        got = _WAITS[key] = tuple(out)
    return got


def _batch_jin(rows: np.ndarray, melds: Melds, void: int, remaining: Sequence[int],
               seven_pairs: bool, allowed_suit: int = -1
               ) -> Tuple[List[int], List[List[Tuple[int, int]]]]:
    """For each row (a hand of 13 − 3k tiles): its shanten and its 进张 ``[(kind, remaining)]``."""
    kinds = [t for t in range(27) if remaining[t] > 0 and t // 9 != void
             and (allowed_suit < 0 or t // 9 == allowed_suit)]
    n, nt = rows.shape[0], len(kinds)
    grid = np.repeat(rows[:, None, :], nt + 1, axis=1)
    if nt:
        grid[:, np.arange(1, nt + 1), np.asarray(kinds, np.intp)] += 1
    flat = grid.reshape(-1, 27)
    meld_arr = None
    if melds:
        codes = [27 * a + b for a, b in melds] + [-1] * (4 - len(melds))
        meld_arr = np.broadcast_to(np.asarray(codes, np.int16), (flat.shape[0], 4)).copy()
    void_arr = None if void < 0 else np.full(flat.shape[0], void, np.int8)
    sh = _core.batch_shanten(flat, meld_arr, void_arr, seven_pairs, 1).reshape(n, nt + 1)
    better = (sh[:, 1:] < sh[:, :1]).tolist()
    return sh[:, 0].tolist(), [[(t, remaining[t]) for t, b in zip(kinds, row) if b]
                               for row in better]


def jinzhang(counts: Sequence[int], melds: Melds, void: int, remaining: Sequence[int],
             discards: Sequence[int], seven_pairs: bool
             ) -> Tuple[List[int], List[List[Tuple[int, int]]]]:
    """进张 of each discard of a 14 − 3k tile hand: ``(shanten after each discard, [(tile,
    remaining), ...] per discard)``, every kind whose draw lowers that shanten, remaining from
    this seat's view (kinds with no unseen copy left out). One batch shanten call; when the core's
    ``DiscardOption.jinzhang`` is available this is the one function to replace with it."""
    base = np.frombuffer(bytes(counts), np.uint8)
    rows = np.repeat(base[None, :], len(discards), axis=0)
    rows[np.arange(len(discards)), np.asarray(discards, np.intp)] -= 1
    return _batch_jin(rows, melds, void, remaining, seven_pairs)


class Planner:
    """Values the hands of one decision (a :class:`Context` plus the rules' scoring)."""

    def __init__(self, ctx: Context, scoring: Any) -> None:
        self.ctx = ctx
        self.scoring = scoring
        self.sp = bool(scoring.seven_pairs)
        self.remaining = ctx.view.remaining

    # -- one hand ---------------------------------------------------------------------------------

    def fan_estimate(self, counts: Sequence[int], melds: Melds, void: int, shanten: int
                     ) -> Tuple[int, float, List[int]]:
        """(expected fan, waits scale, suits) of a hand that is not ready yet: 清一色 when its
        tiles (void aside) and melds are of one suit, a 根 per kind held four times, 七对 (few
        waits) when pairs are as close as the plain shape."""
        suits = {k // 9 for k in range(27) if counts[k] and k // 9 != void}
        totals = list(counts)
        for typ, k in melds:
            suits.add(k // 9)
            totals[k] += 3 if typ == 0 else 4
        one_suit = len(suits) == 1
        fan = 3 if one_suit else 1
        fan += sum(1 for x in totals if x == 4)
        scale = 1.0
        if self.sp and not melds:
            pairs = sum(1 for k in range(27) if counts[k] >= 2 and k // 9 != void)
            if pairs >= 4 and 6 - pairs <= shanten:
                fan = max(fan, 3)
                scale = 0.5
        return fan, scale, sorted(suits)[:2]

    def value_not_ready(self, counts: Sequence[int], melds: Melds, void: int, shanten: int,
                        jin: Sequence[Tuple[int, int]], look: bool) -> float:
        """Value of a 13 − 3k tile hand at ``shanten`` ≥ 1 with these 进张."""
        ctx = self.ctx
        total = sum(r for _, r in jin)
        p = ctx.step_chance(jin)
        fan, scale, suits = self.fan_estimate(counts, melds, void, shanten)
        draws, ready_by = draws_when_ready(shanten, p, ctx.draws)
        if ready_by <= 0.0:
            return 0.0
        if look and shanten == 1 and total:
            base = bytes(counts)
            acc = 0.0
            rem = self.remaining
            for t, r in jin:
                c = bytearray(base)
                c[t] += 1
                best = 0.0
                for _d, waits in ready_discards(bytes(c), melds, void, self.scoring):
                    v = ctx.ready_value(wait_pays(waits, rem, t), draws, ready_by)
                    if v > best:
                        best = v
                acc += r * best
            return acc / total
        return ctx.typical_value(fan, draws, suits, scale, ready_by)

    def hand_value(self, counts: Sequence[int], melds: Melds, void: int,
                   extra_draws: float = 0.0) -> float:
        """Value of a 13 − 3k tile hand as it stands (a claim's pass option; after a kong, with
        the replacement tile as ``extra_draws``)."""
        if extra_draws:
            ctx = self.ctx
            ctx.draws += extra_draws
            try:
                return self.hand_value(counts, melds, void)
            finally:
                ctx.draws -= extra_draws
        b = bytes(counts)
        waits = ready_waits(b, melds, void, self.scoring)
        if waits:
            return self.ctx.ready_value(wait_pays(waits, self.remaining), self.ctx.draws)
        rows = np.frombuffer(b, np.uint8)[None, :].copy()
        try:
            sh, jin = _batch_jin(rows, melds, void, self.remaining, self.sp)
        except ValueError:
            return 0.0
        if sh[0] <= 0:  # ready but every wait held four times by this seat: nothing to win
            return 0.0
        value = self.value_not_ready(counts, melds, void, sh[0], jin[0], True)
        return max(value, self._flush_values(counts, melds, void, None).get(-1, 0.0))

    # -- a discard ---------------------------------------------------------------------------------

    def discard_values(self, counts: Sequence[int], melds: Melds, void: int,
                       discards: Sequence[int]) -> Tuple[Dict[int, float], Dict[int, int]]:
        """(value, shanten) after each of ``discards`` from a 14 − 3k tile hand."""
        ctx = self.ctx
        rem = self.remaining
        b = bytes(counts)
        values: Dict[int, float] = {}
        shanten: Dict[int, int] = {}
        for d, waits in ready_discards(b, melds, void, self.scoring):
            if d in discards:
                values[d] = ctx.ready_value(wait_pays(waits, rem), ctx.draws)
                shanten[d] = 0
        rest = [d for d in discards if d not in values]
        if rest:
            try:
                sh, jin = jinzhang(counts, melds, void, rem, rest, self.sp)
            except ValueError:  # melds that break the void or 缺一门: nothing can be won
                sh, jin = [9] * len(rest), [[] for _ in rest]
            order = sorted(range(len(rest)),
                           key=lambda i: (sh[i], -sum(r for _, r in jin[i]), rest[i]))
            looked = 0
            for i in order:
                d = rest[i]
                after = list(counts)
                after[d] -= 1
                s = max(sh[i], 1)
                shanten[d] = sh[i]
                look = s == 1 and looked < LOOKAHEAD
                looked += look
                values[d] = self.value_not_ready(after, melds, void, s, jin[i], look)
        flush = self._flush_values(counts, melds, void, discards)
        if flush:
            for d in discards:
                f = flush.get(d, 0.0)
                if f > values[d]:
                    values[d] = f
        return values, shanten

    def _flush_values(self, counts: Sequence[int], melds: Melds, void: int,
                      discards: Optional[Sequence[int]]) -> Dict[int, float]:
        """Values of the 清一色 plan (see the module docstring) per discard, or of the hand as
        it stands under key -1 when ``discards`` is None; empty when no suit qualifies."""
        per_suit = [sum(counts[9 * u:9 * u + 9]) for u in range(3)]
        for typ, k in melds:
            per_suit[k // 9] += 3
        x = max(range(3), key=lambda u: per_suit[u])
        if per_suit[x] < FLUSH_MIN or x == void or any(k // 9 != x for _, k in melds):
            return {}
        useless = sum(counts) - sum(counts[9 * x:9 * x + 9])
        if useless == 0:
            return {}  # already one suit: the plain plan values it with the one-suit fan
        y = void if void >= 0 else (x + 1) % 3
        base = [0] * 27
        base[9 * x:9 * x + 9] = counts[9 * x:9 * x + 9]
        left = useless
        for k in range(9 * y, 9 * y + 9):
            base[k] = min(4, left)
            left -= base[k]
        labels: List[int] = []
        rows: List[List[int]] = []
        if discards is None:
            labels.append(-1)
            rows.append(base)
        else:
            for d in sorted(set(discards)):
                if d // 9 == x:
                    r = list(base)
                    r[d] -= 1
                    labels.append(d)
                    rows.append(r)
            r = list(base)
            r[next(k for k in range(9 * y, 9 * y + 9) if r[k])] -= 1
            labels.append(-2)  # any tile of another suit
            rows.append(r)
        try:
            sh, jin = _batch_jin(np.asarray(rows, np.uint8), melds, y, self.remaining, self.sp,
                                 allowed_suit=x)
        except ValueError:
            return {}
        ctx = self.ctx
        gens = 0
        totals = list(counts)
        for typ, k in melds:
            totals[k] += 3 if typ == 0 else 4
        gens = sum(1 for k in range(9 * x, 9 * x + 9) if totals[k] == 4)
        out: Dict[int, float] = {}
        for label, s, j in zip(labels, sh, jin):
            p = ctx.step_chance(j)
            draws, ready_by = draws_when_ready(max(1, s), p, ctx.draws)
            out[label] = ctx.typical_value(3 + gens, draws, (x,), 1.0, ready_by)
        if discards is not None:
            other = out.pop(-2)
            for d in discards:
                if d // 9 != x:
                    out[d] = other
        return out
