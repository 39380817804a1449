"""Every learning environment's last observation of a hand allows exactly pass (docs/learning.md,
"The mask of a finished hand allows exactly pass"), so a masked softmax over it — random logits,
-inf where the mask is 0 — stays finite over 1,000 hands of random legal play in each
environment: 50 of 血流 and 50 of 血战 at the four-seat table and 900 at the two-seat table
(erren_yifang, where a hand is short: the same code ends every hand), in the default run; 1,000
of each preset with ``--soak``. Measured for 1,000 four-seat hands on a loaded two-core machine:
AEC about 30 s, parallel 80 s (it encodes every agent's observation every step), SingleSeat-v0
13 s, the vector env 10 s; a two-seat hand costs about a fifth."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from xueliu.envs import SingleSeatEnv, VectorEnv, parallel_env, pettingzoo_env
from xueliu.learn import HAND_OVER_ACTION, NUM_ACTIONS
from xueliu.rules import Rules

PASS_ONLY = [HAND_OVER_ACTION]


# (rules, hands in the default run) of each environment's 1,000.
TABLES = [("xueliu", 50), ("xuezhan", 50), ("erren_yifang", 900)]


@pytest.fixture
def episodes(request: pytest.FixtureRequest, rules: str) -> int:
    return 1000 if request.config.getoption("--soak") else dict(TABLES)[rules]


def _others(rules: str) -> list:
    """Random opponents in every other seat of the table."""
    return ["random"] * (Rules.preset(rules).shape.players - 1)


@pytest.fixture(autouse=True)
def _quiet_checkers():
    with warnings.catch_warnings():  # the checkers' advice for Box observations (see test_envs)
        warnings.simplefilter("ignore", UserWarning)
        yield


def _policy(mask: np.ndarray, rng: np.random.Generator) -> int:
    """The usual PPO head on random logits: -inf where the mask forbids, a softmax, a draw. The
    softmax must be finite (an all-zero mask makes it NaN)."""
    z = np.where(np.asarray(mask).astype(bool), rng.normal(size=NUM_ACTIONS), -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(z - z.max())
        p = e / e.sum()
    assert np.isfinite(p).all(), f"a masked softmax over {np.flatnonzero(mask).tolist()}"
    return int(rng.choice(NUM_ACTIONS, p=p))


def _allowed(mask: np.ndarray) -> list:
    return np.flatnonzero(mask).tolist()


@pytest.mark.parametrize("rules", [r for r, _ in TABLES])
def test_pettingzoo_aec_last_observations_allow_exactly_pass(rules, episodes):
    # xuezhan: a winner is terminated when it leaves play, mid-hand, and keeps that observation
    env = pettingzoo_env(rules=rules)
    rng = np.random.default_rng(1)
    ended = 0
    for episode in range(episodes):
        env.reset(seed=episode)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = _policy(obs["action_mask"], rng)
            if terminated or truncated:
                assert _allowed(obs["action_mask"]) == PASS_ONLY
                ended += 1
                # its last step: None, as PettingZoo's agents take it, or the pass its mask offers
                action = None if ended % 2 else action
            env.step(action)
    assert ended == episodes * Rules.preset(rules).shape.players


@pytest.mark.parametrize("rules", [r for r, _ in TABLES])
def test_pettingzoo_parallel_last_observations_allow_exactly_pass(rules, episodes):
    env = parallel_env(rules=rules)
    rng = np.random.default_rng(2)
    ended = 0
    for episode in range(episodes):
        observations, _ = env.reset(seed=episode)
        while env.agents:
            actions = {a: _policy(o["action_mask"], rng) for a, o in observations.items()
                       if o["action_mask"].any()}  # the agents asked to decide now
            observations, _, terminations, _, _ = env.step(actions)
            if any(terminations.values()):
                assert all(terminations.values()) and not env.agents
                for o in observations.values():
                    assert _allowed(o["action_mask"]) == PASS_ONLY
                    _policy(o["action_mask"], rng)
                ended += 1
    assert ended == episodes


@pytest.mark.parametrize("rules", [r for r, _ in TABLES])
def test_single_seat_last_observations_allow_exactly_pass(rules, episodes):
    env = SingleSeatEnv(opponents=_others(rules), rules=rules)
    rng = np.random.default_rng(3)
    for episode in range(episodes):
        obs, _ = env.reset(seed=episode)
        terminated = False
        while not terminated:
            obs, _, terminated, truncated, _ = env.step(_policy(obs["action_mask"], rng))
            assert not truncated
        assert _allowed(obs["action_mask"]) == PASS_ONLY
        _policy(obs["action_mask"], rng)


@pytest.mark.parametrize("rules", [r for r, _ in TABLES])
def test_vector_same_step_final_observations_allow_exactly_pass(rules, episodes):
    n = 16
    envs = VectorEnv(n, opponents=_others(rules), rules=rules, autoreset_mode="same_step")
    obs, _ = envs.reset(seed=4)
    rng = np.random.default_rng(4)
    ended = 0
    while ended < episodes:
        obs, _, terms, _, info = envs.step([_policy(m, rng) for m in obs["action_mask"]])
        for i in np.flatnonzero(terms):
            final = info["final_obs"][i]["action_mask"]
            assert _allowed(final) == PASS_ONLY
            _policy(final, rng)
            ended += 1
    envs.close()
