"""取消托管 at a table (issue 49), against real server processes with real websocket clients: two
timeouts in a row switch a person's seat to auto-play (docs/rules.md §8); ``POST
/api/tables/{id}/cancel-auto-play`` gives it back at its next decision — only the seat's own
person, only while the engine auto-plays it (else a clear 409) — and the cancel is a stored
decision, so a process killed after it replays the hand with the seat back in its person's hands."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Dict, List, Optional, Tuple

from .client import Person, audit, hands_of, http, new_player, play, seat_view_matches


class LetsItTimeOut(Person):
    """A person who lets every decision run out of time until the engine auto-plays the seat,
    then presses 取消托管 and answers every request from then on. ``tries`` are the other
    callers' attempts, made first: (label, token or None, table id)."""

    def __init__(self, urls: List[str], token: str, base: str, table: int,
                 tries: List[Tuple[str, Optional[str], int]]) -> None:
        super().__init__(urls, token, seed=1, act=False)
        self.base = base
        self.table_id = table
        self.tries = tries
        self.answers: Dict[str, Any] = {}  # label -> (status, body)

    def _cancel(self, token: Optional[str], table: int) -> Tuple[int, Any]:
        r = http("POST", f"{self.base}/api/tables/{table}/cancel-auto-play", token)
        return r.status_code, r.json()

    async def session(self, ws: Any, done: Any) -> None:
        async for m in self.incoming(ws, done):
            if (m["type"] == "event" and m["event"] == {"type": "auto_play", "actor": self.seat}
                    and not self.answers):
                for label, token, table in self.tries:
                    self.answers[label] = await asyncio.to_thread(self._cancel, token, table)
                self.answers["own"] = await asyncio.to_thread(self._cancel, self.token,
                                                              self.table_id)
                self.act = True
                self.answers["again"] = await asyncio.to_thread(self._cancel, self.token,
                                                                self.table_id)
            if m["type"] == "request" and self.act:
                await self.answer(ws, m)


def test_only_the_seats_person_cancels_its_auto_play_and_it_is_asked_again_at_its_next_decision(
        serve, tmp_path):
    url = f"sqlite:///{tmp_path}/cancel.db"
    # × 0.02: the exchange and the void 0.3 s (they run out), a turn and a claim 10 s (answered
    # after the cancel), a bot's move 0.2 s (the hand lasts well past the cancel); a lease of
    # 0.5 s, so the restarted process takes the table over at once.
    server = serve(url, "--human-turn", "500", "--human-claim", "500", "--bot-delay", "10",
                   "--lease", "0.5")
    base = server.address
    ann, bob, cat = (new_player(base, n) for n in ("ann", "bob", "cat"))
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 2}).json()["table"]
    # bob sits at the table too (seat 3); cat sits nowhere.
    a = LetsItTimeOut([server.ws], ann["token"], base, table,
                      [("bob", bob["token"], table), ("cat", cat["token"], table),
                       ("nobody", None, table), ("no table", ann["token"], 10**9)])
    b = Person([server.ws], bob["token"], seed=2)
    state: Dict[str, Any] = {}

    async def seat_bob_then_restart_after_anns_first_answer() -> None:
        while not (a.connects and b.connects and a.seat == 0):
            await asyncio.sleep(0.01)
        r = await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/join", bob["token"])
        state["join"] = r.status_code
        limit = time.monotonic() + 300  # only against a hang
        while a.acts < 1:
            assert time.monotonic() < limit and not a.hands, "ann was never asked again"
            await asyncio.sleep(0.01)
        # The cancel is stored like any decision: a new process replays it, and ann keeps her seat.
        await asyncio.to_thread(server.kill)
        await asyncio.to_thread(server.start)
        state["restarted"] = True

    limit = time.monotonic() + 240  # only against a hang
    asyncio.run(play([a, b], lambda: (len(a.hands) >= 1 and "restarted" in state)
                     or time.monotonic() > limit, seat_bob_then_restart_after_anns_first_answer()))
    assert state["join"] == 200 and "restarted" in state
    assert a.hands, "the hand did not finish after the restart"

    assert a.answers["bob"][0] == 409  # bob's own seat, which is not on auto-play; not ann's
    assert "seat 3 is not on auto-play" in a.answers["bob"][1]["error"]
    assert a.answers["cat"][0] == 403 and "do not sit at table" in a.answers["cat"][1]["error"]
    assert a.answers["nobody"][0] == 401
    assert a.answers["no table"][0] == 404
    status, body = a.answers["own"]
    assert status == 200 and body["table"] == table and body["seat"] == 0
    assert body["auto_play"][0] is False
    status, body = a.answers["again"]  # once given back, there is nothing to cancel
    assert status == 409 and body == {"error": "seat 0 is not on auto-play (two timeouts in a "
                                               "row switch it on)"}

    # The record: two timeouts, the cancel, then ann's own answers (she was asked again).
    hand = hands_of(base, ann["token"], table)[0]
    own = [what for s, what in hand["record"]["decisions"] if s == 0]
    assert own[:3] == ["timeout", "timeout", "cancel_auto_play"]
    assert own[3:] and all(isinstance(x, int) for x in own[3:])
    # Everyone saw the cancel (a public event), and between it and ann's next request the engine
    # made no move for her (her own draws aside).
    for person in (a, b):
        assert {"type": "auto_play_cancelled", "actor": 0} in [
            m["event"] for m in person.messages if m["type"] == "event"]
    at = next(i for i, m in enumerate(a.messages) if m["type"] == "event"
              and m["event"]["type"] == "auto_play_cancelled")
    asked = next(i for i, m in enumerate(a.messages) if i > at and m["type"] == "request")
    assert [m["event"] for m in a.messages[at + 1:asked] if m["type"] == "event"
            and m["event"].get("actor") == 0 and m["event"]["type"] != "tsumo"] == []
    assert seat_view_matches(a, [hand["record"]]) == 1
    # The only errors: the restarted process naming the dead one until it took the table over.
    assert all(e == f"table {table} is served by {base}" for e in a.errors + b.errors)
    server.stop()
    audit(url)  # the stored decisions, the cancel among them, are the record's; coins add up
