"""The environments: PettingZoo's and Gymnasium's own checkers, rewards that add up to the
settlement, joint decisions applied only when every answer is in, and illegal indices."""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import xueliu
from xueliu.envs import SingleSeatEnv, VectorEnv, parallel_env, pettingzoo_env
from xueliu.learn import EXCHANGE_PICK, NUM_ACTIONS

from .conftest import masked, step_alike

EXAMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"


@pytest.fixture(autouse=True)
def _quiet_checkers():
    # The checkers' advice for simple envs (Box observations, render fps) is not for a dict
    # observation with an action mask, which is what PettingZoo's own classic games use.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("reward", ["final", "transfers"])
def test_pettingzoo_api_tests(preset, reward):
    api_test(pettingzoo_env(rules=preset, reward=reward), num_cycles=500)
    parallel_api_test(parallel_env(rules=preset, reward=reward), num_cycles=500)


def test_pettingzoo_seed_tests(preset):
    seed_test(lambda: pettingzoo_env(rules=preset, reward="transfers"), num_cycles=200)
    parallel_seed_test(lambda: parallel_env(rules=preset), num_cycles=200)


@pytest.mark.parametrize("kwargs", [
    dict(opponents=["random"] * 3),
    dict(opponents=["greedy", "random", "autoplay"], rules="xuezhan", reward="transfers", seat=2),
    dict(opponents=["random"] * 3, encoder="oracle_v1"),
])
def test_gymnasium_check_env(kwargs):
    env = gymnasium.make("xueliu/SingleSeat-v0", **kwargs)
    check_env(env.unwrapped)
    assert isinstance(env.unwrapped.game, xueliu.GameState)


def test_gymnasium_make_also_finds_the_module_by_name():
    env = gymnasium.make("xueliu.envs:xueliu/SingleSeat-v0", opponents=["random"] * 3)
    obs, info = env.reset(seed=1)
    assert obs["observation"].shape == env.observation_space["observation"].shape


def _play_aec(env, seed: int, policy_seed: int):
    """Plays one hand with random masked actions; returns (cumulative reward per agent, info)."""
    rng = random.Random(policy_seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    left_early = set()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            if not env.unwrapped.game.is_over:  # pragma: no cover - never selected early
                left_early.add(agent)
            env.step(None)
            continue
        env.step(rng.choice(masked(obs["action_mask"])))
    return total, left_early


@pytest.mark.parametrize("reward", ["final", "transfers"])
def test_aec_rewards_add_up_to_the_settlement_net(preset, reward):
    env = pettingzoo_env(rules=preset, reward=reward)
    for seed in range(25):
        total, left_early = _play_aec(env, seed, seed)
        net = env.unwrapped.game.settlement().net
        assert [total[f"player_{q}"] for q in range(4)] == pytest.approx(net)
        assert not left_early


def test_aec_xuezhan_winners_are_terminated_when_they_leave():
    env = pettingzoo_env(rules="xuezhan", reward="transfers")
    rng = random.Random(3)
    seen = 0
    for seed in range(20):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            game = env.unwrapped.game
            if terminated:
                env.step(None)
                continue
            for w in game.settlement().wins:  # every winner has left and is terminated
                assert env.terminations[f"player_{w.seat}"]
                seen += 1
            assert not any(env.terminations[f"player_{q}"] for q in game.pending())
            env.step(rng.choice(masked(obs["action_mask"])))
    assert seen > 0


def test_aec_asks_joint_decisions_seat_by_seat_and_applies_them_together():
    env = pettingzoo_env(rules="xueliu")
    env.reset(seed=9)
    game = env.unwrapped.game
    assert game.phase == "exchange"
    events = len(game.events())
    for q in range(4):
        for pick in range(3):
            assert env.agent_selection == f"player_{q}"
            obs, *_ = env.last()
            assert masked(obs["action_mask"]) and all(
                EXCHANGE_PICK <= i < EXCHANGE_PICK + 27 for i in masked(obs["action_mask"]))
            # The other agents see an empty mask while it is not their turn.
            other = env.observe(f"player_{(q + 1) % 4}")
            assert not other["action_mask"].any()
            env.step(masked(obs["action_mask"])[0])
        if q < 3:
            assert game.phase == "exchange" and len(game.events()) == events
    assert game.phase == "void"  # applied together once the fourth seat's picks were in


def test_parallel_rewards_add_up_and_everyone_ends_together(preset):
    env = parallel_env(rules=preset, reward="transfers")
    rng = random.Random(1)
    for seed in range(20):
        obs, infos = env.reset(seed=seed)
        total = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            actions = {a: (rng.choice(masked(o["action_mask"])) if o["action_mask"].any()
                           else 0) for a, o in obs.items()}
            obs, rewards, terms, truncs, infos = env.step(actions)
            for a, r in rewards.items():
                total[a] += r
            assert len(set(terms.values())) == 1
        net = env.unwrapped.game.settlement().net
        assert [total[f"player_{q}"] for q in range(4)] == pytest.approx(net)


@pytest.mark.parametrize("reward", ["final", "transfers"])
def test_single_seat_rewards_add_up_to_the_learners_net(preset, reward):
    env = SingleSeatEnv(opponents=["random", "greedy", "random"], rules=preset, reward=reward)
    rng = random.Random(2)
    for episode in range(20):
        obs, info = env.reset(seed=episode) if episode % 2 else env.reset()
        total, done = 0.0, False
        while not done:
            obs, r, done, trunc, info = env.step(rng.choice(masked(obs["action_mask"])))
            total += r
            assert not info["illegal_action"] and not trunc
        game = env.unwrapped.game
        assert game.is_over and total == pytest.approx(game.settlement().net[info["seat"]])


def test_rewards_are_in_base_units():
    env = SingleSeatEnv(opponents=["random"] * 3, reward="transfers", base=5, room=2)
    obs, info = env.reset(seed=4)
    total, done = 0.0, False
    while not done:
        obs, r, done, _, info = env.step(masked(obs["action_mask"])[0])
        total += r
    assert total * 10 == env.game.settlement().net[info["seat"]]


def test_reset_with_a_seed_replays_the_same_hands():
    env = SingleSeatEnv(opponents=["greedy", "random", "random"])

    def run():
        env.reset(seed=42)
        rng = random.Random(0)
        trace = []
        for _ in range(3):  # three hands: the seed fixes the whole sequence
            obs, info = env.reset() if trace else env.reset(seed=42)
            done = False
            while not done:
                a = rng.choice(masked(obs["action_mask"]))
                obs, r, done, _, info = env.step(a)
                trace.append((a, r, obs["observation"].tobytes()))
        return trace
    assert run() == run()


def test_an_illegal_index_plays_the_default_and_is_flagged():
    env = SingleSeatEnv(opponents=["random"] * 3, seat=0)
    rng = random.Random(8)
    for seed in range(6):
        obs, info = env.reset(seed=seed)
        bad_steps = 0
        done = False
        while not done:
            game = env.game
            if rng.random() < 0.3:
                bad = rng.choice([-1, NUM_ACTIONS, "x", None, 2.5,
                                  *[i for i in range(NUM_ACTIONS) if not obs["action_mask"][i]]])
                # docs/rules.md §8's default for this decision, as the engine's own timeout takes it.
                twin = xueliu.replay(game.record())
                expected = twin.apply_timeout(0)
                before = len(game.record()["decisions"])
                obs, r, done, _, info = env.step(bad)
                assert info["illegal_action"]
                assert game.record()["decisions"][before] == [0, expected.id]
                bad_steps += 1
            else:
                obs, r, done, _, info = env.step(rng.choice(masked(obs["action_mask"])))
                assert not info["illegal_action"]
        assert bad_steps and game.is_over
        assert not any(d[1] == "timeout" for d in game.record()["decisions"])  # no timeouts


def test_vector_env_steps_to_the_same_results_as_single_envs_one_by_one():
    n = 3
    for mode in ("next_step", "same_step"):
        kwargs = dict(opponents=["random", "greedy", "random"], rules="xuezhan",
                      reward="transfers")
        ours = VectorEnv(n, autoreset_mode=mode, **kwargs)
        theirs = gymnasium.vector.SyncVectorEnv(
            [lambda: SingleSeatEnv(**kwargs) for _ in range(n)],
            autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP if mode == "next_step"
            else gymnasium.vector.AutoresetMode.SAME_STEP)

        def also(step, ta, ia, ib, mode=mode):
            assert np.array_equal(ia["illegal_action"], ib["illegal_action"])
            if mode == "same_step" and ta.any():
                for i in np.flatnonzero(ta):
                    assert np.array_equal(ia["final_obs"][i]["observation"],
                                          ib["final_obs"][i]["observation"])

        ends = step_alike(ours, theirs, seed=10, rng=random.Random(4), steps=400, also=also)
        assert ends >= 2 * n
        ours.close()
        theirs.close()


def test_vector_env_copies_observations_by_default_and_reuses_one_buffer_on_request():
    # The default (Gymnasium's): each step new arrays, so a rollout may keep every one of them.
    env = VectorEnv(2, opponents=["random"] * 3)
    assert env.copy is True
    obs, _ = env.reset(seed=1)
    kept_x, kept_m = obs["observation"].copy(), obs["action_mask"].copy()
    obs2, *_ = env.step([masked(mm)[0] for mm in obs["action_mask"]])
    assert obs2["observation"] is not obs["observation"]
    assert obs2["action_mask"] is not obs["action_mask"]
    assert np.array_equal(obs["observation"], kept_x)  # untouched by the step
    assert np.array_equal(obs["action_mask"], kept_m)
    # The fast option: the same two buffers every step, overwritten in place.
    fast = VectorEnv(2, opponents=["random"] * 3, copy=False)
    obs, _ = fast.reset(seed=1)
    x, m = obs["observation"], obs["action_mask"]
    obs2, *_ = fast.step([masked(mm)[0] for mm in m])
    assert obs2["observation"] is x and obs2["action_mask"] is m and m.dtype == np.int8


def test_a_cmd_opponent_plays_through_the_protocol():
    env = SingleSeatEnv(opponents=[f"cmd:{sys.executable} {EXAMPLE_BOT}", "random", "random"],
                        seat=1)
    try:
        for seed in (1, 2):
            obs, info = env.reset(seed=seed)
            done = False
            while not done:
                obs, r, done, _, info = env.step(masked(obs["action_mask"])[-1])
            decisions = env.game.record()["decisions"]
            assert any(d[0] == 2 and d[1] != "timeout" for d in decisions)  # the program's seat
            assert not any(d[1] == "timeout" for d in decisions)
    finally:
        env.close()


@pytest.mark.parametrize("make, error", [
    (lambda: pettingzoo_env(reward="won"), ValueError),
    (lambda: pettingzoo_env(rules="majiang"), ValueError),
    (lambda: pettingzoo_env(rules=3), TypeError),
    (lambda: pettingzoo_env(no_such_knob=1), ValueError),
    (lambda: parallel_env(render_mode="human"), ValueError),
    (lambda: SingleSeatEnv(opponents=["random"] * 2), ValueError),
    (lambda: SingleSeatEnv(opponents=["nobody", "random", "random"]), ValueError),
    (lambda: SingleSeatEnv(opponents="random"), TypeError),
    (lambda: SingleSeatEnv(seat=4), ValueError),
    (lambda: VectorEnv(0), ValueError),
    (lambda: VectorEnv(2, autoreset_mode="disabled"), ValueError),
    (lambda: SingleSeatEnv(player_multipliers={"allowed": list(range(1, 10)), "default": 1}),
     ValueError),
])
def test_bad_environment_arguments_are_refused(make, error):
    with pytest.raises(error):
        make()


def test_knobs_reach_the_rules():
    env = pettingzoo_env(rules="xuezhan", menqing=True, reward="transfers")
    assert env.unwrapped.rules == xueliu.Rules.preset("xuezhan").replace(menqing=True)
    env.reset(seed=0)
    assert env.unwrapped.game.rules.menqing


def test_ansi_render_shows_the_table():
    for env in (pettingzoo_env(render_mode="ansi"), parallel_env(render_mode="ansi"),
                SingleSeatEnv(opponents=["random"] * 3, render_mode="ansi")):
        env.reset(seed=1)
        text = env.render()
        assert text.startswith("phase exchange · wall 55") and text.count("\nseat ") == 4
    assert pettingzoo_env().render() is None
