"""Value checks of single knobs: each takes ``(knob, value)`` and returns the normalised value or
raises ``ValueError`` naming the knob, the bad value and what was expected. Checks that involve
several knobs at once live in :mod:`xueliu.rules.consistency`."""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any, Callable, Optional, Union

from ..patterns import DEFAULT_FAN_TABLE, PATTERN_IDS
from .frozen_map import FrozenMap

__all__ = [
    "MAX_TABLE_FAN", "STANDARD_FAN_TABLE", "SUIT_LETTERS", "bad", "boolean", "enum", "one_of_ints",
    "int_at_least", "max_fan", "base", "post_win_kongs", "multipliers", "fan_table",
    "player_multipliers", "stacking", "call_transfer", "suits",
]

# The largest fan_table value (the native core's limit too).
MAX_TABLE_FAN = 1000

STANDARD_FAN_TABLE: FrozenMap[str, int] = FrozenMap(DEFAULT_FAN_TABLE)
"""The docs/rules.md §6 table (and §11.3's two 将 patterns) as the default ``fan_table``."""

SUIT_LETTERS = ("m", "p", "s")


def bad(knob: str, value: Any, expected: str) -> ValueError:
    return ValueError(f"bad value for knob {knob!r}: {value!r} (expected {expected})")


def _is_int(v: Any) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def boolean(knob: str, v: Any) -> bool:
    if type(v) is not bool:
        raise bad(knob, v, "True or False")
    return v


def enum(*choices: str) -> Callable[[str, Any], str]:
    def check(knob: str, v: Any) -> str:
        if not isinstance(v, str) or v not in choices:
            raise bad(knob, v, "one of " + ", ".join(repr(c) for c in choices))
        return v

    return check


def one_of_ints(*choices: int) -> Callable[[str, Any], int]:
    def check(knob: str, v: Any) -> int:
        if not _is_int(v) or v not in choices:
            raise bad(knob, v, "one of " + ", ".join(map(str, choices)))
        return int(v)

    return check


def int_at_least(lo: int) -> Callable[[str, Any], int]:
    def check(knob: str, v: Any) -> int:
        if not _is_int(v) or v < lo:
            raise bad(knob, v, f"an int >= {lo}")
        return int(v)

    return check


def max_fan(knob: str, v: Any) -> Optional[int]:
    if v is None:
        return None
    if not _is_int(v) or v < 1:
        raise bad(knob, v, "None or an int >= 1")
    return int(v)


def base(knob: str, v: Any) -> Union[int, str]:
    if isinstance(v, str) and v == "auto":
        return v
    if not _is_int(v) or v < 1:
        raise bad(knob, v, "an int >= 1 or 'auto'")
    return int(v)


def _sequence(v: Any) -> bool:
    return isinstance(v, (list, tuple))


_KONG_KINDS = ("concealed", "direct", "added")


def post_win_kongs(knob: str, v: Any) -> frozenset[str]:
    if not isinstance(v, (set, frozenset, list, tuple)):
        raise bad(knob, v, "a set of 'concealed', 'direct', 'added'")
    for m in v:
        if not isinstance(m, str) or m not in _KONG_KINDS:
            raise ValueError(
                f"bad value for knob {knob!r}: member {m!r} of {v!r}"
                " (expected a subset of 'concealed', 'direct', 'added')"
            )
    return frozenset(v)


def multipliers(knob: str, v: Any) -> Optional[tuple[int, ...]]:
    if v is None:
        return None
    if not _sequence(v) or not v:
        raise bad(knob, v, "None or a non-empty list of ints >= 0 (entry i = multiplier of fan i+1)")
    for i, m in enumerate(v):
        if not _is_int(m) or not 0 <= m < 2**63:
            raise ValueError(
                f"bad value for knob {knob!r}: entry {i} is {m!r} (expected an int >= 0)"
            )
    return tuple(int(m) for m in v)


def fan_table(knob: str, v: Any) -> FrozenMap[str, int]:
    if v is None:
        return STANDARD_FAN_TABLE
    if not isinstance(v, Mapping):
        raise bad(knob, v, "a mapping {pattern_id: fan}")
    for pid, fan in v.items():
        if pid not in DEFAULT_FAN_TABLE:
            raise ValueError(
                f"bad value for knob {knob!r}: unknown pattern id {pid!r}"
                f" (expected one of {', '.join(PATTERN_IDS)})"
            )
        if not _is_int(fan) or not 1 <= fan <= MAX_TABLE_FAN:
            raise ValueError(
                f"bad value for knob {knob!r}: fan {fan!r} for {pid!r}"
                f" (expected an int 1..{MAX_TABLE_FAN})"
            )
    merged = dict(DEFAULT_FAN_TABLE)
    merged.update((pid, int(fan)) for pid, fan in v.items())
    if merged == DEFAULT_FAN_TABLE:
        return STANDARD_FAN_TABLE
    return FrozenMap(merged)


def player_multipliers(knob: str, v: Any) -> Optional[FrozenMap[str, Any]]:
    if v is None:
        return None
    expected = "None or {'allowed': (2, 4, 8), 'default': 8}"
    if not isinstance(v, Mapping):
        raise bad(knob, v, expected)
    if set(v) != {"allowed", "default"}:
        raise bad(knob, v, expected + " with exactly the keys 'allowed' and 'default'")
    allowed, default = v["allowed"], v["default"]
    if not _sequence(allowed) or not allowed or not all(_is_int(a) and a >= 1 for a in allowed):
        raise ValueError(
            f"bad value for knob {knob!r}: allowed {allowed!r} (expected a non-empty list of ints >= 1)"
        )
    if len(set(allowed)) != len(allowed):
        raise ValueError(f"bad value for knob {knob!r}: allowed {allowed!r} repeats a value")
    if not _is_int(default) or default not in allowed:
        raise ValueError(
            f"bad value for knob {knob!r}: default {default!r} is not one of allowed {allowed!r}"
        )
    return FrozenMap({"allowed": tuple(int(a) for a in allowed), "default": int(default)})


def stacking(knob: str, v: Any) -> Union[bool, str]:
    """``False``, ``True`` (= ``"base"``, kept as True so §1–§10 configurations read as before)
    or ``"additive"`` (docs/rules.md §11.3: ``jingoudiao``, ``heavenly_earthly``)."""
    if v is True or v == "base":
        return True
    if v is False or v == "additive":
        return v  # type: ignore[no-any-return]
    raise bad(knob, v, "False, True (= 'base'), 'base' or 'additive'")


def call_transfer(knob: str, v: Any) -> Union[bool, str]:
    """``True`` (= ``"each"``, kept as True), ``False``, ``"split"`` or ``"single_only"``."""
    if v is True or v == "each":
        return True
    if v is False or v in ("split", "single_only"):
        return v  # type: ignore[no-any-return]
    raise bad(knob, v, "True (= 'each'), False, 'each', 'split' or 'single_only'")


def suits(knob: str, v: Any) -> tuple[str, ...]:
    """A non-empty subset of m, p, s in any order, no repeats; kept in m, p, s order."""
    expected = "a non-empty list of distinct suits from 'm', 'p', 's', e.g. ('p', 's')"
    if not isinstance(v, (list, tuple)) or not v:
        raise bad(knob, v, expected)
    for x in v:
        if not isinstance(x, str) or x not in SUIT_LETTERS:
            raise ValueError(f"bad value for knob {knob!r}: {x!r} in {v!r} is not a suit "
                             f"(expected {expected}; 万 m, 筒 p, 条 s)")
    if len(set(v)) != len(v):
        raise ValueError(f"bad value for knob {knob!r}: {v!r} repeats a suit (expected {expected})")
    return tuple(s for s in SUIT_LETTERS if s in v)
