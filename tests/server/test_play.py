"""Whole hands on a real server process (SQLite and PostgreSQL) with real websocket clients: two
people and two server bots, coins checked against the stored settlements."""

from __future__ import annotations

import asyncio
import time

import xueliu

from .client import Person, audit, hands_of, http, new_player, play, query, seat_view_matches


def test_health_and_a_new_player(serve, db_url):
    server = serve(db_url)
    assert http("GET", f"{server.address}/health").json() == {"ok": True}
    p = new_player(server.address, "ann")
    assert p["coins"] == 1000 and isinstance(p["player"], int)
    me = http("GET", f"{server.address}/api/me", p["token"]).json()
    assert me == {"player": p["player"], "name": "ann", "coins": 1000, "tables": []}


def test_two_people_and_two_bots_play_whole_hands(serve, db_url):
    # People get 2 s a decision (× 0.2) and are never auto-played (away 20 s): a busy machine
    # slows their answers, and a late one would be an error this test counts. Bots think 20 ms.
    # The people never press Continue: the next hand comes at the ready timeout, 1 s (5 × 0.2).
    server = serve(db_url, "--time-scale", "0.2", "--bot-delay", "0.1", "--auto-delay", "100",
                   "--ready-timeout", "5")
    base = server.address
    ann, bob = new_player(base, "ann"), new_player(base, "bob")
    r = http("POST", f"{base}/api/tables", ann["token"],
             json={"rules": "xueliu", "bots": 2, "base": 2})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert r.json()["seat"] == 0
    people = [Person([server.ws], ann["token"], seed=1), Person([server.ws], bob["token"], seed=2)]

    async def scenario():
        task = asyncio.ensure_future(play(people, lambda: all(len(p.hands) >= 2 for p in people)))
        while not any(m["type"] == "state" for m in people[0].messages):
            await asyncio.sleep(0.02)  # ann is connected and waiting: bob's join starts the table
        joined = await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/join",
                                         bob["token"])
        assert joined.json() == {"table": table, "seat": 3}
        await task

    asyncio.run(scenario())

    hands = hands_of(base, ann["token"], table)
    assert len(hands) >= 2
    records = [h["record"] for h in hands]
    for h in hands:
        assert h["record"]["rules"]["base"] == 2
        assert len(h["seats"]) == 4 and h["seats"][0] == ann["player"]
        assert h["seats"][3] == bob["player"]
        assert sum(h["settlement"]["net"]) + sum(
            t["amount"] for t in h["settlement"]["transfers"] if t["payee"] is None) == 0
        assert xueliu.replay(h["record"]).settlement().net == h["settlement"]["net"]
    for person, who in zip(people, (ann, bob)):
        assert person.errors == []
        assert seat_view_matches(person, records) >= 2
        # The hand_end message carries the stored settlement's net and the coins after it.
        for seen in person.hands:
            stored = next(h for h in hands if xueliu.replay(h["record"]).events(person.seat)[0]
                          == seen["events"][0])
            assert seen["net"] == stored["settlement"]["net"]
        me = http("GET", f"{base}/api/me", who["token"]).json()
        assert me["tables"] == [table]
    server.stop()
    counts = audit(db_url)
    assert counts["settled"] == len(hands_of_db(db_url, table))
    # People's coins: 1000 plus their net over the hands they sat in (audit checked every player).
    assert counts["settled"] >= 2


def hands_of_db(url, table):
    from .client import query
    return query(url, "SELECT id FROM hands WHERE table_id = ? AND status = 'settled'", (table,))


def test_a_table_of_four_people_and_the_coins_they_end_with(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/four.db"
    server = serve(url)
    base = server.address
    players = [new_player(base, f"p{i}") for i in range(4)]
    table = http("POST", f"{base}/api/tables", players[0]["token"],
                 json={"rules": "xuezhan", "bots": 0}).json()["table"]
    for p in players[1:]:
        assert http("POST", f"{base}/api/tables/{table}/join", p["token"]).status_code == 200
    full = http("POST", f"{base}/api/tables/{table}/join", new_player(base, "late")["token"])
    assert full.status_code == 409 and "full" in full.json()["error"]
    people = [Person([server.ws], p["token"], seed=i) for i, p in enumerate(players)]
    asyncio.run(play(people, lambda: all(len(p.hands) >= 1 for p in people)))
    hands = hands_of(base, players[0]["token"], table)
    # Each hand_end carried everyone's coins after that hand: the chain of stored nets.
    for person in people:
        for seen in person.hands:
            stored = next(h for h in hands if xueliu.replay(h["record"]).events(person.seat)[0]
                          == seen["events"][0])
            before = stored["record"]["coins"]
            assert seen["coins"] == [c + n for c, n in zip(before, stored["settlement"]["net"])]
    server.stop()
    audit(url)


def test_leaving_mid_hand_takes_effect_after_the_hand(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/leave.db"
    server = serve(url)
    base = server.address
    ann = new_player(base, "ann")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    person = Person([server.ws], ann["token"], seed=5)
    state = {"left": None}

    async def leave_once_playing():
        while person.acts < 3:
            await asyncio.sleep(0.01)
        r = await asyncio.to_thread(http, "POST", f"{base}/api/tables/{table}/leave", ann["token"])
        state["left"] = r.json()

    asyncio.run(play([person], lambda: len(person.hands) >= 1 or bool(person.closes),
                     leave_once_playing()))
    assert state["left"] == {"table": table, "seat": 0, "left": False}
    assert http("GET", f"{base}/api/me", ann["token"]).json()["tables"] == []
    assert len(hands_of(base, ann["token"], table)) == 1  # the hand she started was finished
    # Nobody is left at the table: it is closed and refuses newcomers.
    bob = new_player(base, "bob")
    assert http("POST", f"{base}/api/tables/{table}/join", bob["token"]).status_code == 409
    server.stop()
    audit(url)


def test_static_files_are_served_at_the_root(serve, tmp_path):
    server = serve(f"sqlite:///{tmp_path}/static.db")
    r = http("GET", f"{server.address}/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "xueliu" in r.text
    assert http("GET", f"{server.address}/api/nothing").status_code == 404


def test_serve_refuses_a_bad_database_in_one_line(tmp_path):
    import subprocess
    import sys

    for db in ("mysql://x", f"sqlite:///{tmp_path}/no/such/dir/x.db"):
        out = subprocess.run([sys.executable, "-m", "xueliu", "serve", "--port", "0", "--db", db],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 1
        assert out.stderr.startswith("xueliu serve: error:") and out.stderr.count("\n") == 1


def test_analyze_answers_a_players_own_hand_as_the_cli_does(serve, tmp_path):
    from xueliu.analysis import analyze, as_json

    server = serve(f"sqlite:///{tmp_path}/analyze.db")
    url = f"{server.address}/api/analyze"
    body = {"hand": "12345678m22p4566p", "visible": ["3m", "3m", "9m"], "rules": "xueliu"}
    assert http("POST", url, json=body).status_code == 401
    token = new_player(server.address, "ann")["token"]
    r = http("POST", url, token, json=body)
    assert r.status_code == 200
    assert r.json() == as_json(analyze("12345678m22p4566p", visible="3m3m9m"))
    assert r.json()["discards"][0]["discard"] == "6p"
    for bad in ({"hand": "12345m"}, {"hand": "55555m1234p"}, {"hand": 5},
                {"hand": "12345678m22p4566p", "void": "x"},
                {"hand": "12345678m22p4566p", "rules": {"no_such_knob": 1}}):
        r = http("POST", url, token, json=bad)
        assert r.status_code == 400 and r.json()["error"], bad


def test_joining_again_returns_your_seat_and_leaving_between_hands_is_at_once(serve, tmp_path):
    """Joining your own table again returns your seat; leaving before the table has dealt is
    immediate (``left`` true) and never an escape; a table with no person left closes."""
    url = f"sqlite:///{tmp_path}/between.db"
    server = serve(url)
    base = server.address
    ann, bob = new_player(base, "ann"), new_player(base, "bob")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 1}).json()["table"]
    assert http("POST", f"{base}/api/tables/{table}/join", bob["token"]).json() == \
        {"table": table, "seat": 2}
    assert http("POST", f"{base}/api/tables/{table}/join", bob["token"]).json() == \
        {"table": table, "seat": 2}  # again: the same seat, not a second one
    assert http("POST", f"{base}/api/tables/{table}/leave", bob["token"]).json() == \
        {"table": table, "seat": 2, "left": True}
    assert http("GET", f"{base}/api/me", bob["token"]).json()["tables"] == []
    assert http("POST", f"{base}/api/tables/{table}/leave", ann["token"]).json()["left"] is True
    assert query(url, "SELECT status, owner FROM tables WHERE id = ?", (table,)) == \
        [("closed", None)]
    assert query(url, "SELECT COUNT(*) FROM hands") == [(0,)]
    assert query(url, "SELECT fees FROM house") == [(0,)]  # no escape penalty
    server.stop()
    audit(url)


def test_a_person_seated_but_never_connected_is_auto_played_and_leaves_after_the_hand(
        serve, tmp_path):
    """Seated while not connected counts as away from then on: auto-played (托管, recorded as
    ordinary decisions, not timeouts), and away for the whole hand, removed after it."""
    url = f"sqlite:///{tmp_path}/away.db"
    server = serve(url, "--auto-delay", "0", "--reconnect-window", "none")
    ann = new_player(server.address, "ann")
    table = http("POST", f"{server.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    deadline = time.monotonic() + 120  # only against a hang: the condition is what we wait on
    while http("GET", f"{server.address}/api/me", ann["token"]).json()["tables"]:
        assert time.monotonic() < deadline, "ann was never removed from the table"
        time.sleep(0.1)
    hands = hands_of(server.address, ann["token"], table)
    assert len(hands) == 1
    own = [a for s, a in hands[0]["record"]["decisions"] if s == 0]
    assert own and all(isinstance(a, int) for a in own)
    server.stop()
    audit(url)
