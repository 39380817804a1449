"""Real clients for the server tests: HTTP through httpx, people at tables through real websocket
connections (the ``websockets`` library), and an audit of the database after play."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from typing import Any, AsyncIterator, Callable, Dict, List, Optional, Sequence, Tuple

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

import xueliu
from xueliu.record import NAMED_DECISIONS


def new_player(base: str, name: str) -> Dict[str, Any]:
    r = httpx.post(f"{base}/api/players", json={"name": name}, timeout=30)
    assert r.status_code == 200, r.text
    return dict(r.json())


def auth(token: str) -> Dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def http(method: str, url: str, token: Optional[str] = None, **kw: Any) -> httpx.Response:
    headers = {**(auth(token) if token else {}), **kw.pop("headers", {})}
    return httpx.request(method, url, headers=headers, timeout=30, **kw)


class Person:
    """A person at a table through a real websocket. Answers every request with a legal action
    (a win when offered, else a seeded random choice), keeps what it saw of each hand, and
    reconnects whenever the connection goes (trying ``urls`` in turn)."""

    def __init__(self, urls: Sequence[str], token: str, seed: int = 0,
                 act: bool = True) -> None:
        self.urls = list(urls)
        self.token = token
        self.rng = random.Random(seed)
        self.act = act
        self.hands: List[Dict[str, Any]] = []     # complete hands as seen: events, net, coins
        self.current: Optional[List[Dict[str, Any]]] = None
        self.messages: List[Dict[str, Any]] = []
        self.errors: List[str] = []
        self.closes: List[Optional[int]] = []
        self.requests: List[Dict[str, Any]] = []
        self.connects = 0
        self.acts = 0
        self.table: Optional[int] = None
        self.seat: Optional[int] = None

    async def run(self, done: Callable[[], bool]) -> None:
        i = 0
        while not done():
            url = self.urls[i % len(self.urls)]
            try:
                async with connect(f"{url}?token={self.token}", open_timeout=5, close_timeout=1,
                                   max_size=2**22) as ws:
                    self.connects += 1
                    self.current = None  # what a new connection knows starts with its state
                    await self.session(ws, done)
                    self.closes.append(ws.close_code)
            except (OSError, ConnectionClosed, InvalidHandshake, asyncio.TimeoutError) as e:
                if isinstance(e, ConnectionClosed):
                    self.closes.append(e.rcvd.code if e.rcvd else None)
            i += 1
            if not done():
                await asyncio.sleep(0.05)

    async def session(self, ws: Any, done: Callable[[], bool]) -> None:
        async for m in self.incoming(ws, done):
            if m["type"] == "request" and self.act:
                await self.answer(ws, m)

    async def incoming(self, ws: Any, done: Callable[[], bool]) -> AsyncIterator[Dict[str, Any]]:
        """Each message of the connection, once ``seen``, until ``done()``."""
        while not done():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.2)
            except asyncio.TimeoutError:
                continue
            m = json.loads(raw)
            self.seen(m)
            yield m

    async def answer(self, ws: Any, m: Dict[str, Any]) -> None:
        """Acts on the request ``m`` with ``choose``'s action."""
        await ws.send(json.dumps({"type": "act", "table": m["table"], "seq": m["seq"],
                                  "action": self.choose(m["actions"])}))
        self.acts += 1

    def choose(self, actions: List[Dict[str, Any]]) -> int:
        wins = [a["id"] for a in actions if a["kind"] == "hu"]
        return int(wins[0] if wins else self.rng.choice(actions)["id"])

    def seen(self, m: Dict[str, Any]) -> None:
        self.messages.append(m)
        kind = m["type"]
        if kind == "state":
            self.table, self.seat = m["table"], m["seat"]
            obs = m["observation"]
            in_hand = obs is not None and not obs["is_over"]
            self.current = list(m["events"]) if in_hand else None
        elif kind == "event":
            ev = m["event"]
            if ev["type"] == "start_hand":
                self.current = [ev]
            elif self.current is not None:
                self.current.append(ev)
        elif kind == "request":
            self.requests.append(m)
        elif kind == "hand_end":
            if self.current is not None:
                self.hands.append({"events": self.current, "net": m["net"], "coins": m["coins"]})
            self.current = None
        elif kind == "error":
            self.errors.append(m["message"])


async def play(people: Sequence[Person], done: Callable[[], bool],
               *others: Any) -> None:
    """Runs the people (and any other coroutines, e.g. a killer) until ``done()``."""
    await asyncio.gather(*(p.run(done) for p in people), *others)


def hands_of(base: str, token: str, table: int) -> List[Dict[str, Any]]:
    r = http("GET", f"{base}/api/tables/{table}/hands", token)
    assert r.status_code == 200, r.text
    return list(r.json()["hands"])


# -- the database, read directly ------------------------------------------------------------------
def query(url: str, sql: str, params: Sequence[Any] = ()) -> List[Tuple[Any, ...]]:
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(url[len("sqlite:///"):])
        try:
            return [tuple(r) for r in conn.execute(sql, tuple(params)).fetchall()]
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(url) as pg:
        return [tuple(r) for r in pg.execute(sql.replace("?", "%s"), tuple(params)).fetchall()]


class Db:
    """The server's own Database (its thread, group commit) and store operations, run from
    synchronous test code: to write a state no client could bring about on purpose."""

    def __init__(self, url: str) -> None:
        from xueliu.server import store
        from xueliu.server.db import Database

        self.db = Database(url)
        self.db.start(store.setup)
        self.loop = asyncio.new_event_loop()

    def run(self, op: Callable[[Any], Any]) -> Any:
        return self.loop.run_until_complete(self.db.run(op))

    def together(self, *ops: Callable[[Any], Any]) -> List[Any]:
        """Runs the operations queued at once (one group commit); results or exceptions."""
        async def all_of() -> List[Any]:
            return list(await asyncio.gather(*(self.db.run(op) for op in ops),
                                             return_exceptions=True))
        return self.loop.run_until_complete(all_of())

    def sql(self, text: str, params: tuple = ()) -> List[tuple]:
        return list(self.run(lambda conn: conn.all(text, params)))

    def execute(self, text: str, params: tuple = ()) -> None:
        self.run(lambda conn: conn.execute(text, params))

    def close(self) -> None:
        self.db.close()
        self.loop.close()


def audit(url: str, starting: int = 1000) -> Dict[str, int]:
    """Checks what must hold after any play, crashes included, and returns counts:

    - the coins of all players plus the house's fees equal the coins ever issued;
    - each table's hands are numbered 0, 1, … with at most one not settled (the one in play);
    - every settled hand's record replays to its stored settlement (net and transfers), started
      from the coins stored at its deal, and its stored decisions are the record's;
    - every player holds its starting coins plus its net over the settled hands it sat in —
      so no hand was paid twice or half.
    """
    (held, fees, issued), = query(url, "SELECT (SELECT COALESCE(SUM(coins), 0) FROM players),"
                                       " fees, issued FROM house")
    assert held + fees == issued, (held, fees, issued)
    players = query(url, "SELECT id, coins FROM players")
    assert issued == starting * len(players)
    expected = {pid: starting for pid, _ in players}
    rows = query(url, "SELECT id, table_id, idx, seats, start, status, record, settlement"
                      " FROM hands ORDER BY table_id, idx")
    by_table: Dict[int, List[int]] = {}
    settled = 0
    for hid, table, idx, seats, start, status, record, settlement in rows:
        by_table.setdefault(table, []).append(idx)
        if status != "settled":
            continue
        settled += 1
        record, settlement, start = json.loads(record), json.loads(settlement), json.loads(start)
        state = xueliu.replay(record)
        st = state.settlement()
        assert state.is_over
        assert st.net == settlement["net"]
        assert [{"payer": t.payer, "payee": t.payee, "amount": t.amount, "reason": t.reason}
                for t in st.transfers] == settlement["transfers"]
        assert record["coins"] == start["coins"] and record["seed"] == start["seed"]
        stored = [[s, a if a in NAMED_DECISIONS else int(a)] for s, a in query(
            url, "SELECT seat, action FROM decisions WHERE hand_id = ? ORDER BY idx", (hid,))]
        assert stored == record["decisions"]
        for seat, pid in enumerate(json.loads(seats)):
            expected[pid] += settlement["net"][seat]
    for table, idxs in by_table.items():
        assert idxs == list(range(len(idxs))), (table, idxs)
        playing = query(url, "SELECT COUNT(*) FROM hands WHERE table_id = ? AND status <> 'settled'",
                        (table,))[0][0]
        assert playing <= 1
    assert {pid: coins for pid, coins in players} == expected
    return {"settled": settled, "players": len(players), "fees": fees}


def seat_view_matches(person: Person, records: List[Dict[str, Any]]) -> int:
    """Each complete hand the person saw is exactly the engine's view of its seat in the stored
    record (``replay(record).events(seat)``): nothing hidden leaked, nothing was lost or
    repeated. Returns how many hands were compared."""
    assert person.seat is not None
    views = [xueliu.replay(r).events(person.seat) for r in records]
    compared = 0
    for hand in person.hands:
        match = [v for v in views if v[0] == hand["events"][0]]
        assert len(match) == 1, "a hand the client saw is not among the stored hands"
        seen, stored = hand["events"], match[0]
        first = next((i for i, (a, b) in enumerate(zip(seen, stored)) if a != b),
                     min(len(seen), len(stored)))
        assert seen == stored, (f"seat {person.seat}: differs at event {first} of {len(stored)} "
                                f"(client saw {len(seen)}): {seen[first:first + 2]} vs "
                                f"{stored[first:first + 2]}")
        compared += 1
    return compared
