"""``state.events(seat, since=n)``: the tail of the event stream without rendering its head — what
external bots and the table server send as a hand goes on (each event rendered once)."""

import random

import pytest

import xueliu


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_the_tail_is_the_tail_of_the_whole_stream_at_every_step(preset):
    rng = random.Random(5)
    for g in range(40):
        state = xueliu.new_game(preset, seed=g)
        followed = {seat: [] for seat in (None, 0, 1, 2, 3)}  # what a follower has received
        while True:
            for seat, got in followed.items():
                got.extend(state.events(seat, since=len(got)))
                assert got == state.events(seat)
                assert state.event_count == len(got)
                n = rng.randrange(len(got) + 2)  # any index, past the end included
                assert state.events(seat, since=n) == state.events(seat)[n:]
            if state.is_over:
                break
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})


def test_a_bad_index_is_an_error():
    state = xueliu.new_game("xueliu", seed=1)
    with pytest.raises(ValueError, match="non-negative"):
        state.events(0, since=-1)
    with pytest.raises(TypeError, match="since must be an int"):
        state.events(0, since="3")
    with pytest.raises(TypeError, match="since must be an int"):
        state.events(0, since=True)


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_event_lines_are_the_events_as_compact_json_lines(preset):
    """``event_lines`` (what an external bot is sent; draws and discards from a cache) is exactly
    each rendered event as compact JSON, one a line, for every seat and any tail."""
    import json

    from xueliu.game.events import event_lines

    rng = random.Random(9)
    for g in range(30):
        state = xueliu.new_game(preset, seed=100 + g)
        while True:
            for seat in (None, 0, 1, 2, 3):
                n = rng.randrange(state.event_count + 1)
                want = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                               for e in state.events(seat, since=n))
                assert event_lines(state, seat, n) == want.encode()
            if state.is_over:
                break
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})
