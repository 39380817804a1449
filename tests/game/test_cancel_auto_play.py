"""取消托管: a seat that two timeouts in a row switched to auto-play (docs/rules.md §8) is given back
to its player by ``state.cancel_auto_play(seat)``, from its next decision point on. The cancel is a
decision of the record (``[seat, "cancel_auto_play"]``), so a record replays it exactly; it is the
public event ``auto_play_cancelled``; the timeout streak starts afresh at it, so two more timeouts
in a row switch the seat to auto-play again. Bad input changes nothing."""

import copy
import json
import subprocess
import sys

import pytest

import xueliu

from .conftest import play_out, play_until, xl_rules

SEAT = 1
# Turns from the first step (no exchange, no void), a seed whose hand lasts long enough for seat 1
# to be asked again after the cancel (checked by play_until: the hand must not end first).
SEED = 5


def _time_out_twice(state, seat=SEAT):
    """The seat's next two decisions run out of time."""
    for _ in range(2):
        play_until(state, lambda st: seat in st.pending())
        state.apply_timeout(seat)


def _played_by(events, seat):
    """The seat's own moves in an event list (draws are the wall's, not the seat's)."""
    return [e for e in events if e.get("actor") == seat and e["type"] != "tsumo"]


def _on_auto_play(seed=SEED):
    """A hand in which seat 1 timed out twice and the engine then played one of its turns."""
    state = xueliu.new_game(xl_rules(), seed=seed)
    _time_out_twice(state)
    assert state.auto_play[SEAT]
    at = state.event_count
    play_until(state, lambda st: any(e["type"] == "dahai" and e["auto"]
                                     for e in _played_by(st.events(since=at), SEAT)))
    return state


def _snapshot(state):
    return (json.dumps(state.record()), state.events(), state.observation(None),
            state.pending(), state.auto_play)


def test_two_timeouts_switch_to_auto_play_and_cancelling_gives_the_seat_back_at_its_next_decision():
    state = xueliu.new_game(xl_rules(), seed=SEED)
    _time_out_twice(state)
    kinds = [e["type"] for e in state.events() if e.get("actor") == SEAT
             and e["type"] in ("timeout", "auto_play")]
    assert kinds == ["timeout", "timeout", "auto_play"]
    # On auto-play the engine plays the seat's turns itself: it is never asked.
    at = state.event_count
    asked = set()
    play_until(state, lambda st: asked.update(st.pending()) or any(
        e["type"] == "dahai" for e in _played_by(st.events(since=at), SEAT)))
    assert SEAT not in asked
    assert all(e["auto"] for e in _played_by(state.events(since=at), SEAT) if e["type"] == "dahai")

    before = state.pending()
    state.cancel_auto_play(SEAT)
    assert state.auto_play[SEAT] is False
    assert state.observation(SEAT)["auto_play"][SEAT] is False
    assert state.pending() == before  # nothing is asked of it mid-way: it waits for its turn
    # The event is public: every seat sees it as it is.
    for viewer in (None, *range(state.seats)):
        assert state.events(viewer)[-1] == {"type": "auto_play_cancelled", "actor": SEAT}
    assert state.record()["decisions"][-1] == [SEAT, "cancel_auto_play"]

    # Its next decision is asked of it: no move of its own is played in between.
    at = state.event_count
    play_until(state, lambda st: SEAT in st.pending())
    assert _played_by(state.events(since=at), SEAT) == []
    assert state.legal_actions(SEAT)
    assert state.observation(SEAT)["pending"] is True


def test_a_record_with_a_cancel_replays_exactly():
    state = _on_auto_play()
    state.cancel_auto_play(SEAT)
    play_out(state)
    rec = json.loads(json.dumps(state.record()))
    assert [SEAT, "cancel_auto_play"] in rec["decisions"]
    again = xueliu.replay(rec)
    assert again.events() == state.events()
    for s in range(state.seats):
        assert again.events(s) == state.events(s)
        assert again.observation(s) == state.observation(s)
    assert again.settlement().net == state.settlement().net
    assert again.settlement().report() == state.settlement().report()
    # Without the cancel the same decisions do not fit: the seat would still be auto-played, so
    # its own answers after the cancel were never asked of it.
    cut = copy.deepcopy(rec)
    cut["decisions"].remove([SEAT, "cancel_auto_play"])
    with pytest.raises(ValueError, match="is not pending"):
        xueliu.replay(cut)


def test_bad_cancels_raise_and_change_nothing():
    state = xueliu.new_game(xl_rules(), seed=SEED)
    snap = _snapshot(state)
    with pytest.raises(ValueError, match="seat 2 is not on auto-play"):
        state.cancel_auto_play(2)
    for seat, error in ((4, ValueError), (-1, ValueError), (True, TypeError), ("1", TypeError)):
        with pytest.raises(error, match="a seat is"):
            state.cancel_auto_play(seat)
    assert _snapshot(state) == snap

    state = _on_auto_play()
    state.cancel_auto_play(SEAT)
    snap = _snapshot(state)
    with pytest.raises(ValueError, match="seat 1 is not on auto-play"):
        state.cancel_auto_play(SEAT)  # once is enough
    assert _snapshot(state) == snap

    # An escaped seat stays auto-played to the end of the hand (docs/rules.md §7, §8).
    state.escape(3)
    assert state.escaped[3] and state.auto_play[3]
    snap = _snapshot(state)
    with pytest.raises(ValueError, match="seat 3 escaped"):
        state.cancel_auto_play(3)
    assert _snapshot(state) == snap

    state = _on_auto_play()
    play_out(state)
    assert state.auto_play[SEAT]
    snap = _snapshot(state)
    with pytest.raises(ValueError, match="the hand is over"):
        state.cancel_auto_play(SEAT)
    assert _snapshot(state) == snap


def test_two_more_timeouts_after_a_cancel_switch_the_seat_to_auto_play_again():
    state = _on_auto_play()
    state.cancel_auto_play(SEAT)
    # The streak restarts at the cancel: one timeout leaves the seat in control...
    play_until(state, lambda st: SEAT in st.pending())
    state.apply_timeout(SEAT)
    assert not state.auto_play[SEAT]
    play_until(state, lambda st: SEAT in st.pending())
    # ... and the second in a row switches it to auto-play again.
    state.apply_timeout(SEAT)
    assert state.auto_play[SEAT]
    kinds = [e["type"] for e in state.events() if e.get("actor") == SEAT
             and e["type"] in ("timeout", "auto_play", "auto_play_cancelled")]
    assert kinds == ["timeout", "timeout", "auto_play", "auto_play_cancelled",
                     "timeout", "timeout", "auto_play"]
    again = xueliu.replay(json.loads(json.dumps(state.record())))
    assert again.events() == state.events() and again.auto_play == state.auto_play


def test_the_replay_command_its_page_and_the_review_read_a_record_with_a_cancel(tmp_path):
    state = _on_auto_play()
    state.cancel_auto_play(SEAT)
    play_out(state)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(state.record()), "utf-8")

    def run(*args):
        p = subprocess.run([sys.executable, "-m", "xueliu", *args], capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        return p.stdout

    assert "seat 1: 取消托管 auto-play cancelled, plays again" in run("replay", str(path))
    assert "you: 取消托管" in run("replay", str(path), "--seat", "1")
    run("replay", str(path), "--html", str(tmp_path / "hand.html"))
    page = (tmp_path / "hand.html").read_text("utf-8")
    assert '"auto_play_cancelled"' in page  # the page's data: the event, there to step through
    # The review values the seat's own choices: neither a cancel nor an auto-played move is one.
    review = json.loads(run("review", str(path), "--seat", "1", "--json"))
    auto = [d for d in review["decisions"] if d["auto"]]
    assert auto == []
    asked = [d for d in review["decisions"] if not d["timeout"]]
    assert asked, "the seat decided after the cancel"
