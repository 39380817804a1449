"""Standard environments over the engine: PettingZoo (AEC and parallel), Gymnasium (one learning
seat against bots, registered as ``"xueliu/SingleSeat-v0"``), and a batched vector environment.

Needs the ``learn`` extra: ``pip install ".[learn]"`` in the clone (gymnasium, pettingzoo).
Importing this module registers the Gymnasium id, so ``gymnasium.make("xueliu/SingleSeat-v0", ...)`` works after
``import xueliu.envs`` (or as ``gymnasium.make("xueliu.envs:xueliu/SingleSeat-v0", ...)``), and
:class:`VectorEnv` as its vector entry point: ``gymnasium.make_vec("xueliu/SingleSeat-v0",
num_envs=n, vectorization_mode="vector_entry_point", ...)`` (``make_vec``'s default mode then)
returns a :class:`VectorEnv`; ``vectorization_mode="sync"`` still gives Gymnasium's
``SyncVectorEnv`` of single environments.

>>> from xueliu.envs import VectorEnv, parallel_env, pettingzoo_env
>>> env = pettingzoo_env(rules="xueliu", reward="transfers")

Actions, masks and observations are those of :mod:`xueliu.learn`; docs/learning.md has the
tables.
"""

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the installed extras
    raise ImportError("xueliu.envs needs the learn extra: pip install '.[learn]' in the clone "
                      f"({e})") from e

from .aec import XueliuAECEnv, pettingzoo_env
from .parallel import XueliuParallelEnv, parallel_env
from .single_seat import SingleSeatEnv
from .vector import VectorEnv

__all__ = ["pettingzoo_env", "parallel_env", "SingleSeatEnv", "VectorEnv", "XueliuAECEnv",
           "XueliuParallelEnv", "ENV_ID"]

ENV_ID = "xueliu/SingleSeat-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="xueliu.envs.single_seat:SingleSeatEnv",
                       vector_entry_point="xueliu.envs.vector:VectorEnv",
                       disable_env_checker=False)
