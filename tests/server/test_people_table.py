"""A table for people (issue 49), against a real server with real websocket clients: the next hand
waits until every connected person pressed Continue (or the ready timeout), a seat a person left
is taken by a bot at the next deal, an escape mid-hand pays the penalty and leaves after the hand,
the lobby's list of open tables, the shared link's page, and people's own decision times."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Dict, List, Optional

from .client import Person, audit, hands_of, http, new_player, play


class Stamped(Person):
    """A Person that stamps each message with the time it arrived and, after each hand, presses
    Continue (``POST /api/tables/{id}/ready``) ``ready_after`` seconds later (None: never)."""

    def __init__(self, urls: List[str], token: str, base: str, seed: int,
                 ready_after: Optional[float] = 0.0) -> None:
        super().__init__(urls, token, seed=seed)
        self.base = base
        self.ready_after = ready_after
        self.stamps: List[float] = []
        self.pressed: List[float] = []

    async def session(self, ws: Any, done: Any) -> None:
        async for m in self.incoming(ws, done):
            self.stamps.append(time.monotonic())
            if m["type"] == "request" and self.act:
                await self.answer(ws, m)
            if m["type"] == "hand_end" and self.ready_after is not None:
                asyncio.ensure_future(self._press(m["table"]))

    async def _press(self, table: int) -> None:
        await asyncio.sleep(self.ready_after or 0.0)
        r = await asyncio.to_thread(http, "POST", f"{self.base}/api/tables/{table}/ready",
                                    self.token)
        if r.status_code == 200:
            self.pressed.append(time.monotonic())

    def times(self, kind: str, event: Optional[str] = None) -> List[float]:
        return [t for m, t in zip(self.messages, self.stamps) if m["type"] == kind
                and (event is None or m.get("event", {}).get("type") == event)]


def test_the_next_hand_waits_for_every_person_and_a_bot_takes_a_seat_a_person_left(
        serve, tmp_path):
    url = f"sqlite:///{tmp_path}/people.db"
    # The ready timeout is 20 s (1000 × 0.02): every deal below that comes sooner was Continue.
    server = serve(url, "--ready-timeout", "1000")
    base = server.address
    ann, bob = new_player(base, "ann"), new_player(base, "bob")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 2, "spectators": True}).json()["table"]
    # The lobby lists the table with its free seat, and the shared link is the page.
    listed = http("GET", f"{base}/api/tables").json()["tables"]
    row = next(t for t in listed if t["table"] == table)
    assert row["free"] == 1 and row["players"] == 4 and row["preset"] == "xueliu"
    assert row["spectators"] is True and row["hands"] == 0
    assert [s and s["name"] for s in row["seats"]] == ["ann", "GreedyBot 1", "GreedyBot 2", None]
    page = http("GET", f"{base}/table/{table}")
    assert page.status_code == 200 and "app.js" in page.text
    # ann presses Continue at once, bob 1.5 s after each hand.
    a = Stamped([server.ws], ann["token"], base, seed=1, ready_after=0.0)
    b = Stamped([server.ws], bob["token"], base, seed=2, ready_after=1.5)
    state: Dict[str, Any] = {}

    async def scenario() -> None:
        task = asyncio.ensure_future(play([a, b], lambda: len(b.hands) >= 3))
        while not any(m["type"] == "state" for m in a.messages):
            await asyncio.sleep(0.02)
        assert (await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/join",
                                        bob["token"])).json() == {"table": table, "seat": 3}
        while len(a.hands) < 2:  # ann leaves during the second hand, after it
            await asyncio.sleep(0.01)
            if len(a.hands) == 1 and a.current is not None and "left" not in state:
                r = await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/leave",
                                            ann["token"])
                state["left"] = r.json()
                state["me"] = (await asyncio.to_thread(http, "GET", f"{base}/api/me",
                                                       ann["token"])).json()
        await task

    asyncio.run(scenario())
    assert state["left"] == {"table": table, "seat": 0, "left": False}
    assert state["me"]["leaving"] is True and state["me"]["tables"] == [table]
    assert a.errors == [] and b.errors == []
    # Hand 1 → 2: dealt only once bob pressed (1.5 s after the end), and at once then.
    end1 = b.times("hand_end")[0]
    deal2 = b.times("event", "start_hand")[1]
    assert b.pressed[0] - end1 >= 1.4
    assert b.pressed[0] - 0.3 <= deal2 <= b.pressed[0] + 3.0, (deal2 - end1)
    # Between hands everyone hears who is ready and when the deal comes.
    readies = [m for m in b.messages if m["type"] == "ready"]
    assert readies and readies[0]["ready"][1:3] == [True, True]  # bots never wait
    assert any(m["ready"] == [True, True, True, False] for m in readies)
    # ann left after hand 2: a new bot sits in seat 0 from hand 3 on, bob plays on.
    hands = hands_of(base, bob["token"], table)
    assert len(hands) >= 3
    assert hands[1]["seats"][0] == ann["player"]
    newcomer = hands[2]["seats"][0]
    assert newcomer not in (ann["player"], bob["player"], *hands[0]["seats"])
    assert hands[2]["seats"][3] == bob["player"]
    assert http("GET", f"{base}/api/me", ann["token"]).json()["tables"] == []
    seats_msgs = [m for m in b.messages if m["type"] == "seats"]
    assert seats_msgs and seats_msgs[0]["players"][0]["bot"] is True
    assert len(a.hands) == 2  # ann was dealt nothing after she left
    server.stop()
    audit(url)  # every player's coins are the starting coins plus the stored settlements' nets


def test_without_continue_the_next_hand_comes_at_the_ready_timeout(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/timeout.db"
    # Ready timeout 1.5 s (75 × 0.02); a person's turn 1 s (50 × 0.02), a claim 0.6 s, the
    # exchange 1.4 s, the void 0.8 s.
    server = serve(url, "--ready-timeout", "75", "--human-turn", "50", "--human-claim", "30",
                   "--human-exchange", "70", "--human-void", "40")
    base = server.address
    ann = new_player(base, "ann")
    http("POST", f"{base}/api/tables", ann["token"], json={"rules": "xueliu", "bots": 3})
    a = Stamped([server.ws], ann["token"], base, seed=3, ready_after=None)
    asyncio.run(play([a], lambda: len(a.hands) >= 2))
    end1 = a.times("hand_end")[0]
    gap = next(t for t in a.times("event", "start_hand") if t > end1) - end1
    assert 1.3 <= gap <= 6.0, gap
    first = next(m for m in a.messages if m["type"] == "ready")
    assert 1000 <= first["deal_ms"] <= 1500 and first["ready"] == [False, True, True, True]
    # People's decision times are the settings, scaled: a discard 1 s, a claim 0.6 s.
    turns = [m["deadline_ms"] for m in a.requests if any(x["kind"] == "discard"
                                                          for x in m["actions"])]
    claims = [m["deadline_ms"] for m in a.requests if any(x["kind"] == "pass"
                                                           for x in m["actions"])]
    assert turns and max(turns) <= 1000 and max(turns) >= 800
    assert all(c <= 600 for c in claims)
    first_of = {kind: next(m["deadline_ms"] for m in a.requests
                           if any(x["kind"] == kind for x in m["actions"]))
                for kind in ("exchange", "void")}
    assert 1000 < first_of["exchange"] <= 1400 and 500 < first_of["void"] <= 800, first_of
    server.stop()
    audit(url)


def test_an_escape_mid_hand_pays_the_penalty_and_leaves_after_the_hand(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/escape.db"
    server = serve(url, "--auto-delay", "100")
    base = server.address
    ann = new_player(base, "ann")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3, "base": 2}).json()["table"]
    a = Stamped([server.ws], ann["token"], base, seed=4, ready_after=None)
    state: Dict[str, Any] = {}

    async def escape_once_playing() -> None:
        while a.acts < 3:
            await asyncio.sleep(0.01)
        r = await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/leave",
                                    ann["token"], json={"escape": True})
        state["left"] = r.json()

    asyncio.run(play([a], lambda: len(a.hands) >= 1 or bool(a.closes), escape_once_playing()))
    assert state["left"] == {"table": table, "seat": 0, "left": False}
    [hand] = hands_of(base, ann["token"], table)
    escapes = [t for t in hand["settlement"]["transfers"] if t["reason"] == "escape"]
    # xueliu: 3 units (docs/rules.md §7, escape_penalty), × the base stake 2.
    assert escapes == [{"payer": 0, "payee": None, "amount": 6, "reason": "escape"}]
    assert [0, "escape"] in hand["record"]["decisions"]
    assert http("GET", f"{base}/api/me", ann["token"]).json()["tables"] == []
    assert http("POST", f"{base}/api/tables/{table}/join",
                new_player(base, "bob")["token"]).status_code == 409  # nobody left: closed
    assert http("POST", f"{base}/api/tables/{table}/leave", ann["token"],
                json={"escape": "yes"}).status_code == 400
    server.stop()
    audit(url)


def test_a_reload_between_hands_does_not_deal_the_next_hand_under_the_person(serve, tmp_path):
    """A person whose page reloads at the settlement is waited for a few seconds (5 s × the time
    scale), not dealt the next hand the moment its connection closes (3 s × the time scale after
    the hand, with no person connected); back, it is asked for Continue again."""
    from websockets.asyncio.client import connect

    url = f"sqlite:///{tmp_path}/reload.db"
    # Time scale 0.5: the pause with nobody connected is 1.5 s, the reload grace 2.5 s.
    server = serve(url, "--time-scale", "0.5", "--bot-delay", "0.04", "--ready-timeout", "100")
    base = server.address
    ann = new_player(base, "ann")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    person = Person([server.ws], ann["token"], seed=7)
    seen: List[Dict[str, Any]] = []

    async def scenario() -> None:
        async with connect(f"{server.ws}?token={ann['token']}") as ws:
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "request":
                    await ws.send(json.dumps({"type": "act", "table": table, "seq": m["seq"],
                                              "action": person.choose(m["actions"])}))
                if m["type"] == "hand_end":
                    break
        await asyncio.sleep(2.0)  # the reload: longer than the pause, shorter than the grace
        async with connect(f"{server.ws}?token={ann['token']}") as ws:
            end = time.monotonic() + 3.0
            while time.monotonic() < end:
                try:
                    seen.append(json.loads(await asyncio.wait_for(ws.recv(), 0.2)))
                except asyncio.TimeoutError:
                    pass
            assert not any(m["type"] == "event" for m in seen), "dealt during the reload"
            assert any(m["type"] == "ready" and m["ready"][0] is False for m in seen)
            pressed = time.monotonic()
            await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/ready",
                                    ann["token"])
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "event" and m["event"]["type"] == "start_hand":
                    break
            assert time.monotonic() - pressed < 5.0

    asyncio.run(scenario())
    assert len(hands_of(base, ann["token"], table)) == 1
    server.stop()
    audit(url)


def test_after_a_restart_between_hands_a_bot_takes_the_seat_a_person_left(serve, tmp_path):
    """A process that restarts between hands (SIGKILL) picks the table up where it was: the
    seat a person left is filled by a bot at the next deal and the person still there plays on."""
    url = f"sqlite:///{tmp_path}/restart.db"
    # Slow timers, quick players: at time scale 100 a table between hands waits 3000 s for
    # Continue and 500 s for a person whose connection just closed (the reload grace), while the
    # bots and auto-play answer at once. So no hand is dealt between the first hand and the
    # restart, nor after it before bob presses Continue: each step below happens between hands.
    # A 1 s lease (not scaled): the restarted process takes the table over 1 s after the killed
    # one's last heartbeat, not 10 s.
    server = serve(url, "--time-scale", "100", "--bot-delay", "0", "--auto-delay", "0",
                   "--lease", "1")
    base = server.address
    ann, bob = new_player(base, "ann"), new_player(base, "bob")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 2}).json()["table"]
    a = Stamped([server.ws], ann["token"], base, seed=8, ready_after=None)
    b = Stamped([server.ws], bob["token"], base, seed=9, ready_after=None)

    async def first_hand() -> None:
        task = asyncio.ensure_future(play([a, b], lambda: len(a.hands) >= 1
                                          and len(b.hands) >= 1))
        while not any(m["type"] == "state" for m in a.messages):
            await asyncio.sleep(0.02)
        await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/join", bob["token"])
        await task

    asyncio.run(first_hand())
    assert http("POST", f"{base}/api/tables/{table}/leave", ann["token"]).json()["left"] is True
    server.kill()
    server.start()
    again = Stamped([server.ws], bob["token"], base, seed=10, ready_after=None)

    async def second_hand() -> None:
        task = asyncio.ensure_future(play([again], lambda: len(again.hands) >= 1))
        # The restarted process runs the table (once the dead one's lease is out): between
        # hands, seat 0 free, waiting for bob's Continue.
        while not any(m["type"] == "ready" for m in again.messages):
            await asyncio.sleep(0.02)
        waiting = next(m for m in again.messages if m["type"] == "ready")
        assert waiting["ready"] == [False, True, True, False], waiting
        assert waiting["deal_ms"] is not None and waiting["deal_ms"] > 100_000, waiting
        assert not any(m["type"] == "event" for m in again.messages)
        r = await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/ready",
                                    bob["token"])
        assert r.status_code == 200, r.text
        await task

    asyncio.run(second_hand())
    hands = hands_of(base, bob["token"], table)
    assert len(hands) == 2
    assert hands[1]["seats"][0] not in (ann["player"], *hands[0]["seats"])
    assert hands[1]["seats"][3] == bob["player"]
    server.stop()
    audit(url)
