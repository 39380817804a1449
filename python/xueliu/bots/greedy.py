"""GreedyBot: a fast one-step-lookahead player built on the core's shanten and 查听.

Policy (each rule only among the legal actions):

- **win** whenever it may (胡 is always taken);
- **exchange** three tiles of the weakest suit and **void** the weakest suit, where a suit's
  weakness is the shanten of the hand with that suit declared void (ties: fewer tiles of the suit,
  then the lower suit); the three tiles given are the least connected ones;
- **discard** to the lowest shanten, then (when ready) to keep the most remaining winning tiles
  counted from what this seat can see, then to the most fan (the sum over the waits of remaining
  copies × payment multiplier); among discards still equal, the least connected tile goes
  (pairs, neighbours and middle ranks are worth keeping);
- **peng / kong** (direct, concealed or added) when the hand's shanten does not rise;
- **multiplier** (选倍): the largest allowed value;
- a won xueliu hand takes every kong it is offered (the engine offers only those that keep the
  waits), otherwise discards the drawn tile;
- at a table with wild tiles (docs/rules.md §12) the same, read through the wild set
  (``greedy_wild.py``): 提 whenever offered, and no wild spent on a soft peng or kong.

``rules`` tells the bot which scoring table to look up fan with; by default it uses the preset
named by the observation's ``mode``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from .. import _core
from ..rules import Rules
from .base import Bot
from .greedy_wild import CoreMeld, choose_wild, wild_seat_of_observation, wild_seat_of_view

if TYPE_CHECKING:  # pragma: no cover
    from ..game.actions import Action
    from ..game.view import SeatView

__all__ = ["GreedyBot"]

_KIND = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}
_SUIT = {"m": 0, "p": 1, "s": 2}
_MELD_TYPE = {"peng": 0, "kong": 1, "concealed_kong": 2}
_MELD_SIZE = {"peng": 3, "kong": 4, "concealed_kong": 4}
# Terminals are the least useful tiles, middle ranks the most (they make the most chows).
_RANK_BONUS = (-1.0, -0.5, 0.0, 0.25, 0.25, 0.25, 0.0, -0.5, -1.0)

def _tile_value(counts: Sequence[int], k: int) -> float:
    """How much keeping one copy of kind ``k`` is worth to the shape (higher = keep)."""
    r = k % 9
    v = (counts[k] - 1) * 4.0 + _RANK_BONUS[r]
    if r >= 1:
        v += counts[k - 1] * 3.0
        if r >= 2:
            v += counts[k - 2] * 1.5
    if r <= 7:
        v += counts[k + 1] * 3.0
        if r <= 6:
            v += counts[k + 2] * 1.5
    return v


class _Seat(Protocol):
    """What the policy reads about its seat: a :class:`~xueliu.game.view.SeatView`, or
    :class:`_FromObservation` over a JSON observation."""

    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> bytes: ...
    @property
    def melds(self) -> Tuple[CoreMeld, ...]: ...
    @property
    def void(self) -> int: ...
    @property
    def visible(self) -> bytes: ...
    @property
    def frozen(self) -> Tuple[bool, ...]: ...


class _FromObservation:
    """The reads of :class:`_Seat`, answered from a JSON observation (tile names to counts)."""

    __slots__ = ("_obs", "seat")

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self._obs = obs
        self.seat: int = obs["seat"]

    @property
    def hand(self) -> bytes:
        counts = [0] * 27
        for t in self._obs["hand"]:
            counts[_KIND[t]] += 1
        return bytes(counts)

    @property
    def melds(self) -> Tuple[CoreMeld, ...]:
        return tuple((_MELD_TYPE[m["type"]], _KIND[m["tile"]]) for m in self._obs["melds"][self.seat])

    @property
    def void(self) -> int:
        v = self._obs.get("void")
        return -1 if v is None else _SUIT[v]

    @property
    def visible(self) -> bytes:
        """Copies of each kind this seat sees outside its own hand and melds."""
        obs = self._obs
        seen = [0] * 27
        for river in obs["discards"]:
            for t in river:
                seen[_KIND[t]] += 1
        for t in obs["set_aside"]:
            seen[_KIND[t]] += 1
        for s, ms in enumerate(obs["melds"]):
            if s == self.seat:
                continue
            for m in ms:
                t = m["tile"]
                if t in _KIND:  # another seat's concealed kong is hidden ("?")
                    seen[_KIND[t]] += _MELD_SIZE[m["type"]]
        return bytes(seen)

    @property
    def frozen(self) -> Tuple[bool, ...]:
        frozen = self._obs.get("frozen")
        return (False,) * len(self._obs["discards"]) if frozen is None else tuple(frozen)


def _by_kind(legal_actions: Sequence[Any]) -> Dict[str, List[Any]]:
    by_kind: Dict[str, List[Any]] = {}
    for a in legal_actions:
        by_kind.setdefault(a.kind, []).append(a)
    return by_kind


class GreedyBot(Bot):
    """Greedy shanten / 查听 player (see the module docstring). Deterministic; ``seed`` is
    accepted for a uniform bot constructor and ignored.

    >>> from xueliu.bots import GreedyBot, RandomBot, play_hand
    >>> import xueliu
    >>> state = play_hand(xueliu.new_game(seed=2), [GreedyBot()] + [RandomBot(s) for s in range(3)])
    >>> state.is_over
    True
    """

    name = "greedy"

    def __init__(self, seed: Optional[int] = None, rules: Optional[Rules] = None) -> None:
        self._rules = rules

    @staticmethod
    def _shanten(counts: Sequence[int], melds: Sequence[CoreMeld], void: int,
                 sp: int) -> int:
        # The native core directly: this runs several times per decision in simulations.
        try:
            return _core.shanten(_core.Hand(bytes(counts), list(melds)), void, sp)
        except ValueError:  # melds that break the void or 缺一门: no complete hand exists
            return 99

    # -- the policy -----------------------------------------------------------------------------

    def start_hand(self, seat: int, rules: Rules, seed: int) -> None:
        self._rules = rules  # the hand's rules (it keeps nothing else from hand to hand)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        rules = self._rules
        if rules is None:  # the preset the observation names (Rules.preset caches it)
            rules = Rules.preset(observation.get("mode", "xueliu"))
        if rules.has_wilds:
            return choose_wild(wild_seat_of_observation(observation, rules),
                               _by_kind(legal_actions), legal_actions, self._exchange, self._void)
        return self._choose(_FromObservation(observation), legal_actions, rules)

    def act_view(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        """The same policy, from the counts of a :class:`~xueliu.game.view.SeatView` (no tile
        names to read back); by default with the rules of the game it plays."""
        rules = self._rules if self._rules is not None else view.rules
        if rules.has_wilds:
            choice: Action = choose_wild(wild_seat_of_view(view, rules), _by_kind(legal_actions),
                                         legal_actions, self._exchange, self._void)
            return choice
        result: Action = self._choose(view, legal_actions, rules)
        return result

    def _choose(self, me: _Seat, legal_actions: Sequence[Any], rules: Rules) -> Any:
        if not legal_actions:
            raise ValueError("GreedyBot was asked to act with no legal action")
        by_kind: Dict[str, List[Any]] = {}
        for a in legal_actions:
            lst = by_kind.get(a.kind)
            if lst is None:
                by_kind[a.kind] = [a]
            else:
                lst.append(a)
        if "hu" in by_kind:
            return by_kind["hu"][0]
        if len(legal_actions) == 1:
            return legal_actions[0]
        counts = me.hand
        sp = rules._shape_code  # seven pairs, suits and hand size in play (1 = True by default)
        suits = rules.shape.suit_indices
        if "exchange" in by_kind:
            options = by_kind["exchange"]  # 换三张 / 换四张: as many tiles as the options give
            return self._exchange(counts, options, sp, suits, len(options[0].tiles))
        if "void" in by_kind:
            return self._void(counts, by_kind["void"], sp, suits)
        if "multiplier" in by_kind:
            return max(by_kind["multiplier"], key=lambda a: a.value)
        melds = me.melds
        void = me.void
        if "discard" in by_kind:
            return self._turn(me, by_kind, counts, melds, void, rules)
        return self._claim(by_kind, counts, melds, void, sp)

    def _suit_order(self, counts: Sequence[int], sp: int, suits: Sequence[int]) -> List[int]:
        """``suits`` weakest first: shanten with that suit void, then fewer tiles, then lower
        suit."""
        key = []
        for u in suits:
            n = sum(counts[9 * u:9 * u + 9])
            key.append((self._shanten(counts, (), u, sp), n, u))
        return [u for _, _, u in sorted(key)]

    def _exchange(self, counts: Sequence[int], options: List[Any], sp: int,
                  suits: Sequence[int], give: int) -> Any:
        for u in self._suit_order(counts, sp, suits):
            tiles = [k for k in range(9 * u, 9 * u + 9) for _ in range(counts[k])]
            if len(tiles) < give:  # 换三张 / 换四张: that many of one suit
                continue
            tiles.sort(key=lambda k: (_tile_value(counts, k), -k))
            want = tuple(sorted(tiles[:give]))
            for a in options:
                if tuple(_KIND[t] for t in a.tiles) == want:
                    return a
        # No suit holds that many (换四张 with 7-tile hands, docs/rules.md §11.1): any tiles may go, so
        # the least useful ones of the whole hand.
        tiles = sorted((k for k in range(27) for _ in range(counts[k])),
                       key=lambda k: (_tile_value(counts, k), -k))
        want = tuple(sorted(tiles[:give]))
        return next((a for a in options if tuple(_KIND[t] for t in a.tiles) == want), options[0])

    def _void(self, counts: Sequence[int], options: List[Any], sp: int,
              suits: Sequence[int]) -> Any:
        u = self._suit_order(counts, sp, suits)[0]
        for a in options:
            if a.suit == "mps"[u]:
                return a
        return options[0]

    def _turn(self, me: _Seat, by_kind: Dict[str, List[Any]], counts: bytes,
              melds: Tuple[CoreMeld, ...], void: int, rules: Rules) -> Any:
        discards = by_kind["discard"]
        kongs = by_kind.get("concealed_kong", []) + by_kind.get("added_kong", [])
        if me.frozen[me.seat]:
            # A won xueliu hand: the engine offers only kongs that keep its waits.
            return kongs[0] if kongs else discards[0]
        legal = {a.id: a for a in discards}  # a discard's id is its kind
        sp = rules._shape_code
        try:
            options = _core.best_discards(_core.Hand(counts, list(melds)), me.visible, void,
                                          rules._scoring)
        except ValueError:
            options = []
        best = None
        best_key = None
        ties: List[int] = []
        for option in options:  # (discard kind, shanten, total remaining, waits, ...)
            d = option[0]
            if d not in legal:
                continue
            fan_value = 0
            for wait in option[3]:  # (kind, remaining, discard-win fan tuple, ...)
                fan_value += wait[1] * wait[2][1]
            key = (option[1], -option[2], -fan_value)
            if best_key is None or key < best_key:
                best, best_key, ties = d, key, [d]
            elif key == best_key:
                ties.append(d)
        if len(ties) > 1:  # equal by the core's measures: shed the least connected tile
            best = min(ties, key=lambda k: (_tile_value(counts, k), -k))
        if kongs:
            now = best_key[0] if best_key is not None else self._shanten(counts, melds, void, sp)
            for a in kongs:
                k = _KIND[a.tile]
                after = list(counts)
                if a.kind == "concealed_kong":
                    after[k] -= 4
                    new_melds = [*melds, (2, k)]
                else:
                    after[k] -= 1
                    new_melds = [(1, k) if m == (0, k) else m for m in melds]
                if self._shanten(after, new_melds, void, sp) <= now:
                    return a
        if best is None:
            return min(discards, key=lambda a: (_tile_value(counts, a.id), -a.id))
        return legal[best]

    def _claim(self, by_kind: Dict[str, List[Any]], counts: bytes,
               melds: Tuple[CoreMeld, ...], void: int, sp: int) -> Any:
        passes = by_kind.get("pass")
        kong = by_kind.get("kong")
        peng = by_kind.get("peng")
        if kong or peng:
            now = self._shanten(counts, melds, void, sp)
            # (offered, tiles taken from the hand, native meld type): a kong before a peng.
            for offered, used, meld_type in ((kong, 3, 1), (peng, 2, 0)):
                if offered:
                    k = _KIND[offered[0].tile]
                    after = list(counts)
                    after[k] -= used
                    if self._shanten(after, [*melds, (meld_type, k)], void, sp) <= now:
                        return offered[0]
        if passes:
            return passes[0]
        # Only a kong is offered (a won xueliu hand's claim window): take it.
        return (kong or peng or [None])[0] or next(iter(by_kind.values()))[0]
