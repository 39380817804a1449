"""``xueliu.train.distill``: several networks' policies as one — the target ``xueliu train
--distill`` imitates (numpy only)."""

from __future__ import annotations

import numpy as np
import pytest

import xueliu
from xueliu.bots.neural_net import load_network, save_network
from xueliu.learn.actions import EXCHANGE_PICK, MULTIPLIER_SLOT
from xueliu.learn.channels import OBS_V1
from xueliu.train.distill import ensemble_log_policy, ensemble_policy, soft_targets
from xueliu.train.numpy_bc import masked_log_softmax

REFERENCE = "tests/data/neural_v1_reference.npz"


def _inputs_and_masks() -> tuple[np.ndarray, np.ndarray]:
    with np.load(REFERENCE) as z:
        x = np.unpackbits(z["x"], axis=1, count=len(OBS_V1) * 27).astype(np.float32)
    rng = np.random.default_rng(4)
    mask = rng.random((len(x), 175)) < 0.1
    mask[np.arange(len(x)), rng.integers(0, 175, len(x))] = True  # never an empty row
    # As at a table: a row picks a tile for the exchange or does something else, never both.
    exchange = np.arange(len(x)) % 5 == 0
    mask[~exchange, EXCHANGE_PICK:MULTIPLIER_SLOT] = False
    mask[exchange] = False
    mask[exchange, EXCHANGE_PICK + rng.integers(0, 27, (exchange.sum(), 3)).T] = True
    mask[~mask.any(axis=1), 0] = True
    return x, mask


def _other_network(path: str) -> None:
    """The shipped network with its last layer's weights scaled and shifted: another policy."""
    net = load_network()
    *hidden, (w, b) = net.layers
    presets = {name: xueliu.Rules.from_dict(d) for name, d in net.presets.items()}
    save_network(path, [*hidden, (w * 1.5, b + np.linspace(-1, 1, len(b), dtype=np.float32))],
                 presets, {"note": "test"}, encoder=net.encoder)


def test_one_network_is_its_own_policy():
    net = load_network()
    x, mask = _inputs_and_masks()
    p = ensemble_policy([net], x, mask)
    expected = np.where(mask, np.exp(masked_log_softmax(net.forward(x), mask)), 0.0)
    np.testing.assert_allclose(p, expected, atol=1e-6)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-5)
    assert (p[~mask] == 0).all()


def test_the_ensemble_is_the_normalised_geometric_mean(tmp_path):
    path = str(tmp_path / "other.npz")
    _other_network(path)
    a, b = load_network(), load_network(path)
    x, mask = _inputs_and_masks()
    la, lb = (masked_log_softmax(n.forward(x), mask) for n in (a, b))
    np.testing.assert_allclose(ensemble_log_policy([a, b], x, mask), (la + lb) / 2, atol=1e-5)
    geometric = np.where(mask, np.sqrt(np.exp(la) * np.exp(lb)), 0.0)
    geometric /= geometric.sum(axis=1, keepdims=True)
    p = ensemble_policy([a, b], x, mask)
    np.testing.assert_allclose(p, geometric, atol=1e-5)
    assert (np.argmax(p, axis=1) == np.argmax(np.where(mask, la + lb, -np.inf), axis=1)).all()
    # The same network twice is that network.
    np.testing.assert_allclose(ensemble_policy([a, a], x, mask), ensemble_policy([a], x, mask),
                               atol=1e-6)


def test_a_temperature_below_one_sharpens_the_policy_and_keeps_its_first_choice():
    net = load_network()
    x, mask = _inputs_and_masks()
    p = ensemble_policy([net], x, mask)
    sharp = ensemble_policy([net], x, mask, temperature=0.5)
    squared = np.where(mask, p.astype(np.float64) ** 2, 0.0)
    np.testing.assert_allclose(sharp, squared / squared.sum(axis=1, keepdims=True), atol=1e-5)
    assert (np.argmax(sharp, axis=1) == np.argmax(p, axis=1)).all()
    assert (sharp.max(axis=1) >= p.max(axis=1) - 1e-6).all()
    assert (sharp[~mask] == 0).all()
    np.testing.assert_array_equal(ensemble_policy([net], x, mask, temperature=1.0), p)
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="temperature is a positive number"):
            ensemble_policy([net], x, mask, temperature=bad)


def test_an_empty_ensemble_is_refused():
    x, mask = _inputs_and_masks()
    with pytest.raises(ValueError, match="at least one network"):
        ensemble_policy([], x, mask)


def test_soft_targets_spread_over_the_teachers_values_and_keep_its_choice_where_a_rule_chose():
    mask = np.zeros((5, 175), bool)
    mask[:, [3, 7, 20]] = True
    value = np.full((5, 175), np.nan, np.float16)
    value[0, [3, 7, 20]] = [2.0, 1.5, -3.0]  # by value: the near one shares, the far one not
    value[1, [3, 7, 20]] = [1.0, 1.0, 0.0]  # a tie with the choice: a rule chose, not the values
    value[3, [3, 7]] = [1.0, 0.0]  # not every allowed option valued: the recorded choice alone
    value[4, [3, 7, 20]] = [1.0, 0.0, 0.0]  # the others tie each other, not the choice: spread
    index = np.array([3, 7, 20, 3, 3])  # row 2 has no values (an exchange pick): its choice alone
    out = soft_targets(value, mask, index, temperature=0.5)
    assert out.dtype == np.float32 and np.allclose(out.sum(axis=1), 1.0)
    assert (out[~mask] == 0).all()
    assert np.isclose(out[0, 7] / out[0, 3], np.exp(-1.0), rtol=1e-3)  # 0.5 below: e^-1 of it
    assert out[0, 20] < np.exp(-10) * out[0, 3]
    assert out[1, 7] == 1.0 and out[2, 20] == 1.0 and out[3, 3] == 1.0
    assert np.isclose(out[4, 7], out[4, 20]) and 0 < out[4, 7] < out[4, 3] < 1
    # a lower temperature sharpens toward the best option, a higher one flattens
    value[0, [3, 7, 20]] = [1.0, 0.5, 0.0]
    sharp, flat = (soft_targets(value, mask, index, t)[0] for t in (0.1, 10.0))
    assert sharp[3] > 0.99 and abs(flat[3] - 1 / 3) < 0.05


@pytest.mark.parametrize("views", [6, 12])
def test_the_network_asked_under_every_renaming_plays_alike_in_every_renaming(views):
    """One network's log-probabilities averaged over the six renamings of the suits (``views``
    6) or all twelve renamings of the tiles (12), each mapped back: a policy that sees a table
    and the same table renamed alike (exactly: each set of renamings is a group), where the
    network alone does not. An exchange's pick is the exception: averaged over the six views that
    keep the ranks only (the network picks the smallest kind first, a reversed view the largest),
    so it is alike under the suits' renamings and the same with twelve views as with six."""
    from xueliu.learn.renamings import RENAMINGS, rename_obs, rename_per_index

    net = load_network()
    x, mask = _inputs_and_masks()
    exchange = mask[:, EXCHANGE_PICK:MULTIPLIER_SLOT].any(axis=1)
    mask[~exchange, :27] |= x[~exchange].reshape(-1, len(OBS_V1), 27)[:, 0] > 0  # held: discard
    real = ensemble_log_policy([net], x, mask, views=views)
    for w in range(1, views):
        rx, rmask = rename_obs(x, w), rename_per_index(mask, w)
        alone = masked_log_softmax(net.forward(rx), rmask)
        assert not np.allclose(alone, rename_per_index(masked_log_softmax(net.forward(x), mask), w),
                               atol=1e-3)
        alike = ~exchange if RENAMINGS[w][1] else np.ones(len(x), bool)
        np.testing.assert_allclose(ensemble_log_policy([net], rx, rmask, views=views)[alike],
                                   rename_per_index(real, w)[alike], rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(real[exchange], ensemble_log_policy([net], x, mask, views=6)[exchange],
                               atol=1e-9)
    one = ensemble_log_policy([net], x, mask, views=1)
    np.testing.assert_allclose(one, masked_log_softmax(net.forward(x), mask), atol=1e-6)
    for bad in (0, 13):
        with pytest.raises(ValueError, match="views is 1..12"):
            ensemble_log_policy([net], x, mask, views=bad)
