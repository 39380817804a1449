"""Spectators (issue 19): the public view of a live table, one event behind, and nothing in it that
every seat could not see (docs/rules.md §7) — checked on the stream itself and on a real server."""

from __future__ import annotations

import asyncio
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import xueliu
from xueliu.bots import ExpertBot, GreedyBot, RandomBot, play_hand
from xueliu.server.spectate import public_events

from .client import Person, hands_of, http, new_player, play

TILES = {f"{r}{s}" for s in "mps" for r in range(1, 10)}


def _leaves(x: Any, path: Tuple[Any, ...] = ()) -> Iterator[Tuple[Tuple[Any, ...], Any]]:
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _leaves(v, path + (i,))
    else:
        yield path, x


def _at(x: Any, path: Tuple[Any, ...]) -> Any:
    for p in path:
        x = x[p]
    return x


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_the_public_view_shows_only_what_every_seat_sees(preset):
    shown_tiles = 0
    for seed in range(6):
        state = play_hand(xueliu.new_game(preset, seed=seed),
                          [RandomBot(seed), GreedyBot(), ExpertBot(), GreedyBot()])
        public = public_events(state)
        seats = [state.events(s) for s in range(4)]
        assert len(public) == len(state.events())
        for i, e in enumerate(public):
            assert "hand" not in e  # no winner's concealed hand
            for path, value in _leaves(e):
                if value in TILES:  # a tile shown: every seat saw it there
                    assert all(_at(seats[s][i], path) == value for s in range(4)), (e, path)
                    shown_tiles += 1
            if e["type"] == "start_hand":
                assert {t for h in e["tehais"] for t in h} == {"?"}
            if e["type"] == "tsumo" or e["type"] == "ankan":
                assert {e.get("pai", "?"), *e.get("consumed", [])} == {"?"}
            if e["type"] == "huansanzhang":
                assert {t for g in e["given"] + e["received"] for t in g} == {"?"}
    assert shown_tiles > 100  # discards, melds and wins are public


def _spectated(serve, tmp_path, allow: bool):
    server = serve(f"sqlite:///{tmp_path}/spectate.db", "--bot-delay", "0.02",
                   "--auto-delay", "0")
    base = server.address
    ann = new_player(base, "ann")
    table = http("POST", f"{base}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3, "spectators": allow}).json()["table"]
    return server, base, ann, table


def test_a_spectator_follows_a_live_table_one_event_behind(serve, tmp_path):
    server, base, ann, table = _spectated(serve, tmp_path, True)
    person = Person([server.ws], ann["token"], seed=6)
    seen: Dict[int, List[Dict[str, Any]]] = {}  # per hand, the events the spectator got

    async def watch():
        hand = None
        while len(person.hands) < 2:
            have = len(seen.get(hand, [])) if hand is not None else 0
            r = await asyncio.to_thread(
                http, "GET", f"{base}/api/tables/{table}/spectate?since={have}&hand={hand or ''}")
            if r.status_code != 200 and len(person.hands) >= 2:
                break  # the person left at the end: the table closed under the request
            assert r.status_code == 200, r.text
            d = r.json()
            assert ("tiles" in d) == (have == 0) and ("tiles" not in d or "5m" in d["tiles"])
            if d["hand"] is not None:
                if d["hand"] != hand:  # a new hand: from its first event
                    hand = d["hand"]
                    seen[hand] = []
                seen[hand].extend(d["events"])
                assert d["total"] == len(seen[hand])
                if not d["over"]:
                    assert all(e["type"] != "end_hand" for e in d["events"])
            await asyncio.sleep(0.05)

    asyncio.run(play([person], lambda: len(person.hands) >= 2, watch()))
    stored = {h["hand"]: h for h in hands_of(base, ann["token"], table)}
    compared = 0
    for hand_id, events in seen.items():
        if hand_id in stored:  # the same stream, in order, never ahead
            public = public_events(xueliu.replay(stored[hand_id]["record"]))
            assert events == public[:len(events)]
            compared += len(events)
    assert compared >= 20
    # An answer from index 0 carries the tile art (above); the page is the viewer following it.
    assert http("GET", f"{base}/api/tables/{table}/spectate?since=-1").status_code == 400
    page = http("GET", f"{base}/spectate/{table}")
    assert page.status_code == 200
    assert f'data-live="/api/tables/{table}/spectate"' in page.text
    server.stop()


def test_only_a_table_that_allows_it_can_be_spectated(serve, tmp_path):
    server, base, ann, table = _spectated(serve, tmp_path, False)
    r = http("GET", f"{base}/api/tables/{table}/spectate")
    assert r.status_code == 403 and "does not allow spectators" in r.json()["error"]
    assert http("GET", f"{base}/api/tables/9999/spectate").status_code == 404
    bob = new_player(base, "bob")
    bad = http("POST", f"{base}/api/tables", bob["token"], json={"spectators": "yes"})
    assert bad.status_code == 400 and "spectators" in bad.json()["error"]
    server.stop()
