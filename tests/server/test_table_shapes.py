"""Tables of every shape (docs/rules.md §11, issue 17 layer 7) on a real server process with real websocket
clients: every preset can be asked for, bots fill the seats a table has, and a 三人两房 and a 两人一房
table play to hand_end with seat lists, wall and tiles of their own shape."""

from __future__ import annotations

import asyncio
import os
from typing import Any, Dict, List

import xueliu
from xueliu.server.protocol import TABLE_PRESETS

from .client import Person, hands_of, http, new_player, play


def sqlite(tmp_path: "os.PathLike[str]") -> str:
    return f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}"


def test_every_preset_is_offered_with_its_seats_suits_and_wall(serve, tmp_path):
    server = serve(sqlite(tmp_path))
    r = http("GET", f"{server.address}/api/presets")
    assert r.status_code == 200, r.text
    offered = r.json()["presets"]
    # Every preset, the wild-tile rooms of docs/rules.md §12.4 last (test_wild_tables.py).
    assert [p["name"] for p in offered] == list(TABLE_PRESETS)
    for p in offered:
        shape = xueliu.Rules.preset(p["name"]).shape
        assert (p["players"], tuple(p["suits"]), p["wall_tiles"], p["hand_size"]) == (
            shape.players, shape.suits, shape.wall_tiles, shape.hand_size)
    by_name = {p["name"]: p for p in offered}
    assert by_name["sanren_liangfang"]["title"] == "三人两房"
    assert by_name["sanren_liangfang"]["wall_tiles"] == 72
    assert by_name["sanren_liangfang"]["declare_void"] is False
    assert by_name["xueliu"]["declare_void"] is True


def test_a_table_takes_at_most_as_many_bots_as_it_has_other_seats(serve, tmp_path):
    server = serve(sqlite(tmp_path))
    ann = new_player(server.address, "ann")
    for preset, others in (("sanren_liangfang", 2), ("erren_yifang", 1), ("xueliu", 3)):
        r = http("POST", f"{server.address}/api/tables", ann["token"],
                 json={"rules": preset, "bots": others + 1})
        assert r.status_code == 400
        assert f"'bots' must be an integer 0..{others}" in r.json()["error"]
    assert http("GET", f"{server.address}/api/me", ann["token"]).json()["tables"] == []


def test_an_unknown_preset_is_refused_naming_the_presets(serve, tmp_path):
    server = serve(sqlite(tmp_path))
    ann = new_player(server.address, "ann")
    r = http("POST", f"{server.address}/api/tables", ann["token"], json={"rules": "sanren"})
    assert r.status_code == 400
    assert "unknown preset 'sanren'" in r.json()["error"] and "erren_yifang" in r.json()["error"]


def test_the_state_message_carries_the_tables_rules_and_shape(serve, tmp_path):
    server = serve(sqlite(tmp_path), "--bot-delay", "0.1", "--auto-delay", "100")
    ann = new_player(server.address, "ann")
    r = http("POST", f"{server.address}/api/tables", ann["token"],
             json={"rules": "xuezhan", "bots": 3})
    assert r.status_code == 200, r.text
    person = Person([server.ws], ann["token"], seed=1)
    asyncio.run(play([person], lambda: any(m["type"] == "state" for m in person.messages)))
    state = next(m for m in person.messages if m["type"] == "state")
    assert state["rules"] == xueliu.Rules.preset("xuezhan").to_dict()
    assert state["shape"] == {"players": 4, "suits": ["m", "p", "s"], "wall_tiles": 108,
                              "dealt_tiles": 53, "hand_size": 13, "declare_void": True,
                              "exchange_three": True, "exchange_count": 3}


# 三人两房 as the preset has it (3 seats, 筒 条, 72 tiles, 13-tile hands, no 定缺 / 换三张, 起胡番 2).
SANREN_LIANGFANG_SHAPE = xueliu.Rules.preset("sanren_liangfang")


def _play_a_hand_with_bots(serve: Any, tmp_path: Any, rules: xueliu.Rules) -> Dict[str, Any]:
    """ann creates a table of ``rules`` (sent as a rules object) with bots in every other seat
    and plays one hand."""
    server = serve(sqlite(tmp_path), "--time-scale", "0.2", "--bot-delay", "0.02",
                   "--auto-delay", "100")
    ann = new_player(server.address, "ann")
    others = rules.shape.players - 1
    r = http("POST", f"{server.address}/api/tables", ann["token"],
             json={"rules": rules.to_dict(), "bots": others})
    assert r.status_code == 200, r.text
    person = Person([server.ws], ann["token"], seed=3)
    asyncio.run(play([person], lambda: len(person.hands) >= 1))
    hands = hands_of(server.address, ann["token"], r.json()["table"])
    return {"person": person, "hands": hands}


def _check_the_hand(run: Dict[str, Any], rules: xueliu.Rules) -> None:
    shape = rules.shape
    n = shape.players
    person: Person = run["person"]
    assert person.errors == []
    state = next(m for m in person.messages if m["type"] == "state")
    assert state["shape"]["players"] == n and state["shape"]["wall_tiles"] == shape.wall_tiles
    assert len(state["players"]) == n
    assert [p["bot"] for p in state["players"]] == [False] + [True] * (n - 1)
    events: List[Dict[str, Any]] = person.hands[0]["events"]
    start = events[0]
    assert start["type"] == "start_hand" and len(start["tehais"]) == n
    # Per-seat lists of the table's length everywhere the server sends them.
    obs = state["observation"]
    if obs is not None:
        for key in ("discards", "melds", "wins", "in_play", "hand_sizes", "net"):
            assert len(obs[key]) == n, key
        assert obs["wall_remaining"] <= shape.wall_tiles - shape.dealt_tiles
    end = next(e for e in events if e["type"] == "end_hand")
    assert len(end["net"]) == n and len(person.hands[0]["net"]) == n
    # No 定缺 where there is none, and never a tile of a suit not in play.
    for req in person.requests:
        for a in req["actions"]:
            assert a["kind"] != "void"
            for t in [a["tile"], *(a["tiles"] or [])]:
                assert t is None or t[1] in shape.suits, (t, a)
    assert all(e["type"] != "dingque" for e in events)
    seen = [t for e in events for t in [e.get("pai"), *e.get("consumed", [])] if t]
    seen += [t for h in start["tehais"] for t in h]
    assert {t[1] for t in seen if t != "?"} <= set(shape.suits)
    stored = run["hands"][0]
    assert len(stored["seats"]) == n
    assert xueliu.replay(stored["record"]).settlement().net == stored["settlement"]["net"]
    assert stored["settlement"]["net"] == person.hands[0]["net"]


def test_a_three_seat_sanren_liangfang_table_with_two_bots_plays_to_hand_end(serve, tmp_path):
    rules = SANREN_LIANGFANG_SHAPE
    _check_the_hand(_play_a_hand_with_bots(serve, tmp_path, rules), rules)


def test_a_two_seat_erren_yifang_table_with_a_bot_plays_to_hand_end(serve, tmp_path):
    rules = xueliu.Rules.preset("erren_yifang")
    _check_the_hand(_play_a_hand_with_bots(serve, tmp_path, rules), rules)


def test_a_siren_liangfang_table_deals_ten_tile_hands_from_72_tiles(serve, tmp_path):
    rules = xueliu.Rules.preset("siren_liangfang")
    _check_the_hand(_play_a_hand_with_bots(serve, tmp_path, rules), rules)


def test_a_daodaohu_table_with_bots_plays_one_hand_that_the_first_win_ends(serve, tmp_path):
    rules = xueliu.Rules.preset("daodaohu")
    run = _play_a_hand_with_bots(serve, tmp_path, rules)
    person: Person = run["person"]
    assert person.errors == []
    events: List[Dict[str, Any]] = person.hands[0]["events"]
    end = next(e for e in events if e["type"] == "end_hand")
    wins = [e for e in events if e["type"] == "hora"]
    # 倒倒胡 (docs/rules.md §11.2): one winning event ends the hand, else the wall runs out with no win
    assert end["reason"] == ("first_win" if wins else "wall_exhausted")
    first = next((i for i, e in enumerate(events) if e["type"] == "hora"), len(events))
    assert {e["type"] for e in events[first:]} <= {"hora", "pay", "end_hand"}
    stored = run["hands"][0]
    again = xueliu.replay(stored["record"])
    assert again.settlement().end_reason == end["reason"]
    assert again.settlement().net == stored["settlement"]["net"] == person.hands[0]["net"]


def test_a_huansizhang_table_asks_and_passes_four_tiles_and_hides_the_others(serve, tmp_path):
    # 三人两房 with 换四张 (docs/rules.md §11.1 exchange_count = 4): the exchange asked of the person is of
    # four tiles, its event shows the person's own four and four hidden tiles of every other seat.
    rules = SANREN_LIANGFANG_SHAPE.replace(exchange_three=True, exchange_count=4)
    run = _play_a_hand_with_bots(serve, tmp_path, rules)
    _check_the_hand(run, rules)
    person: Person = run["person"]
    state = next(m for m in person.messages if m["type"] == "state")
    assert state["shape"]["exchange_count"] == 4 and state["rules"]["exchange_count"] == 4
    asked = [a for req in person.requests for a in req["actions"] if a["kind"] == "exchange"]
    assert asked and all(len(a["tiles"]) == 4 and len({t[1] for t in a["tiles"]}) == 1
                         for a in asked)
    ex = next(e for e in person.hands[0]["events"] if e["type"] == "huansanzhang")
    assert len(ex["given"][0]) == 4 and "?" not in ex["given"][0] + ex["received"][0]
    assert ex["given"][1:] == [["?"] * 4] * 2 and ex["received"][1:] == [["?"] * 4] * 2
