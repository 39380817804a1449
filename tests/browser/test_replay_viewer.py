"""The replay viewer and the review page (issue 19) in Debian's Chromium: pages written by
``xueliu replay --html`` and ``xueliu review --html``, opened from disk with every network request
refused (the page must need none)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest
from playwright.sync_api import Page

import xueliu
from xueliu.bots import ExpertBot, GreedyBot, RandomBot, play_hand
from xueliu.game.actions import Action
from xueliu.game.state import restore
from xueliu.replay_html import line_names, replay_page
from xueliu.review import review_json, review_record
from xueliu.rules import Rules


def xueliu_cmd(*args: str) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "xueliu", *args], capture_output=True, text=True,
                       encoding="utf-8", timeout=120)
    assert p.returncode == 0, p.stderr
    return p


@pytest.fixture(scope="module")
def record() -> Dict[str, Any]:
    # A hand with pengs or kongs and wins in it, so that every part of the table is drawn.
    for seed in range(40):
        state = play_hand(xueliu.new_game(seed=seed),
                          [RandomBot(seed), ExpertBot(), GreedyBot(), ExpertBot()])
        kinds = {e["type"] for e in state.events()}
        if {"hora", "pon"} <= kinds:
            return state.record()
    raise AssertionError("no hand with a peng and a win in 40 seeds")


def _open(page: Page, path: Path) -> List[str]:
    """Opens a page from disk; returns the requests it tried to make beyond its own file."""
    asked: List[str] = []

    def refuse(route: Any) -> None:
        if route.request.url.startswith("file://") and route.request.url.endswith(path.name):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    errors: List[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", refuse)
    page.goto(path.as_uri())
    page.wait_for_selector("#step-label[data-step='1']")  # it opens on the deal
    assert errors == []
    return asked


def _states_along(rec: Dict[str, Any]):
    """(event count, omniscient observation) after each decision of the record."""
    state = restore(Rules.from_dict(rec["rules"]), seed=rec["seed"], wall=rec["wall"],
                    dealer=rec["dealer"], coins=rec["coins"], dice=rec.get("dice"))
    yield state.event_count, state.observation(None), state.observation(0)
    for seat, what in rec["decisions"]:
        state.step({seat: Action.from_id(what)})
        yield state.event_count, state.observation(None), state.observation(0)


def _seat_dom(page: Page, seat: int) -> Dict[str, Any]:
    panel = page.locator(f"#table .seat[data-seat='{seat}']")
    tiles = lambda part: panel.locator(f".{part} .tile").evaluate_all(  # noqa: E731
        "els => els.map(e => e.dataset.tile)")
    return {"hand": sorted(tiles("hand")), "discards": tiles("discards"),
            "melds": panel.locator(".melds .meld").evaluate_all(
                "els => els.map(e => e.dataset.type)"),
            "net": int(panel.locator(".net").get_attribute("data-net"))}


def _meld_types(melds: List[Dict[str, Any]]) -> List[str]:
    return [m["type"] for m in melds]


def test_stepping_through_a_replay_shows_the_table_after_each_event(page, record, tmp_path):
    out = tmp_path / "hand.html"
    xueliu_cmd("replay", _write(tmp_path, record), "--html", str(out))
    assert _open(page, out) == []
    end = xueliu.replay(record)
    total = len(end.events())
    # The page opens on the deal, never on an empty felt: every seat holds its dealt tiles.
    assert page.locator("#step-label").inner_text() == f"event 1 / {total}"
    deal = end.events()[0]
    assert deal["type"] == "start_hand"
    for s in range(4):
        assert _seat_dom(page, s)["hand"] == sorted(deal["tehais"][s])
    assert page.locator("#last-event").inner_text().startswith("发牌 deal: dealer 庄 seat")
    for back in ("#first", "#prev"):  # the deal is as far back as it goes
        page.click(back)
        assert page.locator("#step-label").get_attribute("data-step") == "1"
    page.keyboard.press("Home")
    assert page.locator("#step-label").get_attribute("data-step") == "1"
    # Forward one event at a time and back again: the same table at every step.
    page.click("#next")
    page.click("#next")
    assert page.locator("#step-label").get_attribute("data-step") == "3"
    two = page.locator("#table").inner_html()
    page.click("#next")
    page.click("#prev")
    assert page.locator("#table").inner_html() == two
    # After each decision the table is the engine's, seat by seat (every hand open).
    checked = 0
    for events, full, _ in list(_states_along(record))[::7]:
        page.evaluate(f"window.replayViewer.show({events})")
        assert page.locator("#wall").inner_text() == str(full["wall_remaining"])
        for s in range(4):
            dom = _seat_dom(page, s)
            assert dom["hand"] == sorted(full["hands"][s])
            assert dom["discards"] == full["discards"][s]
            assert dom["melds"] == _meld_types(full["melds"][s])
            assert dom["net"] == full["net"][s]
        checked += 1
    assert checked >= 5
    # Jumping to a turn lands on its draw.
    page.fill("#turn-input", "5")
    page.click("#jump")
    assert page.locator("#turn-label").inner_text().startswith("turn 5")
    assert " draws " in page.locator("#last-event").inner_text()
    # Playing runs on its own at the chosen speed, and stops at the end.
    page.select_option("#speed", "10")
    page.click("#play")
    page.wait_for_function("Number(document.getElementById('step-label').dataset.step) >= 20")
    page.click("#play")  # pause
    paused = page.locator("#step-label").get_attribute("data-step")
    page.wait_for_timeout(400)
    assert page.locator("#step-label").get_attribute("data-step") == paused
    page.click("#last")
    for s in range(4):
        assert _seat_dom(page, s)["net"] == end.settlement().net[s]
    page.screenshot(path=str(tmp_path / "replay.png"))


def _write(tmp_path: Path, record: Dict[str, Any]) -> str:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def test_a_one_seat_view_never_shows_another_seats_concealed_tiles(page, record, tmp_path):
    seat = 0
    out = tmp_path / "seat0.html"
    xueliu_cmd("replay", _write(tmp_path, record), "--seat", str(seat), "--html", str(out))
    html = out.read_text(encoding="utf-8")
    data = json.loads(html.split('<script id="replay-data" type="application/json">')[1]
                      .split("</script>")[0])
    end = xueliu.replay(record)
    assert data["events"] == end.events(seat)  # the seat's own stream, nothing more
    assert _open(page, out) == []
    total = len(data["events"])
    along = {events: mine for events, _full, mine in _states_along(record)}
    for step in range(1, total + 1):
        page.evaluate(f"window.replayViewer.show({step})")
        others = page.locator(f"#table .seat:not([data-seat='{seat}']) .hand .tile")
        assert set(others.evaluate_all("els => els.map(e => e.dataset.tile)")) <= {"?"}
        hidden_kongs = page.locator(
            f"#table .seat:not([data-seat='{seat}']) .meld[data-type='concealed_kong'] .tile")
        assert set(hidden_kongs.evaluate_all("els => els.map(e => e.dataset.tile)")) <= {"?"}
        if step in along:  # after a decision: the seat's own hand is its observation's
            assert _seat_dom(page, seat)["hand"] == sorted(along[step]["hand"])
    # The seat whose view it is sits at the bottom, as at the table.
    assert "pos-bottom" in page.locator(f"#table .seat[data-seat='{seat}']").get_attribute("class")


def test_the_review_page_shows_the_numbers_of_review_json(page, record, tmp_path):
    seat = 0  # the RandomBot: decisions that cost something
    src = _write(tmp_path, record)
    out = tmp_path / "review.html"
    xueliu_cmd("review", src, "--seat", str(seat), "--html", str(out))
    data = json.loads(xueliu_cmd("review", src, "--seat", str(seat), "--json").stdout)
    assert data["total_regret"] > 0
    assert _open(page, out) == []
    assert float(page.locator("#agreement").get_attribute("data-value")) == data["agreement"]
    assert float(page.locator("#total-regret").get_attribute("data-value")) == \
        data["total_regret"]
    assert f"{data['agreement'] * 100:.1f}%" in page.locator("#agreement").inner_text()
    items = page.locator(".decision-item")
    assert items.count() == len(data["decisions"])
    for d in data["decisions"]:
        page.click(f".decision-item[data-number='{d['number']}']")
        assert page.locator("#step-label").get_attribute("data-step") == str(d["event"])
        assert float(page.locator("#decision-regret").get_attribute("data-value")) == d["regret"]
        rows = page.locator("#decision .options tr")
        shown = rows.evaluate_all(
            "els => els.map(e => [Number(e.dataset.id), e.cells[1].textContent])")
        assert shown == [[o["id"], f"{o['value']:.3f}" if o["valued"] else "not valued"]
                         for o in d["options"]]
        chosen = page.locator("#decision .options tr.chosen").get_attribute("data-id")
        assert int(chosen) == d["chosen"]["id"]
    dearest = data["costliest"][0]
    page.click(f".decision-item[data-number='{dearest}']")
    page.screenshot(path=str(tmp_path / "review.png"))


# -- a 血战 three-seat hand from a simulate line: its title, its players, its words -------------

CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def three_seat_line(tmp_path_factory) -> Path:
    """A ``simulate --out`` file of 血战 三人三房 hands; its line 2 is a hand whose expert seat (2)
    has options its model does not value."""
    rules = Rules.preset("sanren_sanfang")
    path = tmp_path_factory.mktemp("three") / "hands.jsonl"
    lines = []
    for seed in range(3):
        state = play_hand(xueliu.new_game(rules, seed=seed),
                          [RandomBot(seed), GreedyBot(rules=rules), ExpertBot(rules=rules)])
        lines.append(json.dumps({"hand": seed, "seats": ["random", "greedy", "expert"],
                                 "record": state.record()}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _labels(page: Page) -> List[str]:
    """Every piece of text the table shows in words at this step."""
    return page.locator("#brand, #last-event, #turn-label, .seat-head > span, .win-chip span, "
                        "#decision, #decision-list h3").all_inner_texts()


def test_a_three_seat_xuezhan_page_names_its_table_and_players_in_words(page, three_seat_line,
                                                                         tmp_path):
    row = json.loads(three_seat_line.read_text(encoding="utf-8").splitlines()[2])
    out = tmp_path / "three.html"
    out.write_text(replay_page(row["record"], names=line_names(row)), encoding="utf-8")
    assert _open(page, out) == []
    label = "血战到底 xuezhan · 三人三房 sanren_sanfang"
    assert page.title() == f"{label} — replay"
    assert page.locator("#brand").inner_text() == label
    names = page.locator("#table .seat .seat-name").evaluate_all(
        "els => els.map(e => [e.closest('.seat').dataset.seat, e.textContent])")
    assert sorted(names) == [["0", "random"], ["1", "greedy"], ["2", "expert"]]
    assert page.locator("#table.seats-3 .seat").count() == 3
    # Every label with Chinese in it has English beside it, at every step; the end in words.
    total = int(page.locator("#scrub").get_attribute("max"))
    seen = set()
    for step in range(1, total + 1):
        page.evaluate(f"window.replayViewer.show({step})")
        for text in _labels(page):
            if CJK.search(text):
                assert re.search(r"[A-Za-z]{3,}", text), text
                seen.add(text)
    assert any("庄 dealer" in t for t in seen) and any("void:" in t for t in seen)
    last = page.locator("#last-event").inner_text()
    assert last.startswith("本局结束 hand over: ") and "_" not in last
    page.screenshot(path=str(tmp_path / "three.png"))


def test_the_review_says_not_valued_for_options_the_model_does_not_value(page, three_seat_line,
                                                                         tmp_path):
    row = json.loads(three_seat_line.read_text(encoding="utf-8").splitlines()[2])
    out = tmp_path / "review3.html"
    data = review_json(review_record(row["record"], 2))
    out.write_text(replay_page(row["record"], 2, review=data, names=line_names(row)),
                   encoding="utf-8")
    unvalued = [d for d in data["decisions"] if any(not o["valued"] for o in d["options"])
                and any(o["valued"] for o in d["options"])]
    assert unvalued  # the hand was chosen for it
    assert _open(page, out) == []
    assert page.title() == "血战到底 xuezhan · 三人三房 sanren_sanfang — review of seat 2"
    assert page.locator("#decision-list h3").inner_text() == \
        f"{len(data['decisions'])} decisions of expert (seat 2)"
    d = unvalued[0]
    page.click(f".decision-item[data-number='{d['number']}']")
    cells = page.locator("#decision .options td.value").all_inner_texts()
    assert cells == [f"{o['value']:.3f}" if o["valued"] else "not valued" for o in d["options"]]
    assert "0.000" not in cells
    for text in _labels(page):
        if CJK.search(text):
            assert re.search(r"[A-Za-z]{3,}", text), text
    page.screenshot(path=str(tmp_path / "review3.png"))


# -- 取消托管 in a replay: the seat's 托管 badge comes with auto_play and goes with the cancel -----

def test_a_replay_shows_auto_play_and_its_cancel_and_the_review_page_opens(page, tmp_path):
    state = xueliu.new_game(seed=5)
    timeouts = 0
    while not state.is_over:
        if timeouts < 2 and 1 in state.pending():  # seat 1 lets the exchange and the void run out
            state.apply_timeout(1)
            timeouts += 1
            continue
        if state.auto_play[1] and any(e["type"] == "dahai" and e["actor"] == 1
                                      for e in state.events()):
            state.cancel_auto_play(1)  # once the engine has played one of its turns
        state.step({s: state.legal_actions(s)[0] for s in state.pending()})
    events = state.events()
    on = next(i for i, e in enumerate(events) if e == {"type": "auto_play", "actor": 1}) + 1
    off = next(i for i, e in enumerate(events)
               if e == {"type": "auto_play_cancelled", "actor": 1}) + 1
    src = _write(tmp_path, state.record())
    out = tmp_path / "cancel.html"
    xueliu_cmd("replay", src, "--html", str(out))
    assert _open(page, out) == []
    badge = page.locator("#table .seat[data-seat='1'] .badge.auto")
    page.evaluate(f"window.replayViewer.show({on - 1})")
    assert badge.count() == 0
    for step in (on, off - 1):
        page.evaluate(f"window.replayViewer.show({step})")
        assert badge.inner_text() == "托管 auto-play"
    page.evaluate(f"window.replayViewer.show({off})")
    assert badge.count() == 0
    assert page.locator("#last-event").inner_text() == \
        "seat 1 取消托管 cancelled auto-play: plays again"
    review = tmp_path / "review-cancel.html"
    xueliu_cmd("review", src, "--seat", "1", "--html", str(review))
    assert _open(page, review) == []
