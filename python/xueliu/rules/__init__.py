"""Rule configuration (docs/rules.md §3–§12): one frozen, validated :class:`Rules` per table.

>>> r = Rules.preset("xuezhan").replace(menqing=True, fan_table={"qingyise": 4})
>>> r.mode, r.fan_table["qingyise"], r.fan_table["pinghu"]
('xuezhan', 4, 1)
>>> import json
>>> Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r
True
>>> Rules.preset("siren_liangfang").shape.wall_tiles
72

Where things live: :mod:`.knobs` the knob table (``Rules``, one docstring line per knob),
:mod:`.values` the check of each value, :mod:`.consistency` the checks across knobs,
:mod:`.wilds` the wild-tile knobs' checks and answers (§12), :mod:`.presets` the presets with
their sources, :mod:`.shape` the table ``Shape`` derived from a ``Rules`` (seats, suits and kinds
in play, wall, deal plan, sets needed), :mod:`.frozen_map` the read-only mapping rule values use.
"""

from .frozen_map import FrozenMap
from .knobs import KNOBS, SECTION11_KNOBS, SECTION12_KNOBS, Rules
from .presets import PRESET_NAMES, PRESET_SOURCES, PRESETS, WILD_PRESET_NAMES, WILD_PRESETS
from .shape import Shape

__all__ = ["Rules", "FrozenMap", "KNOBS", "SECTION11_KNOBS", "SECTION12_KNOBS", "PRESETS",
           "PRESET_NAMES", "PRESET_SOURCES", "WILD_PRESETS", "WILD_PRESET_NAMES", "Shape"]
