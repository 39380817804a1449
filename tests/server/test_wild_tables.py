"""Wild-tile tables (docs/rules.md §12, issue 50) on a real server process with real websocket
clients: every wild-tile preset is offered and can be asked for, and a table of each plays whole
hands with three server bots and a person who takes every 提, soft peng and kong it is offered —
the hands it saw are the stored records' own views, the coins the stored settlements'. A hand
played in advance (planned.py, ``--deal-seed``) in which a person 飞s and 提s over a websocket,
both stored. And the wild tiles in the messages (the shape's ``wilds``, the observation's, the
melds'), the 查听 help with a 本金, the replay and review of a wild hand, wild house rules."""

from __future__ import annotations

import asyncio
import os
from typing import Any, Dict, List

import pytest

import xueliu
from xueliu.game.wall import hash_seed
from xueliu.rules import WILD_PRESET_NAMES
from xueliu.server.protocol import TABLE_PRESETS

from .client import Person, audit, hands_of, http, new_player, play, seat_view_matches
from .planned import deal_flags, find_deal, person_choice


def sqlite(tmp_path: "os.PathLike[str]") -> str:
    return f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}"


class EagerPerson(Person):
    """A person who wins when it can, else takes a 提, a kong or a peng (soft ones too) when
    offered, else chooses at random (a seeded choice, as :class:`Person`)."""

    ORDER = ("hu", "swap_back", "kong", "concealed_kong", "added_kong", "peng")

    def choose(self, actions: List[Dict[str, Any]]) -> int:
        for kind in self.ORDER:
            for a in actions:
                if a["kind"] == kind:
                    return int(a["id"])
        return int(self.rng.choice(actions)["id"])


def test_every_wild_preset_is_offered_with_its_wild_tiles(serve, tmp_path):
    server = serve(sqlite(tmp_path))
    offered = {p["name"]: p for p in http("GET", f"{server.address}/api/presets").json()["presets"]}
    assert set(WILD_PRESET_NAMES) <= set(offered) and list(offered) == list(TABLE_PRESETS)
    for name in WILD_PRESET_NAMES:
        rules = xueliu.Rules.preset(name)
        p = offered[name]
        assert p["wall_tiles"] == rules.shape.wall_tiles
        assert p["wilds"]["in_wall"] == rules.wild_count_in_wall()
        assert p["wilds"]["discard"] == rules.wild_discard
    yaoji, yibin = offered["yaoji"]["wilds"], offered["yibin"]["wilds"]
    assert yaoji["kinds"] == ["1s"] and yaoji["benjin"] is None
    assert yibin["kinds"] == [] and yibin["benjin"] == "benjin"
    for gui in ("luzhou_gui", "hongzhong"):
        assert offered[gui]["wilds"]["kinds"] == ["7z"] and offered[gui]["wall_tiles"] == 112
    # A table without wild tiles has none in its shape, as before wild tiles.
    assert "wilds" not in offered["xueliu"]


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_a_wild_preset_table_with_three_bots_plays_hands_to_the_end(serve, tmp_path, preset):
    rules = xueliu.Rules.preset(preset)
    server = serve(sqlite(tmp_path), "--time-scale", "0.2", "--bot-delay", "0.02",
                   "--auto-delay", "100")
    ann = new_player(server.address, "ann")
    r = http("POST", f"{server.address}/api/tables", ann["token"],
             json={"rules": preset, "bots": 3})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    person = EagerPerson([server.ws], ann["token"], seed=5)
    asyncio.run(play([person], lambda: len(person.hands) >= 2))
    assert person.errors == []

    state = next(m for m in person.messages if m["type"] == "state")
    assert state["rules"] == rules.to_dict()
    assert state["shape"]["wall_tiles"] == rules.shape.wall_tiles
    assert state["shape"]["wilds"]["in_wall"] == rules.wild_count_in_wall()

    hands = hands_of(server.address, ann["token"], table)
    assert len(hands) >= 2
    records = [h["record"] for h in hands]
    assert seat_view_matches(person, records) >= 2
    for h in hands:
        assert h["record"]["rules"] == rules.to_dict()
        again = xueliu.replay(h["record"])
        assert again.settlement().net == h["settlement"]["net"]
        assert again.wild_kinds  # a hand with wild tiles
    for seen, stored in zip(person.hands, hands):
        assert seen["net"] == stored["settlement"]["net"]
    events = [e for h in person.hands for e in h["events"]]
    assert [e["type"] for e in events].count("end_hand") >= 2
    if rules.uses_benjin:  # 宜宾: the 本金 turned up right after the deal, every hand
        starts = [i for i, e in enumerate(events) if e["type"] == "start_hand"]
        assert all(events[i + 1]["type"] == "benjin" for i in starts)
    if rules.extra_wilds:  # 红中 rooms: the 112 tiles of each stored deal hold four 红中
        for h in hands:
            rec = h["record"]
            dealt = xueliu.new_game(rules, seed=rec["seed"], dealer=rec["dealer"],
                                    coins=rec["coins"]).observation(None)
            tiles = [t for hand in dealt["hands"] for t in hand] + dealt["wall"]
            assert len(tiles) == 112 and tiles.count("7z") == 4
    # Every observation the person was sent at this table carries the hand's wilds, and every
    # meld its wild tiles.
    for m in person.messages:
        obs = m.get("observation") if m["type"] == "state" else None
        if obs:
            assert obs["wilds"]["in_wall"] == rules.wild_count_in_wall()
            assert all("wilds" in meld for melds in obs["melds"] for meld in melds)
    counts = audit(sqlite(tmp_path))
    assert counts["settled"] >= 2


class PlannedPerson(Person):
    """A person who decides by :func:`planned.person_choice`, as the hand played in advance."""

    def choose(self, actions: List[Dict[str, Any]]) -> int:
        return person_choice([int(a["id"]) for a in actions])


def offers_swap_back(state: Any, seat: int, legal: List[xueliu.Action]) -> bool:
    return any(a.kind == "swap_back" for a in legal)


@pytest.mark.parametrize("preset", ["leshan", "yibin", "hongzhong"])
def test_a_person_makes_a_soft_peng_and_ti_and_both_are_stored(serve, tmp_path, preset):
    # A hand played in advance (planned.py) in which the person 飞s and then is offered 提:
    # the server deals it (--deal-seed), the person decides as planned over a real websocket.
    rules = xueliu.Rules.preset(preset)
    seed = find_deal(rules, offers_swap_back)
    # Real time (a person is never timed out, a bot still answers in 20 ms).
    server = serve(sqlite(tmp_path), "--time-scale", "1", "--bot-delay", "0.02", *deal_flags(seed))
    ann = new_player(server.address, "ann")
    r = http("POST", f"{server.address}/api/tables", ann["token"],
             json={"rules": preset, "bots": 3})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    person = PlannedPerson([server.ws], ann["token"])
    asyncio.run(play([person], lambda: len(person.hands) >= 1))
    assert person.errors == []
    events = person.hands[0]["events"]
    soft = [e for e in events if e["type"] == "pon" and e["actor"] == 0
            and any(t != e["pai"] for t in e["consumed"])]
    ti = [e for e in events if e["type"] == "ti" and e["actor"] == 0]
    assert soft and ti, "not the hand played in advance"
    assert ti[0]["wild"] in next(m for m in person.messages if m["type"] == "state"
                                 )["shape"]["wilds"]["kinds"] or rules.uses_benjin
    asked = [a for req in person.requests for a in req["actions"] if a["kind"] == "swap_back"]
    assert asked and all(a["id"] == 32224 + xueliu.tiles.PHYSICAL_NAMES.index(a["tile"])
                         for a in asked)
    hands = hands_of(server.address, ann["token"], table)
    assert seat_view_matches(person, [h["record"] for h in hands]) == 1
    stored = [a for s, a in hands[0]["record"]["decisions"]
              if s == 0 and isinstance(a, int) and xueliu.Action.from_id(a).kind == "swap_back"]
    assert len(stored) == len(ti) and xueliu.Action.from_id(stored[0]).tile == ti[0]["pai"]
    audit(sqlite(tmp_path))


def test_hands_are_dealt_from_the_deal_seed_and_the_help_reads_wild_hands(serve, tmp_path):
    server = serve(sqlite(tmp_path), "--time-scale", "0.2", "--bot-delay", "0.02",
                   "--auto-delay", "100", "--deal-seed", "4242")
    ann = new_player(server.address, "ann")
    r = http("POST", f"{server.address}/api/tables", ann["token"],
             json={"rules": "yibin", "bots": 3})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    person = Person([server.ws], ann["token"], seed=3)
    asyncio.run(play([person], lambda: len(person.hands) >= 1))
    hand = hands_of(server.address, ann["token"], table)[0]
    # --deal-seed (tests only): the hand's seed is known in advance.
    assert hand["record"]["seed"] == hash_seed(4242, table, 0)
    start = xueliu.new_game(xueliu.Rules.preset("yibin"), seed=hash_seed(4242, table, 0))
    benjin = next(e for e in person.hands[0]["events"] if e["type"] == "benjin")["pai"]
    assert benjin == start.benjin

    # The 查听 help of the dealt hand (its wilds as held), with the hand's 本金 (docs/rules.md §12.1).
    body = {"hand": start.hand_text(0), "rules": "yibin", "benjin": benjin, "visible": [benjin]}
    got = http("POST", f"{server.address}/api/analyze", ann["token"], json=body)
    assert got.status_code == 200, got.text
    assert got.json()["shanten"] >= -1
    bad = http("POST", f"{server.address}/api/analyze", ann["token"],
               json={**body, "benjin": 5})
    assert bad.status_code == 400 and "'benjin'" in bad.json()["error"]

    # The replay and the review of a wild hand are there.
    hand_id = _hand_ids(server.address, ann["token"])[0]
    replay = http("GET", f"{server.address}/api/hands/{hand_id}/replay", ann["token"])
    assert replay.status_code == 200, replay.text
    for path in (f"/api/hands/{hand_id}/review", f"/api/hands/{hand_id}/replay?review=1"):
        got = http("GET", f"{server.address}{path}", ann["token"])
        assert got.status_code == 200, (path, got.text)


def _hand_ids(base: str, token: str) -> List[int]:
    return [h["hand"] for h in http("GET", f"{base}/api/me/hands", token).json()["hands"]]


def test_wild_house_rules_are_offered_as_house(serve, tmp_path):
    server = serve(sqlite(tmp_path), "--preset", "hongzhong", "--knob", "extra_wilds=8",
                   "--bot-delay", "0.1", "--auto-delay", "100")
    offered = http("GET", f"{server.address}/api/presets").json()["presets"]
    assert offered[0]["name"] == "house" and offered[0]["wall_tiles"] == 116
    assert offered[0]["wilds"]["kinds"] == ["7z"] and offered[0]["wilds"]["in_wall"] == 8
    ann = new_player(server.address, "ann")
    r = http("POST", f"{server.address}/api/tables", ann["token"], json={"bots": 3})
    assert r.status_code == 200, r.text
    person = Person([server.ws], ann["token"], seed=1)
    asyncio.run(play([person], lambda: any(m["type"] == "state" for m in person.messages)))
    state = next(m for m in person.messages if m["type"] == "state")
    assert xueliu.Rules.from_dict(state["rules"]) == xueliu.Rules.preset("hongzhong").replace(
        extra_wilds=8)
