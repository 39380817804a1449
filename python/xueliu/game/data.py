"""The data of one hand in progress (docs/rules.md §2–§10), in one place: :class:`HandData`.

Every field of a hand lives here, documented once. The phases of the hand are plain functions over
this data, one module per part of the rules (docs/rules.md) (their names say which):

==================  ======================================================================
``deal.py``         the wall, the dice and the deal (§2, §10 "Deal and phases")
``before_play.py``  换三张 exchange, 定缺 void, 选倍 multipliers: the joint decisions (§3)
``draw.py``         a draw and the turn decision it opens (§4)
``turn.py``         what a seat does on its turn: discard, concealed or added kong, 自摸 (§4)
``kongs.py``        a kong made: meld, payments, replacement draw (§4, §7 刮风下雨)
``claims.py``       the claim window after a discard or an added kong: 胡, 杠, 碰, 过水 (§4)
``wins.py``         wins and their payments, 呼叫转移 (§5, §7)
``end_of_hand.py``  查花猪, 查大叫, 退税, fees, the end (§7, §10 "End of hand")
``defaults.py``     the default action of a timeout or auto-play (§8)
==================  ======================================================================

Imports point one way: ``turn → claims → wins → kongs → draw → end_of_hand → data``
(``before_play`` and ``defaults`` beside them). The seat views (``observation.py``, ``events.py``,
``view.py``) and the record (``hand_record.py``) read the data; none of the engine modules imports
them. :class:`~xueliu.game.state.GameState` is this data plus the public API, in the one module
that imports both engine and views. Fields are private to the ``game`` package.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import _core
from ..hand import FanResult, _evaluate_flags, _fan_result
from ..rules import Rules
from ..settlement import EndCheck, Ledger, Win
from ..tiles import TILE_NAMES, Hand, Meld
from .actions import Action
from .deal import deal, deal_by_plan, roll
from .wall import break_point
from .wild_play import CoreMeld, WildPlay

PH_EXCHANGE, PH_VOID, PH_MULTIPLIER, PH_TURN, PH_CLAIM, PH_OVER = range(6)
PHASE_NAMES = ("exchange", "void", "multiplier", "turn", "claim", "over")

# How the seat on turn got its tiles: a draw, the dealer's opening 14, or a peng.
TK_DRAW, TK_FIRST, TK_PENG = 0, 1, 2

MELD_TYPE = {"peng": 0, "direct": 1, "added": 1, "concealed": 2}
"""Engine meld ``how`` -> the core's meld type (0 peng, 1 exposed kong, 2 concealed kong)."""
MELD_PUBLIC = {"peng": "peng", "direct": "kong", "added": "kong", "concealed": "concealed_kong"}
"""Engine meld ``how`` -> the public meld type of :class:`~xueliu.tiles.Meld` and observations."""
BLOCK_ANY = 1 << 30
"""A 过水 block no fan beats (``pass_blocks_discard_win = "any"``)."""
AFTERS = {n: tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n)) for n in (2, 3, 4)}
"""Per seat count: the other seats in turn order after each seat (``AFTERS[n][s]``)."""
AFTER = AFTERS[4]
"""The three other seats in turn order after each seat of the four-seat table."""
NEXT_IN_PLAY = {n: tuple(tuple((s + i) % n for i in range(1, n + 1)) for s in range(n))
                for n in (2, 3, 4)}
"""Per seat count: every seat in turn order after each seat, the seat itself last."""


class Kong:
    """One kong: who made it, how, and its money (dues fixed at declaration, amounts collected)."""

    __slots__ = ("seat", "kind", "how", "from_seat", "dues", "collected", "handed_over")

    def __init__(self, seat: int, kind: int, how: str, from_seat: Optional[int]) -> None:
        self.seat = seat
        self.kind = kind
        self.how = how  # "direct" | "added" | "concealed"
        self.from_seat = from_seat
        self.dues: List[Tuple[int, int]] = []  # (payer, units), kong_settle = "on_win"
        self.collected: List[Tuple[int, int]] = []  # (payer, amount actually moved)
        self.handed_over = False  # given away by 呼叫转移: never refunded


class HandData:
    """Everything a hand in progress holds. Tiles are kinds 0..26 (docs/rules.md §1), seats
    ``0..n - 1`` with ``n = rules.shape.players`` (docs/rules.md §11.1): every per-seat list has length n.

    Built dealt (docs/rules.md §10 "Deal and phases"); the first decision point is opened by
    :func:`~xueliu.game.state.new_game`.
    """

    # Slots: the hot path reads and writes these fields on every step, and a slot is the fastest
    # attribute CPython has (an instance with this many attributes otherwise gets a plain dict).
    __slots__ = ("rules", "seed", "dealer", "base", "dice", "_wall", "_exchange_die",
                 "_exchange_pick", "_break", "_answers", "_any_meld", "_auto", "_auto_flag",
                 "_auto_move", "_back", "_base_bonus", "_c_after_kong", "_c_forced", "_c_from",
                 "_c_kong", "_c_last", "_c_opts", "_c_rob", "_c_tile", "_core_melds",
                 "_decisions", "_dgh_discarder", "_dice_given", "_drawn", "_earthly", "_end_checks",
                 "_end_reason", "_escaped", "_ev", "_exchange", "_first_draw", "_forced_n",
                 "_front", "_frozen", "_haitei", "_hands", "_he", "_immediate", "_in_play",
                 "_initial_coins", "_kong_back", "_kongs", "_last_kong", "_ledger", "_legal",
                 "_melds", "_mult", "_mult_revealed", "_multi", "_pass_block", "_pass_rule",
                 "_pending", "_pending_kongs", "_phase", "_pm_allowed", "_pm_default", "_pwk",
                 "_rinshan", "_rivers", "_seen", "_set_aside", "_sp", "_stake",
                 "_turn", "_turn_kind", "_void", "_void_count", "_voids_revealed", "_waits",
                 "_wall_given", "_wins", "_won", "_win_tiles", "_open_melds", "_xueliu",
                 "_n", "_after", "_next_seats", "_shape", "_wins_to_end", "_self_draw_only",
                 "_rob_kong", "_min_fan", "_fresh_only", "_fresh", "_first_win_ends",
                 "_earthly_draw", "_earthly_discard", "_c_earthly",
                 "_wild", "_native", "_hard_double",
                 "__weakref__")

    def __init__(self, rules: Rules, seed: Optional[int], wall: Optional[List[int]], dealer: int,
                 coins: Optional[List[int]], dice: Optional[Tuple[int, int]]) -> None:
        r = rules
        self.rules = r
        self.seed = seed
        self.dealer = dealer
        self._wall_given = wall is not None
        self._dice_given = dice is not None
        self._initial_coins = None if coins is None else list(coins)
        # The table shape (docs/rules.md §11.1), read as data: seats, turn order, wall, deal.
        shape = self._shape = r.shape
        n = self._n = shape.players
        self._after = AFTERS[n]
        self._next_seats = NEXT_IN_PLAY[n]
        self._wins_to_end = n - 1  # xuezhan ends when all seats but one have won
        # Knobs read on the hot path, once.
        self._xueliu = r.mode == "xueliu"
        # 倒倒胡 (docs/rules.md §11.2): the first win (one self-draw, or every winner of one discard or
        # robbed kong) ends the hand. Its winners are marked as xuezhan's are (out of play), so
        # every `not _xueliu` branch reads it as xuezhan until that end.
        self._first_win_ends = r.mode == "daodaohu"
        # The core's shape code (seven_pairs in bit 0, then suits and hand size): 1 (True) at
        # the default table, so the waits calls are the same as before docs/rules.md §11.
        self._sp = shape.code
        self._he = bool(r.heavenly_earthly)
        # earthly_win (docs/rules.md §11.3): which wins may score 地胡 — a non-dealer's self-draw on its
        # first draw (the draws mark it: _earthly; the native draw hook reads _earthly_draw), a
        # win on the dealer's opening discard (the claim window marks it: _c_earthly), or both.
        # Without heavenly_earthly there is no 地胡 at all.
        self._earthly_draw = self._he and r.earthly_win != "first_discard"
        self._earthly_discard = self._he and r.earthly_win != "first_draw"
        self._kong_back = r.kong_draw_from == "back"
        self._pass_rule = {"off": 0, "not_higher": 1, "any": 2}[r.pass_blocks_discard_win]
        self._forced_n = int(r.forced_win_last_n or 0)
        self._multi = bool(r.multiple_winners)
        self._self_draw_only = bool(r.self_draw_only)  # 只能自摸: no discard or robbing win
        self._rob_kong = bool(r.rob_kong)  # off: an added kong opens no 抢杠胡 window
        # 起胡番: the least fan of a discard / robbing win; fan_table values are >= 1, so 1 restricts
        # nothing and the claim window evaluates nothing for it.
        self._min_fan = int(r.min_fan_discard_win)
        self._fresh_only = r.added_kong_payment == "fresh_only"  # 过手杠: only a fresh 补杠 pays
        self._fresh = 0  # fresh_only: kinds drawn this turn while it has replacement draws (bits)
        self._pwk = frozenset(r.post_win_kongs or ())
        self._immediate = r.kong_settle == "immediate"
        self._base_bonus = r.self_draw_bonus == "base"
        self._dgh_discarder = r.dian_gang_hua == "discarder"
        pm = r.player_multipliers
        self._pm_allowed: Optional[Tuple[int, ...]] = tuple(pm["allowed"]) if pm else None
        self._pm_default = int(pm["default"]) if pm else 1
        if r.base == "auto":
            if coins is None:
                raise ValueError('base="auto" needs coins (it is 1% of the smallest stack)')
            self.base = max(1, min(coins) // 100)
        else:
            self.base = int(r.base)
        self._stake = self.base * int(r.room)
        # soft_kong_pay = "hard_double" (docs/rules.md §12.3): a kong without a wild pays twice.
        self._hard_double = r.soft_kong_pay == "hard_double"
        # Wild tiles (docs/rules.md §12): hands, rivers and counts are indexed by the 28 physical
        # kinds (27: 红中) and the native hot paths, which know 27 kinds, are not used.
        self._wild: Optional[WildPlay] = WildPlay(r, n) if r.has_wilds else None
        self._native = self._wild is None

        # The wall in draw order, the dice and the two exchange-direction draws (docs/rules.md §2, §3.1).
        self._wall, rolled, self._exchange_die, self._exchange_pick = roll(
            seed, wall, shape, r.extra_wilds)
        self.dice = rolled if dice is None else dice  # rolled all the same: one stream per seed
        self._hands: List[bytearray] = (  # concealed counts per seat
            deal(self._wall, dealer, shape) if self._native
            else deal_by_plan(self._wall, dealer, shape, kinds=28))
        self._front = shape.dealt_tiles  # next live draw (wall[0:dealt_tiles] were dealt: 53)
        self._back = shape.wall_tiles - 1  # next "back" replacement; the live wall is [front, back]

        # [how, kind, from_seat] per meld; a list because an added kong turns "peng" into "added".
        self._melds: List[List[List[Any]]] = [[] for _ in range(n)]
        self._core_melds: List[List[CoreMeld]] = [[] for _ in range(n)]  # (core type, kind[, wilds])
        # The melds as every seat sees them: (core type, kind), a concealed kong's kind -1.
        self._open_melds: List[List[Tuple[int, int]]] = [[] for _ in range(n)]
        self._rivers: List[List[int]] = [[] for _ in range(n)]  # discards still in front of each seat
        self._void = [-1] * n  # declared void suit (-1: none yet / no 定缺)
        self._void_count = [0] * n  # tiles of its void suit a seat still holds
        self._voids_revealed = False
        self._mult = [1] * n  # 选倍 player multipliers
        self._mult_revealed = False
        self._waits = [0] * n  # bitmask of each seat's waits (0 while it holds void tiles)
        self._in_play = [True] * n  # xuezhan winners leave play
        self._frozen = [False] * n  # xueliu winners' hands are frozen
        self._won: List[List[int]] = [[] for _ in range(n)]  # win orders per seat
        self._win_tiles: List[Tuple[int, int]] = []  # (seat, kind) of each win, in order
        self._set_aside: List[int] = []  # winning tiles set aside face up
        # Copies of each kind every seat can see: discards in the rivers, exposed melds (peng 3,
        # direct or added kong 4) and set-aside winning tiles; kept up to date where those change.
        self._seen = [0] * (27 if self._native else 28)
        self._auto = [False] * n  # 托管 auto-play
        self._escaped = [False] * n
        self._pass_block: List[Optional[int]] = [None] * n  # 过水 (highest fan passed)
        self._first_draw = [s != dealer for s in range(n)]  # for 地胡
        self._any_meld = False  # any peng or kong yet (地胡)
        self._exchange: Optional[Dict[str, Any]] = None  # direction, die, given, received
        self._kongs: List[Kong] = []
        self._pending_kongs: List[List[Kong]] = [[] for _ in range(n)]  # kong_settle = "on_win" dues
        self._wins: List[Win] = []
        self._end_checks: Optional[List[EndCheck]] = None
        self._end_reason: Optional[str] = None
        self._ev: List[Tuple[Any, ...]] = []  # events as small tuples, rendered by events.py
        self._ledger = Ledger(coins, self._ev, n)
        # (seat, action id | "timeout" | "escape" | "cancel_auto_play"), in the order applied. Its length counts the
        # steps: seat views cache what does not change within one.
        self._decisions: List[Tuple[int, Any]] = []

        # The decision point: who must answer, what each may do, the answers so far, and an
        # automatic turn move the engine plays itself.
        self._phase = PH_EXCHANGE
        self._pending: Sequence[int] = []  # a shared tuple on a turn (draw.py)
        self._legal: Dict[int, List[Action]] = {}
        self._answers: Dict[int, Action] = {}
        self._auto_move: Optional[Tuple[int, Action]] = None
        self._auto_flag = False  # the turn move being applied is automatic
        # The turn.
        self._turn = dealer
        self._drawn = -1  # the tile just drawn (-1: none, e.g. after a peng)
        self._turn_kind = TK_FIRST
        self._rinshan = False  # the draw was a kong replacement
        self._last_kong: Optional[Kong] = None  # the kong whose replacement was drawn
        self._haitei = False  # the draw emptied the live wall
        self._earthly = False  # this draw may win 地胡
        # The claim window.
        self._c_tile = -1
        self._c_from = -1
        self._c_rob = False  # an added kong that may be robbed
        self._c_after_kong = False  # 杠上炮: the discard follows its discarder's replacement draw
        self._c_last = False  # the discard follows the last wall tile
        self._c_kong: Optional[Kong] = None
        self._c_opts: Dict[int, int] = {}  # seat -> bits: 1 hu, 2 kong, 4 peng
        self._c_forced = False  # forced_win_last_n took the wins
        self._c_earthly = False  # the dealer's opening discard, before any kong: 地胡 to win on it

        self._break = break_point(dealer, self.dice, shape)  # (wall seat, stack) where it was broken

    # ---- small shared helpers
    def _seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"a seat is an int 0..{self._n - 1}, got {type(seat).__name__}")
        if not 0 <= seat < self._n:
            raise ValueError(f"a seat is 0..{self._n - 1} at this table, got {seat}")
        return int(seat)

    def _hand_text(self, counts: Sequence[int], seat: int) -> str:
        """The seat's hand in notation (a win's record, the review): wilds as held (§12.5)."""
        if self._wild is not None:
            return self._wild.text(counts, self._melds[seat], self._wild.meld_wilds[seat])
        return str(self._public_hand(counts, seat))

    def _public_hand(self, counts: Sequence[int], seat: int) -> Hand:
        melds = tuple(Meld(MELD_PUBLIC[m[0]], TILE_NAMES[m[1]]) for m in self._melds[seat])
        return Hand(np.array(counts, dtype=np.uint8), melds)

    def _unit(self, payer: Optional[int], payee: Optional[int]) -> int:
        """One stake between two seats (docs/rules.md §10 "Payments"); the house has multiplier 1."""
        m = self._mult
        return self._stake * (1 if payer is None else m[payer]) * (1 if payee is None else m[payee])

    def _next_in_play(self, seat: int) -> int:
        in_play = self._in_play
        for s in self._next_seats[seat]:
            if in_play[s]:
                return s
        raise AssertionError("no seat in play")

    def _update_waits(self, s: int) -> None:
        if self._void_count[s]:
            self._waits[s] = 0
        elif self._wild is not None:
            self._waits[s] = self._wild.waits(self._wild_hand(s), self._void[s])
        else:
            self._waits[s] = _core.waits(_core.Hand(bytes(self._hands[s]), self._core_melds[s]),
                                         self._void[s], self._sp)

    def _wild_hand(self, s: int, counts: Optional[Sequence[int]] = None) -> _core.Hand:
        """Seat ``s``'s hand (its concealed ``counts``, by default its own) as the core reads it
        at a table with wild tiles: natural counts, wilds, soft melds (wild_play.py)."""
        w = self._wild
        assert w is not None
        return w.hand(self._hands[s] if counts is None else counts, self._core_melds[s])

    def _waits_after_kong(self, s: int, k: int, how: str) -> int:
        """A frozen xueliu seat's waits were its kong of the natural ``k`` made (without wilds)."""
        h = list(self._hands[s])
        melds = list(self._core_melds[s])
        if how == "concealed":
            h[k] -= 4
            melds.append((2, k))
        elif how == "added":
            h[k] -= 1
            i = next(i for i, m in enumerate(melds) if m[0] == 0 and m[1] == k)
            m = melds[i]
            melds[i] = (1, k, m[2]) if len(m) == 3 else (1, k)
        else:
            h[k] -= 3
            melds.append((1, k))
        if self._wild is not None:
            return self._wild.waits(self._wild.hand(h, melds), self._void[s])
        return _core.waits(_core.Hand(bytes(h), melds), self._void[s], self._sp)

    def _evaluate(self, s: int, counts: Sequence[int], k: int, *, self_draw: bool = False,
                  replacement: bool = False, after_kong: bool = False, robbed: bool = False,
                  last: bool = False, heavenly: bool = False, earthly: bool = False,
                  rules: Optional[Rules] = None) -> FanResult:
        """What :func:`xueliu.evaluate` gives for this win, straight from the core (no public
        ``Hand`` to build: this runs for every win and every ready seat at the end)."""
        flags = _evaluate_flags(self_draw, replacement, after_kong, robbed, last, heavenly, earthly)
        w = self._wild
        if w is not None:  # the best reading of the wilds (or 四鸡); a wild winning tile is 27
            scoring = w.scoring if rules is None else w.scoring_for(rules)
            return _fan_result(_core.evaluate(self._wild_hand(s, counts), self._void[s], scoring,
                                              w.bit[k] if k >= 0 else -1, flags))
        scoring = (rules or self.rules)._scoring
        return _fan_result(_core.evaluate(_core.Hand(bytes(counts), self._core_melds[s]),
                                          self._void[s], scoring, k, flags))
