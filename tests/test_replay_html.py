"""The replay viewer's page writer (issue 19): everything inline, the tile art from its files."""

from __future__ import annotations

import re

import pytest

import xueliu
from xueliu.bots import GreedyBot, play_hand
from xueliu.replay_html import STATIC, page_data, replay_page, tile_art
from xueliu.tiles import TILE_NAMES


def test_the_tile_art_is_the_svg_files_and_a_drawn_face_where_one_is_missing(tmp_path):
    art = tile_art()
    assert set(art) == set(TILE_NAMES) | {"back"}
    for name in art:
        path = STATIC / "tiles" / f"{name}.svg"
        if path.is_file():
            assert art[name] in path.read_text(encoding="utf-8")
    (tmp_path / "5p.svg").write_text('<?xml version="1.0"?><svg viewBox="0 0 1 1"></svg>')
    partial = tile_art(tmp_path)
    assert partial["5p"] == '<svg viewBox="0 0 1 1"></svg>'  # the file, from its <svg
    assert partial["5m"].startswith("<svg") and "万" in partial["5m"]
    assert partial["back"].startswith("<svg")


def test_the_page_needs_nothing_from_the_network():
    rec = play_hand(xueliu.new_game(seed=1), [GreedyBot() for _ in range(4)]).record()
    html = replay_page(rec, seat=1)
    assert not re.search(r"""(src|href)\s*=\s*["'](?!#)""", html)
    urls = set(re.findall(r"https?://[^\s\"'<>)\\]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}  # the SVG namespace, never fetched
    assert html.count("</script>") == 2  # the data and the viewer, each closed once


def test_a_bad_seat_is_refused():
    rec = play_hand(xueliu.new_game(seed=1), [GreedyBot() for _ in range(4)]).record()
    with pytest.raises(ValueError, match="seat"):
        page_data(rec, seat=4)
    assert page_data(rec, seat=None)["events"] == xueliu.replay(rec).events()


def test_the_viewer_data_carries_the_tables_shape_and_refuses_a_seat_it_lacks():
    rules = xueliu.Rules.preset("erren_yifang")
    state = xueliu.new_game(rules, seed=2)
    bot = GreedyBot(rules=rules)
    while not state.is_over:
        state.step({s: bot.act(state.observation(s), state.legal_actions(s))
                    for s in state.pending()})
    rec = state.record()
    assert page_data(rec, seat=1)["shape"] == {"players": 2, "wall_tiles": 36, "dealt_tiles": 15}
    with pytest.raises(ValueError, match="seat must be 0..1"):
        page_data(rec, seat=2)
