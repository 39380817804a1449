"""Close calls valued on redealt walls (xueliu.train.close_calls): the turns where the network's
two best discards are near tied (or, with ``decisions="melds"``, its decisions between a meld, a
win or a pass and another choice), each candidate played on the same redeals of the hidden
tiles."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

import xueliu
from xueliu.bots import NeuralBot
from xueliu.bots.neural import decide_batch, masked_argmax
from xueliu.game.redeal import clone, redealt
from xueliu.train import close_calls, demos

from branch_points import RowByRow, assert_the_networks_best_candidates, rows_of
from near_ties import TIE

PRESETS = ("xueliu", "xuezhan")
SHIPPED = str(resources.files("xueliu.bots") / "weights" / "neural_v1.npz")


def test_close_calls_are_the_networks_two_best_discards_within_the_gap_valued_over_redeals():
    net = NeuralBot(weights=SHIPPED).network
    points = close_calls.generate(net, PRESETS, range(0, 4), seed=3, gap=0.5, rate=1.0,
                                  redeals=4)
    n = len(points["preset"])
    assert n > 10 and set(points["preset"]) == {0, 1}
    assert_the_networks_best_candidates(net, points)
    cand = points["cand"]
    assert cand.shape == (n, 2) and (cand < 27).all()  # both discards
    # (the logits of all the points in one batch: the hands' own batches may differ from them
    # in the last bits, tests/near_ties.py)
    logits = net.forward(demos.unpack_x(points["x"]))
    gap = logits[np.arange(n), cand[:, 0]] - logits[np.arange(n), cand[:, 1]]
    assert ((gap >= -TIE) & (gap < 0.5 + TIE)).all()
    # a value is the mean over the redeals; diffs are second less first, redeal by redeal
    assert points["diffs"].shape == (n, 4)
    assert np.allclose(points["value"][:, 1] - points["value"][:, 0],
                       points["diffs"].mean(axis=1), atol=1e-3)
    assert points["turns"][0] > n  # most turns with a choice of discards are not close calls


def test_close_calls_are_a_function_of_the_seed_and_each_hand():
    # the network asked one row at a time (RowByRow): a batch's products differ from a lone
    # row's in their last bits, so only then are a hand's rows the same to the bit whichever
    # other hands share its batches
    net = RowByRow(NeuralBot(weights=SHIPPED).network)
    whole = close_calls.generate(net, PRESETS, range(0, 4), seed=5, rate=0.3, redeals=2)
    again = close_calls.generate(net, PRESETS, range(0, 4), seed=5, rate=0.3, redeals=2)
    assert all(np.array_equal(whole[k], again[k]) for k in whole)
    # a hand's close calls and their values do not depend on which other hands share its chunk
    tail = close_calls.generate(net, PRESETS, range(2, 4), seed=5, rate=0.3, redeals=2)
    assert 0 < len(tail["preset"]) < len(whole["preset"])
    assert rows_of(tail) <= rows_of(whole)


def test_close_calls_against_bots_are_the_networks_own_turns_in_its_seat():
    # one row at a time (RowByRow): the rows of a chunk's hands are compared to the bit below
    net = RowByRow(NeuralBot(weights=SHIPPED).network)
    points = close_calls.generate(net, ("xueliu",), range(0, 8), seed=3, rate=1.0, redeals=2,
                                  opponent="expert")
    n = len(points["preset"])
    assert n > 5
    assert_the_networks_best_candidates(net, points)
    # a hand's close calls and values do not depend on the other hands of its chunk, and the
    # bots' table is another game than self-play
    again = close_calls.generate(net, ("xueliu",), range(4, 8), seed=3, rate=1.0, redeals=2,
                                 opponent="expert")
    assert 0 < len(again["preset"]) < n and rows_of(again) <= rows_of(points)
    assert rows_of(points) != rows_of(close_calls.generate(net, ("xueliu",), range(0, 8), seed=3,
                                                       rate=1.0, redeals=2))


def test_play_out_decides_each_hand_as_if_it_were_played_alone():
    # one row at a time (RowByRow): a batch's products differ from a lone row's in their last
    # bits, so only then is a hand played with others the same to the bit as played alone
    net = RowByRow(NeuralBot(weights=SHIPPED).network)
    st = xueliu.new_game("xueliu", seed=11)
    points = []
    while not st.is_over:
        p = st.pending()
        if st.phase == "turn" and len(points) < 3 and st.wall_remaining % 9 == 0:
            points.append((redealt(st, p[0], len(points)), p[0]))
        acts = decide_batch([st] * len(p), p, lambda x, m: masked_argmax(net.forward(x), m))
        st.step(dict(zip(p, acts)))
    assert len(points) == 3
    first = [_first(net, s, q) for s, q in points]
    together = close_calls.play_out(net, [_copy(s) for s, _ in points], [q for _, q in points],
                                    first)
    alone = [close_calls.play_out(net, [_copy(s)], [q], [k])[0]
             for (s, q), k in zip(points, first)]
    assert list(together) == alone


def _first(net, state, seat):
    """The network's own choice for ``seat`` (its index)."""
    picked = []

    def choose(x, m):
        picked.append(masked_argmax(net.forward(x), m))
        return picked[-1]

    decide_batch([state], [seat], choose)
    return int(picked[0][0])


def _copy(state):
    return clone(state)


@pytest.mark.parametrize("option", [{"won_hands": "redeal"}, {"redeal_hands": "likely"}])
def test_a_redeal_option_values_the_same_close_calls_on_other_redeals(option: dict) -> None:
    # won_hands="redeal" (won hands dealt again, the hidden tiles shuffled from their sorted
    # multiset) and redeal_hands="likely" (the other seats' hands as ready as real players')
    # change only the redeals, not which turns are close calls.
    net = NeuralBot(weights=SHIPPED).network
    plain = close_calls.generate(net, ["xueliu"], range(0, 3), seed=4, redeals=2)
    other = close_calls.generate(net, ["xueliu"], range(0, 3), seed=4, redeals=2, **option)
    assert (plain["x"] == other["x"]).all() and (plain["cand"] == other["cand"]).all()
    assert np.isfinite(other["value"]).all()
    assert (plain["value"] != other["value"]).any()


def test_likely_hands_are_refused_for_a_table_shape_without_a_prior():
    net = NeuralBot(weights=SHIPPED).network
    with pytest.raises(ValueError, match="prior for the table shapes"):
        close_calls.generate(net, ["sanren_liangfang"], range(0, 1), seed=4,
                             redeal_hands="likely")


def test_meld_close_calls_are_claims_and_melds_against_the_other_choice_valued_alike():
    # decisions="melds": the decisions whose two best indices are not both discards (碰, 杠, 胡
    # or pass against the other, on a turn or at a claim window), at the experts' table
    # one row at a time (RowByRow) where the rows of a chunk's hands are compared to the bit
    net = RowByRow(NeuralBot(weights=SHIPPED).network)
    points = close_calls.generate(net, PRESETS, range(0, 8), seed=3, gap=100, redeals=2,
                                  opponent="expert", won_hands="redeal", decisions="melds")
    n = len(points["preset"])
    assert n > 10
    assert_the_networks_best_candidates(net, points)
    cand = points["cand"]
    assert (cand.max(axis=1) >= 27).all()  # a meld, a win or a pass is one of the two
    claims = np.isin(cand, [136]).any(axis=1)  # passing is a claim window's choice only
    assert claims.any() and (~claims).any()  # claims, and turns (a kong or a win on them)
    assert np.allclose(points["value"][:, 1] - points["value"][:, 0],
                       points["diffs"].mean(axis=1), atol=1e-3)
    again = close_calls.generate(net, PRESETS, range(4, 8), seed=3, gap=100, redeals=2,
                                 opponent="expert", won_hands="redeal", decisions="melds")
    assert 0 < len(again["preset"]) < n and rows_of(again) <= rows_of(points)
    # melds_no_pass: of those, the ones with a 碰 or 杠 against anything but pass
    some = close_calls.generate(net, PRESETS, range(0, 8), seed=3, gap=100, redeals=2,
                                opponent="expert", won_hands="redeal", decisions="melds_no_pass")
    c = some["cand"]
    states = lambda p: {(p["x"][i].tobytes(), p["cand"][i].tobytes())  # noqa: E731
                        for i in range(len(p["cand"]))}  # (values: the j-th kept call's redeals)
    assert 0 < len(c) < n and states(some) <= states(points)
    assert (((c >= 27) & (c < 135)).any(axis=1) & (c != 136).all(axis=1)).all()
    # win_or_meld: a 胡 against a 碰 or 杠
    wins = close_calls.generate(net.network, PRESETS, range(0, 40), seed=3, gap=100, redeals=2,
                                opponent="expert", won_hands="redeal", decisions="win_or_meld")
    c = wins["cand"]
    assert len(c) > 0 and ((c == 135).any(axis=1) & ((c >= 27) & (c < 135)).any(axis=1)).all()


@pytest.mark.parametrize("bad", [{"gap": 0}, {"rate": 0}, {"rate": 1.5}, {"redeals": 0},
                                 {"won_hands": "guess"}, {"decisions": "exchange"},
                                 {"redeal_hands": "guess"}])
def test_close_calls_refuse_a_bad_gap_rate_redeal_count_or_won_hands_mode(bad: dict) -> None:
    net = NeuralBot(weights=SHIPPED).network
    with pytest.raises(ValueError):
        close_calls.generate(net, PRESETS, range(0, 1), seed=5, **bad)
