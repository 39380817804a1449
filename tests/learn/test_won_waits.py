"""obs_v3's won-wait channels (xueliu.learn.won_waits) against a plain reference read from the
seat's JSON observation: which other hands are frozen (won in 血流), the tiles they won on, the
seat's own hand."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import xueliu
from xueliu import _core
from xueliu.bots import GreedyBot
from xueliu.bots.neural_net import load_network, save_network
from xueliu.learn.actions import NUM_ACTIONS
from xueliu.learn.analysis import ObsV2
from xueliu.learn.channels import OBS_V1, OBS_V3, WON_WAITS_V1
from xueliu.learn.encoders import encoder
from xueliu.learn import action_mask
from xueliu.learn.network_inputs import INPUT_WIDTHS, network_input
from xueliu.learn.won_waits import ObsV3, won_wait_choice, won_wait_planes
from xueliu.rules import Rules

_OBS = encoder("obs_v1")
_KIND = {_core.tile_name(k): k for k in range(27)}
_PRESETS = {p: Rules.preset(p).to_dict() for p in ("xueliu", "xuezhan")}


def _decisions(preset: str, seed: int) -> List[Tuple[np.ndarray, np.ndarray, Dict[str, Any]]]:
    """(obs_v1 row, action mask, observation) of every pending seat of a hand of greedy bots."""
    state = xueliu.new_game(preset, seed=seed)
    bots = [GreedyBot(seed=seed + s) for s in range(4)]
    out = []
    while not state.is_over:
        answers = {}
        for seat in state.pending():
            obs = state.observation(seat)
            out.append((_OBS.encode_batch([state], [seat])[0].reshape(-1).copy(),
                        action_mask(state, seat), obs))
            answers[seat] = bots[seat].act_view(state.view(seat), state.legal_actions(seat))
        state.step(answers)
    return out


def _reference(obs: Dict[str, Any]) -> Dict[str, np.ndarray]:
    """The channels, one kind at a time, from the observation's own words."""
    me, n = obs["seat"], len(obs["frozen"])
    won_on = np.zeros(27, int)  # won hands that have won on each kind
    hands = 0
    for o in range(n):
        if o != me and obs["frozen"][o]:
            hands += 1
            for k in {_KIND[w["tile"]] for w in obs["wins"][o]}:
                won_on[k] += 1
    held = {_KIND[t] for t in obs["hand"]}
    out = {name: np.zeros(27, np.float32) for name, _ in WON_WAITS_V1}
    for k in range(27):
        out["won_wait"][k] = won_on[k] >= 1
        out["won_wait_2"][k] = won_on[k] >= 2
        out["won_wait_held"][k] = won_on[k] >= 1 and k in held
        same_suit = [w for w in range(27) if won_on[w] and w // 9 == k // 9]
        if not won_on[k]:
            out["won_wait_near"][k] = any(abs(w - k) == 3 for w in same_suit)
            out["won_suit"][k] = bool(same_suit)
    out["won_safe_held"][:] = any(not won_on[k] for k in held)
    out["won_hands"][:hands] = 1
    return out


@pytest.mark.parametrize("preset,seed", [("xueliu", 11), ("xueliu", 12), ("xueliu", 13),
                                         ("xuezhan", 14)])
def test_the_won_wait_channels_are_what_the_observation_says(preset: str, seed: int):
    rows = _decisions(preset, seed)
    x = np.stack([r[0] for r in rows])
    got = won_wait_planes(x).reshape(len(x), len(WON_WAITS_V1), 27)
    seen = set()
    for i, (_, _, obs) in enumerate(rows):
        want = _reference(obs)
        for j, (name, _) in enumerate(WON_WAITS_V1):
            assert (got[i, j] == want[name]).all(), (name, i)
            if got[i, j].any():
                seen.add(name)
    if preset == "xuezhan":  # winners leave: no hand plays on frozen, every held kind is safe
        assert not np.delete(got, 5, axis=1).any()
    else:
        assert {"won_wait", "won_wait_held", "won_suit", "won_hands"} <= seen


def test_a_won_wait_choice_may_discard_a_won_on_kind_and_another():
    rows = [r for seed in (11, 12, 13) for r in _decisions("xueliu", seed)]
    x = np.stack([r[0] for r in rows])
    mask = np.stack([r[1] for r in rows])
    got = won_wait_choice(x, mask)
    for i, (_, m, obs) in enumerate(rows):
        waits = {k for k, v in enumerate(_reference(obs)["won_wait"]) if v}
        discards = {k for k in range(27) if m[k]}
        assert got[i] == (bool(discards & waits) and bool(discards - waits)), i
    assert got.any() and not got.all()


def test_obs_v3_is_obs_v2_then_the_won_wait_channels_and_shows_only_obs_v1():
    """A function of the obs_v1 rows alone: the same rows in another order give the same rows."""
    x = np.stack([r[0] for r in _decisions("xueliu", 12)])
    v3 = ObsV3(_PRESETS)(x)
    assert v3.shape == (len(x), len(OBS_V3) * 27) == (len(x), INPUT_WIDTHS["obs_v3"])
    assert (v3[:, :INPUT_WIDTHS["obs_v2"]] == ObsV2(_PRESETS)(x)).all()
    assert (v3[:, INPUT_WIDTHS["obs_v2"]:] == won_wait_planes(x)).all()
    assert (ObsV3(_PRESETS)(x[::-1].copy())[::-1] == v3).all()
    assert set(np.unique(v3)) <= {0.0, 1.0}


def test_an_obs_v3_weights_file_plays_its_channels(tmp_path):
    rng = np.random.default_rng(3)
    width = INPUT_WIDTHS["obs_v3"]
    layers = [(rng.normal(0, 0.05, (width, 16)).astype(np.float32), np.zeros(16, np.float32)),
              (rng.normal(0, 0.05, (16, NUM_ACTIONS)).astype(np.float32),
               np.zeros(NUM_ACTIONS, np.float32))]
    path = str(tmp_path / "v3.npz")
    save_network(path, layers, {p: Rules.preset(p) for p in _PRESETS}, {"test": True},
                 encoder="obs_v3")
    net = load_network(path)
    assert net.encoder == "obs_v3"
    x = np.stack([r[0] for r in _decisions("xueliu", 13)])
    h = np.maximum(ObsV3(_PRESETS)(x) @ layers[0][0], 0.0)
    assert np.allclose(net.forward(x), h @ layers[1][0], atol=1e-4)
    with pytest.raises(ValueError, match="unknown encoder"):
        network_input("obs_v9", _PRESETS)


def test_the_channels_of_a_row_of_no_seat_are_a_function_not_a_crash():
    x = np.ones((2, len(OBS_V1) * 27), np.float32)
    planes = won_wait_planes(x).reshape(2, len(WON_WAITS_V1), 27)
    assert planes[:, 0].all() and planes[:, 6, :3].all() and not planes[:, 6, 3:].any()


def test_docs_learning_md_shows_the_won_wait_channels():
    from pathlib import Path
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "learning.md").read_text("utf-8")
    rows = re.findall(r"^\| (\d+) \(obs_v3\) \| `(\w+)` \| (.*) \|$", doc, re.M)
    first = len(OBS_V3) - len(WON_WAITS_V1)
    assert [(int(i), n, m) for i, n, m in rows] == [
        (first + i, n, m) for i, (n, m) in enumerate(WON_WAITS_V1)]
    assert f"### `obs_v3` ({len(OBS_V3)} × 27)" in doc
