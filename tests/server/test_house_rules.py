"""``xueliu serve --preset/--rules/--knob`` (issue 47): the process's house rules are offered first
in ``GET /api/presets`` as ``"house"``, a table asked for by that name — or by no name — is dealt
under them, and the presets stay as they were."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Dict

import xueliu
from xueliu.server.protocol import TABLE_PRESETS

from .client import Person, http, new_player, play


def sqlite(tmp_path: "os.PathLike[str]") -> str:
    return f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}"


def _table_rules(server: Any, name: str, body: Dict[str, Any]) -> Dict[str, Any]:
    """The rules (and shape) of the table ``name`` creates with ``body``, from its first state
    message."""
    player = new_player(server.address, name)
    r = http("POST", f"{server.address}/api/tables", player["token"], json=body)
    assert r.status_code == 200, r.text
    person = Person([server.ws], player["token"], seed=1)
    asyncio.run(play([person], lambda: any(m["type"] == "state" for m in person.messages)))
    return next(m for m in person.messages if m["type"] == "state")


def test_house_rules_are_offered_first_and_are_a_new_tables_default(serve, tmp_path):
    house = xueliu.Rules.preset("xuezhan").replace(max_fan=2, menqing=True)
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"menqing": True, "max_fan": 5}), "utf-8")
    server = serve(sqlite(tmp_path), "--preset", "xuezhan", "--rules", str(path),
                   "--knob", "max_fan=2", "--bot-delay", "0.1", "--auto-delay", "100")
    offered = http("GET", f"{server.address}/api/presets").json()["presets"]
    assert [p["name"] for p in offered] == ["house", *TABLE_PRESETS]
    first = offered[0]
    assert first["title"] == "自定义" and first["mode"] == "xuezhan"
    assert first["source"] == "自定义: xueliu serve --preset xuezhan --rules house.json --knob max_fan=2"
    assert (first["players"], first["wall_tiles"], first["hand_size"]) == (4, 108, 13)
    assert _table_rules(server, "ann", {"bots": 3})["rules"] == house.to_dict()
    assert _table_rules(server, "bob", {"rules": "house", "bots": 3})["rules"] == house.to_dict()
    assert _table_rules(server, "cat", {"rules": "xueliu", "bots": 3})["rules"] == \
        xueliu.Rules.preset("xueliu").to_dict()


def test_a_three_seat_house_table_from_knobs(serve, tmp_path):
    server = serve(sqlite(tmp_path), "--knob", "players=3", "--knob", 'suits=["p","s"]',
                   "--knob", "declare_void=false", "--bot-delay", "0.1", "--auto-delay", "100")
    offered = http("GET", f"{server.address}/api/presets").json()["presets"]
    assert offered[0]["name"] == "house" and offered[0]["players"] == 3
    assert offered[0]["source"] == ("自定义: xueliu serve --knob players=3 --knob suits=[\"p\",\"s\"] "
                                    "--knob declare_void=false")
    state = _table_rules(server, "ann", {"rules": "house", "bots": 2})
    assert state["shape"]["players"] == 3 and state["shape"]["wall_tiles"] == 72
    assert xueliu.Rules.from_dict(state["rules"]) == xueliu.Rules.preset("xueliu").replace(
        players=3, suits=("p", "s"), declare_void=False)


def test_without_house_rules_there_is_no_house(serve, tmp_path):
    server = serve(sqlite(tmp_path))
    offered = http("GET", f"{server.address}/api/presets").json()["presets"]
    assert [p["name"] for p in offered] == list(TABLE_PRESETS)
    ann = new_player(server.address, "ann")
    r = http("POST", f"{server.address}/api/tables", ann["token"], json={"rules": "house"})
    assert r.status_code == 400
    assert "unknown preset 'house'" in r.json()["error"]
