"""One hand of 血流成河 / 血战到底: the state machine of RULES §2–§10.

>>> import xueliu
>>> state = xueliu.new_game("xueliu", seed=7)
>>> while not state.is_over:                     # doctest: +SKIP
...     seat = state.pending()[0]
...     state.step({seat: state.legal_actions(seat)[0]})

The state is stepped with joint decisions ``{seat: action}``. Everything a seat may do is
precomputed when a decision point opens (``self._legal``), and each seat's waits are cached and
recomputed by the core only when that seat's hand changes, so a step is a few dictionary and list
operations. Automatic moves (auto-play, forced last-tile wins, a frozen xueliu hand's discard) are
played inside ``step`` until someone must decide.
"""

from __future__ import annotations

import secrets
from itertools import combinations_with_replacement, compress
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from xueliu import _core
from .._hand import FanResult, _evaluate_flags, _fan_result
from xueliu.rules import Rules
from ..settlement import EndCheck, Ledger, Settlement, Transfer, Win, settle_end_of_hand
from xueliu.tiles import TILE_NAMES, Hand, Meld
from . import observation as _view
from .actions import (
    ADDED_KONG, CONCEALED_KONG, DISCARD, EXCHANGE_BASE, HU, HU_ID, KONG, MULTIPLIER_BASE, PASS,
    PENG, TRIPLES, VOID, Action, exchange_action, multiplier_action,
)
from .wall import SplitMix64, break_point, physical_layout, seed_from_tiles, shuffled_wall

PH_EXCHANGE, PH_VOID, PH_MULTIPLIER, PH_TURN, PH_CLAIM, PH_OVER = range(6)
PHASE_NAMES = ("exchange", "void", "multiplier", "turn", "claim", "over")

# How the seat on turn got its tiles: a draw, the dealer's opening 14, or a peng.
TK_DRAW, TK_FIRST, TK_PENG = 0, 1, 2

_MELD_TYPE = {"peng": 0, "direct": 1, "added": 1, "concealed": 2}
_MELD_PUBLIC = {"peng": "peng", "direct": "kong", "added": "kong", "concealed": "concealed_kong"}
_DIRECTIONS = ("next", "opposite", "previous")
_BLOCK_ANY = 1 << 30
# The three other seats in turn order after each seat.
_AFTER = tuple(((s + 1) % 4, (s + 2) % 4, (s + 3) % 4) for s in range(4))


class _Kong:
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


def new_game(rules: Union[str, Rules] = "xueliu", *, seed: Optional[int] = None,
             wall: Optional[Sequence[str]] = None, dealer: int = 0,
             coins: Optional[Sequence[int]] = None) -> "GameState":
    """A new hand, dealt and waiting for the first decisions.

    ``rules`` is a preset name or a :class:`~xueliu.Rules`; ``wall`` the 108 tile names in draw
    order (scripted tests, servers that shuffle elsewhere), otherwise our own PRNG shuffles from
    ``seed`` (a fresh random seed when None; it is kept in the record). The dice come from ``seed``
    too (from a hash of the wall when only a wall is given).

    >>> state = new_game("xuezhan", seed=1, coins=[1000] * 4)
    >>> state.pending()
    [0, 1, 2, 3]
    """
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a preset name or a Rules, got {type(rules).__name__}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    if rules.multipliers is not None and len(rules.multipliers) < rules.highest_fan():
        # A win beyond the table would fail half-way through a step; refuse the game up front.
        raise ValueError(
            f"multipliers has {len(rules.multipliers)} entries but a win can reach "
            f"{rules.highest_fan()} fan under these rules; extend the table or set max_fan")
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise TypeError(f"dealer must be an int 0..3, got {type(dealer).__name__}")
    if not 0 <= dealer <= 3:
        raise ValueError(f"dealer must be a seat 0..3, got {dealer}")
    if coins is not None:
        if isinstance(coins, (str, bytes)) or len(coins) != 4:
            raise ValueError(f"coins must be four non-negative ints, got {coins!r}")
        coins = list(coins)
        for c in coins:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0:
                raise ValueError(f"coins must be four non-negative ints, got {coins!r}")
        coins = [int(c) for c in coins]
    kinds: Optional[List[int]] = None
    if wall is not None:
        kinds = _parse_wall(wall)
    elif seed is None:
        seed = secrets.randbits(64)
    return GameState(rules, seed, kinds, dealer, coins)


def _parse_wall(wall: Sequence[str]) -> List[int]:
    if isinstance(wall, (str, bytes)):
        raise ValueError("wall must be a sequence of 108 tile names, not one string")
    index = {n: k for k, n in enumerate(TILE_NAMES)}
    kinds = []
    for i, t in enumerate(wall):
        k = index.get(t) if isinstance(t, str) else None
        if k is None:
            raise ValueError(f"wall[{i}] is not a tile name: {t!r}")
        kinds.append(k)
    if len(kinds) != 108:
        raise ValueError(f"a wall holds 108 tiles, got {len(kinds)}")
    counts = [0] * 27
    for k in kinds:
        counts[k] += 1
    for k, c in enumerate(counts):
        if c != 4:
            raise ValueError(f"a wall holds four of each tile, got {c} of {TILE_NAMES[k]}")
    return kinds


class GameState:
    """One hand in progress. Build it with :func:`new_game`; see the module docstring."""

    def __init__(self, rules: Rules, seed: Optional[int], wall: Optional[List[int]], dealer: int,
                 coins: Optional[List[int]]) -> None:
        r = rules
        self.rules = r
        self.seed = seed
        self.dealer = dealer
        self._wall_given = wall is not None
        self._initial_coins = None if coins is None else list(coins)
        # Knobs read on the hot path, once.
        self._xueliu = r.mode == "xueliu"
        self._sp = bool(r.seven_pairs)
        self._he = bool(r.heavenly_earthly)
        self._kong_back = r.kong_draw_from == "back"
        self._pass_rule = {"off": 0, "not_higher": 1, "any": 2}[r.pass_blocks_discard_win]
        self._forced_n = int(r.forced_win_last_n or 0)
        self._multi = bool(r.multiple_winners)
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

        rng = SplitMix64(seed if seed is not None else seed_from_tiles(wall or []))
        if wall is None:
            wall = shuffled_wall(rng)
        self._wall: List[int] = wall
        # The rng is read in one fixed order whatever the knobs, so a seed means one game.
        self.dice = (rng.die(), rng.die())
        self._exchange_die = rng.die()
        self._exchange_pick = rng.below(3)

        self._hands: List[List[int]] = [[0] * 27 for _ in range(4)]
        for take in range(12):
            seat = (dealer + take) % 4
            for k in wall[4 * take:4 * take + 4]:
                self._hands[seat][k] += 1
        self._hands[dealer][wall[48]] += 1
        self._hands[dealer][wall[49]] += 1
        for i in range(3):
            self._hands[(dealer + 1 + i) % 4][wall[50 + i]] += 1
        self._front = 53
        self._back = 107

        # [how, kind, from_seat] per meld; a list because an added kong turns "peng" into "added".
        self._melds: List[List[List[Any]]] = [[], [], [], []]
        self._core_melds: List[List[Tuple[int, int]]] = [[], [], [], []]
        self._rivers: List[List[int]] = [[], [], [], []]
        self._void = [-1, -1, -1, -1]
        self._void_count = [0, 0, 0, 0]
        self._voids_revealed = False
        self._mult = [1, 1, 1, 1]
        self._mult_revealed = False
        self._waits = [0, 0, 0, 0]
        self._in_play = [True, True, True, True]
        self._frozen = [False, False, False, False]
        self._won: List[List[int]] = [[], [], [], []]
        self._set_aside: List[int] = []
        self._auto = [False, False, False, False]
        self._escaped = [False, False, False, False]
        self._timeouts = [0, 0, 0, 0]
        self._pass_block: List[Optional[int]] = [None, None, None, None]
        self._first_draw = [s != dealer for s in range(4)]
        self._any_meld = False
        self._exchange: Optional[Dict[str, Any]] = None
        self._kongs: List[_Kong] = []
        self._pending_kongs: List[List[_Kong]] = [[], [], [], []]
        self._wins: List[Win] = []
        self._end_checks: Optional[List[EndCheck]] = None
        self._end_reason: Optional[str] = None
        self._ledger = Ledger(coins)
        self._ledger.listener = self._on_transfer
        self._ev: List[Tuple[Any, ...]] = []
        self._decisions: List[List[Any]] = []  # [seat, action id | "timeout" | "escape"]

        # Decision point.
        self._phase = PH_EXCHANGE
        self._pending: List[int] = []
        self._legal: Dict[int, List[Action]] = {}
        self._answers: Dict[int, Action] = {}
        self._auto_move: Optional[Tuple[int, Action]] = None
        self._auto_flag = False
        # Turn.
        self._turn = dealer
        self._drawn = -1
        self._turn_kind = TK_FIRST
        self._rinshan = False
        self._last_kong: Optional[_Kong] = None
        self._haitei = False
        self._earthly = False
        # Claim window.
        self._c_tile = -1
        self._c_from = -1
        self._c_rob = False
        self._c_after_kong = False
        self._c_last = False
        self._c_kong: Optional[_Kong] = None
        self._c_opts: Dict[int, int] = {}
        self._c_forced = False

        self._break = bp = break_point(dealer, self.dice)
        # Seat views: pieces cached between observations, refreshed once per step (_tick).
        self._tick = 0
        self._views = _view.ViewCache()
        self._ev.append(("start_hand", [list(h) for h in self._hands], bp))  # counts
        if r.exchange_three:
            self._enter_joint(PH_EXCHANGE)
        else:
            self._after_exchange()
        self._flow()

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        return self._phase == PH_OVER

    @property
    def phase(self) -> str:
        """``"exchange"``, ``"void"``, ``"multiplier"``, ``"turn"``, ``"claim"`` or ``"over"``."""
        return PHASE_NAMES[self._phase]

    @property
    def turn(self) -> int:
        """The seat whose turn it is (or whose discard is being claimed)."""
        return self._c_from if self._phase == PH_CLAIM else self._turn

    @property
    def wall_remaining(self) -> int:
        """Tiles left in the live wall."""
        return self._back - self._front + 1

    @property
    def break_point(self) -> Tuple[int, int]:
        """(wall seat, stack counted from that wall's right end) where the wall was broken."""
        return self._break

    def wall_layout(self) -> List[Tuple[int, int, int]]:
        """Physical position ``(wall seat, stack, layer)`` of each draw-order index (display)."""
        return physical_layout(self.dealer, self.dice)

    @property
    def wall(self) -> List[str]:
        """The 108 tiles in draw order (hidden information: for scripted tests and servers)."""
        return [TILE_NAMES[k] for k in self._wall]

    def hand(self, seat: int) -> Hand:
        """The seat's concealed tiles and melds (hidden information: not for bots)."""
        seat = self._seat(seat)
        return self._public_hand(self._hands[seat], seat)

    @property
    def voids(self) -> List[Optional[str]]:
        return [None if v < 0 else "mps"[v] for v in self._void] if self._voids_revealed else [None] * 4

    @property
    def multipliers(self) -> List[int]:
        return list(self._mult)

    @property
    def coins(self) -> Optional[List[int]]:
        c = self._ledger.coins
        return None if c is None else list(c)

    @property
    def auto_play(self) -> List[bool]:
        return list(self._auto)

    def pending(self) -> List[int]:
        """The seats that must decide now, in seat order (empty once the hand is over)."""
        return list(self._pending)

    def legal_actions(self, seat: int) -> List[Action]:
        """What ``seat`` may do now (empty when it is not pending)."""
        if seat not in self._pending:
            return []
        lst = self._legal.get(seat)
        if lst is None:
            lst = self._joint_legal(seat)
        return list(lst)

    def step(self, actions: Mapping[int, Union[Action, int]]) -> None:
        """Applies the decisions of some pending seats. Everything is checked first: an illegal
        action or a seat that is not pending raises ``ValueError`` and changes nothing."""
        if actions.__class__ is not dict and not isinstance(actions, Mapping):
            raise TypeError(f"step takes a dict {{seat: action}}, got {type(actions).__name__}")
        if self._phase == PH_OVER:
            raise ValueError("the hand is over")
        if not actions:
            raise ValueError("step needs the action of at least one pending seat")
        pending = self._pending
        chosen = []
        for seat, action in actions.items():
            if seat.__class__ is not int:
                if not isinstance(seat, np.integer):
                    raise TypeError(f"a seat is an int 0..3, got {type(seat).__name__}")
                seat = int(seat)
            if seat not in pending:
                raise ValueError(f"seat {seat!r} is not pending (pending: {pending})")
            if action.__class__ is not Action:
                action = self._coerce(action)
            legal = self._legal.get(seat)
            if legal is None:
                legal = self._joint_legal(seat)
            if action not in legal:
                raise ValueError(f"{action!r} is not legal for seat {seat} now; legal: "
                                 + ", ".join(repr(a) for a in legal[:12])
                                 + (" ..." if len(legal) > 12 else ""))
            chosen.append((seat, action))
        if len(chosen) > 1:
            chosen.sort(key=_first)
        self._tick += 1
        decisions = self._decisions
        for seat, action in chosen:
            decisions.append([seat, action.id])
            self._timeouts[seat] = 0
            self._answer(seat, action)
        if self._auto_move is not None:
            self._flow()

    def apply_timeout(self, seat: int) -> Action:
        """Takes the default action of RULES §8 for a pending seat; two timeouts in a row switch
        the seat to auto-play (托管). Returns the action taken."""
        if self._phase == PH_OVER:
            raise ValueError("the hand is over")
        if seat not in self._pending or isinstance(seat, bool):
            raise ValueError(f"seat {seat!r} is not pending (pending: {self._pending})")
        action = self._default(seat)
        self._tick += 1
        self._decisions.append([seat, "timeout"])
        self._ev.append(("timeout", seat))
        self._timeouts[seat] += 1
        if self._timeouts[seat] >= 2 and not self._auto[seat]:
            self._auto[seat] = True
            self._ev.append(("auto_play", seat))
        self._answer(seat, action)
        self._flow()
        return action

    def escape(self, seat: int) -> None:
        """The seat leaves the table (逃跑/断线): it pays the escape penalty to the house now and is
        auto-played to the end of the hand."""
        seat = self._seat(seat)
        if self._phase == PH_OVER:
            raise ValueError("the hand is over")
        if self._escaped[seat]:
            raise ValueError(f"seat {seat} has already escaped")
        self._tick += 1
        self._decisions.append([seat, "escape"])
        self._escaped[seat] = True
        self._ev.append(("escape", seat))
        m = self._mult[seat] if self._mult_revealed else self._pm_default
        self._ledger.pay(seat, None, int(self.rules.escape_penalty) * self._stake * m, "escape",
                         f"seat {seat} escaped")
        if not self._auto[seat]:
            self._auto[seat] = True
            self._ev.append(("auto_play", seat))
        if seat in self._pending:
            self._answer(seat, self._default(seat))
        self._flow()

    def observation(self, seat: Optional[int]) -> Dict[str, Any]:
        """What ``seat`` may see now (RULES §7 "Hidden information"), JSON-serialisable.
        ``None`` gives the omniscient view (every hand; for servers, logs and tests)."""
        return _view.observation(self, None if seat is None else self._seat(seat))

    def events(self, seat: Optional[int] = None) -> List[Dict[str, Any]]:
        """The event stream (docs/events.md): whole, or as ``seat`` sees it (hidden tiles "?")."""
        return _view.render_events(self, None if seat is None else self._seat(seat))

    def settlement(self) -> Settlement:
        """The ledger so far (final once ``is_over``)."""
        led = self._ledger
        income = [0, 0, 0, 0]
        for t in led.transfers:
            if t.reason == "gang" and t.payee is not None:  # a kong is paid to its konger
                income[t.payee] += t.amount
        return Settlement(
            transfers=list(led.transfers), net=list(led.net), wins=list(self._wins),
            end_checks=None if self._end_checks is None else [c.copy() for c in self._end_checks],
            coins=None if led.coins is None else list(led.coins), base=self.base,
            final=self._phase == PH_OVER, dealer=self.dealer, mode=self.rules.mode,
            end_reason=self._end_reason, kong_income=income,
            multipliers=list(self._mult) if self._mult_revealed else None)

    def record(self) -> Dict[str, Any]:
        """JSON-serialisable record: replay it with :func:`xueliu.replay`."""
        from xueliu.record import record
        return record(self)

    def __repr__(self) -> str:
        return (f"<GameState {self.rules.mode} dealer={self.dealer} phase={self.phase} "
                f"wall={self.wall_remaining} pending={self._pending}>")

    # ------------------------------------------------------------------ helpers
    def _seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"a seat is an int 0..3, got {type(seat).__name__}")
        if not 0 <= seat <= 3:
            raise ValueError(f"a seat is 0..3, got {seat}")
        return int(seat)

    def _coerce(self, action: Any) -> Action:
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            return Action.from_id(int(action))
        if isinstance(action, Action):
            return action
        raise TypeError(f"an action is an Action or its int id, got {type(action).__name__}")

    def _public_hand(self, counts: Sequence[int], seat: int) -> Hand:
        melds = tuple(Meld(_MELD_PUBLIC[m[0]], TILE_NAMES[m[1]]) for m in self._melds[seat])
        return Hand(np.array(counts, dtype=np.uint8), melds)

    def _unit(self, payer: Optional[int], payee: Optional[int]) -> int:
        m = self._mult
        return self._stake * (1 if payer is None else m[payer]) * (1 if payee is None else m[payee])

    def _next_in_play(self, seat: int) -> int:
        in_play = self._in_play
        for i in (1, 2, 3, 4):
            s = (seat + i) & 3
            if in_play[s]:
                return s
        raise AssertionError("no seat in play")

    def _update_waits(self, s: int) -> None:
        if self._void_count[s]:
            self._waits[s] = 0
        else:
            self._waits[s] = _core.waits(_core.Hand(bytes(self._hands[s]), self._core_melds[s]),
                                         self._void[s], self._sp)

    def _waits_after_kong(self, s: int, k: int, how: str) -> int:
        h = list(self._hands[s])
        melds = list(self._core_melds[s])
        if how == "concealed":
            h[k] -= 4
            melds.append((2, k))
        elif how == "added":
            h[k] -= 1
            melds[melds.index((0, k))] = (1, k)
        else:
            h[k] -= 3
            melds.append((1, k))
        return _core.waits(_core.Hand(bytes(h), melds), self._void[s], self._sp)

    def _on_transfer(self, t: Transfer) -> None:
        self._ev.append(("pay", len(self._ledger.transfers) - 1))

    # ------------------------------------------------------------------ flow
    def _flow(self) -> None:
        """Plays automatic turn moves until a seat must decide or the hand is over."""
        while self._auto_move is not None:
            seat, action = self._auto_move
            self._auto_move = None
            self._auto_flag = True
            self._apply_turn(seat, action)
            self._auto_flag = False

    def _answer(self, seat: int, action: Action) -> None:
        ph = self._phase
        if ph == PH_TURN:
            self._pending = []
            self._apply_turn(seat, action)
            return
        self._answers[seat] = action
        self._pending.remove(seat)
        if not self._pending:
            if ph == PH_CLAIM:
                self._resolve_claims()
            else:
                self._resolve_joint()

    # ---- exchange / void / multiplier
    def _enter_joint(self, ph: int) -> None:
        self._phase = ph
        self._answers = {}
        self._legal = {}
        self._pending = [s for s in range(4) if not self._auto[s]]
        for s in range(4):
            if self._auto[s]:
                self._answers[s] = self._default(s)
        if not self._pending:
            self._resolve_joint()

    def _joint_legal(self, seat: int) -> List[Action]:
        ph = self._phase
        if ph == PH_EXCHANGE:
            lst = self._exchange_options(seat)
        elif ph == PH_VOID:
            lst = list(VOID)
        elif ph == PH_MULTIPLIER:
            assert self._pm_allowed is not None  # the phase exists only with the knob
            lst = [multiplier_action(v) for v in self._pm_allowed]
        else:
            return []
        self._legal[seat] = lst
        return lst

    def _exchange_options(self, seat: int) -> List[Action]:
        h = self._hands[seat]
        if self.rules.exchange_same_suit:
            out: List[Action] = []
            for u in range(3):
                out.extend(_exchange_triples(u, tuple(h[9 * u:9 * u + 9])))
            return out
        return list(_triples_of(h, range(27)))

    def _resolve_joint(self) -> None:
        ph = self._phase
        ans = self._answers
        if ph == PH_EXCHANGE:
            rule = self.rules.exchange_direction
            die = None
            if rule == "dice":
                die = self._exchange_die
                direction = _DIRECTIONS[(die - 1) // 2]
            elif rule == "random":
                direction = _DIRECTIONS[self._exchange_pick]
            else:
                direction = rule
            shift = {"next": 1, "opposite": 2, "previous": 3}[direction]
            # An exchange action's id is its sorted kind triple.
            given = [list(TRIPLES[ans[s].id - EXCHANGE_BASE]) for s in range(4)]
            received = [given[(s + shift) & 3] for s in range(4)]
            for s in range(4):
                h = self._hands[s]
                for k in given[s]:
                    h[k] -= 1
                for k in received[s]:
                    h[k] += 1
            self._exchange = {"direction": direction, "die": die, "given": given,
                              "received": received}
            self._ev.append(("huansanzhang", direction, die, given, received))
            self._after_exchange()
        elif ph == PH_VOID:
            for s in range(4):
                v = VOID.index(ans[s])
                self._void[s] = v
                self._void_count[s] = sum(self._hands[s][9 * v:9 * v + 9])
            self._voids_revealed = True
            self._ev.append(("dingque", list(self._void)))
            self._after_void()
        elif ph == PH_MULTIPLIER:
            self._mult = [ans[s].id - MULTIPLIER_BASE + 1 for s in range(4)]  # id -> value
            self._mult_revealed = True
            self._ev.append(("xuanbei", list(self._mult)))
            self._start_play()

    def _after_exchange(self) -> None:
        if self.rules.declare_void:
            self._enter_joint(PH_VOID)
        else:
            self._after_void()

    def _after_void(self) -> None:
        if self._pm_allowed:
            self._enter_joint(PH_MULTIPLIER)
        else:
            self._start_play()

    def _start_play(self) -> None:
        for s in range(4):
            if s != self.dealer:
                self._update_waits(s)
        self._answers = {}
        self._phase = PH_TURN
        self._turn = self.dealer
        self._drawn = -1
        self._turn_kind = TK_FIRST
        self._open_turn()

    # ---- turns
    def _draw(self, s: int, replacement: bool = False, kong: Optional[_Kong] = None) -> None:
        front, back = self._front, self._back
        if back < front:
            self._end_by_wall()
            return
        if replacement and self._kong_back:
            k = self._wall[back]
            self._back = back - 1
        else:
            k = self._wall[front]
            self._front = front + 1
        self._hands[s][k] += 1
        if k // 9 == self._void[s]:
            self._void_count[s] += 1
        self._pass_block[s] = None
        self._earthly = self._he and self._first_draw[s] and not self._any_meld and not replacement
        self._first_draw[s] = False
        self._phase = PH_TURN
        self._turn = s
        self._drawn = k
        self._turn_kind = TK_DRAW
        self._rinshan = replacement
        self._last_kong = kong
        self._haitei = self._back < self._front
        self._ev.append(("tsumo", s, k, replacement))
        self._open_turn()

    def _open_turn(self) -> None:
        s = self._turn
        h = self._hands[s]
        k = self._drawn
        live = self._back - self._front + 1
        can_hu = False
        if self._frozen[s]:
            legal = [DISCARD[k]]
            if live > 0:
                pwk = self._pwk
                if h[k] == 4 and "concealed" in pwk \
                        and self._waits_after_kong(s, k, "concealed") == self._waits[s]:
                    legal.append(CONCEALED_KONG[k])
                if "added" in pwk and (0, k) in self._core_melds[s] \
                        and self._waits_after_kong(s, k, "added") == self._waits[s]:
                    legal.append(ADDED_KONG[k])
            can_hu = (self._waits[s] >> k) & 1 == 1
            if not can_hu and len(legal) == 1:
                self._legal = {s: legal}
                self._pending = []
                self._auto_move = (s, legal[0])
                return
        else:
            tk = self._turn_kind
            if self._void_count[s]:
                v = 9 * self._void[s]
                legal = list(compress(DISCARD[v:v + 9], h[v:v + 9]))
            else:
                legal = list(compress(DISCARD, h))
                if tk != TK_PENG:
                    if live > 0:
                        if 4 in h:
                            legal.extend(CONCEALED_KONG[j] for j, c in enumerate(h) if c == 4)
                        if self._melds[s]:
                            adds = sorted(m[1] for m in self._melds[s] if m[0] == "peng" and h[m[1]])
                            legal.extend(ADDED_KONG[j] for j in adds)
                    if tk == TK_DRAW:
                        can_hu = (self._waits[s] >> k) & 1 == 1
                    elif self._he:
                        can_hu = _core.is_win(_core.Hand(bytes(h), self._core_melds[s]),
                                              self._void[s], self._sp)
        if can_hu:
            legal.append(HU)
        self._legal = {s: legal}
        if can_hu and self._forced_n and live < self._forced_n:
            self._pending = []
            self._auto_move = (s, HU)
        elif self._auto[s]:
            self._pending = []
            self._auto_move = (s, self._default(s))
        else:
            self._pending = [s]

    def _apply_turn(self, s: int, action: Action) -> None:
        aid = action.id
        self._legal = {}
        if aid < 27:
            self._discard(s, aid)
        elif aid == HU_ID:
            self._self_draw_win(s)
        elif aid < 108:
            self._concealed_kong(s, aid - 81)
        else:
            self._declare_added_kong(s, aid - 108)

    def _discard(self, s: int, k: int) -> None:
        self._hands[s][k] -= 1
        if k // 9 == self._void[s]:
            self._void_count[s] -= 1
        self._rivers[s].append(k)
        self._ev.append(("dahai", s, k, k == self._drawn, self._auto_flag))
        self._update_waits(s)
        self._open_claims(s, k, False)

    def _concealed_kong(self, s: int, k: int) -> None:
        self._hands[s][k] -= 4
        self._add_meld(s, "concealed", k, None)
        self._ev.append(("ankan", s, k))
        self._kong_made(s, k, "concealed", None)

    def _declare_added_kong(self, s: int, k: int) -> None:
        # The tile leaves the hand now; it becomes a kong only if nobody robs it.
        self._hands[s][k] -= 1
        self._ev.append(("kakan", s, k))
        self._open_claims(s, k, True)

    def _complete_added_kong(self) -> None:
        s, k = self._c_from, self._c_tile
        for m in self._melds[s]:
            if m[0] == "peng" and m[1] == k:
                m[0] = "added"
        cm = self._core_melds[s]
        cm[cm.index((0, k))] = (1, k)
        self._any_meld = True
        self._kong_made(s, k, "added", None)

    def _add_meld(self, s: int, how: str, k: int, frm: Optional[int]) -> None:
        self._melds[s].append([how, k, frm])
        self._core_melds[s].append((_MELD_TYPE[how], k))
        self._any_meld = True

    def _kong_made(self, s: int, k: int, how: str, frm: Optional[int]) -> None:
        """A kong is complete: it is paid for, then its maker draws a replacement tile."""
        kong = _Kong(s, k, how, frm)
        self._kong_payments(kong)
        self._update_waits(s)
        self._draw(s, True, kong)

    def _kong_payments(self, kong: _Kong) -> None:
        s = kong.seat
        others = [p for p in _AFTER[s] if self._in_play[p]]
        how = kong.how
        if how == "direct":
            frm = kong.from_seat
            assert frm is not None  # a direct kong is made on someone's discard
            dko = int(self.rules.direct_kong_others)
            dues = [(frm, 2)] + [(p, dko) for p in others if p != frm]
            label = f"direct kong {TILE_NAMES[kong.kind]} on seat {frm}'s discard"
        elif how == "added":
            dues = [(p, 1) for p in others]
            label = f"added kong {TILE_NAMES[kong.kind]}"
        else:
            dues = [(p, 2) for p in others]
            label = "concealed kong"
        self._kongs.append(kong)
        if self._immediate:
            pay = self._ledger.pay
            for p, units in dues:
                if units:
                    amt = pay(p, s, units * self._unit(p, s), "gang", f"seat {s} {label}")
                    if amt:
                        kong.collected.append((p, amt))
        else:
            kong.dues = [(p, u) for p, u in dues if u]
            self._pending_kongs[s].append(kong)

    def _collect_on_win(self, w: int) -> None:
        pending = self._pending_kongs[w]
        if not pending:
            return
        self._pending_kongs[w] = []
        for kong in pending:
            label = {"direct": "direct kong", "added": "added kong",
                     "concealed": "concealed kong"}[kong.how]
            for p, units in kong.dues:
                if self._in_play[p]:
                    amt = self._ledger.pay(p, w, units * self._unit(p, w), "gang",
                                           f"seat {w} {label} collected on win")
                    if amt:
                        kong.collected.append((p, amt))

    # ---- claims (after a discard, or on an added kong that may be robbed)
    def _open_claims(self, frm: int, k: int, rob: bool) -> None:
        self._phase = PH_CLAIM
        self._c_tile = k
        self._c_from = frm
        self._c_rob = rob
        if rob:
            self._c_after_kong = False
            self._c_last = False
            self._c_kong = None
        else:
            self._c_after_kong = self._rinshan
            self._c_last = self._haitei
            self._c_kong = self._last_kong
        self._c_forced = False
        live = self._back - self._front + 1
        hands = self._hands
        waits = self._waits
        opts: Dict[int, int] = {}
        for s in _AFTER[frm]:
            if not self._in_play[s]:
                continue
            o = 0
            if (waits[s] >> k) & 1 and (self._pass_block[s] is None or self._beats_block(s)):
                o = 1
            if not rob and live > 0 and not self._void_count[s]:
                c = hands[s][k]
                if c >= 2:
                    if self._frozen[s]:
                        if c == 3 and "direct" in self._pwk \
                                and self._waits_after_kong(s, k, "direct") == waits[s]:
                            o |= 2
                    else:
                        o |= 6 if c == 3 else 4
            if o:
                opts[s] = o
        self._c_opts = opts
        self._answers = {}
        if not opts:
            self._pending = []
            self._legal = {}
            self._no_claim()
            return
        if self._forced_n and live < self._forced_n and any(o & 1 for o in opts.values()):
            self._c_forced = True
            self._answers = {s: HU for s, o in opts.items() if o & 1}
            self._pending = []
            self._legal = {}
            self._resolve_claims()
            return
        pending = []
        legal = {}
        for s in sorted(opts):
            o = opts[s]
            lst = []
            if o & 4:
                lst.append(PENG[k])
            if o & 2:
                lst.append(KONG[k])
            if o & 1:
                lst.append(HU)
            lst.append(PASS)
            legal[s] = lst
            if self._auto[s]:
                self._answers[s] = HU if o & 1 else PASS
            else:
                pending.append(s)
        self._legal = legal
        self._pending = pending
        if not pending:
            self._resolve_claims()

    def _beats_block(self, s: int) -> bool:
        """Whether a discard win now is allowed despite the seat's 过水 block."""
        if self._pass_rule == 2:
            return False
        block = self._pass_block[s]
        return block is None or self._claim_fan(s).fan > block

    def _claim_fan(self, s: int) -> FanResult:
        counts = list(self._hands[s])
        counts[self._c_tile] += 1
        return self._evaluate(s, counts, self._c_tile, robbed=self._c_rob,
                              after_kong=self._c_after_kong, last=self._c_last)

    def _no_claim(self) -> None:
        if self._c_rob:
            self._complete_added_kong()
        else:
            self._draw(self._next_in_play(self._c_from))

    def _resolve_claims(self) -> None:
        ans = self._answers
        frm = self._c_from
        order = _AFTER[frm]
        self._pending = []
        self._legal = {}
        if self._pass_rule and not self._c_forced:
            for s, o in self._c_opts.items():
                if o & 1 and ans.get(s) is not HU:
                    if self._pass_rule == 2:
                        self._pass_block[s] = _BLOCK_ANY
                    else:
                        fan = self._claim_fan(s).fan
                        prev = self._pass_block[s]
                        self._pass_block[s] = fan if prev is None else max(prev, fan)
        winners = [s for s in order if ans.get(s) is HU]
        if winners:
            if not self._multi:
                del winners[1:]
            self._discard_wins(winners)
            return
        for s in order:
            a = ans.get(s)
            if a is not None and a is not PASS:
                if a.id >= 54:
                    self._direct_kong(s)
                else:
                    self._peng(s)
                return
        self._no_claim()

    def _direct_kong(self, s: int) -> None:
        k, frm = self._c_tile, self._c_from
        self._rivers[frm].pop()
        self._hands[s][k] -= 3
        self._add_meld(s, "direct", k, frm)
        self._ev.append(("daiminkan", s, frm, k))
        self._kong_made(s, k, "direct", frm)

    def _peng(self, s: int) -> None:
        k, frm = self._c_tile, self._c_from
        self._rivers[frm].pop()
        self._hands[s][k] -= 2
        self._add_meld(s, "peng", k, frm)
        self._ev.append(("pon", s, frm, k))
        self._phase = PH_TURN
        self._turn = s
        self._drawn = -1
        self._turn_kind = TK_PENG
        self._rinshan = False
        self._last_kong = None
        self._haitei = False
        self._open_turn()

    # ---- wins
    def _evaluate(self, s: int, counts: Sequence[int], k: int, *, self_draw: bool = False,
                  replacement: bool = False, after_kong: bool = False, robbed: bool = False,
                  last: bool = False, heavenly: bool = False, earthly: bool = False,
                  rules: Optional[Rules] = None) -> FanResult:
        """What :func:`xueliu.evaluate` gives for this win, straight from the core (no public
        ``Hand`` to build: this runs for every win and every ready seat at the end)."""
        flags = _evaluate_flags(self_draw, replacement, after_kong, robbed, last, heavenly, earthly)
        scoring = (rules or self.rules)._scoring
        return _fan_result(_core.evaluate(_core.Hand(bytes(counts), self._core_melds[s]),
                                          self._void[s], scoring, k, flags))

    def _record_win(self, s: int, k: int, source: str, frm: Optional[int], res: FanResult,
                    counts: Sequence[int], flags: Tuple[str, ...], winners: Tuple[int, ...]) -> Win:
        hand = self._public_hand(counts, s)
        w = Win(order=len(self._wins) + 1, seat=s, tile=TILE_NAMES[k], source=source,
                from_seat=frm, fan_result=res, hand=str(hand), flags=flags, winners=winners)
        self._wins.append(w)
        self._won[s].append(w.order)
        self._ev.append(("hora", w.order - 1))
        return w

    def _self_draw_win(self, s: int) -> None:
        h = self._hands[s]
        heavenly = self._turn_kind == TK_FIRST
        k = max(j for j in range(27) if h[j]) if heavenly else self._drawn
        earthly = self._earthly and not heavenly
        res = self._evaluate(s, h, k, self_draw=True, replacement=self._rinshan,
                             last=self._haitei, heavenly=heavenly and self._he,
                             earthly=earthly and self._he)
        flags = tuple(name for name, on in (
            ("self_draw", True), ("kong_replacement", self._rinshan), ("last_tile", self._haitei),
            ("heavenly", heavenly), ("earthly", earthly)) if on)
        w = self._record_win(s, k, "self_draw", None, res, h, flags, (s,))
        h[k] -= 1
        self._set_aside.append(k)
        mult = res.multiplier
        pay = self._ledger.pay
        lk = self._last_kong
        detail = f"win {w.order}: {TILE_NAMES[k]} self-draw by seat {s}, {res.fan} fan"
        if self._dgh_discarder and self._rinshan and lk is not None and lk.how == "direct":
            p = lk.from_seat
            pay(p, s, self._unit(p, s) * mult, "hu", detail + " (点杠花: the kong's discarder pays)")
        else:
            bonus = 1 if self._base_bonus else 0
            if bonus:
                detail += " + 1 base (自摸加底)"
            for p in _AFTER[s]:
                if self._in_play[p]:
                    pay(p, s, self._unit(p, s) * (mult + bonus), "hu", detail)
        self._collect_on_win(s)
        if heavenly:
            self._update_waits(s)
        if self._after_win([s]):
            self._draw(self._next_in_play(s))

    def _discard_wins(self, winners: List[int]) -> None:
        k, frm, rob = self._c_tile, self._c_from, self._c_rob
        results = []
        for s in winners:
            counts = list(self._hands[s])
            counts[k] += 1
            res = self._evaluate(s, counts, k, robbed=rob, after_kong=self._c_after_kong,
                                 last=self._c_last)
            flags = tuple(name for name, on in (
                ("robbed_kong", rob), ("after_kong_discard", self._c_after_kong),
                ("last_tile", self._c_last)) if on)
            w = self._record_win(s, k, "robbed_kong" if rob else "discard", frm, res, counts, flags,
                                 tuple(winners))
            results.append((s, w))
        if not rob:
            self._rivers[frm].pop()
        self._set_aside.append(k)
        pay = self._ledger.pay
        how = "robbing the kong" if rob else "discard"
        for s, w in results:
            pay(frm, s, self._unit(frm, s) * w.fan_result.multiplier, "hu",
                f"win {w.order}: {TILE_NAMES[k]} {how} of seat {frm} to seat {s}, "
                f"{w.fan_result.fan} fan")
        kong = self._c_kong
        if self._c_after_kong and kong is not None and self.rules.call_transfer:
            amount = sum(a for _, a in kong.collected)
            if amount:
                kong.handed_over = True
                for s, w in results:
                    pay(frm, s, amount, "hujiaozhuanyi",
                        f"win {w.order}: seat {frm}'s kong income handed to seat {s}")
        self._mark_won(winners)
        # Co-winners of one discard leave (xuezhan) together, before on-win kong collections.
        for s in winners:
            self._collect_on_win(s)
        if rob:
            self._update_waits(frm)
        if self._after_win(winners):
            self._draw(self._next_in_play(winners[-1]))

    def _mark_won(self, winners: List[int]) -> None:
        for s in winners:
            if self._xueliu:
                self._frozen[s] = True
            else:
                self._in_play[s] = False

    def _after_win(self, winners: List[int]) -> bool:
        """Marks the winners; ends a xuezhan hand on its third win. True if play goes on."""
        self._mark_won(winners)
        if not self._xueliu and self._in_play.count(False) >= 3:
            self._end("three_wins")
            return False
        return True

    # ---- end of hand
    def _end_by_wall(self) -> None:
        """查花猪, 查大叫 and 退税 for the seats that never won (RULES §7, §10 "End of hand")."""
        r = self.rules
        won = [bool(w) for w in self._won]
        checks: List[EndCheck] = []
        visible = None  # what every seat sees: only the dead-waits knob needs it
        dajiao = _dajiao_rules(r)
        for s in range(4):
            held = list(self._hands[s])
            for m in self._melds[s]:
                held[m[1]] += 3 if m[0] == "peng" else 4
            suits = {k // 9 for k in range(27) if held[k]}
            pig = not won[s] and len(suits) == 3
            wait_mask = 0 if pig else self._waits[s]
            waits = [k for k in range(27) if wait_mask >> k & 1]
            ready = bool(waits)
            if ready and not r.dead_waits_ready:
                if visible is None:
                    visible = self._public_counts()
                own_exposed = self._exposed_counts(s)
                ready = any(4 - held[k] - (visible[k] - own_exposed[k]) > 0 for k in waits)
            # Every ready seat's 大叫 fan, also when nobody owes it: the report shows it.
            best: Optional[FanResult] = None
            for k in waits if ready else ():
                counts = list(self._hands[s])
                counts[k] += 1
                res = self._evaluate(s, counts, k, rules=dajiao)
                if best is None or res.multiplier > best.multiplier:
                    best = res
            checks.append({"seat": s, "won": won[s], "pig": pig, "ready": ready,
                           "waits": [TILE_NAMES[k] for k in waits],
                           "best_fan": None if best is None else best.fan,
                           "best_multiplier": None if best is None else best.multiplier})
        self._end_checks = checks
        self._ev.append(("end_checks",))
        settle_end_of_hand(self._ledger, r, self._unit, checks,
                           [(k.seat, k.collected) for k in self._kongs if not k.handed_over])
        self._end("wall_exhausted")

    def _public_counts(self) -> List[int]:
        """Copies of each kind every seat can see: discards, exposed melds, set-aside wins."""
        seen = [0] * 27
        for river in self._rivers:
            for k in river:
                seen[k] += 1
        for k in self._set_aside:
            seen[k] += 1
        for s in range(4):
            for k, c in enumerate(self._exposed_counts(s)):
                seen[k] += c
        return seen

    def _exposed_counts(self, s: int) -> List[int]:
        out = [0] * 27
        for how, k, _ in self._melds[s]:
            if how != "concealed":
                out[k] += 3 if how == "peng" else 4
        return out

    def _end(self, reason: str) -> None:
        fee = int(self.rules.service_fee)
        if fee:
            for s in range(4):
                self._ledger.pay(s, None, fee, "fee", "service fee")
        self._end_reason = reason
        self._phase = PH_OVER
        self._pending = []
        self._legal = {}
        self._auto_move = None
        self._ev.append(("end_hand", reason))

    # ---- defaults (RULES §8)
    def _default(self, s: int) -> Action:
        ph = self._phase
        h = self._hands[s]
        if ph == PH_EXCHANGE:
            sizes = [sum(h[9 * u:9 * u + 9]) for u in range(3)]
            u = min((n, u) for u, n in enumerate(sizes) if n >= 3)[1]  # shortest suit of 3+
            picked: List[int] = []
            for j in range(9 * u + 8, 9 * u - 1, -1):
                picked.extend([j] * min(h[j], 3 - len(picked)))
                if len(picked) == 3:
                    break
            picked.sort()
            return exchange_action(*picked)
        if ph == PH_VOID:
            sizes = [sum(h[9 * u:9 * u + 9]) for u in range(3)]
            return VOID[sizes.index(min(sizes))]
        if ph == PH_MULTIPLIER:
            return multiplier_action(self._pm_default)
        if ph == PH_CLAIM:
            return HU if self._c_opts.get(s, 0) & 1 else PASS
        legal = self._legal.get(s, ())
        if HU in legal:
            return HU
        k = self._drawn
        if k >= 0 and DISCARD[k] in legal:
            return DISCARD[k]
        return max((a for a in legal if a.id < 27), key=lambda a: a.id)


_DAJIAO_CACHE: Dict[int, Tuple[Rules, Rules]] = {}


def _dajiao_rules(rules: Rules) -> Rules:
    """The rules 查大叫 scores with: 门清 and the optional fans off (RULES §10)."""
    hit = _DAJIAO_CACHE.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    derived = rules.replace(menqing=False, duanyaojiu=False, yitiaolong=False, jiaxinwu=False,
                            haidipao=False)
    if len(_DAJIAO_CACHE) > 64:
        _DAJIAO_CACHE.clear()
    _DAJIAO_CACHE[id(rules)] = (rules, derived)
    return derived


def _first(pair: Tuple[int, Action]) -> int:
    return pair[0]


def _triples_of(h: Sequence[int], kinds_range: Iterable[int]) -> List[Action]:
    """The distinct sorted triples (multisets of 3) that ``h`` can give, as exchange actions."""
    out = []
    for t in combinations_with_replacement([k for k in kinds_range if h[k]], 3):
        a, b, c = t
        if a == b:
            if h[a] < (3 if b == c else 2):
                continue
        elif b == c and h[b] < 2:
            continue
        action = _EXCHANGE_OF.get(t)
        if action is None:
            action = _EXCHANGE_OF[t] = exchange_action(a, b, c)
        out.append(action)
    return out


_EXCHANGE_OF: Dict[Tuple[int, ...], Action] = {}  # kind triple -> its interned exchange action

_EXCHANGE_CACHE: Dict[Tuple[int, Tuple[int, ...]], List[Action]] = {}


def _exchange_triples(suit: int, counts: Tuple[int, ...]) -> List[Action]:
    """Same-suit exchange options of one suit's nine counts (cached: hands repeat suit shapes)."""
    key = (suit, counts)
    hit = _EXCHANGE_CACHE.get(key)
    if hit is None:
        if len(_EXCHANGE_CACHE) > 50000:
            _EXCHANGE_CACHE.clear()
        full = [0] * 27
        full[9 * suit:9 * suit + 9] = counts
        hit = _EXCHANGE_CACHE[key] = _triples_of(full, range(9 * suit, 9 * suit + 9))
    return hit

