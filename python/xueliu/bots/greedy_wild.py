"""GreedyBot at a table with wild tiles (docs/rules.md §12): the same one-step policy, read through
the table's wild set.

A seat's tiles are the 28 physical kinds (27 is 红中); the core reads them as natural counts plus a
number of wilds (``xueliu.game.wild_play``). The policy: win whenever it may; 提 whenever offered
(a wild in hand is worth more than the natural tile it replaces); discard by the core's 查听 with
the wild as a wait of its own (lowest shanten, most winning tiles, most fan); meld or kong when
the shanten does not rise; exchange and void on natural tiles only (wilds are never exchanged and
belong to no suit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Sequence, Tuple

from .. import _core
from ..rules import Rules
from ..game.wild_play import CoreMeld
from ..tiles import PHYSICAL_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from ..game.view import SeatView

__all__ = ["CoreMeld", "WildSeat", "wild_seat_of_observation", "wild_seat_of_view", "choose_wild"]

_KIND = {name: k for k, name in enumerate(PHYSICAL_NAMES)}
_MELD_TYPE = {"peng": 0, "kong": 1, "concealed_kong": 2}
_MELD_SIZE = {"peng": 3, "kong": 4, "concealed_kong": 4}


class WildSeat:
    """What the policy reads about its seat at a table with wilds."""

    __slots__ = ("counts", "kinds", "mask", "melds", "void", "visible", "frozen", "rules",
                 "scoring")

    def __init__(self, counts: Sequence[int], kinds: Sequence[int], melds: Sequence[CoreMeld],
                 void: int, visible: Sequence[int], frozen: bool, rules: Rules,
                 benjin: int) -> None:
        self.counts = list(counts) + [0] * (28 - len(counts))
        self.kinds = tuple(kinds)
        self.mask = sum(1 << k for k in kinds)
        self.melds: List[CoreMeld] = list(melds)
        self.void = void
        self.visible = list(visible) + [0] * (28 - len(visible))
        self.frozen = frozen
        self.rules = rules
        self.scoring = rules._scoring_for(benjin if benjin >= 0 else None)

    def split(self, counts: Sequence[int]) -> Tuple[bytes, int]:
        return (bytes(0 if self.mask >> k & 1 else counts[k] for k in range(27)),
                sum(counts[k] for k in self.kinds))

    def hand(self, counts: Sequence[int], melds: Sequence[CoreMeld]) -> _core.Hand:
        nat, w = self.split(counts)
        return _core.Hand(nat, list(melds), w)

    def shanten(self, counts: Sequence[int], melds: Sequence[CoreMeld]) -> int:
        try:
            return int(_core.shanten_wild(self.hand(counts, melds), self.void,
                                          self.rules._shape_code, self.mask,
                                          self.rules.wild_fifth_copy))
        except ValueError:  # melds that break the void or 缺一门
            return 99

    def wilds_left(self) -> int:
        melded = sum(m[2] for m in self.melds if len(m) == 3)
        seen = sum(self.visible[k] for k in self.kinds)
        own = sum(self.counts[k] for k in self.kinds)
        return max(0, self.rules.wild_count_in_wall() - own - melded - seen)

    def take(self, k: int, need: int) -> Tuple[List[int], int]:
        """The counts after ``need`` tiles of kind ``k`` go into a meld (naturals first, then
        the lowest wilds, as the engine takes them) and how many wilds went."""
        after = list(self.counts)
        nat = min(after[k], need)
        after[k] -= nat
        wilds = 0
        for j in self.kinds:
            while wilds < need - nat and after[j]:
                after[j] -= 1
                wilds += 1
        return after, wilds


def wild_seat_of_view(view: SeatView, rules: Rules) -> WildSeat:
    return WildSeat(view.hand, view.wild_kinds, view.melds, view.void, view.visible,
                    view.frozen[view.seat], rules, view.benjin)


def wild_seat_of_observation(obs: Mapping[str, Any], rules: Rules) -> WildSeat:
    seat = obs["seat"]
    counts = [0] * 28
    for t in obs["hand"]:
        counts[_KIND[t]] += 1
    kinds = [_KIND[t] for t in obs["wilds"]["kinds"]]
    melds = []
    for m in obs["melds"][seat]:
        wilds = m.get("wilds") or []
        melds.append((_MELD_TYPE[m["type"]], _KIND[m["tile"]], len(wilds)) if wilds
                     else (_MELD_TYPE[m["type"]], _KIND[m["tile"]]))
    visible = [0] * 28
    for river in obs["discards"]:
        for t in river:
            visible[_KIND[t]] += 1
    for t in obs["set_aside"]:
        visible[_KIND[t]] += 1
    if obs["wilds"]["benjin"] is not None:
        visible[_KIND[obs["wilds"]["benjin"]]] += 1
    for s, ms in enumerate(obs["melds"]):
        if s == seat:
            continue
        for m in ms:
            if m["tile"] not in _KIND:  # another seat's concealed kong is hidden ("?")
                continue
            wilds = m.get("wilds") or []
            visible[_KIND[m["tile"]]] += _MELD_SIZE[m["type"]] - len(wilds)
            for t in wilds:
                visible[_KIND[t]] += 1
    v = obs.get("void")
    frozen = obs.get("frozen")
    benjin = obs["wilds"]["benjin"]
    return WildSeat(counts, kinds, melds, -1 if v is None else "mps".index(v), visible,
                    bool(frozen and frozen[seat]), rules, -1 if benjin is None else _KIND[benjin])


def choose_wild(me: WildSeat, by_kind: Dict[str, List[Any]], legal: Sequence[Any],
                exchange: Any, void: Any) -> Any:
    """The greedy choice at a table with wilds; ``exchange`` and ``void`` are GreedyBot's own
    choosers (called with the natural counts)."""
    if "hu" in by_kind:
        return by_kind["hu"][0]
    if len(legal) == 1:
        return legal[0]
    rules = me.rules
    sp = rules._shape_code
    suits = rules.shape.suit_indices
    if "exchange" in by_kind:
        options = by_kind["exchange"]
        return exchange(me.split(me.counts)[0], options, sp, suits, len(options[0].tiles))
    if "void" in by_kind:
        return void(me.split(me.counts)[0], by_kind["void"], sp, suits)
    if "multiplier" in by_kind:
        return max(by_kind["multiplier"], key=lambda a: a.value)
    if "swap_back" in by_kind:
        return by_kind["swap_back"][0]
    kongs = by_kind.get("concealed_kong", []) + by_kind.get("added_kong", [])
    if "discard" in by_kind or kongs:
        if me.frozen:
            return kongs[0] if kongs else by_kind["discard"][0]
        return _turn(me, by_kind.get("discard", []), kongs, legal)
    return _claim(me, by_kind)


def _turn(me: WildSeat, discards: List[Any], kongs: List[Any], legal: Sequence[Any]) -> Any:
    by_name: Dict[str, Any] = {}
    for a in discards:
        name = "wild" if _KIND[a.tile] in me.kinds else a.tile
        by_name.setdefault(name, a)  # the lowest wild kind stands for "wild"
    best = None
    best_key = None
    now = None
    if discards:
        try:
            nat = me.split(me.counts)
            visible_nat = bytes(0 if me.mask >> k & 1 else me.visible[k] for k in range(27))
            options = _core.discard_options_wild(
                _core.Hand(nat[0], me.melds, nat[1]), visible_nat, me.void, me.scoring,
                me.wilds_left(), True)
        except ValueError:
            options = []
        for o in options:
            a = by_name.get(o.discard)
            if a is None:
                continue
            fan_value = sum(w.remaining * w.discard_win.multiplier for w in o.waits)
            key = (o.shanten, -o.total_remaining, -fan_value, -o.jinzhang_total)
            if best_key is None or key < best_key:
                best, best_key = a, key
        now = best_key[0] if best_key is not None else None
    if kongs:
        if now is None:
            now = me.shanten(me.counts, me.melds)
        for a in kongs:
            k = _KIND[a.tile]
            if a.kind == "concealed_kong":
                after, wilds = me.take(k, 4)
                melds = [*me.melds, (2, k, wilds) if wilds else (2, k)]
            else:
                after, wilds = me.take(k, 1)
                melds = []
                for m in me.melds:
                    if m[0] == 0 and m[1] == k:
                        w = (m[2] if len(m) == 3 else 0) + wilds
                        m = (1, k, w) if w else (1, k)
                    melds.append(m)
            if me.shanten(after, melds) <= now:
                return a
    if best is not None:
        return best
    return discards[0] if discards else legal[0]


def _claim(me: WildSeat, by_kind: Dict[str, List[Any]]) -> Any:
    kong = by_kind.get("kong")
    peng = by_kind.get("peng")
    if kong or peng:
        now = me.shanten(me.counts, me.melds)
        for offered, used, meld_type in ((kong, 3, 1), (peng, 2, 0)):
            if offered:
                k = _KIND[offered[0].tile]
                after, wilds = me.take(k, used)
                meld = (meld_type, k, wilds) if wilds else (meld_type, k)
                if wilds == 0 and me.shanten(after, [*me.melds, meld]) <= now:
                    return offered[0]
    passes = by_kind.get("pass")
    if passes:
        return passes[0]
    return (kong or peng or [None])[0] or next(iter(by_kind.values()))[0]
