"""Scripted walls for the wild-tile scenario tests (docs/rules.md §12): a seat's hand is written as
held (``"123m456p789s1s1s7z"``), ``*`` fills the rest of a hand with quiet natural tiles (kinds no
part of the script names, never a wild), ``draws`` are the live wall from its first draw on and
``back`` the wall's last tiles, the last first (the 本金 under a 本金 rule, then the ``"back"``
kong replacements). Quiet tiles are single in a hand while there are enough quiet kinds."""

from __future__ import annotations

import collections
from typing import Dict, List, Optional, Sequence

import xueliu
from xueliu.rules import Rules

from .conftest import deal_order_indices

SUIT_KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)]


def split(text: str) -> List[str]:
    """``"123m7z"`` -> ``["1m", "2m", "3m", "7z"]``."""
    out: List[str] = []
    digits = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits += ch
        else:
            out.extend(d + ch for d in digits)
            digits = ""
    assert not digits, f"digits without a suit in {text!r}"
    return out


def wild_wall(rules: Rules, hands: Sequence[str], draws: Sequence[str] = (),
              back: Sequence[str] = (), dealer: int = 0) -> List[str]:
    """A wall for ``rules`` (four seats, 13-tile hands) dealing ``hands`` by seat."""
    wild = set() if rules.uses_benjin else {xueliu.tiles.PHYSICAL_NAMES[k]
                                            for k in rules.wild_set()}
    size = 36 * len(rules.suits) + rules.extra_wilds
    supply = collections.Counter({t: 4 for t in SUIT_KINDS if t[1] in rules.suits})
    supply["7z"] = rules.extra_wilds
    parts = {s: split(h.replace("*", "")) for s, h in enumerate(hands)}
    named = [t for p in parts.values() for t in p] + list(draws) + list(back)
    used = collections.Counter(named)
    for t, n in used.items():
        assert n <= supply[t], f"{n} of {t} in the script, the wall set has {supply[t]}"
    mentioned = set(named)
    quiet = [t for t in reversed(SUIT_KINDS) if t not in mentioned and t not in wild
             and t[1] in rules.suits and t not in ("1m", "1p", "1s")]
    filled: Dict[int, List[str]] = {}
    for s, h in enumerate(hands):
        want = 14 if s == dealer else 13
        tiles = list(parts[s])
        if "*" in h:
            for _ in range(2):  # singles first; pairs only when the quiet kinds run short
                for t in quiet:
                    if len(tiles) < want and used[t] < 4:
                        tiles.append(t)
                        used[t] += 1
        assert len(tiles) == want, f"seat {s}: {len(tiles)} tiles, want {want}"
        filled[s] = tiles
    rest = collections.Counter(supply)
    rest.subtract(used)
    pool = [t for t in SUIT_KINDS + ["7z"] for _ in range(rest[t])]
    wall: List[Optional[str]] = [None] * size
    for s, idxs in deal_order_indices(dealer).items():
        for i, t in zip(idxs, filled[s]):
            wall[i] = t
    for i, t in enumerate(draws):
        wall[53 + i] = t
    for i, t in enumerate(back):
        wall[size - 1 - i] = t
    free = [i for i, t in enumerate(wall) if t is None]
    assert len(free) == len(pool)
    for i, t in zip(free, pool):
        wall[i] = t
    return wall  # type: ignore[return-value]


def wild_game(rules: Rules, hands: Sequence[str], draws: Sequence[str] = (),
              back: Sequence[str] = (), dealer: int = 0, **kw):
    return xueliu.new_game(rules, wall=wild_wall(rules, hands, draws, back, dealer),
                           dealer=dealer, **kw)


def room(preset: str, **knobs) -> Rules:
    """A wild preset without the exchange and the void (unless asked)."""
    base = dict(exchange_three=False, declare_void=False)
    base.update(knobs)
    return Rules.preset(preset).replace(**base)
