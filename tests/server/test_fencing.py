"""Every write for a table is fenced by ``owner = me`` (docs/server.md, "Several processes"): a
process that stalls past its lease and wakes up — alive, its clients still connected, its tables
still in its memory — must not write a decision, seat a player or deal a hand for a table another
process now owns. It stops that table and sends its clients away (close 4409).

The stall is real: the owner is frozen with SIGSTOP until the other process has taken its table
over (seen in the database, not guessed from a clock), then woken with SIGCONT. Several processes
share PostgreSQL (the documented set-up for more than one process)."""

from __future__ import annotations

import json
import signal
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .client import audit, http, new_player, query

# Slow timers (× 10: 150 s for the exchange) and bots that never answer: nothing is written for
# the table by anyone during the test unless a client acts, so every decision in the database is
# one a test sent. The lease is short: a process silent for a second is dead.
STILL = ("--time-scale", "10", "--bot-delay", "1000", "--auto-delay", "1000",
         "--reconnect-window", "none", "--lease", "1")


def _pid_of(url, server):
    return query(url, "SELECT id FROM processes WHERE address = ?", (server.address,))[0][0]


def _owner(url, table):
    return query(url, "SELECT owner FROM tables WHERE id = ?", (table,))[0][0]


def _wait_until(condition, what, limit=120.0):
    """Waits on a condition (polling), with a limit only against a hang."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.05)


class Stalled:
    """``with Stalled(a, url, table, b):`` freezes process ``a`` (SIGSTOP) until ``b`` owns
    ``table`` in the database, and wakes ``a`` (SIGCONT) at the end of the block — also when the
    block fails, so the fixture can stop it."""

    def __init__(self, a, url, table, b):
        self.a, self.url, self.table, self.b = a, url, table, b

    def __enter__(self):
        b_pid = _pid_of(self.url, self.b)
        self.a.proc.send_signal(signal.SIGSTOP)
        try:
            _wait_until(lambda: _owner(self.url, self.table) == b_pid,
                        f"{self.b.address} to take table {self.table} over")
        except BaseException:
            self.a.proc.send_signal(signal.SIGCONT)
            raise
        return self

    def __exit__(self, *exc):
        self.a.proc.send_signal(signal.SIGCONT)


def _recv(ws, kind):
    for _ in range(200):
        m = json.loads(ws.recv(timeout=60))
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


def _until_closed(ws, quiet=30.0):
    """The messages until the server closes the connection, and its close code (None if it
    stays open and silent for ``quiet`` seconds: only a failing test waits that long)."""
    seen = []
    try:
        while True:
            seen.append(json.loads(ws.recv(timeout=quiet)))
    except ConnectionClosed as e:
        return seen, None if e.rcvd is None else e.rcvd.code
    except TimeoutError:
        return seen, None


def _act(table, request):
    return json.dumps({"type": "act", "table": table, "seq": request["seq"],
                       "action": request["actions"][0]["id"]})


def test_a_process_that_stalled_past_its_lease_writes_no_decision_for_the_table_it_lost(
        serve, pg_url):
    a = serve(pg_url, *STILL)
    b = serve(pg_url, *STILL)
    ann = new_player(a.address, "ann")
    table = http("POST", f"{a.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    assert _owner(pg_url, table) == _pid_of(pg_url, a)
    with connect(f"{a.ws}?token={ann['token']}", open_timeout=60) as ws:
        request = _recv(ws, "request")  # A deals: ann must choose her three tiles to exchange
        with Stalled(a, pg_url, table, b):
            pass  # A is frozen until B owns the table, then woken: it still thinks it runs it
        # Ann answers A's request on her old connection, which A still holds open.
        ws.send(_act(table, request))
        seen, code = _until_closed(ws)
    assert query(pg_url, "SELECT COUNT(*) FROM decisions") == [(0,)]  # A wrote nothing
    assert code == 4409, seen  # ... and sent ann away
    assert [m["message"] for m in seen if m["type"] == "error"] == [
        f"table {table} moved to another process; reconnect"]
    assert _owner(pg_url, table) == _pid_of(pg_url, b)

    # Back at A, ann is sent on to B, which asks her again (a new seq) and takes her answer.
    with connect(f"{a.ws}?token={ann['token']}", open_timeout=60) as ws:
        assert _recv(ws, "error")["message"] == f"table {table} is served by {b.address}"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=60)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
    with connect(f"{b.ws}?token={ann['token']}", open_timeout=60) as ws:
        again = _recv(ws, "request")
        assert again["seq"] > request["seq"] and again["actions"] == request["actions"]
        ws.send(_act(table, again))
        _wait_until(lambda: query(pg_url, "SELECT COUNT(*) FROM decisions") == [(1,)],
                    "B to store ann's decision")
    a.stop()
    b.stop()
    audit(pg_url)


def test_a_process_that_stalled_past_its_lease_seats_no_one_and_deals_no_hand_there(
        serve, pg_url):
    a = serve(pg_url, *STILL)
    b = serve(pg_url, *STILL)
    ann, bob = new_player(a.address, "ann"), new_player(a.address, "bob")
    table = http("POST", f"{a.address}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 2}).json()["table"]  # a seat free: no deal
    with Stalled(a, pg_url, table, b):
        pass
    # A still holds the waiting table in memory; the fourth player would make it deal.
    r = http("POST", f"{a.address}/api/tables/{table}/join", bob["token"])
    assert r.status_code == 409 and "moved to another process" in r.json()["error"], r.text
    assert query(pg_url, "SELECT COUNT(*) FROM seats WHERE table_id = ?", (table,)) == [(3,)]
    assert query(pg_url, "SELECT COUNT(*) FROM hands") == [(0,)]
    # Asked again, A names the owner; at B the join deals the first hand.
    r = http("POST", f"{a.address}/api/tables/{table}/join", bob["token"])
    assert r.status_code == 409 and b.address in r.json()["error"], r.text
    r = http("POST", f"{b.address}/api/tables/{table}/join", bob["token"])
    assert r.status_code == 200 and r.json()["seat"] == 3, r.text
    _wait_until(lambda: query(pg_url, "SELECT COUNT(*) FROM hands") == [(1,)], "B to deal")
    assert _owner(pg_url, table) == _pid_of(pg_url, b)
    a.stop()
    b.stop()
    audit(pg_url)
