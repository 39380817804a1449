"""A wild-tile table without any CJK font (issue 16's machine: a fresh Debian with Chromium only,
conftest.py's ``browser_without_cjk``): 红中 is its drawn picture, the 鬼 mark on it is drawn (its
red box and white strokes are there), and every new label with Chinese in it has English beside
it."""

from __future__ import annotations

from typing import Any, List

import xueliu
from xueliu.game import Action

from browser.clicking import keep_screenshot, sign_up
from browser.test_tiles_without_cjk import bare_chinese, check_tiles
from browser.wild_play import MARK_PIXELS, deal_flags, find_deal, until


def holds_hongzhong(state: Any, seat: int, legal: List[Action]) -> bool:
    return "7z" in state.observation(seat)["hand"]


def test_without_cjk_fonts_the_red_dragon_and_the_wild_marks_are_drawn(browser_without_cjk,
                                                                       live_server, tmp_path):
    rules = xueliu.Rules.preset("luzhou_gui")
    server = live_server(*deal_flags(find_deal(rules, holds_hongzhong)))
    context = browser_without_cjk.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: List[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, server.address, "ann", "luzhou_gui")
    until(page, lambda: page.locator(".own-hand .tile[data-tile='7z']").count() > 0,
          "a 红中 in the hand", in_hand=True)
    page.wait_for_selector(".controls button.choice, .own-hand .tile.clickable")
    check_tiles(page)  # every tile its loaded picture, no text
    mark = page.evaluate(MARK_PIXELS, ".own-hand .tile[data-tile='7z'] .wild-mark")
    assert mark["url"].endswith("/marks/gui.svg") and mark["red"] > 200 and mark["white"] > 50
    assert bare_chinese(page) == []  # 鬼 wild, 本金 benjin, 飞 …: English beside the Chinese
    keep_screenshot(page, tmp_path, "wild-table-without-cjk-fonts.png")
    context.close()
    assert errors == []
