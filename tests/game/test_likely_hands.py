"""``xueliu.game.likely_hands``: the prior of how ready the other seats' hidden hands are at a
real table, and ``redealt(..., hands="likely")``, which deals by it.

- at a table of four experts the other seats' hands are much nearer a win than a uniform redeal
  deals them late in a hand, and a redeal with the prior deals them about as near as they are —
  on walls the shipped prior was not measured on;
- the ratios come from the counts as documented: shares divided, a shanten seen too rarely takes
  the ratio of the one below it, a thin cell is uniform, each clipped;
- the shipped table covers both presets' shape, and a table shape it was not measured on is
  refused with a clear error (the redeal changes nothing).
"""

from __future__ import annotations

import numpy as np
import pytest

import xueliu
from xueliu.game import likely_hands
from xueliu.game.redeal import redealt
from xueliu.train import hand_prior


def _mean(counts: np.ndarray) -> float:
    return float(counts @ np.arange(likely_hands.SHANTEN) / counts.sum())


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_late_in_a_hand_real_hands_are_nearer_a_win_and_the_prior_deals_them_so(preset):
    real, uniform = hand_prior.measure(preset, 40, seed=9001)
    _, likely = hand_prior.measure(preset, 40, seed=9001,
                                     ratios=likely_hands.ratios_for(xueliu.Rules.preset(preset)))
    late = slice(0, 3)  # fewer than 18 live tiles left, a seat with or without melds
    r, u, k = (c[late].sum(axis=(0, 1)) for c in (real, uniform, likely))
    assert r.sum() > 300
    assert _mean(u) - _mean(r) > 0.5  # a uniform redeal deals slow hands
    assert abs(_mean(k) - _mean(r)) < 0.25  # the prior's are as ready as the real ones
    assert k[0] / k.sum() > 2 * u[0] / u.sum()  # ready hands (shanten 0) above all


def test_ratios_from_counts_divide_shares_fill_rare_shanten_and_leave_thin_cells_uniform():
    real = np.zeros((likely_hands.BUCKETS, likely_hands.MELDS, likely_hands.SHANTEN), np.int64)
    dealt = np.zeros_like(real)
    real[0, 0, :4] = [400, 400, 195, 5]
    dealt[0, 0, :4] = [50, 500, 400, 50]
    real[1, 0, :2] = dealt[1, 0, :2] = [40, 40]  # 80 seats: too few for a cell
    ratio = likely_hands.ratios_from_counts(real, dealt)
    shares = lambda c: c / c.sum()  # noqa: E731
    np.testing.assert_allclose(ratio[0, 0, :3],
                               shares(real[0, 0])[:3] / shares(dealt[0, 0])[:3], rtol=1e-6)
    assert ratio[0, 0, 0] == pytest.approx(8.0)
    # shanten 3 seen 5 times: its ratio, and that of every shanten beyond, is shanten 2's
    assert np.all(ratio[0, 0, 3:] == ratio[0, 0, 2])
    assert np.all(ratio[1] == 1.0) and np.all(ratio[2:] == 1.0)
    twice = likely_hands.ratios_from_counts(real, dealt, ratios=np.full_like(ratio, 2.0))
    np.testing.assert_allclose(twice[0, 0], np.clip(2 * ratio[0, 0], 0.05, 20), rtol=1e-6)
    real[0, 0, 0], dealt[0, 0, 0] = 4000, 25  # shares ≈ 0.87 and 0.026
    assert likely_hands.ratios_from_counts(real, dealt)[0, 0, 0] == 20.0  # clipped


def test_the_shipped_prior_covers_both_presets_and_refuses_other_table_shapes():
    for preset in likely_hands.PRESETS:
        ratio = likely_hands.ratios_for(xueliu.Rules.preset(preset))
        assert ratio.shape == (likely_hands.BUCKETS, likely_hands.MELDS, likely_hands.SHANTEN)
        assert np.all((ratio >= 0.05) & (ratio <= 20))
        assert ratio[0, 0, 0] > 5 * ratio[0, 0, 2]  # late, ready hands are much likelier
    rules = xueliu.Rules.preset("sanren_liangfang")
    st = xueliu.new_game(rules, seed=3)
    while not (st.phase == "turn" and len(st.pending()) == 1):
        st.step({q: st.legal_actions(q)[0] for q in st.pending()})
    seat = st.pending()[0]
    before = [bytes(h) for h in st._hands], list(st._wall)
    with pytest.raises(ValueError, match="prior for the table shapes"):
        redealt(st, seat, 1, hands="likely")
    assert ([bytes(h) for h in st._hands], list(st._wall)) == before
    redealt(st, seat, 1)  # a uniform redeal knows no prior and needs none
