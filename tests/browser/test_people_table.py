"""A table for people (issue 49) in real Chromium against a real server: two people in two browser
contexts create and join a table with two bots (the lobby's list, the shared link), play a hand
by clicking, one leaves after it (asked mid-hand) and lands in the lobby, the other presses
Continue and plays on with a bot in the freed seat; the coins in the database are the stored
settlements'. And an escape mid-hand, confirmed in a dialog that names its penalty, which is
what the settlement charges; and a reload that lands where the player is."""

from __future__ import annotations

import os
import time
from typing import Callable, Iterator, List

import pytest
from playwright.sync_api import Browser, Page

from browser.clicking import HAND_SECONDS, act_once, report_shown, stored_hands, table_of, token_of
from server.client import audit, query
from server.conftest import ServerProcess


@pytest.fixture
def served(tmp_path: "os.PathLike[str]") -> Iterator[ServerProcess]:
    """A server at real time (a person has the full 10 s a discard), bots quick, an away seat
    auto-played only after 10 s, and the default 30 s ready timeout."""
    server = ServerProcess(f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}", "--time-scale",
                           "1", "--bot-delay", "0.03", "--auto-delay", "10",
                           log_dir=str(tmp_path))
    server.start()
    yield server
    server.stop()
    server.log.close()


def _page(browser: Browser, errors: List[str]) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _sign_in(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#name", name)
    page.click("#login-form button[type=submit]")


def _play_both(pages: List[Page], done: Callable[[], bool]) -> None:
    end = time.monotonic() + HAND_SECONDS
    while not done():
        assert time.monotonic() < end, "the hand did not finish"
        acted = False
        for p in pages:
            if not report_shown(p) and p.locator("#leave-dialog:not([hidden])").count() == 0:
                acted = bool(act_once(p)) or acted
        if not acted:
            pages[0].wait_for_timeout(50)


def test_two_people_play_a_hand_one_leaves_and_the_other_plays_on_with_a_bot(browser, served):
    site = served.address
    errors: List[str] = []
    ann, bob = _page(browser, errors), _page(browser, errors)
    try:
        _sign_in(ann, site + "/", "ann")
        ann.wait_for_selector("#lobby:not([hidden])")
        ann.select_option("#rules", "xueliu")
        ann.select_option("#people-bots", "2")
        ann.fill("#people-base", "2")
        ann.check("#people-watch")
        ann.click("#create-table")
        ann.wait_for_selector("#table:not([hidden])")
        table = table_of(ann)
        assert ann.url.endswith(f"/table/{table}")  # the link to share
        assert ann.locator(".felt .seat-name").all_inner_texts().count("ann") == 1

        # bob's lobby lists the table with its free seat (polled), then he opens the shared link.
        _sign_in(bob, site + "/", "bob")
        bob.wait_for_selector(f"#open-tables tr[data-table='{table}'] button.join")
        row = bob.inner_text(f"#open-tables tr[data-table='{table}']")
        assert "ann" in row and "GreedyBot 1" in row and "free" in row and "xueliu" in row
        assert bob.locator(f"#open-tables tr[data-table='{table}'] a.watch").count() == 1
        bob.goto(f"{site}/table/{table}")
        bob.wait_for_selector("#table:not([hidden])")
        assert table_of(bob) == table
        assert bob.inner_text("#table-label").endswith("seat 3")

        # Mid-hand ann asks to leave: the dialog names the escape's penalty; she leaves after it.
        _play_both([ann, bob], lambda: ann.locator(".own-hand .tile").count() > 0
                   and ann.locator(".log li").count() >= 6 or report_shown(ann))
        assert not report_shown(ann), "the hand ended before ann could ask to leave"
        ann.click("#leave-btn")
        ann.wait_for_selector("#leave-dialog:not([hidden])")
        # xueliu: escape_penalty 3 units × the base stake 2 (docs/rules.md §7).
        assert "6 coins" in ann.inner_text("#leave-escape")
        assert "6 coins" in ann.inner_text("#leave-text")
        ann.click("#leave-after")
        ann.wait_for_selector("#leave-dialog", state="hidden")
        _play_both([ann, bob], lambda: report_shown(ann) and report_shown(bob))

        # The settlement: ann's way is the lobby, bob's is Continue with the countdown.
        assert ann.locator("#report-close").is_hidden()
        assert "lobby" in ann.inner_text("#report-lobby").lower()
        bob.wait_for_function("document.querySelector('#ready-line')?.textContent"
                              ".includes('Next hand in')")
        seconds = int(bob.get_attribute("#ready-line", "data-seconds") or "0")
        assert 20 <= seconds <= 30
        hands = stored_hands(site, token_of(bob), table)
        assert len(hands) == 1
        shown = [int(t) for t in bob.locator("#report table.nets td.net").all_inner_texts()]
        assert shown == hands[0]["settlement"]["net"]
        ann.click("#report-lobby")
        ann.wait_for_selector("#lobby:not([hidden])")
        assert ann.locator("#seated-note").is_hidden()
        ann.reload()  # a reload lands where she is: the lobby
        ann.wait_for_selector("#lobby:not([hidden])")

        bob.click("#report-close")
        # The next hand is dealt at once (bob was the last person to press), a bot in seat 0.
        bob.wait_for_selector("#report", state="hidden", timeout=10000)
        assert not report_shown(bob)
        bob.wait_for_function("[...document.querySelectorAll('.felt .seat-name')]"
                              ".some(e => e.textContent === 'GreedyBot 0')")
        assert "ann" not in bob.locator(".felt .seat-name").all_inner_texts()
        _play_both([bob], lambda: report_shown(bob))
        hands = stored_hands(site, token_of(bob), table)
        assert len(hands) == 2
        assert hands[1]["seats"][0] != hands[0]["seats"][0]  # a new bot took ann's seat
        assert hands[1]["seats"][3] == hands[0]["seats"][3]  # bob plays on
        bob.reload()  # between hands, a reload lands at the table, Continue offered again
        bob.wait_for_selector("#report:not([hidden]) #report-close")
        assert bob.url.endswith(f"/table/{table}")
    finally:
        ann.context.close()
        bob.context.close()
    assert errors == [], f"the page threw: {errors}"
    served.stop()
    url = served.db
    audit(url)  # every player's coins: the starting coins plus its stored settlements' nets
    coins = dict(query(url, "SELECT name, coins FROM players WHERE bot = 0"))
    nets = [h["settlement"]["net"] for h in hands]
    assert coins["ann"] == 1000 + nets[0][0]
    assert coins["bob"] == 1000 + nets[0][3] + nets[1][3]


def test_an_escape_is_confirmed_with_its_penalty_and_charged_that(browser, served):
    site = served.address
    errors: List[str] = []
    page = _page(browser, errors)
    try:
        _sign_in(page, site + "/", "cy")
        page.wait_for_selector("#lobby:not([hidden])")
        page.select_option("#rules", "xuezhan")
        page.click("#play-bots")
        page.wait_for_selector("#table:not([hidden])")
        table = table_of(page)
        token = token_of(page)
        end = time.monotonic() + HAND_SECONDS
        while page.locator(".own-hand .tile.clickable").count() == 0 \
                or page.locator("button.choice").count() > 0:
            assert time.monotonic() < end
            if not act_once(page):
                page.wait_for_timeout(50)
        page.reload()  # mid-hand, a reload lands at the seat
        page.wait_for_selector("#table:not([hidden]) .own-hand .tile")
        page.click("#leave-btn")
        page.wait_for_selector("#leave-dialog:not([hidden])")
        named = int(page.get_attribute("#leave-escape", "data-cost") or "0")
        assert f"pay {named} coins" in page.inner_text("#leave-escape")
        page.click("#leave-cancel")  # staying changes nothing
        assert page.locator("#leave-dialog").is_hidden()
        page.click("#leave-btn")
        page.click("#leave-escape")
        page.wait_for_selector("#lobby:not([hidden])")
        assert f"table {table}" in page.inner_text("#seated-text")
        # The seat is played to the end of the hand; then she is off the table.
        end = time.monotonic() + HAND_SECONDS
        while True:
            me = page.evaluate("fetch('/api/me', {headers: {Authorization: 'Bearer ' + "
                               "localStorage.getItem('xueliu.token')}}).then(r => r.json())")
            if not me["tables"]:
                break
            assert time.monotonic() < end
            page.wait_for_timeout(200)
        [hand] = stored_hands(site, token, table)
        escapes = [t for t in hand["settlement"]["transfers"] if t["reason"] == "escape"]
        assert escapes == [{"payer": 0, "payee": None, "amount": named, "reason": "escape"}]
        assert named in (32 * m for m in (2, 4, 8))  # xuezhan: 32 units × the multiplier
        page.reload()
        page.wait_for_selector("#lobby:not([hidden])")
        assert page.locator("#seated-note").is_hidden()
    finally:
        page.context.close()
    assert errors == [], f"the page threw: {errors}"
