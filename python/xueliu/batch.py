"""Batch forms of is_win, waits, shanten and evaluate over numpy arrays (native, GIL released).

Inputs, one row per hand:

- ``counts``: ``uint8[N, 27]`` concealed counts (any integer dtype with values 0..4 is accepted);
- ``melds``: ``int16[N, 4]`` or None: ``-1`` for no meld, else ``27 * type + kind`` with type
  0 peng, 1 exposed kong, 2 concealed kong;
- ``void``: ``int8[N]`` or None: ``-1`` for none, else the suit 0 (m), 1 (p), 2 (s);
- with wild tiles (docs/rules.md §12), ``wilds``: ``uint8[N]``, the concealed wilds of each row
  whatever their physical kinds — ``counts`` then holds the natural tiles only (a wild kind's
  column 0) — and a soft meld's code adds ``81 * w`` for its ``w`` wilds; ``benjin=`` names the
  本金 of every row under ``wild_kinds = "benjin"`` / ``"benjin_plus"``.

>>> import numpy as np
>>> counts, melds = encode(["12334577m23345p", "1m(222p)(333p)(444p)(555p)"])
>>> waits(counts, melds)  # bit k = kind k: 1p 4p, then 1m
array([4608,    1], dtype=uint32)

Arrays are validated (dtype kind, shape, values) and never cast silently: a float array or a
value out of range is a ``ValueError`` naming the argument; a non-array is a ``TypeError``. The
core validates each row once, as it loads it (no separate pass over the array); ``rules`` is a
``Rules``, a preset name or None (the ``xueliu`` preset), and its table shape applies to every
row: the hand size (rows of ``hand_size + 1 - 3k`` / ``hand_size - 3k`` tiles) and the suits in
play (a tile of another suit is a bad row).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional, Union

import numpy as np

from . import _core
from .hand import RulesLike, _evaluate_flags
from .hand_wilds import wild_args as _wild_args
from .hand import _rules as _hand_rules
from .patterns import PATTERN_IDS
from .rules import Rules
from .tiles import Hand, parse_hand

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["is_win", "waits", "shanten", "evaluate", "encode", "PATTERN_IDS"]

_DEFAULT_RULES = Rules.preset("xueliu")


def _array(name: str, x: Any, shape: tuple[Optional[int], ...], lo: int, hi: int,
           dtype: type[np.integer[Any]]) -> npt.NDArray[Any]:
    """Validate one input array; ``shape`` uses None for the free row count N."""
    want = "(" + ", ".join("N" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
    if isinstance(x, (str, bytes, dict, set, frozenset)) or x is None:
        raise TypeError(f"{name} must be an integer array of shape {want}, got {type(x).__name__}")
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:  # ragged nested sequences
        raise ValueError(f"{name} must be an integer array of shape {want}: {e}") from None
    kind = a.dtype.kind
    if kind == "O":
        raise TypeError(f"{name} must be an integer array of shape {want}, got {type(x).__name__}")
    if kind not in "iu":
        raise ValueError(f"{name} must hold integers (shape {want}), got dtype {a.dtype}")
    if a.ndim != len(shape) or any(s is not None and s != t for s, t in zip(shape, a.shape)):
        raise ValueError(f"{name} must have shape {want}, got {a.shape}")
    if a.size:
        if (kind == "i" and a.min() < lo) or a.max() > hi:
            bad = np.argwhere((a < lo) | (a > hi))[0]
            where = ", ".join(map(str, bad))
            raise ValueError(f"{name}[{where}] = {a[tuple(bad)]} out of range {lo}..{hi}")
    return np.ascontiguousarray(a, dtype=dtype)


def _inputs(counts: Any, melds: Any, void: Any, wilds: Any = None, soft: bool = False
            ) -> tuple[npt.NDArray[Any], Optional[npt.NDArray[Any]], Optional[npt.NDArray[Any]]]:
    c = _array("counts", counts, (None, 27), 0, 4, np.uint8)
    n = c.shape[0]
    top = 80 + 81 * 3 if soft else 80  # a soft meld's code adds 81 per wild
    m = None if melds is None else _array("melds", melds, (n, 4), -1, top, np.int16)
    v = None if void is None else _array("void", void, (n,), -1, 2, np.int8)
    if wilds is not None:
        _array("wilds", wilds, (n,), 0, 14, np.uint8)
    return c, m, v


def _wild_kw(rules: Rules, wilds: Any, benjin: Any) -> dict[str, Any]:
    """The core's wild arguments of a batch call; {} for rules without wilds (and no wilds)."""
    if not rules.has_wilds and benjin is None:
        if wilds is not None:
            raise ValueError("wilds given, but the rules have no wild tiles (docs/rules.md §12)")
        return {}
    return dict(_wild_args(rules, benjin).kw, wilds=wilds)


def _threads(threads: Any) -> int:
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be an int >= 1, got {threads!r}")
    return int(threads)


def _rules(rules: Any) -> Rules:
    if rules is None:
        return _DEFAULT_RULES
    return _hand_rules(rules)  # a Rules or a preset name; TypeError for anything else


def _rows_error(counts: Any, melds: Any, void: Any, kw: Optional[dict[str, Any]] = None) -> None:
    """After the core refused the arrays: raise the argument-level error (naming the argument and
    the index of a bad value) when there is one, so that the core's own row message stands only
    for what a row alone shows (a fifth copy, a wrong tile count)."""
    _inputs(counts, melds, void, (kw or {}).get("wilds"), bool(kw))


def is_win(counts: Any, melds: Any = None, void: Any = None, *, rules: RulesLike = None,
           threads: int = 1, wilds: Any = None,
           benjin: Any = None) -> npt.NDArray[np.bool_]:
    """``bool[N]``: whether each 14 - 3k row is a complete win (docs/rules.md §5)."""
    r, t = _rules(rules), _threads(threads)
    kw = _wild_kw(r, wilds, benjin) if wilds is not None or benjin is not None or r.has_wilds else {}
    try:  # the core checks every row once, as it loads it
        return _core.batch_is_win(counts, melds, void, r._shape_code, t, **kw)
    except (ValueError, TypeError):
        _rows_error(counts, melds, void, kw)
        raise


def waits(counts: Any, melds: Any = None, void: Any = None, *, rules: RulesLike = None,
          threads: int = 1, wilds: Any = None,
          benjin: Any = None) -> npt.NDArray[np.uint32]:
    """``uint32[N]``: the waits of each 13 - 3k row as a bitmask (bit k = kind k)."""
    r, t = _rules(rules), _threads(threads)
    kw = _wild_kw(r, wilds, benjin) if wilds is not None or benjin is not None or r.has_wilds else {}
    try:
        return _core.batch_waits(counts, melds, void, r._shape_code, t, **kw)
    except (ValueError, TypeError):
        _rows_error(counts, melds, void, kw)
        raise


def shanten(counts: Any, melds: Any = None, void: Any = None, *, rules: RulesLike = None,
            threads: int = 1, wilds: Any = None,
            benjin: Any = None) -> npt.NDArray[np.int8]:
    """``int8[N]``: exact shanten of each 13 - 3k or 14 - 3k row (docs/rules.md §5)."""
    r, t = _rules(rules), _threads(threads)
    kw = _wild_kw(r, wilds, benjin) if wilds is not None or benjin is not None or r.has_wilds else {}
    try:
        return _core.batch_shanten(counts, melds, void, r._shape_code, t, **kw)
    except (ValueError, TypeError):
        _rows_error(counts, melds, void, kw)
        raise


def evaluate(counts: Any, melds: Any = None, void: Any = None, *, rules: RulesLike = None,
             threads: int = 1, self_draw: bool = False, kong_replacement: bool = False,
             after_kong_discard: bool = False, robbed_kong: bool = False, last_tile: bool = False,
             heavenly: bool = False, earthly: bool = False, wilds: Any = None,
             benjin: Any = None) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """``(fan int16[N], base code int8[N])`` of each 14 - 3k row; a row that is not a win has code
    -1 and fan 0 (as ``_core.batch_evaluate``). ``PATTERN_IDS[code]`` is the base pattern id
    (``PATTERN_CODES``: 21 is 四鸡 ``siji``). The flags (as in :func:`xueliu.evaluate`) apply to
    every row. With wild tiles a row is scored on its best reading, or as 四鸡 (a self-draw of
    four concealed wilds under ``four_wilds``)."""
    r, t = _rules(rules), _threads(threads)
    kw = _wild_kw(r, wilds, benjin) if wilds is not None or benjin is not None or r.has_wilds else {}
    sc = r._scoring_for(_wild_args(r, benjin).benjin) if kw else r._scoring
    flags = _evaluate_flags(self_draw, kong_replacement, after_kong_discard, robbed_kong,
                            last_tile, heavenly, earthly)
    try:
        if kw:
            return _core.batch_evaluate(counts, melds, void, sc, flags, t, wilds=kw["wilds"])
        return _core.batch_evaluate(counts, melds, void, sc, flags, t)
    except (ValueError, TypeError):
        _rows_error(counts, melds, void, kw)
        raise


def encode(hands: Iterable[Union[Hand, str]]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16]]:
    """``(counts uint8[N, 27], melds int16[N, 4])`` of Hands or notation texts."""
    rows = [h if isinstance(h, Hand) else parse_hand(h) for h in hands]
    counts = np.zeros((len(rows), 27), dtype=np.uint8)
    melds = np.full((len(rows), 4), -1, dtype=np.int16)
    for i, h in enumerate(rows):
        counts[i] = h.counts
        for j, m in enumerate(h.melds):
            melds[i, j] = m.code
    return counts, melds
