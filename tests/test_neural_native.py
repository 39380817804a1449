"""The neural bot's first layer in the native core (``_core.first_layer_01``, cpp/dense.hpp)
gives the sums numpy gives (``neural_net._first_layer_numpy``, and the plain product ``x @ w``)
on real observations and on random 0/1 inputs, the bot decides the same either way, inputs that
are not 0/1 take the plain product, and bad arrays are a clear ValueError — and so do the first
layers of its renamed tables (``_core.renamed_first_layers_01``, its close calls' views)."""

from __future__ import annotations

import numpy as np
import pytest

from xueliu import _core
from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_net import (INPUT_SIZE, _first_layer, _first_layer_numpy,
                                    _first_layer_rows, load_network)
from xueliu.bots.neural_play import POLICY, play_batched
from xueliu.bots.neural_views import Views
from xueliu.game import new_game
from xueliu.learn.renamings import RENAMINGS, rename_obs
from xueliu.simulate.play import hand_seed

from near_ties import assert_same_choices, near_ties


@pytest.fixture(scope="module")
def played() -> tuple[np.ndarray, np.ndarray]:
    """The first-layer inputs (obs_v1, and the analysis channels of an obs_v2 network) and masks
    of every decision of 24 hands of four neural bots (both presets)."""
    bot = NeuralBot()
    xs, masks = [], []
    for preset in ("xueliu", "xuezhan"):
        states = [new_game(preset, seed=hand_seed(7, i), dealer=i % 4) for i in range(12)]
        record: list = []
        play_batched(states, [[POLICY] * 4] * len(states), bot.choose, record=record)
        for _hand, _seat, x, mask, _index in record:
            xs.append(bot.network.inputs(x))
            masks.append(mask)
    return np.concatenate(xs), np.concatenate(masks)


WIDTH = load_network().layers[0][0].shape[0]
"""The shipped network's first-layer inputs (2,997 for obs_v2)."""


def _native(x: np.ndarray, rows: np.ndarray) -> np.ndarray:
    out = np.full((len(x), rows.shape[1]), np.nan, np.float32)
    assert _core.first_layer_01(np.ascontiguousarray(x), rows, out)
    return out


def test_the_native_first_layer_sums_what_numpy_sums_on_played_observations(played):
    x, _ = played
    net = load_network()
    w = net.layers[0][0]
    assert len(x) > 1000 and set(np.unique(x)) == {0.0, 1.0}
    got = _native(x, net.first_rows)
    assert np.allclose(got, _first_layer_numpy(x, w, net.first_rows), rtol=1e-5, atol=1e-5)
    assert np.allclose(got, x.astype(np.float64) @ w.astype(np.float64), rtol=1e-4, atol=1e-4)
    assert np.array_equal(_first_layer(x, w, net.first_rows), got)


def test_the_bot_decides_the_same_with_native_and_numpy_first_layers(played):
    """Every decision of the played hands: the masked argmax over the logits is the same index
    whichever first layer computed them, but at a near tie that the other sum order (or the other
    blocking of the later products) may break the other way (tests/near_ties.py)."""
    x, mask = played
    net = load_network()
    numpy_hidden = _first_layer_numpy(x, net.layers[0][0], net.first_rows)
    native_hidden = _native(x, net.first_rows)

    def logits(h: np.ndarray) -> np.ndarray:
        for i, (w, b) in enumerate(net.layers):
            h = h + b if i == 0 else h @ w + b
            if i < len(net.layers) - 1:
                h = np.maximum(h, 0.0)
        return h

    reference = logits(numpy_hidden)
    tie = near_ties(reference, mask)
    assert_same_choices(masked_argmax(logits(native_hidden), mask),
                        masked_argmax(reference, mask), tie)
    assert_same_choices(masked_argmax(net.forward(x[:, :INPUT_SIZE]), mask),  # its obs_v1 part
                        masked_argmax(reference, mask), tie)


def test_the_native_first_layer_sums_random_0_1_inputs():
    """Random planes of every shape: empty, full, prefixes, scattered ones, a lone last input."""
    rng = np.random.default_rng(5)
    w = rng.standard_normal((INPUT_SIZE, 48)).astype(np.float32)
    rows = _first_layer_rows(w)
    n = 300
    planes = np.zeros((n, INPUT_SIZE // 27, 27), np.float32)
    kind = rng.integers(0, 5, planes.shape[:2])
    counts = rng.integers(0, 28, planes.shape[:2])
    density = rng.random((n, 1, 1))
    scattered = (rng.random(planes.shape) < density).astype(np.float32)
    planes[kind == 1] = 1.0
    prefix = np.arange(27) < counts[..., None]
    planes[kind == 2] = prefix[kind == 2]
    planes[kind == 3] = scattered[kind == 3]
    planes[kind == 4, 26] = 1.0
    x = planes.reshape(n, INPUT_SIZE)
    got = _native(x, rows)
    assert np.allclose(got, _first_layer_numpy(x, w, rows), rtol=1e-5, atol=1e-4)
    assert np.allclose(got, x.astype(np.float64) @ w.astype(np.float64), rtol=1e-4, atol=1e-4)
    empty = np.zeros((0, INPUT_SIZE), np.float32)
    assert _native(empty, rows).shape == (0, 48)


@pytest.mark.parametrize("value", [0.5, -1.0, 2.0, np.nan])
def test_an_input_that_is_not_0_or_1_takes_the_plain_product(value):
    net = load_network()
    w = net.layers[0][0]
    x = np.zeros((3, WIDTH), np.float32)
    x[:, :40] = 1.0
    x[2, 1000] = value
    out = np.empty((3, w.shape[1]), np.float32)
    assert not _core.first_layer_01(x, net.first_rows, out)
    expected = x @ w
    assert np.allclose(_first_layer(x, w, net.first_rows), expected, equal_nan=True)


def test_bad_arrays_are_a_clear_value_error():
    net = load_network()
    rows = net.first_rows
    h = rows.shape[1]
    x = np.zeros((2, WIDTH), np.float32)
    out = np.zeros((2, h), np.float32)
    cases = [
        ((np.zeros((2, 2483), np.float32), rows, out), "x must have 27 columns a plane"),
        ((np.zeros((2, 27 * 129), np.float32), rows, out), "at most 128 planes"),
        ((x.astype(np.float64), rows, out), "x must be a float32 matrix"),
        ((x.reshape(2, -1, 27), rows, out), "x must be a float32 matrix"),
        ((np.zeros((2, 2 * WIDTH), np.float32)[:, ::2], rows, out),
         "x must be C-contiguous"),
        ((x, rows[:WIDTH], out), f"rows must have at least {2 * WIDTH} rows"),
        ((x, rows, np.zeros((3, h), np.float32)), rf"out must have shape \(2, {h}\), got \(3, "),
        ((x, rows, np.zeros((2, h + 1), np.float32)), "out must have shape"),
        ((x, rows, out.astype(np.float64)), "out must be a float32 matrix"),
    ]
    readonly = out.copy()
    readonly.setflags(write=False)
    cases.append(((x, rows, readonly), "out must be writeable"))
    for args, message in cases:
        with pytest.raises(ValueError, match=message):
            _core.first_layer_01(*args)
    square = np.zeros((2 * INPUT_SIZE, INPUT_SIZE), np.float32)
    with pytest.raises(ValueError, match="out must not share memory"):
        _core.first_layer_01(square[:2], square, square[2:4])


# -- the first layers of renamed tables (_core.renamed_first_layers_01: NeuralBot's close calls)

def _renamed_native(x: np.ndarray, net, views) -> np.ndarray:
    v = Views(net, views)
    out = np.full((len(x), len(views), net.first_rows.shape[1]), np.nan, np.float32)
    assert _core.renamed_first_layers_01(np.ascontiguousarray(x), net.first_rows, v._tile,
                                         v._codes, out)
    return out


def test_the_renamed_first_layers_are_the_first_layers_of_the_renamed_tables(played):
    """Each view's sums are the plain product of the table renamed the long way (its obs_v1
    renamed, its analysis channels computed again), on every played decision."""
    x1, _ = played
    net = load_network()
    w = net.layers[0][0].astype(np.float64)
    rows = slice(0, len(x1), 7)
    x = x1[rows]
    views = list(range(len(RENAMINGS)))
    got = _renamed_native(x, net, views)
    for j, v in enumerate(views):
        renamed = net.inputs(rename_obs(x[:, :INPUT_SIZE], v)).astype(np.float64)
        assert np.allclose(got[:, j], renamed @ w, rtol=1e-4, atol=1e-4), v
    assert np.allclose(got[:, 0], _native(x, net.first_rows), rtol=1e-5, atol=1e-4)  # identity


def test_the_renamed_first_layers_of_random_0_1_inputs_and_any_views():
    """Random planes under every renaming and a few orders of views (the reversed partial sums
    taken only when a view asks for them)."""
    rng = np.random.default_rng(6)
    net = load_network()
    n = 200
    x = (rng.random((n, WIDTH)) < rng.random((n, 1))).astype(np.float32)
    x[:20] = 0.0
    x[20:40] = 1.0
    w = net.layers[0][0].astype(np.float64)
    dest = [Views(net, [v])._sources[0] for v in range(len(RENAMINGS))]
    for views in ([0], [3, 1], [6], list(range(12)), [11, 0, 6, 5]):
        got = _renamed_native(x, net, views)
        for j, v in enumerate(views):
            assert np.allclose(got[:, j], x[:, dest[v]].astype(np.float64) @ w,
                               rtol=1e-4, atol=1e-3), (views, v)
    assert _renamed_native(x[:0], net, [0, 6]).shape == (0, 2, net.first_rows.shape[1])


def test_renamed_inputs_that_are_not_0_or_1_take_the_plain_product():
    net = load_network()
    x = np.zeros((3, WIDTH), np.float32)
    x[:, :40] = 1.0
    x[2, 1000] = 0.5
    v = Views(net, [0, 7])
    out = np.empty((3, 2, net.first_rows.shape[1]), np.float32)
    assert not _core.renamed_first_layers_01(x, net.first_rows, v._tile, v._codes, out)
    w = net.layers[0][0]
    for j in range(2):
        assert np.allclose(v.first_layers(x)[:, j], x[:, v._sources[j]] @ w, atol=1e-5)


def test_bad_arrays_for_the_renamed_first_layers_are_a_clear_value_error():
    net = load_network()
    rows = net.first_rows
    h = rows.shape[1]
    v = Views(net, [0, 6])
    tile, codes = v._tile, v._codes
    x = np.zeros((2, WIDTH), np.float32)
    out = np.zeros((2, 2, h), np.float32)
    planes = WIDTH // 27
    cases = [
        ((np.zeros((2, 2483), np.float32), rows, tile, codes, out), "x must have 27 columns"),
        ((x, rows[:WIDTH], tile, codes, out), f"rows must have at least {2 * WIDTH} rows"),
        ((x, rows, tile[:-1], codes, out), rf"one flag a plane \({planes}\)"),
        ((x, rows, tile.astype(np.int64), codes, out), "tile must be a contiguous uint8"),
        ((x, rows, tile, codes[:, :3], out), r"views must be .* shape \(V, 4\)"),
        ((x, rows, tile, np.array([[0, 0, 1, 0]], np.uint8), out[:, :1]),
         r"views\[0\] must be a permutation"),
        ((x, rows, tile, np.array([[0, 1, 3, 0]], np.uint8), out[:, :1]),
         r"views\[0\] must be a permutation"),
        ((x, rows, tile, np.array([[0, 1, 2, 2]], np.uint8), out[:, :1]),
         r"views\[0\] must be a permutation"),
        ((x, rows, tile, codes, np.zeros((2, 3, h), np.float32)), r"out must be .* \(2, 2, "),
        ((x, rows, tile, codes, out.astype(np.float64)), "out must be a writeable"),
    ]
    for args, message in cases:
        with pytest.raises(ValueError, match=message):
            _core.renamed_first_layers_01(*args)
