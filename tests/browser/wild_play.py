"""Wild-tile tables (docs/rules.md §12) for the browser tests.

The server's GreedyBots rarely make a soft meld and never seek a 提, so two helpers make them
happen on purpose:

- :class:`Eager`: a GreedyBot that takes every win, 提, kong and peng it is offered (soft ones
  included), for the hands the page's model is fed (recorded.py);
- ``find_deal`` (server/planned.py): a live table's first hand is dealt from
  ``hash_seed(deal_seed, table, 0)`` under ``xueliu serve --deal-seed`` and its bot seats are the
  server's own GreedyBots, so this process can play that hand in advance, the person's seat by
  ``person_choice`` — the very rule the browser test then clicks by (:func:`click_choice`) — and
  find a deal seed whose hand has what a test needs.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional, Sequence

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

import xueliu
from xueliu.bots import GreedyBot
from xueliu.game import Action

from server.planned import deal_flags, find_deal, person_choice, server_hand  # noqa: F401

EAGER_ORDER = ("hu", "swap_back", "kong", "concealed_kong", "added_kong", "peng")


class Eager:
    """A GreedyBot that takes every win, 提, kong and peng it is offered, and discards a wild
    whenever the rules let it (a dead discard, docs/rules.md §12.3)."""

    def __init__(self, rules: xueliu.Rules, seed: int) -> None:
        self.greedy = GreedyBot(seed=seed, rules=rules)

    def act_view(self, view: Any, legal: Sequence[Action]) -> Action:
        for kind in EAGER_ORDER:
            for a in legal:
                if a.kind == kind:
                    return a
        wilds = set(view.observation().get("wilds", {}).get("kinds", []))
        for a in legal:
            if a.kind == "discard" and a.tile in wilds:
                return a
        return self.greedy.act_view(view, legal)


def eager_bots(rules: xueliu.Rules) -> Callable[[int], List[Eager]]:
    return lambda seed: [Eager(rules, seed * 4 + s) for s in rules.shape.seats]


# -- the person at a live table ------------------------------------------------------------------

# Every action the page offers: the decision's buttons and the own tiles one can discard, each
# with its id, kind, whether it is a soft meld (data-soft) and its label.
OFFERED = """() => [...document.querySelectorAll(
  '.controls button.choice[data-action], .own-hand .tile.clickable[data-action]')]
  .map(e => ({id: Number(e.dataset.action), kind: e.dataset.kind || 'discard',
              soft: e.dataset.soft === 'true', text: e.innerText.trim()}))"""

Offer = Dict[str, Any]


def click_choice(page: Page, hold: Optional[Callable[[List[Offer]], bool]] = None,
                 seen: Optional[List[Offer]] = None) -> Optional[int]:
    """Clicks what :func:`person_choice` picks among the page's offers and returns its id; None
    if the page offers nothing (or was redrawn under the pointer), -1 without clicking when
    ``hold(offers)`` is true. Every offer read is added to ``seen``."""
    offers: List[Offer] = page.evaluate(OFFERED)
    if not offers:
        return None
    if seen is not None:
        seen.extend(offers)
    if hold is not None and hold(offers):
        return -1
    choice = person_choice([o["id"] for o in offers])
    loc = page.locator(f".controls button.choice[data-action='{choice}'], "
                       f".own-hand .tile.clickable[data-action='{choice}']")
    try:
        loc.last.click(timeout=1000)
    except PlaywrightError:
        return None
    return choice


def until(page: Page, done: Callable[[], bool], what: str, limit: float = 240,
          in_hand: bool = False, hold: Optional[Callable[[List[Offer]], bool]] = None,
          seen: Optional[List[Offer]] = None) -> List[int]:
    """Clicks the person's choices (:func:`click_choice`) until ``done()``, or until the page
    offers what ``hold`` wants (left unclicked, for the test); the ids clicked. ``in_hand``: that
    must come before the hand ends (a hand played in advance). ``seen``: every offer read."""
    clicked: List[int] = []
    end = time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, f"{what} did not happen in {limit} s"
        assert not (in_hand and page.locator("#report:not([hidden])").count()), (
            f"the hand ended before {what}: not the hand played in advance")
        choice = click_choice(page, hold, seen)
        if choice == -1:
            break
        if choice is None:
            page.wait_for_timeout(50)
        else:
            clicked.append(choice)
            page.wait_for_timeout(30)
    return clicked


MARK_PIXELS = """async (selector) => {
  // The mark's picture drawn on a canvas from the file the CSS names: its red box is there.
  const el = document.querySelector(selector);
  const url = getComputedStyle(el).backgroundImage.slice(5, -2);
  const img = new Image();
  img.src = url;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let red = 0, white = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] > 200 && d[i] > 150 && d[i + 1] < 90 && d[i + 2] < 90) red++;
    if (d[i + 3] > 200 && d[i] > 230 && d[i + 1] > 230 && d[i + 2] > 220) white++;
  }
  const box = el.getBoundingClientRect();
  return {url, red, white, width: box.width, height: box.height};
}"""


