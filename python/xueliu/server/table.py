"""One running table: its game, seats, outstanding requests, timers, bots, and what it persists.

Everything that changes a table happens under its lock, in this order: check the decision, write
it to the database (fenced by ownership; the game is not touched if the write fails), apply it to
the engine, then tell the seats (events as each sees them, new requests). A restarted or new owner
rebuilds the same game by replaying the stored decisions (:meth:`Table.load`).

Who decides for a pending seat, and when (docs/rules.md §8, times scaled by ``--time-scale``):

- a server bot (GreedyBot, one per bot seat, started each hand with the bot lifecycle: its seed
  ``bot_seed(the hand's secret seed, 0, seat)``, xueliu.bots.lifecycle): after ``bot_delay``;
- a person whose connection dropped: auto-play (托管, AutoPlayBot: the §8 default moves, recorded as
  ordinary decisions, so the seat gets its seat back when it reconnects) after ``auto_delay``;
  dropped for longer than the reconnect window, the seat escapes (``escape``: penalty, then the
  engine plays it to the end of the hand);
- anyone else: the person, until the decision time of the phase runs out, then ``apply_timeout``
  (two in a row and the engine auto-plays the seat for the rest of the hand, unless the person
  cancels it: :meth:`Table.cancel_auto_play`, 取消托管, gives the seat back at its next decision).

Between hands a table of people waits for them (issue 49): the next hand is dealt the moment every
connected person at the table has pressed Continue (:meth:`Table.ready`), or when ``ready_timeout``
runs out; with no person connected, after ``hand_pause``. Once a table has dealt, a seat a person
left is taken by a new server bot at the next deal, so the people who stay play on (a person may
join into it before that).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any, Callable, Dict, List, Optional, Set, Tuple, Union

from ..bots import AutoPlayBot, Bot, GreedyBot, bot_seed, end_hand_for, start_hand_for
from ..game import GameState, new_game
from ..game.wall import hash_seed
from ..record import CANCEL_AUTO_PLAY, apply_decision, replay
from ..rules import Rules
from . import protocol, store
from .dealer import next_dealer
from .db import Conflict
from .errors import Busy, Forbidden
from .hub import CLOSE_ELSEWHERE
from .table_messages import TableMessages
from .table_state import HandInPlay, Request, Seat, TableContext

log = logging.getLogger("xueliu.server")

_SEQ_GAP = 16  # a reloaded table skips this many seqs: no request number is ever reused
_RELOAD_GRACE = 5.0  # seconds (scaled) a person who just dropped between hands is waited for


Due = Tuple[float, str, int]


def deal_seed(fixed: Optional[int], table: int, hand: int) -> int:
    """The seed a hand is dealt from: a fresh secret one, or with ``fixed`` (``xueliu serve
    --deal-seed``, tests only) ``hash_seed(fixed, table, hand)``, known in advance."""
    return secrets.randbits(64) if fixed is None else hash_seed(fixed, table, hand)


class Table(TableMessages):
    def __init__(self, ctx: TableContext, row: store.TableRow) -> None:
        self.ctx = ctx
        self.id = row.table
        self.rules = Rules.from_dict(row.rules)
        # One place per seat of the table's shape (docs/rules.md §11.1: 4, 3 or 2 seats).
        self.seats: List[Optional[Seat]] = [None] * self.rules.shape.players
        for s in row.seats:
            self.seats[s.seat] = Seat(s.player, s.name, s.bot, s.leaving)
        self.dealer = row.dealer
        self.hands = row.hands
        self.seq = row.seq + _SEQ_GAP
        self.hand: Optional[HandInPlay] = None
        self.next_deal: Optional[float] = None
        self.ended: Optional[float] = None        # when the last hand ended (between hands)
        self.ready_until: Optional[float] = None  # ... and when its ready timeout runs out
        self.closed = False
        self.lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: Optional[asyncio.Task[None]] = None
        self._bots: List[Bot] = [GreedyBot(rules=self.rules) for _ in self.rules.shape.seats]
        self._autoplay = AutoPlayBot(rules=self.rules)
        if row.start is not None and row.hand_id is not None and row.hand_seats is not None:
            rec = dict(row.start)
            rec["decisions"] = row.decisions
            rec.pop("result", None)
            state = replay(rec)
            self.hand = HandInPlay(row.hand_id, state, row.hand_seats, list(rec["coins"]),
                              time.monotonic(), len(row.decisions))
            self._start_bots(state)
        now = time.monotonic()
        for seat in self.seats:  # their connections died with the previous owner
            if seat is not None and not seat.bot and not ctx.hub.connected(seat.player):
                seat.dropped_at = now

    # -- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        for seat in self.seats:
            if seat is not None:
                self.ctx.seated(seat.player, self.id)
        async with self.lock:
            h = self.hand
            if h is not None and not h.state.is_over:
                h.sent = h.state.event_count
                self._issue_requests(set(), send=False)
            for s, seat in enumerate(self.seats):  # people already connected here: the state
                if seat is not None and not seat.bot and self.ctx.hub.connected(seat.player):
                    self._send_state(s)
            if h is not None and h.state.is_over:  # the last decision was saved, not settled
                h.sent = h.state.event_count
                await self._settle()
            elif h is None:
                await self._remove_leavers([s.player for s in self.seats if s and s.leaving])
                if self.hands and not self.closed:  # between hands (a restart, a takeover)
                    now = time.monotonic()
                    self.ended, self.ready_until = now, now + self.ctx.config.scaled(
                        self.ctx.config.ready_timeout)
                    self._check_ready()
                else:
                    self._schedule_deal(0.0)
        if not self.closed:
            self._task = asyncio.ensure_future(self._drive())

    def stop(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()
        for seat in self.seats:
            if seat is not None:
                self.ctx.unseated(seat.player)
                self.ctx.hub.unfollow(seat.player, self.id)
        self.ctx.closed(self.id)

    def _lost(self) -> None:
        """Another process took this table over: stop, and send our clients to it."""
        log.warning("table %s: ownership lost", self.id)
        for seat in self.seats:
            if seat is not None and not seat.bot:
                self.ctx.hub.close_player(seat.player, protocol.error(
                    f"table {self.id} moved to another process; reconnect"), CLOSE_ELSEWHERE)
        self.stop()

    # -- people ----------------------------------------------------------------------------------
    def seat_of(self, player: int) -> Optional[int]:
        for s, seat in enumerate(self.seats):
            if seat is not None and seat.player == player:
                return s
        return None

    async def join(self, player: int, name: str) -> int:
        async with self.lock:
            s = self.seat_of(player)
            if s is not None:
                return s
            if self.closed:
                raise Busy(f"table {self.id} is closed")
            free = [i for i, seat in enumerate(self.seats) if seat is None]
            if not free:
                raise Busy(f"table {self.id} is full")
            try:
                await self.ctx.db.run(store.join(self.id, self.ctx.pid, free[0], player))
            except store.Fenced:
                self._lost()
                raise Busy(f"table {self.id} moved to another process; try again") from None
            except Conflict:
                raise Busy("you already sit at another table") from None
            # Not connected yet: counted as away from now (auto-played until it connects).
            away = None if self.ctx.hub.connected(player) else time.monotonic()
            # Sitting down between hands is being ready for the next one.
            self.seats[free[0]] = Seat(player, name, False, dropped_at=away, ready=True)
            self.ctx.seated(player, self.id)
            self._send_state(free[0])
            if self.ended is None:
                self._schedule_deal(0.0)
            else:
                self._check_ready()
            return free[0]

    async def leave(self, player: int, escape: bool = False) -> Tuple[int, bool]:
        """Leaves now between hands, else after the current hand. Returns (seat, left now).
        ``escape`` during a hand: the seat escapes at once (docs/rules.md §7: it pays the escape
        penalty to the house and is auto-played to the end of the hand), then leaves at its end."""
        try:
            return await self._leave(player, escape)
        except store.Fenced:
            self._lost()
            raise Busy(f"table {self.id} moved to another process; try again") from None

    async def _leave(self, player: int, escape: bool) -> Tuple[int, bool]:
        async with self.lock:
            s = self.seat_of(player)
            if s is None:
                raise Forbidden(f"you do not sit at table {self.id}")
            h = self.hand
            if h is not None and not h.state.is_over:
                seat = self.seats[s]
                assert seat is not None
                if not seat.leaving:
                    await self._write(store.set_leaving(self.id, self.ctx.pid, player))
                    seat.leaving = True
                if escape and not seat.escaped:
                    await self._decide(s, "escape")
                return s, False
            await self._remove_leavers([player])
            return s, True

    async def ready(self, player: int) -> List[bool]:
        """The person pressed Continue after a hand: the next hand is dealt once every connected
        person has. Returns who is ready, per seat."""
        async with self.lock:
            s = self.seat_of(player)
            if s is None or self.closed:
                raise Forbidden(f"you do not sit at table {self.id}")
            seat = self.seats[s]
            assert seat is not None
            if self.ended is not None and not seat.ready:
                seat.ready = True
                self._check_ready()
            return self._ready_seats()

    async def cancel_auto_play(self, player: int) -> Tuple[int, List[bool]]:
        """取消托管: the engine plays the player's seat since two timeouts in a row (docs/rules.md
        §8); from its next decision the seat is the person's again (``GameState.cancel_auto_play``,
        a decision like any: stored first). Returns (seat, auto-play per seat)."""
        async with self.lock:
            s = self.seat_of(player)
            if s is None or self.closed:
                raise Forbidden(f"you do not sit at table {self.id}")
            h = self.hand
            if h is None or h.state.is_over:
                raise Busy(f"no hand is in play at table {self.id}")
            if h.state.escaped[s]:
                raise Busy(f"seat {s} escaped: it is auto-played to the end of the hand")
            if not h.state.auto_play[s]:
                raise Busy(f"seat {s} is not on auto-play (two timeouts in a row switch it on)")
            try:
                await self._decide(s, CANCEL_AUTO_PLAY)
            except store.Fenced:
                self._lost()
                raise Busy(f"table {self.id} moved to another process; try again") from None
            return s, h.state.auto_play

    def leaving(self, player: int) -> bool:
        """Whether the player sits here and leaves at the end of the hand."""
        s = self.seat_of(player)
        seat = None if s is None else self.seats[s]
        return seat is not None and seat.leaving

    def summary(self) -> Dict[str, Any]:
        """What the lobby lists of this table (GET /api/tables)."""
        return {"table": self.id, "mode": self.rules.mode, "players": self.rules.shape.players,
                "base": self.rules.base, "rules": self.rules.to_dict(),
                "seats": self._players(), "free": sum(seat is None for seat in self.seats),
                "hands": self.hands, "playing": self.hand is not None
                and not self.hand.state.is_over}

    async def connected(self, player: int) -> None:
        """A connection of ``player`` opened: its seat is its own again; the new connection gets
        the state and its pending request (the player's other connections have them already)."""
        async with self.lock:
            s = self.seat_of(player)
            if s is None or self.closed:
                return
            seat = self.seats[s]
            assert seat is not None
            seat.dropped_at = None
            self._send_state(s)
            self._check_ready()
            self._wake.set()

    def dropped(self, player: int) -> None:
        s = self.seat_of(player)
        if s is not None:
            seat = self.seats[s]
            assert seat is not None
            seat.dropped_at = time.monotonic()
            self._check_ready()
            self._wake.set()

    async def act(self, player: int, seq: int, action_id: int) -> Optional[str]:
        """A client's answer to a request; returns an error message, or None once it is saved and
        applied."""
        async with self.lock:
            s = self.seat_of(player)
            if s is None or self.closed:
                return f"you do not sit at table {self.id}"
            h = self.hand
            req = None if h is None else h.requests.get(s)
            if h is None or req is None or req.seq != seq:
                return f"seq {seq} is not your pending request (stale, repeated or unknown)"
            if all(a.id != action_id for a in h.state.legal_actions(s)):
                return f"action {action_id} is not one of the actions of request {seq}"
            try:
                await self._decide(s, action_id)
            except store.Fenced:
                self._lost()
                return "this table moved to another process; reconnect"
            except Exception as e:  # the database did not take it: nothing changed, try again
                log.warning("table %s: decision not saved: %s", self.id, e)
                return "the decision could not be saved; try again"
            return None

    # -- the clock -------------------------------------------------------------------------------
    async def _drive(self) -> None:
        try:
            while not self.closed:
                due = self._next_due()
                timeout = None if due is None else max(0.0, due[0] - time.monotonic())
                if timeout is None or timeout > 0:
                    try:
                        await asyncio.wait_for(self._wake.wait(), timeout)
                    except asyncio.TimeoutError:
                        pass
                    self._wake.clear()
                async with self.lock:
                    due = self._next_due()
                    if due is None or due[0] > time.monotonic() or self.closed:
                        continue
                    try:
                        await self._fire(due[1], due[2])
                    except store.Fenced:
                        self._lost()
                        return
                    except Exception:
                        log.exception("table %s: %s for seat %s failed; retrying", self.id,
                                      due[1], due[2])
                        await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            pass

    def _next_due(self) -> Optional[Due]:
        cfg = self.ctx.config
        h = self.hand
        if h is None or h.state.is_over:
            return None if self.next_deal is None else (self.next_deal, "deal", -1)
        best: Optional[Due] = None
        for s, req in h.requests.items():
            seat = self.seats[s]
            assert seat is not None
            if seat.bot:
                due: Due = (req.issued + cfg.scaled(cfg.bot_delay), "bot", s)
            elif seat.dropped_at is not None and not self.ctx.hub.connected(seat.player):
                due = (min(req.deadline, max(req.issued, seat.dropped_at)
                           + cfg.scaled(cfg.auto_delay)), "auto", s)
            else:
                due = (req.deadline, "timeout", s)
            if best is None or due < best:
                best = due
        window = cfg.window
        if window is not None:
            for s, seat in enumerate(self.seats):
                if (seat is not None and seat.dropped_at is not None and not seat.escaped
                        and not self.ctx.hub.connected(seat.player)):
                    due = (max(seat.dropped_at, h.started) + window, "escape", s)
                    if best is None or due < best:
                        best = due
        return best

    async def _fire(self, what: str, s: int) -> None:
        if what == "deal":
            await self._deal()
            return
        h = self.hand
        assert h is not None
        if what in ("bot", "auto"):
            bot = self._bots[s] if what == "bot" else self._autoplay
            action = bot.act(h.state.observation(s), h.state.legal_actions(s))
            await self._decide(s, int(action.id))
        else:
            await self._decide(s, what)

    # -- decisions -------------------------------------------------------------------------------
    async def _write(self, op: Callable[[Any], Any]) -> Any:
        return await self.ctx.db.run(op)

    async def _decide(self, s: int, what: Union[int, str]) -> None:
        h = self.hand
        assert h is not None
        await self._write(store.add_decision(self.id, self.ctx.pid, h.id, h.decisions, s,
                                             str(what), self.seq))
        state = h.state
        before, phase = set(state.pending()), state.phase
        apply_decision(state, s, what)
        seat = self.seats[s]
        if what == "escape" and seat is not None:
            seat.escaped = True
        h.decisions += 1
        self._broadcast_events()
        if state.is_over:
            h.requests.clear()
            await self._settle()
            return
        # In a joint decision (exchange, void, multiplier, a claim window) the seats still
        # pending after one answer face the same question: their requests stand (as every request
        # does after a 取消托管, which asks nothing new).
        self._issue_requests(before - {s} if state.phase == phase else set())

    def _issue_requests(self, standing: Set[int], send: bool = True) -> None:
        h = self.hand
        assert h is not None
        now = time.monotonic()
        old, h.requests = h.requests, {}
        for s in h.state.pending():
            if s in standing and s in old:
                h.requests[s] = old[s]
                continue
            self.seq += 1
            req = Request(self.seq, now, now + self.ctx.config.decision_time(h.state.phase))
            h.requests[s] = req
            if send:
                self._send_request(s)
        self._wake.set()

    # -- hands -----------------------------------------------------------------------------------
    def _schedule_deal(self, delay: float) -> None:
        if self.hand is not None and not self.hand.state.is_over:
            return
        # Before the first deal the table waits for its seats; after it, bots fill free seats.
        if self.ended is not None or all(seat is not None for seat in self.seats):
            self.next_deal = time.monotonic() + delay
        else:
            self.next_deal = None
        self._wake.set()

    def _check_ready(self) -> None:
        """Between hands: the deal at once when every connected person is ready, else at the
        ready timeout; with nobody connected, ``hand_pause`` after the hand ended. A person whose
        connection closed a moment ago (a reload) is waited for a few seconds more."""
        if self.ended is None or self.ready_until is None or self.closed:
            return
        if self.hand is not None and not self.hand.state.is_over:
            return
        now = time.monotonic()
        grace = self.ctx.config.scaled(_RELOAD_GRACE)
        waits, here = [], False
        for seat in self.seats:
            if seat is None or seat.bot:
                continue
            if self.ctx.hub.connected(seat.player):
                here = True
                if not seat.ready:
                    waits.append(self.ready_until)
            elif not seat.ready and seat.dropped_at is not None \
                    and seat.dropped_at + grace > now:
                waits.append(min(self.ready_until, seat.dropped_at + grace))
        if waits:
            at = max(waits)
        elif here:
            at = now
        else:
            at = self.ended + self.ctx.config.scaled(self.ctx.config.hand_pause)
        self._schedule_deal(max(0.0, at - now))
        self._announce_ready()

    async def _fill_with_bots(self) -> None:
        """Free seats of a table that has dealt before: a new server bot in each."""
        for s, seat in enumerate(self.seats):
            if seat is None:
                bot = await self._write(store.seat_bot(self.id, self.ctx.pid, s,
                                                      self.ctx.config.starting_coins))
                self.seats[s] = Seat(bot, f"GreedyBot {s}", True)
                self.ctx.seated(bot, self.id)
                self._bots[s] = GreedyBot(rules=self.rules)
        for s, seat in enumerate(self.seats):  # the people see who sits where now
            if seat is not None and not seat.bot:
                self.ctx.hub.send_table(seat.player, self.id, protocol.seats(self.id,
                                                                             self._players()))

    async def _deal(self) -> None:
        self.next_deal = None
        if self.ended is not None and any(seat is None for seat in self.seats):
            await self._fill_with_bots()
        if any(seat is None for seat in self.seats):
            return
        self.ended = self.ready_until = None
        players = [seat.player for seat in self.seats if seat is not None]
        coins = await self._write(store.seated_coins(self.id, players))
        state = new_game(self.rules, seed=deal_seed(self.ctx.config.deal_seed, self.id, self.hands),
                         dealer=self.dealer, coins=coins)
        start = state.record()
        start.pop("result", None)
        start["decisions"] = []
        hand_id = await self._write(store.deal(self.id, self.ctx.pid, self.hands, players, start,
                                               self.seq))
        self.hands += 1
        for seat in self.seats:
            assert seat is not None
            seat.escaped = seat.ready = False
        self.hand = HandInPlay(hand_id, state, players, coins, time.monotonic())
        self._start_bots(state)
        self._broadcast_events()
        self._issue_requests(set())

    def _start_bots(self, state: GameState) -> None:
        for s, seat in enumerate(self.seats):
            if seat is not None and seat.bot:
                start_hand_for(self._bots[s], s, self.rules, bot_seed(state.seed or 0, 0, s))

    async def _settle(self) -> None:
        h = self.hand
        assert h is not None
        for s, seat in enumerate(self.seats):
            if seat is not None and seat.bot:
                end_hand_for(self._bots[s], h.state, s)
        st = h.state.settlement()
        assert st.coins is not None
        deltas = [after - before for after, before in zip(st.coins, h.coins)]
        house = sum(t.amount for t in st.transfers if t.payee is None)
        nxt = next_dealer(self.rules, h.state.dealer, st)
        payout = store.Payout(
            hand_id=h.id, players=h.players, deltas=deltas, house=house, record=h.state.record(),
            settlement={"net": list(st.net), "transfers": [
                {"payer": t.payer, "payee": t.payee, "amount": t.amount, "reason": t.reason}
                for t in st.transfers]},
            next_dealer=nxt)
        await self._write(store.settle(self.id, self.ctx.pid, payout))
        self.dealer = nxt
        for s, seat in enumerate(self.seats):
            if seat is not None and not seat.bot:
                self.ctx.hub.send_table(seat.player, self.id, protocol.hand_end(
                    self.id, list(st.net), list(st.coins), st.report(s), hand=h.id))
        # Leaving now: who asked to, who escaped and is still away, and who missed a whole hand.
        gone = [seat.player for seat in self.seats if seat is not None and not seat.bot and (
            seat.leaving or (seat.dropped_at is not None
                             and not self.ctx.hub.connected(seat.player)
                             and (seat.escaped or seat.dropped_at <= h.started)))]
        now = time.monotonic()
        self.ended, self.ready_until = now, now + self.ctx.config.scaled(
            self.ctx.config.ready_timeout)
        for seat in self.seats:
            if seat is not None:
                seat.ready = False
        await self._remove_leavers(gone)
        if not self.closed:
            self._check_ready()

    async def _remove_leavers(self, players: List[int]) -> None:
        remaining = [seat for seat in self.seats
                     if seat is not None and not seat.bot and seat.player not in players]
        close = not remaining
        if not players and not close:
            return
        await self._write(store.unseat(self.id, self.ctx.pid, players, close))
        for s, seat in enumerate(self.seats):
            if seat is not None and seat.player in players:
                self.seats[s] = None
                self.ctx.unseated(seat.player)
                self.ctx.hub.unfollow(seat.player, self.id)
        if close:
            self.stop()
        elif self.ended is not None:
            self._check_ready()
        elif self.next_deal is not None:
            self._schedule_deal(max(0.0, self.next_deal - time.monotonic()))
