"""The browser table at every shape (docs/rules.md §11, issue 17 layer 7), in Chromium: the lobby offers
every preset; a 三人两房 and a 两人一房 table against bots, played by clicking on a real server, put
the opponents where players expect them (three players: left and right; two: across), count the
wall down from the table's own wall, and never offer 定缺 or a tile of a suit not in play; the
page's own model, fed a recorded 三人两房 hand, shows the engine's wall after every step."""

from __future__ import annotations

import time
from typing import Dict, List

import pytest
from playwright.sync_api import Page

import xueliu
from xueliu.server.protocol import TABLE_PRESETS

import httpx

from browser.clicking import act_once, keep_screenshot, report_shown, token_of
from browser.recorded import play

HAND_SECONDS = 240  # a bound against a hang, not a speed target

# 三人两房 as the preset has it (3 seats, 筒 条, 72 tiles, no 定缺, 起胡番 2).
SANREN_LIANGFANG_SHAPE = xueliu.Rules.preset("sanren_liangfang")
TABLES = {"sanren_liangfang": SANREN_LIANGFANG_SHAPE, "erren_yifang": xueliu.Rules.preset("erren_yifang")}


def test_every_preset_is_offered_in_the_create_table_form(site, page):
    page.goto(site + "/")
    page.fill("#name", "ann")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    options = page.locator("#rules option").evaluate_all("os => os.map(o => o.value)")
    assert options == list(TABLE_PRESETS)
    label = page.locator("#rules option[value=sanren_liangfang]").inner_text()
    assert "三人两房" in label and "3 players" in label and "72 tiles" in label
    page.select_option("#rules", "erren_yifang")
    assert page.inner_text("#play-bots") == "Play against a bot"
    page.select_option("#rules", "xueliu")
    assert page.inner_text("#play-bots") == "Play against three bots"


def places(page: Page) -> Dict[str, Dict[str, float]]:
    """Each seat panel's place class and the centre of its box."""
    return dict(page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.felt .seat')]
      .map(e => { const r = e.getBoundingClientRect();
                  const place = [...e.classList].find(c => c.startsWith('seat-')).slice(5);
                  return [e.dataset.seat, {place, x: r.x + r.width / 2, y: r.y + r.height / 2}]; }))"""))


def sit_at(page: Page, site: str, rules: xueliu.Rules) -> None:
    """Signs up on the page, creates a table of ``rules`` with bots in every other seat through
    the API (as the lobby does, with the rules as an object), and lets the page come to it."""
    page.goto(site + "/")
    page.fill("#name", "ann")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    r = httpx.post(f"{site}/api/tables", headers={"Authorization": f"Bearer {token_of(page)}"},
                   json={"rules": rules.to_dict(), "bots": rules.shape.players - 1, "base": 1},
                   timeout=30)
    assert r.status_code == 200, r.text
    page.reload()
    page.wait_for_selector("#table:not([hidden])")


def play_by_clicking(page: Page, seen: List[Dict[str, object]]) -> None:
    """Clicks through the hand to its settlement, noting what the page shows at each look."""
    end = time.monotonic() + HAND_SECONDS
    while not report_shown(page):
        assert time.monotonic() < end, "the hand did not finish"
        seen.append(dict(page.evaluate("""() => ({
          phase: document.querySelector('.center .phase')?.dataset.phase ?? null,
          kinds: [...document.querySelectorAll('button.choice')].map(b => b.dataset.kind),
          tiles: [...document.querySelectorAll('.tile')].map(t => t.dataset.tile),
          wall: document.querySelector('.center .wall')?.textContent ?? null})""")))
        if not act_once(page):
            page.wait_for_timeout(50)


@pytest.mark.parametrize("preset", sorted(TABLES))
def test_a_small_table_is_laid_out_for_its_seats_and_offers_only_its_tiles(
        site, page, tmp_path, preset):
    shape = TABLES[preset].shape
    sit_at(page, site, TABLES[preset])
    page.wait_for_selector(".felt .seat")
    where = places(page)
    assert sorted(where) == [str(s) for s in shape.seats]
    me = where.pop("0")
    assert me["place"] == "bottom"
    if shape.players == 3:
        # 下家 (seat 1, next in turn order) on the right, 上家 (seat 2) on the left, nobody across.
        assert where["1"]["place"] == "right" and where["2"]["place"] == "left"
        assert where["2"]["x"] < me["x"] < where["1"]["x"]
        assert abs(where["1"]["y"] - where["2"]["y"]) < 5
    else:
        assert where["1"]["place"] == "top"
        assert where["1"]["y"] < me["y"] and abs(where["1"]["x"] - me["x"]) < 5
    assert page.locator(".seat-top").count() == (1 if shape.players == 2 else 0)
    keep_screenshot(page, tmp_path, f"table-{preset}.png")

    seen: List[Dict[str, object]] = []
    play_by_clicking(page, seen)
    live_wall = shape.wall_tiles - shape.dealt_tiles
    walls = [int(str(s["wall"]).split()[-1]) for s in seen if s["wall"]]
    assert walls and max(walls) <= live_wall and min(walls) >= 0
    assert all(s["phase"] != "void" for s in seen)
    assert all("void" not in s["kinds"] for s in seen)  # no 定缺 buttons at a 两房 / 一房 table
    tiles = {t for s in seen for t in s["tiles"]}  # type: ignore[attr-defined]
    assert {t[1] for t in tiles if t and t != "?"} <= set(shape.suits)
    rows = page.locator("#report table.nets tr[data-seat]").count()
    assert rows == shape.players
    keep_screenshot(page, tmp_path, f"settlement-{preset}.png")


WALLS = """async ({messages}) => {
  const {TableModel} = await import('/model.js');
  const view = await import('/view.js');
  const ui = {selected: new Map(), help: false, analysis: null, handKey: null, exchangeUntil: 0,
              toggle() {}, selectedTiles() { return []; }};
  document.getElementById('login').hidden = true;
  document.getElementById('table').hidden = false;
  const shown = [];
  let model = null;
  for (const m of messages) {
    if (m.type === 'state') model = new TableModel(m.table, m.seat, m.observation, m.events, m.shape);
    else if (m.type === 'event') model.apply(m.event, m.phase);
    else continue;
    view.renderTable(document.getElementById('table-body'), model, null, ui, {}, () => {}, 0);
    if (m.type === 'event') shown.push(Number(document.querySelector('.center .wall').textContent.split(' ').pop()));
  }
  return shown;
}"""


def test_the_wall_count_of_a_sanren_liangfang_hand_starts_from_its_72_tiles(site, page):
    hand = play(5, rules=SANREN_LIANGFANG_SHAPE)
    page.goto(site + "/")
    page.wait_for_selector("#login:not([hidden])")
    shown = page.evaluate(WALLS, {"messages": hand.messages})
    assert shown[0] == 72 - 40  # after the deal: 3 × 13 + 1 tiles dealt
    for wall, engine in zip(shown, hand.walls):
        if engine is not None:
            assert wall == engine


def test_the_replay_viewer_seats_a_three_player_hand_left_and_right_from_its_72_tile_wall(
        page, tmp_path):
    from xueliu.replay_html import replay_page

    rec = play(5, rules=SANREN_LIANGFANG_SHAPE).state.record()
    path = tmp_path / "replay.html"
    path.write_text(replay_page(rec, seat=0), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector("#step-label[data-step='1']")  # the viewer opens on the deal
    assert page.inner_text("#wall") == "32"  # 72 − 40 dealt
    seats = page.locator("#table .seat").evaluate_all(
        "els => els.map(e => [e.dataset.seat, [...e.classList].find(c => c.startsWith('pos-'))])")
    assert seats == [["0", "pos-bottom"], ["1", "pos-right"], ["2", "pos-left"]]
    page.keyboard.press("End")
    assert int(page.inner_text("#wall")) == xueliu.replay(rec).wall_remaining


def test_the_help_asks_the_analysis_with_the_tables_own_rules(site, page):
    import json

    sit_at(page, site, SANREN_LIANGFANG_SHAPE)
    page.wait_for_selector(".own-hand .tile")
    with page.expect_request("**/api/analyze") as asked:
        page.check("#help-toggle")
    body = json.loads(asked.value.post_data or "{}")
    assert xueliu.Rules.from_dict(body["rules"]) == SANREN_LIANGFANG_SHAPE
    page.wait_for_selector(".help:not(.pending)")
    text = page.inner_text(".help")  # an analysis (its error message would stand alone)
    assert any(w in text for w in ("shanten", "听牌 ready", "best discards", "胡 complete")), text


def test_a_huansizhang_table_lets_the_player_pick_four_tiles_of_one_suit(site, page):
    # 换四张 (docs/rules.md §11.1 exchange_count = 4): the prompt asks for four tiles, the exchange button
    # is enabled only once four of one suit are picked, a fifth click picks nothing, and the
    # notice shows the four given and the four received.
    rules = xueliu.Rules.preset("xueliu").replace(exchange_count=4)
    sit_at(page, site, rules)
    page.wait_for_selector("button.choice[data-kind=exchange]")
    prompt = page.inner_text(".controls .prompt")
    assert "换四张" in prompt and "pick four tiles of one suit" in prompt
    tiles: List[str] = page.locator(".own-hand .tile").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    by_suit: Dict[str, List[int]] = {}
    for i, t in enumerate(tiles):
        by_suit.setdefault(t[1], []).append(i)
    suit = next(ix for ix in by_suit.values() if len(ix) >= 5)  # 13 or 14 tiles of three suits: one holds 5
    for n, i in enumerate(suit[:5]):
        page.click(f".own-hand .tile[data-index='{i}']")
        picked = page.locator(".own-hand .tile.selected").count()
        assert picked == min(n + 1, 4)
        enabled = page.locator("button.choice[data-kind=exchange]:not([disabled])").count()
        assert enabled == (1 if n >= 3 else 0), f"after {n + 1} clicks"
    page.click("button.choice[data-kind=exchange]:not([disabled])")
    page.wait_for_selector(".exchange-notice", timeout=60000)
    gave = page.locator(".exchange-notice .gave .tile").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    got = page.locator(".exchange-notice .received .tile").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    assert sorted(gave) == sorted(tiles[i] for i in suit[:4])
    assert len(got) == 4
    assert "换四张" in page.inner_text(".exchange-notice")


def test_where_any_four_tiles_may_go_the_prompt_does_not_ask_for_one_suit(site, page):
    rules = xueliu.Rules.preset("xueliu").replace(exchange_count=4, exchange_same_suit=False)
    sit_at(page, site, rules)
    page.wait_for_selector("button.choice[data-kind=exchange]")
    prompt = page.inner_text(".controls .prompt")
    assert "pick four tiles" in prompt and "one suit" not in prompt
