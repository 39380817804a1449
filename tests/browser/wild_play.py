"""Wild-tile tables (docs/rules.md §12) for the browser tests.

The server's GreedyBots rarely make a soft meld and never seek a 提, so two helpers make them
happen on purpose:

- :class:`Eager`: a GreedyBot that takes every win, 提, kong and peng it is offered (soft ones
  included), for the hands the page's model is fed (recorded.py);
- :func:`find_deal`: a live table's first hand is dealt from ``hash_seed(deal_seed, table, 0)``
  under ``xueliu serve --deal-seed`` and its bot seats are the server's own GreedyBots, so this
  process can play that hand in advance, the person's seat by :func:`person_choice` — the very
  rule the browser test then clicks by (:func:`click_choice`) — and find a deal seed whose hand
  has what a test needs.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

import xueliu
from xueliu.bots import GreedyBot, bot_seed, start_hand_for
from xueliu.game import Action, GameState
from xueliu.game.wall import hash_seed

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

def person_choice(ids: Sequence[int]) -> int:
    """What the person of a live wild table does, from the action ids its page offers: 提 first,
    then a win, a peng (a soft one too), the discard of the highest id (the highest tile; 红中 is
    the highest of all), a pass; the lowest id otherwise (a void, a multiplier)."""
    acts = [Action.from_id(i) for i in sorted(set(ids))]
    for kind in ("swap_back", "hu", "peng"):
        for a in acts:
            if a.kind == kind:
                return a.id
    discards = [a.id for a in acts if a.kind == "discard"]
    if discards:
        return max(discards)
    passes = [a.id for a in acts if a.kind == "pass"]
    return passes[0] if passes else acts[0].id


# Every action id the page offers: the decision's buttons and the own tiles one can discard.
OFFERED = """() => [...document.querySelectorAll(
  '.controls button.choice[data-action], .own-hand .tile.clickable[data-action]')]
  .map(e => Number(e.dataset.action))"""


def click_choice(page: Page) -> Optional[int]:
    """Clicks what :func:`person_choice` picks among the page's offers; the id, or None if the
    page offers nothing (or was redrawn under the pointer)."""
    ids = page.evaluate(OFFERED)
    if not ids:
        return None
    choice = person_choice(ids)
    loc = page.locator(f".controls button.choice[data-action='{choice}'], "
                       f".own-hand .tile.clickable[data-action='{choice}']")
    try:
        loc.last.click(timeout=1000)
    except PlaywrightError:
        return None
    return choice


def deal_flags(seed: int) -> List[str]:
    """``xueliu serve`` flags for a table whose hand a test played in advance: dealt from
    ``seed``, and a person who is never played for — not auto-played before its page connects,
    never timed out on a busy machine — so it makes every decision itself, as planned."""
    return ["--deal-seed", str(seed), "--auto-delay", "600", "--human-void", "120",
            "--human-turn", "120", "--human-claim", "120"]


def until(page: Page, done: Callable[[], bool], what: str, limit: float = 240,
          in_hand: bool = False) -> List[int]:
    """Clicks the person's choices (:func:`click_choice`) until ``done()``; the ids clicked.
    ``in_hand``: ``done()`` must come before the hand ends (a hand played in advance)."""
    clicked: List[int] = []
    end = time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, f"{what} did not happen in {limit} s"
        assert not (in_hand and page.locator("#report:not([hidden])").count()), (
            f"the hand ended before {what}: not the hand played in advance")
        choice = click_choice(page)
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


def server_hand(rules: xueliu.Rules, deal_seed: int, table: int = 1,
                stop: Optional[Callable[[GameState, int, List[Action]], bool]] = None
                ) -> Tuple[GameState, bool]:
    """The first hand of table ``table`` at a server started with ``--deal-seed deal_seed``, its
    bot seats played as the server plays them (GreedyBots started with the hand's bot seeds,
    asked with the observation), seat 0 by :func:`person_choice`. ``stop(state, seat, legal)``
    is asked before each of seat 0's decisions: True ends the play there (returns True too)."""
    n = rules.shape.players
    state = xueliu.new_game(rules, seed=hash_seed(deal_seed, table, 0), dealer=0,
                            coins=[1000] * n)
    bots: Dict[int, GreedyBot] = {}
    for s in range(1, n):
        bots[s] = GreedyBot(rules=rules)
        start_hand_for(bots[s], s, rules, bot_seed(state.seed or 0, 0, s))
    while not state.is_over:
        decisions = {}
        for s in state.pending():
            legal = state.legal_actions(s)
            if s == 0:
                if stop is not None and stop(state, s, legal):
                    return state, True
                decisions[s] = Action.from_id(person_choice([a.id for a in legal]))
            else:
                decisions[s] = bots[s].act(state.observation(s), legal)
        state.step(decisions)
    return state, False


def find_deal(rules: xueliu.Rules, wanted: Callable[[GameState, int, List[Action]], bool],
              seeds: Sequence[int] = range(1, 3000), table: int = 1) -> int:
    """The first deal seed whose hand reaches a decision of seat 0 with ``wanted`` true."""
    for seed in seeds:
        if server_hand(rules, seed, table, wanted)[1]:
            return seed
    raise AssertionError(f"no deal seed in {seeds} gives the hand the test needs")
