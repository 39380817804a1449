"""The risk of dealing in (点炮) with a discard, as expected payment units, from public information.

For each other seat still in play the expected cost of discarding kind ``t`` is
``P(ready) × P(t is one of its waits | ready) × what its win on t would cost``:

- a seat cannot win on a tile of its void suit, nor while it still holds void tiles (it has not
  yet discarded any other suit nor made a meld, docs/rules.md §3.2);
- a won (frozen) 血流 hand is ready for sure, its waits never change: the tiles it has won on are
  waits (certain), the tiles anyone discarded since it froze are not (it would have won), a
  one-suit win (清一色 family) waits only in that suit, and a tile three ranks from a known wait
  (the other end of a two-sided wait) is likelier than the rest;
- any other seat is ready with a chance that grows with its discards and its melds (measured on
  greedy play, the arena's opponents), and a tile it has itself discarded is rarely its wait
  (there is no furiten here, but a ready player would rather have won on it);
- a seat whose melds are all of one suit is likelier to wait in that suit, and when it has
  thrown none of that suit it is read as collecting it (清一色): its waits are there, and dear;
- the cost is the seat's known win multiplier (a frozen seat) or an estimate (1.5, doubled per
  exposed kong for its 根, more for a one-suit collector), times the two player multipliers.
"""

from __future__ import annotations

from typing import List, Sequence, Set

from .expert_view import TableView

__all__ = ["DangerModel", "ready_chance", "table_pace"]

# P(ready) of a seat that has not won, by exposed melds (row) and its discards so far (column,
# the last value holds beyond); measured on greedy self-play (see docs/expert-bot.md).
_READY = (
    (0.03, 0.06, 0.09, 0.12, 0.17, 0.22, 0.26, 0.29, 0.39, 0.45, 0.52, 0.6, 0.66),
    (0.05, 0.13, 0.23, 0.26, 0.32, 0.42, 0.45, 0.47, 0.54, 0.56, 0.56, 0.58, 0.62),
    (0.1, 0.15, 0.15, 0.34, 0.5, 0.56, 0.69, 0.76, 0.74, 0.76, 0.8, 0.82, 0.82),
    (0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.86, 0.88, 0.9, 0.95),
    (1.0,) * 13,
)
# P(kind is a wait | ready, kind of a suit the seat may hold), by distance of the rank from the
# nearest edge (1/9 -> 0, 5 -> 4); measured likewise.
_WAIT_BY_RANK = (0.082, 0.094, 0.146, 0.134, 0.124)
COLLECTOR_SUIT_WAIT = 2.0
"""A seat whose melds are all of one suit and which has thrown none of it (it collects that suit,
清一色): its waits are in that suit (this factor on the per-kind chance there) ..."""
COLLECTOR_OTHER_WAIT = 0.2
"""... rarely elsewhere ..."""
COLLECTOR_COST = 3.0
"""... and its win is worth about this many times an ordinary one (清一色 is ×4)."""
KNOWN_WAIT = 1.0
"""Weight of a certain deal-in (a tile a frozen seat has won on) relative to an uncertain one."""
_OWN_DISCARD = 0.08  # the factor for a kind the seat has discarded itself
# A frozen seat's waits besides the known ones.
_FROZEN_TWO_SIDED = 0.3
_FROZEN_SAME_SUIT = 0.07
_FROZEN_OTHER_SUIT = 0.03


PACE_PRIOR = 2.0
"""Wins of prior on both sides of the table's pace: one hand's few wins say little."""
# Seats (of four) that have won by the time the wall holds 55, 50, ..., 0 tiles (greedy play).
_WINNERS_BY_WALL = (0.0, 0.03, 0.10, 0.33, 0.51, 0.94, 1.26, 1.59, 1.94, 2.11, 2.56, 2.77)


def table_pace(view: TableView) -> float:
    """How fast this table wins compared with greedy play: the other seats that have won so
    far against the number expected by now (with ``PACE_PRIOR`` wins of prior), between
    0.25 and 2. A table where nobody wins yet late in the wall is slow: its seats are less likely
    ready, and the hand less likely to end early."""
    me = view.seat
    won = sum(1 for o in view.seats if o != me and view.won_tiles[o])
    # The measured curve is of four seats and a live wall of 55 (11 steps of 5 tiles): at another
    # table, the same share of its live wall drawn, and the share (n − 1) / 4 of the winners.
    live = view.live_wall
    x = max(0.0, min(11.0, (live - view.wall) / (live / 11.0)))
    i = min(10, int(x))
    expected = (len(view.seats) - 1) / 4 * (_WINNERS_BY_WALL[i] + (x - i) * (_WINNERS_BY_WALL[i + 1] - _WINNERS_BY_WALL[i]))
    pace = (won + PACE_PRIOR) / (expected + PACE_PRIOR)
    return 0.25 if pace < 0.25 else 2.0 if pace > 2.0 else pace


def ready_chance(view: TableView, seat: int, pace: float = 1.0) -> float:
    """Chance that ``seat`` (not this one) is ready now, from its melds and discards (1 for a
    frozen hand; 0 while it still holds void tiles); for a seat with fewer than two melds,
    whose discards are all there is to read, scaled by the table's ``pace``."""
    if view.frozen[seat]:
        return 1.0
    if view.voids[seat] >= 0 and not view.void_clear[seat]:
        return 0.0
    melds = len(view.meld_kinds[seat])
    row = _READY[min(4, melds)]
    p = row[min(len(row) - 1, len(view.rivers[seat]))]
    return p if melds >= 2 else min(1.0, p * pace)


class DangerModel:
    """Per-decision risk estimates: ``cost(t)`` is the expected payment if this seat discards
    ``t`` now. ``safe[o]`` are kinds known safe against seat ``o`` (discarded since it froze);
    ``stake`` scales the estimated pay of a seat that has not won (a table with wild tiles pays
    more a win: :func:`~xueliu.bots.expert_wild.table_stake`)."""

    def __init__(self, view: TableView, others: Sequence[int], safe: Sequence[Set[int]],
                 check_void: bool, pace: float = 1.0, stake: float = 1.0) -> None:
        self.view = view
        self.safe = safe
        self.qing = view.qing
        self.seats: List[int] = []
        self.ready: List[float] = []
        self.cost_unit: List[float] = []
        self.meld_suit: List[int] = []
        self.collects: List[bool] = []
        self.river_sets: List[Set[int]] = []
        for o in others:
            if check_void and view.voids[o] >= 0 and not view.void_clear[o]:
                continue  # still holds void tiles: cannot win now
            if view.frozen[o]:
                p = 1.0
                cost = float(max(1, view.win_mult[o]))
            else:
                p = ready_chance(view, o, pace)
                kongs = sum(1 for t in view.meld_types[o] if t != 0)
                cost = 1.5 * stake * (2 ** kongs)
            suits = {k // 9 for k in view.meld_kinds[o] if k >= 0}
            self.seats.append(o)
            self.ready.append(p)
            self.cost_unit.append(cost * view.unit(o))
            ms = suits.pop() if len(suits) == 1 and len(view.meld_kinds[o]) >= 2 else -1
            self.meld_suit.append(ms)
            # Melds of one suit and not one tile of it thrown: it collects that suit (清一色).
            self.collects.append(ms >= 0 and all(k // 9 != ms for k in view.rivers[o]))
            self.river_sets.append(set(view.rivers[o]))
        self._cache: dict[int, float] = {}

    def chance(self, t: int) -> float:
        """Chance that a discard of kind ``t`` deals in (to anyone): the cost model's chances
        without the pay."""
        return min(1.0, self._cost(t, False))

    def cost(self, t: int) -> float:
        """Expected payment units of dealing in with a discard of kind ``t``."""
        c = self._cache.get(t)
        if c is None:
            c = self._cache[t] = self._cost(t, True)
        return c

    def _cost(self, t: int, pay: bool) -> float:
        v = self.view
        suit = t // 9
        rank = t % 9
        total = 0.0
        for i, o in enumerate(self.seats):
            if v.voids[o] == suit:
                continue
            if v.frozen[o]:
                won = v.won_tiles[o]
                if t in won:
                    p = KNOWN_WAIT if pay else 1.0
                elif t in self.safe[o]:
                    continue
                elif self.qing[o] >= 0 and self.qing[o] != suit:
                    continue
                elif any(w // 9 == suit and abs(w - t) == 3 for w in won):
                    p = _FROZEN_TWO_SIDED
                elif any(w // 9 == suit for w in won):
                    p = _FROZEN_SAME_SUIT
                else:
                    p = _FROZEN_OTHER_SUIT
                total += p * self.cost_unit[i] if pay else p
                continue
            p = _WAIT_BY_RANK[min(rank, 8 - rank)]
            if t in self.river_sets[i]:
                p *= _OWN_DISCARD
            cost = self.cost_unit[i]
            ms = self.meld_suit[i]
            if ms >= 0:
                if self.collects[i]:
                    if ms == suit:
                        p *= COLLECTOR_SUIT_WAIT
                        cost *= COLLECTOR_COST
                    else:
                        p *= COLLECTOR_OTHER_WAIT
                elif ms == suit:
                    p *= 1.3
                    cost *= 2.0
                else:
                    p *= 0.7
            total += self.ready[i] * p * (cost if pay else 1.0)
        return total
