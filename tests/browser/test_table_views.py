"""The page's own model and drawing (model.js, view.js in Chromium) fed a real hand: a seeded hand
played by GreedyBots in this process and written as the very messages the server sends one seat
(recorded.py). Deterministic, so every item of issue 16 is shown on a hand that has it: the
phase label, the exchange notice and marks, the action log, the win chips, the settlement table."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest
from playwright.sync_api import Page

from browser.recorded import NAMES, RecordedHand, events_of, first_hand
from xueliu.tiles import parse_hand

SHIFT = {"next": 1, "opposite": 2, "previous": 3}

# Feeds messages to a TableModel kept on the page, drawing the table after each (and the report
# on hand_end; with no messages, draws it once); returns the phase label's phase after each.
FEED = """async ({messages, names, exchangeUntil}) => {
  const {TableModel} = await import('/model.js');
  const view = await import('/view.js');
  const ui = {selected: new Map(), help: false, analysis: null, handKey: null, exchangeUntil,
              toggle() {}, selectedTiles() { return []; }};
  document.getElementById('login').hidden = true;
  document.getElementById('table').hidden = false;
  const draw = () => view.renderTable(document.getElementById('table-body'), window.harness, null,
                                      ui, names, () => {}, performance.now());
  const shown = [];
  if (!messages.length) draw();
  for (const m of messages) {
    if (m.type === 'state') window.harness = new TableModel(m.table, m.seat, m.observation, m.events);
    else if (m.type === 'event') window.harness.apply(m.event, m.phase);
    else if (m.type === 'hand_end') {
      view.renderReport(document.getElementById('report-body'), window.harness, names, m);
      document.getElementById('report').hidden = false;
    }
    draw();
    shown.push(document.querySelector('.center .phase').dataset.phase);
  }
  return shown;
}"""

FAR = 1e15  # an exchange notice deadline that never passes (performance.now() is in ms)


def wanted(h: RecordedHand) -> bool:
    """A hand with all the news the tests read: a claim window, a peng or kong, a 点炮 and a
    自摸, and a win of the reading seat."""
    evs = events_of(h)
    wins = [e for e in evs if e["type"] == "hora"]
    return ("claim" in h.phases and any(e["type"] in ("pon", "daiminkan") for e in evs)
            and {"discard", "self_draw"} <= {e["source"] for e in wins}
            and any(e["actor"] == h.seat for e in wins))


@pytest.fixture(scope="module")
def hand() -> RecordedHand:
    return first_hand(wanted)


@pytest.fixture
def table(site: str, page: Page) -> Page:
    page.goto(site + "/")
    page.wait_for_selector("#login:not([hidden])")
    return page


def feed(page: Page, messages: List[Dict[str, Any]], exchange_until: float = FAR) -> List[str]:
    names = {str(s): n for s, n in enumerate(NAMES)}
    return list(page.evaluate(FEED, {"messages": messages, "names": names,
                                     "exchangeUntil": exchange_until}))


def tiles_in(page: Page, selector: str) -> List[str]:
    return list(page.locator(selector).evaluate_all("els => els.map(e => e.dataset.tile)"))


def test_the_phase_label_is_the_engines_phase_after_every_message(table, hand):
    shown = feed(table, hand.messages[:-1])
    # The first message is the state before the deal; then one per event, with its phase.
    assert shown[1:] == hand.phases
    # In a claim window the label names the discard and who made it.
    first = hand.phases.index("claim") + 1
    feed(table, hand.messages[:first + 1])
    discard = hand.messages[first]["event"]
    assert discard["type"] in ("dahai", "kakan")
    assert table.inner_text(".center .phase") == "碰杠胡 claim window"
    assert tiles_in(table, ".center .phase-detail .tile") == [discard["pai"]]
    assert f"of {NAMES[discard['actor']]}" in table.inner_text(".center .phase-detail")


def test_after_the_exchange_the_notice_says_what_was_given_and_received(table, hand):
    msgs = hand.messages
    at = next(i for i, m in enumerate(msgs)
              if m["type"] == "event" and m["event"]["type"] == "huansanzhang")
    ev = msgs[at]["event"]
    me = hand.seat
    feed(table, msgs[:at + 1])
    assert sorted(tiles_in(table, ".exchange-notice .gave .tile")) == sorted(ev["given"][me])
    assert sorted(tiles_in(table, ".exchange-notice .received .tile")) == sorted(ev["received"][me])
    shift = SHIFT[ev["direction"]]
    text = table.inner_text(".exchange-notice")
    assert f"to {NAMES[(me - shift) % 4]}" in text and f"from {NAMES[(me + shift) % 4]}" in text
    # The received tiles are marked in the hand ...
    assert sorted(tiles_in(table, ".own-hand .tile.received")) == sorted(ev["received"][me])
    # ... after the notice has gone too ...
    feed(table, [], exchange_until=0)
    assert table.locator(".exchange-notice").count() == 0
    assert sorted(tiles_in(table, ".own-hand .tile.received")) == sorted(ev["received"][me])
    # ... until the seat's own first discard.
    mine = next(i for i, m in enumerate(msgs) if m["type"] == "event"
                and m["event"]["type"] == "dahai" and m["event"]["actor"] == me)
    feed(table, msgs[at + 1:mine + 1], exchange_until=0)
    assert table.locator(".own-hand .tile.received").count() == 0


def test_the_log_says_who_discarded_pengs_kongs_and_won_and_the_chips_who_dealt_in(table, hand):
    feed(table, hand.messages[:1])
    checked = set()
    for m in hand.messages[1:-1]:
        feed(table, [m])
        e = m["event"]
        kind = e["type"]
        if kind not in ("dahai", "pon", "daiminkan", "hora"):
            continue
        line = table.locator(".log li").last
        text = " ".join(line.inner_text().split())  # one space between the line's parts
        assert line.get_attribute("data-type") == kind
        assert text.startswith(NAMES[e["actor"]]), text
        assert tiles_in(table, ".log li:last-child .tile") == [e["pai"]]
        if kind == "dahai":
            assert "discards" in text
        elif kind in ("pon", "daiminkan"):
            assert ("碰 pengs" if kind == "pon" else "杠 kongs") in text
            assert text.endswith(f"from {NAMES[e['target']]}"), text
        else:
            chip = table.locator(f".seat[data-seat='{e['actor']}'] .win-chip").last
            assert tiles_in(table, f".seat[data-seat='{e['actor']}'] .win-chip:last-child .tile") \
                == [e["pai"]]
            if e["source"] == "self_draw":
                assert "自摸 self-draw" in text and "自摸 self-draw" in chip.inner_text()
            else:
                by = NAMES[e["target"]]
                assert (f"dealt in by {by}" in text or f"robbing {by}" in text), text
                assert by in chip.inner_text()
                assert chip.get_attribute("data-from") == str(e["target"])
            kind = f"hora-{e['source']}"
        checked.add(kind)
    assert {"dahai", "hora-discard", "hora-self_draw"} <= checked
    assert {"pon", "daiminkan"} & checked


def test_the_settlement_is_a_table_per_seat_with_names_and_tiles_and_only_what_the_seat_sees(
        table, hand):
    feed(table, hand.messages)
    st = hand.state.settlement()
    me = hand.seat
    rows = table.locator("#report tr[data-seat]")
    assert rows.count() == 4
    assert table.locator("#report tr.me").get_attribute("data-seat") == str(me)
    assert "你 you" in table.inner_text("#report tr.me")
    assert table.locator("#report tr[data-seat] .seat-name").all_inner_texts() == NAMES
    assert [int(t) for t in table.locator("#report td.net").all_inner_texts()] == st.net
    assert [int(t) for t in table.locator("#report td.coins").all_inner_texts()] == st.coins
    for reason in {t.reason for t in st.transfers}:
        shown = [int(t or 0) for t in table.locator(
            f"#report td[data-reason={reason}]").all_inner_texts()]
        assert shown == [sum(t.amount for t in st.transfers if t.reason == reason and t.payee == s)
                         - sum(t.amount for t in st.transfers
                               if t.reason == reason and t.payer == s) for s in range(4)]
    # Each win with its tile drawn as a tile; the reader's own winning hands drawn tile by tile,
    # the others' not there at all (docs/rules.md §7: the seat's events leave them out).
    for s in range(4):
        wins = [w for w in st.wins if w.seat == s]
        row = f"#report tr[data-seat='{s}']"
        assert tiles_in(table, f"{row} .report-win > .tile") == [w.tile for w in wins]
        hands = table.locator(f"{row} .win-hand")
        if s == me:
            assert hands.count() == len(wins) > 0
            for i, w in enumerate(wins):
                drawn = tiles_in(table, f"{row} .report-win:nth-child({i + 1}) .win-hand .tile")
                expected = parse_hand(w.hand)
                assert len(drawn) == int(expected.counts.sum()) + sum(
                    4 if m.kind != "peng" else 3 for m in expected.melds)
        else:
            assert hands.count() == 0
    # The reader's own transfers, each with a name.
    mine = [t for t in st.transfers if me in (t.payer, t.payee)]
    assert table.locator("#report ul.transfers li").count() == len(mine)
    # Every tile of the report is a picture; no "Seat 0..3" and no tile names as text.
    assert table.locator("#report .tile").count() == table.locator("#report .tile img").count() > 0
    text = table.inner_text("#report")
    assert "Seat " not in text and not any(f"{n}{u}" in text for n in "123456789" for u in "mps")
