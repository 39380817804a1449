"""The server remembers (issue 19): a player's finished hands, their replay (own view, or all
hands open) and review, for the players of that hand only — on a real server process."""

from __future__ import annotations

import asyncio
import time

import xueliu
from xueliu.review import review_json, review_record

from .client import Person, hands_of, http, new_player, play


def _two_hands(serve, tmp_path):
    # --ready-timeout 3: the next hand 3 s (scaled) after one ends, so the leave asked at the end
    # of the first hand comes during the second (the person never presses Continue).
    server = serve(f"sqlite:///{tmp_path}/history.db", "--bot-delay", "0", "--auto-delay", "0",
                   "--ready-timeout", "3")
    base = server.address
    ann = new_player(base, "ann")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    person = Person([server.ws], ann["token"], seed=3)

    async def leave_in_the_second_hand():  # then the table closes: its history stays as it is
        while not person.hands:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/leave", ann["token"])

    asyncio.run(play([person], lambda: len(person.hands) >= 2 or bool(person.closes),
                     leave_in_the_second_hand()))
    for _ in range(200):
        if http("GET", f"{base}/api/me", ann["token"]).json()["tables"] == []:
            break
        time.sleep(0.05)
    return server, base, ann, table


def test_my_hands_pages_the_replay_and_review_are_for_the_players_only(serve, tmp_path):
    server, base, ann, table = _two_hands(serve, tmp_path)
    stored = hands_of(base, ann["token"], table)
    assert len(stored) >= 2
    # The history, newest first, one hand a page.
    first = http("GET", f"{base}/api/me/hands?limit=1", ann["token"]).json()
    assert len(first["hands"]) == 1 and first["next"] is not None
    row = first["hands"][0]
    newest = max(stored, key=lambda h: h["hand"])
    assert row["hand"] == newest["hand"] and row["table"] == table and row["seat"] == 0
    assert row["net"] == newest["settlement"]["net"][0] and row["mode"] == "xueliu"
    assert abs(row["finished"] - time.time()) < 600  # settled a moment ago (Unix seconds)
    assert row["replay"] == f"/replay/{row['hand']}" and row["review"] == f"/review/{row['hand']}"
    second = http("GET", f"{base}/api/me/hands?limit=1&before={first['next']}",
                  ann["token"]).json()
    assert second["hands"][0]["hand"] < row["hand"]
    everything = http("GET", f"{base}/api/me/hands", ann["token"]).json()
    assert [h["hand"] for h in everything["hands"]] == sorted(
        (h["hand"] for h in stored), reverse=True)
    assert everything["next"] is None
    # The replay: her own view by default, exactly her event stream; every hand open on request.
    hand = newest["hand"]
    record = newest["record"]
    mine = http("GET", f"{base}/api/hands/{hand}/replay", ann["token"]).json()
    assert mine["seat"] == 0 and mine["events"] == xueliu.replay(record).events(0)
    assert mine["review"] is None and set(mine["tiles"]) >= {"5m", "back"}
    open_view = http("GET", f"{base}/api/hands/{hand}/replay?view=open", ann["token"]).json()
    assert open_view["seat"] is None and open_view["events"] == xueliu.replay(record).events()
    # The review of her seat is `xueliu review --json`'s.
    review = http("GET", f"{base}/api/hands/{hand}/review", ann["token"]).json()
    assert review == review_json(review_record(record, 0))
    with_review = http("GET", f"{base}/api/hands/{hand}/replay?review=1", ann["token"]).json()
    assert with_review["review"] == review and with_review["events"] == mine["events"]
    # Anyone else: 403; no token: 401; no such hand: 404; bad parameters: 400.
    bob = new_player(base, "bob")
    for path in (f"/api/hands/{hand}/replay", f"/api/hands/{hand}/replay?view=open",
                 f"/api/hands/{hand}/review"):
        r = http("GET", base + path, bob["token"])
        assert r.status_code == 403 and "error" in r.json()
        assert http("GET", base + path).status_code == 401
    assert http("GET", f"{base}/api/me/hands", bob["token"]).json() == {"hands": [], "next": None}
    assert http("GET", f"{base}/api/hands/99999/replay", ann["token"]).status_code == 404
    assert http("GET", f"{base}/api/hands/x1/review", ann["token"]).status_code == 404
    for bad in ("limit=0", "limit=101", "limit=abc", "before=-1"):
        assert http("GET", f"{base}/api/me/hands?{bad}", ann["token"]).status_code == 400
    assert http("GET", f"{base}/api/hands/{hand}/replay?view=2",
                ann["token"]).status_code == 400
    # The pages are the viewer, which fetches that data with the player's token.
    page = http("GET", f"{base}/replay/{hand}")
    assert page.status_code == 200
    assert f'data-src="/api/hands/{hand}/replay?view=seat"' in page.text
    assert 'src="/replay.js"' in page.text
    assert http("GET", f"{base}/replay.js").status_code == 200
    assert f'data-src="/api/hands/{hand}/replay?review=1"' in \
        http("GET", f"{base}/review/{hand}").text
    server.stop()
