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
from xueliu.learn.view_encoding import obs_v1_from_views, oracle_extra_from_states, views_of

from .test_encoders import _swapped_wall

OBS = encoder("obs_v1")
ORACLE = encoder("oracle_v1")
GAMES = 120  # per preset, played side by side


def fast(enc, states: Sequence[xueliu.GameState], seats: Sequence[int],
         picks: Optional[Sequence[Sequence[int]]] = None) -> np.ndarray:
    """The fast path itself, whatever the batch size."""
    x = np.full((len(states), *enc.shape), 7, np.float32)  # every value is written
    views, ints = views_of(states, seats)
    obs_v1_from_views(views, ints, states, picks, x)
    if enc is ORACLE:
        oracle_extra_from_states(states, ints, x)
    return x


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
                                  np.stack([ORACLE.encode(s, q) for s, q in zip(states, seats)]))
        compared += len(states)
        rounds += 1
    assert compared > 20000


def test_encode_batch_of_states_takes_the_fast_path_with_the_same_values():
    states = [xueliu.new_game("xuezhan", seed=s) for s in range(FAST_BATCH)]
    seats = [s % 4 for s in range(FAST_BATCH)]
    out = np.full((FAST_BATCH, *ORACLE.shape), 7, np.float32)
    assert ORACLE.encode_batch(states, seats, out=out) is out
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
    for g in range(30):
        wall = xueliu.new_game(preset, seed=500 + g).wall
        a = xueliu.new_game(preset, wall=wall, seed=500 + g)
        seat = g % 4
        if variant == "live_wall":
            i, j = 100, 106
        else:
            q1, q2 = (seat + 1) % 4, (seat + 2) % 4
            i = 4 * q1 + rng.randrange(4)
            j = 4 * q2 + rng.randrange(4)
        if wall[i] == wall[j]:
            continue
        b = xueliu.new_game(preset, wall=_swapped_wall(wall, i, j), seed=500 + g)
        while not a.is_over and not b.is_over:
            if a.observation(seat) == b.observation(seat) \
                    and a.observation(None) != b.observation(None):
                assert public_pieces(a, seat) == public_pieces(b, seat)
                x = fast(ORACLE, [a, b], [seat, seat])
                assert np.array_equal(x[0, :OBS.shape[0]], x[1, :OBS.shape[0]])
                if variant == "other_hands":
                    assert not np.array_equal(x[0], x[1])
                compared += 1
            decision = {q: rng.choice(a.legal_actions(q)) for q in a.pending()}
            if b.pending() != a.pending() or any(d not in b.legal_actions(q)
                                                 for q, d in decision.items()):
                break
            a.step(decision)
            b.step(decision)
    assert compared > 200


def _native_args(state: xueliu.GameState, seat: int = 0):
    return [public_pieces(state, seat)], [seat], [state._hands], None


def _bad_views(state: xueliu.GameState):
    """Each a copy of a real view with one piece broken, and what the error must name."""
    view = list(public_pieces(state, 0))
    yield "views[0]", TypeError, view[:-1]  # a list, and one piece short
    for at, value, error, piece in [
        (10, [[27], [], [], []], ValueError, "rivers"),  # a kind out of range
        (10, [["1m"], [], [], []], TypeError, "rivers"),  # a tile name, not a kind
        (11, [[(0, 5)], [], [], [(2, 3)]], ValueError, "melds"),  # another seat's kong shown
        (5, bytes(26), ValueError, "hand"),  # 26 counts
        (5, bytes([5] + [0] * 26), ValueError, "hand"),  # a fifth copy
        (0, 9, ValueError, "phase"),
        (16, None, TypeError, "voids"),
    ]:
        broken = list(view)
        broken[at] = value
        yield f"views[0].{piece}", error, tuple(broken)


def test_native_encoder_refuses_bad_views_and_writes_nothing():
    from xueliu import _core
    state = xueliu.new_game("xueliu", seed=4)
    for name, error, view in _bad_views(state):
        out = np.full((1, *OBS.shape), 7, np.float32)
        with pytest.raises(error, match=name.replace("[", r"\[").replace("]", r"\]")):
            _core.encode_obs_v1([view], [0], [state._hands], None, out)
        assert (out == 7).all(), name


@pytest.mark.parametrize("seats, hands, picks, out, error", [
    ([True], None, None, None, TypeError),  # a bool is not a seat
    ([4], None, None, None, ValueError),
    ([0], [[bytearray(27)] * 3], None, None, ValueError),  # three hands
    ([0], None, [[0, 1, 2, 3]], None, ValueError),  # four exchange picks
    ([0], None, [[True]], None, TypeError),
    ([0], None, None, np.zeros((1, 91, 27), np.float32), ValueError),  # too few channels
    ([0], None, None, np.zeros((1, 92, 27), np.float64), ValueError),
    ([0], None, None, np.zeros((1, 92, 54), np.float32)[:, :, ::2], ValueError),  # strided
    ([0, 1], None, None, None, ValueError),  # two seats, one view
])
def test_native_encoder_refuses_bad_arguments(seats, hands, picks, out, error):
    from xueliu import _core
    state = xueliu.new_game("xueliu", seed=4)
    views, _, good_hands, _ = _native_args(state)
    if out is None:
        out = np.full((1, *OBS.shape), 7, np.float32)
    before = out.copy()
    with pytest.raises(error):
        _core.encode_obs_v1(views, seats, good_hands if hands is None else hands, picks, out)
    assert np.array_equal(out, before)


def test_native_encoder_channel_names_are_obs_v1s():
    from xueliu import _core
    assert _core.OBS_V1_CHANNELS == OBS.channels[:92] == tuple(OBS.channels)
