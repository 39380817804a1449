"""取消托管 at the browser table (issue 49), in real Chromium against a real server: a person lets
two decisions run out, so the engine auto-plays the seat (docs/rules.md §8); the page shows the
托管 state and a 取消托管 Cancel auto-play button (in view at every layout size, as
test_layouts.py measures the table); pressing it gives the seat back, the button goes, and the
next decision shows the person's own buttons again — which the person then uses."""

from __future__ import annotations

import os
import time
from typing import Iterator, List

import pytest
from playwright.sync_api import Page

from browser.clicking import act_once, keep_screenshot, table_of
from browser.test_layouts import SIZES, _measure
from server.client import query
from server.conftest import ServerProcess


@pytest.fixture
def served(tmp_path: "os.PathLike[str]") -> Iterator[ServerProcess]:
    """Real time; the exchange and the void run out after 3 s each (the person lets them), a turn
    or a claim has the default 10 s; a bot moves every half second, so the hand goes on well past
    the moment the seat is auto-played; an away seat is auto-played only after 10 s (the page
    connects first)."""
    server = ServerProcess(f"sqlite:///{os.path.join(tmp_path, 'xueliu.db')}", "--time-scale",
                           "1", "--human-exchange", "3", "--human-void", "3", "--bot-delay", "0.5",
                           "--auto-delay", "10", log_dir=str(tmp_path))
    server.start()
    yield server
    server.stop()
    server.log.close()


OWN_DECISION_SHOWN = """() => Boolean(document.querySelector('.dock button.choice')
  || document.querySelector('.own-hand .tile.clickable'))"""


def _own_decisions(db: str, table: int) -> List[str]:
    rows = query(db, "SELECT d.seat, d.action FROM decisions d JOIN hands h ON h.id = d.hand_id"
                     " WHERE h.table_id = ? AND h.idx = 0 ORDER BY d.idx", (table,))
    return [str(action) for seat, action in rows if seat == 0]


def test_a_person_who_let_two_decisions_time_out_presses_cancel_auto_play_and_decides_again(
        served, page: Page, tmp_path):
    page.goto(served.address + "/")
    page.fill("#name", "ann")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    page.select_option("#rules", "xueliu")
    page.click("#play-bots")
    page.wait_for_selector("#table:not([hidden])")
    table = table_of(page)
    # ann clicks nothing: the exchange and the void run out, and the engine plays her seat.
    page.wait_for_selector("#cancel-auto", timeout=60_000)
    assert page.inner_text("#cancel-auto") == "取消托管 Cancel auto-play"
    assert page.locator(".seat[data-seat='0'] .badge.auto").inner_text() == "托管 auto-play"
    assert "托管 auto-play" in page.inner_text(".dock .auto-note")
    assert page.evaluate(OWN_DECISION_SHOWN) is False  # nothing to decide while auto-played
    own = _own_decisions(served.db, table)
    assert own[-2:] == ["timeout", "timeout"]
    # The button fits every layout the table is measured at, inside the window, off the hand.
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        m = _measure(page)
        assert m["problems"] == [], f"托管 at {w}×{h}: {m['problems']}"
        assert m["counts"]["button"] == 1 and page.locator("#cancel-auto").is_visible()
        keep_screenshot(page, tmp_path, f"layout-auto-play-{w}x{h}.png")
    page.set_viewport_size({"width": 1280, "height": 900})

    page.click("#cancel-auto")
    page.wait_for_selector("#cancel-auto", state="detached", timeout=30_000)
    assert page.locator(".seat[data-seat='0'] .badge.auto").count() == 0
    assert page.locator(".log li[data-type='auto_play_cancelled']").count() == 1
    # Her next decision is hers again: its buttons (or her clickable tiles) show, and she uses them.
    page.wait_for_function(OWN_DECISION_SHOWN, timeout=60_000)
    made = None
    end = time.monotonic() + 30
    while made is None:
        assert time.monotonic() < end, "the decision shown could not be made"
        made = act_once(page)
    limit = time.monotonic() + 30  # the click reaches the database: wait for it, not a clock
    while _own_decisions(served.db, table)[-1:] == ["cancel_auto_play"]:
        assert time.monotonic() < limit, "the decision did not reach the server"
        page.wait_for_timeout(50)
    own = _own_decisions(served.db, table)
    at = own.index("cancel_auto_play")
    assert own[at - 2:at] == ["timeout", "timeout"] and own[at + 1].isdigit(), own
