"""A live connection hears each request once (issue 16), under the load benchmark's pattern.

The benchmark (benchmarks/test_bench_server.py) seats people at full tables who answer every
request 0.5 s after it arrives. Here a smaller crowd plays that way on a real ``xueliu serve``
(SQLite, the benchmark's ``--time-scale 0.3``: 3 s a decision) while doing what real players do
beside it: each opens a second connection now and then (a second browser tab) and closes it
again, and the server is SIGKILLed and restarted mid-hand, so every table is loaded again with
its people reconnecting to it. Each connection keeps every message it was sent; none may be sent
the same request (table and ``seq``) twice, each hears of a table only after its ``state``, and a
person who answers every request it receives once is never told its answer was not its pending
request (unless the answer came after the deadline: a machine too busy to answer in time).
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import random
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

import httpx

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .client import audit, auth, query

TABLES = 10
THINK = 0.5             # seconds from a request to its answer, as in the benchmark
SECONDS = 16.0          # of play; the restart comes in the middle
FLAGS = ("--time-scale", "0.3", "--lease", "0.5", "--reconnect-window", "none")


@dataclass
class Heard:
    """What one connection was sent."""

    role: str                                    # "player" (answers) or "tab" (only watches)
    requests: List[Tuple[int, int]] = field(default_factory=list)   # (table, seq) in order
    first: Dict[int, str] = field(default_factory=dict)  # table → type of its first message
    errors: List[str] = field(default_factory=list)
    seat: Optional[int] = None
    timed_out: Set[int] = field(default_factory=set)  # seqs whose deadline passed unanswered

    def hear(self, m: Dict[str, Any]) -> None:
        if "table" in m:
            self.first.setdefault(m["table"], m["type"])
        if m["type"] == "state":
            self.seat = m["seat"]
        elif m["type"] == "request":
            self.requests.append((m["table"], m["seq"]))
        elif m["type"] == "event" and m["event"]["type"] == "timeout":
            if m["event"]["actor"] == self.seat and self.requests:
                self.timed_out.add(self.requests[-1][1])
        elif m["type"] == "error":
            self.errors.append(m["message"])

    def refused(self) -> List[str]:
        """The errors, but for answers that came after their deadline (a machine too busy to
        answer in time, not a repeated request) and for answers sent across the restart, which a
        process that does not hold the table (yet) refuses by naming its owner (docs/server.md:
        the client reconnects there) — neither is a request sent twice."""
        return [e for e in self.errors
                if not (re.match(r"seq (\d+) ", e) and int(e.split()[1]) in self.timed_out)
                and not re.match(r"table \d+ is served by ", e)]

    def repeated(self) -> List[Tuple[int, int]]:
        seen: Set[Tuple[int, int]] = set()
        again = []
        for key in self.requests:
            if key in seen:
                again.append(key)
            seen.add(key)
        return again


class Player:
    """One person: a connection that answers each request it receives, once, ``THINK`` seconds
    later (the last action, or a win when offered: the benchmark's choice), reconnecting whenever
    it drops; and, now and then, a second connection that only listens for a while."""

    def __init__(self, address: str, token: str, seed: int) -> None:
        self.url = address.replace("http://", "ws://") + f"/ws?token={token}"
        self.rng = random.Random(seed)
        self.heard: List[Heard] = []

    async def play(self, done: "asyncio.Event") -> None:
        while not done.is_set():
            try:
                async with connect(self.url, open_timeout=5, close_timeout=1) as ws:
                    heard = Heard("player")
                    self.heard.append(heard)
                    await self._listen(ws, heard, done, answer=True)
            except (OSError, ConnectionClosed, InvalidHandshake, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.05)

    async def open_tabs(self, done: "asyncio.Event") -> None:
        while not done.is_set():
            try:
                await asyncio.wait_for(done.wait(), self.rng.uniform(0.5, 3.0))
                return
            except asyncio.TimeoutError:
                pass
            until = asyncio.Event()
            asyncio.get_running_loop().call_later(self.rng.uniform(0.5, 2.0), until.set)
            try:
                async with connect(self.url, open_timeout=5, close_timeout=1) as ws:
                    heard = Heard("tab")
                    self.heard.append(heard)
                    await self._listen(ws, heard, until, answer=False)
            except (OSError, ConnectionClosed, InvalidHandshake, asyncio.TimeoutError):
                pass

    async def _listen(self, ws: ClientConnection, heard: Heard, until: "asyncio.Event",
                      answer: bool) -> None:
        while not until.is_set():
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
            except asyncio.TimeoutError:
                continue
            heard.hear(m)
            if m["type"] == "request" and answer:
                asyncio.ensure_future(self._answer(ws, m))

    @staticmethod
    async def _answer(ws: ClientConnection, m: Dict[str, Any]) -> None:
        await asyncio.sleep(THINK)
        choice = next((a for a in m["actions"] if a["kind"] == "hu"), m["actions"][-1])
        try:
            await ws.send(json.dumps({"type": "act", "table": m["table"], "seq": m["seq"],
                                      "action": choice["id"]}))
        except ConnectionClosed:  # the server was killed meanwhile; the next connection asks again
            pass


def test_a_connection_is_sent_each_request_once_under_load_tabs_and_a_restart(
        serve: Any, tmp_path: pathlib.Path) -> None:
    url = f"sqlite:///{tmp_path}/once.db"
    server = serve(url, *FLAGS)
    players: List[Player] = []

    async def run() -> Dict[str, Any]:
        async with httpx.AsyncClient(base_url=server.address, timeout=30) as api:
            async def post(path: str, token: Optional[str] = None, **body: Any) -> Any:
                r = await api.post(path, json=body, headers=auth(token) if token else {})
                assert r.status_code == 200, r.text
                return r.json()

            tokens = [p["token"] for p in await asyncio.gather(
                *(post("/api/players", name=f"p{i}") for i in range(4 * TABLES)))]
            players[:] = [Player(server.address, t, seed=i) for i, t in enumerate(tokens)]
            done = asyncio.Event()
            tasks = [asyncio.ensure_future(p.play(done)) for p in players]

            async def seat(first: int) -> None:  # as the benchmark seats them
                table = (await post("/api/tables", tokens[first], rules="xueliu"))["table"]
                await asyncio.gather(*(post(f"/api/tables/{table}/join", tokens[first + k])
                                       for k in (1, 2, 3)))
            await asyncio.gather(*(seat(i) for i in range(0, len(tokens), 4)))
        tasks += [asyncio.ensure_future(p.open_tabs(done)) for p in players]
        await asyncio.sleep(SECONDS / 2)
        open_hands = query(url, "SELECT COUNT(*) FROM hands WHERE status <> 'settled'")[0][0]
        await asyncio.to_thread(server.kill)
        await asyncio.to_thread(server.start)  # same port: the players reconnect to it
        await asyncio.sleep(SECONDS / 2)
        done.set()
        await asyncio.gather(*tasks)
        return {"killed_with_open_hands": open_hands}

    facts = asyncio.run(run())
    server.stop()
    heard = [h for p in players for h in p.heard]
    answering = [h for h in heard if h.role == "player"]
    # The pattern ran: hands were played, tabs opened, the restart fell inside hands and every
    # player came back after it.
    assert facts["killed_with_open_hands"] >= TABLES // 2
    assert sum(len(h.requests) for h in answering) > 8 * len(players)
    assert sum(1 for h in heard if h.role == "tab" and h.requests) > len(players)
    assert all(sum(1 for h in p.heard if h.role == "player") >= 2 for p in players)
    # Each request once per connection; a table's state before anything else of it.
    repeats = {(i, h.role): h.repeated() for i, h in enumerate(heard) if h.repeated()}
    assert repeats == {}, f"{len(repeats)} connections were sent a request twice: " + str(
        list(repeats.items())[:5])
    assert all(first == "state" for h in heard for first in h.first.values())
    # Answering each request once is always answering the pending one.
    errors = [e for h in answering for e in h.refused()]
    assert errors == [], errors[:5]
    audit(url)
