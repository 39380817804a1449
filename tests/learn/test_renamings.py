"""Renamings of the tiles (xueliu.learn.renamings): a table whose suits are permuted, or whose
ranks are reversed, plays as the real one — its encoding at every decision is the real one
renamed, and the same decisions renamed give the same nets — in both presets."""

from __future__ import annotations

from typing import List, Tuple

import numpy as np
import pytest

import xueliu
from xueliu.bots.neural import decide_batch, masked_argmax
from xueliu.bots.neural_net import load_network
from xueliu.learn import renamings
from xueliu.learn.actions import NUM_ACTIONS
from xueliu.learn.renamings import (RENAMINGS, action_map, kind_map, rename_indices, rename_obs,
                                    rename_per_index, rename_per_kind)


def _renamed_tile(name: str, w: int) -> str:
    perm, reverse = RENAMINGS[w]
    rank = int(name[0])
    return f"{10 - rank if reverse else rank}{'mps'[perm['mps'.index(name[1])]]}"


def test_every_renaming_is_a_bijection_and_the_identity_comes_first() -> None:
    assert RENAMINGS[0] == ((0, 1, 2), False) and len(set(RENAMINGS)) == 12
    assert all(not reverse for _, reverse in RENAMINGS[:6])
    for w in range(len(RENAMINGS)):
        assert sorted(kind_map(w)) == list(range(27))
        am = action_map(w)
        assert sorted(am) == list(range(NUM_ACTIONS))
        assert (am[135:137] == [135, 136]).all() and (am[167:] == np.arange(167, 175)).all()
    assert _renamed_tile("1m", 6) == "9m" and _renamed_tile("5s", 10) == "5m"
    assert [int(kind_map(6)[k]) for k in (1, 4, 7)] == [7, 4, 1]  # 2, 5, 8 stay 2, 5, 8


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
@pytest.mark.parametrize("which", [1, 3, 6, 10])
def test_a_renamed_table_is_seen_as_the_real_one_renamed_and_pays_the_same(preset: str,
                                                                           which: int) -> None:
    """The real hand played by the shipped network; the renamed wall played with the renamed
    decisions. Every decision's obs_v1 tensor and mask there are the real ones renamed, and the
    hands end with the same nets."""
    net = load_network()
    checked = 0
    for seed in (3, 4, 5):
        dealt = xueliu.new_game(preset, seed=seed)  # both from one generator, the same dice
        real = xueliu.new_game(preset, seed=seed, wall=dealt.wall, dice=dealt.dice)
        twin = xueliu.new_game(preset, seed=seed, dice=dealt.dice,
                               wall=[_renamed_tile(t, which) for t in dealt.wall])
        while real.pending():
            seats = real.pending()
            assert twin.pending() == seats
            seen: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []

            def choose(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
                index = masked_argmax(net.forward(x), mask)
                seen.append((x.copy(), mask.copy(), index))
                return index

            def renamed(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
                rx, rmask, rindex = next(rounds)
                assert np.array_equal(x, rename_obs(rx, which))
                assert np.array_equal(mask, rename_per_index(rmask, which))
                return rename_indices(rindex, which)

            acts = decide_batch([real] * len(seats), seats, choose)
            rounds = iter(seen)
            twin_acts = decide_batch([twin] * len(seats), seats, renamed)
            assert next(rounds, None) is None
            checked += len(seen)
            real.step(dict(zip(seats, acts)))
            twin.step(dict(zip(seats, twin_acts)))
        assert twin.net == real.net
    assert checked > 100


def test_values_per_index_and_per_kind_move_with_their_kinds() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(6, NUM_ACTIONS))
    c = rng.integers(-1, 9, size=(6, 27))
    idx = rng.integers(0, NUM_ACTIONS, size=(6, 2))
    idx[0, 1] = -1
    which = np.array([0, 2, 4, 6, 8, 11])
    ra, rc, ri = rename_per_index(a, which), rename_per_kind(c, which), rename_indices(idx, which)
    for row, w in enumerate(which):
        am, km = action_map(w), kind_map(w)
        assert np.array_equal(ra[row, am], a[row]) and np.array_equal(rc[row, km], c[row])
        assert all(ri[row, j] == (am[idx[row, j]] if idx[row, j] >= 0 else -1) for j in range(2))
    assert np.array_equal(rename_per_index(a, 0), a)


def test_a_renaming_outside_the_twelve_is_refused() -> None:
    for bad in (12, -1, 1.0):
        with pytest.raises(ValueError, match="0..11"):
            rename_obs(np.zeros((1, 2484), np.float32), bad)
    with pytest.raises(ValueError, match="0..11"):
        kind_map(12)


def test_a_batch_of_demonstrations_is_renamed_row_by_row_as_one_table() -> None:
    """Each row of a batch (the expert's demonstrations, with its values and deal-in costs)
    renamed by its own renaming: the chosen index stays allowed, keeps its value and, for a
    discard, its deal-in cost."""
    from xueliu.train import demos

    samples = demos.generate("expert", ("xueliu", "xuezhan"), range(0, 2), seed=5, values=True)
    n = len(samples["index"])
    batch = {"x": demos.unpack_x(samples["x"]), "mask": demos.unpack_mask(samples["mask"]),
             "index": samples["index"].astype(np.int64), "value": samples["value"],
             "cost": samples["cost"]}
    which = np.arange(n) % 12
    out = renamings.rename_batch(batch, which)
    rows = np.arange(n)
    assert out["mask"][rows, out["index"]].all()
    np.testing.assert_array_equal(out["value"][rows, out["index"]],
                                  batch["value"][rows, batch["index"]])
    turn = np.flatnonzero((batch["cost"] >= 0).any(axis=1) & (batch["index"] < 27))
    assert len(turn) > 20
    np.testing.assert_array_equal(out["cost"][turn, out["index"][turn]],
                                  batch["cost"][turn, batch["index"][turn]])
    for key in batch:
        np.testing.assert_array_equal(out[key][which == 0], batch[key][which == 0])  # identity
        if key != "cost":  # (most costs are one number for every kind)
            assert not np.array_equal(out[key][which > 0], batch[key][which > 0])
    with pytest.raises(ValueError, match="does not know what seat holds"):
        renamings.rename_batch({**batch, "seat": np.zeros(n)}, which)
