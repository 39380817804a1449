"""The replay viewer and the review page (issue 19) in Debian's Chromium: pages written by
``xueliu replay --html`` and ``xueliu review --html``, opened from disk with every network request
refused (the page must need none)."""

from __future__ import annotations

import json
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
    page.wait_for_selector("#step-label[data-step='0']")
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
    total = len(xueliu.replay(record).events())
    assert page.locator("#step-label").inner_text() == f"event 0 / {total}"
    # Forward one event at a time and back again: the same table at every step.
    page.click("#next")
    page.click("#next")
    assert page.locator("#step-label").get_attribute("data-step") == "2"
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
    end = xueliu.replay(record)
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
    for step in range(total + 1):
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
        assert shown == [[o["id"], f"{o['value']:.3f}"] for o in d["options"]]
        chosen = page.locator("#decision .options tr.chosen").get_attribute("data-id")
        assert int(chosen) == d["chosen"]["id"]
    dearest = data["costliest"][0]
    page.click(f".decision-item[data-number='{dearest}']")
    page.screenshot(path=str(tmp_path / "review.png"))
