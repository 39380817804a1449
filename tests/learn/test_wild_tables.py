"""Learning at the wild-tile tables of docs/rules.md §12 (every ``WILD_PRESET_NAMES`` preset): the
action space of 203 indices and its masks, ``obs_wild_v1`` and ``oracle_wild_v1`` held to the
engine's own seat view and to the hidden truth, the seat's blindness to what it may not see (the
others' concealed wilds included), and every environment with its library's checker."""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path
from collections import Counter
from typing import Iterator, Tuple

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import xueliu
from xueliu import _core
from xueliu.envs import SingleSeatEnv, VectorEnv, parallel_env, pettingzoo_env
from xueliu.learn import (
    EXCHANGE_PICK, HAND_OVER_ACTION, NUM_ACTIONS, NUM_ACTIONS_WILD, SWAP_BACK_SLOT, WILD_DISCARD,
    action_mask, describe_index, encoder, hand_over_mask, mask_from_observation,
    masks_from_observations, masks_from_states, num_actions, to_action,
)
from xueliu.learn.channels import OBS_V1, OBS_WILD_V1, ORACLE_EXTRA, ORACLE_WILD_EXTRA, WILD_V1
from xueliu.learn.encoders import encoder_for
from xueliu.rules import PRESETS, WILD_PRESET_NAMES, Rules
from xueliu.rules.shape import seat_places

from hidden_twins import same_view_states, swapped_wall, twin_hands

from .conftest import masked, step_alike

EXAMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"
OBS = encoder("obs_wild_v1")
ORACLE = encoder("oracle_wild_v1")
AT = {n: i for i, n in enumerate(ORACLE.channels)}  # obs_wild_v1's channels are its first
KIND = {xueliu.tile_name(k): k for k in range(27)}
PLACES = ("self", "next", "across", "prev")
# Two tables beyond the presets: 11 听用 (the 本金's own kind wild too) and 12 红中 with 幺鸡.
VARIANTS = {
    "benjin_plus": Rules.preset("yibin").replace(wild_kinds="benjin_plus"),
    "hongzhong_12_yaoji": Rules.preset("hongzhong").replace(extra_wilds=12, wild_kinds=("1s",)),
}


def rules_of(name: str) -> Rules:
    return VARIANTS[name] if name in VARIANTS else Rules.preset(name)


@pytest.fixture(autouse=True)
def _quiet_checkers():
    with warnings.catch_warnings():  # the checkers' advice for Box observations (test_envs)
        warnings.simplefilter("ignore", UserWarning)
        yield


def random_states(name: str, games: int, seed: int = 0) -> Iterator[xueliu.GameState]:
    """The state before every decision of ``games`` hands of random legal play."""
    rules = rules_of(name)
    rng = random.Random(f"{name}:{seed}")
    for g in range(games):
        state = xueliu.new_game(rules, seed=100 * seed + g, dealer=g % rules.players)
        while not state.is_over:
            yield state
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})


def bar(x: np.ndarray) -> int:
    """The count a bar shows (its ones are a prefix)."""
    n = int(x.sum())
    assert x[:n].all() and not x[n:].any(), x
    return n


def flag(x: np.ndarray) -> bool:
    assert x.all() or not x.any(), x
    return bool(x.all())


# -- the action space ---------------------------------------------------------------------------


def test_a_table_with_wilds_has_the_wider_action_space_and_no_other_does():
    assert (NUM_ACTIONS, WILD_DISCARD, SWAP_BACK_SLOT, NUM_ACTIONS_WILD) == (175, 175, 176, 203)
    for name in PRESETS:
        assert num_actions(Rules.preset(name)) == NUM_ACTIONS
    for name in (*WILD_PRESET_NAMES, *VARIANTS):
        assert num_actions(rules_of(name)) == NUM_ACTIONS_WILD
    assert describe_index(WILD_DISCARD) == "discard 7z"
    assert describe_index(SWAP_BACK_SLOT + 4) == "swap_back 5m"
    assert [describe_index(i) for i in range(NUM_ACTIONS)] == [
        describe_index(i) for i in range(NUM_ACTIONS)]  # the 175 keep their names
    assert hand_over_mask(size=NUM_ACTIONS_WILD).nonzero()[0].tolist() == [HAND_OVER_ACTION]
    out = np.ones(NUM_ACTIONS_WILD, np.bool_)
    assert hand_over_mask(out=out) is out and masked(out) == [HAND_OVER_ACTION]
    with pytest.raises(ValueError, match="175 or 203"):
        hand_over_mask(size=200)


@pytest.mark.parametrize("name", [*WILD_PRESET_NAMES, *VARIANTS])
def test_the_mask_is_exactly_the_legal_actions_at_every_decision(name):
    """At every decision of random hands the mask (from the state, the observation and the
    batch) allows exactly the indices ``to_action`` turns into the legal actions, each legal
    action once; the wild indices are offered (红中's discard where 红中 may be discarded, 提)."""
    offered = Counter()
    for state in random_states(name, 25):
        seats = list(state.pending())
        batch = masks_from_states([state] * len(seats), seats)
        assert batch.shape == (len(seats), NUM_ACTIONS_WILD)
        assert np.array_equal(batch, masks_from_observations(
            [state.observation(q) for q in seats]))
        for i, q in enumerate(seats):
            mask = action_mask(state, q)
            assert np.array_equal(mask, batch[i])
            assert np.array_equal(mask, mask_from_observation(state.observation(q)))
            legal = state.legal_actions(q)
            if legal[0].kind in ("exchange", "multiplier"):  # picks and slots: test_action_space
                continue
            indices = masked(mask)
            actions = [to_action(state, q, j) for j in indices]
            assert sorted(a.id for a in actions) == sorted(a.id for a in legal)
            offered.update("discard 7z" if j == WILD_DISCARD else "swap_back"
                           for j in indices if j >= WILD_DISCARD)
    rules = rules_of(name)
    if rules.swap_back:
        assert offered["swap_back"] > 0
    if rules.extra_wilds and rules.wild_discard == "dead":
        assert offered["discard 7z"] > 0


def test_wild_indices_are_refused_where_they_are_not_legal():
    plain = xueliu.new_game("xueliu", seed=1)
    for i in (WILD_DISCARD, SWAP_BACK_SLOT, NUM_ACTIONS_WILD - 1):
        with pytest.raises(ValueError, match="0..174"):
            to_action(plain, 0, i)
    wild = xueliu.new_game("hongzhong", seed=1)
    q = wild.pending()[0]
    with pytest.raises(ValueError, match="not legal"):
        to_action(wild, q, SWAP_BACK_SLOT)  # no meld yet
    with pytest.raises(ValueError, match="0..202"):
        to_action(wild, q, NUM_ACTIONS_WILD)
    with pytest.raises(ValueError, match="mixes tables"):
        masks_from_states([plain, wild], [0, q])
    with pytest.raises(ValueError, match="mixes tables"):
        masks_from_observations([plain.observation(0), wild.observation(q)])
    with pytest.raises(ValueError, match="203"):
        action_mask(wild, q, out=np.zeros(NUM_ACTIONS, np.bool_))


# -- the encoders -------------------------------------------------------------------------------


def test_renamings_refuse_the_wider_action_space():
    """The renamings (xueliu.learn.renamings) hold at tables without wilds only: a mask of 203
    indices is refused, not cut to 175."""
    from xueliu.learn.renamings import rename_per_index
    mask = action_mask(xueliu.new_game("hongzhong", seed=1), 0)[None]
    with pytest.raises(ValueError, match="175 indices"):
        rename_per_index(mask, 1)


def test_the_wild_encoders_extend_obs_v1_and_oracle_v1():
    plain, oracle = encoder("obs_v1"), encoder("oracle_v1")
    assert OBS.channels[:len(OBS_V1)] == plain.channels
    assert OBS.channel_docs == OBS_WILD_V1 and OBS.shape == (92 + len(WILD_V1), 27)
    assert ORACLE.channels == OBS.channels + tuple(n for n, _ in ORACLE_EXTRA + ORACLE_WILD_EXTRA)
    assert OBS.from_observation and not ORACLE.from_observation
    for name in WILD_PRESET_NAMES:
        assert encoder_for(plain, Rules.preset(name)) is OBS
        assert encoder_for(oracle, Rules.preset(name)) is ORACLE
        assert encoder_for(OBS, Rules.preset(name)) is OBS
    for name in PRESETS:
        assert encoder_for(plain, Rules.preset(name)) is plain
    tile_planes = [n for n, d in WILD_V1 if d.startswith("tile plane")]
    assert tile_planes == ["wild_kinds", "benjin", *(f"soft_melds_{r}" for r in PLACES)]


def test_obs_v1_and_oracle_v1_refuse_a_table_with_wilds():
    state = xueliu.new_game("yaoji", seed=2)
    with pytest.raises(ValueError, match="obs_wild_v1"):
        encoder("obs_v1").encode(state, 0)
    with pytest.raises(ValueError, match="obs_wild_v1"):
        encoder("obs_v1").encode(state.observation(0))
    with pytest.raises(ValueError, match="obs_wild_v1"):
        encoder("obs_v1").encode_batch([state.observation(q) for q in range(4)])
    with pytest.raises(ValueError, match="obs_wild_v1"):
        encoder("obs_v1").encode_batch([state] * 4, [0, 1, 2, 3])
    with pytest.raises(ValueError, match="oracle_wild_v1"):
        encoder("oracle_v1").encode(state, 0)


def test_the_native_encoder_refuses_a_table_with_wilds_and_writes_nothing():
    """It reads 27 counts a hand; a wild table's 28 (红中 the 28th) are refused, not misread."""
    for name in WILD_PRESET_NAMES:
        out = np.full((1, 92, 27), 7, np.float32)
        with pytest.raises(ValueError, match="28 counts: a table with wild tiles"):
            _core.encode_obs_v1([xueliu.new_game(name, seed=1)], [0], None, out)
        assert (out == 7).all()


def test_at_a_table_without_wilds_the_wild_encoders_are_the_plain_ones_then_zeros():
    """Both paths: the native one (a batch of plain states) and the observation-dict one (the
    same states batched with a wild one, which sends the whole batch there)."""
    plain, oracle = encoder("obs_v1"), encoder("oracle_v1")
    n_obs, n_oracle = len(OBS_V1), len(OBS_V1) + len(ORACLE_EXTRA)
    wild = xueliu.new_game("luzhou_gui", seed=3)
    for state in random_states("xueliu", 3):
        seats = [0, 1, 2, 3]
        for enc, base, width in ((OBS, plain, n_obs), (ORACLE, oracle, n_oracle)):
            fast = enc.encode_batch([state] * 4, seats)
            slow = enc.encode_batch([state] * 4 + [wild], seats + [0])[:4]
            assert np.array_equal(fast, slow)
            x = base.encode_batch([state] * 4, seats)
            assert np.array_equal(fast[:, :n_obs], x[:, :n_obs])
            assert not fast[:, n_obs:len(OBS.channels)].any()
            if enc is ORACLE:
                assert np.array_equal(fast[:, len(OBS.channels):len(OBS.channels) + 20],
                                      x[:, n_obs:width])
                assert not fast[:, len(OBS.channels) + 20:].any()


def _check_against_the_engine(state: xueliu.GameState, seat: int) -> np.ndarray:
    """``obs_wild_v1`` of ``seat`` (both paths) against the engine's seat view
    (``state.view(seat)``: its own counts, the copies on view) and the pool of wilds against the
    omniscient truth; ``oracle_wild_v1``'s hidden wild channels against the omniscient view."""
    x = OBS.encode(state.observation(seat))
    assert np.array_equal(x, OBS.encode(state, seat))
    y = ORACLE.encode(state, seat)
    assert np.array_equal(y[:len(OBS.channels)], x)
    v = state.view(seat)
    full = state.observation(None)
    c = AT
    hand = np.frombuffer(v.hand, np.uint8).astype(int)
    assert len(hand) == 28
    for i in range(1, 5):
        assert np.array_equal(x[c[f"hand_{i}"]], hand[:27] >= i)
    assert bar(x[c["hongzhong_hand"]]) == hand[27]
    kinds = v.wild_kinds
    assert masked(x[c["wild_kinds"]]) == [k for k in kinds if k < 27]
    assert masked(x[c["benjin"]]) == ([v.benjin] if v.benjin >= 0 else [])
    assert flag(x[c["wild_hongzhong"]]) == (27 in kinds)
    assert bar(x[c["wilds_held"]]) == sum(hand[k] for k in kinds)
    drawn = v.drawn
    assert flag(x[c["hongzhong_drawn"]]) == (drawn == 27)
    assert masked(x[c["drawn"]]) == ([drawn] if 0 <= drawn < 27 else [])
    # The copies on view: the engine's (outside the own hand and melds), the own melds' tiles,
    # the tile being robbed (in no river yet).
    seen = np.frombuffer(v.visible, np.uint8).astype(int)
    for (code, k, *_), mw in zip(v.melds, v.meld_wilds):
        seen[k] += (3 if code == 0 else 4) - len(mw)
        for j in mw:
            seen[j] += 1
    claim = v.claim
    if claim is not None and claim[2]:
        seen[claim[0]] += 1
    assert flag(x[c["hongzhong_claim"]]) == (claim is not None and claim[0] == 27)
    for i in range(1, 5):
        assert np.array_equal(x[c[f"visible_{i}"]], seen[:27] >= i)
    assert bar(x[c["hongzhong_visible"]]) == seen[27]
    # The wild pool: held + own melds + seen + unseen = the wall set's wilds, and the unseen ones
    # are exactly those in the live wall and in the others' hands and concealed kongs.
    in_wall = state.rules.wild_count_in_wall()
    assert bar(x[c["wilds_in_wall"]]) == in_wall
    assert bar(x[c["wilds_melded_self"]]) == sum(map(len, v.meld_wilds))
    pool = [bar(x[c[n]]) for n in ("wilds_held", "wilds_melded_self", "wilds_seen",
                                   "wilds_unseen")]
    assert sum(pool) == in_wall
    wild = set(full["wilds"]["kinds"])
    hidden = sum(t in wild for t in full["wall"])
    for q, h in enumerate(full["hands"]):
        if q != seat:
            hidden += sum(t in wild for t in h) + sum(
                len(m["wilds"]) for m in full["melds"][q] if m["type"] == "concealed_kong")
    assert pool[3] == hidden
    # Per place: 红中 in the rivers, the soft melds and their wilds (a hidden kong shows none).
    n = state.rules.players
    mine = state.observation(seat)
    for r, d in zip(PLACES, seat_places(n)):
        q = None if d is None else (seat + d) % n
        river = [] if q is None else mine["discards"][q]
        assert bar(x[c[f"hongzhong_discards_{r}"]]) == river.count("7z")
        assert flag(x[c[f"last_discard_hongzhong_{r}"]]) == (bool(river) and river[-1] == "7z")
        wins = [] if q is None else mine["wins"][q]
        assert bar(x[c[f"won_hongzhong_{r}"]]) == sum(w["tile"] == "7z" for w in wins)
        melds = [] if q is None else full["melds"][q]
        shown = [m for m in melds if q == seat or m["type"] != "concealed_kong"]
        assert masked(x[c[f"soft_melds_{r}"]]) == sorted(
            {KIND[m["tile"]] for m in shown if m["wilds"]})
        assert bar(x[c[f"meld_wilds_{r}"]]) == sum(len(m["wilds"]) for m in shown)
        if r == "self" or q is None:
            continue
        h = full["hands"][q]
        assert bar(y[c[f"hongzhong_hand_{r}"]]) == h.count("7z")
        assert bar(y[c[f"wilds_held_{r}"]]) == sum(t in wild for t in h)
        assert bar(y[c[f"concealed_kong_wilds_{r}"]]) == sum(
            len(m["wilds"]) for m in melds if m["type"] == "concealed_kong")
    wall = full["wall"]
    assert bar(y[c["live_wall_wilds"]]) == sum(t in wild for t in wall)
    assert bar(y[c["live_wall_hongzhong"]]) == wall.count("7z")
    assert flag(y[c["next_draw_hongzhong"]]) == (bool(wall) and wall[0] == "7z")
    return x


@pytest.mark.parametrize("name", [*WILD_PRESET_NAMES, *VARIANTS])
def test_every_channel_agrees_with_the_engine_at_every_decision(name):
    shown = Counter()
    rules = rules_of(name)
    for state in random_states(name, 12):
        for seat in range(rules.players):
            x = _check_against_the_engine(state, seat)
            shown.update(n for n in ("soft_melds_self", "soft_melds_next", "wilds_seen",
                                     "hongzhong_visible", "benjin") if x[AT[n]].any())
    assert shown["soft_melds_self"] and shown["soft_melds_next"] and shown["wilds_seen"]
    assert bool(shown["hongzhong_visible"]) == (rules.extra_wilds > 0)
    assert bool(shown["benjin"]) == rules.uses_benjin


def test_robbing_a_kong_whose_added_tile_is_a_wild():
    """The rare window random play seldom reaches: a soft added kong's added wild on offer to be
    robbed (a 红中, a 幺鸡), on view to every seat, in no river, out of the konger's hand."""
    robbed = Counter()
    for state in random_states("hongzhong_12_yaoji", 200, seed=1):
        claim = state.observation(0)["claim"]
        if claim is None or claim["kind"] != "rob":
            continue
        for seat in range(4):
            x = _check_against_the_engine(state, seat)
            assert flag(x[AT["claim_is_rob"]])
        robbed[claim["tile"]] += 1
        if robbed["7z"] >= 3 and robbed["1s"]:
            break
    assert robbed["7z"] >= 3 and robbed["1s"], robbed


def test_a_batch_takes_the_same_values_as_one_view_at_a_time():
    states = [s for _, s in zip(range(40), random_states("hongzhong", 1))]
    for enc in (OBS, ORACLE):
        seats = [i % 4 for i in range(len(states))]
        picks = [()] * len(states)
        batch = enc.encode_batch(states, seats, picks=picks)
        assert np.array_equal(batch, np.stack([enc.encode(s, q) for s, q in zip(states, seats)]))
    obs = [s.observation(i % 4) for i, s in enumerate(states)]
    assert np.array_equal(OBS.encode_batch(obs), np.stack([OBS.encode(o) for o in obs]))


# -- hidden information -------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["live_wall", "other_hands"])
@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_obs_wild_v1_is_blind_to_tiles_the_seat_cannot_see(name, variant):
    """tests/hidden_twins.py's twin hands at the wild tables: wherever the seat's observation is
    the same in both, so is its tensor (from the state and from the observation)."""
    rng = random.Random(11)
    compared = 0
    for a, b, seat in twin_hands(name, variant, 20, rng):
        for _ in same_view_states(a, b, seat, rng):
            assert np.array_equal(OBS.encode(a, seat), OBS.encode(b, seat))
            assert np.array_equal(OBS.encode(a.observation(seat)),
                                  OBS.encode(b.observation(seat)))
            compared += 1
    assert compared > 50


def wild_twins(name: str, games: int, rng: random.Random
               ) -> Iterator[Tuple[xueliu.GameState, xueliu.GameState, int]]:
    """Twin hands whose walls differ only in where one wild goes: into the next seat's first take
    or the one after it (a natural tile of the other hand trades places with it), so the two
    other hands hold different numbers of wilds — concealed, then maybe in a concealed kong."""
    rules = rules_of(name)
    n = rules.players
    for g in range(games):
        first = xueliu.new_game(rules, seed=700 + g)
        wild = set(first.observation(None)["wilds"]["kinds"])
        wall = first.wall
        seat = g % n
        takes = [4 * ((seat + d) % n) + i for d in (1, 2) for i in range(4)]
        wilds = [i for i in takes[:4] if wall[i] in wild]
        naturals = [i for i in takes[4:] if wall[i] not in wild]
        if not wilds or not naturals:
            continue
        i, j = rng.choice(wilds), rng.choice(naturals)
        a = xueliu.new_game(rules, wall=wall, seed=700 + g)
        b = xueliu.new_game(rules, wall=swapped_wall(wall, i, j), seed=700 + g)
        if a.observation(None)["wilds"] != b.observation(None)["wilds"]:
            continue  # (a 本金 rule: the swap moved the turned-up tile)
        yield a, b, seat


@pytest.mark.parametrize("name", [*WILD_PRESET_NAMES, *VARIANTS])
def test_the_others_concealed_wilds_never_reach_a_seats_tensor(name):
    """Two tables where the other hands hold different wilds (one wild trades places with a
    natural tile between them): wherever the seat's observation is the same, obs_wild_v1 is the
    same, while oracle_wild_v1 — which reads the hidden hands — differs."""
    rng = random.Random(5)
    compared = oracle_differs = 0
    for a, b, seat in wild_twins(name, 300, rng):
        for _ in same_view_states(a, b, seat, rng):
            assert np.array_equal(OBS.encode(a, seat), OBS.encode(b, seat))
            oracle_differs += not np.array_equal(ORACLE.encode(a, seat),
                                                 ORACLE.encode(b, seat))
            compared += 1
    assert compared > 80 and oracle_differs == compared


# -- the environments ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_the_pettingzoo_checkers_pass(name):
    for reward in ("final", "transfers"):
        api_test(pettingzoo_env(rules=name, reward=reward), num_cycles=500)
        parallel_api_test(parallel_env(rules=name, reward=reward), num_cycles=500)
    seed_test(lambda: pettingzoo_env(rules=name, reward="transfers"), num_cycles=200)
    parallel_seed_test(lambda: parallel_env(rules=name), num_cycles=200)


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_the_gymnasium_checker_passes(name):
    for kwargs in (dict(opponents=["random"] * 3), dict(opponents=None, encoder="oracle_v1"),
                   dict(opponents=["greedy", "random", "autoplay"], reward="transfers", seat=1)):
        env = gymnasium.make("xueliu/SingleSeat-v0", rules=name, **kwargs)
        check_env(env.unwrapped)
        obs, info = env.reset(seed=3)
        enc = ORACLE if kwargs.get("encoder") == "oracle_v1" else OBS
        assert obs["observation"].shape == enc.shape
        assert obs["action_mask"].shape == (NUM_ACTIONS_WILD,)
        assert env.action_space.n == NUM_ACTIONS_WILD


def _play_aec(env, seed: int, rng: random.Random) -> Tuple[dict, Counter]:
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    taken = Counter()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        assert obs["action_mask"].shape == (NUM_ACTIONS_WILD,)
        assert obs["observation"].shape == OBS.shape
        if terminated or truncated:
            assert masked(obs["action_mask"]) == [HAND_OVER_ACTION]
            env.step(None)
            continue
        # Prefer the wild indices when offered, so that they are played through the env.
        choices = masked(obs["action_mask"])
        wild = [i for i in choices if i >= WILD_DISCARD]
        i = rng.choice(wild) if wild and rng.random() < 0.7 else rng.choice(choices)
        taken[describe_index(i).split()[0] if i >= WILD_DISCARD else "other"] += 1
        env.step(i)
        assert not env.infos[agent].get("illegal_action")
    return total, taken


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_aec_hands_play_the_wild_actions_and_rewards_add_up_to_the_net(name):
    rules = Rules.preset(name)
    env = pettingzoo_env(rules=name, reward="transfers")
    rng = random.Random(name)
    taken = Counter()
    for seed in range(12):
        total, t = _play_aec(env, seed, rng)
        taken += t
        game = env.unwrapped.game
        stake = game.base * rules.room
        assert [total[a] for a in env.possible_agents] == pytest.approx(
            [x / stake for x in game.settlement().net])
    if rules.swap_back:
        assert taken["swap_back"] > 0
    if rules.wild_discard == "dead" and rules.extra_wilds:
        assert taken["discard"] > 0


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_parallel_and_single_seat_hands_play_to_the_end(name):
    rng = random.Random(name)
    env = parallel_env(rules=name, reward="transfers")
    observations, _ = env.reset(seed=4)
    total = Counter()
    while env.agents:
        actions = {a: rng.choice(masked(o["action_mask"])) if o["action_mask"].any() else 0
                   for a, o in observations.items()}
        observations, rewards, terms, _, infos = env.step(actions)
        total.update(rewards)
        assert not any(i["illegal_action"] for i in infos.values())
    stake = env.game.base * env.rules.room
    assert [total[a] for a in env.possible_agents] == pytest.approx(
        [x / stake for x in env.game.settlement().net])
    assert all(masked(o["action_mask"]) == [HAND_OVER_ACTION] for o in observations.values())
    single = SingleSeatEnv(rules=name, opponents=["random"] * 3, reward="transfers", seat=2)
    obs, _ = single.reset(seed=4)
    got = 0.0
    terminated = False
    while not terminated:
        obs, reward, terminated, _, info = single.step(rng.choice(masked(obs["action_mask"])))
        got += reward
        assert not info["illegal_action"]
    assert got == pytest.approx(single.game.settlement().net[2] / stake)
    assert masked(obs["action_mask"]) == [HAND_OVER_ACTION]


@pytest.mark.parametrize("name", WILD_PRESET_NAMES)
def test_the_vector_env_steps_as_single_envs_do(name):
    """The vector env (observation-dict path at wild tables) against Gymnasium's
    SyncVectorEnv of single-seat envs: the same observations, masks, rewards, ends."""
    kwargs = dict(opponents=["random"] * 3, rules=name, reward="transfers")
    ours = VectorEnv(3, **kwargs)
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: SingleSeatEnv(**kwargs) for _ in range(3)],
        autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP)
    assert ours.single_action_space.n == NUM_ACTIONS_WILD
    assert ours.single_observation_space["observation"].shape == OBS.shape
    ends = step_alike(ours, theirs, seed=9, rng=random.Random(name), steps=250)
    assert ends > 0


@pytest.mark.parametrize("name", ["hongzhong", "yibin"])
def test_an_illegal_index_plays_the_default_at_a_wild_table(name):
    """As test_envs': docs/rules.md §8's default, the engine's own timeout choice."""
    env = SingleSeatEnv(rules=name, opponents=["random"] * 3, seat=0)
    rng = random.Random(8)
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        done = bad_steps = 0
        while not done:
            game = env.game
            if rng.random() < 0.3:
                bad = rng.choice([-1, NUM_ACTIONS_WILD, *[
                    i for i in range(NUM_ACTIONS_WILD) if not obs["action_mask"][i]]])
                expected = xueliu.replay(game.record()).apply_timeout(0)
                before = len(game.record()["decisions"])
                obs, _, done, _, info = env.step(bad)
                assert info["illegal_action"]
                assert game.record()["decisions"][before] == [0, expected.id]
                bad_steps += 1
            else:
                obs, _, done, _, info = env.step(rng.choice(masked(obs["action_mask"])))
                assert not info["illegal_action"]
        assert bad_steps


def test_a_cmd_opponent_plays_a_wild_table_through_the_protocol():
    env = SingleSeatEnv(rules="hongzhong", seat=1,
                        opponents=[f"cmd:{sys.executable} {EXAMPLE_BOT}", "random", "greedy"])
    try:
        for seed in (1, 2):
            obs, _ = env.reset(seed=seed)
            done = False
            while not done:
                obs, _, done, _, info = env.step(masked(obs["action_mask"])[-1])
                assert not info["illegal_action"]
            decisions = env.game.record()["decisions"]
            assert any(d[0] == 2 and d[1] != "timeout" for d in decisions)  # the program's seat
            assert not any(d[1] == "timeout" for d in decisions)
    finally:
        env.close()


def test_the_wild_indices_are_illegal_at_a_plain_table():
    env = SingleSeatEnv(rules="xueliu", opponents=["random"] * 3)
    obs, _ = env.reset(seed=2)
    assert obs["action_mask"].shape == (NUM_ACTIONS,)
    obs, _, _, _, info = env.step(WILD_DISCARD)  # beyond the plain table's space
    assert info["illegal_action"]


def test_every_wild_preset_is_accepted_by_name_and_its_knobs_too():
    for name in WILD_PRESET_NAMES:
        env = pettingzoo_env(rules=name, render_mode="ansi")
        env.reset(seed=1)
        assert env.rules == Rules.preset(name)
        assert " wilds " in env.render()
    env = VectorEnv(2, rules="yibin", wild_kinds="benjin_plus", opponents=["random"] * 3)
    obs, _ = env.reset(seed=1)
    assert env.rules.wild_kinds == "benjin_plus"
    assert obs["observation"][:, AT["benjin"]].sum() == 2  # one 本金 per hand
    # a plain preset made wild by its knobs plays wild too
    env = SingleSeatEnv(rules="xuezhan", extra_wilds=4, opponents=["random"] * 3)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == OBS.shape and obs["action_mask"].shape == (203,)
    assert EXCHANGE_PICK == 140  # (the exchange picks keep their indices at every table)
