"""Nothing is lost: the server is SIGKILLed at random points of play and restarted, clients drop
and reconnect, and two processes share one PostgreSQL database while one of them dies. Every hand
is finished, settled exactly once, coins are conserved, and records replay to their settlements
(``audit``)."""

from __future__ import annotations

import asyncio
import json
import random
import time

import xueliu

from .client import (Person, audit, hands_of, http, new_player, play, query,
                     seat_view_matches)

# Restarts are quick: a process that stopped beating for half a second is dead.
FAST = ("--lease", "0.5", "--reconnect-window", "none")


def _open_hands(url):
    return query(url, "SELECT COUNT(*) FROM hands WHERE status <> 'settled'")[0][0]


def _open_tables(url):
    return query(url, "SELECT COUNT(*) FROM tables WHERE status <> 'closed'")[0][0]


def _leave_all(base_of, people_tokens, tables):
    """Everyone leaves after the current hand (retrying while the server restarts)."""
    for token, table in people_tokens:
        while True:
            try:
                r = http("POST", f"{base_of()}/api/tables/{table}/leave", token)
            except OSError:
                time.sleep(0.1)
                continue
            if r.status_code == 200:
                break
            assert r.status_code == 409, r.text  # served elsewhere for a moment: try again
            time.sleep(0.1)


def _dealers_follow_the_first_winner(records):
    """xuezhan's next_dealer = "first_winner" (docs/rules.md §8): the first winner deals the next hand,
    the discarder after a multi-win first win, the same dealer when nobody won."""
    import xueliu

    for before, after in zip(records, records[1:]):
        wins = xueliu.replay(before).settlement().wins
        if not wins:
            expected = before["dealer"]
        elif len(wins[0].winners) > 1:
            expected = wins[0].from_seat
        else:
            expected = wins[0].seat
        assert after["dealer"] == expected


def _play_through_kills(serve, url, kills, seed):
    rng = random.Random(seed)
    server = serve(url, *FAST)
    base = server.address
    ann, bob, cat = (new_player(base, n) for n in ("ann", "bob", "cat"))
    t1 = http("POST", f"{base}/api/tables", ann["token"], json={"rules": "xueliu", "bots": 2})
    t1 = t1.json()["table"]
    t2 = http("POST", f"{base}/api/tables", cat["token"],
              json={"rules": "xuezhan", "bots": 3}).json()["table"]
    assert http("POST", f"{base}/api/tables/{t1}/join", bob["token"]).status_code == 200
    people = [Person([server.ws], p["token"], seed=i) for i, p in enumerate((ann, bob, cat))]
    killed_during = []
    state = {"done": False}

    async def killer():
        for _ in range(kills):
            # Each kill comes at a random point of play: after everyone is back (a busy machine
            # slows reconnecting; the kill must not land before anyone could play again).
            back = [p.connects for p in people]
            await asyncio.sleep(rng.uniform(0.05, 1.2))
            killed_during.append(_open_hands(url))
            await asyncio.to_thread(server.kill)
            await asyncio.to_thread(server.start)  # same port: the clients' address still works
            limit = time.monotonic() + 300  # only against a hang
            while any(p.connects <= n for p, n in zip(people, back)):
                assert time.monotonic() < limit, "the people never reconnected"
                await asyncio.sleep(0.02)
        await asyncio.sleep(0.5)
        await asyncio.to_thread(_leave_all, lambda: server.address,
                                [(ann["token"], t1), (bob["token"], t1), (cat["token"], t2)],
                                (t1, t2))
        while _open_tables(url):
            await asyncio.sleep(0.1)
        state["done"] = True

    asyncio.run(play(people, lambda: state["done"], killer()))
    assert _open_hands(url) == 0  # every hand dealt was finished
    records = {t: [h["record"] for h in hands_of(server.address, tok, t)]
               for t, tok in ((t1, ann["token"]), (t2, cat["token"]))}
    server.stop()
    counts = audit(url)
    assert counts["settled"] == len(records[t1]) + len(records[t2])
    # Kills fell inside hands, and the people carried on after reconnecting.
    assert sum(1 for n in killed_during if n) >= kills // 2
    for p, t in zip(people, (t1, t1, t2)):
        assert p.connects > kills // 2
        seat_view_matches(p, records[t])
    _dealers_follow_the_first_winner(records[t2])
    return counts


def test_twenty_sigkills_during_play_lose_nothing_sqlite(serve, tmp_path):
    counts = _play_through_kills(serve, f"sqlite:///{tmp_path}/kill.db", kills=20, seed=7)
    assert counts["settled"] >= 4


def test_sigkills_during_play_lose_nothing_postgres(serve, pg_url):
    counts = _play_through_kills(serve, pg_url, kills=8, seed=8)
    assert counts["settled"] >= 2


def _first_request(person):
    return next(m for m in person.messages if m["type"] == "request")


def test_a_dropped_client_gets_its_state_and_pending_request_again(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/drop.db"
    # Slow clocks here: 60 s for the exchange, auto-play of a dropped seat after 20 s (time to
    # come back first, even on a busy machine); the bots answer at once.
    server = serve(url, "--time-scale", "4", "--auto-delay", "5", "--bot-delay", "0.0025")
    ann = new_player(server.address, "ann")
    table = http("POST", f"{server.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    first = Person([server.ws], ann["token"], act=False)
    asyncio.run(play([first], lambda: any(m["type"] == "request" for m in first.messages)))
    pending = _first_request(first)  # the connection is closed now: ann dropped
    second = Person([server.ws], ann["token"], seed=3)
    asyncio.run(play([second], lambda: len(second.hands) >= 1))
    assert second.messages[0]["type"] == "state"
    assert second.messages[0]["observation"]["pending"] is True
    again = second.messages[1]
    assert again["type"] == "request" and again["seq"] == pending["seq"]
    assert again["actions"] == pending["actions"]
    assert second.errors == []  # its answer to the old seq was accepted
    hands = hands_of(server.address, ann["token"], table)
    own = [a for s, a in hands[0]["record"]["decisions"] if s == 0]
    assert own[0] in {a["id"] for a in pending["actions"]}  # her own answer, no timeout
    assert seat_view_matches(second, [h["record"] for h in hands]) == 1
    server.stop()
    audit(url)


def test_a_dropped_seat_is_auto_played_then_escapes_past_the_window(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/escape.db"
    # Auto-play at once; the reconnect window is 5 × 0.2 = 1 s, well inside a hand whose bots
    # think 50 ms a decision; 3 s for the exchange (her connection closes as soon as she has the
    # request: a busy machine must not make that a timeout).
    server = serve(url, "--time-scale", "0.2", "--bot-delay", "0.25", "--auto-delay", "0",
                   "--reconnect-window", "5")
    ann = new_player(server.address, "ann")
    table = http("POST", f"{server.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    person = Person([server.ws], ann["token"], act=False)
    asyncio.run(play([person], lambda: any(m["type"] == "request" for m in person.messages)))
    # ann is gone for good: auto-played, she escapes, and after the hand she leaves the table.
    deadline = time.monotonic() + 300  # only against a hang
    while http("GET", f"{server.address}/api/me", ann["token"]).json()["tables"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    hands = hands_of(server.address, ann["token"], table)
    assert len(hands) == 1
    rec = hands[0]["record"]
    assert [0, "escape"] in rec["decisions"]
    own = [d for d in rec["decisions"][:rec["decisions"].index([0, "escape"])] if d[0] == 0]
    assert own and all(isinstance(a, int) for _, a in own)  # auto-played, not timed out
    penalty = [t for t in hands[0]["settlement"]["transfers"] if t["reason"] == "escape"]
    # xueliu: escape_penalty 3 × base 1 × room 1, to the house.
    assert penalty == [{"payer": 0, "payee": None, "amount": 3, "reason": "escape"}]
    me = http("GET", f"{server.address}/api/me", ann["token"]).json()
    assert me["coins"] == 1000 + hands[0]["settlement"]["net"][0]
    server.stop()
    counts = audit(url)
    assert counts["fees"] == 3


def test_two_processes_on_one_postgres_the_survivor_finishes_the_hand(serve, pg_url):
    a = serve(pg_url, "--lease", "1", "--reconnect-window", "none")
    b = serve(pg_url, "--lease", "1", "--reconnect-window", "none")
    ann, bob = new_player(a.address, "ann"), new_player(b.address, "bob")  # one database
    table = http("POST", f"{a.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 2}).json()["table"]
    # B does not run A's table: it names the owner.
    r = http("POST", f"{b.address}/api/tables/{table}/join", bob["token"])
    assert r.status_code == 409 and a.address in r.json()["error"]
    assert http("POST", f"{a.address}/api/tables/{table}/join", bob["token"]).status_code == 200
    routed = Person([b.ws], ann["token"], act=False)
    asyncio.run(play([routed], lambda: bool(routed.closes)))
    assert routed.errors == [f"table {table} is served by {a.address}"], (routed.closes, routed.messages)
    assert routed.closes == [4409]

    people = [Person([a.ws, b.ws], p["token"], seed=i) for i, p in enumerate((ann, bob))]
    state = {"done": False, "hand": None, "acts": 0}

    async def kill_owner_mid_hand():
        while not all(p.acts >= 3 for p in people):
            await asyncio.sleep(0.02)
        rows = await asyncio.to_thread(query, pg_url, "SELECT id FROM hands WHERE status = 'playing'")
        state["hand"] = rows[0][0]
        await asyncio.to_thread(a.kill)
        state["acts"] = sum(p.acts for p in people)
        while query(pg_url, "SELECT status FROM hands WHERE id = ?", (state["hand"],))[0][0] \
                != "settled":
            await asyncio.sleep(0.1)
        await asyncio.to_thread(_leave_all, lambda: b.address,
                                [(ann["token"], table), (bob["token"], table)], (table,))
        while _open_tables(pg_url):
            await asyncio.sleep(0.1)
        state["done"] = True

    asyncio.run(play(people, lambda: state["done"], kill_owner_mid_hand()))
    owner = query(pg_url, "SELECT owner FROM tables WHERE id = ?", (table,))[0][0]
    assert owner is None  # closed by B (it clears the owner)
    hands = hands_of(b.address, ann["token"], table)
    finished = next(h for h in hands if h["hand"] == state["hand"])
    assert sum(p.acts for p in people) > state["acts"]  # they played on at B
    for p in people:
        assert p.connects >= 2  # to A, then to B
        seat_view_matches(p, [h["record"] for h in hands])
    b.stop()
    audit(pg_url)
    assert json.loads(query(pg_url, "SELECT settlement FROM hands WHERE id = ?",
                            (state["hand"],))[0][0])["net"] == finished["settlement"]["net"]


def test_a_connected_seat_that_misses_deadlines_times_out_then_is_auto_played(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/timeout.db"
    server = serve(url)  # decision times × 0.02: 0.3 s for the exchange, 0.2 s a discard
    ann = new_player(server.address, "ann")
    table = http("POST", f"{server.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    person = Person([server.ws], ann["token"], act=False)  # connected, never answers
    asyncio.run(play([person], lambda: len(person.hands) >= 1))
    rec = hands_of(server.address, ann["token"], table)[0]["record"]
    own = [a for s, a in rec["decisions"] if s == 0]
    assert own == ["timeout", "timeout"]  # then the engine plays the seat (托管): no more asks
    seen = [m["event"] for m in person.messages if m["type"] == "event"]
    assert [e["type"] for e in seen if e.get("actor") == 0 and e["type"] in
            ("timeout", "auto_play")] == ["timeout", "timeout", "auto_play"]
    # Asked twice: a request may arrive twice with one seq (a state message on connect repeats
    # the pending request the deal just sent), so the distinct seqs are what count.
    assert len({r["seq"] for r in person.requests}) == 2
    # Still seated (connected people are not removed), and the table deals on.
    assert http("GET", f"{server.address}/api/me", ann["token"]).json()["tables"] == [table]
    server.stop()
    audit(url)


def test_a_clean_shutdown_hands_its_tables_to_another_process_at_once(serve, pg_url):
    """SIGTERM: the process releases its tables before it exits, so another takes them over at
    the first request — no lease to wait for (here a lease of 10 minutes)."""
    a = serve(pg_url, "--lease", "600")
    b = serve(pg_url, "--lease", "600")
    ann, bob = new_player(a.address, "ann"), new_player(a.address, "bob")
    table = http("POST", f"{a.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 2}).json()["table"]
    assert http("POST", f"{b.address}/api/tables/{table}/join", bob["token"]).status_code == 409
    a.stop()  # SIGTERM
    r = http("POST", f"{b.address}/api/tables/{table}/join", bob["token"])
    assert r.status_code == 200 and r.json()["seat"] == 3, r.text
    b_pid = query(pg_url, "SELECT id FROM processes WHERE address = ?", (b.address,))[0][0]
    assert query(pg_url, "SELECT owner FROM tables WHERE id = ?", (table,)) == [(b_pid,)]
    assert query(pg_url, "SELECT COUNT(*) FROM processes") == [(1,)]  # A is gone from the list
    b.stop()
    audit(pg_url)


def test_after_a_restart_requests_have_new_seqs_and_old_ones_are_refused(serve, tmp_path):
    """seq is never reused, also not across restarts (docs/server.md): an answer to a request
    of the process that died is refused, and the request asked again has a higher seq."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = f"sqlite:///{tmp_path}/seq.db"
    quiet = ("--time-scale", "1", "--bot-delay", "1000", "--auto-delay", "1000", "--lease", "0.5")
    server = serve(url, *quiet)
    ann = new_player(server.address, "ann")
    table = http("POST", f"{server.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]

    def first(ws, kind):
        while True:
            m = json.loads(ws.recv(timeout=60))
            if m["type"] == kind:
                return m

    with connect(f"{server.ws}?token={ann['token']}") as ws:
        old = first(ws, "request")
    server.kill()
    server.start()  # same port, same database
    deadline = time.monotonic() + 120
    while True:  # until the dead process's lease has run out and the new one runs the table
        assert time.monotonic() < deadline, "the restarted process never took the table"
        try:
            with connect(f"{server.ws}?token={ann['token']}") as ws:
                new = first(ws, "request")
                assert new["seq"] > old["seq"] and new["actions"] == old["actions"]
                # A deadline restarts in full after a restart (the clock is not persisted).
                assert new["deadline_ms"] > 14_000
                ws.send(json.dumps({"type": "act", "table": table, "seq": old["seq"],
                                    "action": old["actions"][0]["id"]}))
                assert "not your pending request" in first(ws, "error")["message"]
                break
        except ConnectionClosed:  # 4409: the dead process still held the table
            time.sleep(0.1)
    assert query(url, "SELECT COUNT(*) FROM decisions") == [(0,)]
    server.stop()
    audit(url)


def test_a_hand_whose_last_decision_was_stored_but_not_settled_is_settled_on_load(serve, tmp_path):
    """The owner died between storing a hand's last decision and its settlement: the process
    that takes the table over replays the record, finds the hand over, and settles it — once,
    with the coins the replay gives."""
    from xueliu.bots import GreedyBot, play_hand
    from xueliu.server import store

    from .client import Db

    url = f"sqlite:///{tmp_path}/unsettled.db"
    rules = xueliu.Rules.preset("xueliu")
    game = xueliu.new_game(rules, seed=21, dealer=0, coins=[1000] * 4)
    start = game.record()
    start.pop("result", None)
    start["decisions"] = []
    play_hand(game, [GreedyBot(rules=rules) for _ in range(4)])
    db = Db(url)
    try:  # what a process "ghost" (never registered: dead) wrote before it died
        ann = db.run(store.create_player("ann", "hash-of-a-token-nobody-has", 1000))
        table = db.run(store.create_table("ghost", rules.to_dict(), ann, 3, 1000))
        players = [r[0] for r in db.sql("SELECT player_id FROM seats WHERE table_id = ?"
                                        " ORDER BY seat", (table,))]
        hand = db.run(store.deal(table, "ghost", 0, players, start, seq=1))
        for idx, (seat, action) in enumerate(game.record()["decisions"]):
            db.run(store.add_decision(table, "ghost", hand, idx, seat, str(action), seq=2 + idx))
    finally:
        db.close()
    server = serve(url, "--lease", "0.5", "--bot-delay", "1000", "--auto-delay", "1000")
    deadline = time.monotonic() + 120
    while query(url, "SELECT status FROM hands WHERE id = ?", (hand,)) != [("settled",)]:
        assert time.monotonic() < deadline, "the stored hand was never settled"
        time.sleep(0.1)
    st = game.settlement()
    stored = json.loads(query(url, "SELECT settlement FROM hands WHERE id = ?", (hand,))[0][0])
    assert stored["net"] == list(st.net)
    assert [query(url, "SELECT coins FROM players WHERE id = ?", (p,))[0][0]
            for p in players] == list(st.coins)
    server.stop()
    audit(url)
