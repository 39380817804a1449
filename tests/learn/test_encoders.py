"""Encoders: shapes and channels as documented, each channel saying what its name says, and
``obs_v1`` blind to every tile its seat cannot see."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import xueliu
from xueliu.learn import ENCODERS, encoder
from xueliu.learn.channels import OBS_V1, ORACLE_EXTRA

from hidden_twins import same_view_states, twin_hands

from .conftest import decisions, random_games

OBS = encoder("obs_v1")
ORACLE = encoder("oracle_v1")
KIND = {xueliu.tile_name(k): k for k in range(27)}
REL = ("self", "next", "across", "prev")


def row(x: np.ndarray, name: str, enc=OBS) -> np.ndarray:
    return x[enc.channels.index(name)]


def kinds(names) -> np.ndarray:
    """A tile plane with the given kinds set."""
    out = np.zeros(27, np.float32)
    for t in names:
        out[KIND[t]] = 1
    return out


def levels(names, level: int) -> np.ndarray:
    counts = Counter(names)
    return kinds([t for t, c in counts.items() if c >= level])


def bar(n: int) -> np.ndarray:
    return (np.arange(27) < n).astype(np.float32)


def test_encoders_describe_their_output():
    assert set(ENCODERS) == {"obs_v1", "oracle_v1", "obs_wild_v1", "oracle_wild_v1"}
    for enc in ENCODERS.values():
        assert enc.shape == (len(enc.channels), 27) and enc.dtype == np.float32
        assert len(set(enc.channels)) == len(enc.channels)
        assert [n for n, _ in enc.channel_docs] == list(enc.channels)
    assert ORACLE.channels == OBS.channels + tuple(n for n, _ in ORACLE_EXTRA)
    assert OBS.channels == tuple(n for n, _ in OBS_V1)
    with pytest.raises(ValueError, match="unknown encoder"):
        encoder("obs_v9")
    with pytest.raises(TypeError):
        encoder(1)


def test_every_channel_says_what_its_name_says(preset):
    """Each channel rebuilt from the observation dict by the channel table's definitions."""
    n = 0
    for state, seat in decisions(preset, 12):
        o = state.observation(seat)
        x = OBS.encode(state, seat)
        assert set(np.unique(x)) <= {0.0, 1.0}
        order = [(seat + r) % 4 for r in range(4)]
        for i in range(1, 5):
            assert np.array_equal(row(x, f"hand_{i}"), levels(o["hand"], i))
        assert np.array_equal(row(x, "drawn"), kinds([o["drawn"]] if o["drawn"] else []))
        claim = o["claim"]
        assert np.array_equal(row(x, "claim_tile"), kinds([claim["tile"]] if claim else []))
        assert row(x, "claim_is_rob").all() == bool(claim and claim["kind"] == "rob")
        ex = o["exchange"] or {"given": [], "received": []}
        for i in range(1, 4):
            assert np.array_equal(row(x, f"exchange_given_{i}"), levels(ex["given"], i))
            assert np.array_equal(row(x, f"exchange_received_{i}"), levels(ex["received"], i))
        seen = Counter(o["set_aside"])
        if claim and claim["kind"] == "rob":
            seen[claim["tile"]] += 1
        for r, q in zip(REL, order):
            river = o["discards"][q]
            seen.update(river)
            assert np.array_equal(row(x, f"discards_{r}"), levels(river, 1))
            assert np.array_equal(row(x, f"discards_{r}_2"), levels(river, 2))
            assert np.array_equal(row(x, f"last_discard_{r}"), kinds(river[-1:]))
            melds = o["melds"][q]
            assert np.array_equal(row(x, f"pengs_{r}"),
                                  kinds(m["tile"] for m in melds if m["type"] == "peng"))
            assert np.array_equal(row(x, f"kongs_{r}"),
                                  kinds(m["tile"] for m in melds if m["type"] == "kong"))
            for m in melds:
                if m["tile"] != "?":
                    seen[m["tile"]] += 3 if m["type"] == "peng" else 4
            assert np.array_equal(row(x, f"won_tiles_{r}"), kinds(w["tile"] for w in
                                                                  o["wins"][q]))
            void = o["void"] if r == "self" else o["voids"][q]
            assert np.array_equal(row(x, f"void_{r}"), np.array(
                [void is not None and k // 9 == "mps".index(void) for k in range(27)], np.float32))
            for flag, on in (("dealer", q == o["dealer"]), ("turn", q == o["turn"]),
                             ("in_play", o["in_play"][q]), ("frozen", o["frozen"][q]),
                             ("auto_play", o["auto_play"][q])):
                assert np.array_equal(row(x, f"{flag}_{r}"), np.full(27, float(on), np.float32))
            assert np.array_equal(row(x, f"hand_size_{r}"), bar(o["hand_sizes"][q]))
            assert np.array_equal(row(x, f"wins_{r}"), bar(len(o["wins"][q])))
            if r != "self":
                hidden = sum(m["tile"] == "?" for m in melds)
                assert np.array_equal(row(x, f"hidden_kongs_{r}"), bar(hidden))
            mult = row(x, f"multiplier_{r}")
            if o["multipliers"] is None:
                assert not mult.any()
            else:
                assert mult.nonzero()[0].tolist() == [o["multipliers"][q] - 1]
        assert np.array_equal(row(x, "concealed_kongs_self"), kinds(
            m["tile"] for m in o["melds"][seat] if m["type"] == "concealed_kong"))
        for i in range(1, 5):
            assert np.array_equal(row(x, f"visible_{i}"), levels(list(seen.elements()), i))
        for phase in ("exchange", "void", "multiplier", "turn", "claim"):
            assert row(x, f"phase_{phase}").all() == (o["phase"] == phase)
        assert row(x, "pending").all() == o["pending"]
        assert row(x, "mode_xuezhan").all() == (o["mode"] == "xuezhan")
        w = o["wall_remaining"]
        assert np.array_equal(row(x, "wall_0_27"), bar(min(w, 27)))
        assert np.array_equal(row(x, "wall_28_54"), bar(min(max(w - 27, 0), 27)))
        assert not row(x, "exchange_picks_1").any()
        n += 1
    assert n > 500


def test_oracle_adds_the_hidden_tiles(preset):
    for state, seat in decisions(preset, 4):
        full = state.observation(None)
        x = ORACLE.encode(state, seat)
        assert np.array_equal(x[:len(OBS.channels)], OBS.encode(state, seat))
        for r in (1, 2, 3):
            q = (seat + r) % 4
            for i in range(1, 5):
                assert np.array_equal(row(x, f"hand_{REL[r]}_{i}", ORACLE),
                                      levels(full["hands"][q], i))
            assert np.array_equal(row(x, f"concealed_kongs_{REL[r]}", ORACLE), kinds(
                m["tile"] for m in full["melds"][q] if m["type"] == "concealed_kong"))
        for i in range(1, 5):
            assert np.array_equal(row(x, f"live_wall_{i}", ORACLE), levels(full["wall"], i))
        assert np.array_equal(row(x, "next_draw", ORACLE), kinds(full["wall"][:1]))


def test_exchange_picks_have_their_channels():
    state = xueliu.new_game("xueliu", seed=1)
    x = OBS.encode(state, 0, picks=(1, 1))
    assert np.array_equal(row(x, "exchange_picks_1"), kinds(["2m"]))
    assert np.array_equal(row(x, "exchange_picks_2"), kinds(["2m"]))


def test_single_batch_and_observation_paths_agree():
    states = [s for s, _ in zip(random_games("xuezhan", 3), range(60))]
    seats = [i % 4 for i in range(len(states))]
    out = np.full((len(states), *OBS.shape), 7, np.float32)
    assert OBS.encode_batch(states, seats, out=out) is out
    for i, (s, q) in enumerate(zip(states, seats)):
        assert np.array_equal(out[i], OBS.encode(s, q))
        assert np.array_equal(out[i], OBS.encode(s.observation(q)))
    obs = [s.observation(q) for s, q in zip(states, seats)]
    assert np.array_equal(OBS.encode_batch(obs), out)
    assert np.array_equal(ORACLE.encode_batch(states[:5], seats[:5])[:, :OBS.shape[0]], out[:5])


@pytest.mark.parametrize("call, error", [
    (lambda s: OBS.encode(s), ValueError),  # a state needs its seat
    (lambda s: OBS.encode(s.observation(None)), ValueError),  # omniscient: no seat
    (lambda s: OBS.encode(s.observation(1), 2), ValueError),  # another seat's view
    (lambda s: OBS.encode("state", 0), TypeError),
    (lambda s: ORACLE.encode(s.observation(1), 1), TypeError),  # the oracle needs the state
    (lambda s: OBS.encode(s, 0, out=np.zeros((3, 27), np.float32)), ValueError),
    (lambda s: OBS.encode(s, 0, out=np.zeros(OBS.shape, np.float64)), ValueError),
    (lambda s: OBS.encode(s, 0, out=[0.0]), TypeError),
    (lambda s: OBS.encode_batch([s, s], [0]), ValueError),
])
def test_bad_encoder_input_is_refused(call, error):
    with pytest.raises(error):
        call(xueliu.new_game("xueliu", seed=4))


@pytest.mark.parametrize("variant", ["live_wall", "other_hands"])
def test_obs_v1_does_not_depend_on_tiles_the_seat_cannot_see(preset, variant):
    """Two hands that differ only in hidden tiles — two tiles swapped deep in the live wall, or
    between two other seats' hands — played with the same decisions: wherever the seat's
    observation is the same, so is obs_v1 (while the oracle sees the other hands differ)."""
    rng = random.Random(11)
    compared = 0
    for a, b, seat in twin_hands(preset, variant, 30, rng):
        for _ in same_view_states(a, b, seat, rng):
            assert np.array_equal(OBS.encode(a, seat), OBS.encode(b, seat))
            if variant == "other_hands":
                assert not np.array_equal(ORACLE.encode(a, seat), ORACLE.encode(b, seat))
            compared += 1
    assert compared > 200
