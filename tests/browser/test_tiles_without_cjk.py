"""Issue 16: the table reads on a machine without any CJK font (a fresh Debian with Chromium
only). Chromium here sees only DejaVu and Liberation (FONTCONFIG_FILE, conftest.py): every tile's
face must still be its picture, and every label with Chinese in it must carry English beside it."""

from __future__ import annotations

import re
import time

from browser.clicking import HAND_SECONDS, act_once, keep_screenshot, play_until, report_shown

CJK = re.compile(r"[\u3400-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")

# Two different Chinese characters drawn on a canvas: the same pixels mean no font has either
# (both are the missing-glyph box).
SAME_GLYPHS = """() => {
  const draw = (ch) => {
    const c = document.createElement('canvas');
    c.width = 64; c.height = 64;
    const g = c.getContext('2d');
    g.font = '48px sans-serif';
    g.fillText(ch, 4, 52);
    return Array.from(g.getImageData(0, 0, 64, 64).data).join(',');
  };
  return draw('万') === draw('筒');
}"""

TILES = """() => [...document.querySelectorAll('.tile')].map(t => {
  const imgs = t.querySelectorAll('img');
  const img = imgs[0];
  return {name: t.dataset.tile || null, imgs: imgs.length, text: t.textContent.trim(),
          src: img ? img.src : '', drawn: !!img && img.complete && img.naturalWidth > 0,
          width: img ? img.getBoundingClientRect().width : 0};
})"""

# The text of every element that holds Chinese in a text node of its own.
CHINESE_LABELS = """() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('[hidden]') || !e.getClientRects().length) continue;
    const own = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('');
    if (/[\\u3400-\\u9fff]/.test(own)) out.push(e.innerText);
  }
  return out;
}"""


def bare_chinese(page) -> list:
    """The labels on screen with Chinese in them and no English word beside it."""
    labels = page.evaluate(CHINESE_LABELS)
    return [text for text in labels if not LATIN_WORD.search(CJK.sub("", text))]


def check_tiles(page) -> int:
    """Every tile on screen is its picture, loaded and drawn, with no text; returns how many."""
    page.wait_for_function("[...document.images].every(i => i.complete)", timeout=60000)
    tiles = page.evaluate(TILES)
    for t in tiles:
        picture = f"/tiles/{t['name'] or 'back'}.svg"
        assert t["imgs"] == 1 and t["src"].endswith(picture), t
        assert t["drawn"] and t["width"] > 10, t  # loaded and drawn, not a broken image
        assert t["text"] == "", t  # no text on a tile face: nothing for a missing font to box
    return len(tiles)


def test_without_cjk_fonts_every_tile_is_a_picture_and_every_label_has_english(
        site, browser_without_cjk, tmp_path):
    context = browser_without_cjk.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    assert page.evaluate(SAME_GLYPHS), "this Chromium still has a CJK font"
    page.wait_for_selector("#login:not([hidden])")
    assert bare_chinese(page) == []
    page.fill("#name", "ann")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    assert bare_chinese(page) == []
    page.click("#play-bots")
    page.wait_for_selector("#table:not([hidden])")
    page.check("#help-toggle")  # the 查听 panel's labels too

    discards = 0
    end = time.monotonic() + HAND_SECONDS
    while discards < 4 and not report_shown(page):
        assert time.monotonic() < end
        what = act_once(page)
        discards += what == "discard"
        if not what:
            page.wait_for_timeout(50)
    keep_screenshot(page, tmp_path, "table-without-cjk-fonts.png", full_page=True)
    own = page.locator(".own-hand .tile").count()
    assert own >= 10 and check_tiles(page) > own  # the own hand and the others' backs at least
    assert page.evaluate(CHINESE_LABELS), "the table has Chinese labels (beside English)"
    assert bare_chinese(page) == []

    # The settlement too.
    play_until(page, lambda: report_shown(page))
    assert page.locator("#report .tile").count() == page.locator("#report .tile img").count()
    check_tiles(page)
    assert bare_chinese(page) == []
    context.close()
    assert errors == []
