"""Open websocket connections by player: each has its own outgoing queue and writer task, so a
slow client never holds up a table, and a flooding one is cut off by its rate limit.

A connection *follows* a table from the moment it is sent the table's ``state``: only then is it
sent the table's events, requests and ``hand_end``, and each request at most once (the ``seq``
of the last one sent is kept per table). So a second connection of the same player (another tab,
a reconnect the server has not yet seen the end of), a table loaded while its players connect,
or a request issued between a connection's arrival and its state never repeats a request on a
connection that already has it (issue 16)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Dict, List, Optional, Set

from starlette.websockets import WebSocket

_QUEUE = 2000  # messages waiting for one client; a client this far behind is disconnected

CLOSE_UNAUTHORIZED = 4401
CLOSE_ELSEWHERE = 4409   # the table is run by another process (the error names it)
CLOSE_POLICY = 1008      # rate limit
CLOSE_SLOW = 1013        # too far behind


class RateLimit:
    """Token bucket: ``rate`` messages a second sustained, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Connection:
    def __init__(self, ws: WebSocket, player: int) -> None:
        self.ws = ws
        self.player = player
        self.queue: "asyncio.Queue[Optional[str]]" = asyncio.Queue(_QUEUE)
        self.closing: Optional[int] = None
        # table id -> seq of the last request sent here (0: its state, no request yet)
        self.following: Dict[int, int] = {}
        self.writer = asyncio.ensure_future(self._write())

    def follows(self, table: int) -> bool:
        return table in self.following

    def follow(self, table: int, state: Dict[str, Any]) -> None:
        """Sends the table's ``state``; from now on the connection hears of the table."""
        self.send(state)
        self.following[table] = 0

    def send_request(self, table: int, seq: int, msg: Dict[str, Any]) -> None:
        """Sends a request of a table this connection follows, unless it was already sent here
        (seqs only grow, so "already sent" is "not above the last one")."""
        last = self.following.get(table)
        if last is None or seq <= last:
            return
        self.following[table] = seq
        self.send(msg)

    def send(self, msg: Dict[str, Any]) -> None:
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(json.dumps(msg, separators=(",", ":"), ensure_ascii=False))
        except asyncio.QueueFull:
            self.close(CLOSE_SLOW)

    def close(self, code: int) -> None:
        """Closes after the messages already queued (an error just sent still arrives)."""
        if self.closing is None:
            self.closing = code
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                self.writer.cancel()
                asyncio.ensure_future(self._close_now())

    async def finish(self, code: int = 1000) -> None:
        """Closes and waits until what was queued is sent (the handler must not return first:
        the server would drop the connection under the writer)."""
        self.close(code)
        try:
            await asyncio.wait_for(asyncio.shield(self.writer), 5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self.writer.cancel()

    async def _close_now(self) -> None:
        try:
            await self.ws.close(self.closing or 1000)
        except Exception:  # already closed by the peer
            pass

    async def _write(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the peer went away; the reader notices and unregisters
            return
        await self._close_now()


class Hub:
    """player id → open connections (a player may have several, e.g. two browser tabs)."""

    def __init__(self) -> None:
        self._by_player: Dict[int, Set[Connection]] = {}

    def add(self, conn: Connection) -> None:
        self._by_player.setdefault(conn.player, set()).add(conn)

    def remove(self, conn: Connection) -> bool:
        """Unregisters; True if that was the player's last connection (the player dropped)."""
        conns = self._by_player.get(conn.player)
        if conns is None:
            return False
        conns.discard(conn)
        if not conns:
            del self._by_player[conn.player]
            return True
        return False

    def connected(self, player: int) -> bool:
        return player in self._by_player

    def connections(self, player: int) -> List[Connection]:
        return list(self._by_player.get(player, ()))

    def send_table(self, player: int, table: int, msg: Dict[str, Any]) -> None:
        """A message of ``table`` to the player's connections that follow it."""
        for conn in self.connections(player):
            if conn.follows(table):
                conn.send(msg)

    def send_request(self, player: int, table: int, seq: int, msg: Dict[str, Any]) -> None:
        for conn in self.connections(player):
            conn.send_request(table, seq, msg)

    def unfollow(self, player: int, table: int) -> None:
        """The player no longer sits at ``table``: its connections stop following it (a later
        seat there starts again with a state)."""
        for conn in self.connections(player):
            conn.following.pop(table, None)

    def close_player(self, player: int, msg: Dict[str, Any], code: int) -> None:
        for conn in list(self._by_player.get(player, ())):
            conn.send(msg)
            conn.close(code)
