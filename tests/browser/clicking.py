"""What a person does at the browser table, as Playwright clicks: sign up, start a table against
three bots, make whatever decision the page offers; and where to keep screenshots."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

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


def play_until(page: Page, done: Callable[[], bool], limit: float = HAND_SECONDS) -> List[str]:
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


def keep_screenshot(page: Page, tmp_path: Path, name: str, full_page: bool = False) -> Path:
    """Saves a screenshot under the test's output (and, with XUELIU_SCREENSHOTS set, there too:
    that is how the README's pictures are made). ``full_page``: the whole page, not the window."""
    path = Path(tmp_path) / name
    page.mouse.move(0, 0)  # no tile lifted by the pointer hovering over it
    page.screenshot(path=str(path), full_page=full_page)
    extra = os.environ.get("XUELIU_SCREENSHOTS")
    if extra:
        os.makedirs(extra, exist_ok=True)
        shutil.copy(path, os.path.join(extra, name))
    return path


def offered(page: Page) -> Dict[str, object]:
    """What the page shows at one moment (read in one go, so both belong to the same drawing):
    the phase label's phase and the kinds of the decision offered (buttons; "discard" when own
    tiles are clickable outside the exchange)."""
    return dict(page.evaluate("""() => {
      const phase = document.querySelector('.center .phase')?.dataset.phase ?? null;
      const kinds = [...document.querySelectorAll('button.choice')].map(b => b.dataset.kind);
      const exchange = kinds.includes('exchange');
      if (!exchange && document.querySelector('.own-hand .tile.clickable')) kinds.push('discard');
      return {phase, kinds};
    }"""))


# The engine's phase (GameState.phase) in which each kind of decision is asked.
PHASE_OF_KIND = {"exchange": "exchange", "void": "void", "multiplier": "multiplier",
                 "discard": "turn", "concealed_kong": "turn", "added_kong": "turn",
                 "pass": "claim", "peng": "claim", "kong": "claim"}
