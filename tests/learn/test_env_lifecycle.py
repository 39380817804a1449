"""What an RL user meets at the edges of an episode (issue 16): the mask of a finished hand keeps a
masked softmax finite, opponents given as bot objects replay with the seed (Gymnasium's
``check_env``), each vector environment plays its own bots, and ``gymnasium.make_vec`` builds
xueliu's VectorEnv."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import xueliu
from xueliu.bots import ExpertBot, ExternalBot, GreedyBot, RandomBot
from xueliu.envs import SingleSeatEnv, VectorEnv
from xueliu.learn import HAND_OVER_ACTION, NUM_ACTIONS

from .conftest import masked


@pytest.fixture(autouse=True)
def _quiet_checkers():
    with warnings.catch_warnings():  # the checkers' advice for Box observations (see test_envs)
        warnings.simplefilter("ignore", UserWarning)
        yield


def masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The usual PPO head: -inf where the mask forbids, then a softmax per row."""
    z = np.where(masks.astype(bool), logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def test_an_all_false_mask_is_what_gives_nan():
    with np.errstate(invalid="ignore"):
        p = masked_softmax(np.zeros((1, NUM_ACTIONS)), np.zeros((1, NUM_ACTIONS), np.int8))
    assert np.isnan(p).all()  # why a finished hand's mask must allow something


def test_the_hand_over_action_is_pass():
    assert xueliu.Action.from_id(HAND_OVER_ACTION).kind == "pass"


def test_a_masked_softmax_policy_plays_1000_episodes_without_a_nan():
    n = 32
    envs = VectorEnv(n, opponents=["random"] * 3, autoreset_mode="next_step", copy=False)
    obs, _ = envs.reset(seed=11)
    rng = np.random.default_rng(0)
    episodes = steps = finished_masks = 0
    ended = np.zeros(n, bool)
    while episodes < 1000:
        masks = obs["action_mask"]
        assert (masks.sum(axis=1) >= 1).all()
        probs = masked_softmax(rng.normal(size=(n, NUM_ACTIONS)), masks)
        assert not np.isnan(probs).any()
        assert np.allclose(probs.sum(axis=1), 1.0) and (probs[masks == 0] == 0).all()
        for i in np.flatnonzero(ended):  # the observation returned with terminated=True
            assert masked(masks[i]) == [HAND_OVER_ACTION]
            finished_masks += 1
        actions = [rng.choice(NUM_ACTIONS, p=p) for p in probs]
        obs, rewards, terminations, truncations, info = envs.step(actions)
        assert not np.isnan(rewards).any()
        ended = terminations
        episodes += int(terminations.sum())
        steps += 1
    assert finished_masks >= 1000 - n
    envs.close()


def test_single_seat_and_same_step_final_observations_name_pass_too():
    env = SingleSeatEnv(opponents=["random"] * 3)
    obs, _ = env.reset(seed=2)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(masked(obs["action_mask"])[0])
    assert masked(obs["action_mask"]) == [HAND_OVER_ACTION]
    assert masked(env.action_masks()) == [HAND_OVER_ACTION]
    with pytest.raises(ValueError, match="hand is over"):  # the episode is over all the same
        env.step(HAND_OVER_ACTION)
    envs = VectorEnv(2, opponents=["random"] * 3, autoreset_mode="same_step")
    obs, _ = envs.reset(seed=3)
    for _ in range(400):
        obs, _, terms, _, info = envs.step([masked(m)[0] for m in obs["action_mask"]])
        if terms.any():
            i = int(np.flatnonzero(terms)[0])
            assert masked(info["final_obs"][i]["action_mask"]) == [HAND_OVER_ACTION]
            assert masked(obs["action_mask"][i]) != [HAND_OVER_ACTION]  # the next hand's
            break
    else:  # pragma: no cover
        raise AssertionError("no hand ended in 400 steps")


@pytest.mark.parametrize("opponents", [
    lambda: [RandomBot(seed=k) for k in range(3)],
    lambda: [RandomBot(), ExpertBot(), GreedyBot()],
])
def test_check_env_passes_with_bot_objects_as_opponents(opponents):
    env = gymnasium.make("xueliu/SingleSeat-v0", opponents=opponents())
    check_env(env.unwrapped)


def _hand(env, seed):
    obs, _ = env.reset(seed=seed)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(masked(obs["action_mask"])[-1])
    return env.unwrapped.game.record()["decisions"]


def test_a_seeded_reset_replays_the_whole_hand_with_bot_objects():
    env = SingleSeatEnv(opponents=[RandomBot(), RandomBot(), RandomBot()], rules="xuezhan")
    first = _hand(env, 5)
    _hand(env, 6)  # the bots' generators move on in between
    assert _hand(env, 5) == first
    # and a bot object plays as the same bot given by name, which is made with the same seed
    named = SingleSeatEnv(opponents=["random"] * 3, rules="xuezhan")
    assert _hand(named, 5) == first


def test_each_vector_environment_plays_its_own_bots_as_a_single_env_would():
    n = 3
    bots = [RandomBot(), GreedyBot(), RandomBot()]
    ours = VectorEnv(n, opponents=bots, rules="xuezhan")
    assert ours._plays[0]._specs[0] is bots[0]  # environment 0 plays the objects given
    assert ours._plays[1]._specs[0] is not bots[0]  # the others their copies
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: SingleSeatEnv(opponents=[RandomBot(), GreedyBot(), RandomBot()],
                               rules="xuezhan") for _ in range(n)])
    a, _ = ours.reset(seed=40)
    b, _ = theirs.reset(seed=40)
    rng = np.random.default_rng(1)
    for _ in range(150):
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        actions = [int(rng.choice(masked(m))) for m in a["action_mask"]]
        a, ra, ta, _, _ = ours.step(actions)
        b, rb, tb, _, _ = theirs.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)


def test_an_external_bot_object_cannot_play_in_several_vector_environments():
    bot = ExternalBot("true")
    with pytest.raises(ValueError, match="cmd:COMMAND"):
        VectorEnv(2, opponents=[bot, "random", "random"])
    bot.close()


@pytest.mark.parametrize("mode", ["vector_entry_point", None])
def test_make_vec_returns_xuelius_vector_env(mode):
    envs = gymnasium.make_vec("xueliu/SingleSeat-v0", num_envs=4, vectorization_mode=mode,
                              opponents=["random"] * 3, rules="xuezhan")
    assert isinstance(envs, VectorEnv) and envs.num_envs == 4
    assert envs.rules == xueliu.Rules.preset("xuezhan")
    direct = VectorEnv(4, opponents=["random"] * 3, rules="xuezhan")
    a, _ = envs.reset(seed=8)
    b, _ = direct.reset(seed=8)
    for _ in range(20):
        assert np.array_equal(a["observation"], b["observation"])
        actions = [masked(m)[0] for m in a["action_mask"]]
        a, *_ = envs.step(actions)
        b, *_ = direct.step(actions)
    sync = gymnasium.make_vec("xueliu/SingleSeat-v0", num_envs=2, vectorization_mode="sync",
                              opponents=["random"] * 3)
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)  # still there when asked for
