"""The expert bot's hand analysis: 进张, waits with their fan, and the value of each discard.

The core is called directly (``xueliu._core``) on count vectors, as GreedyBot does: one batch
shanten call gives every discard's 进张, ``best_discards`` gives the ready discards with the fan of
each wait. What depends only on the hand (waits and their fan) is cached across decisions and
games; what depends on the table (remaining copies, draws left) is applied afterwards.

Besides the plain plan (the hand's exact shanten, docs/rules.md §5), a hand holding many tiles of one suit
is also valued as a 清一色 plan: the same shanten with every tile of the other suits counted as a
tile to replace (they are moved to a suit declared void for the call), valued at the one-suit fan.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, cast

import numpy as np

from .. import _core
from .expert_value import CLAIM_BONUS, TYPICAL_STEP, Context, draws_when_ready, wait_pays

__all__ = ["Planner", "jinzhang", "ready_discards", "ready_waits"]

Melds = Tuple[Tuple[int, int], ...]
Wait = Tuple[int, float, float]  # (kind, discard-win multiplier, self-draw multiplier)

LOOKAHEAD = 12
"""When a hand could stay ready, how many one-from-ready discards that look better are checked
(best first) by drawing each of their 进张 (:meth:`Planner._look_ahead`)."""
BIG_HAND = 4.0
"""Discard-win multiplier from which a ready hand counts as big (清一色 and up)."""
SPAN = 0
"""Discards up to this many steps behind the best are valued as plain hands; the rest only by
their 清一色 plan (else 0). 0 played better than 1 in the arena (docs/expert-bot.md)."""
FLUSH_MIN = 9
"""Tiles of one suit (melds included) from which a 清一色 plan is valued too."""

_CACHE_LIMIT = 200_000
_READY: Dict[Tuple[bytes, Melds, int, int],
             Tuple[List[Tuple[int, Tuple[Wait, ...]]], Dict[int, int]]] = {}
_WAITS: Dict[Tuple[bytes, Melds, int, int], Tuple[Wait, ...]] = {}
_SCORING_KEEP: Dict[int, Any] = {}  # keeps each ScoringRules alive while its id keys the caches


def _sid(scoring: Any) -> int:
    i = id(scoring)
    if i not in _SCORING_KEEP:
        _SCORING_KEEP[i] = scoring
    return i


def analyse(counts: bytes, melds: Melds, void: int, scoring: Any
            ) -> Tuple[List[Tuple[int, Tuple[Wait, ...]]], Dict[int, int]]:
    """查听 of a 14 − 3k tile hand (cached: a function of the hand): the discards that leave it
    ready, each with its waits ``(kind, discard-win multiplier, self-draw multiplier)``, and
    the shanten after every discard."""
    key = (counts, melds, void, _sid(scoring))
    got = _READY.get(key)
    if got is None:
        if len(_READY) >= _CACHE_LIMIT:
            _READY.clear()
        ready = []
        shanten = {}
        try:
            options = _core.best_discards(_core.Hand(counts, list(melds)), None, void, scoring)
        except ValueError:
            options = []
        for d, sh, _total, waits in options:
            shanten[d] = sh
            if sh == 0:
                ready.append((d, tuple((w, float(dw[1]), float(sd[1])) for w, _r, dw, sd in waits)))
        got = _READY[key] = (ready, shanten)
    return got


def ready_discards(counts: bytes, melds: Melds, void: int, scoring: Any
                   ) -> List[Tuple[int, Tuple[Wait, ...]]]:
    """The discards of a 14 − 3k tile hand that leave it ready, with their waits (:func:`analyse`)."""
    return analyse(counts, melds, void, scoring)[0]


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
            mask = _core.waits(_core.Hand(counts, ml), void, shape_code(scoring))
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


def shape_code(scoring: Any) -> int:
    """The core's shape code of a ScoringRules: its table shape with its seven_pairs bit (1, i.e.
    True, at the default table)."""
    return (int(scoring.shape) & ~1) | int(bool(scoring.seven_pairs))


def jinzhang(counts: Sequence[int], melds: Melds, void: int, remaining: Sequence[int],
             discards: Sequence[int], seven_pairs: int
             ) -> Tuple[List[int], List[List[Tuple[int, int]]]]:
    """进张 of each discard of a 14 − 3k tile hand: ``(shanten after each discard, [(tile,
    remaining), ...] per discard)``, every kind whose draw lowers that shanten, remaining from
    this seat's view (kinds with no unseen copy left out). One batch shanten call; when the core's
    ``DiscardOption.jinzhang`` is available this is the one function to replace with it (the
    planner below computes the same in its own batch, with the 清一色 rows)."""
    base = np.frombuffer(bytes(counts), np.uint8)
    rows = np.repeat(base[None, :], len(discards), axis=0)
    rows[np.arange(len(discards)), np.asarray(discards, np.intp)] -= 1
    kinds = [t for t in range(27) if remaining[t] > 0]
    sh, better = _improving(rows, np.full(len(discards), void, np.int8), [melds] * len(discards),
                            kinds, seven_pairs)
    return sh.tolist(), [[(kinds[j], remaining[kinds[j]]) for j in np.flatnonzero(row)]
                         for row in better]


def _meld_codes(melds: Melds) -> List[int]:
    return [27 * a + b for a, b in melds] + [-1] * (4 - len(melds))


def _improving(rows: np.ndarray, voids: np.ndarray, melds: Sequence[Melds], kinds: Sequence[int],
               seven_pairs: int) -> Tuple[np.ndarray, np.ndarray]:
    """For rows of 13 − 3k tiles (each with its void and melds): their shanten, and which of
    ``kinds`` lower it when drawn (rows × kinds), in one batch shanten call. This is the bot's
    进张: the core's ``DiscardOption.jinzhang`` can replace it for the plain rows."""
    n, nt = rows.shape[0], len(kinds)
    grid = np.repeat(rows[:, None, :], nt + 1, axis=1)
    if nt:
        grid[:, np.arange(1, nt + 1), np.asarray(kinds, np.intp)] += 1
    flat = grid.reshape(-1, 27)
    meld_arr = None
    if any(melds):
        codes = np.asarray([_meld_codes(m) for m in melds], np.int16)
        meld_arr = np.repeat(codes, nt + 1, axis=0)
    void_arr = np.repeat(voids, nt + 1)
    sh = _core.batch_shanten(flat, meld_arr, void_arr, seven_pairs, 1).reshape(n, nt + 1)
    return sh[:, 0], sh[:, 1:] < sh[:, :1]


_KIND_SUIT = np.arange(27) // 9


class Planner:
    """Values the hands of one decision (a :class:`Context` plus the rules' scoring)."""

    def __init__(self, ctx: Context, scoring: Any) -> None:
        self.ctx = ctx
        self.scoring = scoring
        self.code = shape_code(scoring)  # what the core's shanten calls take
        view = ctx.view
        self._suits = view.suits
        # The pairs family (七对 at 13 tiles, 四对 at 7; none at 10): its pairs, 0 when absent.
        self._pairs = (view.hand_size + 1) // 2 if (view.hand_size + 1) % 2 == 0 else 0
        self.sp = bool(scoring.seven_pairs) and self._pairs > 0
        rem = self.remaining = ctx.view.remaining
        kinds = self._kinds = [t for t in range(27) if rem[t] > 0]
        self._kind_suit = np.asarray([t // 9 for t in kinds], np.int8)
        # Chance per own draw that the next wall tile is this kind (its suit's pool, Context),
        # with the claim bonus: summed over a row's 进张 it is the row's chance of a step.
        self._step_weight = np.asarray([rem[t] / ctx.pool[t // 9] for t in kinds]) * (
            1.0 + CLAIM_BONUS)

    # -- many hands at once -----------------------------------------------------------------------

    def _values(self, rows: np.ndarray, voids: np.ndarray, flush: np.ndarray,
                melds_rows: Sequence[Melds]) -> Tuple[List[int], List[float]]:
        """Shanten and value of rows of 13 − 3k tiles that are not ready. ``voids`` and
        ``melds_rows`` per row; ``flush`` per row: -1 for the plain plan, else the suit of a 清一色
        plan (the row's other tiles are already moved to its void suit, see :meth:`_flush_rows`)."""
        sh_arr, better = _improving(rows, voids, melds_rows, self._kinds, self.code)
        plans = flush.tolist()
        if max(plans) >= 0:  # a one-suit plan only counts tiles of its suit as steps
            plan = flush >= 0
            better &= ~plan[:, None] | (self._kind_suit[None, :] == flush[:, None])
        steps = (better @ self._step_weight).tolist() if self._kinds else [0.0] * len(plans)
        present = cast(List[List[bool]], rows.reshape(-1, 3, 9).any(axis=2).tolist())
        sh = sh_arr.tolist()
        ctx = self.ctx
        draws = ctx.draws
        out = []
        last: Optional[Melds] = None
        meld_suits: Set[int] = set()
        meld_add = [0] * 27
        meld_kinds: List[int] = []
        pairs_possible = self.sp
        need = self._pairs - 1  # the pairs family's shanten is need − pairs (7 pairs: 6 − pairs)
        in_play = self._suits
        for row, v, x, s, p, has, melds in zip(rows.tolist(), voids.tolist(), plans, sh, steps,
                                               present, melds_rows):
            if melds is not last:
                last = melds
                meld_suits = {k // 9 for _, k in melds}
                meld_add = [0] * 27
                for typ, k in melds:
                    meld_add[k] += 3 if typ == 0 else 4
                meld_kinds = [k for _, k in melds]
                pairs_possible = self.sp and not melds
            s = s if s > 1 else 1
            left, ready_by = draws_when_ready(s, p if p < 0.9 else 0.9, draws)
            if ready_by <= 0.0:
                out.append(0.0)
                continue
            # Expected fan: 清一色 when one suit is left (void aside), a 根 per kind held four
            # times, 七对 (few waits) when pairs are as close as the plain shape.
            if x >= 0:
                suits: Tuple[int, ...] = (x,)
            else:
                suits = tuple(u for u in in_play if (has[u] and u != v) or u in meld_suits)
            # (list.count runs in C: the row's fours and pairs, the void suit's taken off)
            vrow = row[9 * v:9 * v + 9] if v >= 0 else []
            gens = row.count(4) - vrow.count(4)
            for k in meld_kinds:
                if row[k] + meld_add[k] == 4:
                    gens += 1
            fan = (3 if len(suits) == 1 else 1) + gens
            scale = 1.0
            if pairs_possible and x < 0:
                pairs = 27 - row.count(0) - row.count(1) - (len(vrow) - vrow.count(0) - vrow.count(1))
                if pairs >= need - 2 and need - pairs <= s:
                    fan = max(fan, 3)
                    scale *= 0.5
            out.append(ctx.typical_value(fan, left, suits, scale, ready_by))
        return sh, out

    def _flush_rows(self, counts: Sequence[int], melds: Melds, void: int,
                    discards: Optional[Sequence[int]]
                    ) -> Tuple[List[int], List[List[int]], int, int]:
        """The rows of the 清一色 plan (module docstring): ``(labels, rows, suit, void used)``
        with one row per discard of that suit and one (label -2) for any other tile, or one row
        (label -1) for the hand as it stands; no rows when no suit qualifies."""
        per_suit = [sum(counts[9 * u:9 * u + 9]) for u in range(3)]  # by suit index
        for _typ, k in melds:
            per_suit[k // 9] += 3
        suits = self._suits
        x = max(suits, key=lambda u: per_suit[u])
        if per_suit[x] < FLUSH_MIN or x == void or any(k // 9 != x for _, k in melds):
            return [], [], x, -1
        useless = sum(counts) - sum(counts[9 * x:9 * x + 9])
        if useless == 0:
            return [], [], x, -1  # already one suit: the plain plan values it as one
        # The suit the other tiles are parked in: the void, else the next suit in play after x.
        y = void if void >= 0 else next(u for u in ((x + 1) % 3, (x + 2) % 3) if u in suits)
        base = [0] * 27
        base[9 * x:9 * x + 9] = counts[9 * x:9 * x + 9]
        left = useless  # at most 3 a kind, so a drawn tile of that kind still fits
        for k in range(9 * y, 9 * y + 9):
            base[k] = min(3, left)
            left -= base[k]
        if discards is None:
            return [-1], [base], x, y
        labels: List[int] = []
        rows: List[List[int]] = []
        for d in sorted(set(discards)):
            if d // 9 == x:
                r = list(base)
                r[d] -= 1
                labels.append(d)
                rows.append(r)
        r = list(base)
        r[next(k for k in range(9 * y, 9 * y + 9) if r[k])] -= 1
        labels.append(-2)
        rows.append(r)
        return labels, rows, x, y

    # -- one hand ---------------------------------------------------------------------------------

    def hand_value(self, counts: Sequence[int], melds: Melds, void: int,
                   extra_draws: float = 0.0) -> float:
        """Value of a 13 − 3k tile hand as it stands (a claim's pass option; after a kong, with
        the replacement tile as ``extra_draws``)."""
        ctx = self.ctx
        ctx.draws += extra_draws
        try:
            b = bytes(counts)
            waits = ready_waits(b, melds, void, self.scoring)
            if waits:
                return ctx.ready_value(wait_pays(waits, self.remaining), ctx.draws)
            labels, frows, x, y = self._flush_rows(counts, melds, void, None)
            rows = np.asarray([list(counts)] + frows, np.uint8)
            voids = np.asarray([void] + [y] * len(frows), np.int8)
            flush = np.asarray([-1] + [x] * len(frows), np.int8)
            try:
                sh, values = self._values(rows, voids, flush, [melds] * len(rows))
            except ValueError:  # melds that break the void or 缺一门: nothing can be won
                return 0.0
            if sh[0] <= 0:  # ready, but every wait is held four times by this seat
                values[0] = 0.0
            return max(values)
        finally:
            ctx.draws -= extra_draws

    def ready_chance(self, counts: Sequence[int], melds: Melds, void: int) -> float:
        """Chance that a 13 − 3k tile hand is ready by the wall's end (1 when it is now), at the
        typical pace of each step."""
        try:
            s = _core.shanten(_core.Hand(bytes(counts), list(melds)), void, self.code)
        except ValueError:
            return 0.0
        if s <= 0:
            return 1.0
        p = TYPICAL_STEP[min(s, len(TYPICAL_STEP) - 1)] * (1.0 + CLAIM_BONUS)
        return draws_when_ready(s, p, self.ctx.draws)[1]

    # -- a discard ---------------------------------------------------------------------------------

    def discard_values(self, counts: Sequence[int], melds: Melds, void: int,
                       discards: Sequence[int], skipped: Optional[Set[int]] = None
                       ) -> Tuple[Dict[int, float], Dict[int, int]]:
        """(value, shanten) after each of ``discards`` (distinct kinds) from a 14 − 3k tile
        hand: the best of the plain and the 清一色 plan. A discard neither plan values (more than
        ``SPAN`` steps behind the best, no 清一色 plan) stands at 0.0; ``skipped``, when given,
        receives those discards."""
        prep = _DiscardRows(self, counts, melds, void, discards)
        if not prep.rows:
            if skipped is not None:
                skipped.update(prep.skipped)
            return prep.values, prep.shanten
        try:
            sh, vals = self._values(np.asarray(prep.rows, np.uint8), np.asarray(prep.voids, np.int8),
                                    np.asarray(prep.flush, np.int8), [melds] * len(prep.rows))
        except ValueError:  # melds that break the void or 缺一门: nothing can be won
            n = len(prep.rows)
            sh, vals = [9] * n, [0.0] * n
        out = prep.finish(sh, vals)
        if skipped is not None:
            skipped.update(prep.skipped)
        return out

    def claim_values(self, counts: Sequence[int], melds: Melds, void: int, peng: int
                     ) -> Tuple[float, Dict[int, float]]:
        """A peng offered on kind ``peng``: (value of passing, value after the peng and each
        discard), the rows of both valued in one batch."""
        ctx = self.ctx
        b = bytes(counts)
        after = list(counts)
        after[peng] -= 2
        new_melds = melds + ((0, peng),)
        prep = _DiscardRows(self, after, new_melds, void, [k for k in range(27) if after[k]])
        rows = list(prep.rows)
        voids = list(prep.voids)
        flush = list(prep.flush)
        melds_rows = [new_melds] * len(rows)
        waits = ready_waits(b, melds, void, self.scoring)
        pass_value = None
        if waits:
            pass_value = ctx.ready_value(wait_pays(waits, self.remaining), ctx.draws)
            pass_rows = 0
        else:
            _labels, frows, x, y = self._flush_rows(counts, melds, void, None)
            rows += [list(counts)] + frows
            voids += [void] + [y] * len(frows)
            flush += [-1] + [x] * len(frows)
            pass_rows = 1 + len(frows)
            melds_rows += [melds] * pass_rows
        if not rows:
            values, _ = prep.finish([], [])
            return pass_value or 0.0, values
        try:
            sh, vals = self._values(np.asarray(rows, np.uint8), np.asarray(voids, np.int8),
                                    np.asarray(flush, np.int8), melds_rows)
        except ValueError:  # melds that break the void or 缺一门
            n = len(rows)
            sh, vals = [9] * n, [0.0] * n
        m = len(prep.rows)
        values, _ = prep.finish(sh[:m], vals[:m])
        if pass_value is None:
            tail = vals[m:]
            if sh[m] <= 0:  # ready, but every wait is held four times by this seat
                tail[0] = 0.0
            pass_value = max(tail)
        return pass_value, values

    def _look_ahead(self, counts: bytes, melds: Melds, void: int) -> float:
        """Exact value of a hand one step from ready: each unseen kind drawn in turn; those after
        which a discard leaves it ready are its 进张, valued by the best such discard's own waits
        and weighted by their unseen copies."""
        ctx = self.ctx
        rem = self.remaining
        found = []
        for t in self._kinds:
            if t // 9 == void:
                continue
            c = bytearray(counts)
            c[t] += 1
            options = ready_discards(bytes(c), melds, void, self.scoring)
            if options:
                found.append((t, options))
        total = sum(rem[t] for t, _ in found)
        if not total:
            return 0.0
        p = sum(rem[t] / ctx.pool[t // 9] for t, _ in found) * (1.0 + CLAIM_BONUS)
        draws, ready_by = draws_when_ready(1, p if p < 0.9 else 0.9, ctx.draws)
        acc = 0.0
        for t, options in found:
            best = 0.0
            for _d, waits in options:
                v = ctx.ready_value(wait_pays(waits, rem, t), draws, ready_by)
                if v > best:
                    best = v
            acc += rem[t] * best
        return acc / total


class _DiscardRows:
    """The rows one discard decision needs valued (the plain hand after each discard that is
    not ready, the 清一色 plan's rows) and how their values come back to the discards."""

    def __init__(self, planner: Planner, counts: Sequence[int], melds: Melds, void: int,
                 discards: Sequence[int]) -> None:
        self.planner = planner
        self.counts = counts
        self.melds = melds
        self.void = void
        self.discards = discards
        ctx = planner.ctx
        rem = planner.remaining
        b = self.b = bytes(counts)
        values: Dict[int, float] = {}
        shanten: Dict[int, int] = {}
        ready, shanten_after = analyse(b, melds, void, planner.scoring)
        self.ready = ready
        for d, waits in ready:
            if d in discards:
                values[d] = ctx.ready_value(wait_pays(waits, rem), ctx.draws)
                shanten[d] = 0
        # A discard that takes a step back is not valued as a plain hand (0, or its 清一色 plan
        # below): it keeps the batch small, and the arena preferred it (SPAN).
        low = min((shanten_after.get(d, 9) for d in discards), default=9)
        rest = []
        skipped: Set[int] = set()
        for d in discards:
            if d not in values:
                s = shanten_after.get(d, 9)
                if s <= low + SPAN:
                    rest.append(d)
                else:
                    values[d] = 0.0
                    shanten[d] = s
                    skipped.add(d)
        self.skipped = skipped  # valued by neither plan (yet: a 清一色 plan values every discard)
        self.values = values
        self.shanten = shanten
        self.rest = rest
        labels, frows, x, y = planner._flush_rows(counts, melds, void, discards)
        self.labels = labels
        self.x = x
        rows: List[List[int]] = []
        for d in rest:
            r = list(counts)
            r[d] -= 1
            rows.append(r)
        self.rows = rows + frows
        self.voids = [void] * len(rest) + [y] * len(frows)
        self.flush = [-1] * len(rest) + [x] * len(frows)
        self.n_flush = len(frows)

    def finish(self, sh: Sequence[int], out: Sequence[float]
               ) -> Tuple[Dict[int, float], Dict[int, int]]:
        """The values per discard, from the rows' shanten and values."""
        values, shanten, rest = self.values, self.shanten, self.rest
        x, labels = self.x, self.labels
        for i, d in enumerate(rest):
            values[d] = out[i]
            shanten[d] = sh[i]
        if self.n_flush:
            by_label = dict(zip(labels, out[len(rest):]))
            other = by_label.get(-2, 0.0)
            for d in self.discards:
                if shanten.get(d) == 0:
                    continue  # ready: it wins on these waits (and freezes) before any 清一色
                f = by_label.get(d, other) if d // 9 == x else other
                if f > values[d]:
                    values[d] = f
            self.skipped.clear()  # the 清一色 plan valued every discard not ready
        ready = self.ready
        if ready and LOOKAHEAD and any(
                w[1] >= BIG_HAND for d, waits in ready if d in values for w in waits):
            # Breaking a ready hand for a one-from-ready one: the estimates assume typical
            # waits to come; check the few that would win against the best ready discard by
            # drawing each of their 进张 and valuing the exact waits that follow.
            planner = self.planner
            best_ready = max((values[d] for d, _ in ready if d in values), default=0.0)
            checked = set()
            for _ in range(LOOKAHEAD):  # the best unchecked rival each time, until none is left
                rival = [d for d in self.discards if shanten.get(d) == 1 and d not in checked
                         and values[d] > best_ready]
                if not rival:
                    break
                d = max(rival, key=lambda k: values[k])
                checked.add(d)
                self.skipped.discard(d)
                after = bytearray(self.b)
                after[d] -= 1
                values[d] = planner._look_ahead(bytes(after), self.melds, self.void)
        return values, shanten
