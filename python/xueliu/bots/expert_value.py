"""How much a hand is worth to the expert bot, in payment units, from what its seat can see.

A 13 − 3k tile hand (after a discard) is valued by what it is expected to collect before the hand
ends (docs/expert-bot.md derives each part and says how the constants were measured):

- **ready** (shanten 0): each unseen copy of a wait is won on if it is in the wall and drawn in
  the draws left (by this seat: a self-draw; by another seat, which throws it: a discard win) or
  sits in a hand that still discards and is thrown meanwhile (:meth:`Context.copy_won`; where
  the copies of a suit can be follows from the others' voids and frozen hands). A win pays the
  wait's fan from the core (discard-win or self-draw), the player multipliers, the 自摸加底
  bonus. In 血流 a won hand keeps winning on the same waits, so the value is the expected pay of
  every copy; in 血战 only the first win counts, and a winner leaves (it pays nothing after);
- **not ready** (shanten ``s`` ≥ 1): its 进张 (the unseen tiles whose draw lowers the shanten)
  give the chance of the first step per draw, later steps come at their typical chance, and the
  draws left once ready are ``E[max(0, D − T)]`` (:func:`draws_when_ready`); the hand is then
  valued as a typical ready hand of its expected fan (:meth:`Context.typical_value`);
- **the end of the wall**: a seat that has not won is paid (or not charged) by 查大叫 when it is
  ready, and keeps its kong income from 退税; in 血战 the hand usually ends sooner, at the third
  win (:func:`game_horizon`), and in 倒倒胡 at the first (:func:`first_win_horizon`).
"""

from __future__ import annotations

import math
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .expert_view import TableView

__all__ = ["Context", "draws_when_ready", "first_win_horizon", "game_horizon", "KAPPA"]

KAPPA = 0.8
"""Chance, relative to the seat's own draw, that one other seat discards a given unseen tile in a
cycle (greedy play discards what it does not need, so close to 1): sets the mix of self-draw and
discard wins."""
WALL_WIN = 0.9
"""Chance that a wait tile drawn from the wall (by anyone) is won on: drawn by this seat, or
discarded by the seat that drew it."""
LOSS_RATE = 0.15
"""Payment units a seat in play loses per own draw to the others' wins (greedy 血战 play, per unit
of player multipliers): what a 血战 win saves for every draw it comes early."""
HAND_RATE = 0.045
"""Chance per cycle that a given tile of another seat's concealed hand is discarded (measured)."""
CLAIM_BONUS = 0.25
"""Extra chance per draw of a shanten step from claiming (peng) another seat's discard."""
TYPICAL_WAITS = 5.5
"""Unseen winning tiles of a typical ready hand when 75 tiles are unseen (scaled to ``N``)."""

WaitPay = Tuple[int, int, float, float]
"""One wait as the bot values it: (kind, remaining copies, discard-win multiplier, self-draw
multiplier)."""

TYPICAL_STEP = (0.0, 0.2, 0.345, 0.47, 0.57, 0.65)
"""Chance per draw (进张 / unseen, measured on greedy play) of the step from shanten ``j`` to
``j − 1``, for the steps after the first (the first uses the hand's own 进张). A one-suit
(清一色) plan is paced the same: its measured 进张 are fewer (0.12, 0.21, 0.27 … at shanten
1, 2, 3), but its realised value is higher than the model's (other seats void that suit and throw
it, more kongs once frozen), and pacing it like any hand played better in the arena."""

_HORIZON = 64  # draws: more than any hand has


def _later_steps(steps: int, table: Tuple[float, ...]) -> List[float]:
    """pmf of the draws the steps after the first take (shanten ``steps − 1`` down to ready),
    each a geometric wait at its typical chance in ``table``."""
    pmf = [0.0] * _HORIZON
    pmf[0] = 1.0
    for j in range(steps - 1, 0, -1):
        q = min(0.9, table[min(len(table) - 1, j)] * (1.0 + CLAIM_BONUS))
        new = [0.0] * _HORIZON
        for k0, mass in enumerate(pmf):
            f = mass * q
            for k in range(k0 + 1, _HORIZON):
                new[k] += f
                f *= 1.0 - q
        pmf = new
    return pmf


_LATER = [_later_steps(s, TYPICAL_STEP) for s in range(0, 10)]
_G_CACHE: Dict[Tuple[int, int, int], Tuple[float, float]] = {}


def draws_when_ready(steps: int, p: float, draws: float) -> Tuple[float, float]:
    """``(E[max(0, draws − T)], P(T < draws))``, ``T`` the draws needed to become ready from
    ``steps`` shanten when the first step has chance ``p`` per draw and each later one its
    typical chance (``TYPICAL_STEP`` with the claim bonus): the draws a hand still has once it
    is ready, and the chance it is ready before the wall ends.

    >>> [round(x, 3) for x in draws_when_ready(1, 0.5, 4.0)]  # T ~ Geometric(1/2)
    [2.125, 0.875]
    """
    if steps <= 0:
        return (max(0.0, draws), 1.0)
    if p <= 0.0 or draws <= 0.0:
        return (0.0, 0.0)
    pi = min(360, max(1, int(p * 400 + 0.5)))
    di = int(draws * 2 + 0.5)
    key = (steps, pi, di)
    g = _G_CACHE.get(key)
    if g is None:
        q = pi / 400.0
        d = di / 2.0
        later = _LATER[min(steps, 9)]
        left = ready = 0.0
        for extra, mass in enumerate(later):
            x = d - extra
            if x <= 1.0:
                break
            if mass < 1e-12:
                continue
            # T1 ~ Geometric(q) over k = 1..m (k < x): E[max(0, x − T1)] and P(T1 <= m).
            m = int(math.ceil(x)) - 1
            qm = (1.0 - q) ** m
            left += mass * (x * (1.0 - qm) - (1.0 - qm * (1.0 + m * q)) / q)
            ready += mass * (1.0 - qm)
        g = _G_CACHE[key] = (left, ready)
    return g


END_READY = 0.7
"""Chance that a seat still without a win at the wall's end is ready (greedy play: 3 in 4)."""
OTHER_READY_FAN_MULT = 1.5
"""Multiplier a ready seat that has not won is expected to collect by 查大叫."""
WIN_HAZARD_READY = 0.3
"""Wins per cycle of a ready seat (about its waits × the draws and discards of a cycle / unseen)."""
WIN_HAZARD_NOT_READY = 0.06
"""Wins per cycle of a seat not (yet) ready: it first has to become ready."""


def game_horizon(draws: float, ready: Sequence[float], pace: float = 1.0
                 ) -> Tuple[float, float]:
    """血战: ``(E[min(draws, M)], P(M > draws))``, ``M`` the time by which every other seat still
    in play has won (the third win ends the hand), each winning at a constant hazard set by its
    chance ``ready`` to be ready now and the table's ``pace``: the own draws expected before the
    hand ends, and the chance it lasts to the wall's end (where the end checks are made).

    >>> game_horizon(10.0, [])  # nobody else left to win: the wall decides
    (10.0, 1.0)
    """
    if draws <= 0.0:
        return (0.0, 1.0)
    if not ready:
        return (draws, 1.0)
    ready = [round(p, 2) for p in ready]  # (a hundredth does not matter; the cache hits more)
    pace = round(pace, 2)
    key = (draws, tuple(ready), pace)
    got = _HORIZONS.get(key)
    if got is None:
        if len(_HORIZONS) > 100_000:
            _HORIZONS.clear()
        got = _HORIZONS[key] = _game_horizon(draws, ready, pace)
    return got


_HORIZONS: Dict[Tuple[float, Tuple[float, ...], float], Tuple[float, float]] = {}


def _game_horizon(draws: float, ready: Sequence[float], pace: float) -> Tuple[float, float]:
    rates = [pace * (WIN_HAZARD_READY * p + WIN_HAZARD_NOT_READY * (1.0 - p)) for p in ready]
    steps = 12
    dt = draws / steps
    total = 0.0
    for i in range(steps):  # midpoint rule for the integral of P(M > t) over [0, draws]
        t = (i + 0.5) * dt
        all_won = 1.0
        for lam in rates:
            all_won *= 1.0 - math.exp(-lam * t)
        total += (1.0 - all_won) * dt
    all_won = 1.0
    for lam in rates:
        all_won *= 1.0 - math.exp(-lam * draws)
    return (total, 1.0 - all_won)


def first_win_horizon(draws: float, ready: Sequence[float], pace: float = 1.0
                      ) -> Tuple[float, float]:
    """倒倒胡: :func:`game_horizon` with ``M`` the time of the first win of another seat (the
    first win ends the hand, docs/rules.md §11.2): with the same constant hazards, ``M`` is exponential
    with their sum ``L``, so ``E[min(draws, M)] = (1 - e^(-L draws)) / L`` and ``P(M > draws) =
    e^(-L draws)``.

    >>> first_win_horizon(10.0, [])  # nobody else to win: the wall decides
    (10.0, 1.0)
    """
    if draws <= 0.0:
        return (0.0, 1.0)
    total = sum(pace * (WIN_HAZARD_READY * p + WIN_HAZARD_NOT_READY * (1.0 - p)) for p in ready)
    if total <= 0.0:
        return (draws, 1.0)
    lasts = math.exp(-total * draws)
    return ((1.0 - lasts) / total, lasts)


class Context:
    """The money side of one decision: who pays what for a win of this seat, how long the hand
    has left, how often a wait is hit. Built once per decision from the :class:`TableView`.

    Where the unseen copies of a kind are depends on its suit: a seat that has declared that suit
    void (and shed it) holds none, so they are in the wall or in the hands of the other seats; a
    frozen or departed seat never discards from its hand, so copies there are out of reach."""

    __slots__ = ("view", "unseen", "draws", "others", "hit", "sd_units", "dw_units",
                 "sd_bonus", "zimo_fan", "continues", "typical_waits", "multipliers", "max_fan",
                 "drawn", "pool", "live_share", "wall_coef", "exit_rate", "end_fixed",
                 "end_per_mult", "_typical", "discard_win_min", "wild_pool", "own_draw_waits")

    def __init__(self, view: TableView, self_draw_bonus: str, multipliers: Sequence[int],
                 max_fan: int, horizon: Optional[Tuple[float, float]] = None,
                 ready: Optional[Mapping[int, float]] = None, refund: float = 0.0,
                 pace: float = 1.0, min_discard_fan: Optional[int] = 1,
                 stake: float = 1.0, own_draw_waits: bool = False,
                 loss_pace: float = 1.0) -> None:
        self.view = view
        # A wait whose discard win the rules do not offer (只能自摸, 起胡番): with
        # ``own_draw_waits`` it is won only by this seat's own draw, paid as a self-draw
        # (:meth:`own_won`); without (the §1-§10 calibration) it is hit like any wait and its
        # discard wins pay nothing.
        self.own_draw_waits = own_draw_waits
        self.unseen = float(view.unseen)
        self.draws = view.draws_left if horizon is None else horizon[0]
        me = view.seat
        others = [o for o in view.seats if o != me and view.in_play[o]]
        self.others = others
        n = len(others)
        self.hit = 1.0 + KAPPA * n  # per cycle: the own draw plus each other seat's discard
        self.sd_units = float(sum(view.unit(o) for o in others))
        self.dw_units = self.sd_units / n if n else 0.0
        self.sd_bonus = self.sd_units if self_draw_bonus == "base" else 0.0  # 自摸加底
        self.zimo_fan = 1 if self_draw_bonus == "fan" else 0
        self.continues = view.mode == "xueliu"
        self._typical: Dict[Tuple[int, float, Tuple[int, ...], float, float, int], float] = {}
        self.typical_waits = TYPICAL_WAITS * self.unseen / 75.0
        self.multipliers = tuple(multipliers)
        self.max_fan = max_fan
        # The smallest discard-win multiplier the rules offer (docs/rules.md §11.2 起胡番 ``min_discard_fan``;
        # None: 只能自摸, no discard win at all): below it a hit by another seat's discard pays
        # nothing.
        self.discard_win_min = (math.inf if min_discard_fan is None
                                else self.multiplier(min_discard_fan) if min_discard_fan > 1
                                else 0.0)
        # 血战: a winner leaves and pays nothing more; each draw of play left is worth this.
        # ``stake``: what a typical win of another seat costs here against the §1-§10 table's
        # (a table with wild tiles pays far more: 无鸡, multiplier tables), for every rate
        # measured there; ``loss_pace``: how much more a draw of play costs on top of that (a
        # table with wild tiles is faster: docs/expert-bot.md, "Wild tiles").
        self.exit_rate = (0.0 if self.continues
                          else LOSS_RATE * stake * loss_pace * self.sd_units / 3.0)
        wall = float(view.wall)
        self.drawn = float(view.n_in_play)  # wall tiles drawn per own draw
        # Per suit: the tiles a copy of that suit may be among (wall + other hands that can hold
        # it), and the share of those in hands that still discard.
        # Indexed by suit (0 m, 1 p, 2 s); a suit not in play keeps a pool of 1 and is never read.
        pool = [1.0, 1.0, 1.0]
        live_share = [0.0, 0.0, 0.0]
        for u in view.suits:
            live = locked = 0.0
            for o in view.seats:
                if o == me or (view.voids[o] == u and view.void_clear[o]):
                    continue
                size = float(view.hand_sizes[o])
                if view.in_play[o] and not view.frozen[o]:
                    live += size
                else:
                    locked += size
            total = max(1.0, wall + live + locked)
            pool[u] = total
            live_share[u] = live / total
        self.pool = pool
        self.live_share = live_share
        # A wild (docs/rules.md §12) is in no suit and nobody may win on a discarded one: a
        # wild wait is won only by drawing it, from the wall and every other hand.
        self.wild_pool = max(1.0, wall + sum(float(view.hand_sizes[o]) for o in view.seats
                                             if o != me))
        self.wall_coef = [WALL_WIN * self.drawn / x for x in pool]
        # 查大叫 at the wall's end, for a seat that has not won: ready, it collects its best fan
        # from each other seat that has not won and is not ready, and pays none of the ready
        # ones; it keeps its kong income (退税 takes it back from a seat that is not ready).
        reach = 1.0 if horizon is None else horizon[1]
        fixed = refund
        per_mult = 0.0
        for o in others:
            if view.frozen[o]:
                continue
            p = (ready or {}).get(o, 0.5)
            rate = pace * (WIN_HAZARD_READY * p + WIN_HAZARD_NOT_READY * (1 - p))
            unwon = math.exp(-self.draws * rate)
            end_ready = END_READY * (pace if pace < 1.0 else 1.0)  # a slow table: fewer ready
            fixed += view.unit(o) * unwon * end_ready * OTHER_READY_FAN_MULT * stake
            per_mult += view.unit(o) * unwon * (1.0 - end_ready)
        self.end_fixed = reach * fixed
        self.end_per_mult = reach * per_mult

    def multiplier(self, fan: int) -> float:
        """Payment multiplier of ``fan`` (docs/rules.md §6: 2 ** (fan − 1), or the rules' table)."""
        if self.max_fan and fan > self.max_fan:
            fan = self.max_fan
        fan = max(1, fan)
        if self.multipliers:
            return float(self.multipliers[min(len(self.multipliers), fan) - 1])
        return float(1 << (fan - 1))

    def hit_pay(self, dw_mult: float, sd_mult: float) -> float:
        """Average pay of one hit: a self-draw (every other seat pays) or a discard win (none
        when the rules do not offer it at this multiplier: ``discard_win_min``)."""
        if dw_mult < self.discard_win_min:
            dw_mult = 0.0
        other = self.hit - 1.0
        return (self.sd_units * sd_mult + self.sd_bonus + other * self.dw_units * dw_mult) / self.hit

    def copy_won(self, suit: int, draws: float) -> float:
        """Chance that one unseen copy of a wait of ``suit`` is won on within ``draws`` own
        draws: it is in the wall and drawn meanwhile (by this seat, or by another who discards
        it), or it sits in a hand that still plays and is discarded meanwhile."""
        if draws <= 0.0:
            return 0.0
        p = (self.wall_coef[suit] * draws
             + self.live_share[suit] * (1.0 - math.exp(-HAND_RATE * draws)))
        return p if p < 0.95 else 0.95

    def own_won(self, suit: int, draws: float) -> float:
        """Chance that one unseen copy of ``suit`` is drawn by this seat within ``draws`` own
        draws (a wait won only by self-draw)."""
        p = draws / self.pool[suit] if draws > 0.0 else 0.0
        return p if p < 0.95 else 0.95

    def wild_won(self, draws: float) -> float:
        """Chance that one unseen wild is drawn by this seat within ``draws`` own draws (a wild
        wait is won only so: nobody wins on a discarded wild, docs/rules.md §12.3)."""
        p = draws / self.wild_pool if draws > 0.0 else 0.0
        return p if p < 0.95 else 0.95

    def ready_value(self, waits: Sequence[WaitPay], draws: float, ready_by: float = 1.0,
                    wild: Optional[Tuple[int, float]] = None) -> float:
        """Expected pay of a ready hand with these waits over ``draws`` own draws, plus its end
        checks when it has not won by then (``ready_by``: the chance it is ready at all).
        ``wild``: at a table with wild tiles, ``(wilds unseen, self-draw multiplier)`` of the
        hand's wild wait (every ready hand wins on a drawn wild)."""
        if draws <= 0.0:
            draws = 0.0
        miss = 1.0
        n = 0
        pay_sum = 0.0
        won = 0.0
        hit = 0.0
        best = 0.0
        for w, r, dw, sd in waits:
            if dw > best:
                best = dw
            if r > 0:
                if self.own_draw_waits and dw < self.discard_win_min:
                    p = self.own_won(w // 9, draws)
                    pay = self.sd_units * sd + self.sd_bonus
                else:
                    p = self.copy_won(w // 9, draws)
                    pay = self.hit_pay(dw, sd)
                miss *= (1.0 - p) ** r
                n += r
                pay_sum += r * pay
                won += r * pay * p
                hit += r * p
        if wild is not None and wild[0] > 0:
            # The wild wait is hit far less often than a natural one (only by this seat's own
            # draw) and pays more (a self-draw): in 血战 the pay of the first win is then the
            # copies' pay weighted by their chance to be the one won on, not by count alone.
            r, sd = wild
            p = self.wild_won(draws)
            pay = self.sd_units * sd + self.sd_bonus
            miss *= (1.0 - p) ** r
            won += r * pay * p
            hit += r * p
            n, pay_sum = (1, won / hit) if hit > 0.0 else (1, pay)
        end = ready_by * miss * (self.end_fixed + self.end_per_mult * best)
        if self.continues:  # 血流: every copy can be won on, each once
            return won + end
        if not n:  # 血战: the first win ends the seat's play
            return end
        return pay_sum / n * (1.0 - miss) + self._exit(miss, draws) + end

    def _exit(self, miss: float, draws: float) -> float:
        """What leaving early saves (血战): the expected draws left after the win, for a win
        that comes at a constant hazard and fails with chance ``miss`` over ``draws``."""
        if not self.exit_rate or miss >= 1.0:
            return 0.0
        h = -math.log(max(miss, 1e-9)) / draws
        return self.exit_rate * (draws - (1.0 - miss) / h)

    def typical_value(self, fan: int, draws: float, suits: Tuple[int, ...],
                      waits_scale: float = 1.0, ready_by: float = 0.0, wilds: int = 0) -> float:
        """A ready hand of ``fan`` with typical waits (times ``waits_scale``) in ``suits``, over
        ``draws``, plus its end checks (``ready_by``: the chance it is ready by then); ``wilds``:
        the unseen wilds it also wins on by drawing one (a table with wild tiles)."""
        if not suits:
            return 0.0
        key = (fan, draws, suits, waits_scale, ready_by, wilds)
        got = self._typical.get(key)
        if got is not None:
            return got
        got = self._typical[key] = self._typical_value(fan, draws, suits, waits_scale, ready_by,
                                                       wilds)
        return got

    def _typical_value(self, fan: int, draws: float, suits: Sequence[int], waits_scale: float,
                       ready_by: float, wilds: int = 0) -> float:
        m = self.multiplier(fan)
        sd = self.multiplier(fan + self.zimo_fan) if self.zimo_fan else m
        p = 0.0
        if self.own_draw_waits and m < self.discard_win_min:  # won by self-draw only
            pay = self.sd_units * sd + self.sd_bonus
            if draws > 0.0:
                for u in suits:
                    q = draws / self.pool[u]
                    p += q if q < 0.95 else 0.95
                p /= len(suits)
        else:
            pay = self.hit_pay(m, sd)
            if draws > 0.0:  # copy_won of each suit, with the one exponential they share
                held = 1.0 - math.exp(-HAND_RATE * draws)
                for u in suits:
                    q = self.wall_coef[u] * draws + self.live_share[u] * held
                    p += q if q < 0.95 else 0.95
                p /= len(suits)
        waits = self.typical_waits * waits_scale
        miss = math.pow(1.0 - p, waits)
        if wilds:  # the wild wait: won only by drawing a wild, paid as a self-draw
            pw = self.wild_won(draws)
            wild_pay = self.sd_units * sd + self.sd_bonus
            wild_miss = math.pow(1.0 - pw, wilds)
            end = ready_by * miss * wild_miss * (self.end_fixed + self.end_per_mult * m)
            if self.continues:
                return waits * pay * p + wilds * wild_pay * pw + end
            hits = waits * p + wilds * pw
            mean_pay = (waits * p * pay + wilds * pw * wild_pay) / hits if hits > 0 else pay
            miss *= wild_miss
            return mean_pay * (1.0 - miss) + self._exit(miss, draws) + end
        end = ready_by * miss * (self.end_fixed + self.end_per_mult * m)
        if self.continues:
            return waits * pay * p + end
        return pay * (1.0 - miss) + self._exit(miss, draws) + end




def wait_pays(waits: Sequence[Tuple[int, float, float]], remaining: Sequence[int],
              drawn: int = -1) -> List[WaitPay]:
    """Cached waits ``(kind, discard-win mult, self-draw mult)`` with the remaining copies from this
    seat's view (one fewer of ``drawn``, a tile the look-ahead has just drawn)."""
    return [(w, remaining[w] - (w == drawn), dw, sd) for w, dw, sd in waits]
