"""The server's tables in the database, and every read and write the server makes, as operations
for :class:`~xueliu.server.db.Database` (each runs inside one transaction; values only ever travel
as SQL parameters).

The schema, for both SQLite and PostgreSQL:

- ``house`` — one row: ``issued`` (coins ever handed to new players) and ``fees`` (coins the house
  took: service fees and escape penalties). Always ``sum(players.coins) + fees == issued``.
- ``players`` — ``name``, ``token_hash`` (SHA-256 of the token; NULL for server bots), ``coins``
  (never below zero: a CHECK), ``bot``.
- ``processes`` — each ``xueliu serve`` process: its ``address`` and last ``heartbeat``.
- ``tables`` — ``rules`` (JSON), ``owner`` (the process running it), ``status``
  (``waiting``/``playing``/``closed``), the next ``dealer``, ``hands`` dealt, the request ``seq``.
- ``seats`` — who sits where; ``player_id`` is UNIQUE, so a player sits at one table at a time.
- ``table_players`` — everyone who ever sat at a table (who may read its hands).
- ``hands`` — one row per hand, its unique ``id``: ``seats`` (player ids), ``start`` (the
  engine's record at the deal: rules, seed, dealer, coins), ``status`` (``playing``/``settled``),
  and once settled the final ``record`` and ``settlement``. At most one playing hand a table.
- ``decisions`` — ``(hand_id, idx)`` → ``seat``, ``action`` (an action id, ``timeout``,
  ``escape`` or ``cancel_auto_play``): a hand in progress is its start plus these, so replay
  resumes it.

Ownership is fenced: every write for a table checks ``owner = this process`` in the same
transaction, so a process that lost its table (it stalled past its lease and another took over)
can never write a decision or a settlement for it again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..record import NAMED_DECISIONS
from .db import Conflict, Conn

SCHEMA_VERSION = "1"


class Fenced(Exception):
    """This process no longer owns the table it tried to write for."""


def _ddl(dialect: str) -> List[str]:
    ident = ("INTEGER PRIMARY KEY AUTOINCREMENT" if dialect == "sqlite"
             else "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
    return [
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS house (id INTEGER PRIMARY KEY CHECK (id = 1),"
        " issued BIGINT NOT NULL, fees BIGINT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS players (id {ident}, name TEXT NOT NULL,"
        " token_hash TEXT UNIQUE, coins BIGINT NOT NULL CHECK (coins >= 0),"
        " bot INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE IF NOT EXISTS processes (id TEXT PRIMARY KEY, address TEXT NOT NULL,"
        " heartbeat DOUBLE PRECISION NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS tables (id {ident}, rules TEXT NOT NULL, owner TEXT,"
        " status TEXT NOT NULL, dealer INTEGER NOT NULL, hands INTEGER NOT NULL,"
        " seq BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE IF NOT EXISTS seats (table_id BIGINT NOT NULL REFERENCES tables (id),"
        " seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),"
        " player_id BIGINT NOT NULL UNIQUE REFERENCES players (id),"
        " leaving INTEGER NOT NULL, PRIMARY KEY (table_id, seat))",
        "CREATE TABLE IF NOT EXISTS table_players (table_id BIGINT NOT NULL REFERENCES tables (id),"
        " player_id BIGINT NOT NULL REFERENCES players (id), PRIMARY KEY (table_id, player_id))",
        f"CREATE TABLE IF NOT EXISTS hands (id {ident},"
        " table_id BIGINT NOT NULL REFERENCES tables (id), idx INTEGER NOT NULL,"
        " seats TEXT NOT NULL, start TEXT NOT NULL, status TEXT NOT NULL, record TEXT,"
        " settlement TEXT, UNIQUE (table_id, idx))",
        "CREATE UNIQUE INDEX IF NOT EXISTS one_playing_hand ON hands (table_id)"
        " WHERE status = 'playing'",
        "CREATE TABLE IF NOT EXISTS decisions (hand_id BIGINT NOT NULL REFERENCES hands (id),"
        " idx INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,"
        " PRIMARY KEY (hand_id, idx))",
        "CREATE INDEX IF NOT EXISTS tables_owner ON tables (owner)",
        "CREATE TABLE IF NOT EXISTS spectatable (table_id BIGINT PRIMARY KEY"
        " REFERENCES tables (id))",
        "CREATE TABLE IF NOT EXISTS hand_times (hand_id BIGINT PRIMARY KEY REFERENCES hands (id),"
        " finished DOUBLE PRECISION NOT NULL)",
    ]


def setup(conn: Conn) -> None:
    """Creates the schema once (several processes may start together: PostgreSQL serialises them
    on an advisory lock) and checks its version."""
    if conn.dialect == "postgres":
        conn.execute("SELECT pg_advisory_xact_lock(7021180)")
    for stmt in _ddl(conn.dialect):
        conn.execute(stmt)
    row = conn.one("SELECT value FROM meta WHERE key = 'schema'")
    if row is None:
        conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,))
        conn.execute("INSERT INTO house (id, issued, fees) VALUES (1, 0, 0)")
    elif row[0] != SCHEMA_VERSION:
        raise ValueError(f"the database has schema version {row[0]}, this server needs "
                         f"{SCHEMA_VERSION}")


# -- processes and ownership ---------------------------------------------------------------------
def register_process(pid: str, address: str) -> Callable[[Conn], None]:
    def op(conn: Conn) -> None:
        conn.execute("INSERT INTO processes (id, address, heartbeat) VALUES (?, ?, NOW())",
                     (pid, address))
    return op


def heartbeat(pid: str) -> Callable[[Conn], None]:
    def op(conn: Conn) -> None:
        conn.execute("UPDATE processes SET heartbeat = NOW() WHERE id = ?", (pid,))
        # Processes killed a day ago that own nothing are history: forget them.
        conn.execute("DELETE FROM processes WHERE heartbeat < NOW() - 86400 AND id NOT IN"
                     " (SELECT owner FROM tables WHERE owner IS NOT NULL)")
    return op


_DEAD_OWNER = ("(owner IS NULL OR owner NOT IN (SELECT id FROM processes"
               " WHERE heartbeat > NOW() - ?))")


def orphan_tables(lease: float) -> Callable[[Conn], List[int]]:
    """Tables still in play whose owner is gone (no heartbeat within the lease)."""
    def op(conn: Conn) -> List[int]:
        return [int(r[0]) for r in conn.all(
            f"SELECT id FROM tables WHERE status <> 'closed' AND {_DEAD_OWNER} ORDER BY id",
            (lease,))]
    return op


def claim(table_id: int, pid: str, lease: float) -> Callable[[Conn], Optional[str]]:
    """Takes the table over if its owner is gone. Returns None when this process owns it now, else
    the address of the live process that does (or ``""`` if the table does not exist)."""
    def op(conn: Conn) -> Optional[str]:
        n = conn.rowcount(f"UPDATE tables SET owner = ? WHERE id = ? AND {_DEAD_OWNER}",
                          (pid, table_id, lease))
        row = conn.one("SELECT t.owner, p.address FROM tables t LEFT JOIN processes p"
                       " ON p.id = t.owner WHERE t.id = ?", (table_id,))
        if row is None:
            return ""
        if n or row[0] == pid:
            return None
        return str(row[1] or "another process")
    return op


def release(pid: str) -> Callable[[Conn], None]:
    """A clean shutdown hands its tables back at once (no lease to wait for)."""
    def op(conn: Conn) -> None:
        conn.execute("UPDATE tables SET owner = NULL WHERE owner = ?", (pid,))
        conn.execute("DELETE FROM processes WHERE id = ?", (pid,))
    return op


def _fence(conn: Conn, table_id: int, pid: str, seq: Optional[int] = None) -> None:
    if seq is None:
        n = conn.rowcount("UPDATE tables SET owner = owner WHERE id = ? AND owner = ?",
                          (table_id, pid))
    else:
        n = conn.rowcount("UPDATE tables SET seq = ? WHERE id = ? AND owner = ?",
                          (seq, table_id, pid))
    if n != 1:
        raise Fenced(f"table {table_id} is no longer run by this process")


# -- players -------------------------------------------------------------------------------------
def create_player(name: str, token_hash: Optional[str], coins: int,
                  bot: bool = False) -> Callable[[Conn], int]:
    def op(conn: Conn) -> int:
        return _new_player(conn, name, token_hash, coins, bot)
    return op


def _new_player(conn: Conn, name: str, token_hash: Optional[str], coins: int, bot: bool) -> int:
    row = conn.one("INSERT INTO players (name, token_hash, coins, bot, created)"
                   " VALUES (?, ?, ?, ?, NOW()) RETURNING id",
                   (name, token_hash, coins, int(bot)))
    assert row is not None
    conn.execute("UPDATE house SET issued = issued + ? WHERE id = 1", (coins,))
    return int(row[0])


@dataclass
class PlayerRow:
    player: int
    name: str
    coins: int
    table: Optional[int]


def player_by_token(token_hash: str) -> Callable[[Conn], Optional[PlayerRow]]:
    def op(conn: Conn) -> Optional[PlayerRow]:
        row = conn.one("SELECT p.id, p.name, p.coins, s.table_id FROM players p LEFT JOIN seats s"
                       " ON s.player_id = p.id WHERE p.token_hash = ? AND p.bot = 0",
                       (token_hash,))
        if row is None:
            return None
        return PlayerRow(int(row[0]), str(row[1]), int(row[2]),
                         None if row[3] is None else int(row[3]))
    return op


# -- tables --------------------------------------------------------------------------------------
@dataclass
class SeatRow:
    seat: int
    player: int
    name: str
    bot: bool
    leaving: bool


@dataclass
class TableRow:
    table: int
    rules: Dict[str, Any]
    status: str
    dealer: int
    hands: int
    seq: int
    seats: List[SeatRow]
    hand_id: Optional[int] = None
    hand_seats: Optional[List[int]] = None
    start: Optional[Dict[str, Any]] = None
    decisions: List[List[Any]] = field(default_factory=list)


def create_table(pid: str, rules: Dict[str, Any], player: int, bots: int,
                 bot_coins: int) -> Callable[[Conn], int]:
    """A new table owned by this process, its creator in seat 0 and ``bots`` new server bots (each
    a player with the starting coins) in the next seats. A creator seated elsewhere: Conflict."""
    def op(conn: Conn) -> int:
        row = conn.one("INSERT INTO tables (rules, owner, status, dealer, hands, seq, created)"
                       " VALUES (?, ?, 'waiting', 0, 0, 0, NOW()) RETURNING id",
                       (json.dumps(rules), pid))
        assert row is not None
        table_id = int(row[0])
        _seat(conn, table_id, 0, player)
        for seat in range(1, bots + 1):
            _seat(conn, table_id, seat, _new_player(conn, f"GreedyBot {seat}", None, bot_coins,
                                                    True))
        return table_id
    return op


def _seat(conn: Conn, table_id: int, seat: int, player: int) -> None:
    if conn.one("SELECT 1 FROM seats WHERE player_id = ?", (player,)) is not None:
        raise Conflict(f"player {player} already sits at a table")
    conn.execute("INSERT INTO seats (table_id, seat, player_id, leaving) VALUES (?, ?, ?, 0)",
                 (table_id, seat, player))
    if conn.one("SELECT 1 FROM table_players WHERE table_id = ? AND player_id = ?",
                (table_id, player)) is None:
        conn.execute("INSERT INTO table_players (table_id, player_id) VALUES (?, ?)",
                     (table_id, player))


def join(table_id: int, pid: str, seat: int, player: int) -> Callable[[Conn], None]:
    def op(conn: Conn) -> None:
        _fence(conn, table_id, pid)
        _seat(conn, table_id, seat, player)
    return op


def seat_bot(table_id: int, pid: str, seat: int, coins: int) -> Callable[[Conn], int]:
    """A new server bot (a player with the starting coins) in a free seat of the table."""
    def op(conn: Conn) -> int:
        _fence(conn, table_id, pid)
        bot = _new_player(conn, f"GreedyBot {seat}", None, coins, True)
        _seat(conn, table_id, seat, bot)
        return bot
    return op


def set_leaving(table_id: int, pid: str, player: int) -> Callable[[Conn], None]:
    def op(conn: Conn) -> None:
        _fence(conn, table_id, pid)
        conn.execute("UPDATE seats SET leaving = 1 WHERE table_id = ? AND player_id = ?",
                     (table_id, player))
    return op


def unseat(table_id: int, pid: str, players: Sequence[int],
           close: bool) -> Callable[[Conn], None]:
    """Players leave (between hands); ``close``: nobody is left to play, the table closes."""
    def op(conn: Conn) -> None:
        _fence(conn, table_id, pid)
        for p in players:
            conn.execute("DELETE FROM seats WHERE table_id = ? AND player_id = ?", (table_id, p))
        if close:
            conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            conn.execute("UPDATE tables SET status = 'closed', owner = NULL WHERE id = ?",
                         (table_id,))
    return op


def table_exists(table_id: int) -> Callable[[Conn], bool]:
    def op(conn: Conn) -> bool:
        return conn.one("SELECT 1 FROM tables WHERE id = ?", (table_id,)) is not None
    return op


def load_table(table_id: int) -> Callable[[Conn], Optional[TableRow]]:
    """Everything needed to run a table: rules, seats and the hand in progress with its
    decisions."""
    def op(conn: Conn) -> Optional[TableRow]:
        row = conn.one("SELECT rules, status, dealer, hands, seq FROM tables WHERE id = ?",
                       (table_id,))
        if row is None:
            return None
        seats = [SeatRow(int(s), int(p), str(n), bool(b), bool(lv)) for s, p, n, b, lv in conn.all(
            "SELECT s.seat, s.player_id, p.name, p.bot, s.leaving FROM seats s JOIN players p"
            " ON p.id = s.player_id WHERE s.table_id = ? ORDER BY s.seat", (table_id,))]
        t = TableRow(table_id, json.loads(row[0]), str(row[1]), int(row[2]), int(row[3]),
                     int(row[4]), seats)
        hand = conn.one("SELECT id, seats, start FROM hands WHERE table_id = ?"
                        " AND status = 'playing'", (table_id,))
        if hand is not None:
            t.hand_id = int(hand[0])
            t.hand_seats = [int(p) for p in json.loads(hand[1])]
            t.start = json.loads(hand[2])
            t.decisions = [[int(s), a if a in NAMED_DECISIONS else int(a)]
                           for s, a in conn.all("SELECT seat, action FROM decisions"
                                                " WHERE hand_id = ? ORDER BY idx", (t.hand_id,))]
        return t
    return op


# -- hands ---------------------------------------------------------------------------------------
def seated_coins(table_id: int, players: Sequence[int]) -> Callable[[Conn], List[int]]:
    def op(conn: Conn) -> List[int]:
        out = []
        for p in players:
            row = conn.one("SELECT p.coins FROM players p JOIN seats s ON s.player_id = p.id"
                           " WHERE p.id = ? AND s.table_id = ?", (p, table_id))
            if row is None:
                raise Conflict(f"player {p} no longer sits at table {table_id}")
            out.append(int(row[0]))
        return out
    return op


def deal(table_id: int, pid: str, idx: int, players: Sequence[int], start: Dict[str, Any],
         seq: int) -> Callable[[Conn], int]:
    """Stores a new hand (its start record: rules, seed, dealer, coins) and returns its id."""
    def op(conn: Conn) -> int:
        _fence(conn, table_id, pid, seq)
        row = conn.one("INSERT INTO hands (table_id, idx, seats, start, status)"
                       " VALUES (?, ?, ?, ?, 'playing') RETURNING id",
                       (table_id, idx, json.dumps(list(players)), json.dumps(start)))
        assert row is not None
        conn.execute("UPDATE tables SET status = 'playing', hands = ? WHERE id = ?",
                     (idx + 1, table_id))
        return int(row[0])
    return op


def add_decision(table_id: int, pid: str, hand_id: int, idx: int, seat: int, action: str,
                 seq: int) -> Callable[[Conn], None]:
    """One accepted decision; the caller applies it to the game only after this commits."""
    def op(conn: Conn) -> None:
        _fence(conn, table_id, pid, seq)
        conn.execute("INSERT INTO decisions (hand_id, idx, seat, action) VALUES (?, ?, ?, ?)",
                     (hand_id, idx, seat, action))
    return op


@dataclass
class Payout:
    """A finished hand as the settlement transaction writes it."""

    hand_id: int
    players: List[int]           # by seat
    deltas: List[int]            # coins each seat's player gains (negative: pays)
    house: int                   # coins to the house (fees and escape penalties)
    record: Dict[str, Any]
    settlement: Dict[str, Any]
    next_dealer: int


def settle(table_id: int, pid: str, payout: Payout) -> Callable[[Conn], bool]:
    """Moves the coins of a finished hand with its record, in one transaction, exactly once:
    returns False (and changes nothing) if this hand was settled already."""
    if sum(payout.deltas) + payout.house != 0:
        raise ValueError(f"a settlement must conserve coins: deltas {payout.deltas}, house "
                         f"{payout.house}")

    def op(conn: Conn) -> bool:
        _fence(conn, table_id, pid)
        n = conn.rowcount("UPDATE hands SET status = 'settled', record = ?, settlement = ?"
                          " WHERE id = ? AND status = 'playing'",
                          (json.dumps(payout.record), json.dumps(payout.settlement),
                           payout.hand_id))
        if n != 1:
            return False
        for p, d in zip(payout.players, payout.deltas):
            if d:
                conn.execute("UPDATE players SET coins = coins + ? WHERE id = ?", (d, p))
        if payout.house:
            conn.execute("UPDATE house SET fees = fees + ? WHERE id = 1", (payout.house,))
        conn.execute("UPDATE tables SET status = 'waiting', dealer = ? WHERE id = ?",
                     (payout.next_dealer, table_id))
        # When it ended (the history's date, issue 19).
        conn.execute("INSERT INTO hand_times (hand_id, finished) VALUES (?, NOW())",
                     (payout.hand_id,))
        return True
    return op


def finished_hands(table_id: int, player: int) -> Callable[[Conn], Optional[List[Dict[str, Any]]]]:
    """The settled hands of a table in order; None if ``player`` never sat there (403)."""
    def op(conn: Conn) -> Optional[List[Dict[str, Any]]]:
        if conn.one("SELECT 1 FROM table_players WHERE table_id = ? AND player_id = ?",
                    (table_id, player)) is None:
            return None
        return [{"hand": int(h), "seats": json.loads(s), "record": json.loads(r),
                 "settlement": json.loads(st)}
                for h, s, r, st in conn.all("SELECT id, seats, record, settlement FROM hands"
                                            " WHERE table_id = ? AND status = 'settled'"
                                            " ORDER BY idx", (table_id,))]
    return op


def coins_of(players: Sequence[int]) -> Callable[[Conn], List[int]]:
    def op(conn: Conn) -> List[int]:
        out = []
        for p in players:
            row = conn.one("SELECT coins FROM players WHERE id = ?", (p,))
            out.append(0 if row is None else int(row[0]))
        return out
    return op


def totals() -> Callable[[Conn], Tuple[int, int, int]]:
    """(coins held by players, the house's fees, coins ever issued): the first two add up to the
    third."""
    def op(conn: Conn) -> Tuple[int, int, int]:
        held = conn.one("SELECT COALESCE(SUM(coins), 0) FROM players")
        house = conn.one("SELECT fees, issued FROM house WHERE id = 1")
        assert held is not None and house is not None
        return int(held[0]), int(house[0]), int(house[1])
    return op


# -- the history of a player's hands (issue 19) ----------------------------------------------------

@dataclass
class StoredHand:
    hand: int
    table: int
    seats: List[int]
    record: Dict[str, Any]
    settlement: Dict[str, Any]


def player_hands(player: int, limit: int, before: Optional[int]
                 ) -> Callable[[Conn], Tuple[List[Dict[str, Any]], Optional[int]]]:
    """A page of ``player``'s settled hands, newest first: at most ``limit`` rows with an id
    below ``before`` (``None``: from the newest), and the ``before`` of the next page (``None``
    when this is the last). A row: ``hand``, ``table``, ``seat``, ``finished`` (when it was
    settled, Unix seconds; ``None`` for a hand settled before hand_times existed), ``mode``,
    ``net`` (the player's), ``nets`` (every seat's)."""
    def op(conn: Conn) -> Tuple[List[Dict[str, Any]], Optional[int]]:
        rows = conn.all("SELECT h.id, h.table_id, h.seats FROM hands h JOIN table_players tp"
                        " ON tp.table_id = h.table_id WHERE tp.player_id = ?"
                        " AND h.status = 'settled' AND h.id < ? ORDER BY h.id DESC",
                        (player, before if before is not None else 2 ** 62))
        mine = [(int(h), int(t), json.loads(s)) for h, t, s in rows]
        mine = [(h, t, s) for h, t, s in mine if player in s]
        page, more = mine[:limit], len(mine) > limit
        out = []
        for h, t, seats in page:
            row = conn.one("SELECT record, settlement FROM hands WHERE id = ?", (h,))
            assert row is not None
            record, settlement = json.loads(row[0]), json.loads(row[1])
            when = conn.one("SELECT finished FROM hand_times WHERE hand_id = ?", (h,))
            seat = seats.index(player)
            out.append({"hand": h, "table": t, "seat": seat,
                        "finished": None if when is None else float(when[0]),
                        "mode": record.get("rules", {}).get("mode"),
                        "net": settlement["net"][seat], "nets": settlement["net"]})
        return out, (page[-1][0] if more and page else None)
    return op


def stored_hand(hand: int) -> Callable[[Conn], Optional[StoredHand]]:
    """A settled hand by its id (``None``: no such settled hand)."""
    def op(conn: Conn) -> Optional[StoredHand]:
        row = conn.one("SELECT table_id, seats, record, settlement FROM hands"
                       " WHERE id = ? AND status = 'settled'", (hand,))
        if row is None:
            return None
        return StoredHand(hand, int(row[0]), json.loads(row[1]), json.loads(row[2]),
                          json.loads(row[3]))
    return op


# -- spectators (issue 19) ------------------------------------------------------------------------

def allow_spectators(table_id: int) -> Callable[[Conn], None]:
    """Its creator lets anyone watch the table (the public view, spectate.py)."""
    def op(conn: Conn) -> None:
        if conn.one("SELECT 1 FROM spectatable WHERE table_id = ?", (table_id,)) is None:
            conn.execute("INSERT INTO spectatable (table_id) VALUES (?)", (table_id,))
    return op


def is_spectatable(table_id: int) -> Callable[[Conn], bool]:
    def op(conn: Conn) -> bool:
        return conn.one("SELECT 1 FROM spectatable WHERE table_id = ?", (table_id,)) is not None
    return op
