"""Who sees what, who owns what, on a real server (issue 48, kind 4).

- A spectator is *exactly* one event behind a hand in play — not level with the table, not two
  behind — and sees the whole hand once it is over (server/spectate.py).
- Nothing of a hand in play is in anyone's history: not in ``/api/tables/{id}/hands``, not in
  ``/api/me/hands``, and its replay and review are 404 until it is settled.
- A player's history holds exactly the hands in which that player held a seat: at a table
  whose seat changed hands (bob leaves, carl takes his seat), bob's history is his hands and
  carl's is carl's, each with the seat they held, and neither may open the other's replay or
  review (server/history.py, ``store.player_hands``).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Dict, List, Optional

import xueliu
from xueliu.server.spectate import public_events

from .client import Person, audit, hands_of, http, new_player, play, query


class Watched(Person):
    """A person who, each time the table waits on it, first asks ``check`` (the table cannot
    move on without this seat's answer, so what everyone is shown stands still meanwhile)."""

    def __init__(self, *args: Any, check: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.check = check

    async def session(self, ws: Any, done: Any) -> None:
        async for m in self.incoming(ws, done):
            if m["type"] == "request":
                await asyncio.to_thread(self.check, m)
                await self.answer(ws, m)


def _wait_unseated(base: str, token: str) -> None:
    for _ in range(400):
        if http("GET", f"{base}/api/me", token).json()["tables"] == []:
            return
        time.sleep(0.05)
    raise AssertionError("the player is still seated")


def test_a_spectator_is_exactly_one_event_behind_and_a_hand_in_play_is_in_no_history(
        serve, tmp_path):
    # Slow timers (a discard has 5 s): while the table waits on ann, nothing moves.
    url = f"sqlite:///{tmp_path}/behind.db"
    server = serve(url, "--time-scale", "0.5", "--bot-delay", "0", "--auto-delay", "0")
    base = server.address
    ann = new_player(base, "ann")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3, "spectators": True}).json()["table"]
    checked: List[int] = []
    playing: Dict[str, Optional[int]] = {"hand": None}

    def check(request: Dict[str, Any]) -> None:
        mine = person.current  # the events of the hand so far, as ann's seat was sent them
        assert mine is not None and mine[0]["type"] == "start_hand"
        d = http("GET", f"{base}/api/tables/{table}/spectate?since=0").json()
        assert d["over"] is False
        assert d["total"] == len(mine) - 1 == len(d["events"]), (d["total"], len(mine))
        # ...and those are the public events of the hand so far: the stored start and
        # decisions replayed, rendered for nobody, less the last one.
        (hand, start), = query(url, "SELECT id, start FROM hands WHERE table_id = ? AND"
                                    " status <> 'settled'", (table,))
        record = json.loads(start)
        record["decisions"] = [[s, a if a in ("timeout", "escape") else int(a)] for s, a in query(
            url, "SELECT seat, action FROM decisions WHERE hand_id = ? ORDER BY idx", (hand,))]
        public = public_events(xueliu.replay(record))
        assert len(public) == len(mine) and d["events"] == public[:-1]
        assert d["hand"] == hand
        playing["hand"] = hand
        # A hand in play is in nobody's history, and its replay and review are not there yet.
        if not checked:
            assert all(h["hand"] != hand for h in hands_of(base, ann["token"], table))
            assert all(h["hand"] != hand for h in
                       http("GET", f"{base}/api/me/hands", ann["token"]).json()["hands"])
            for path in (f"/api/hands/{hand}/replay", f"/api/hands/{hand}/replay?view=open",
                         f"/api/hands/{hand}/review"):
                assert http("GET", base + path, ann["token"]).status_code == 404, path
        checked.append(request["seq"])

    person = Watched([server.ws], ann["token"], seed=8, check=check)
    asyncio.run(play([person], lambda: len(person.hands) >= 1))
    assert len(checked) >= 10  # the exchange, the void, discards and claims of a whole hand
    # Over: the whole hand, the last event included.
    stored = {h["hand"]: h for h in hands_of(base, ann["token"], table)}
    hand = playing["hand"]
    assert hand in stored
    public = public_events(xueliu.replay(stored[hand]["record"]))
    assert public[-1]["type"] == "end_hand"
    d = http("GET", f"{base}/api/tables/{table}/spectate?since=0&hand={hand}").json()
    if d["hand"] == hand:  # (unless the next hand was dealt in between)
        assert d["over"] is True and d["events"] == public and d["total"] == len(public)
    assert person.hands[0]["events"] == xueliu.replay(stored[hand]["record"]).events(0)
    http("POST", f"{base}/api/tables/{table}/leave", ann["token"])
    server.stop()
    audit(url)


def _hand_ends(person: Person) -> int:
    return sum(m["type"] == "hand_end" for m in person.messages)


def test_a_players_history_holds_exactly_the_hands_that_player_held_a_seat_in(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/owners.db"
    # The ready timeout (100000 × 0.02 s) never runs out and ann and carl stay connected until
    # they have left: no hand is dealt but by the presses of Continue below, so between hands
    # the table stands still for as long as the test takes to change its seats.
    server = serve(url, "--bot-delay", "0", "--auto-delay", "0", "--ready-timeout", "100000")
    base = server.address
    ann, bob, carl = (new_player(base, n) for n in ("ann", "bob", "carl"))
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 2}).json()["table"]
    assert http("POST", f"{base}/api/tables/{table}/join", bob["token"]).json()["seat"] == 3
    people = {"ann": Person([server.ws], ann["token"], seed=1),
              "bob": Person([server.ws], bob["token"], seed=2)}
    finished = {"done": False}

    async def until(condition: Any) -> None:
        while not condition():
            await asyncio.sleep(0.01)

    async def post(who: Dict[str, Any], action: str) -> Dict[str, Any]:
        r = await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/{action}",
                                    who["token"])
        assert r.status_code == 200, (action, r.text)
        return dict(r.json())

    async def bob_leaves_then_carl_sits_down() -> None:
        # bob leaves during his first hand (it takes effect after it); nobody presses Continue,
        # so the table waits between hands while carl takes seat 3.
        await until(lambda: people["bob"].acts >= 2)
        await post(bob, "leave")
        await asyncio.to_thread(_wait_unseated, base, bob["token"])
        assert (await post(carl, "join"))["seat"] == 3
        people["carl"] = c = Person([server.ws], carl["token"], seed=3)
        playing = asyncio.ensure_future(c.run(lambda: finished["done"]))
        # Once carl is connected (he plays his hands himself), ann's Continue deals carl's
        # first hand (sitting down between hands is being ready), both presses his second.
        await until(lambda: any(m["type"] == "state" for m in c.messages))
        await post(ann, "ready")
        await until(lambda: _hand_ends(c) >= 1)
        await post(ann, "ready")
        await post(carl, "ready")
        await until(lambda: _hand_ends(c) >= 2)
        # Between hands, nothing in play: both leave at once and the table closes.
        for who in (ann, carl):
            assert (await post(who, "leave"))["left"] is True
        finished["done"] = True
        await playing

    asyncio.run(play([people["ann"], people["bob"]], lambda: finished["done"],
                     bob_leaves_then_carl_sits_down()))
    # The table is closed and every hand it dealt is settled: the stored hands and the
    # histories below are read from a table that plays no more.
    assert query(url, "SELECT status FROM tables WHERE id = ?", (table,)) == [("closed",)]
    assert query(url, "SELECT COUNT(*) FROM hands WHERE table_id = ? AND status <> 'settled'",
                 (table,)) == [(0,)]

    # Who held seat 3 in each stored hand, from the database itself.
    ids = {name: query(url, "SELECT id FROM players WHERE name = ?", (name,))[0][0]
           for name in ("ann", "bob", "carl")}
    stored = query(url, "SELECT id, seats FROM hands WHERE table_id = ? AND status = 'settled'"
                        " ORDER BY idx", (table,))
    held = {name: [(h, json.loads(s).index(pid)) for h, s in stored if pid in json.loads(s)]
            for name, pid in ids.items()}
    assert len(stored) == 3  # bob's hand, then carl's two: the seat changed hands
    assert len(held["bob"]) == 1 and len(held["carl"]) == 2
    assert not {h for h, _ in held["bob"]} & {h for h, _ in held["carl"]}
    assert len(held["ann"]) == len(stored)

    def history(token: str) -> List[Dict[str, Any]]:
        rows, before = [], ""
        while True:  # every page
            r = http("GET", f"{base}/api/me/hands?limit=1{before}", token)
            assert r.status_code == 200, r.text
            page = r.json()
            rows += page["hands"]
            if page["next"] is None:
                return rows
            before = f"&before={page['next']}"

    for name, who in (("ann", ann), ("bob", bob), ("carl", carl)):
        rows = history(who["token"])
        assert sorted((r["hand"], r["seat"]) for r in rows) == sorted(held[name]), name
        for r in rows:
            (settlement,), = query(url, "SELECT settlement FROM hands WHERE id = ?", (r["hand"],))
            assert r["net"] == json.loads(settlement)["net"][r["seat"]]
    # Neither bob nor carl may open the other's hands at the table they both sat at.
    for name, who, other in (("bob", bob, "carl"), ("carl", carl, "bob")):
        for hand, _ in held[other]:
            for path in (f"/api/hands/{hand}/replay", f"/api/hands/{hand}/replay?view=open",
                         f"/api/hands/{hand}/review"):
                assert http("GET", base + path, who["token"]).status_code == 403, (name, path)
        for hand, seat in held[name]:
            mine = http("GET", f"{base}/api/hands/{hand}/replay", who["token"]).json()
            assert mine["seat"] == seat == 3
    server.stop()
    audit(url)
