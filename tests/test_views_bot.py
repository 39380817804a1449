"""tools/views_bot.py (docs/training.md, session 19): the network asked about a few renamed
tables with the analysis computed once. Its shortcut rests on two facts checked here — the
analysis channels of a renamed table are the real table's renamed, and the first layer of a
renamed input is the real input's with the first layer's rows permuted — and its choices are
those of averaging the renamed views the long way."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest
from reference_rows import random_mask, reference_inputs

from xueliu.bots.neural import masked_argmax
from xueliu.bots.neural_net import load_network
from xueliu.learn.renamings import RENAMINGS, action_map, channel_sources, rename_obs
from xueliu.train.distill import ensemble_log_policy
from xueliu.bots.neural_views import _CHANNELS, masked_log_softmax

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from views_bot import GatedViewsBot, ViewsBot  # noqa: E402

@pytest.mark.parametrize("w", range(len(RENAMINGS)))
def test_the_analysis_of_a_renamed_table_is_the_tables_analysis_renamed(w):
    net = load_network()
    x = reference_inputs()
    src = channel_sources(_CHANNELS[net.encoder], w)
    np.testing.assert_array_equal(net.inputs(rename_obs(x, w)), net.inputs(x)[:, src])


@pytest.mark.parametrize("views", ["0", "0,6", "6", "0,3,7", "0,1,2,3,4,5,6,7,8,9,10,11"])
def test_the_bots_choice_is_the_average_of_the_views_asked_the_long_way(monkeypatch, views):
    monkeypatch.setenv("XUELIU_VIEWS", views)
    monkeypatch.delenv("XUELIU_VIEWS_WEIGHTS", raising=False)
    bot = ViewsBot()
    net = bot.network
    x = reference_inputs()
    m = random_mask(len(x), 1, exchange=False)
    asked = [int(v) for v in views.split(",")]
    total = sum(masked_log_softmax(net.forward(rename_obs(x, w))[:, action_map(w)], m)
                for w in asked)
    np.testing.assert_array_equal(bot.choose(x, m), masked_argmax(total, m))
    if asked == list(range(len(asked))):  # the first V views: ensemble_log_policy's, exchange too
        m = random_mask(len(x), 2, exchange=True)
        expected = masked_argmax(ensemble_log_policy([net], x, m, len(asked)), m)
        np.testing.assert_array_equal(bot.choose(x, m), expected)


def test_views_out_of_range_are_refused(monkeypatch):
    monkeypatch.setenv("XUELIU_VIEWS", "0,12")
    with pytest.raises(ValueError, match="XUELIU_VIEWS"):
        ViewsBot()


def test_the_gated_bot_is_neural_bot_at_the_margin_given(monkeypatch):
    monkeypatch.delenv("XUELIU_VIEWS_WEIGHTS", raising=False)
    monkeypatch.setenv("XUELIU_VIEWS_MARGIN", "inf")  # every decision: the twelve views
    x = reference_inputs()
    m = random_mask(len(x), 3, exchange=True)
    net = load_network()
    np.testing.assert_array_equal(GatedViewsBot().choose(x, m), masked_argmax(
        ensemble_log_policy([net], x, m, len(RENAMINGS)), m))


@pytest.mark.parametrize("given", ["-1", "nan", "half"])
def test_a_margin_that_is_not_a_number_of_nats_is_refused(monkeypatch, given):
    monkeypatch.setenv("XUELIU_VIEWS_MARGIN", given)
    with pytest.raises(ValueError, match="XUELIU_VIEWS_MARGIN"):
        GatedViewsBot()


def test_a_bot_a_hand_makes_the_renamed_rows_once(monkeypatch):
    monkeypatch.delenv("XUELIU_VIEWS_WEIGHTS", raising=False)
    monkeypatch.setenv("XUELIU_VIEWS", "0,6")
    assert ViewsBot().views is ViewsBot().views
