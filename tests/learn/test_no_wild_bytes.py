"""Tables without wild tiles encode byte for byte as before the environments learned wild tiles
(docs/rules.md §12; docs/learning.md, "Wild tiles").

The digests below were computed on main at 2e57caa, the commit before the learning environments
played wild tiles: obs_v1 (both paths), oracle_v1 and the action masks of every seat at every
decision of random hands of every preset without wilds, and whole vector-environment rollouts of
each (observations, masks, rewards). A change that moves one value at a table without wilds fails
here. Never update them to make this pass.
"""

from __future__ import annotations

import hashlib
import random
from typing import Dict, List

import numpy as np
import pytest

import xueliu
from xueliu.envs import VectorEnv
from xueliu.learn import encoder, masks_from_states
from xueliu.rules import PRESETS

OBS = encoder("obs_v1")
ORACLE = encoder("oracle_v1")

# preset -> (obs_v1 from observation dicts, obs_v1 batch of states, oracle_v1, masks, vector env)
GOLDEN: Dict[str, tuple] = {
    "xueliu": ('e3857a8b04c7985fdc68e171484bcc54', 'e3857a8b04c7985fdc68e171484bcc54', 'ac1c49ae064cae01b8abe3cbd31f060f', '4f2c97fec70d5985922efeacb9cc9849', '1e613fe709979fe34a4e12eaba7557b7'),
    "xuezhan": ('ff7006d667ce27e77fa4a3fad9354857', 'ff7006d667ce27e77fa4a3fad9354857', 'a23776c15f83d55f808aecc2672e44b1', '9615f976ec33962305c11afee02096fd', '4107813906f6f979e2e23ce5895cead1'),
    "sanren_liangfang": ('2a10e0ee95adc166f72b70e789204978', '2a10e0ee95adc166f72b70e789204978', 'e3d0d872cd1332c4551cd673a7d70e6a', '5c906a407a86438db5456ff1db772957', '1bd3601d4351f247d7011588d7895e6d'),
    "sanren_sanfang": ('b8c2a8c349743c1024008f9a682ff045', 'b8c2a8c349743c1024008f9a682ff045', '395675eec0abdb4bbc3086d6e31d86b1', '330b7729b141f4331108aac87715c0e2', 'eb43c240b5def116ea692e6d9e3d8da7'),
    "siren_liangfang": ('67514a22cf5bd005b73aa347ceecaac2', '67514a22cf5bd005b73aa347ceecaac2', '818d2a630adf51f81b2473de52af938f', 'fc936dc40fd561851ed991e7a05d5fca', '2adad40e85ce10d60418e8f62815afa4'),
    "erren_yifang": ('ad8d522083565ea42f589c521ec23a32', 'ad8d522083565ea42f589c521ec23a32', 'ce5853a3067d1b0d9c854f0bce563946', '9fe4ea3e972758f532a5ac9cefc23bfc', 'a83be6c8f1b2c281166005c920abcdbf'),
    "daodaohu": ('2ca78b9d412d0a42a54934aa9f9443b6', '2ca78b9d412d0a42a54934aa9f9443b6', '359fd066e55abcb2f7968ff253b84fb6', '4918b2ca789007e009488f7918d9bc02', '6e8ba0cef4477ec1f9688947e2fd4256'),
}


def _tensor_digests(name: str, games: int = 20) -> List[str]:
    hashes = [hashlib.sha256() for _ in range(4)]
    rng = random.Random(f"no-wild-golden:{name}")
    rules = xueliu.Rules.preset(name)
    seats = list(range(rules.players))
    for g in range(games):
        state = xueliu.new_game(rules, seed=g, dealer=g % rules.players)
        while not state.is_over:
            n = len(seats)
            for q in seats:
                hashes[0].update(OBS.encode(state.observation(q)).astype(np.uint8).tobytes())
            hashes[1].update(OBS.encode_batch([state] * n, seats).astype(np.uint8).tobytes())
            hashes[2].update(ORACLE.encode_batch([state] * n, seats).astype(np.uint8).tobytes())
            hashes[3].update(masks_from_states([state] * n, seats).tobytes())
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})
    return [h.hexdigest()[:32] for h in hashes]


def _vector_digest(name: str, steps: int = 600) -> str:
    h = hashlib.sha256()
    rules = xueliu.Rules.preset(name)
    envs = VectorEnv(2, rules=rules, opponents=["random"] * (rules.players - 1),
                     reward="transfers")
    obs, _ = envs.reset(seed=21)
    rng = np.random.default_rng(5)
    for _ in range(steps):
        h.update(obs["observation"].astype(np.uint8).tobytes())
        h.update(obs["action_mask"].tobytes())
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, rewards, terms, _, _ = envs.step(actions)
        h.update(np.asarray(rewards, np.float64).tobytes() + terms.tobytes())
    return h.hexdigest()[:32]


def digests(name: str) -> tuple:
    return (*_tensor_digests(name), _vector_digest(name))


def test_every_preset_without_wilds_is_covered():
    assert sorted(GOLDEN) == sorted(PRESETS)


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_table_without_wilds_encodes_byte_for_byte_as_before_wild_tiles(name: str) -> None:
    assert digests(name) == GOLDEN[name]
