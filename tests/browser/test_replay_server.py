"""The server's replay and review pages (issue 19) in Chromium: the same viewer as ``xueliu
replay --html``, its data fetched with the player's token (kept where the browser table keeps
it); a player sees their own view, anyone else a 403."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Page

import xueliu

from server.client import Person, hands_of, http, new_player, play


def _one_hand(site: str):
    ann = new_player(site, "ann")
    table = http("POST", f"{site}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    person = Person([site.replace("http", "ws", 1) + "/ws"], ann["token"], seed=4)
    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play([person], lambda: len(person.hands) >= 1)).result()
    return ann, hands_of(site, ann["token"], table)[0]


def _signed_in(page: Page, site: str, token: str) -> None:
    page.goto(site + "/health")  # the origin, to keep the token where app.js keeps it
    page.evaluate(f"localStorage.setItem('xueliu.token', {token!r})")


def test_a_player_replays_and_reviews_a_stored_hand_others_get_403(page, site):
    ann, hand = _one_hand(site)
    record = hand["record"]
    _signed_in(page, site, ann["token"])
    page.goto(f"{site}/replay/{hand['hand']}")
    page.wait_for_selector("#step-label[data-step='1']")  # on the deal
    events = xueliu.replay(record).events(0)
    assert page.locator("#step-label").inner_text() == f"event 1 / {len(events)}"
    # The table and its players by name, the server's bots included.
    assert page.title() == "血流成河 xueliu · preset xueliu — replay"
    names = page.locator("#table .seat .seat-name").all_inner_texts()
    assert names[0] == "ann" and all(n.startswith("GreedyBot") for n in names[1:])
    page.click("#last")
    for s in (1, 2, 3):  # her own view: the others' concealed tiles are backs
        tiles = page.locator(f"#table .seat[data-seat='{s}'] .hand .tile")
        assert set(tiles.evaluate_all("els => els.map(e => e.dataset.tile)")) <= {"?"}
    mine = page.locator("#table .seat[data-seat='0'] .hand .tile")
    end = xueliu.replay(record).observation(0)
    assert sorted(mine.evaluate_all("els => els.map(e => e.dataset.tile)")) == sorted(end["hand"])

    review = http("GET", f"{site}/api/hands/{hand['hand']}/review", ann["token"]).json()
    page.goto(f"{site}/review/{hand['hand']}")
    page.wait_for_selector("#agreement")
    assert page.title() == "血流成河 xueliu · preset xueliu — review of seat 0"
    assert "ann (seat 0) final net" in page.locator("#seat-net").inner_text()
    assert float(page.locator("#agreement").get_attribute("data-value")) == review["agreement"]
    assert float(page.locator("#total-regret").get_attribute("data-value")) == \
        review["total_regret"]
    assert page.locator(".decision-item").count() == len(review["decisions"])

    bob = new_player(site, "bob")
    _signed_in(page, site, bob["token"])
    page.goto(f"{site}/replay/{hand['hand']}")
    page.wait_for_selector("[data-status='403']")
    assert "did not play" in page.locator("[data-status='403']").inner_text()
    assert page.locator("#table .seat").count() == 0


def test_a_spectator_page_follows_the_live_table_and_shows_no_concealed_tile(page, site):
    ann = new_player(site, "ann")
    table = http("POST", f"{site}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3, "spectators": True}).json()["table"]
    person = Person([site.replace("http", "ws", 1) + "/ws"], ann["token"], seed=8)
    with ThreadPoolExecutor(1) as pool:
        hand = pool.submit(asyncio.run, play([person], lambda: len(person.hands) >= 1))
        page.goto(f"{site}/spectate/{table}")  # no token: the public view needs none
        page.wait_for_function(
            "Number((document.getElementById('step-label').dataset || {}).step || 0) >= 5",
            timeout=60_000)
        assert "live, public view" in page.locator("#title").inner_text()
        for _ in range(5):  # while the hand goes on: every hand is backs, the river grows
            tiles = page.locator("#table .seat .hand .tile")
            assert set(tiles.evaluate_all("els => els.map(e => e.dataset.tile)")) <= {"?"}
            page.wait_for_timeout(300)
        hand.result()


def test_the_settlement_links_to_the_hands_replay_and_review(page, site):
    from browser.test_browser_table import (play_until, report_shown, sign_up, stored_hands,
                                            table_of, token_of)

    sign_up(page, site, "cy")
    play_until(page, lambda: report_shown(page))
    hand = stored_hands(site, token_of(page), table_of(page))[0]["hand"]
    assert page.locator("#report .hand-links a.replay").get_attribute("href") == f"/replay/{hand}"
    with page.context.expect_page() as opened:
        page.click("#report .hand-links a.review")
    review = opened.value
    review.wait_for_selector("#agreement")
    assert review.locator(".decision-item").count() > 5


def test_the_lobby_lists_a_players_finished_hands_with_their_links(page, site):
    ann = new_player(site, "ann")
    table = http("POST", f"{site}/api/tables", ann["token"],
                 json={"rules": "xueliu", "bots": 3}).json()["table"]
    person = Person([site.replace("http", "ws", 1) + "/ws"], ann["token"], seed=9)

    async def leave_once_playing():
        while person.acts < 3:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(http, "POST", f"{site}/api/tables/{table}/leave", ann["token"])

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play([person], lambda: len(person.hands) >= 1 or
                                      bool(person.closes), leave_once_playing())).result()
    hand = hands_of(site, ann["token"], table)[0]
    _signed_in(page, site, ann["token"])
    page.goto(site + "/")
    page.wait_for_selector(f"#history tr[data-hand='{hand['hand']}']")
    row = page.locator(f"#history tr[data-hand='{hand['hand']}']")
    cells = row.locator("td").all_inner_texts()
    net = hand["settlement"]["net"][0]
    assert cells[:1] + cells[2:6] == [f"#{hand['hand']}", str(table), "xueliu", "0",
                                      f"{'+' if net > 0 else ''}{net}"]
    when = http("GET", f"{site}/api/me/hands", ann["token"]).json()["hands"][0]["finished"]
    shown = page.evaluate(f"new Date({when} * 1000).toLocaleString()")
    assert cells[1] == shown and str(time.gmtime(when).tm_year) in shown
    assert row.locator("a.replay").get_attribute("href") == f"/replay/{hand['hand']}"
    assert row.locator("a.review").get_attribute("href") == f"/review/{hand['hand']}"
