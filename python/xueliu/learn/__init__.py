"""Learning interfaces: a fixed action space with masks, and tensor encoders of a seat's view.

>>> import xueliu
>>> from xueliu.learn import NUM_ACTIONS, action_mask, encoder, to_action
>>> state = xueliu.new_game("xueliu", seed=1)
>>> encoder("obs_v1").encode(state, 0).shape
(92, 27)
>>> int(action_mask(state, 0).sum()) > 0, NUM_ACTIONS
(True, 175)

Plain numpy: nothing here imports gymnasium or pettingzoo (the environments are
:mod:`xueliu.envs`). docs/learning.md has the action table and the channel tables.
"""

from .actions import (
    EXCHANGE_PICK, HAND_OVER_ACTION, MULTIPLIER_SLOT, MULTIPLIER_SLOTS, NUM_ACTIONS,
    NUM_ACTIONS_WILD, SWAP_BACK_SLOT, WILD_DISCARD, action_mask, describe_index, hand_over_mask,
    mask_from_observation, masks_from_observations, masks_from_states, num_actions, to_action,
)
from .encoders import ENCODERS, Encoder, encoder

__all__ = [
    "NUM_ACTIONS", "NUM_ACTIONS_WILD", "EXCHANGE_PICK", "MULTIPLIER_SLOT", "MULTIPLIER_SLOTS",
    "WILD_DISCARD", "SWAP_BACK_SLOT", "HAND_OVER_ACTION", "num_actions", "hand_over_mask",
    "action_mask", "to_action", "mask_from_observation", "masks_from_observations",
    "masks_from_states", "describe_index", "Encoder", "encoder", "ENCODERS",
]
