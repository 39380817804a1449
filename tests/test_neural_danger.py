"""The neural bot's danger head (docs/training.md, "The weights file"): a weights file whose last
layer ends with 27 logits of the chance that each discard deals in plays each discard's logit
less ``penalty`` times that chance, and a malformed one is refused; the demonstrations record the
deal-in costs the head learns from (numpy only, no PyTorch)."""

from __future__ import annotations

import numpy as np
import pytest
from weights_meta import with_meta

import xueliu
from xueliu.bots import NeuralBot
from xueliu.bots.neural_net import DANGER_KINDS, load_network, save_network
from xueliu.learn.actions import NUM_ACTIONS
from xueliu.learn.channels import OBS_V1
from xueliu.train import demos

REFERENCE = "tests/data/neural_v1_reference.npz"


def _with_head(path: str, penalty: float, danger_bias: np.ndarray) -> None:
    """The shipped network with a danger head of zero weights and ``danger_bias``: its logits
    are the bias on every input."""
    net = load_network()
    *hidden, (w, b) = net.layers
    w2 = np.concatenate([w, np.zeros((w.shape[0], DANGER_KINDS), np.float32)], axis=1)
    b2 = np.concatenate([b, danger_bias.astype(np.float32)])
    presets = {name: xueliu.Rules.from_dict(d) for name, d in net.presets.items()}
    save_network(path, [*hidden, (w2, b2)], presets, {"note": "test"}, encoder=net.encoder,
                 danger_penalty=penalty)


def _inputs() -> np.ndarray:
    with np.load(REFERENCE) as z:
        return np.unpackbits(z["x"], axis=1, count=len(OBS_V1) * 27).astype(np.float32)


def test_each_discard_is_played_less_its_penalised_estimate(tmp_path):
    bias = np.linspace(-4.0, 4.0, DANGER_KINDS)
    path = str(tmp_path / "danger.npz")
    _with_head(path, 0.5, bias)
    net = load_network(path)
    assert net.danger_penalty == 0.5 and net.meta["sizes"][-1] == NUM_ACTIONS + DANGER_KINDS
    x = _inputs()
    plain = load_network().forward(x)
    got = net.forward(x)
    assert got.shape == plain.shape
    expected = plain.copy()
    expected[:, :DANGER_KINDS] -= 0.5 / (1.0 + np.exp(-bias.astype(np.float32)))
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-5)
    # exactly: the head's columns of the last layer are zero weights, so each product is a sum
    # of zeros and the bias is added to an exact 0 whatever the kernel
    assert np.array_equal(net.outputs(x)[:, NUM_ACTIONS:],
                          np.broadcast_to(bias.astype(np.float32), (len(x), DANGER_KINDS)))


def test_a_penalty_of_zero_plays_the_policy_alone(tmp_path):
    path = str(tmp_path / "zero.npz")
    _with_head(path, 0.0, np.full(DANGER_KINDS, 3.0))
    x = _inputs()
    # Not to the bit: the last layer with the head is a wider product (202 columns, not 175),
    # which OpenBLAS may block and sum otherwise (an ulp apart on some CPUs' kernels). A penalty
    # that still counted would move a discard's logit by up to its whole size (sigmoid(3) = 0.95).
    np.testing.assert_allclose(load_network(path).forward(x), load_network().forward(x),
                               rtol=1e-5, atol=1e-5)


def test_a_large_penalty_keeps_the_bot_off_the_kind_it_prices(tmp_path):
    state = xueliu.new_game("xueliu", seed=11)
    while state.phase != "turn":
        state.step({s: state.legal_actions(s)[0] for s in state.pending()})
    seat = state.turn
    legal = state.legal_actions(seat)
    shipped = NeuralBot().act_view(state.view(seat), legal)
    assert shipped.kind == "discard"
    priced = np.full(DANGER_KINDS, -30.0)  # a chance of nought for every kind but one
    priced[xueliu.tiles.tile_index(shipped.tile)] = 30.0
    path = str(tmp_path / "priced.npz")
    _with_head(path, 1000.0, priced)
    other = NeuralBot(weights=path).act_view(state.view(seat), legal)
    assert other in legal and other != shipped


@pytest.mark.parametrize("danger", [{"penalty": -1}, {"penalty": "x"}, {"penalty": float("nan")},
                                    {}, []])
def test_a_malformed_danger_head_is_refused(tmp_path, danger):
    path = str(tmp_path / "bad.npz")
    _with_head(path, 1.0, np.zeros(DANGER_KINDS))
    with_meta(path, path, "danger", danger)
    with pytest.raises(ValueError, match="danger"):
        load_network(path)


def test_a_head_without_the_meta_or_the_meta_without_a_head_is_refused(tmp_path):
    net = load_network()
    presets = {name: xueliu.Rules.from_dict(d) for name, d in net.presets.items()}
    with pytest.raises(ValueError, match="outputs"):
        save_network(str(tmp_path / "a.npz"), list(net.layers), presets, {}, encoder=net.encoder,
                     danger_penalty=1.0)
    path = str(tmp_path / "b.npz")
    _with_head(path, 1.0, np.zeros(DANGER_KINDS))
    *hidden, last = load_network(path).layers
    with pytest.raises(ValueError, match="outputs"):
        save_network(str(tmp_path / "c.npz"), [*hidden, last], presets, {}, encoder=net.encoder)


def test_the_demonstrations_record_the_deal_in_cost_of_each_turn():
    s = demos.generate("expert", ("xueliu", "xuezhan"), range(0, 6), seed=3)
    cost, mask = s["cost"], demos.unpack_mask(s["mask"])
    on_turn = (cost >= 0).all(axis=1)
    assert ((cost == demos.NO_COST).all(axis=1) | on_turn).all()  # a whole row or none
    assert on_turn.any() and (~on_turn).any() and (cost > 0).any()
    # A turn is a decision that may discard; the other decisions (claims, exchange, void) not.
    assert (mask[on_turn, :27].any(axis=1)).all()
    assert not mask[~on_turn, :27].any()
    # A kind the seat does not hold costs nothing (the hand's count planes are obs_v1's first).
    held = demos.unpack_x(s["x"]).reshape(len(cost), len(OBS_V1), 27)[:, 0] > 0
    assert (cost[on_turn][~held[on_turn]] == 0).all()
