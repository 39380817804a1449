"""The two private helpers of ``xueliu/hand.py`` (at e2892b9) the frozen engine calls, copied so
that the baseline does not depend on hand.py's private names."""

from __future__ import annotations

from typing import Dict, Tuple

from xueliu import _core
from xueliu.hand import FanResult
from xueliu.patterns import ADDITIVE_NAMES, EXTRA_IDS, PATTERN_IDS, PATTERN_NAMES

__all__ = ["FanResult", "_evaluate_flags", "_fan_result"]

_SELF_DRAW = _core.SELF_DRAW
_KONG_REPLACEMENT = _core.KONG_REPLACEMENT
_AFTER_KONG_DISCARD = _core.AFTER_KONG_DISCARD
_ROBBED_KONG = _core.ROBBED_KONG
_LAST_TILE = _core.LAST_TILE
_HEAVENLY = _core.HEAVENLY
_EARTHLY = _core.EARTHLY


def _evaluate_flags(self_draw: object, kong_replacement: object, after_kong_discard: object,
                    robbed_kong: object, last_tile: object, heavenly: object,
                    earthly: object) -> int:
    return ((_SELF_DRAW if self_draw else 0) | (_KONG_REPLACEMENT if kong_replacement else 0)
            | (_AFTER_KONG_DISCARD if after_kong_discard else 0)
            | (_ROBBED_KONG if robbed_kong else 0) | (_LAST_TILE if last_tile else 0)
            | (_HEAVENLY if heavenly else 0) | (_EARTHLY if earthly else 0))


_EXTRA_NAME_LIST = tuple(ADDITIVE_NAMES[e] for e in EXTRA_IDS)
_EXTRAS_OF = tuple(
    tuple(e for i, e in enumerate(EXTRA_IDS) if mask >> i & 1) for mask in range(1 << len(EXTRA_IDS))
)
_EXTRA_NAMES_OF = tuple(
    tuple(n for i, n in enumerate(_EXTRA_NAME_LIST) if mask >> i & 1)
    for mask in range(1 << len(EXTRA_IDS))
)
_PATTERN_NAME_LIST = tuple(PATTERN_NAMES[p] for p in PATTERN_IDS)

_FAN_CACHE: Dict[Tuple[int, ...], FanResult] = {}


def _fan_result(t: Tuple[int, ...]) -> FanResult:
    r = _FAN_CACHE.get(t)
    if r is None:
        fan, mult, code, base_fan, gen, mask = t
        r = FanResult(
            fan, mult, PATTERN_IDS[code], base_fan, gen,
            _EXTRAS_OF[mask], _PATTERN_NAME_LIST[code], _EXTRA_NAMES_OF[mask],
        )
        if len(_FAN_CACHE) >= 65536:
            _FAN_CACHE.clear()
        _FAN_CACHE[t] = r
    return r
