"""One hand of 血流成河 / 血战到底: the public face of the engine (docs/rules.md §2–§10).

>>> import xueliu
>>> state = xueliu.new_game("xueliu", seed=7)
>>> while not state.is_over:                     # doctest: +SKIP
...     seat = state.pending()[0]
...     state.step({seat: state.legal_actions(seat)[0]})

The state is stepped with joint decisions ``{seat: action}``. Everything a seat may do is
precomputed when a decision point opens, and each seat's waits are cached and recomputed by the
core only when that seat's hand changes, so a step is a few dictionary and list operations.
Automatic moves (auto-play, forced last-tile wins, a frozen xueliu hand's discard) are played
inside ``step`` until someone must decide, so a seat on auto-play is never pending; a person gets
it back with ``cancel_auto_play`` (取消托管), from its next decision point on.

:class:`GameState` is the hand's data (``data.py``) plus this API. The rules of each phase live in
their own modules (listed in ``data.py``); the seat views (``observation.py``, ``events.py``,
``view.py``) and the record (``hand_record.py``) read the data. This module is the one that
imports both the engine and the views, so the methods that hand them out (``observation()``,
``events()``, ``view()``, ``record()``) live here and nothing below imports back up.
"""

from __future__ import annotations

import secrets
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _core
from ..rules import Rules
from ..settlement import Settlement
from ..tiles import PHYSICAL_NAMES, Hand
from .actions import MAX_MULTIPLIER, Action
from .before_play import answer_joint, begin, joint_legal
from .claims import answer_claim
from .data import PH_CLAIM, PH_EXCHANGE, PH_OVER, PH_TURN, PHASE_NAMES, HandData
from .deal import parse_wall
from .defaults import default_action
from .events import render_events
from .hand_record import CANCEL_AUTO_PLAY
from .hand_record import record as _record
from .observation import ViewCache, observation as _observation
from .turn import after_discard, apply_turn, discard, play_automatic_moves
from .view import SeatView
from .wall import physical_layout

_turn_step = _core.turn_step  # (a module global: one lookup on the hottest path)


def new_game(rules: Union[str, Rules] = "xueliu", *, seed: Optional[int] = None,
             wall: Optional[Sequence[str]] = None, dealer: int = 0,
             coins: Optional[Sequence[int]] = None,
             dice: Optional[Sequence[int]] = None) -> "GameState":
    """A new hand, dealt and waiting for the first decisions.

    ``rules`` is a preset name or a :class:`~xueliu.Rules`; ``wall`` the tile names in draw
    order (scripted tests, servers that shuffle elsewhere: ``rules.shape.wall_tiles`` of them,
    four of each kind in play, 108 at the default table), otherwise our own PRNG shuffles from
    ``seed``. Seats, ``dealer`` and ``coins`` are of the table's ``rules.players`` seats. The same generator rolls the dice and draws the exchange direction (docs/rules.md §2,
    §3.1), so they never depend on the hidden tiles; ``dice`` (two ints 1..6) takes the dice
    from a server that rolls them itself. Without a seed a fresh one is drawn from the system's
    entropy (``secrets``); the seed, the wall when given and the dice when given are kept in the
    record, so replay deals the same hand.

    >>> state = new_game("xuezhan", seed=1, coins=[1000] * 4)
    >>> state.pending()
    [0, 1, 2, 3]
    >>> new_game(wall=state.wall, dice=(3, 4)).dice
    (3, 4)
    """
    if seed is None:
        seed = secrets.randbits(64)
    return restore(rules, seed=seed, wall=wall, dealer=dealer, coins=coins, dice=dice)


def restore(rules: Union[str, Rules], *, seed: Optional[int], wall: Optional[Sequence[str]],
            dealer: int, coins: Optional[Sequence[int]],
            dice: Optional[Sequence[int]]) -> "GameState":
    """The hand a record describes (:func:`xueliu.replay`): :func:`new_game` without drawing a
    fresh seed. A record written before ``dice=`` existed may hold a wall and no seed; its dice
    came from a hash of the wall, and they still do here, so that it replays as it was played."""
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
    n = rules.shape.players
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise TypeError(f"dealer must be an int 0..{n - 1}, got {type(dealer).__name__}")
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
    if coins is not None:
        if isinstance(coins, (str, bytes)) or len(coins) != n:
            raise ValueError(f"coins must be {n} non-negative ints (one per seat), got {coins!r}")
        coins = list(coins)
        for c in coins:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0:
                raise ValueError(f"coins must be {n} non-negative ints, got {coins!r}")
        coins = [int(c) for c in coins]
    pm = rules.player_multipliers
    if pm and max(pm["allowed"]) > MAX_MULTIPLIER:
        raise ValueError(f"player_multipliers allows {max(pm['allowed'])}, above "
                         f"{MAX_MULTIPLIER}, the largest value a multiplier action carries")
    given_dice: Optional[Tuple[int, int]] = None
    if dice is not None:
        if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
            raise TypeError(f"dice must be two ints 1..6, got {type(dice).__name__}")
        if len(dice) != 2 or not all(
                isinstance(d, (int, np.integer)) and not isinstance(d, bool) and 1 <= d <= 6
                for d in dice):
            raise ValueError(f"dice must be two ints 1..6, got {tuple(dice)!r}")
        given_dice = (int(dice[0]), int(dice[1]))
    kinds: Optional[List[int]] = None
    if wall is not None:
        kinds = parse_wall(wall, rules.shape, rules.extra_wilds)
    elif seed is None:
        raise ValueError("a hand needs a seed or a wall")
    return GameState(rules, seed, kinds, dealer, coins, given_dice)


class GameState(HandData):
    """One hand in progress. Build it with :func:`new_game`; see the module docstring."""

    __slots__ = ("_views",)

    def __init__(self, rules: Rules, seed: Optional[int], wall: Optional[List[int]], dealer: int,
                 coins: Optional[List[int]], dice: Optional[Tuple[int, int]] = None) -> None:
        super().__init__(rules, seed, wall, dealer, coins, dice)
        # Seat views: pieces cached between observations, refreshed once per step.
        self._views = ViewCache(self._n)
        self._ev.append(("start_hand", [list(h) for h in self._hands], self._break))  # counts
        begin(self)
        play_automatic_moves(self)

    # ------------------------------------------------------------------ reading the hand
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
        return physical_layout(self.dealer, self.dice, self._shape)

    @property
    def seats(self) -> int:
        """The seats of this table (``rules.shape.players``: 4, 3 or 2)."""
        return self._n

    @property
    def wall(self) -> List[str]:
        """The ``rules.shape.wall_tiles`` tiles (108, 72, 36) in draw order (hidden information:
        for scripted tests and servers)."""
        return [PHYSICAL_NAMES[k] for k in self._wall]

    def hand(self, seat: int) -> Hand:
        """The seat's concealed tiles and melds (hidden information: not for bots). At a table
        with wild tiles a hand may hold 红中 and soft melds, which a :class:`~xueliu.Hand` cannot:
        :meth:`hand_text` gives it there (a ``ValueError`` says so)."""
        seat = self._seat(seat)
        if self._wild is not None:
            raise ValueError("a hand at a table with wild tiles is read with hand_text(seat) "
                             "(docs/rules.md §12.5 notation: 红中 and soft melds)")
        return self._public_hand(self._hands[seat], seat)

    def hand_text(self, seat: int) -> str:
        """The seat's concealed tiles and melds in notation (hidden information: not for bots),
        at every table: ``"123m11p7z(55m1s)"`` with wild tiles (docs/rules.md §12.5)."""
        seat = self._seat(seat)
        return self._hand_text(self._hands[seat], seat)

    @property
    def wild_kinds(self) -> List[str]:
        """The tiles that are wild in this hand (docs/rules.md §12.1), by name: ``["1s"]`` under
        幺鸡, ``["7z"]`` with red dragons, the 本金's neighbours once it is turned up; empty at a
        table without wilds."""
        return [] if self._wild is None else [PHYSICAL_NAMES[k] for k in self._wild.kinds]

    @property
    def benjin(self) -> Optional[str]:
        """The 本金 turned up for this hand (docs/rules.md §12.1), or None."""
        w = self._wild
        return None if w is None or w.benjin < 0 else PHYSICAL_NAMES[w.benjin]

    @property
    def voids(self) -> List[Optional[str]]:
        return [None if v < 0 else "mps"[v] for v in self._void] if self._voids_revealed else [None] * self._n

    @property
    def multipliers(self) -> List[int]:
        return list(self._mult)

    @property
    def coins(self) -> Optional[List[int]]:
        c = self._ledger.coins
        return None if c is None else list(c)

    @property
    def auto_play(self) -> List[bool]:
        """Per seat: the engine plays it (托管: two timeouts in a row, or an escape) until
        :meth:`cancel_auto_play` gives it back; never pending meanwhile."""
        return list(self._auto)

    @property
    def escaped(self) -> List[bool]:
        """Per seat: it escaped (:meth:`escape`) and is auto-played to the end of the hand."""
        return list(self._escaped)

    def pending(self) -> List[int]:
        """The seats that must decide now, in seat order (empty once the hand is over)."""
        return [*self._pending]  # a fresh list (unpacking: no call, unlike list())

    def legal_actions(self, seat: int) -> List[Action]:
        """What ``seat`` may do now (empty when it is not pending; a seat outside the table's
        ``0..n - 1`` is a ``ValueError``)."""
        if seat.__class__ is not int or seat not in self._pending:
            seat = self._seat(seat)
            if seat not in self._pending:
                return []
        lst = self._legal.get(seat)
        if lst is None:
            lst = joint_legal(self, seat)
        return [*lst]  # a fresh list: the caller may change its own

    # ------------------------------------------------------------------ deciding
    def step(self, actions: Mapping[int, Union[Action, int]]) -> None:
        """Applies the decisions of some pending seats. Everything is checked first: an illegal
        action or a seat that is not pending raises ``ValueError`` and changes nothing."""
        if actions.__class__ is not dict and not isinstance(actions, Mapping):
            raise TypeError(f"step takes a dict {{seat: action}}, got {type(actions).__name__}")
        phase = self._phase
        if phase == PH_OVER:
            raise ValueError("the hand is over")
        if len(actions) == 1:  # the common case, without the lists of the general one
            seat, = actions  # (cheaper than unpacking .items())
            action = actions[seat]
            if phase == PH_TURN and self._native:  # most steps: a discard, played natively
                then = _turn_step(self, seat, action)
                if then >= 0:
                    after_discard(self, seat, then >> 4, then)  # (then >> 4: the kind)
                    if self._auto_move is not None:
                        play_automatic_moves(self)
                    return
            legal = self._legal.get(seat)
            if legal is None or action.__class__ is not Action or action not in legal \
                    or seat.__class__ is not int or seat not in self._pending:
                seat, action = self._checked(seat, action)  # the slow way, with the errors
            aid = action.id
            self._decisions.append((seat, aid))
            if phase == PH_TURN:  # (the turn's answer opens the next decision point)
                if aid < 27:  # most turns are a discard
                    discard(self, seat, aid)
                else:
                    apply_turn(self, seat, action)
            else:
                self._answer(seat, action)
        else:
            if not actions:
                raise ValueError("step needs the action of at least one pending seat")
            chosen = sorted((self._checked(seat, action) for seat, action in actions.items()),
                            key=_first)
            for seat, action in chosen:
                self._decisions.append((seat, action.id))
                self._answer(seat, action)
        if self._auto_move is not None:
            play_automatic_moves(self)

    def _checked(self, seat: Any, action: Any) -> Tuple[int, Action]:
        """``(seat, action)`` as an int seat and an interned action, checked: the seat is pending
        and the action is one of its legal actions (``ValueError`` otherwise)."""
        if seat.__class__ is not int:
            if not isinstance(seat, np.integer):
                raise TypeError(f"a seat is an int 0..3, got {type(seat).__name__}")
            seat = int(seat)
        if seat not in self._pending:
            raise ValueError(f"seat {seat!r} is not pending (pending: {list(self._pending)})")
        if action.__class__ is not Action:
            action = self._coerce(action)
        legal = self._legal.get(seat)
        if legal is None:
            legal = joint_legal(self, seat)
        if action not in legal:
            count = self.rules.exchange_count
            if action.tiles is not None and self._phase == PH_EXCHANGE \
                    and len(action.tiles) != count:
                raise ValueError(f"this table exchanges {count} tiles (exchange_count={count}); "
                                 f"{action!r} gives {len(action.tiles)}")
            raise ValueError(f"{action!r} is not legal for seat {seat} now; legal: "
                             + ", ".join(repr(a) for a in legal[:12])
                             + (" ..." if len(legal) > 12 else ""))
        return seat, action

    def apply_timeout(self, seat: int) -> Action:
        """Takes the default action of docs/rules.md §8 for a pending seat; two timeouts in a row switch
        the seat to auto-play (托管). Returns the action taken."""
        if self._phase == PH_OVER:
            raise ValueError("the hand is over")
        if seat not in self._pending or isinstance(seat, bool):
            raise ValueError(f"seat {seat!r} is not pending (pending: {list(self._pending)})")
        action = default_action(self, seat)
        # In a row: this seat's previous decision (escapes aside) was a timeout too.
        previous = next((what for s, what in reversed(self._decisions)
                         if s == seat and what != "escape"), None)
        self._decisions.append((seat, "timeout"))
        self._ev.append(("timeout", seat))
        if previous == "timeout" and not self._auto[seat]:
            self._auto[seat] = True
            self._ev.append(("auto_play", seat))
        self._answer(seat, action)
        play_automatic_moves(self)
        return action

    def cancel_auto_play(self, seat: int) -> None:
        """取消托管: gives a seat that two timeouts switched to auto-play back to its player.

        Its next decision point — the first one that opens after this call — asks the seat again
        (it is in ``pending()`` there); an answer the engine already gave for it (a claim window or
        a joint decision that opened while it was auto-played and is still open) stands. Recorded
        as the decision ``[seat, "cancel_auto_play"]``, so a record replays it at the same point,
        and logged as the public event ``auto_play_cancelled``. Its timeout streak starts afresh:
        two more timeouts in a row switch it to auto-play again. A seat that is not on auto-play,
        one that escaped (it is auto-played to the end of the hand), a finished hand or a bad seat
        is a ``ValueError`` (a wrong type a ``TypeError``) and changes nothing.

        >>> state.cancel_auto_play(1)           # doctest: +SKIP
        >>> state.auto_play[1]                  # doctest: +SKIP
        False
        """
        seat = self._seat(seat)
        if self._phase == PH_OVER:
            raise ValueError("the hand is over")
        if self._escaped[seat]:
            raise ValueError(f"seat {seat} escaped: it is auto-played to the end of the hand")
        if not self._auto[seat]:
            raise ValueError(f"seat {seat} is not on auto-play (auto_play: {list(self._auto)})")
        self._decisions.append((seat, CANCEL_AUTO_PLAY))
        self._auto[seat] = False
        self._ev.append(("auto_play_cancelled", seat))

    def escape(self, seat: int) -> None:
        """The seat leaves the table (逃跑/断线): it pays the escape penalty to the house now and is
        auto-played to the end of the hand."""
        seat = self._seat(seat)
        if self._phase == PH_OVER:
            raise ValueError("the hand is over")
        if self._escaped[seat]:
            raise ValueError(f"seat {seat} has already escaped")
        self._decisions.append((seat, "escape"))
        self._escaped[seat] = True
        self._ev.append(("escape", seat))
        m = self._mult[seat] if self._mult_revealed else self._pm_default
        self._ledger.pay(seat, None, int(self.rules.escape_penalty) * self._stake * m, "escape",
                         f"seat {seat} escaped")
        if not self._auto[seat]:
            self._auto[seat] = True
            self._ev.append(("auto_play", seat))
        if seat in self._pending:
            self._answer(seat, default_action(self, seat))
        play_automatic_moves(self)

    def _answer(self, seat: int, action: Action) -> None:
        ph = self._phase
        if ph == PH_TURN:
            apply_turn(self, seat, action)
        elif ph == PH_CLAIM:
            answer_claim(self, seat, action)
        else:
            answer_joint(self, seat, action)

    def _coerce(self, action: Any) -> Action:
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            return Action.from_id(int(action))
        if isinstance(action, Action):
            return action
        raise TypeError(f"an action is an Action or its int id, got {type(action).__name__}")

    # ------------------------------------------------------------------ views of the hand
    def observation(self, seat: Optional[int]) -> Dict[str, Any]:
        """What ``seat`` may see now (docs/rules.md §7 "Hidden information"), JSON-serialisable.
        ``None`` gives the omniscient view (every hand; for servers, logs and tests)."""
        return _observation(self, None if seat is None else self._seat(seat), self._views)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now, as counts for bots in this process (see
        :class:`~xueliu.game.view.SeatView`): the same information as ``observation(seat)``,
        each piece built only when read. Valid until the next decision."""
        if seat.__class__ is not int or not 0 <= seat < self._n:
            seat = self._seat(seat)
        return SeatView(self, seat, self._views)

    def events(self, seat: Optional[int] = None, since: int = 0) -> List[Dict[str, Any]]:
        """The event stream (docs/events.md): whole, or as ``seat`` sees it (hidden tiles "?").
        ``since``: only the events from that index on (``events(seat)[since:]``, without
        rendering the ones before it); :attr:`event_count` is the index the next event gets."""
        if since.__class__ is not int:
            if isinstance(since, bool) or not isinstance(since, (int, np.integer)):
                raise TypeError(f"since must be an int, got {type(since).__name__}")
            since = int(since)
        if since < 0:
            raise ValueError(f"since must be a non-negative event index, got {since}")
        return render_events(self, None if seat is None else self._seat(seat), since)

    @property
    def event_count(self) -> int:
        """How many events the stream holds now (the same for every seat's view of it)."""
        return len(self._ev)

    @property
    def net(self) -> List[int]:
        """Each seat's net so far (final once ``is_over``): the sum of its transfers, in base
        units times the room (every observation's ``net``; :meth:`settlement` has the detail)."""
        return [*self._ledger.net]

    def settlement(self) -> Settlement:
        """The ledger so far (final once ``is_over``)."""
        led = self._ledger
        income = [0] * self._n
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
        return _record(self)

    def __repr__(self) -> str:
        return (f"<GameState {self.rules.mode} dealer={self.dealer} phase={self.phase} "
                f"wall={self.wall_remaining} pending={list(self._pending)}>")


def _first(pair: Tuple[int, Action]) -> int:
    return pair[0]
