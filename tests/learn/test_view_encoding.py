"""The encoders' fast path (``xueliu.learn.view_encoding``, read from the engine's seat views and
built by the native core for a whole batch) equals the observation-dict path bit for bit, for every seat at
every decision of hundreds of random hands of both presets, and is as blind as ``obs_v1`` must be
to the tiles a seat cannot see."""

from __future__ import annotations

import random
from typing import Iterator, List, Optional, Sequence

import numpy as np
import pytest

import xueliu
from xueliu.game.view import public_pieces
from xueliu.learn import encoder
from xueliu.learn.encoders import FAST_BATCH
from xueliu.learn.view_encoding import obs_v1_of_states, oracle_extra_from_states

from hidden_twins import same_view_states, twin_hands

OBS = encoder("obs_v1")
ORACLE = encoder("oracle_v1")
GAMES = 120  # per preset, played side by side


def fast(enc, states: Sequence[xueliu.GameState], seats: Sequence[int],
         picks: Optional[Sequence[Sequence[int]]] = None) -> np.ndarray:
    """The fast path itself, whatever the batch size."""
    x = np.full((len(states), *enc.shape), 7, np.float32)  # every value is written
    obs_v1_of_states(states, seats, picks, x)
    if enc is ORACLE:
        oracle_extra_from_states(states, seats, x)
    return x


def dict_path(enc, state: xueliu.GameState, seat: int) -> np.ndarray:
    """The encoder's definition for one seat: its rows from the observation dicts (``encode`` of a
    game state takes the fast path itself)."""
    rows: List[bytes] = []
    enc._rows(state, seat, (), rows)
    return enc._copy(rows, np.empty(enc.shape, enc.dtype))


def side_by_side(preset: str, games: int) -> Iterator[List[xueliu.GameState]]:
    """``games`` random hands stepped together; yields the hands not over before every step."""
    rng = random.Random(f"fast:{preset}")
    states = [xueliu.new_game(preset, seed=7000 + g, dealer=g % 4) for g in range(games)]
    while True:
        live = [s for s in states if not s.is_over]
        if not live:
            return
        yield live
        for s in live:
            s.step({q: rng.choice(s.legal_actions(q)) for q in s.pending()})


def test_fast_path_equals_the_observation_path_for_every_seat(preset):
    rng = random.Random(5)
    compared = rounds = 0
    for live in side_by_side(preset, GAMES):
        states = [s for s in live for _ in range(4)]
        seats = [q for _ in live for q in range(4)]
        picks = [tuple(rng.randrange(27) for _ in range(rng.randrange(3))) for _ in seats]
        reference = np.stack([OBS.encode(s.observation(q), picks=p)
                              for s, q, p in zip(states, seats, picks)])
        got = OBS.encode_batch(states, seats, picks=picks) if len(states) >= FAST_BATCH \
            else fast(OBS, states, seats, picks)
        assert np.array_equal(got, fast(OBS, states, seats, picks))
        assert np.array_equal(got, reference)
        if rounds % 7 == 0:
            assert np.array_equal(fast(ORACLE, states, seats),
                                  np.stack([dict_path(ORACLE, s, q) for s, q in zip(states, seats)]))
        compared += len(states)
        rounds += 1
    assert compared > 20000


def test_encode_batch_of_states_takes_the_fast_path_with_the_same_values():
    states = [xueliu.new_game("xuezhan", seed=s) for s in range(FAST_BATCH)]
    seats = [s % 4 for s in range(FAST_BATCH)]
    out = np.full((FAST_BATCH, *ORACLE.shape), 7, np.float32)
    assert ORACLE.encode_batch(states, seats, out=out) is out
    assert np.array_equal(out, np.stack([dict_path(ORACLE, s, q) for s, q in zip(states, seats)]))
    assert np.array_equal(out, np.stack([ORACLE.encode(s, q) for s, q in zip(states, seats)]))
    assert np.array_equal(OBS.encode_batch(states, seats), out[:, :OBS.shape[0]])


@pytest.mark.parametrize("states, seats, picks, error", [
    (["state"] * FAST_BATCH, [0] * FAST_BATCH, None, TypeError),
    (None, [4] * FAST_BATCH, None, ValueError),
    (None, [0] * FAST_BATCH, [(27,)] * FAST_BATCH, ValueError),
    (None, [0] * FAST_BATCH, [(-1,)] * FAST_BATCH, ValueError),
])
def test_bad_fast_path_input_is_refused(states, seats, picks, error):
    if states is None:
        states = [xueliu.new_game("xueliu", seed=1)] * FAST_BATCH
    out = np.full((FAST_BATCH, *OBS.shape), 7, np.float32)
    with pytest.raises(error):
        OBS.encode_batch(states, seats, out=out, picks=picks)


@pytest.mark.parametrize("variant", ["live_wall", "other_hands"])
def test_fast_path_does_not_depend_on_tiles_the_seat_cannot_see(preset, variant):
    """As test_encoders' hidden-information test, for the fast path and the seat views it reads:
    two hands differing only in hidden tiles, played alike; wherever the seat's observation is the
    same, so are its ``public_pieces`` and its fast ``obs_v1`` (the oracle sees the difference)."""
    rng = random.Random(11)
    compared = 0
    for a, b, seat in twin_hands(preset, variant, 30, rng):
        for _ in same_view_states(a, b, seat, rng):
            assert public_pieces(a, seat) == public_pieces(b, seat)
            x = fast(ORACLE, [a, b], [seat, seat])
            assert np.array_equal(x[0, :OBS.shape[0]], x[1, :OBS.shape[0]])
            if variant == "other_hands":
                assert not np.array_equal(x[0], x[1])
            compared += 1
    assert compared > 200


def _broken_states():
    """Hands in progress each with one field broken, and what the error must name."""
    cases = [
        ("_rivers", [[27], [], [], []], ValueError),  # a kind out of range
        ("_rivers", [["1m"], [], [], []], TypeError),  # a tile name, not a kind
        ("_open_melds", [[], [], [], [(2, 3)]], ValueError),  # another seat's kong shown
        ("_hands", [bytearray(26)] * 4, ValueError),  # 26 counts
        ("_hands", [bytearray([5] + [0] * 26)] * 4, ValueError),  # a fifth copy
        ("_phase", 9, ValueError),
        ("_void", None, TypeError),
        ("_win_tiles", [(0, 30)], ValueError),
        ("_exchange", "given", TypeError),
    ]
    for name, value, error in cases:
        state = xueliu.new_game("xueliu", seed=4)
        setattr(state, name, value)
        yield f"states[0].{name}", error, state


def test_native_encoder_refuses_broken_states_and_writes_nothing():
    from xueliu import _core
    for name, error, state in _broken_states():
        out = np.full((1, *OBS.shape), 7, np.float32)
        with pytest.raises(error, match=name.replace("[", r"\[").replace("]", r"\]")):
            _core.encode_obs_v1([state], [0], None, out)
        assert (out == 7).all(), name


@pytest.mark.parametrize("states, seats, picks, out, error", [
    (None, [True], None, None, TypeError),  # a bool is not a seat
    (None, [4], None, None, ValueError),
    (None, [0], [[0, 1, 2, 3]], None, ValueError),  # four exchange picks
    (None, [0], [[True]], None, TypeError),
    (None, [0], None, np.zeros((1, 91, 27), np.float32), ValueError),  # too few channels
    (None, [0], None, np.zeros((1, 92, 27), np.float64), ValueError),
    (None, [0], None, np.zeros((1, 92, 54), np.float32)[:, :, ::2], ValueError),  # strided
    (None, [0, 1], None, None, ValueError),  # two seats, one state
    (["state"], [0], None, None, TypeError),
    ([{}], [0], None, None, TypeError),
])
def test_native_encoder_refuses_bad_arguments(states, seats, picks, out, error):
    from xueliu import _core
    if states is None:
        states = [xueliu.new_game("xueliu", seed=4)]
    if out is None:
        out = np.full((1, *OBS.shape), 7, np.float32)
    before = out.copy()
    with pytest.raises(error):
        _core.encode_obs_v1(states, seats, picks, out)
    assert np.array_equal(out, before)


def test_native_encoder_channel_names_are_obs_v1s():
    from xueliu import _core
    assert _core.OBS_V1_CHANNELS == tuple(OBS.channels)


def test_fast_path_fills_an_out_that_is_not_contiguous_and_nothing_else():
    """``out`` need not be contiguous (a strided view of a replay buffer, say): it gets exactly
    the values a contiguous array gets, and the memory between its rows is left alone."""
    states = [xueliu.new_game(p, seed=s) for p in ("xueliu", "xuezhan") for s in (1, 2)]
    for s in states:  # into the hand: the exchange answered, some turns played
        rng = random.Random(3)
        for _ in range(12):
            if s.is_over:
                break
            s.step({q: rng.choice(s.legal_actions(q)) for q in s.pending()})
    seats = [0, 1, 2, 3]
    want = fast(OBS, states, seats)
    buffer = np.full((2 * len(states), *OBS.shape), 7, np.float32)
    strided = buffer[::2]
    assert not strided.flags.c_contiguous
    obs_v1_of_states(states, seats, None, strided)
    assert np.array_equal(buffer[::2], want)
    assert (buffer[1::2] == 7).all()  # the rows between were not written
