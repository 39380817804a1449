"""The browser table at wild-tile tables (docs/rules.md §12, issue 50), in Chromium.

The page's own model and drawing (model.js, view.js) fed real wild hands — played in this process
by bots that take every soft meld and 提 (wild_play.Eager), written as the server's messages
(recorded.py) — follow the engine step by step: the hand, the drawn tile, every meld with its
wild tiles, the rivers, the live wall (the 本金 leaves it), the wilds and the 本金; each meld is
drawn with its wilds, each wild with its mark.

And real tables on a real server (``--deal-seed``, so this process knows each hand in advance,
wild_play.find_deal): a person's browser shows 红中 with its 鬼 mark and discards it; 提 from the
browser (after a 飞 peng, its button labelled so); the 本金 face up by the wall count at a 宜宾
table, which plays to the end; the lobby offers every wild preset. (Without CJK fonts:
test_wild_without_cjk.py.)
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List

import pytest
from playwright.sync_api import Page

import xueliu
from xueliu.game import Action
from xueliu.rules import WILD_PRESET_NAMES
from xueliu.tiles import PHYSICAL_NAMES

from browser.clicking import (keep_screenshot, report_shown, sign_up,
                              stored_hands, table_of, token_of)
from browser.recorded import NAMES, RecordedHand, events_of, play
from browser.wild_play import MARK_PIXELS, deal_flags, eager_bots, find_deal, until

# -- the page's model, fed recorded wild hands -----------------------------------------------------

# Feeds the messages to a TableModel (with the state message's shape: its wilds), draws the table
# after each step that `marks` names, and returns what the model and the drawing hold then.
FOLLOW = """async ({messages, names, marks}) => {
  const {TableModel} = await import('/model.js');
  const view = await import('/view.js');
  const ui = {selected: new Map(), help: false, analysis: null, handKey: null, exchangeUntil: 0,
              toggle() {}, selectedTiles() { return []; }};
  document.getElementById('login').hidden = true;
  document.getElementById('table').hidden = false;
  const root = document.getElementById('table-body');
  const out = [];
  let model = null;
  messages.forEach((m, i) => {
    if (m.type === 'state') model = new TableModel(m.table, m.seat, m.observation, m.events, m.shape);
    else if (m.type === 'event') model.apply(m.event, m.phase);
    if (!marks[i]) return;
    view.renderTable(root, model, null, ui, names, () => {}, performance.now());
    const seats = [...root.querySelectorAll('.felt .seat')].sort((a, b) => a.dataset.seat - b.dataset.seat);
    out.push(JSON.parse(JSON.stringify({  // a copy: the model's lists change in place later
      index: i, hand: model.hand, drawn: model.drawn, discards: model.discards,
      melds: model.melds.map((ms) => ms.map((x) => ({type: x.type, tile: x.tile, from: x.from,
                                                    wilds: x.wilds}))),
      wall: model.wallRemaining, hand_sizes: model.handSizes, set_aside: model.setAside,
      wilds: model.wilds, claim: model.claim, kakan: Boolean(model.pendingKakan),
      drawn_melds: seats.map((p) => [...p.querySelectorAll('.melds .meld')].map((g) =>
        [...g.querySelectorAll('.tile')].map((t) => ({tile: t.dataset.tile || '?',
                                                     mark: t.dataset.wild || null})))),
      benjin_shown: root.querySelector('.center .benjin .tile')?.dataset.tile ?? null,
      wild_kinds_shown: [...root.querySelectorAll('.center .wild-kinds .tile')].map((t) => t.dataset.tile),
      marks: [...root.querySelectorAll('.tile')].map((t) => [t.dataset.tile || '?', t.dataset.wild || null]),
    })));
  });
  return out;
}"""


def _kind(t: str) -> int:
    return PHYSICAL_NAMES.index(t)


def expected_faces(meld: Dict[str, Any]) -> List[str]:
    """A meld as the table must draw it (view.js meldFaces) from the engine's observation."""
    n = 3 if meld["type"] == "peng" else 4
    if meld["tile"] == "?":
        return ["?"] * n
    wilds = meld["wilds"] or []
    if meld["type"] == "concealed_kong":
        return ["?", meld["tile"], wilds[0] if wilds else meld["tile"], "?"]
    return [meld["tile"]] * (n - len(wilds)) + list(wilds)


def check_follows(hand: RecordedHand, seen: List[Dict[str, Any]]) -> None:
    by_index = {s["index"]: s for s in seen}
    for i, obs in enumerate(hand.observations):
        if obs is None:
            continue
        got = by_index[i + 1]  # message 0 is the state message, the events follow it
        where = f"seed {hand.seed} step at message {i + 1}: {hand.messages[i + 1]['event']}"
        assert sorted(got["hand"], key=_kind) == sorted(obs["hand"], key=_kind), where
        assert got["drawn"] == obs["drawn"], where
        assert got["discards"] == obs["discards"], where
        assert got["wall"] == obs["wall_remaining"], where
        assert got["hand_sizes"] == obs["hand_sizes"], where
        assert got["set_aside"] == obs["set_aside"], where
        wilds = obs["wilds"]
        assert got["wilds"]["kinds"] == wilds["kinds"] and got["wilds"]["benjin"] == wilds["benjin"]
        assert got["benjin_shown"] == wilds["benjin"], where
        assert got["wild_kinds_shown"] == wilds["kinds"], where
        if obs["claim"] is not None:
            assert got["claim"] == {k: obs["claim"][k] for k in ("tile", "from", "kind")}, where
        if got["kakan"]:
            continue  # an added kong that may be robbed: the page shows it made (as before wilds)
        for s, melds in enumerate(obs["melds"]):
            mine = [{**m, "wilds": None if m["wilds"] is None else sorted(m["wilds"], key=_kind)}
                    for m in got["melds"][s]]
            theirs = [{**m, "wilds": None if m["wilds"] is None else sorted(m["wilds"], key=_kind)}
                      for m in melds]
            assert mine == theirs, (where, s)
            drawn = [[t["tile"] for t in g] for g in got["drawn_melds"][s]]
            assert [sorted(g) for g in drawn] == [sorted(expected_faces(m)) for m in melds], where
        # Every tile of a wild kind carries its mark (鬼 on 红中, 听用 on the others), the
        # face-up 本金 none; no other tile does.
        for name, mark in got["marks"]:
            want = None if name not in wilds["kinds"] else "gui" if name == "7z" else "tingyong"
            if name == wilds["benjin"] and mark is None:
                continue
            assert mark == want, (where, name, mark)


@functools.lru_cache(maxsize=None)
def recorded_wild_hands(preset: str) -> List[RecordedHand]:
    """Four hands of the preset (seeds 1..4) read by seat 0, played by eager bots."""
    rules = xueliu.Rules.preset(preset)
    make = eager_bots(rules)
    return [play(seed, 0, rules=rules, bots=make(seed)) for seed in range(1, 5)]


@pytest.fixture
def blank(site: str, page: Page) -> Page:
    page.goto(site + "/")
    page.wait_for_selector("#login:not([hidden])")
    return page


def follow(page: Page, hand: RecordedHand) -> List[Dict[str, Any]]:
    names = {str(s): n for s, n in enumerate(NAMES)}
    marks = [False] + [o is not None for o in hand.observations]
    return list(page.evaluate(FOLLOW, {"messages": hand.messages, "names": names,
                                       "marks": marks}))


@pytest.mark.parametrize("preset", WILD_PRESET_NAMES)
def test_the_pages_model_follows_every_step_of_wild_hands(blank, preset):
    for hand in recorded_wild_hands(preset):
        check_follows(hand, follow(blank, hand))


def test_the_recorded_wild_hands_hold_every_wild_play():
    # What the follow test goes through, over the five presets (deterministic hands): soft melds
    # of every kind, 提 of the reader and of another seat, a robbed wild added to a kong, a dead
    # wild discard, the 本金.
    seen = set()
    for preset in WILD_PRESET_NAMES:
        for hand in recorded_wild_hands(preset):
            wild = set(hand.state.wild_kinds)
            for e in events_of(hand):
                t = e["type"]
                if t in ("pon", "daiminkan", "ankan", "kakan") and any(
                        c in wild for c in e["consumed"] + [e.get("pai")]):
                    seen.add(f"soft {t}")
                if t == "ti":
                    seen.add("ti own" if e["actor"] == hand.seat else "ti other")
                if t == "hora" and e["source"] == "robbed_kong" and e["pai"] in wild:
                    seen.add("robbed wild")
                if t == "dahai" and e["pai"] in wild:
                    seen.add("wild discard")
                if t == "benjin":
                    seen.add("benjin")
    assert seen == {"soft pon", "soft daiminkan", "soft ankan", "soft kakan", "ti own",
                    "ti other", "robbed wild", "wild discard", "benjin"}


# -- live tables -----------------------------------------------------------------------------------

def holds_hongzhong_discard(state: Any, seat: int, legal: List[Action]) -> bool:
    return any(a.kind == "discard" and a.tile == "7z" for a in legal)


def test_a_person_sees_hongzhong_with_its_gui_mark_and_discards_it(browser, live_server, tmp_path):
    rules = xueliu.Rules.preset("hongzhong")  # 红中 wild, a dead discard (docs/rules.md §12.4)
    server = live_server(*deal_flags(find_deal(rules, holds_hongzhong_discard)))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: List[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server.address, "ann", "hongzhong")
    assert table_of(page) == 1
    own = ".own-hand .tile.clickable[data-tile='7z']"
    until(page, lambda: False, "a 红中 to discard", in_hand=True,
          hold=lambda offers: any(o["id"] == 32223 for o in offers))

    tile = page.locator(own).first
    assert tile.locator("img").get_attribute("src") == "tiles/7z.svg"
    assert tile.get_attribute("data-wild") == "gui"
    assert "7z (red dragon)" in (tile.get_attribute("title") or "")
    assert "dead discard" in (tile.get_attribute("title") or "")
    assert tile.get_attribute("data-action") == "32223"  # Action("discard", "7z")
    mark = page.evaluate(MARK_PIXELS, f"{own} .wild-mark")
    assert mark["url"].endswith("/marks/gui.svg") and mark["red"] > 200 and mark["white"] > 50
    assert mark["width"] > 8
    # The centre names the wilds: 鬼 and a 红中.
    assert page.locator(".center .wild-kinds .tile[data-tile='7z'][data-wild='gui']").count() == 1
    keep_screenshot(page, tmp_path, "wild-hongzhong-table.png")

    rivers = page.locator(".seat[data-seat='0'] .river .tile[data-tile='7z']").count()
    tile.click()
    page.wait_for_function(f"document.querySelectorAll(\".seat[data-seat='0'] .river "
                           f".tile[data-tile='7z'][data-wild='gui']\").length > {rivers}")
    until(page, lambda: report_shown(page), "the end of the hand")
    hands = stored_hands(server.address, token_of(page), 1)
    assert [0, 32223] in hands[0]["record"]["decisions"]
    context.close()
    assert errors == []


def help_works(page: Page) -> None:
    """The 查听 help answers the hand as the page holds it (its wilds, its melds with theirs, the
    notation app.js writes): an analysis, not an error."""
    if not page.is_checked("#help-toggle"):
        page.check("#help-toggle")
    page.wait_for_selector(".help:not(.pending)")
    text = page.inner_text(".help")
    assert any(w in text for w in ("shanten", "ready", "best discards", "complete")), text


def offers_swap_back(state: Any, seat: int, legal: List[Action]) -> bool:
    return any(a.kind == "swap_back" for a in legal)


@pytest.mark.parametrize("preset", ["luzhou_gui", "yaoji"])
def test_ti_swaps_back_a_wild_from_the_browser(browser, live_server, tmp_path, preset):
    rules = xueliu.Rules.preset(preset)
    server = live_server(*deal_flags(find_deal(rules, offers_swap_back)))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: List[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server.address, "ann", preset)

    seen: List[Dict[str, Any]] = []  # every offer the person was shown
    button = "button.choice[data-kind=swap_back]"
    until(page, lambda: False, "a 提", in_hand=True, seen=seen,
          hold=lambda offers: any(o["kind"] == "swap_back" for o in offers))
    fei = [o["text"] for o in seen if o["kind"] == "peng" and o["soft"]]
    assert fei and all(label.startswith("飞") for label in fei)  # 飞: the peng with a wild
    b = page.locator(button).first
    natural = b.locator(".tile").first.get_attribute("data-tile")
    wild = b.get_attribute("data-wild")
    assert natural and wild and natural != wild
    assert b.inner_text().startswith("提")
    meld = page.locator(f".seat[data-seat='0'] .meld[data-tile='{natural}']")
    before = meld.locator(".tile").evaluate_all("ts => ts.map(t => t.dataset.tile)")
    assert wild in before
    held = page.locator(f".own-hand .tile[data-tile='{wild}']").count()
    help_works(page)  # a soft meld: "(2s77z)", "(66s1s)"
    keep_screenshot(page, tmp_path, f"wild-{preset}-ti.png")
    b.click()
    page.wait_for_selector(".log li[data-type=ti]")
    after = meld.locator(".tile").evaluate_all("ts => ts.map(t => t.dataset.tile)")
    assert after.count(natural) == before.count(natural) + 1 and len(after) == len(before)
    assert page.locator(f".own-hand .tile[data-tile='{wild}']").count() == held + 1
    help_works(page)  # the meld is natural now
    until(page, lambda: report_shown(page), "the end of the hand")
    record = stored_hands(server.address, token_of(page), 1)[0]["record"]
    swaps = [a for s, a in record["decisions"]
             if s == 0 and isinstance(a, int) and Action.from_id(a).kind == "swap_back"]
    assert swaps and Action.from_id(swaps[0]).tile == natural
    context.close()
    assert errors == []


def test_a_yibin_table_shows_its_benjin_face_up_by_the_wall_and_plays_to_the_end(
        page, live_server, tmp_path):
    server = live_server()
    sign_up(page, server.address, "ann", "yibin")
    page.wait_for_selector(".center .benjin .tile")
    shown = page.locator(".center .benjin .tile").get_attribute("data-tile")
    # Right under the wall count, face up and not marked as a wild itself.
    order = page.evaluate("""() => [...document.querySelector('.center').children]
      .map(e => e.className)""")
    assert order.index("wall") + 1 == order.index("wilds")
    assert page.locator(".center .benjin .tile img").get_attribute("src") == f"tiles/{shown}.svg"
    assert page.locator(".center .benjin .tile.wild").count() == 0
    kinds = page.locator(".center .wild-kinds .tile").evaluate_all(
        "ts => ts.map(t => [t.dataset.tile, t.dataset.wild])")
    assert len(kinds) == 2 and all(mark == "tingyong" for _, mark in kinds)
    wall = int(page.inner_text(".center .wall").split()[-1])
    assert wall <= 108 - 53 - 1  # the 本金 left the live wall
    keep_screenshot(page, tmp_path, "wild-yibin-table.png")
    until(page, lambda: report_shown(page), "the end of the hand")
    record = stored_hands(server.address, token_of(page), table_of(page))[0]["record"]
    state = xueliu.replay(record)
    assert state.benjin == shown and sorted(state.wild_kinds) == sorted(k for k, _ in kinds)


def test_the_lobby_offers_every_wild_preset(page, live_server):
    server = live_server()
    page.goto(server.address + "/")
    page.fill("#name", "ann")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    options = page.locator("#rules option").evaluate_all("os => os.map(o => o.value)")
    assert [o for o in options if o in WILD_PRESET_NAMES] == list(WILD_PRESET_NAMES)
    for name in WILD_PRESET_NAMES:
        label = page.locator(f"#rules option[value={name}]").inner_text()
        assert "wilds" in label, label
    assert "112 tiles" in page.locator("#rules option[value=hongzhong]").inner_text()
    assert "本金 benjin" in page.locator("#rules option[value=yibin]").inner_text()
