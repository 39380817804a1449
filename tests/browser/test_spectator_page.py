"""The spectator page (issue 49, item 4) in Chromium: opened in the middle of a live hand it shows
the latest event the server gives (one behind the table, docs/server.md), follows the table as it
plays on, names the players, and shows only the public view (every concealed tile a back)."""

from __future__ import annotations

import asyncio
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Tuple

from playwright.sync_api import Page

from server.client import Person, http, new_player, play


def _step(page: Page) -> Tuple[int, int]:
    m = re.search(r"(\d+)\s*/\s*(\d+)", page.inner_text("#step-label"))
    assert m is not None, page.inner_text("#step-label")
    return int(m.group(1)), int(m.group(2))


def test_a_spectator_opens_at_the_latest_event_and_follows_with_names(page, site):
    ann = new_player(site, "ann")
    table = http("POST", f"{site}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3, "spectators": True}).json()["table"]
    person = Person([site.replace("http", "ws", 1) + "/ws"], ann["token"], seed=8)
    stream = f"{site}/api/tables/{table}/spectate"
    with ThreadPoolExecutor(1) as pool:
        done = pool.submit(asyncio.run, play([person], lambda: len(person.hands) >= 1))
        end = time.monotonic() + 120
        while http("GET", f"{stream}?since=0").json()["total"] < 20:  # well into the hand
            assert time.monotonic() < end
            time.sleep(0.2)
        page.goto(f"{site}/spectate/{table}")
        page.wait_for_selector("#table .seat")
        step, total = _step(page)
        assert total >= 20 and step == total, (step, total)  # the latest event, not the first
        names = page.locator("#table .seat .seat-name").all_inner_texts()
        assert sorted(names) == ["GreedyBot 1", "GreedyBot 2", "GreedyBot 3", "ann"]
        # It follows: new events arrive and the page stays on the latest one.
        page.wait_for_function(
            f"(document.getElementById('step-label').textContent.match(/(\\d+)\\s*\\/\\s*(\\d+)/)"
            f" || [0, 0, 0])[2] > {total + 3}", timeout=60_000)
        later, total_later = _step(page)
        assert later == total_later > total
        # ... never more than the stream gives (one event behind the table while it plays).
        d = http("GET", f"{stream}?since=0").json()
        assert total_later <= d["total"]
        tiles = page.locator("#table .seat .hand .tile")
        assert set(tiles.evaluate_all("els => els.map(e => e.dataset.tile)")) <= {"?"}
        done.result()
