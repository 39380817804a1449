"""One hand analysed as a player asks (分析): what ``xueliu analyze`` prints, the table server's
``POST /api/analyze`` returns and the browser table's help shows — one function for all three.

>>> result = analyze("12345678m22p4566p", visible="3m3m9m")
>>> [o.discard for o in result["discards"][:2]]
['6p', '1m']
>>> as_json(analyze("1112345678999m"))["waits"][0]["tile"]
'1m'
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Union

from . import _core
from .hand import WaitOption, best_discards, evaluate, jinzhang, shanten
from .rules import Rules
from .tiles import Hand, parse_hand, tile_index, tile_name

__all__ = ["analyze", "as_json"]

_VOIDS = {"m": "m", "p": "p", "s": "s", "万": "m", "筒": "p", "条": "s"}


def _with_tile(hand: Hand, k: int) -> Hand:
    """``hand`` with one more concealed tile of kind ``k``."""
    counts = hand.counts.tolist()
    counts[k] += 1
    return Hand(counts, hand.melds)


def _plural(n: int, noun: str) -> str:
    """``"1 meld"``, ``"3 melds"``."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _visible_counts(visible: Union[str, Sequence[str], None]) -> list[int]:
    """Copies of each kind seen elsewhere, from notation or a list of tile names."""
    if visible is None or visible == "":
        return [0] * 27
    if isinstance(visible, str):
        return [int(c) for c in parse_hand(visible).held()]
    counts = [0] * 27
    for t in visible:
        if not isinstance(t, str):
            raise TypeError(f"visible tiles are names like '5m', got {type(t).__name__}")
        counts[tile_index(t)] += 1
    return counts


def analyze(hand: Union[str, Hand], *, void: Optional[str] = None,
            visible: Union[str, Sequence[str], None] = None,
            rules: Union[str, Rules, None] = None,
            benjin: Optional[str] = None) -> Dict[str, Any]:
    """The analysis of a hand of 13 - 3k or 14 - 3k concealed tiles (k melds; ``rules.hand_size``
    - 3k or one more at 10- and 7-tile tables), as Python results:

    - 13 - 3k: ``shanten``, ``jinzhang`` (``(tile, remaining)``), ``jinzhang_total`` and, when
      ready, ``waits`` (:class:`~xueliu.WaitOption`: fan as a discard win and as a self-draw);
    - 14 - 3k, complete: ``shanten`` -1, ``fan`` and ``self_draw`` (:class:`~xueliu.FanResult`);
    - 14 - 3k otherwise: ``shanten`` and ``discards``, every :func:`~xueliu.best_discards` option.

    ``visible`` (notation or tile names) counts the copies seen elsewhere; ``void`` m/p/s or
    万/筒/条. Bad input is a ``ValueError`` naming it. With wild tiles (docs/rules.md §12) the
    hand is notation as held (红中, soft melds), the wild is a wait of its own (``"wild"``) and
    ``benjin`` names the 本金 under a 本金 rule.
    """
    r = Rules.preset("xueliu") if rules is None else (
        Rules.preset(rules) if isinstance(rules, str) else rules)
    if void is not None and void not in _VOIDS:
        raise ValueError(f"void must be m, p, s, 万, 筒 or 条, got {void!r}")
    if r.has_wilds or benjin is not None:
        return _analyze_wild(hand, None if void is None else _VOIDS[void], visible, r, benjin)
    h = parse_hand(hand) if isinstance(hand, str) else hand
    if not isinstance(h, Hand):
        raise TypeError(f"hand must be notation or a Hand, got {type(hand).__name__}")
    v = None if void is None else _VOIDS[void]
    seen = _visible_counts(visible)
    held = [int(c) for c in h.held()]
    for k in range(27):
        if held[k] + seen[k] > 4:
            raise ValueError(f"visible: {held[k] + seen[k]} copies of {tile_name(k)} counting "
                             "the hand (at most 4)")
    k_melds = len(h.melds)
    n = int(sum(h.counts))
    size = r.hand_size  # 13, or 10 / 7 (docs/rules.md §11.1)
    if n not in (size - 3 * k_melds, size + 1 - 3 * k_melds):
        raise ValueError(
            f"a hand to analyze has {size} - 3k tiles (shanten and waits) or {size + 1} - 3k (查听 "
            f"or a complete hand) with k melds; {str(h)!r} has {_plural(n, 'concealed tile')} and "
            f"{_plural(k_melds, 'meld')}")
    sh = shanten(h, void=v, rules=r)
    if n == size - 3 * k_melds:
        jz = jinzhang(h, visible=seen, void=v, rules=r)
        options = []
        if sh == 0:  # a ready hand's 进张 are its waits
            for tile, left in jz:
                win = _with_tile(h, tile_index(tile))
                options.append(WaitOption(
                    tile, left, evaluate(win, void=v, win_tile=tile, rules=r),
                    evaluate(win, void=v, win_tile=tile, self_draw=True, rules=r)))
        return {"shanten": sh, "waits": options, "jinzhang": jz,
                "jinzhang_total": sum(left for _, left in jz)}
    if sh == -1:
        return {"shanten": -1, "fan": evaluate(h, void=v, rules=r),
                "self_draw": evaluate(h, void=v, self_draw=True, rules=r)}
    return {"shanten": sh, "discards": best_discards(h, visible=seen, void=v, rules=r)}


def _analyze_wild(hand: Union[str, Hand], v: Optional[str],
                  visible: Union[str, Sequence[str], None], r: Rules,
                  benjin: Optional[str]) -> Dict[str, Any]:
    """:func:`analyze` under rules with wild tiles: the same results, the hand as held."""
    text = str(hand)
    counts, melds = _core.parse_physical(text)
    # Tile names or notation: the notation (红中 and soft melds read as held).
    seen = (visible if visible is None or isinstance(visible, str) else "".join(visible)) or None
    n, k_melds, size = sum(counts), len(melds), r.hand_size
    if n not in (size - 3 * k_melds, size + 1 - 3 * k_melds):
        raise ValueError(
            f"a hand to analyze has {size} - 3k tiles (shanten and waits) or {size + 1} - 3k (查听 "
            f"or a complete hand) with k melds; {text!r} has {_plural(n, 'concealed tile')} and "
            f"{_plural(k_melds, 'meld')}")
    kw: Dict[str, Any] = {"void": v, "rules": r, "benjin": benjin}
    sh = shanten(text, **kw)
    if n == size - 3 * k_melds:
        jz = jinzhang(text, visible=seen, **kw)
        options = []
        if sh == 0:  # a ready hand's 进张 are its waits, the wild among them
            for tile, left in jz:
                drawn = _a_wild(r, benjin, counts, melds) if tile == "wild" else tile
                win = drawn + text  # a concealed tile goes before the melds
                options.append(WaitOption(
                    tile, left, evaluate(win, win_tile=drawn, **kw),
                    evaluate(win, win_tile=drawn, self_draw=True, **kw)))
        return {"shanten": sh, "waits": options, "jinzhang": jz,
                "jinzhang_total": sum(left for _, left in jz)}
    if sh == -1:
        return {"shanten": -1, "fan": evaluate(text, **kw),
                "self_draw": evaluate(text, self_draw=True, **kw)}
    return {"shanten": sh, "discards": best_discards(text, visible=seen, **kw)}


def _a_wild(r: Rules, benjin: Optional[str], counts: bytes,
            melds: list[tuple[int, int, tuple[int, ...]]]) -> str:
    """The name of a wild tile a hand could still draw (a wild kind it holds fewer than all of):
    what stands for "a wild" in a win the analysis scores."""
    held = list(counts)
    for _, kind, wild_tiles in melds:
        for t in wild_tiles:
            held[t] += 1
    for k in sorted(r.wild_set(benjin)):
        if held[k] < (r.extra_wilds if k == 27 else 4):
            return "7z" if k == 27 else tile_name(k)
    raise ValueError("the hand holds every wild of the wall set: no wild is left to draw")


def as_json(value: Any) -> Any:
    """A result as JSON data: NamedTuples as objects keyed by their field names, tuples as
    arrays (docs/analyze-json.md)."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {name: as_json(v) for name, v in zip(value._fields, value)}
    if isinstance(value, dict):
        return {key: as_json(v) for key, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [as_json(v) for v in value]
    return value
