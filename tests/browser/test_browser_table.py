"""The browser table (issue 11), played by clicking in Debian's Chromium against a real server:
a whole hand against three bots, a reload mid-hand, a name with markup, and screenshots."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Dict, List, Optional

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

HAND_SECONDS = 240  # a bound, not a speed target: a hand takes some 20-40 s here


def sign_up(page: Page, site: str, name: str, rules: str = "xueliu") -> None:
    """What a new visitor does: open the page, pick a name, start a table against three bots."""
    page.goto(site + "/")
    page.fill("#name", name)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    page.select_option("#rules", rules)
    page.click("#play-bots")
    page.wait_for_selector("#table:not([hidden])")


def _click(page: Page, selector: str) -> bool:
    loc = page.locator(selector)
    if loc.count() == 0:
        return False
    try:
        loc.last.click(timeout=1000)
        return True
    except PlaywrightError:  # the table was redrawn under the pointer: look again
        return False


def act_once(page: Page) -> Optional[str]:
    """Makes the decision the page offers, by clicking, and says which; None if none is offered.
    Wins are taken, claims passed, and the rightmost clickable tile (the one just drawn) goes."""
    if _click(page, "button.choice[data-kind=hu]"):
        return "hu"
    if page.locator("button.choice[data-kind=exchange]").count():
        tiles: List[Optional[str]] = page.locator(".own-hand .tile").evaluate_all(
            "els => els.map(e => e.dataset.tile)")
        by_suit: Dict[str, List[int]] = {}
        for i, t in enumerate(tiles):
            if t:
                by_suit.setdefault(t[1], []).append(i)
        pick = next(ix for ix in by_suit.values() if len(ix) >= 3)[:3]
        try:
            # A click toggles a pick, and an earlier attempt may have stopped halfway (the table
            # redrawn under the pointer): set each tile's pick to what this attempt wants.
            for i in range(len(tiles)):
                tile = page.locator(f".own-hand .tile[data-index='{i}']")
                if ("selected" in (tile.get_attribute("class", timeout=1000) or "").split()) \
                        != (i in pick):
                    tile.click(timeout=1000)
            page.locator("button.choice[data-kind=exchange]:not([disabled])").click(timeout=1000)
        except PlaywrightError:
            return None
        return "exchange"
    for kind in ("void", "multiplier", "pass"):
        if _click(page, f"button.choice[data-kind={kind}]"):
            return kind
    if _click(page, ".own-hand .tile.clickable"):
        return "discard"
    return None


def report_shown(page: Page) -> bool:
    return page.locator("#report:not([hidden])").count() > 0


def play_until(page: Page, done, limit: float = HAND_SECONDS) -> List[str]:
    """Clicks through decisions until ``done()``; returns what was clicked."""
    made: List[str] = []
    end = time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, f"the hand did not finish in {limit} s ({made[-5:]})"
        what = act_once(page)
        if what:
            made.append(what)
        else:
            page.wait_for_timeout(50)
    return made


def token_of(page: Page) -> str:
    return str(page.evaluate("localStorage.getItem('xueliu.token')"))


def table_of(page: Page) -> int:
    label = page.inner_text("#table-label")  # "table 1 · seat 0"
    return int(label.split()[1])


def stored_hands(site: str, token: str, table: int) -> List[dict]:
    r = httpx.get(f"{site}/api/tables/{table}/hands",
                  headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert r.status_code == 200, r.text
    return list(r.json()["hands"])


def keep_screenshot(page: Page, tmp_path: Path, name: str) -> Path:
    """Saves a screenshot under the test's output (and, with XUELIU_SCREENSHOTS set, there too:
    that is how the README's pictures are made)."""
    path = Path(tmp_path) / name
    page.screenshot(path=str(path))
    extra = os.environ.get("XUELIU_SCREENSHOTS")
    if extra:
        os.makedirs(extra, exist_ok=True)
        shutil.copy(path, os.path.join(extra, name))
    return path


def test_a_whole_hand_is_played_by_clicking_against_three_bots(site, page, tmp_path):
    sign_up(page, site, "ann")
    page.check("#help-toggle")
    made = play_until(page, lambda: page.locator(".own-hand .tile.clickable").count() > 0
                      and page.locator("button.choice").count() == 0)
    # Help on: the 查听 panel reads the same analysis the engine has.
    # On the person's discard turn (14 tiles) it lists the best discards; it arrives by fetch.
    page.wait_for_function("document.querySelector('.help')?.textContent.includes('查听')",
                           timeout=10000)
    assert page.locator(".help .help-line .tile").count() >= 1
    discards = 0

    def mid_hand() -> bool:
        return discards >= 6 or report_shown(page)

    while not mid_hand():
        what = act_once(page)
        discards += what == "discard"
        made.append(what or "")
        if not what:
            page.wait_for_timeout(50)
    if not report_shown(page):
        shot = keep_screenshot(page, tmp_path, "table.png")
        assert shot.stat().st_size > 10_000
    made += play_until(page, lambda: report_shown(page))
    keep_screenshot(page, tmp_path, "settlement.png")
    assert {"exchange", "void", "discard"} <= set(made)

    # The report shows what the server stored for this hand, transfer by transfer.
    token, table = token_of(page), table_of(page)
    hands = stored_hands(site, token, table)
    assert len(hands) == 1
    settlement = hands[0]["settlement"]
    shown_nets = page.locator("#report table.nets tr td:nth-child(2)").all_inner_texts()
    assert [int(t) for t in shown_nets] == settlement["net"]
    report = page.inner_text("#report .report-text")
    assert "详细结算" in report and "个人结算" in report
    assert report.count("\n  ") >= len(settlement["transfers"])
    # Every decision of the person's seat was a click: none was a timeout.
    seat = int(page.inner_text("#table-label").split()[-1])
    assert [seat, "timeout"] not in hands[0]["record"]["decisions"]
    # Then the next hand starts at the same table.
    page.click("#report-close")
    page.wait_for_function("document.querySelector('.own-hand .tile') !== null")


def test_a_reload_mid_hand_comes_back_to_the_same_seat_and_plays_on(site, page):
    sign_up(page, site, "bea", rules="xuezhan")
    label = page.inner_text("#table-label")
    discards = 0
    end = time.monotonic() + HAND_SECONDS
    while discards < 3 and not report_shown(page):
        assert time.monotonic() < end
        what = act_once(page)
        discards += what == "discard"
        if not what:
            page.wait_for_timeout(50)
    page.reload()
    page.wait_for_selector("#table:not([hidden])")
    assert page.inner_text("#table-label") == label  # the token in localStorage: same seat
    play_until(page, lambda: report_shown(page))
    hands = stored_hands(site, token_of(page), table_of(page))
    assert len(hands) == 1 and sum(hands[0]["settlement"]["net"]) <= 0


def test_a_name_with_markup_is_shown_as_text(site, page):
    dialogs: List[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    name = "<img src=x onerror=alert(1)>"
    sign_up(page, site, name)
    page.wait_for_selector(".seat-name")
    assert name in page.locator(".seat-name").all_inner_texts()
    assert page.locator("img").count() == 0
    page.wait_for_timeout(300)
    assert dialogs == []
