"""The replay viewer's page writer (issue 19): everything inline, the tile art from its files."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import xueliu
from xueliu.bots import GreedyBot, play_hand
from xueliu.replay_html import (STATIC, file_names, line_names, page_data, replay_page,
                                table_label, tile_art)
from xueliu.rules import Rules
from xueliu.tiles import TILE_NAMES


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xueliu", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


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


def _hand_of(preset: str, seed: int = 3):
    rules = xueliu.Rules.preset(preset)
    return play_hand(xueliu.new_game(rules, seed=seed),
                     [GreedyBot(rules=rules) for _ in range(rules.players)]).record()


def test_the_title_names_the_tables_mode_and_preset():
    rec = _hand_of("sanren_liangfang")
    label = "血战到底 xuezhan · 三人两房 sanren_liangfang"
    assert page_data(rec)["table"] == {"mode": "xuezhan", "label": label}
    html = replay_page(rec)
    assert f"<title>{label} — replay</title>" in html
    review = {"seat": 1, "agreement": 1.0, "total_regret": 0.0, "decisions": []}
    assert f"<title>{label} — review of seat 1</title>" in replay_page(rec, 1, review=review)
    assert table_label(Rules.preset("xueliu")) == "血流成河 xueliu · preset xueliu"
    assert table_label(Rules.preset("daodaohu")) == "倒倒胡 daodaohu · preset daodaohu"
    assert table_label(Rules.preset("xuezhan").replace(base=2)) == \
        "血战到底 xuezhan · preset xuezhan · base 2"  # the server's stakes on a preset
    assert table_label(Rules.preset("sanren_sanfang").replace(menqing=True)) == (
        "血战到底 xuezhan · 自定义 custom rules: 三人三房 sanren_sanfang with 1 knob changed "
        "(menqing)")


def test_the_seats_carry_the_players_names_where_the_source_has_them():
    rec = _hand_of("sanren_liangfang")
    assert page_data(rec)["names"] is None  # a bare record names nobody
    row = {"hand": 0, "seats": ["expert", "greedy", "random"], "record": rec}
    names = line_names(row, 3)
    assert names == ["expert", "greedy", "random"]
    assert page_data(rec, names=names)["names"] == names
    assert page_data(rec, names=["ann", None, ""])["names"] == ["ann", None, None]
    assert page_data(rec, names=[None, None, None])["names"] is None
    assert line_names(rec) is None and line_names(row, 4) is None and line_names([1]) is None
    with pytest.raises(ValueError, match="one name per seat"):
        page_data(rec, names=["a", "b"])
    # A name is data: it reaches the page inside the JSON, never as markup.
    html = replay_page(rec, names=["</script><b>x", "b", "c"])
    assert "</script><b>x" not in html and html.count("</script>") == 2


def _page_json(path) -> dict:
    html = path.read_text(encoding="utf-8")
    return json.loads(html.split('<script id="replay-data" type="application/json">')[1]
                      .split("</script>")[0])


def test_replay_and_review_pages_of_a_simulate_line_name_its_bots(tmp_path):
    rec = _hand_of("sanren_liangfang")
    hands = tmp_path / "hands.jsonl"
    rows = [{"hand": 0, "seats": ["expert", "greedy", "random"], "record": rec},
            {"hand": 1, "seats": ["a", "b"], "record": rec}]  # names that do not fit: none
    hands.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert file_names(str(hands), 0) == ["expert", "greedy", "random"]
    assert file_names(str(hands), 1) is None and file_names(str(hands), 5) is None
    bare = tmp_path / "hand.json"
    bare.write_text(json.dumps(rec), encoding="utf-8")
    assert file_names(str(bare)) is None
    for line, names in ((0, ["expert", "greedy", "random"]), (1, None)):
        out = tmp_path / f"replay{line}.html"
        p = _run("replay", str(hands), "--line", str(line), "--html", str(out))
        assert p.returncode == 0, p.stderr
        assert _page_json(out)["names"] == names
    out = tmp_path / "review.html"
    p = _run("review", str(hands), "--seat", "1", "--html", str(out))
    assert p.returncode == 0, p.stderr
    data = _page_json(out)
    assert data["names"] == ["expert", "greedy", "random"]
    assert data["table"]["label"] == "血战到底 xuezhan · 三人两房 sanren_liangfang"
    # One line, as replay --html prints, rather than the whole review.
    n = len(data["review"]["decisions"])
    assert p.stdout == (f"wrote {out} ({n} decisions of seat 1, "
                        f"{data['review']['decisions_counted']} counted: agreement "
                        f"{data['review']['agreement']:.1%}, total regret "
                        f"{data['review']['total_regret']:.3f})\n")
