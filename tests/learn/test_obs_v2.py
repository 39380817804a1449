"""obs_v2's analysis channels (xueliu.learn.analysis, cpp/analysis_planes.cpp) against a plain
reference built from the core's public calls on the seat's own pieces: the shanten after each
discard, the copies of 进张 not in sight, the waits' fan, the 碰 and 杠 of a claim window."""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np
import pytest

import xueliu
from xueliu import _core
from xueliu.bots import GreedyBot, RandomBot
from xueliu.bots.neural_net import Network, load_network, save_network
from xueliu.learn.analysis import ANALYSIS_SIZE, ObsV2, analysis_planes
from xueliu.learn.channels import ANALYSIS_V1, OBS_V1, offsets
from xueliu.learn.encoders import encoder
from xueliu.rules import Rules

_OBS = encoder("obs_v1")
_AT = {name: i for i, (name, _) in enumerate(ANALYSIS_V1)}
_OFF = offsets(OBS_V1)


def _decisions(preset: str, seed: int) -> List[Tuple[np.ndarray, xueliu.GameState, int]]:
    """(obs_v1 row, state, seat) of every pending seat of a hand of greedy and random bots."""
    state = xueliu.new_game(preset, seed=seed)
    bots = [GreedyBot(seed=seed), RandomBot(seed=seed + 1), GreedyBot(seed=seed + 2),
            RandomBot(seed=seed + 3)]
    out = []
    while not state.is_over:
        answers = {}
        for seat in state.pending():
            out.append((_OBS.encode_batch([state], [seat])[0].reshape(-1).copy(), state, seat))
            answers[seat] = bots[seat].act_view(state.view(seat), state.legal_actions(seat))
        state.step(answers)
    return out


def _reference(x: np.ndarray, scoring: object) -> Dict[str, np.ndarray]:
    """The channels from the obs_v1 planes with the core's one-hand calls (shanten, jinzhang,
    evaluate), one kind at a time."""
    planes = x.reshape(len(OBS_V1), 27)
    row = {name: planes[_OFF[name] // 27] for name in _OFF}
    counts = sum(row[f"hand_{i}"] for i in range(1, 5)).astype(np.uint8)
    visible = sum(row[f"visible_{i}"] for i in range(1, 5)).astype(int)
    melds = ([(0, int(k)) for k in np.flatnonzero(row["pengs_self"])]
             + [(1, int(k)) for k in np.flatnonzero(row["kongs_self"])]
             + [(2, int(k)) for k in np.flatnonzero(row["concealed_kongs_self"])])
    void = next((s for s in range(3) if row["void_self"][9 * s] == 1), -1)
    held = counts.astype(int).copy()
    mine = np.zeros(27, int)
    for t, k in melds:
        held[k] += 3 if t == 0 else 4
        mine[k] += 3 if t == 0 else 4
    live = np.maximum(0, 4 - held - np.maximum(0, visible - mine))
    out = {name: np.zeros(27, np.float32) for name, _ in ANALYSIS_V1}

    def shanten(c: np.ndarray, m: List[Tuple[int, int]]) -> int:
        return int(_core.shanten(_core.Hand(c.tobytes(), m), void, True))

    def jz(c: np.ndarray, m: List[Tuple[int, int]]) -> List[int]:
        mask = _core.jinzhang(_core.Hand(c.tobytes(), m), None, void, True)
        return [_KIND[name] for name, _ in mask]

    def bar(name: str, n: int) -> None:
        out[name][:max(0, min(27, n))] = 1

    def fan(c: np.ndarray, m: List[Tuple[int, int]], waits: List[int]) -> int:
        alive = [w for w in waits if live[w]] or waits
        best = 0
        for w in alive:
            d = c.copy()
            d[w] += 1
            best = max(best, _core.evaluate(_core.Hand(d.tobytes(), m), void, scoring, w, 0)[0])
        return best

    try:
        now = shanten(counts, melds)
    except ValueError:
        return out
    bar("shanten_bar", now + 1)
    size = int(counts.sum()) + 3 * len(melds)
    if size == 14:
        s, lv = {}, {}
        for t in np.flatnonzero(counts):
            c = counts.copy()
            c[t] -= 1
            s[t] = shanten(c, melds)
            lv[t] = sum(int(live[k]) for k in jz(c, melds))
        best = min(s.values())
        best_live = max(lv[t] for t in s if s[t] == best)
        for t in s:
            out["discard_ready"][t] = s[t] == 0
            out["discard_shanten_1"][t] = s[t] <= 1
            out["discard_shanten_2"][t] = s[t] <= 2
            out["discard_min_shanten"][t] = s[t] == best
            for n in (4, 8, 12, 20):
                out[f"discard_live_{n}"][t] = lv[t] >= n
            out["discard_best"][t] = s[t] == best and lv[t] == best_live
            if s[t] == 0:
                c = counts.copy()
                c[t] -= 1
                f = fan(c, melds, jz(c, melds))
                for n in (2, 3, 4):
                    out[f"discard_ready_fan_{n}"][t] = f >= n
        bar("live_bar", best_live)
        for t in range(27):
            c, m = counts.copy(), list(melds)
            if counts[t] == 4:
                c[t] = 0
                m.append((2, t))
            elif counts[t] and (0, t) in melds:
                c[t] -= 1
                m[m.index((0, t))] = (1, t)
            else:
                continue
            if shanten(c, m) <= best:
                out["kong_keeps_shanten"][t] = 1
    elif size == 13:
        waits = jz(counts, melds)
        out["jinzhang_now"][waits] = 1
        bar("live_bar", sum(int(live[k]) for k in waits))
        if now == 0:
            bar("ready_fan_bar", fan(counts, melds, waits))
        claim = np.flatnonzero(row["claim_tile"])
        if len(claim) and row["phase_claim"][0] == 1 and row["claim_is_rob"][0] != 1:
            c0 = int(claim[0])
            if counts[c0] >= 2:
                c = counts.copy()
                c[c0] -= 2
                bar("peng_shanten_bar", shanten(c, melds + [(0, c0)]) + 1)
            if counts[c0] == 3:
                c = counts.copy()
                c[c0] = 0
                bar("kong_shanten_bar", shanten(c, melds + [(1, c0)]) + 1)
    return out


_KIND = {_core.tile_name(k): k for k in range(27)}


@pytest.mark.parametrize("preset,seed", [("xueliu", 1), ("xueliu", 2), ("xuezhan", 3),
                                         ("xuezhan", 4)])
def test_the_analysis_channels_are_what_the_cores_one_hand_calls_say(preset: str, seed: int):
    rows = _decisions(preset, seed)
    scoring = Rules.preset(preset)._scoring
    x = np.stack([r[0] for r in rows])
    got = analysis_planes(x, scoring).reshape(len(x), len(ANALYSIS_V1), 27)
    seen = set()
    for i in range(len(x)):
        want = _reference(x[i], scoring)
        for name, j in _AT.items():
            assert (got[i, j] == want[name]).all(), (name, i)
            if got[i, j].any():
                seen.add(name)
    # The hands reached every kind of channel but the rare ones.
    assert {"discard_ready", "discard_best", "jinzhang_now", "shanten_bar", "live_bar"} <= seen


def test_the_channels_see_only_what_obs_v1_shows():
    """A function of obs_v1: two seats' views that obs_v1 cannot tell apart (same tensor) get the
    same channels, and the channels of a hand are the same whichever state object they come
    from (they read the tensor only)."""
    rows = _decisions("xueliu", 5)
    x = np.stack([r[0] for r in rows])
    scoring = Rules.preset("xueliu")._scoring
    a = analysis_planes(x, scoring)
    b = analysis_planes(x[::-1].copy(), scoring)[::-1]
    assert (a == b).all()
    assert set(np.unique(a)) <= {0.0, 1.0}


def test_bad_arrays_are_a_clear_value_error():
    scoring = Rules.preset("xueliu")._scoring
    x = np.zeros((2, len(OBS_V1) * 27), np.float32)
    out = np.zeros((2, ANALYSIS_SIZE), np.float32)
    with pytest.raises(ValueError, match="x must have 2484 columns"):
        _core.analysis_planes(np.zeros((2, 27), np.float32), out, scoring)
    with pytest.raises(ValueError, match="out must have shape"):
        _core.analysis_planes(x, np.zeros((3, ANALYSIS_SIZE), np.float32), scoring)
    with pytest.raises(ValueError, match="float32"):
        _core.analysis_planes(x.astype(np.float64), out, scoring)
    # An input that is no seat's hand gives zero channels, not a crash or a guess.
    assert (analysis_planes(np.ones((1, len(OBS_V1) * 27), np.float32), scoring) == 0).all()


def test_an_obs_v2_weights_file_plays_the_analysis_channels(tmp_path):
    """A network whose file names obs_v2 reads obs_v1 inputs and adds their analysis channels
    at the fan table of each row's mode: its logits are the plain product of ObsV2's rows."""
    rng = np.random.default_rng(0)
    width = len(OBS_V1) * 27 + ANALYSIS_SIZE
    layers = [(rng.normal(0, 0.05, (width, 16)).astype(np.float32), np.zeros(16, np.float32)),
              (rng.normal(0, 0.05, (16, 175)).astype(np.float32), np.zeros(175, np.float32))]
    presets = {p: Rules.preset(p) for p in ("xueliu", "xuezhan")}
    path = str(tmp_path / "v2.npz")
    save_network(path, layers, presets, {"test": True}, encoder="obs_v2")
    net = load_network(path)
    assert net.encoder == "obs_v2"
    x = np.stack([r[0] for r in _decisions("xueliu", 6)[:40] + _decisions("xuezhan", 7)[:40]])
    h = ObsV2({p: r.to_dict() for p, r in presets.items()})(x)
    want = np.maximum(h @ layers[0][0] + layers[0][1], 0) @ layers[1][0] + layers[1][1]
    assert np.allclose(net.forward(x), want, atol=1e-4)
    # The xuezhan rows are analysed at xuezhan's fan table (its 金钩钓, 天地胡 …).
    xz = h[40:, len(OBS_V1) * 27:]
    assert (xz == analysis_planes(x[40:], presets["xuezhan"]._scoring)).all()
    with pytest.raises(ValueError, match="encoder 'obs_v9'"):
        save_network(path, layers, presets, {}, encoder="obs_v9")
    with pytest.raises(ValueError, match="3186 inputs"):
        save_network(path, layers, presets, {}, encoder="obs_v3")
    with pytest.raises(ValueError, match="2484 inputs"):
        save_network(path, layers, presets, {}, encoder="obs_v1")
    assert isinstance(net, Network)


def test_docs_learning_md_shows_the_analysis_channels():
    from pathlib import Path
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "learning.md").read_text("utf-8")
    rows = re.findall(r"^\| (\d+) \(obs_v2\) \| `(\w+)` \| (.*) \|$", doc, re.M)
    assert [(int(i), n, m) for i, n, m in rows] == [
        (92 + i, n, m) for i, (n, m) in enumerate(ANALYSIS_V1)]
    assert f"### `obs_v2` ({len(OBS_V1) + len(ANALYSIS_V1)} × 27)" in doc
