"""The neural bot's first layer in the native core (``_core.first_layer_01``, cpp/dense.hpp)
gives the sums numpy gives (``neural_net._first_layer_numpy``, and the plain product ``x @ w``)
on real observations and on random 0/1 inputs, the bot decides the same either way, inputs that
are not 0/1 take the plain product, and bad arrays are a clear ValueError."""

from __future__ import annotations

import numpy as np
import pytest

from xueliu import _core
from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_net import (INPUT_SIZE, _first_layer, _first_layer_numpy,
                                    _first_layer_rows, load_network)
from xueliu.bots.neural_play import POLICY, play_batched
from xueliu.game import new_game
from xueliu.simulate.play import hand_seed


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
    got = _native(x, net._rows)
    assert np.allclose(got, _first_layer_numpy(x, w, net._rows), rtol=1e-5, atol=1e-5)
    assert np.allclose(got, x.astype(np.float64) @ w.astype(np.float64), rtol=1e-4, atol=1e-4)
    assert np.array_equal(_first_layer(x, w, net._rows), got)


def test_the_bot_decides_the_same_with_native_and_numpy_first_layers(played):
    """Every decision of the played hands: the masked argmax over the logits is the same index
    whichever first layer computed them (a float tie flipped by the sum order would show here)."""
    x, mask = played
    net = load_network()
    numpy_hidden = _first_layer_numpy(x, net.layers[0][0], net._rows)
    native_hidden = _native(x, net._rows)

    def logits(h: np.ndarray) -> np.ndarray:
        for i, (w, b) in enumerate(net.layers):
            h = h + b if i == 0 else h @ w + b
            if i < len(net.layers) - 1:
                h = np.maximum(h, 0.0)
        return h

    assert np.array_equal(masked_argmax(logits(native_hidden), mask),
                          masked_argmax(logits(numpy_hidden), mask))
    assert np.array_equal(masked_argmax(net.forward(x[:, :INPUT_SIZE]), mask),  # its obs_v1 part
                          masked_argmax(logits(numpy_hidden), mask))


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
    assert not _core.first_layer_01(x, net._rows, out)
    expected = x @ w
    assert np.allclose(_first_layer(x, w, net._rows), expected, equal_nan=True)


def test_bad_arrays_are_a_clear_value_error():
    net = load_network()
    rows = net._rows
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
