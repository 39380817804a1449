"""The default table's tensors are byte for byte those of main before issue 17 (commit afcdeb7).

obs_v1 (both paths), oracle_v1 and the action masks of every seat at every decision of twenty
random hands per rule set, hashed. The digests were computed on main at afcdeb7, before any table
shape other than four seats, three suits and 13 tiles was playable: a change that moves a single
value at the default shape (and so breaks trained models such as
python/xueliu/bots/weights/neural_v1.npz) fails here. Never update them to make this pass.
"""

from __future__ import annotations

import hashlib
import random
from typing import List, Union

import numpy as np
import pytest

import xueliu
from xueliu.learn import encoder, masks_from_states

OBS = encoder("obs_v1")
ORACLE = encoder("oracle_v1")
SEATS = [0, 1, 2, 3]

# rule set -> (obs_v1 from observation dicts, obs_v1 native batch, oracle_v1, masks)
GOLDEN = {
    "xueliu": ("f0e92bf6f0e0ad1e5a7656a2b0cc8235", "f0e92bf6f0e0ad1e5a7656a2b0cc8235",
               "00fa97f5404204a29c7f5e4877d95093", "2adc8073c1ed3a5a722056c9ea21a946"),
    "xuezhan": ("c4061a53971170f42ee0a58979fe1c12", "c4061a53971170f42ee0a58979fe1c12",
                "7f23e1e58e7e3ceca16937eb656eba0c", "7f197de090d0206946b20f4723578eb1"),
    "xueliu_mult": ("b968b4f4ecba751d7657f836651a2962", "b968b4f4ecba751d7657f836651a2962",
                    "4f10fe68deba1069238277e2937c53c3", "bd47ef8bd0d7a469abdcacd92eb9acc3"),
}


def _rules(name: str) -> Union[str, xueliu.Rules]:
    if name == "xueliu_mult":  # player multipliers (选倍) on: the multiplier planes and slots
        return xueliu.Rules.preset("xueliu").replace(
            player_multipliers={"allowed": [1, 2, 4], "default": 1})
    return name


def _digests(name: str, games: int = 20) -> List[str]:
    hashes = [hashlib.sha256() for _ in range(4)]
    rng = random.Random(f"golden:{name}")
    for g in range(games):
        state = xueliu.new_game(_rules(name), seed=g, dealer=g % 4)
        while not state.is_over:
            for q in SEATS:
                hashes[0].update(OBS.encode(state.observation(q)).astype(np.uint8).tobytes())
            hashes[1].update(OBS.encode_batch([state] * 4, SEATS).astype(np.uint8).tobytes())
            hashes[2].update(ORACLE.encode_batch([state] * 4, SEATS).astype(np.uint8).tobytes())
            hashes[3].update(masks_from_states([state] * 4, SEATS).tobytes())
            state.step({q: rng.choice(state.legal_actions(q)) for q in state.pending()})
    return [h.hexdigest()[:32] for h in hashes]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_default_table_encodes_byte_for_byte_as_before_table_shapes(name: str) -> None:
    assert tuple(_digests(name)) == GOLDEN[name]
