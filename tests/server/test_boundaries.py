"""The server's input checks at their boundaries (issue 48, kind 5): a bool is not an int in a
request body, each range ends where docs/server.md says, and a refused request creates nothing."""

from __future__ import annotations

from .client import http, new_player, query

MAX_BASE = 1_000_000  # ServerConfig.max_base


def test_a_table_body_refuses_bools_and_takes_each_range_to_its_end(serve, tmp_path):
    url = f"sqlite:///{tmp_path}/bounds.db"
    server = serve(url, "--bot-delay", "0", "--auto-delay", "0")
    base = server.address
    ann = new_player(base, "ann")
    refused = [
        {"base": True}, {"base": False}, {"base": 0}, {"base": MAX_BASE + 1}, {"base": 2.0},
        {"base": "auto"},  # only a rules object may ask for the stacks' 1 %
        {"bots": True}, {"bots": False}, {"bots": -1}, {"bots": 4},
        {"rules": {"max_fan": True}}, {"rules": {"room": True}}, {"rules": {"menqing": 1}},
        {"rules": {"players": 2}, "bots": 2},  # two seats: the creator and at most one bot
        {"spectators": 1}, {"spectators": "true"},
    ]
    for body in refused:
        r = http("POST", f"{base}/api/tables", ann["token"], json=body)
        assert r.status_code == 400 and "error" in r.json(), (body, r.text)
    assert query(url, "SELECT COUNT(*) FROM tables")[0][0] == 0
    # The ends of the ranges are taken (each by a new player: one sits at one table at a time).
    for i, body in enumerate([{"base": MAX_BASE}, {"base": 1}, {"bots": 0}, {"bots": 3},
                              {"rules": {"max_fan": 1}, "bots": 0},
                              {"rules": {"players": 2, "suits": ["s"], "declare_void": False},
                               "bots": 1}]):
        who = new_player(base, f"p{i}")
        r = http("POST", f"{base}/api/tables", who["token"], json=body)
        assert r.status_code == 200, (body, r.text)
    stakes = sorted(row[0] for row in query(url, "SELECT rules FROM tables"))
    assert any(f'"base": {MAX_BASE}' in s for s in stakes)
    server.stop()


def test_query_parameters_end_where_they_say(serve, tmp_path):
    server = serve(f"sqlite:///{tmp_path}/params.db", "--bot-delay", "0", "--auto-delay", "0")
    base = server.address
    ann = new_player(base, "ann")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"bots": 0, "spectators": True}).json()["table"]
    # limit 1..100; before a positive integer.
    for ok in ("limit=1", "limit=100", "before=1", "before=999999999999999"):
        assert http("GET", f"{base}/api/me/hands?{ok}", ann["token"]).status_code == 200, ok
    for bad in ("limit=0", "limit=101", "limit=true", "limit=1.0", "limit=-1", "before=x",
                "before=9999999999999999"):
        assert http("GET", f"{base}/api/me/hands?{bad}", ann["token"]).status_code == 400, bad
    # since: a non-negative integer of at most nine digits.
    spectate = f"{base}/api/tables/{table}/spectate"
    for ok in ("since=0", "since=999999999"):
        r = http("GET", f"{spectate}?{ok}")
        assert r.status_code == 200 and r.json()["events"] == [], ok
    for bad in ("since=-1", "since=1000000000", "since=true", "since=1.5"):
        assert http("GET", f"{spectate}?{bad}").status_code == 400, bad
    # Names: 32 characters are a name, 33 are not.
    assert http("POST", f"{base}/api/players", json={"name": "x" * 32}).status_code == 200
    assert http("POST", f"{base}/api/players", json={"name": "x" * 33}).status_code == 400
    assert http("POST", f"{base}/api/players", json={"name": True}).status_code == 400
    server.stop()
