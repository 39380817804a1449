"""One database connection on its own thread, shared by a server process, with group commit.

``await db.run(op)`` runs ``op(conn)`` inside a transaction and returns its result only once that
transaction is committed: this is what "persisted before acknowledged" rests on. Operations queued
while a commit is in flight are run together in the next transaction, each inside its own
savepoint (an operation that raises is rolled back alone and its caller gets the exception); one
commit then makes the whole group durable. Under load this turns hundreds of small writes a second
into a few dozen commits, and the event loop never waits on the disk.

Two dialects sit behind one interface: SQLite (``sqlite:///path``, the standard library's
``sqlite3``; WAL journal, ``synchronous=FULL``) and PostgreSQL (``postgresql://...``, psycopg 3).
SQL is written once with ``?`` parameters (never formatted with values) and ``NOW()`` for the
database clock, so several processes on several machines agree on time.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from typing import Any, Callable, List, Optional, Sequence, Tuple, TypeVar

T = TypeVar("T")
Op = Callable[["Conn"], Any]

_BATCH = 256  # operations in one group commit at most


class Conflict(Exception):
    """A uniqueness or integrity constraint refused a write (e.g. a player already seated)."""


class Conn:
    """What an operation sees: ``execute`` with ``?`` parameters, on the dialect's connection."""

    def __init__(self, raw: Any, dialect: str) -> None:
        self.raw = raw
        self.dialect = dialect
        self._now = ("(julianday('now') - 2440587.5) * 86400.0" if dialect == "sqlite"
                     else "extract(epoch from clock_timestamp())::float8")

    def sql(self, text: str) -> str:
        text = text.replace("NOW()", self._now)
        return text if self.dialect == "sqlite" else text.replace("?", "%s")

    def execute(self, text: str, params: Sequence[Any] = ()) -> Any:
        if self.dialect == "sqlite":
            return self.raw.execute(self.sql(text), tuple(params))
        return self.raw.execute(self.sql(text), tuple(params), prepare=True)

    def one(self, text: str, params: Sequence[Any] = ()) -> Optional[Tuple[Any, ...]]:
        row = self.execute(text, params).fetchone()
        return None if row is None else tuple(row)

    def all(self, text: str, params: Sequence[Any] = ()) -> List[Tuple[Any, ...]]:
        return [tuple(r) for r in self.execute(text, params).fetchall()]

    def rowcount(self, text: str, params: Sequence[Any] = ()) -> int:
        return int(self.execute(text, params).rowcount)


def dialect_of(url: str) -> str:
    if url.startswith("sqlite:///") or url == "sqlite://":
        return "sqlite"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgres"
    raise ValueError(f"--db must be sqlite:///PATH or postgresql://..., got {url!r}")


class Database:
    """The connection thread. ``start()`` connects (and runs ``setup`` once, in a transaction);
    ``run(op)`` queues an operation; ``close()`` finishes the queue and disconnects."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.dialect = dialect_of(url)
        self._queue: "queue.Queue[Optional[Tuple[Op, asyncio.Future[Any]]]]" = queue.Queue()
        self._thread: Optional[threading.Thread] = None
        self._conn: Optional[Conn] = None

    # -- life cycle ----------------------------------------------------------------------------
    def start(self, setup: Op) -> None:
        """Connects and runs ``setup`` (schema creation) before any operation; raises on failure."""
        self._conn = self._connect()
        self._transaction([(setup, None)])
        self._thread = threading.Thread(target=self._loop, name="xueliu-db", daemon=True)
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        if self._conn is not None:
            try:
                self._conn.raw.close()
            except Exception:  # closing a broken connection: nothing left to save
                pass
            self._conn = None

    async def run(self, op: Callable[[Conn], T]) -> T:
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put((op, fut))
        return await fut

    # -- the thread ----------------------------------------------------------------------------
    def _connect(self) -> Conn:
        if self.dialect == "sqlite":
            path = self.url[len("sqlite:///"):] or ":memory:"
            lite = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
            lite.execute("PRAGMA journal_mode=WAL")
            lite.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut, not a kill only
            lite.execute("PRAGMA foreign_keys=ON")
            return Conn(lite, "sqlite")
        import psycopg

        pg = psycopg.connect(self.url, autocommit=False, connect_timeout=10)
        return Conn(pg, "postgres")

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch: List[Tuple[Op, Optional[asyncio.Future[Any]]]] = [item]
            while len(batch) < _BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)  # finish this batch, then stop
                    break
                batch.append(nxt)
            self._transaction(batch)

    def _transaction(self, batch: List[Tuple[Op, Optional[asyncio.Future[Any]]]]) -> None:
        results: List[Tuple[bool, Any]] = []
        try:
            conn = self._conn
            if conn is None:
                conn = self._conn = self._connect()
            if conn.dialect == "sqlite":
                conn.raw.execute("BEGIN IMMEDIATE")  # the write lock up front: no upgrade deadlock
                for op, _ in batch:
                    results.append(self._one(conn, op))
                conn.raw.execute("COMMIT")
            else:
                with conn.raw.transaction():  # commits at the end; inner blocks are savepoints
                    for op, _ in batch:
                        results.append(self._one(conn, op))
        except Exception as e:  # the connection or the commit failed: nothing of the batch holds
            self._drop_connection()
            results = [(False, e)] * len(batch)
        for (_, fut), (ok, value) in zip(batch, results):
            if fut is None:
                if not ok:
                    raise value
                continue
            fut.get_loop().call_soon_threadsafe(_settle, fut, ok, value)

    def _one(self, conn: Conn, op: Op) -> Tuple[bool, Any]:
        raw = conn.raw
        if conn.dialect == "sqlite":
            raw.execute("SAVEPOINT op")
            try:
                value = op(conn)
            except Exception as e:
                raw.execute("ROLLBACK TO op")
                raw.execute("RELEASE op")
                return False, _translate(e)
            raw.execute("RELEASE op")
            return True, value
        try:
            with raw.transaction():  # nested in the batch's transaction: a savepoint
                value = op(conn)
        except Exception as e:
            if raw.closed or raw.broken:
                raise
            return False, _translate(e)
        return True, value

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            if conn.dialect == "sqlite":
                conn.raw.execute("ROLLBACK")
            else:
                conn.raw.rollback()
        except Exception:  # the connection is already gone
            pass
        if conn.dialect == "postgres":
            try:
                conn.raw.close()
            except Exception:
                pass
        else:
            self._conn = conn  # SQLite: the file is still there; keep the handle


def _translate(e: Exception) -> Exception:
    if isinstance(e, sqlite3.IntegrityError):
        return Conflict(str(e))
    try:
        import psycopg
    except ImportError:  # pragma: no cover - SQLite only
        return e
    if isinstance(e, psycopg.IntegrityError):
        return Conflict(str(e))
    return e


def _settle(fut: "asyncio.Future[Any]", ok: bool, value: Any) -> None:
    if fut.cancelled():
        return
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)
