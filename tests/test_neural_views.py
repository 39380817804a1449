"""NeuralBot's close calls asked of the twelve renamed tables (xueliu.bots.neural_views):
where the network's first choice leads its second by less than the weights file's margin the
bot plays the twelve views' average — the same average the distillation imitates, computed the
long way (xueliu.train.distill.ensemble_log_policy) — and elsewhere the network's own choice;
the margin lives in the weights file, and a bad one is refused."""

from __future__ import annotations

import numpy as np
import pytest
from reference_rows import random_mask, reference_inputs
from near_ties import assert_same_choices, near_ties
from weights_meta import with_meta

import xueliu
from xueliu.bots import NeuralBot
from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_net import load_network, save_network
from xueliu.bots.neural_views import close_calls, masked_log_softmax
from xueliu.learn.actions import NUM_ACTIONS
from xueliu.learn.renamings import RENAMINGS, rename_obs, rename_per_index
from xueliu.train.distill import ensemble_log_policy

def _presets(net):
    return {k: xueliu.Rules.from_dict(d) for k, d in net.presets.items()}


def test_the_shipped_bot_asks_its_views_at_close_calls():
    assert load_network().views_margin == 0.5
    assert NeuralBot().views_margin == 0.5


@pytest.mark.parametrize("exchange", [False, True])
def test_close_calls_take_the_twelve_views_average_and_the_others_the_networks_choice(exchange):
    net = load_network()
    x = reference_inputs()
    m = random_mask(len(x), 3, exchange)
    own = masked_log_softmax(net.forward(x), m)
    long_way = ensemble_log_policy([net], x, m, len(RENAMINGS))
    views = masked_argmax(long_way, m)
    assert (masked_argmax(own, m) != views).any()  # the views change some of these choices
    top2 = np.sort(np.where(m, own, -np.inf), axis=1)[:, -2:]
    margin = top2[:, 1] - top2[:, 0]
    for given in (0.0, 0.5, float(np.median(margin)), float("inf")):
        close = margin < given
        expected = np.where(close, views, masked_argmax(own, m))
        # the bot's own logits are these to the bit (the same rows through the same code), but
        # its views are the short way's sums and products: the same choice but at a near tie of
        # their average (tests/near_ties.py)
        tie = close & near_ties(long_way, m)
        assert_same_choices(NeuralBot(views_margin=given).choose(x, m), expected, tie)
        assert (close_calls(own, m, given)[1] == close).all()


def test_the_views_average_plays_alike_at_every_renamed_table():
    # the twelve views of a renamed table are the twelve views of the table: the average's choice
    # is renamed with it (near ties aside: the renamed table's sums are taken in another order)
    bot = NeuralBot(views_margin=float("inf"))
    x = reference_inputs()
    m = random_mask(len(x), 4, exchange=False)
    chosen = bot.choose(x, m)
    tie = near_ties(ensemble_log_policy([bot.network], x, m, len(RENAMINGS)), m)
    for w in range(len(RENAMINGS)):
        renamed = bot.choose(rename_obs(x, w), rename_per_index(m, w))
        onehot = np.zeros(m.shape, bool)
        onehot[np.arange(len(x)), chosen] = True
        assert_same_choices(renamed, rename_per_index(onehot, w).argmax(axis=1), tie)


def test_a_row_with_one_allowed_index_is_never_a_close_call():
    log_p = np.zeros((2, NUM_ACTIONS))
    m = np.zeros((2, NUM_ACTIONS), bool)
    m[0, 5] = True
    m[1, [5, 6]] = True
    best, close = close_calls(log_p, m, 1e9)
    assert best.tolist() == [5, 5] and close.tolist() == [False, True]


def test_the_margin_is_kept_in_the_weights_file(tmp_path):
    net = load_network()
    path = str(tmp_path / "w.npz")
    save_network(path, list(net.layers), _presets(net), {"note": "test"}, encoder=net.encoder,
                 views_margin=0.25)
    assert load_network(path).views_margin == 0.25 and NeuralBot(weights=path).views_margin == 0.25
    save_network(path + "0.npz", list(net.layers), _presets(net), {"note": "test"},
                 encoder=net.encoder)
    alone = NeuralBot(weights=path + "0.npz")  # a file without views: the network alone
    x, m = reference_inputs(), random_mask(64, 5, exchange=True)
    assert alone.views_margin == 0.0
    np.testing.assert_array_equal(alone.choose(x, m), masked_argmax(net.forward(x), m))
    state = xueliu.new_game("xueliu", seed=3)
    assert NeuralBot(weights=path).act_view(state.view(0), state.legal_actions(0)) in \
        state.legal_actions(0)


@pytest.mark.parametrize("margin", [-0.5, float("nan"), True, "0.5"])
def test_a_margin_that_is_not_a_number_of_nats_is_refused(margin):
    with pytest.raises(ValueError, match="views_margin"):
        NeuralBot(views_margin=margin)


@pytest.mark.parametrize("views", [{"margin": -1}, {"margin": True}, {"margin": "0.5"}, {}, 0.5])
def test_a_weights_file_with_a_bad_views_entry_is_refused(tmp_path, views):
    path = tmp_path / "bad.npz"
    with_meta(xueliu.bots.neural_net.DEFAULT_WEIGHTS, path, "views", views)
    with pytest.raises(ValueError, match="views"):
        NeuralBot(weights=str(path))


def test_views_are_not_asked_of_a_network_with_a_danger_head(tmp_path):
    net = load_network()
    w, b = net.layers[-1]
    layers = [*net.layers[:-1], (np.concatenate([w, w[:, :27]], axis=1),
                                 np.concatenate([b, b[:27]]))]
    with pytest.raises(ValueError, match="danger head"):
        save_network(str(tmp_path / "d.npz"), layers, _presets(net), {}, encoder=net.encoder,
                     danger_penalty=1.0, views_margin=0.5)
