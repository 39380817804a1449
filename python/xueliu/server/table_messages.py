"""What a running table (:mod:`xueliu.server.table`) sends its people: the seats' players, the
``state`` and the pending ``request`` of a seat, each new event as each seat sees it, and who is
ready between hands (docs/server.md, "WebSocket"). :class:`Table` mixes this in; every hand's
content comes from the engine's per-seat views, so hidden tiles are filtered there."""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional

from ..rules import Rules
from . import protocol
from .table_state import HandInPlay, Seat, TableContext

__all__ = ["TableMessages"]


class TableMessages:
    """The messages of :class:`~xueliu.server.table.Table` (which holds these attributes)."""

    id: int
    ctx: TableContext
    rules: Rules
    seats: List[Optional[Seat]]
    hand: Optional[HandInPlay]
    ended: Optional[float]
    next_deal: Optional[float]

    def _players(self) -> List[Optional[Dict[str, Any]]]:
        return [None if seat is None else {"player": seat.player, "name": seat.name,
                                           "bot": seat.bot} for seat in self.seats]

    def _send_state(self, s: int) -> None:
        """The state, then the pending request, to each connection of the seat's person that does
        not follow the table yet (a new one); connections that do hear nothing again."""
        seat = self.seats[s]
        if seat is None or seat.bot:
            return
        new = [c for c in self.ctx.hub.connections(seat.player) if not c.follows(self.id)]
        if not new:
            return
        h = self.hand
        if h is not None and h.players[s] != seat.player:
            h = None  # a hand this person did not play (it sat down after it): nothing of it
        obs = None if h is None else h.state.observation(s)
        events = [] if h is None else h.state.events(s)
        msg = protocol.state(self.id, s, obs, events, self._players(), self.rules)
        for conn in new:
            conn.follow(self.id, msg)
        self._send_request(s)
        if self.ended is not None and self.hand is not None:
            self._announce_ready()

    def _send_request(self, s: int) -> None:
        seat = self.seats[s]
        h = self.hand
        if seat is None or seat.bot or h is None or s not in h.requests:
            return
        req = h.requests[s]
        left = max(0, int((req.deadline - time.monotonic()) * 1000))
        self.ctx.hub.send_request(seat.player, self.id, req.seq, protocol.request(
            self.id, req.seq, left, h.state.legal_actions(s)))

    def _broadcast_events(self) -> None:
        h = self.hand
        assert h is not None
        phase = h.state.phase
        for s, seat in enumerate(self.seats):
            if seat is None or seat.bot or not self.ctx.hub.connected(seat.player):
                continue
            for ev in h.state.events(s, since=h.sent):
                self.ctx.hub.send_table(seat.player, self.id, protocol.event(self.id, ev, phase))
        h.sent = h.state.event_count

    def _ready_seats(self) -> List[bool]:
        return [seat is not None and (seat.bot or seat.ready) for seat in self.seats]

    def _announce_ready(self) -> None:
        left = None if self.next_deal is None else max(0, int((self.next_deal - time.monotonic())
                                                              * 1000))
        msg = protocol.ready(self.id, self._ready_seats(), left)
        for seat in self.seats:
            if seat is not None and not seat.bot:
                self.ctx.hub.send_table(seat.player, self.id, msg)
