"""ExpertBot at a table with wild tiles (docs/rules.md §12): the same money model, hands read through
the table's wild set.

A hand is its natural counts (27), a number of wilds and its melds, soft ones with the wilds in
them; the core's wild calls read it (``discard_options_wild``, ``shanten_wild``, ``waits_wild``,
``jinzhang_wild``, ``evaluate``). What the wilds change in the value of a hand
(docs/expert-bot.md, "Wild tiles"):

- **a wild is worth keeping**: it lowers the shanten by one, widens the waits of the hand once
  ready (:data:`WILD_WAITS`), and every ready hand also wins on a drawn wild, which the model
  values as a wait of its own — won only by this seat's own draw (nobody wins on a discarded
  wild), paid as a self-draw (:meth:`Context.ready_value`'s ``wild``,
  :meth:`Context.typical_value`'s ``wilds``). Where a wild may be discarded (``wild_discard =
  "dead"``) the bot throws one only when no natural tile may go, or when it is the hand's last
  wild and the hand without it (无鸡 within reach) is worth clearly more;
- **无鸡** (``no_wild_bonus``): the core scores a wild-free hand's waits with the bonus; a hand not
  yet ready that holds no wild is valued as the mix of the hand with the bonus (it draws no wild
  before it wins, or throws the wilds it draws where that is allowed) and without;
- **soft melds, soft kongs and 提** are valued like any claim or kong: the hand after the meld
  (with the wilds it spent gone), against passing or the best discard now; a kong without a wild
  counts twice its income under ``soft_kong_pay = "hard_double"``; 提 when the hand with the wild
  back is worth at least as much;
- **the expected fan** of a hand not yet ready reads the rules' fan table (清一色, 七对), a 根
  per wild held under ``wild_gen = "per_wild"``, and 清一色 when the natural tiles are of one suit
  (the wilds fill it); a hand with many tiles of one suit is also valued as a 清一色 plan, as the
  plain planner does (:data:`WILD_FLUSH_MIN`, the wilds counted);
- **the table's stake**: the others' wins cost more here (无鸡, multiplier tables:
  :func:`~xueliu.bots.expert_wild_choice.table_stake`) and come faster, so a draw of play costs more (:data:`WILD_LOSS_PACE`);
  a wait whose discard win the rules do not offer (只能自摸, 起胡番) is won by own draws only;
- 四鸡 and every other win are taken, as at any table.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .. import _core
from ..rules import Rules
from .expert_value import CLAIM_BONUS, Context, draws_when_ready
from .expert_view import KIND, TableView

__all__ = ["WildHand", "WildPlanner", "wild_hand", "WILD", "WILD_DISCARD_MARGIN",
           "WILD_FLUSH_MIN", "WILD_LOSS_PACE", "WILD_SPAN", "WILD_WAITS"]

WILD = -1
"""The discard or 进张 that is a wild, in :class:`WildPlanner`'s keys (a wild has no kind)."""
WILD_DISCARD_MARGIN = 0.25
"""Where a wild may be discarded (``"dead"``): how much more (relative, plus as many payment
units) the hand without its last wild must be worth than the best natural discard."""
CLEAN_KEEP_DEAD = 0.8
"""Where a drawn wild may be thrown (``"dead"``), the share of a wild-free hand's draws left to
improve it (the others go to throwing the wilds it draws)."""

TYPICAL_FAN = ((1, 0.69), (2, 0.22), (3, 0.065), (4, 0.02), (5, 0.005))
"""(fan, share) of greedy play's discard wins at the §1–§10 血战 table (measured, 780 wins): what
a win of another seat typically is, before the wilds."""
WILD_EXPOSURE = 40.0
"""Tiles a winning hand has held or drawn: a hand holds no wild with the chance
``exp(−wilds / wall × 40)`` (measured: the share of greedy's wins with 无鸡 at the 幺鸡, 泸州 鬼 and
宜宾 tables, 22 %, 28 % and 4 %)."""

WILD_LOSS_PACE = 4.0
"""What a draw of play costs a seat in 血战 at a table with wild tiles, over the §1–§10 rate
scaled by :func:`~xueliu.bots.expert_wild_choice.table_stake` (``LOSS_RATE``): greedy play measures 1.2 to 2.1 (the tables are
faster), and the arena preferred 4 (2.5 and 6 tried): the bot values speed that much more."""
WILD_SPAN = 0
"""Discards up to this many steps behind the lowest shanten are valued as plain hands, the others
stand at 0 unless their 清一色 plan values them (the plain planner's ``SPAN``): the arena chose
0 here too (1 lost 2 units a hand at 红中 and 0.8 at 泸州 鬼)."""
WILD_FLUSH_MIN = 10
"""Tiles of one suit, its melds and the wilds from which a 清一色 plan is valued too (the plain
planner's ``FLUSH_MIN`` is 9, without wilds); the arena chose 10 (9 and 11 tried)."""
WILD_WAITS = (1.0, 2.0, 3.4, 4.4)
"""A ready hand's natural waits grow with the wilds it holds (a wild pairs or completes almost
anything): the typical waits of a hand holding 0, 1, 2, 3 or more wilds, against a hand without
(measured: the live waits per unseen tile of greedy's hands when they become ready at the 红中
and 幺鸡 tables, 0.06, 0.13, 0.21 and 0.28)."""

WildMeld = Tuple[int, int, int]
"""A meld: (core type 0 peng / 1 kong / 2 concealed kong, kind, wilds in it)."""
WildMelds = Tuple[WildMeld, ...]

_CACHE_LIMIT = 100_000
_OPTIONS: Dict[Tuple[Any, ...], List[Tuple[int, int, Tuple[Tuple[int, float, float], ...], float,
                                           Tuple[int, ...], bool]]] = {}
_HANDS: Dict[Tuple[Any, ...], Tuple[int, Tuple[Tuple[int, float, float], ...], float,
                                    Tuple[int, ...], bool]] = {}
_SCORING_KEEP: Dict[int, Any] = {}


def _sid(scoring: Any) -> int:
    i = id(scoring)
    if i not in _SCORING_KEEP:
        _SCORING_KEEP[i] = scoring
    return i


def core_melds(melds: WildMelds) -> List[Any]:
    """The melds as the core reads them: ``(type, kind)``, ``(type, kind, wilds)`` when soft."""
    return [(t, k, w) if w else (t, k) for t, k, w in melds]


class WildHand:
    """One hand: ``nat`` the natural concealed counts (27), ``wilds`` the concealed wilds,
    ``melds`` (:data:`WildMelds`)."""

    __slots__ = ("nat", "wilds", "melds")

    def __init__(self, nat: Sequence[int], wilds: int, melds: WildMelds) -> None:
        self.nat = bytes(nat)
        self.wilds = wilds
        self.melds = melds

    def key(self) -> Tuple[bytes, int, WildMelds]:
        return (self.nat, self.wilds, self.melds)

    def core(self) -> _core.Hand:
        return _core.Hand(self.nat, core_melds(self.melds), self.wilds)

    @property
    def clean(self) -> bool:
        """No wild among its tiles (无鸡 is still possible)."""
        return not self.wilds and not any(w for _, _, w in self.melds)

    def take(self, k: int, need: int) -> Tuple["WildHand", int]:
        """The hand after ``need`` of its tiles go into a meld of kind ``k`` (its natural ``k``
        first, then wilds, as the engine takes them), and the wilds that went."""
        nat = bytearray(self.nat)
        used = min(nat[k], need)
        nat[k] -= used
        wilds = need - used
        return WildHand(nat, self.wilds - wilds, self.melds), wilds

    def discard(self, d: int) -> "WildHand":
        """The hand after discarding kind ``d`` (:data:`WILD`: a wild)."""
        if d == WILD:
            return WildHand(self.nat, self.wilds - 1, self.melds)
        nat = bytearray(self.nat)
        nat[d] -= 1
        return WildHand(nat, self.wilds, self.melds)


def wild_hand(view: TableView) -> WildHand:
    """The seat's own hand of a :class:`TableView` read at a table with wilds."""
    return WildHand(view.counts, view.wilds,
                    tuple((t, k, w) for (t, k), w in zip(view.melds, view.soft)))


class WildPlanner:
    """Values the hands of one decision at a table with wilds (a :class:`Context` plus the
    hand's scoring); the counterpart of :class:`~xueliu.bots.expert_plan.Planner`."""

    def __init__(self, ctx: Context, rules: Rules) -> None:
        self.ctx = ctx
        view = ctx.view
        self.rules = rules
        self.scoring = rules._scoring_for(view.benjin if view.benjin >= 0 else None)
        self.code = rules._shape_code
        self.mask = sum(1 << k for k in view.wild_kinds)
        self.fifth = bool(rules.wild_fifth_copy)
        self.dead = rules.wild_discard == "dead"
        self.bonus = int(rules.no_wild_bonus)
        self.per_wild = rules.wild_gen == "per_wild"
        table = rules.fan_table
        self.qing_fan = int(table["qingyise"])
        self.pairs_fan = int(table["qidui"])
        self.base_fan = int(table["pinghu"])
        self.suits = view.suits
        self.remaining = view.remaining
        self.wild_left = view.wild_left
        self._step = [view.remaining[t] / ctx.pool[t // 9] * (1.0 + CLAIM_BONUS)
                      for t in range(27)]
        self._wild_step = view.wild_left / ctx.wild_pool
        self._pairs = (view.hand_size + 1) // 2 if (view.hand_size + 1) % 2 == 0 else 0
        self.sp = bool(rules.seven_pairs) and self._pairs > 0

    # -- the core, cached by hand -----------------------------------------------------------------

    def _options(self, hand: WildHand, void: int, allow_wild: bool
                 ) -> List[Tuple[int, int, Tuple[Tuple[int, float, float], ...], float,
                                 Tuple[int, ...], bool]]:
        """查听 of a 14 − 3k tile hand: per discard (kind or :data:`WILD`), the shanten after
        it, the natural waits ``(kind, discard-win multiplier, self-draw multiplier)`` and the
        wild wait's self-draw multiplier when ready, and its 进张 (natural kinds, and whether a
        wild is one)."""
        key = (hand.key(), void, _sid(self.scoring), allow_wild)
        got = _OPTIONS.get(key)
        if got is None:
            if len(_OPTIONS) >= _CACHE_LIMIT:
                _OPTIONS.clear()
            try:
                options = _core.discard_options_wild(hand.core(), None, void, self.scoring, 1,
                                                     allow_wild)
            except ValueError:  # melds that break the void or 缺一门
                options = []
            got = []
            for o in options:
                waits = []
                wild_sd = 0.0
                for w in o.waits:
                    if w.tile == "wild":
                        wild_sd = float(w.self_draw.multiplier)
                    else:
                        waits.append((KIND[w.tile], float(w.discard_win.multiplier),
                                      float(w.self_draw.multiplier)))
                jz = tuple(KIND[t] for t, _ in o.jinzhang if t != "wild")
                got.append((WILD if o.discard == "wild" else KIND[o.discard], int(o.shanten),
                            tuple(waits), wild_sd, jz, any(t == "wild" for t, _ in o.jinzhang)))
            _OPTIONS[key] = got
        return got

    def _hand(self, hand: WildHand, void: int
              ) -> Tuple[int, Tuple[Tuple[int, float, float], ...], float, Tuple[int, ...], bool]:
        """A 13 − 3k tile hand: its shanten, its waits and the wild wait's self-draw multiplier
        when ready, else its 进张 (as :meth:`_options`)."""
        key = (hand.key(), void, _sid(self.scoring))
        got = _HANDS.get(key)
        if got is None:
            if len(_HANDS) >= _CACHE_LIMIT:
                _HANDS.clear()
            h = hand.core()
            try:
                s = int(_core.shanten_wild(h, void, self.code, self.mask, self.fifth))
                jz = () if s in (0, 99) else _core.jinzhang_wild(h, None, void, self.code,
                                                                  self.mask, self.fifth, 1)
            except ValueError:  # melds that break the void or 缺一门
                s = 99
            if s == 0:
                mask = _core.waits_wild(h, void, self.code, self.mask, self.fifth)
                melds = core_melds(hand.melds)
                waits = []
                k = 0
                while mask:
                    if mask & 1:
                        c = bytearray(hand.nat)
                        c[k] += 1
                        won = _core.Hand(bytes(c), melds, hand.wilds)
                        dw = _core.evaluate(won, void, self.scoring, k, 0)
                        sd = _core.evaluate(won, void, self.scoring, k, _core.SELF_DRAW)
                        waits.append((k, float(dw[1]), float(sd[1])))
                    mask >>= 1
                    k += 1
                drawn = _core.Hand(hand.nat, melds, hand.wilds + 1)
                wild_sd = float(_core.evaluate(drawn, void, self.scoring, 27, _core.SELF_DRAW)[1])
                got = (0, tuple(waits), wild_sd, (), True)
            elif s < 99:
                got = (s, (), 0.0, tuple(KIND[t] for t, _ in jz if t != "wild"),
                       any(t == "wild" for t, _ in jz))
            else:
                got = (99, (), 0.0, (), False)
            _HANDS[key] = got
        return got

    def shanten(self, hand: WildHand, void: int) -> int:
        """The shanten of a 13 − 3k or 14 − 3k tile hand (99: no complete hand exists)."""
        try:
            return int(_core.shanten_wild(hand.core(), void, self.code, self.mask, self.fifth))
        except ValueError:
            return 99

    @staticmethod
    def shanten_of(hand: WildHand, void: int, rules: Rules, wild_kinds: Sequence[int]) -> int:
        """:meth:`shanten` without a planner (the exchange, the void and 选倍)."""
        try:
            return int(_core.shanten_wild(hand.core(), void, rules._shape_code,
                                          sum(1 << k for k in wild_kinds),
                                          bool(rules.wild_fifth_copy)))
        except ValueError:
            return 99

    # -- values -----------------------------------------------------------------------------------

    def _ready(self, waits: Sequence[Tuple[int, float, float]], wild_sd: float,
               draws: float, drawn: int = -2) -> float:
        rem = self.remaining
        pays = [(k, rem[k] - (k == drawn), dw, sd) for k, dw, sd in waits]
        wild = (self.wild_left - (drawn == WILD), wild_sd) if wild_sd else None
        return self.ctx.ready_value(pays, draws, 1.0, wild)

    def _not_ready(self, hand: WildHand, void: int, s: int, jz: Sequence[int], jz_wild: bool,
                   draws: float) -> float:
        """A hand ``s`` ≥ 1 steps from ready with these 进张: the chance of its first step per
        draw from them (a wild is always one), the later steps at their typical pace, then a
        ready hand of its expected fan with typical waits and the wild wait."""
        step = self._step
        p = sum(step[k] for k in jz) + (self._wild_step if jz_wild else 0.0)
        left, ready_by = draws_when_ready(s if s > 1 else 1, p if p < 0.9 else 0.9, draws)
        if ready_by <= 0.0:
            return 0.0
        fan, scale, suits = self._fan(hand, void, s)
        scale *= WILD_WAITS[min(hand.wilds, len(WILD_WAITS) - 1)]
        ctx = self.ctx
        value = ctx.typical_value(fan, left, suits, scale, ready_by, self.wild_left)
        if self.bonus and hand.clean:
            clean = fan + self.bonus
            if self.dead:  # it may throw every wild it draws: fewer draws to improve
                return max(value, ctx.typical_value(clean, left * CLEAN_KEEP_DEAD, suits, scale,
                                                    ready_by))
            # It keeps 无鸡 if it draws no wild before it wins (about the draws to get ready and
            # half of those left).
            q = self.wild_left / ctx.wild_pool
            t = (draws - left) + 0.5 * left
            kept = (1.0 - q) ** t if q < 1.0 else 0.0
            value = kept * ctx.typical_value(clean, left, suits, scale, ready_by) + \
                (1.0 - kept) * value
        return value

    def _fan(self, hand: WildHand, void: int, s: int) -> Tuple[int, float, Tuple[int, ...]]:
        """The expected fan of a hand not yet ready (as the plain planner's: 清一色 when its
        natural tiles and melds are of one suit, a 根 per kind held four times, 七对 with half
        the waits when pairs are as close), the share of typical waits, and its suits."""
        nat = hand.nat
        meld_suits = {k // 9 for _, k, _ in hand.melds}
        present = {u for u in self.suits if u != void and any(nat[9 * u:9 * u + 9])}
        suits = tuple(sorted(present | meld_suits))
        if not suits:
            suits = tuple(u for u in self.suits if u != void)
        gens = sum(1 for k in range(27) if nat[k] == 4 and k // 9 != void)
        for t, k, w in hand.melds:
            # a meld completed to four (a kong, or a peng with the fourth held); under
            # "per_wild" only of natural tiles, its wilds being 根 of their own below
            if nat[k] + (3 if t == 0 else 4) == 4 and not (self.per_wild and w):
                gens += 1
        if self.per_wild:
            gens += hand.wilds + sum(w for _, _, w in hand.melds)
        fan = (self.qing_fan if len(suits) == 1 else self.base_fan) + gens
        scale = 1.0
        if self.sp and not hand.melds:
            need = self._pairs - 1
            pairs = sum(1 for k in range(27) if nat[k] >= 2 and k // 9 != void)
            if pairs + hand.wilds >= need - 2 and need - pairs - hand.wilds <= s:
                fan = max(fan, self.pairs_fan)
                scale = 0.5
        return fan, scale, suits

    # -- the 清一色 plan ----------------------------------------------------------------------------

    def _flush_base(self, hand: WildHand, void: int) -> Optional[Tuple[int, int, List[int]]]:
        """The 清一色 plan of a hand (as the plain planner's, ``Planner._flush_rows``): its suit
        ``x`` when that suit's tiles, its melds and its wilds are at least
        :data:`WILD_FLUSH_MIN` and its melds all of ``x``; the suit ``y`` its other natural
        tiles are parked in, declared void for the core's calls (so each counts as a tile to
        replace); and the parked counts (27). ``None`` without such a plan, or when the hand is
        of one suit already."""
        nat = hand.nat
        per_suit = [sum(nat[9 * u:9 * u + 9]) for u in range(3)]
        for _, k, _w in hand.melds:
            per_suit[k // 9] += 3
        x = max(self.suits, key=lambda u: per_suit[u])
        if (per_suit[x] + hand.wilds < WILD_FLUSH_MIN or x == void
                or any(k // 9 != x for _, k, _w in hand.melds)):
            return None
        useless = sum(nat) - sum(nat[9 * x:9 * x + 9])
        if useless == 0:
            return None  # of one suit already: the plain plan values it as one
        y = void if void >= 0 else next(u for u in ((x + 1) % 3, (x + 2) % 3) if u in self.suits)
        base = [0] * 27
        base[9 * x:9 * x + 9] = nat[9 * x:9 * x + 9]
        left = useless  # at most 3 a kind, so a drawn tile of that kind still fits
        for k in range(9 * y, 9 * y + 9):
            base[k] = min(3, left)
            left -= base[k]
        return x, y, base

    def _flush_value(self, row: Sequence[int], wilds: int, melds: WildMelds, x: int, y: int,
                     draws: float) -> float:
        """A 清一色 plan's 13 − 3k tile row valued: its shanten with the parked suit void, its
        进张 of suit ``x`` and the wild, at the one-suit fan."""
        got = self._hand(WildHand(row, wilds, melds), y)
        s, _waits, _sd, jz, jz_wild = got
        if s <= 0 or s >= 99:
            return 0.0
        hand = WildHand(row, wilds, melds)
        step = self._step
        p = sum(step[k] for k in jz if k // 9 == x) + (self._wild_step if jz_wild else 0.0)
        left, ready_by = draws_when_ready(s, p if p < 0.9 else 0.9, draws)
        if ready_by <= 0.0:
            return 0.0
        gens = sum(1 for k in range(9 * x, 9 * x + 9) if row[k] == 4)
        for t, k, w in melds:
            if row[k] + (3 if t == 0 else 4) == 4 and not (self.per_wild and w):
                gens += 1
        if self.per_wild:
            gens += wilds + sum(w for _, _, w in melds)
        scale = WILD_WAITS[min(hand.wilds, len(WILD_WAITS) - 1)]
        return self.ctx.typical_value(self.qing_fan + gens, left, (x,), scale, ready_by,
                                      self.wild_left)

    def _flush_discards(self, hand: WildHand, void: int, discards: Sequence[int]
                        ) -> Dict[int, float]:
        """The 清一色 plan's value after each natural discard of a 14 − 3k tile hand (empty
        without a plan)."""
        plan = self._flush_base(hand, void)
        if plan is None:
            return {}
        x, y, base = plan
        draws = self.ctx.draws
        out: Dict[int, float] = {}
        other: Optional[float] = None
        for d in discards:
            if d == WILD:
                continue
            if d // 9 == x:
                row = list(base)
                row[d] -= 1
                out[d] = self._flush_value(row, hand.wilds, hand.melds, x, y, draws)
            else:  # any tile of another suit: one parked tile fewer
                if other is None:
                    row = list(base)
                    row[next(k for k in range(9 * y, 9 * y + 9) if row[k])] -= 1
                    other = self._flush_value(row, hand.wilds, hand.melds, x, y, draws)
                out[d] = other
        return out

    def hand_value(self, hand: WildHand, void: int, extra_draws: float = 0.0) -> float:
        """Value of a 13 − 3k tile hand as it stands (after a kong, with the replacement draw as
        ``extra_draws``): ready, its waits; else the better of the plain and the 清一色 plan."""
        draws = self.ctx.draws + extra_draws
        s, waits, wild_sd, jz, jz_wild = self._hand(hand, void)
        if s >= 99:
            return 0.0
        if s == 0:
            return self._ready(waits, wild_sd, draws)
        value = self._not_ready(hand, void, s, jz, jz_wild, draws)
        plan = self._flush_base(hand, void)
        if plan is not None:
            x, y, base = plan
            value = max(value, self._flush_value(base, hand.wilds, hand.melds, x, y, draws))
        return value

    def discard_values(self, hand: WildHand, void: int, discards: Sequence[int],
                       allow_wild: bool = False, skipped: Optional[Set[int]] = None
                       ) -> Dict[int, float]:
        """The value of the hand left after each of ``discards`` (kinds, :data:`WILD` for a
        wild) from a 14 − 3k tile hand: the discards up to :data:`WILD_SPAN` steps behind the
        lowest shanten are valued (a wild always: a step back that may buy 无鸡), the better of
        the plain and the 清一色 plan; the others stand at 0 (and go into ``skipped``) unless
        the 清一色 plan values them."""
        draws = self.ctx.draws
        options = {o[0]: o for o in self._options(hand, void, allow_wild)}
        low = min((options[d][1] for d in discards if d in options), default=99)
        flush = self._flush_discards(hand, void, discards)
        out: Dict[int, float] = {}
        for d in discards:
            got = options.get(d)
            if got is None or (got[1] > low + WILD_SPAN and d != WILD):
                out[d] = flush.get(d, 0.0)
                if skipped is not None and d not in flush:
                    skipped.add(d)
                continue
            _, s, waits, wild_sd, jz, jz_wild = got
            if s == 0:  # ready: it wins on these waits before any 清一色
                out[d] = self._ready(waits, wild_sd, draws)
            else:
                out[d] = max(self._not_ready(hand.discard(d), void, s, jz, jz_wild, draws),
                             flush.get(d, 0.0))
        return out

    def ready_chance(self, hand: WildHand, void: int) -> float:
        """Chance that a 13 − 3k tile hand is ready by the wall's end (1 when it is now)."""
        from .expert_value import TYPICAL_STEP

        s = self.shanten(hand, void)
        if s >= 99:
            return 0.0
        if s <= 0:
            return 1.0
        p = TYPICAL_STEP[min(s, len(TYPICAL_STEP) - 1)] * (1.0 + CLAIM_BONUS) + self._wild_step
        return draws_when_ready(s, p, self.ctx.draws)[1]
