"""The README's ``play.py`` (issue 16) against a real server: it plays one hand, prints what the
README's transcript shows, and leaves, so the table deals its seat no further hand and its coins
stay what the script printed."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import time
from typing import Any, List, Tuple

from .client import hands_of, http, new_player, query

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
ADDRESS = "127.0.0.1:8700"  # where the example connects; the test points it at its own server
# Time scale 0.1: a bot or an away seat answers after 0.1 s, so the seat's first hand is still in
# play when the script has started and connected, as it is at the README's real-time settings.
FLAGS = ("--time-scale", "0.1")


def _play_py() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), flags=re.S)
    [body] = [b for b in blocks if "websockets.sync.client" in b]
    assert body.count(ADDRESS) == 1, "the example names its server once"
    return str(body)


def _printed_lines_are_the_transcripts_kind(lines: List[str]) -> Tuple[List[int], List[int]]:
    """Wins as ``seat N wins on TILE with N fan``, then ``net [...] coins [...]``: net, coins."""
    assert lines, "the script printed nothing"
    for line in lines[:-1]:
        assert re.fullmatch(r"seat [0-3] wins on [1-9][mps] with \d+ fan", line), line
    m = re.fullmatch(r"net \[(-?\d+(?:, -?\d+){3})\] coins \[(\d+(?:, \d+){3})\]", lines[-1])
    assert m is not None, lines[-1]
    return [int(n) for n in m.group(1).split(", ")], [int(c) for c in m.group(2).split(", ")]


def test_the_readme_play_py_plays_one_hand_and_leaves(serve: Any, tmp_path: pathlib.Path) -> None:
    url = f"sqlite:///{tmp_path}/readme.db"
    server = serve(url, *FLAGS)
    ann = new_player(server.address, "ann")
    # The README's session: a xuezhan table against three GreedyBots.
    r = http("POST", f"{server.address}/api/tables", ann["token"],
             json={"rules": "xuezhan", "bots": 3})
    assert r.status_code == 200 and r.json()["seat"] == 0, r.text
    table = r.json()["table"]
    script = tmp_path / "play.py"
    script.write_text(_play_py().replace(ADDRESS, server.address.removeprefix("http://")),
                      "utf-8")

    out = subprocess.run([sys.executable, str(script), ann["token"]], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    net, coins = _printed_lines_are_the_transcripts_kind(out.stdout.strip().split("\n"))

    # It left after the hand it printed: it sits nowhere, holds what it printed, and the table
    # (bots only now) closed instead of dealing again, also a while later.
    me = http("GET", f"{server.address}/api/me", ann["token"]).json()
    assert me["tables"] == [] and me["coins"] == coins[0]
    hands = hands_of(server.address, ann["token"], table)
    assert hands[-1]["settlement"]["net"] == net
    time.sleep(2.0)  # longer than the pause between hands (0.3 s) and a bot's few decisions
    assert query(url, "SELECT status FROM tables WHERE id = ?", (table,)) == [("closed",)]
    assert query(url, "SELECT COUNT(*) FROM hands WHERE table_id = ?", (table,)) == [(len(hands),)]
    assert http("GET", f"{server.address}/api/me", ann["token"]).json()["coins"] == coins[0]
