"""Open websocket connections by player: each has its own outgoing queue and writer task, so a
slow client never holds up a table, and a flooding one is cut off by its rate limit."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Dict, Optional, Set

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
        self.writer = asyncio.ensure_future(self._write())

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

    def send(self, player: int, msg: Dict[str, Any]) -> None:
        for conn in list(self._by_player.get(player, ())):
            conn.send(msg)

    def close_player(self, player: int, msg: Dict[str, Any], code: int) -> None:
        for conn in list(self._by_player.get(player, ())):
            conn.send(msg)
            conn.close(code)
