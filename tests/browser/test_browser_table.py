"""The browser table (issues 11 and 16), played by clicking in Debian's Chromium against a real
server: a whole hand against three bots (its settlement table, the action log, the win chips), the
phase label, the exchange notice, the 查听 help's stale analysis, a reload mid-hand, a name with
markup, and screenshots."""

from __future__ import annotations

import time
from typing import Dict, List, Set, Tuple

from browser.clicking import (
    HAND_SECONDS, PHASE_OF_KIND, act_once, keep_screenshot, offered, play_until, report_shown,
    sign_up, stored_hands, table_of, token_of,
)

def test_a_whole_hand_is_played_by_clicking_against_three_bots(site, page, tmp_path):
    sign_up(page, site, "ann")
    page.check("#help-toggle")
    made = play_until(page, lambda: page.locator(".own-hand .tile.clickable").count() > 0
                      and page.locator("button.choice").count() == 0)
    # Help on: the 查听 panel reads the same analysis the engine has.
    # On the person's discard turn (14 tiles) it lists the best discards; it arrives by fetch.
    page.wait_for_function("document.querySelector('.help')?.textContent.includes('查听 best')",
                           timeout=60000)
    assert page.locator(".help .help-line .tile img").count() >= 1
    discards = 0

    def mid_hand() -> bool:
        return discards >= 6 or report_shown(page)

    while not mid_hand():
        what = act_once(page)
        discards += what == "discard"
        made.append(what or "")
        if not what:
            page.wait_for_timeout(50)
    names = page.locator(".felt .seat-name").all_inner_texts()
    if not report_shown(page):
        shot = keep_screenshot(page, tmp_path, "table.png", full_page=True)
        assert shot.stat().st_size > 10_000
        # The action log says who discarded what, the tile drawn as a tile.
        discards = page.locator(".log li[data-type=dahai]")
        assert discards.count() >= 1
        for i in range(discards.count()):
            assert discards.nth(i).locator("b").inner_text() in names
            assert discards.nth(i).locator(".tile img").count() == 1
    # The win chips say how each win came and who dealt in (read while the hand is played: the
    # next hand is dealt soon after this one ends).
    chips: Set[Tuple[str, str]] = set()
    end = time.monotonic() + HAND_SECONDS
    while not report_shown(page):
        assert time.monotonic() < end
        chips |= {(str(c["source"]), str(c["text"])) for c in page.evaluate(
            "() => [...document.querySelectorAll('.win-chip')].map(c => "
            "({source: c.dataset.source, text: c.textContent}))")}
        what = act_once(page)
        made.append(what or "")
        if not what:
            page.wait_for_timeout(50)
    for source, text in chips:
        if source == "self_draw":
            assert "自摸 self-draw" in text
        else:
            assert any(f"by {n}" in text or f"of {n}" in text for n in names), text
    keep_screenshot(page, tmp_path, "settlement.png")
    assert {"exchange", "void", "discard"} <= set(made), made

    # The report shows what the server stored for this hand, seat by seat and reason by reason.
    token, table = token_of(page), table_of(page)
    hands = stored_hands(site, token, table)
    assert len(hands) == 1
    settlement = hands[0]["settlement"]
    rows = page.locator("#report table.nets tr[data-seat]")
    assert rows.count() == 4
    assert [int(t) for t in page.locator("#report table.nets td.net").all_inner_texts()] \
        == settlement["net"]
    seat = int(page.inner_text("#table-label").split()[-1])
    for reason in page.locator("#report th[data-reason]").evaluate_all(
            "ths => ths.map(t => t.dataset.reason)"):
        shown = [int(t or 0) for t in page.locator(
            f"#report td[data-reason={reason}]").all_inner_texts()]
        stored = [sum(t["amount"] for t in settlement["transfers"]
                      if t["reason"] == reason and t["payee"] == s)
                  - sum(t["amount"] for t in settlement["transfers"]
                        if t["reason"] == reason and t["payer"] == s) for s in range(4)]
        assert shown == stored, reason
    # Names, not seat numbers; the reader's own row marked.
    assert sorted(page.locator("#report tr[data-seat] .seat-name").all_inner_texts()) \
        == sorted(names)
    assert page.locator("#report tr.me").get_attribute("data-seat") == str(seat)
    assert "ann" in page.inner_text("#report tr.me")
    assert "Seat 0" not in page.inner_text("#report")
    # Every decision of the person's seat was a click: none was a timeout.
    assert [seat, "timeout"] not in hands[0]["record"]["decisions"]
    # Then the next hand starts at the same table.
    page.click("#report-close")
    page.wait_for_function("document.querySelector('.own-hand .tile') !== null")


def test_the_phase_label_says_the_phase_each_decision_is_asked_in(site, page):
    sign_up(page, site, "cy")
    seen: Set[Tuple[str, str]] = set()
    answered: Set[str] = set()
    end = time.monotonic() + HAND_SECONDS
    while not report_shown(page):
        assert time.monotonic() < end
        now = offered(page)
        for kind in now["kinds"]:
            if kind in PHASE_OF_KIND:
                seen.add((str(kind), str(now["phase"])))
        did = act_once(page)
        if did is None:
            page.wait_for_timeout(30)
        else:
            # A decision may appear between the reading above and the click (the next request
            # arrives meanwhile): it was offered and answered all the same.
            answered.add(did)
    # (A claim window is asked of this seat in most hands; when it is, it says "claim".)
    wrong = {(k, p) for k, p in seen if PHASE_OF_KIND[k] != p}
    assert not wrong, f"decisions shown under another phase: {sorted(wrong)}"
    assert {"exchange", "void", "discard"} <= {k for k, _ in seen} | answered
    assert page.locator(".center .phase").get_attribute("data-phase") == "over"


def test_after_the_exchange_the_page_shows_what_was_given_and_received(site, page):
    sign_up(page, site, "dee")
    page.wait_for_selector("button.choice[data-kind=exchange]")
    tiles: List[str] = page.locator(".own-hand .tile").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    by_suit: Dict[str, List[int]] = {}
    for i, t in enumerate(tiles):
        by_suit.setdefault(t[1], []).append(i)
    pick = next(ix for ix in by_suit.values() if len(ix) >= 3)[:3]
    for i in pick:
        page.click(f".own-hand .tile[data-index='{i}']")
    page.click("button.choice[data-kind=exchange]:not([disabled])")
    notice = page.wait_for_selector(".exchange-notice", timeout=60000)
    assert notice is not None
    gave = page.locator(".exchange-notice .gave .tile").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    got = page.locator(".exchange-notice .received .tile").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    assert sorted(gave) == sorted(tiles[i] for i in pick)
    assert len(got) == 3
    text = page.inner_text(".exchange-notice")
    assert "to " in text and "from " in text
    # The received tiles are marked in the hand (until the seat's own first discard).
    marked = page.locator(".own-hand .tile.received").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    assert sorted(marked) == sorted(got)
    # The notice is news for a moment: it goes by itself (8 s) while play goes on.
    play_until(page, lambda: page.locator(".exchange-notice").count() == 0, limit=20)
    # After the first own discard no tile is marked any more.
    made: List[str] = []
    end = time.monotonic() + 60
    while "discard" not in made and not report_shown(page):
        assert time.monotonic() < end
        what = act_once(page)
        made.append(what or "")
        if not what:
            page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    assert page.locator(".own-hand .tile.received").count() == 0


def test_the_help_panel_drops_its_analysis_the_moment_the_hand_changes(site, page):
    sign_up(page, site, "eve")
    page.check("#help-toggle")
    play_until(page, lambda: page.locator(".own-hand .tile.clickable").count() > 0
               and page.locator("button.choice").count() == 0)
    page.wait_for_selector(".help:not(.pending) .help-line", timeout=60000)
    # From now on the server's analysis arrives 2 s late (the real answer, held back in the page).
    page.evaluate("""() => {
      const real = window.fetch;
      window.fetch = (url, ...rest) => String(url).includes('/api/analyze')
        ? new Promise(r => setTimeout(r, 2000)).then(() => real(url, ...rest)) : real(url, ...rest);
    }""")
    before = page.locator(".own-hand .tile").count()
    page.locator(".own-hand .tile.clickable").last.click()
    page.wait_for_function(f"document.querySelectorAll('.own-hand .tile').length < {before}",
                           timeout=60000)
    # The hand changed and its analysis is not there yet: nothing of the old one is shown.
    panel = page.evaluate("""() => {
      const h = document.querySelector('.help');
      return {pending: h.classList.contains('pending'), lines: h.querySelectorAll('.help-line').length};
    }""")
    assert panel == {"pending": True, "lines": 0}
    # Then the new hand's analysis comes.
    page.wait_for_selector(".help:not(.pending)", timeout=60000)


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
    # The only pictures are tiles (tiles/*.svg): the name made none.
    stray = page.evaluate("""() => [...document.images].filter(i =>
        !i.parentElement.classList.contains('tile') || !/\\/tiles\\/\\w+\\.svg$/.test(i.src))
        .map(i => i.outerHTML)""")
    assert stray == []
    page.wait_for_timeout(300)
    assert dialogs == []
