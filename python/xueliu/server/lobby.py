"""The tables this process runs, and how tables move between processes.

A process registers itself (id, address) and beats every ``lease / 3`` seconds. A table belongs to
one process at a time (``tables.owner``); a process whose heartbeat is older than the lease is
dead, and any other process takes its tables over: at the next beat (every orphan), or at once
when a client needs the table. Taking over is loading: the table's hand in progress is rebuilt by
replaying its stored decisions. A request for a table whose owner is alive is refused with the
owner's address (HTTP 409, websocket close 4409): a load balancer routes by table, and a client
without one goes there itself.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any, Dict, Optional, Tuple

from ..game import new_game
from ..rules import Rules
from . import store
from .config import ServerConfig
from .db import Conflict, Database
from .errors import Busy, Elsewhere, NotFound
from .hub import Hub
from .table import Table
from .table_state import TableContext

log = logging.getLogger("xueliu.server")


class Lobby:
    def __init__(self, config: ServerConfig, db: Database, hub: Hub, address: str) -> None:
        self.config = config
        self.db = db
        self.hub = hub
        self.address = address
        self.pid = uuid.uuid4().hex
        self.tables: Dict[int, Table] = {}
        self.where: Dict[int, int] = {}  # player → table, for the tables run here
        self._loading: Dict[int, asyncio.Lock] = {}
        self._beat: Optional[asyncio.Task[None]] = None
        self.ctx = TableContext(config, db, hub, self.pid, self._seated, self._unseated,
                                self._closed)

    # -- process life ----------------------------------------------------------------------------
    async def start(self) -> None:
        await self.db.run(store.register_process(self.pid, self.address))
        await self.adopt_orphans()
        self._beat = asyncio.ensure_future(self._heartbeat())

    async def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
        for t in list(self.tables.values()):
            async with t.lock:  # let a decision being written finish
                t.stop()
        await self.db.run(store.release(self.pid))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease / 3)
            try:
                await self.db.run(store.heartbeat(self.pid))
                await self.adopt_orphans()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database is away: keep beating, fencing keeps us safe
                log.warning("heartbeat failed: %s", e)

    async def adopt_orphans(self) -> None:
        for table_id in await self.db.run(store.orphan_tables(self.config.lease)):
            if table_id in self.tables:
                continue
            try:
                await self.table(table_id)
            except (Elsewhere, NotFound):
                continue  # another process was quicker, or it closed
            except Exception:
                log.exception("table %s could not be taken over", table_id)

    # -- tables ----------------------------------------------------------------------------------
    async def table(self, table_id: int) -> Table:
        """The running table, taken over if its owner is gone. Raises NotFound, or Elsewhere with
        the address of the live process that runs it."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            t = self.tables.get(table_id)
            if t is not None:
                return t
            other = await self.db.run(store.claim(table_id, self.pid, self.config.lease))
            if other == "":
                raise NotFound(f"no table {table_id}")
            if other is not None:
                raise Elsewhere(table_id, other)
            row = await self.db.run(store.load_table(table_id))
            if row is None:
                raise NotFound(f"no table {table_id}")
            if row.status == "closed":
                raise Busy(f"table {table_id} is closed")
            t = Table(self.ctx, row)
            self.tables[table_id] = t
            await t.start()
            if not t.closed:
                log.info("table %s: running here", table_id)
            return t

    async def create(self, player: int, rules: Rules, bots: int) -> Tuple[int, int]:
        new_game(rules, seed=0)  # rules that cannot deal a game are refused before anything
        try:
            table_id = await self.db.run(store.create_table(
                self.pid, rules.to_dict(), player, bots, self.config.starting_coins))
        except Conflict:
            raise Busy("you already sit at a table; leave it first") from None
        await self.table(table_id)
        return table_id, 0

    async def join(self, player: int, name: str, table_id: int) -> int:
        if not await self.db.run(store.table_exists(table_id)):
            raise NotFound(f"no table {table_id}")
        t = await self.table(table_id)
        return await t.join(player, name)

    async def leave(self, player: int, table_id: int, escape: bool = False) -> Tuple[int, bool]:
        if not await self.db.run(store.table_exists(table_id)):
            raise NotFound(f"no table {table_id}")
        t = await self.table(table_id)
        return await t.leave(player, escape)

    def running(self, player: int) -> Optional[Table]:
        table_id = self.where.get(player)
        return None if table_id is None else self.tables.get(table_id)

    # -- callbacks of the tables -----------------------------------------------------------------
    def _seated(self, player: int, table_id: int) -> None:
        self.where[player] = table_id

    def _unseated(self, player: int) -> None:
        self.where.pop(player, None)

    def _closed(self, table_id: int) -> None:
        self.tables.pop(table_id, None)
        self._loading.pop(table_id, None)

    def stats(self) -> Dict[str, Any]:
        return {"tables": len(self.tables), "players": len(self.where)}
